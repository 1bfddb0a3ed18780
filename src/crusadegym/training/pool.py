"""The opponent pool: baselines plus frozen snapshots of the learner.

An :class:`OpponentPool` holds *kinds* of opponent, drawn with equal probability
per episode: each baseline agent spec (``"random"``, ``"heuristic"``, any spec
:func:`crusadegym.agents.make_agent` accepts) is one kind, and ``"self"`` is the
kind "a frozen snapshot of the learner", which picks one of the stored snapshots
uniformly (at most ``max_snapshots`` are kept; the oldest are dropped first).

A :class:`PoolOpponent` is what the single-agent env sees in one opponent seat:
on every ``reset(seed)`` (the env calls it at the start of each episode) it draws a
fresh member from the pool, and it then plays through
:func:`crusadegym.agents.select_action`, so state-based agents (the heuristic) and
observation-based ones (snapshots) both work.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from crusadegym.agents import PolicyAgent, make_agent, select_action
from crusadegym.agents.advice import advice_for_size
from crusadegym.agents.neural import make_policy_agent
from crusadegym.core import Game

SELF = "self"
"""The opponent kind "a frozen snapshot of the learner"."""


def parse_opponents(text: str) -> list[str]:
    """``"random,heuristic,self"`` -> the list of kinds; ValueError on an empty or bad list."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    if not kinds:
        raise ValueError("--opponents needs at least one of random, heuristic, self, ...")
    if len(set(kinds)) != len(kinds):
        raise ValueError(f"--opponents lists a kind twice: {kinds}")
    for kind in kinds:
        if kind != SELF:
            make_agent(kind)  # fail fast on a bad spec
    return kinds


class OpponentPool:
    """Opponent kinds (baseline specs and ``"self"``) and the learner's snapshots."""

    def __init__(self, kinds: list[str], max_snapshots: int = 5, device: str = "cpu") -> None:
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be >= 1, got {max_snapshots}")
        self.kinds = list(kinds)
        self.max_snapshots = int(max_snapshots)
        self.device = device
        self.snapshots: list[tuple[str, PolicyAgent]] = []

    @property
    def baselines(self) -> list[str]:
        return [k for k in self.kinds if k != SELF]

    def add_snapshot(self, path: str, game: Game) -> None:
        """Load the checkpoint at ``path`` as a frozen, sampling opponent."""
        from .checkpoint import load_model

        model = load_model(path, game, device=self.device)
        advice = advice_for_size(game, int(model.observation_space.shape[0]))  # checked on load
        agent = make_policy_agent(model, advice, deterministic=True)
        # Sample like the learner does, without PolicyAgent reseeding torch's global RNG.
        agent.deterministic = False
        name = f"self@{model.num_timesteps}"
        agent.name = name
        self.snapshots.append((name, agent))
        del self.snapshots[: -self.max_snapshots]

    def active_kinds(self) -> list[str]:
        """The kinds that can be drawn now (``"self"`` only once a snapshot exists)."""
        kinds = [k for k in self.kinds if k != SELF or self.snapshots]
        if not kinds:
            raise RuntimeError("the opponent pool is empty: add a snapshot or a baseline")
        return kinds

    def draw(self, rng: np.random.Generator, cache: dict[str, Any]) -> tuple[str, str, Any]:
        """A random ``(kind, name, agent)``; baseline agents are built once per ``cache``."""
        kinds = self.active_kinds()
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == SELF:
            name, agent = self.snapshots[int(rng.integers(len(self.snapshots)))]
            return kind, name, agent
        if kind not in cache:
            cache[kind] = make_agent(kind)
        return kind, kind, cache[kind]


class PoolOpponent:
    """One opponent seat: a new pool member every episode (see the module docstring)."""

    def __init__(self, pool: OpponentPool, seed: int = 0) -> None:
        self.pool = pool
        self._cache: dict[str, Any] = {}
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Draw this episode's opponent from the pool (the env calls this on reset)."""
        rng = np.random.default_rng(seed)
        self.kind, self.name, self.agent = self.pool.draw(rng, self._cache)
        reset = getattr(self.agent, "reset", None)
        if callable(reset) and self.kind != SELF:
            reset(seed=int(rng.integers(2**31 - 1)))

    def act_state(self, game: Game, state: np.ndarray) -> int:
        return select_action(self.agent, game, state)

    def __repr__(self) -> str:
        return f"PoolOpponent({self.name})"
