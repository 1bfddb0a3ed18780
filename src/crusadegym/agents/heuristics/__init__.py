"""Per-game heuristics: a registry of documented strategies, plus the agent that plays them.

A :class:`Heuristic` bundles what a game offers to the built-in agents:

* ``value``: a compiled evaluation ``value(state, params, out_f32[P])`` giving each
  seat an estimate in [-1, 1] of how well it stands. The heuristic agent's greedy
  lookahead and the MCTS rollout cutoff both use it. ``None`` means "no
  evaluation": the game's own ``returns`` kernel (zeros until the game ends).
* ``extend``: a compiled ``extend(state, params, out_u8[A])`` marking the actions that
  get a second ply of lookahead (the "select" half of a select-then-act move, which
  alone changes nothing worth scoring); ``None``: none do.
* ``choose``: a whole custom policy ``choose(game, state, rng) -> action`` that
  replaces the greedy lookahead (used by tiny games with a textbook rule);
* ``mcts_defaults``: MCTS options suited to the evaluation's scale.

Games without an entry get :data:`GENERIC`: greedy over the final returns, i.e.
take an immediately winning move, avoid an immediately losing one, else random.
Entries are imported lazily, so a heuristic for a game whose engine is still
missing costs nothing until that game is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from crusadegym.core import Game


@dataclass(frozen=True)
class Heuristic:
    """A documented strategy for one game (see the module docstring)."""

    game: str
    description: str
    value: Any = None
    extend: Any = None
    choose: Callable[[Game, np.ndarray, np.random.Generator], int] | None = None
    mcts_defaults: dict | None = None
    """MCTSConfig options suited to this game's value scale (see :mod:`..mcts`)."""
    decided_at: float | None = None
    """The mover's ``value`` beyond +-this means the game is decided (every line leads to
    the same result; only how soon it ends is left). ``None``: the value never says so."""


GENERIC = Heuristic(
    game="*",
    description="Greedy one ply over the final returns: win now if possible, never lose "
    "now if avoidable, otherwise a uniformly random legal action.",
)

# game name -> module defining HEURISTIC (imported on first use)
_MODULES: dict[str, str] = {
    "deus": "crusadegym.agents.heuristics.deus",
    "crusaders": "crusadegym.agents.heuristics.crusaders",
    "deus_lo_vult": "crusadegym.agents.heuristics.deus_lo_vult",
    "deus_lo_vult_campaign": "crusadegym.agents.heuristics.deus_lo_vult_campaign",
    "tiny_tictactoe": "crusadegym.agents.heuristics.tictactoe",
}
_LOADED: dict[str, Heuristic] = {}


def register_heuristic(heuristic: Heuristic) -> Heuristic:
    """Add (or replace) the heuristic of ``heuristic.game``."""
    _LOADED[heuristic.game] = heuristic
    return heuristic


def get_heuristic(game_name: str) -> Heuristic:
    """The heuristic registered for ``game_name``, or :data:`GENERIC`."""
    if game_name not in _LOADED and game_name in _MODULES:
        module = importlib.import_module(_MODULES[game_name])
        register_heuristic(module.HEURISTIC)
    return _LOADED.get(game_name, GENERIC)


def resolve_heuristic(game: Game, override: Heuristic | None = None) -> Heuristic:
    """``override`` (an agent's own evaluation, e.g. a learned one) if given, else the
    heuristic registered for ``game``; ValueError if ``override`` is another game's
    (:data:`GENERIC` fits every game)."""
    if override is None:
        return get_heuristic(game.name)
    if override.game not in (game.name, GENERIC.game):
        raise ValueError(f"this evaluation is for {override.game}, not {game.name}")
    return override


def value_kernel(game: Game, heuristic: Heuristic | None = None) -> Any:
    """The compiled evaluation of ``game`` under ``heuristic`` (default: the game's
    registered one); its ``returns`` kernel when the heuristic has none."""
    value = (heuristic or get_heuristic(game.name)).value
    return game.k.returns if value is None else value


def extend_mask(game: Game, state: np.ndarray, heuristic: Heuristic) -> np.ndarray:
    """uint8[A]: the actions ``heuristic``'s ``extend`` rule gives a second ply in
    ``state`` (all zeros when it has none)."""
    out = np.zeros(game.num_actions, np.uint8)
    if heuristic.extend is not None:
        heuristic.extend(state, game.params, out)
    return out


def describe_heuristics() -> dict[str, str]:
    """Strategy description per game with a registered heuristic (loads them all)."""
    return {name: get_heuristic(name).description for name in sorted(_MODULES)}


from .lookahead import action_values, greedy_action  # noqa: E402

__all__ = [
    "GENERIC",
    "Heuristic",
    "action_values",
    "describe_heuristics",
    "extend_mask",
    "get_heuristic",
    "greedy_action",
    "register_heuristic",
    "resolve_heuristic",
    "value_kernel",
]
