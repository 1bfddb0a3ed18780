"""Embedded opponents of the single-agent envs: a tiny registry and the env's default.

An opponent is anything that answers one of

* ``act_state(game, state) -> int`` (search agents that clone the core state),
* ``act(observation, action_mask) -> int`` (the agent interface of ``crusadegym.agents``),
* a plain callable ``f(observation, action_mask) -> int``,

or an agent spec string, the same names the arena and ``crusadegym play`` take:
``"random"``, ``"heuristic"``, ``"mcts"`` (options as ``"mcts:iterations=200"``) and
``"policy:PATH.zip"`` (a MaskablePPO checkpoint; needs the ``train`` extra). Names in
:data:`OPPONENTS` (``"random"``, and any added with :func:`register_opponent`) are built
here; every other spec is handed to :func:`crusadegym.agents.make_agent`, imported only
then, so ``envs`` does not import ``agents`` (a layer above it) when it loads.
:class:`RandomAgent` here is deliberately minimal: it is the env's default opponent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from crusadegym.core import Game, IllegalActionError


class RandomAgent:
    """Uniformly random legal actions from its own seeded generator (the default opponent)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (called by the envs on ``reset(seed=...)``)."""
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("action_mask has no legal action (is the game over?)")
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One uniform legal action per row of ``masks`` (``[B, A]``)."""
        legal = np.asarray(masks) != 0
        counts = legal.sum(axis=1)
        if np.any(counts == 0):
            raise ValueError(
                f"mask row(s) {np.flatnonzero(counts == 0).tolist()} have no legal action"
            )
        picks = self.rng.integers(0, counts)
        return np.argmax(np.cumsum(legal, axis=1) > picks[:, None], axis=1).astype(np.int64)


OPPONENTS: dict[str, Callable[[int | None], Any]] = {"random": RandomAgent}
"""Opponent factories by name: ``factory(seed) -> opponent``."""


def register_opponent(name: str, factory: Callable[[int | None], Any]) -> None:
    """Make ``name`` usable as ``opponents=name`` (``factory(seed)`` builds one)."""
    OPPONENTS[name] = factory


def resolve_opponent(spec: Any, seed: int | None = None) -> Any:
    """An opponent object from a registered name, an agent, or a callable."""
    if isinstance(spec, str):
        if spec in OPPONENTS:
            return OPPONENTS[spec](seed)
        return _agent_from_spec(spec, seed)
    if callable(getattr(spec, "act_state", None)) or callable(getattr(spec, "act", None)):
        return spec
    if callable(spec):
        return spec
    raise TypeError(
        f"an opponent must be a name, an agent with act()/act_state(), or a callable "
        f"(obs, mask) -> int; got {type(spec).__name__}"
    )


def _agent_from_spec(spec: str, seed: int | None) -> Any:
    """An agent of ``crusadegym.agents`` from its spec (imported lazily: a layer above envs)."""
    from crusadegym.agents.registry import AGENT_TYPES, make_agent

    name = spec.split(":", 1)[0]
    if name != "policy" and name not in AGENT_TYPES:
        known = sorted(set(OPPONENTS) | set(AGENT_TYPES) | {"policy:PATH.zip"})
        raise ValueError(f"unknown opponent {spec!r}; known: {', '.join(known)}")
    return make_agent(spec, seed=0 if seed is None else int(seed))


def resolve_opponents(spec: Any, n: int, seed: int | None = None) -> list[Any]:
    """``n`` opponents from one spec (each name gets its own instance) or a list of ``n``."""
    if isinstance(spec, (list, tuple)):
        if len(spec) != n:
            raise ValueError(f"expected {n} opponents (one per other seat), got {len(spec)}")
        return [resolve_opponent(s, seed) for s in spec]
    return [resolve_opponent(spec, None if seed is None else seed + i) for i in range(n)]


def reseed_opponents(opponents: list[Any], rng: np.random.Generator) -> None:
    """Reseed every opponent that has ``reset(seed)`` from ``rng`` (reproducible episodes)."""
    for opp in opponents:
        reset = getattr(opp, "reset", None)
        if callable(reset):
            reset(seed=int(rng.integers(0, 2**31 - 1)))


def opponent_action(opponent: Any, game: Game, state: np.ndarray) -> int:
    """Ask ``opponent`` for its move in ``state`` (seat to move) and check it is legal."""
    seat = game.current_player(state)
    mask = game.legal_mask(state)
    if callable(getattr(opponent, "act_state", None)):
        action = opponent.act_state(game, state)
    else:
        act = getattr(opponent, "act", opponent)
        action = act(game.observe(state, seat), mask)
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"opponent {opponent!r} returned {action!r}; an int action was expected")
    if not (0 <= int(action) < game.num_actions and mask[int(action)]):
        raise IllegalActionError(
            f"opponent {opponent!r} chose illegal action {int(action)} in {game.name} (seat {seat})"
        )
    return int(action)
