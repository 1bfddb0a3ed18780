"""Deus options: every ambiguity of the rulebook is a named switch.

:class:`DeusConfig` is validated on construction and compiled by :func:`make_params`
into an int64 ``params`` array the kernels read: option slots, then the on-board and
edge flags of every region for the player count. ``docs/rules/deus.md`` gives the
rulebook sentence behind each option.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..turn_cap import turn_limit
from . import tables as T

# Option values are named; kernels compare against these constants.
ESCAPE_BLOCKED, ESCAPE_ALWAYS = 0, 1
ESCAPES = ("blocked", "always")  # [R A.4 "If blocked, ... by paying 3 VPs"]
PAY_CHOOSE, PAY_RESOURCES_FIRST = 0, 1
PAYMENTS = ("choose", "resources_first")  # [R A.3] resources and/or gold: who chooses
TIE_SHARED, TIE_LEFTOVERS = 0, 1
TIE_BREAKS = ("shared", "leftovers")  # [R scoring: no tie-break printed]
SPACING_IF_POSSIBLE, SPACING_STRICT = 0, 1
SPACINGS = ("if_possible", "strict")  # [R A.4 first buildings two empty regions apart]
MINERVA_CHOOSE, MINERVA_ALWAYS = 0, 1
MINERVA_DRAWS = ("choose", "always")  # [R B.3 Minerva "You can draw an additional card"]

# params slots
P_PLAYERS, P_TILES, P_ESCAPE, P_PAYMENT, P_TIE, P_SPACING, P_MAX_TURNS = 0, 1, 2, 3, 4, 5, 6
P_MINERVA = 7
P_ON_BOARD = 8  # [N_REGIONS] 1 if the region is part of this board
P_EDGE = P_ON_BOARD + T.N_REGIONS  # [N_REGIONS] 1 if an on-board edge region
N_PARAMS = P_EDGE + T.N_REGIONS


@dataclass(frozen=True)
class DeusConfig:
    """Rule options of Deus (defaults: the rulebook, else our documented reading).

    players: 2-4 [R]; the board has 4/6/7 continent tiles [R setup 1].
    escape: "blocked" -- the 3-VP empty-edge placement is allowed only when no ordinary
    placement exists (the rulebook's "If blocked") -- or "always".
    payment: "choose" -- for each resource of a cost the player decides between the
    resource and 4 gold when both are possible [R A.3] -- or "resources_first" (automatic:
    resources while you have them, a faster game for training).
    tie_break: "shared" (the rulebook names none: tied leaders share the win) or
    "leftovers" (most resources + gold left among the tied, a common house rule [P]).
    first_spacing: "if_possible" (the two-empty-regions spacing of first buildings is
    dropped when no edge region satisfies it) or "strict".
    minerva_draw: "choose" -- Minerva's extra cards are offered one at a time (``draw``
    or ``done``: the rulebook's "You can draw") -- or "always" (all drawn at once).
    max_turns: turn cap per seat (``core/turn_cap.py``): a game still going after every
    seat has played this many turns ends truncated and is scored as it stands [P].
    """

    players: int = 2
    escape: str = "blocked"
    payment: str = "choose"
    tie_break: str = "shared"
    first_spacing: str = "if_possible"
    minerva_draw: str = "choose"
    max_turns: int = 250  # 3x the longest 99th percentile of natural length (docs/rules)

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple) -> None:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")

        def integer(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")

        integer("players", 2, T.MAX_PLAYERS)
        choice("escape", ESCAPES)
        choice("payment", PAYMENTS)
        choice("tie_break", TIE_BREAKS)
        choice("first_spacing", SPACINGS)
        choice("minerva_draw", MINERVA_DRAWS)
        integer("max_turns", 1, 100_000)


def make_params(cfg: DeusConfig) -> np.ndarray:
    """Compile a :class:`DeusConfig` into the int64 params array the kernels read."""
    p = np.zeros(N_PARAMS, np.int64)
    n_tiles = T.TILES_BY_PLAYERS[cfg.players]
    p[P_PLAYERS] = cfg.players
    p[P_TILES] = n_tiles
    p[P_ESCAPE] = ESCAPES.index(cfg.escape)
    p[P_PAYMENT] = PAYMENTS.index(cfg.payment)
    p[P_TIE] = TIE_BREAKS.index(cfg.tie_break)
    p[P_SPACING] = SPACINGS.index(cfg.first_spacing)
    p[P_MINERVA] = MINERVA_DRAWS.index(cfg.minerva_draw)
    p[P_MAX_TURNS] = turn_limit(cfg.max_turns, cfg.players)  # over all seats
    p[P_ON_BOARD : P_ON_BOARD + T.N_REGIONS] = np.arange(T.N_REGIONS) < n_tiles * 7
    p[P_EDGE : P_EDGE + T.N_REGIONS] = T.edge_regions(n_tiles)
    return p
