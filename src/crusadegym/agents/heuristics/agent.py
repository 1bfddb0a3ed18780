"""The heuristic agent: plays its game's registered strategy (see the package docstring)."""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

from ..base import Agent
from ..kernels import bound_lookahead
from ..repetition import RepetitionGuard
from . import Heuristic, extend_mask, resolve_heuristic, value_kernel

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
    legal = np.isfinite(values)
    if tried:
        fresh = legal.copy()
        fresh[list(tried)] = False
        if fresh.any():
            legal = fresh
    best = values[legal].max()
    ties = np.flatnonzero(legal & (values >= best - TIE_TOLERANCE))
    return int(ties[rng.integers(len(ties))]) if len(ties) > 1 else int(ties[0])


class HeuristicAgent(Agent):
    """Plays the heuristic registered for the game it is asked about."""

    name = "heuristic"

    def __init__(self, seed: int = 0, value: str | None = None) -> None:
        super().__init__(seed)
        self.heuristic: Heuristic | None = None
        """``None``: the game's own; ``heuristic:value=PATH.npz``: a learned evaluation
        (:mod:`crusadegym.agents.learned_value`) in the same greedy lookahead."""
        if value is not None:
            from ..learned_value import LearnedValue

            self.heuristic = LearnedValue.load(value).heuristic()
        self.repetition = RepetitionGuard()
        """The moves played from each position of this game: never the same twice."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.repetition.reset()

    def act_state(self, game: Game, state: np.ndarray) -> int:
        heuristic = resolve_heuristic(game, self.heuristic)
        if heuristic.choose is not None:
            return int(heuristic.choose(game, state, self.rng))
        tried = self.repetition.tried(game, state)
        action = greedy_action(game, state, heuristic, self.rng, tried)
        return self.repetition.record(game, state, action)
