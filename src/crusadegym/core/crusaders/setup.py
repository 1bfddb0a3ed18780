"""Setup [C] base game, [R "Setup"] expansion: wheel, tokens, board, enemies, tiles.

"One player places their 6 wedges randomly, basic side up. All other players copy
that arrangement" [C]; "2 action tokens on each wedge" [C]; enemies shuffled onto the
flag spaces after 1 Prussian and 1 Slav go on their tracks [C]; bonus tiles at random
on their outlined spaces [C]; "Randomly distribute 1 Influence tile to each region,
face up; return unused tiles to the box" [R]; orders "dealt 2, keep 1" [C]. Seat 0 is
the start player (seats are dealt at random, so this is the random start player [P]).
"""

from __future__ import annotations

import numpy as np

from .. import rng
from ..jit import ajit, jit
from . import tables as T
from .board import active, base
from .config import (
    DEAL_FREE,
    DEAL_NONE,
    P_EXPANSION,
    P_ORDERS,
    P_PLAYERS,
    P_SUPPLY,
    P_WHEEL,
    WHEEL_UNPREDICTABLE,
)
from .layout import (
    CTX_WEDGE,
    CUR,
    ELOC_BOX,
    ELOC_TRACK,
    ENEMY_LOC,
    MAX_PLAYERS,
    PH_ORDER,
    PH_PLACE,
    PHASE,
    PL_BOARD,
    PL_COATS,
    PL_DEALT,
    PL_GIANT,
    PL_KNIGHT,
    PL_ORDER,
    PL_TOK,
    PL_TOKTOTAL,
    PL_WHEEL,
    Q_ACT0,
    Q_ACT1,
    R_BLD_A,
    R_BLD_B,
    R_BONUS,
    R_COAT,
    R_ENEMY,
    R_INF,
    RNG,
    SAR_REGION,
    SETUP_SEAT,
    STATE_SIZE,
    SUPPLY,
    USED_WEDGE,
)

FULL_ROW = (1 << T.N_LEVELS) - 1


@jit
def n_orders_in_play(params):
    return T.N_ORDERS if params[P_EXPANSION] else T.N_BASE_ORDERS


@ajit
def init(state, params, seed):
    """A fresh game: everything up to the first order choice (or knight placement)."""
    state[:STATE_SIZE] = 0
    rng.seed(state, RNG, seed)
    players = params[P_PLAYERS]
    perm = np.arange(T.N_WEDGES)
    rng.shuffle(state, RNG, perm, T.N_WEDGES)
    for p in range(MAX_PLAYERS):
        b = base(p)
        state[b + PL_ORDER] = -1
        state[b + PL_DEALT] = -1
        state[b + PL_DEALT + 1] = -1
        state[b + PL_GIANT] = -1
        for k in range(T.N_KNIGHTS):
            state[b + PL_KNIGHT + k] = T.KNIGHT_AWAY
        if p >= players:
            continue
        if params[P_WHEEL] == WHEEL_UNPREDICTABLE and p > 0:
            rng.shuffle(state, RNG, perm, T.N_WEDGES)
        for i in range(T.N_WEDGES):
            state[b + PL_WHEEL + i] = perm[i]
            state[b + PL_TOK + i] = T.START_TOKENS_PER_WEDGE
        state[b + PL_TOKTOTAL] = T.BASE_TOKENS
        n_types = T.N_BUILDING_TYPES if params[P_EXPANSION] else T.N_BASE_TYPES
        for t in range(n_types):
            state[b + PL_BOARD + t] = FULL_ROW
        state[b + PL_COATS] = T.COATS_OF_ARMS if params[P_EXPANSION] else 0
    for r in range(T.N_REGIONS):
        state[R_ENEMY + r] = -1
        state[R_BLD_A + r] = -1
        state[R_BLD_B + r] = -1
        state[R_BONUS + r] = -1
        state[R_INF + r] = -1
        state[R_COAT + r] = -1
    place_enemies(state, params)
    deal_tiles(state, params)
    state[SUPPLY] = params[P_SUPPLY]
    state[CTX_WEDGE] = -1
    state[USED_WEDGE] = -1
    state[SAR_REGION] = -1
    state[Q_ACT0] = -1
    state[Q_ACT1] = -1
    deal_orders(state, params)


@ajit
def place_enemies(state, params):
    """1 Prussian and 1 Slav mark the tracks; the rest go at random on flags [C]."""
    pool = np.zeros(T.N_ENEMY_TOKENS, np.int64)
    n = 0
    first_slav = T.ENEMY_COUNTS[0]
    for e in range(T.N_ENEMY_TOKENS):
        if e == 0 or e == first_slav:
            state[ENEMY_LOC + e] = ELOC_TRACK
        else:
            state[ENEMY_LOC + e] = ELOC_BOX
            pool[n] = e
            n += 1
    rng.shuffle(state, RNG, pool, n)
    i = 0
    for r in range(T.N_REGIONS):
        if T.MAP_FLAGS[r] and active(params, r) and i < n:
            state[R_ENEMY + r] = pool[i]
            state[ENEMY_LOC + pool[i]] = r
            i += 1


@ajit
def deal_tiles(state, params):
    """Bonus tiles on outlined spaces [C]; with the expansion an influence tile on every
    region [R]."""
    bonus = np.arange(T.N_BONUS_TILES)
    rng.shuffle(state, RNG, bonus, T.N_BONUS_TILES)
    i = 0
    for r in range(T.N_REGIONS):
        if T.MAP_BONUS[r] and active(params, r):
            state[R_BONUS + r] = bonus[i]
            i += 1
    if not params[P_EXPANSION]:
        return
    tiles = np.arange(T.N_INF_TILES)
    rng.shuffle(state, RNG, tiles, T.N_INF_TILES)
    i = 0
    for r in range(T.N_REGIONS):
        if active(params, r):
            state[R_INF + r] = tiles[i]
            i += 1


@ajit
def deal_orders(state, params):
    """Deal 2 orders to each seat [C] (or free choice / none); seat 0 chooses first."""
    players = params[P_PLAYERS]
    state[SETUP_SEAT] = 0
    state[CUR] = 0
    mode = params[P_ORDERS]
    if mode == DEAL_NONE:
        state[SETUP_SEAT] = players - 1
        state[CUR] = players - 1
        state[PHASE] = PH_PLACE  # knights are placed in reverse turn order [C]
        return
    state[PHASE] = PH_ORDER
    if mode == DEAL_FREE:
        return
    n = n_orders_in_play(params)
    pool = np.arange(n)
    rng.shuffle(state, RNG, pool, n)
    for p in range(players):
        state[base(p) + PL_DEALT] = pool[2 * p]
        state[base(p) + PL_DEALT + 1] = pool[2 * p + 1]
