"""Crusaders options: the expansion switch and every open reading is a named option.

:class:`CrusadersConfig` is validated on construction and compiled by
:func:`make_params` into the int64 ``params`` array the kernels read (option slots,
then the map of the chosen board side). See ``docs/rules/crusaders.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..turn_cap import turn_limit
from . import tables as T

WHEELS = ("shared_random", "unpredictable")  # [C] standard game / Unpredictable variant
ORDER_DEALS = ("deal2", "free", "none")  # [C] deal 2 keep 1 / Free choice / no orders
SPLITS = ("free", "one_each")  # [C] BGA "all tokens on one action" / aid "at least 1 each"
SKIP_TURNS = ("all_upgraded", "always")  # [C1]/[I] when "Skip turn & distribute" is allowed
SPLIT_FREE, SPLIT_ONE_EACH = 0, 1
SKIP_ALL_UPGRADED, SKIP_ALWAYS = 0, 1
WHEEL_SHARED, WHEEL_UNPREDICTABLE = 0, 1
DEAL_TWO, DEAL_FREE, DEAL_NONE = 0, 1, 2

# params slots
P_PLAYERS, P_EXPANSION, P_WHEEL, P_ORDERS, P_SPLIT, P_SKIP = 0, 1, 2, 3, 4, 5
P_UPGRADES, P_SUPPLY, P_MAX_TURNS, P_MUSTER_MANY, P_SHARED_START = 6, 7, 8, 9, 10
P_MILL_EFFECTS = 11
P_ACTIVE = 16  # [N_REGIONS] region is on the chosen board side
P_ADJ = P_ACTIVE + T.N_REGIONS  # [N_REGIONS * 6] neighbours on this side, -1 padded
N_PARAMS = P_ADJ + 6 * T.N_REGIONS


@dataclass(frozen=True)
class CrusadersConfig:
    """Rule options of Crusaders (defaults: the rulebooks, else our reading).

    players: 2-4 [C]. expansion: Divine Influence on (default) or the base game alone.
    wheel: "shared_random" (one random arrangement, copied by all) [C] or
    "unpredictable" (each player's own) [C]. orders: "deal2" (dealt 2, keep 1) [C],
    "free" (Free choice variant) [C1] or "none". split: how an upgraded wedge's value
    is split, "free" [C BGA] or "one_each" [C1 player aid]. skip_turn: when "Skip turn &
    distribute" is allowed. upgrades: False is the Learning Game [C]. supply: influence
    supply, 0 = 20 + 60 per player [C]. max_turns: turn cap per seat (the game then
    ends truncated and is scored; ``core/turn_cap.py``). muster_many: one Muster may
    flip several troops [U, default no].
    shared_start: players may share a starting region [U, default no].
    mill_effects: a Mill removing a Keep/Chapel/Vault I-III grants its printed effect [I].
    """

    players: int = 2
    expansion: bool = True
    wheel: str = "shared_random"
    orders: str = "deal2"
    split: str = "free"
    skip_turn: str = "all_upgraded"
    upgrades: bool = True
    supply: int = 0
    max_turns: int = 350  # 3x the longest 99th percentile of natural length (docs/rules)
    muster_many: bool = False
    shared_start: bool = False
    mill_effects: bool = True

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple) -> None:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")

        def integer(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")

        integer("players", 2, 4)
        choice("wheel", WHEELS)
        choice("orders", ORDER_DEALS)
        choice("split", SPLITS)
        choice("skip_turn", SKIP_TURNS)
        integer("supply", 0, 10_000)
        integer("max_turns", 1, 100_000)
        for flag in ("expansion", "upgrades", "muster_many", "shared_start", "mill_effects"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be a bool, got {getattr(self, flag)!r}")


def make_params(cfg: CrusadersConfig) -> np.ndarray:
    """Compile a :class:`CrusadersConfig` into the int64 params array the kernels read."""
    p = np.zeros(N_PARAMS, np.int64)
    p[P_PLAYERS] = cfg.players
    p[P_EXPANSION] = int(cfg.expansion)
    p[P_WHEEL] = WHEELS.index(cfg.wheel)
    p[P_ORDERS] = ORDER_DEALS.index(cfg.orders)
    p[P_SPLIT] = SPLITS.index(cfg.split)
    p[P_SKIP] = SKIP_TURNS.index(cfg.skip_turn)
    p[P_UPGRADES] = int(cfg.upgrades)
    p[P_SUPPLY] = cfg.supply or T.SUPPLY_BASE + T.SUPPLY_PER_PLAYER * cfg.players
    p[P_MAX_TURNS] = turn_limit(cfg.max_turns, cfg.players)  # over all seats
    p[P_MUSTER_MANY] = int(cfg.muster_many)
    p[P_SHARED_START] = int(cfg.shared_start)
    p[P_MILL_EFFECTS] = int(cfg.mill_effects)
    active = T.MAP_SIDE_2P if cfg.players == 2 else np.ones(T.N_REGIONS, np.int64)
    p[P_ACTIVE : P_ACTIVE + T.N_REGIONS] = active
    adj = np.full((T.N_REGIONS, 6), -1, np.int64)
    for r in range(T.N_REGIONS):
        if active[r]:
            nb = [int(x) for x in T.MAP_ADJ[r] if x >= 0 and active[x]]
            adj[r, : len(nb)] = nb
    p[P_ADJ:] = adj.ravel()
    return p
