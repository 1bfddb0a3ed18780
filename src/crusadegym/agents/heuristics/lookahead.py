"""The greedy lookahead over a heuristic's evaluation: every action's value, and the best one
(the policy of :class:`crusadegym.agents.heuristic_agent.HeuristicAgent`)."""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

from ..kernels import bound_lookahead
from ..repetition import untried
from . import Heuristic, extend_mask, value_kernel

TIE_TOLERANCE = 1e-12
"""Lookahead values this close to the best are a tie, broken by the agent's RNG. Far
below any real difference: a decided Campaign's moves differ by about 5e-7, and a
random jitter of 1e-6 (as before) made the leader wander instead of finishing (issue #36)."""


def action_values(game: Game, state: np.ndarray, heuristic: Heuristic) -> np.ndarray:
    """The mover's lookahead value of every action (``-inf`` where illegal).

    One compiled call over copies (``state`` is not modified): one ply, or two for
    the actions the heuristic's ``extend`` rule marks (see the package docstring).
    """
    extend = extend_mask(game, state, heuristic)
    values = np.empty(game.num_actions, np.float64)
    run = bound_lookahead(game, value_kernel(game, heuristic))
    run(state, game.params, game.num_actions, game.num_players, extend, values)
    return values


def greedy_action(
    game: Game, state: np.ndarray, heuristic: Heuristic, rng: np.random.Generator,
    tried: set[int] | frozenset[int] = frozenset(),
) -> int:  # fmt: skip
    """The legal action whose lookahead value is best for the mover; actions within
    :data:`TIE_TOLERANCE` of the best are a tie, drawn with ``rng``. Actions in ``tried``
    (played from this position before: :mod:`..repetition`) are left out unless they are
    all there is."""
    game.check_state(state)
    if game.is_terminal(state):
        raise ValueError(f"{game.name}: the game is over; no action to choose")
    values = action_values(game, state, heuristic)
    candidates = untried(np.flatnonzero(np.isfinite(values)), tried)
    best = values[candidates].max()
    ties = candidates[values[candidates] >= best - TIE_TOLERANCE]
    return int(ties[rng.integers(len(ties))]) if len(ties) > 1 else int(ties[0])
