"""The one agent interface, and the single place that asks an agent for a move.

Every agent answers ``act(observation, action_mask) -> int`` (one decision) and
``act_batch(observations, masks) -> np.ndarray`` (one decision per row). That is
all a policy that sees only what a seat sees needs, and all an env wrapper or a
learned policy can offer.

Search agents (MCTS, the one-ply heuristic) need more than an observation: they
clone the core state and step it. They implement the optional hook
``act_state(game, state) -> int``. :func:`select_action` is the one dispatch
point the arena, ``crusadegym play`` and embedded opponents use:

* if the agent has ``act_state``, it gets the core :class:`~crusadegym.core.Game`
  and the live state (which it must not modify; it searches on copies);
* otherwise it gets ``game.observe(state, seat)`` and ``game.legal_mask(state)``.

Either way the answer is checked against the legal mask, so a buggy agent
fails with a readable :class:`~crusadegym.core.IllegalActionError`.

Every agent owns a seeded :class:`numpy.random.Generator` (constructor ``seed``),
so a match is reproducible from its seeds alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from crusadegym.core import Game, IllegalActionError


class Agent:
    """Base class: a named decision maker with its own seeded RNG."""

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)

    def reset(self, seed: int | None = None) -> None:
        """Start afresh (a new game); reseed the RNG when ``seed`` is given."""
        if seed is not None:
            self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action to play given one observation and its legal-action mask."""
        raise NotImplementedError(
            f"{type(self).__name__} needs the core state: call act_state(game, state) "
            "(crusadegym.agents.select_action does this for you)"
        )

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per row of ``observations`` / ``masks`` (an int64 array)."""
        masks = np.asarray(masks)
        if masks.ndim != 2 or len(observations) != masks.shape[0]:
            raise ValueError(
                f"act_batch wants [B, O] observations and [B, A] masks, got "
                f"{np.shape(observations)} and {masks.shape}"
            )
        return np.array(
            [self.act(observations[i], masks[i]) for i in range(masks.shape[0])], np.int64
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, seed={self.seed})"


def legal_indices(action_mask: np.ndarray) -> np.ndarray:
    """Indices of the legal actions of a 1-D mask; ValueError if none is legal."""
    mask = np.asarray(action_mask)
    if mask.ndim != 1:
        raise ValueError(f"action_mask must be 1-D, got shape {mask.shape}")
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("action_mask has no legal action (is the game over?)")
    return legal


def uses_state(agent: Any) -> bool:
    """True when the agent implements the ``act_state(game, state)`` hook."""
    return callable(getattr(agent, "act_state", None))


def select_action(agent: Any, game: Game, state: np.ndarray) -> int:
    """Ask ``agent`` for its move in ``state`` (seat to move) and check it is legal.

    Prefers ``act_state`` when the agent has it, otherwise ``act(observation, mask)``.
    """
    seat = game.current_player(state)
    if seat < 0:
        raise ValueError(f"{game.name}: the game is over; no one is to move")
    mask = game.legal_mask(state)
    if uses_state(agent):
        action = agent.act_state(game, state)
    else:
        action = agent.act(game.observe(state, seat), mask)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{agent!r} returned {action!r}; an int action was expected")
    action = int(action)
    if not (0 <= action < game.num_actions and mask[action]):
        raise IllegalActionError(
            f"{agent!r} chose illegal action {action} in {game.name} (seat {seat})"
        )
    return action
