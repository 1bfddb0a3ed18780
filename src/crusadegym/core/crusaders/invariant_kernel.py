"""The invariants of ``invariants.py``, compiled, so a soak checks every state it plays.

:func:`violation` returns 0 for a sound state, else the code of the first violated
invariant (``VIOLATIONS[code]`` says which). It reads the state only and never raises
(every slot used as an index is range-checked first); the plain-Python
:func:`invariants.check` stays the readable statement. ``tests/test_invariant_kernels.py``
checks that every single-slot corruption of a reachable state that the Python checker
flags is flagged here too.
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .config import P_ACTIVE, P_EXPANSION, P_PLAYERS, P_SUPPLY
from .layout import (
    ELOC_BOX,
    ELOC_CAPT0,
    ELOC_TRACK,
    ENDING,
    ENEMY_LOC,
    MAX_PLAYERS,
    PL_BOARD,
    PL_CAPT,
    PL_COATS,
    PL_GIANT,
    PL_KNIGHT,
    PL_NTILES,
    PL_ONCE,
    PL_SCORE,
    PL_SIZE,
    PL_TOK,
    PL_TOKTOTAL,
    PL_TROOPS,
    PLAYERS,
    R_BLD_A,
    R_BLD_B,
    R_COAT,
    R_ENEMY,
    R_INF,
    SUPPLY,
    TRACK,
)

VIOLATIONS = (
    "sound",
    "a wheel does not hold its action tokens",
    "influence supply out of range",
    "supply empty but the end not triggered",
    "a region holds two base buildings or a second building alone",
    "a building stands beside an enemy",
    "a building is both on a player board and on the map",
    "an enemy token and its region disagree",
    "kept enemies and the counters or tracks disagree",
    "Coats-of-Arms not conserved",
    "a knight in an invalid region",
    "the giant token is off the wheel or on an empty wedge",
    "negative influence",
    "mustered troops out of range",
    "face-up one-time tiles exceed the influence tiles collected",
    "an influence tile lies in two regions, or more tiles than regions",
)
(
    OK,
    BAD_WHEEL,
    BAD_SUPPLY,
    BAD_END,
    BAD_SLOTS,
    BAD_ENEMY_BUILDING,
    BAD_BOARD,
    BAD_ENEMY_LOC,
    BAD_CAPTURED,
    BAD_COATS,
    BAD_KNIGHT,
    BAD_GIANT,
    BAD_SCORE,
    BAD_TROOPS,
    BAD_ONCE,
    BAD_INF_TILES,
) = range(len(VIOLATIONS))

NO_GIANT = -1  # PL_GIANT when the seat has no giant token on its wheel
NO_TOKEN = -1  # an empty region slot (enemy, building, influence tile, Coat-of-Arms)
N_TRACKS = 2  # the Prussian and Slav tracks (enemy types 0 and 1)
BUILDING_TYPE_STRIDE = T.N_LEVELS  # building code = owner * 32 + type * 4 + level
BUILDING_OWNER_STRIDE = T.N_BUILDING_TYPES * T.N_LEVELS


@jit
def _bad_seat(state, params, p):
    """Seat ``p``'s block: the wheel holds TOKTOTAL tokens, none negative; the giant is
    -1 or on a wedge holding a token; influence >= 0; troops within the muster track
    (7 with the expansion, else 5); face-up one-time tiles >= 0 and no more than the
    influence tiles collected; knights on the map's active regions or away."""
    b = PLAYERS + p * PL_SIZE
    total = 0
    for i in range(T.N_WEDGES):
        if state[b + PL_TOK + i] < 0:
            return BAD_WHEEL
        total += state[b + PL_TOK + i]
    if total != state[b + PL_TOKTOTAL]:
        return BAD_WHEEL
    giant = state[b + PL_GIANT]
    if giant < NO_GIANT or giant >= T.N_WEDGES:
        return BAD_GIANT
    if giant != NO_GIANT and state[b + PL_TOK + giant] < 1:
        return BAD_GIANT
    if state[b + PL_SCORE] < 0:
        return BAD_SCORE
    troops_cap = T.EXPANSION_TROOPS if params[P_EXPANSION] else T.BASE_TROOPS
    if state[b + PL_TROOPS] < 0 or state[b + PL_TROOPS] > troops_cap:
        return BAD_TROOPS
    face_up = 0
    for a in range(T.N_ACTION_TYPES):
        if state[b + PL_ONCE + a] < 0:
            return BAD_ONCE
        face_up += state[b + PL_ONCE + a]
    if face_up > state[b + PL_NTILES]:
        return BAD_ONCE
    for k in range(T.N_KNIGHTS):
        r = state[b + PL_KNIGHT + k]
        if r != T.KNIGHT_AWAY and (r < 0 or r >= T.N_REGIONS or not params[P_ACTIVE + r]):
            return BAD_KNIGHT
    return OK


@jit
def _bad_influence_tiles(state, params):
    """Influence tiles: each tile at most once on the map, and the tiles collected by
    the seats plus those still on the map at most one per active region."""
    players = params[P_PLAYERS]
    on_map = 0
    for r in range(T.N_REGIONS):
        t = state[R_INF + r]
        if t == NO_TOKEN:
            continue
        on_map += 1
        for r2 in range(r):
            if state[R_INF + r2] == t:
                return BAD_INF_TILES
    taken = 0
    for p in range(players):
        taken += state[PLAYERS + p * PL_SIZE + PL_NTILES]
    active = 0
    for r in range(T.N_REGIONS):
        if params[P_ACTIVE + r]:
            active += 1
    if taken + on_map > active:
        return BAD_INF_TILES
    return OK


@ajit
def _bad_map(state, params):
    """The regions: one building each, a second only an expansion one beside a first;
    no building of an absent seat or beside an enemy; each (seat, type, level) building
    once, and not also on its player board; a region's enemy token located there; the
    Coats-of-Arms (expansion) 16 a seat, placed + in hand; enemy tokens in one place
    each, the two track markers on their tracks, kept enemies matching the seats'
    counters and the Prussian / Slav tracks."""
    players = params[P_PLAYERS]
    placed = np.zeros((MAX_PLAYERS, T.N_BUILDING_TYPES), np.int64)
    coats = np.zeros(MAX_PLAYERS, np.int64)
    for r in range(T.N_REGIONS):
        a, b2 = state[R_BLD_A + r], state[R_BLD_B + r]
        if b2 >= 0 and (
            a < 0 or (b2 // BUILDING_TYPE_STRIDE) % T.N_BUILDING_TYPES < T.N_BASE_TYPES
        ):
            return BAD_SLOTS
        for c in (a, b2):
            if c < 0:
                continue
            if state[R_ENEMY + r] >= 0:
                return BAD_ENEMY_BUILDING
            o = c // BUILDING_OWNER_STRIDE
            t = (c // BUILDING_TYPE_STRIDE) % T.N_BUILDING_TYPES
            lv = c % BUILDING_TYPE_STRIDE
            if (
                o >= players
                or (placed[o, t] >> lv) & 1
                or (state[PLAYERS + o * PL_SIZE + PL_BOARD + t] >> lv) & 1
            ):
                return BAD_BOARD
            placed[o, t] |= 1 << lv
        e = state[R_ENEMY + r]
        if e < NO_TOKEN or e >= T.N_ENEMY_TOKENS:
            return BAD_ENEMY_LOC
        if e >= 0 and state[ENEMY_LOC + e] != r:
            return BAD_ENEMY_LOC
        owner = state[R_COAT + r]
        if owner < NO_TOKEN or owner >= players:
            return BAD_COATS
        if owner >= 0:
            coats[owner] += 1
    captured = np.zeros((MAX_PLAYERS, T.N_ENEMY_TYPES), np.int64)
    markers = 0
    for e in range(T.N_ENEMY_TOKENS):
        where = state[ENEMY_LOC + e]
        if 0 <= where < T.N_REGIONS:
            if state[R_ENEMY + where] != e:
                return BAD_ENEMY_LOC
        elif where == ELOC_TRACK:
            markers += 1
        elif where <= ELOC_CAPT0:
            p = ELOC_CAPT0 - where
            if p >= players:
                return BAD_ENEMY_LOC
            captured[p, T.ENEMY_TYPE[e]] += 1
        elif where != ELOC_BOX:
            return BAD_ENEMY_LOC
    if markers != N_TRACKS:
        return BAD_CAPTURED
    for k in range(T.N_ENEMY_TYPES):
        total = 0
        for p in range(players):
            if captured[p, k] != state[PLAYERS + p * PL_SIZE + PL_CAPT + k]:
                return BAD_CAPTURED
            total += captured[p, k]
        if k < N_TRACKS and total != state[TRACK + k]:
            return BAD_CAPTURED
    if params[P_EXPANSION]:
        for p in range(players):
            if coats[p] + state[PLAYERS + p * PL_SIZE + PL_COATS] != T.COATS_OF_ARMS:
                return BAD_COATS
    return OK


@ajit
def violation(state, params):
    """0 when ``state`` is sound, else the first violated invariant's code."""
    if state[SUPPLY] < 0 or state[SUPPLY] > params[P_SUPPLY]:
        return BAD_SUPPLY
    if state[SUPPLY] == 0 and state[ENDING] == 0:
        return BAD_END
    for p in range(params[P_PLAYERS]):
        code = _bad_seat(state, params, p)
        if code != OK:
            return code
    code = _bad_map(state, params)
    if code != OK:
        return code
    return _bad_influence_tiles(state, params)
