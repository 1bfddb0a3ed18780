"""Per-seat observation of a Crusaders state, from the viewer's perspective.

Seats are relative to the viewer (0 = me, 1 = next after me, ...). Everything on the
table is public except the Knight Order tiles dealt: a seat sees its own two dealt
tiles, never a rival's (their kept order is public once chosen). Every entry lies in
[0, 1] (counts are divided by a maximum and clipped).

Layout: ``N_REGIONS`` blocks of ``REGION_FEATURES``, then ``MAX_PLAYERS`` seat blocks
of ``SEAT_FEATURES`` (relative order), then ``N_SCALARS`` scalars.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import action_bonus, base, bld_level, bld_owner, bld_type, enemy_strength
from .config import P_ACTIVE, P_MAX_TURNS, P_PLAYERS, P_SUPPLY
from .layout import (
    ACT,
    CUR,
    ENDING,
    MAX_PLAYERS,
    N_PHASES,
    PHASE,
    PL_BOARD,
    PL_CAPT,
    PL_COATS,
    PL_DEALT,
    PL_GIANT,
    PL_KNIGHT,
    PL_NEND,
    PL_NTILES,
    PL_ONCE,
    PL_ORDER,
    PL_PERM,
    PL_SCORE,
    PL_TROOPS,
    PL_UP,
    PL_WHEEL,
    R_BLD_A,
    R_BLD_B,
    R_BONUS,
    R_COAT,
    R_ENEMY,
    R_INF,
    STRENGTH,
    SUPPLY,
    TRACK,
    TRAVEL_LEFT,
    TURN,
)
from .wheel import wedge_value

# per-region features
RF_ACTIVE, RF_START, RF_FLAG = 0, 1, 2
RF_KNIGHTS = 3  # [4] knights of relative seat s / 4
RF_ENEMY = RF_KNIGHTS + MAX_PLAYERS  # [3] enemy type one-hot
RF_STRENGTH = RF_ENEMY + T.N_ENEMY_TYPES
RF_BLD = RF_STRENGTH + 1  # 2 slots x (4 owners + 8 types + level)
BLD_FEATURES = MAX_PLAYERS + T.N_BUILDING_TYPES + 1
RF_BONUS = RF_BLD + 2 * BLD_FEATURES  # [4] bonus tile type, value = discount / 2
RF_INF = RF_BONUS + T.N_BASE_TYPES  # [5] tile kind; cost/7; action one-hot [5]
RF_COAT = RF_INF + len(T.TILE_KIND_NAMES) + 1 + T.N_ACTION_TYPES  # [4] coat owner
REGION_FEATURES = RF_COAT + MAX_PLAYERS

# per-seat features
SF_PRESENT, SF_SCORE = 0, 1
SF_TOK = 2  # [6]
SF_UP = SF_TOK + T.N_WEDGES
SF_WEDGE = SF_UP + T.N_WEDGES  # [6 x 6] wedge type at each position
SF_GIANT = SF_WEDGE + T.N_WEDGES * T.N_WEDGES
SF_TROOPS = SF_GIANT + T.N_WEDGES
SF_BOARD = SF_TROOPS + 1  # [32]
SF_CAPT = SF_BOARD + T.N_BUILDING_TYPES * T.N_LEVELS
SF_ONCE = SF_CAPT + T.N_ENEMY_TYPES
SF_PERM = SF_ONCE + T.N_ACTION_TYPES
SF_TILES = SF_PERM + T.N_ACTION_TYPES
SF_NEND = SF_TILES + 1
SF_COATS = SF_NEND + 1
SF_ORDER = SF_COATS + 1  # [14]
SF_BONUS = SF_ORDER + T.N_ORDERS  # [5] action bonuses
SEAT_FEATURES = SF_BONUS + T.N_ACTION_TYPES

# scalars
SC_PHASE = 0
SC_ACT = SC_PHASE + N_PHASES
SC_STRENGTH = SC_ACT + T.N_ACTION_TYPES
SC_TRAVEL = SC_STRENGTH + 1
SC_SUPPLY = SC_TRAVEL + 1
SC_ENDING = SC_SUPPLY + 1
SC_TRACK = SC_ENDING + 1
SC_TURN = SC_TRACK + 2
SC_DEALT = SC_TURN + 1  # [14] my own dealt orders
N_SCALARS = SC_DEALT + T.N_ORDERS

SEATS0 = T.N_REGIONS * REGION_FEATURES
SCALARS0 = SEATS0 + MAX_PLAYERS * SEAT_FEATURES
OBS_SIZE = SCALARS0 + N_SCALARS
# Divisors that bring counts into about [0, 1] (entries past 1 are clipped); the tables
# give the rest (T.MAX_STRENGTH, T.MAX_X, T.EXPANSION_TROOPS, ...).
SCORE_SCALE = 300.0
BONUS_DISCOUNT_SCALE = 2.0  # the largest bonus-tile discount (T.BONUS_TILES[:, 1])
INF_COST_SCALE = 7.0  # the dearest Influence tile (T.INF_TILES[:, 1])
CAPTURED_SCALE = 11.0  # enemies of one type a seat has captured
ONCE_SCALE = 5.0  # one-use action tokens of one action type
PERM_SCALE = 2.0  # permanent action upgrades of one action type
ACTION_BONUS_SCALE = 10.0  # an action's bonus from buildings and tiles
END_TILES_SCALE = 2.0  # end-game Influence tiles held
STRENGTH_SCALE = 30.0  # the strength of the action being resolved
TRAVEL_SCALE = 30.0  # travel steps left
TRACK_SCALE = 11.0  # a position on the end-game tracks
RF_INF_COST = RF_INF + len(T.TILE_KIND_NAMES)  # the tile's cost / INF_COST_SCALE
RF_INF_ACTION = RF_INF_COST + 1  # [N_ACTION_TYPES] the tile's action, one-hot


@jit
def _clip(x):
    return min(max(x, 0.0), 1.0)


@jit
def observe(state, params, seat, out):
    """Write seat ``seat``'s view into ``out`` (float32[OBS_SIZE])."""
    out[:] = 0.0
    players = params[P_PLAYERS]
    for r in range(T.N_REGIONS):
        o = r * REGION_FEATURES
        out[o + RF_ACTIVE] = params[P_ACTIVE + r]
        if not params[P_ACTIVE + r]:
            continue
        out[o + RF_START] = T.MAP_START[r]
        out[o + RF_FLAG] = T.MAP_FLAGS[r]
        e = state[R_ENEMY + r]
        if e >= 0:
            out[o + RF_ENEMY + T.ENEMY_TYPE[e]] = 1.0
            out[o + RF_STRENGTH] = enemy_strength(state, params, e) / T.MAX_STRENGTH
        for j in range(2):
            c = state[(R_BLD_A if j == 0 else R_BLD_B) + r]
            if c >= 0:
                f = o + RF_BLD + j * BLD_FEATURES
                out[f + (bld_owner(c) - seat) % players] = 1.0
                out[f + MAX_PLAYERS + bld_type(c)] = 1.0
                out[f + MAX_PLAYERS + T.N_BUILDING_TYPES] = (bld_level(c) + 1) / T.N_LEVELS
        tile = state[R_BONUS + r]
        if tile >= 0:
            discount = T.BONUS_TILES[tile, 1]
            out[o + RF_BONUS + T.BONUS_TILES[tile, 0]] = discount / BONUS_DISCOUNT_SCALE
        t = state[R_INF + r]
        if t >= 0:
            out[o + RF_INF + T.INF_TILES[t, 0]] = 1.0
            out[o + RF_INF_COST] = T.INF_TILES[t, 1] / INF_COST_SCALE
            if T.INF_TILES[t, 2] >= 0:
                out[o + RF_INF_ACTION + T.INF_TILES[t, 2]] = 1.0
        c = state[R_COAT + r]
        if c >= 0:
            out[o + RF_COAT + (c - seat) % players] = 1.0
    for rel in range(players):
        p = (seat + rel) % players
        b = base(p)
        o = SEATS0 + rel * SEAT_FEATURES
        out[o + SF_PRESENT] = 1.0
        out[o + SF_SCORE] = _clip(state[b + PL_SCORE] / SCORE_SCALE)
        for i in range(T.N_WEDGES):
            out[o + SF_TOK + i] = _clip(wedge_value(state, p, i) / T.MAX_X)
            out[o + SF_UP + i] = state[b + PL_UP + i]
            out[o + SF_WEDGE + T.N_WEDGES * i + state[b + PL_WHEEL + i]] = 1.0
        g = state[b + PL_GIANT]
        if g >= 0:
            out[o + SF_GIANT + g] = 1.0
        out[o + SF_TROOPS] = state[b + PL_TROOPS] / T.EXPANSION_TROOPS
        for t in range(T.N_BUILDING_TYPES):
            for lv in range(T.N_LEVELS):
                out[o + SF_BOARD + T.N_LEVELS * t + lv] = (state[b + PL_BOARD + t] >> lv) & 1
        for k in range(T.N_ENEMY_TYPES):
            out[o + SF_CAPT + k] = _clip(state[b + PL_CAPT + k] / CAPTURED_SCALE)
        for a in range(T.N_ACTION_TYPES):
            out[o + SF_ONCE + a] = _clip(state[b + PL_ONCE + a] / ONCE_SCALE)
            out[o + SF_PERM + a] = _clip(state[b + PL_PERM + a] / PERM_SCALE)
            out[o + SF_BONUS + a] = _clip(action_bonus(state, params, p, a) / ACTION_BONUS_SCALE)
        out[o + SF_TILES] = state[b + PL_NTILES] / T.N_INF_TILES
        out[o + SF_NEND] = state[b + PL_NEND] / END_TILES_SCALE
        out[o + SF_COATS] = state[b + PL_COATS] / T.COATS_OF_ARMS
        if state[b + PL_ORDER] >= 0:
            out[o + SF_ORDER + state[b + PL_ORDER]] = 1.0
        for k in range(T.N_KNIGHTS):
            r = state[b + PL_KNIGHT + k]
            if r >= 0:
                out[r * REGION_FEATURES + RF_KNIGHTS + rel] += 1.0 / T.N_KNIGHTS
    s = SCALARS0
    out[s + SC_PHASE + state[PHASE]] = 1.0
    if state[ACT] >= 0 and state[CUR] == seat:
        out[s + SC_ACT + state[ACT]] = 1.0
    out[s + SC_STRENGTH] = _clip(state[STRENGTH] / STRENGTH_SCALE)
    out[s + SC_TRAVEL] = _clip(state[TRAVEL_LEFT] / TRAVEL_SCALE)
    out[s + SC_SUPPLY] = _clip(state[SUPPLY] / params[P_SUPPLY])
    out[s + SC_ENDING] = state[ENDING]
    out[s + SC_TRACK] = state[TRACK] / TRACK_SCALE
    out[s + SC_TRACK + 1] = state[TRACK + 1] / TRACK_SCALE
    out[s + SC_TURN] = _clip(state[TURN] / params[P_MAX_TURNS])  # share of the cap played
    for j in range(2):
        d = state[base(seat) + PL_DEALT + j]
        if d >= 0:
            out[s + SC_DEALT + d] = 1.0
