"""The invariants of ``invariants.py``, compiled, so a soak checks every state it plays.

:func:`violation` returns 0 for a sound state, else the code of the first violated
invariant (``VIOLATIONS[code]`` says which). It reads the state only and never raises;
the plain-Python :func:`invariants.check` stays the readable statement (the tests check
that both agree).
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit
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
    PL_KNIGHT,
    PL_SIZE,
    PL_TOK,
    PL_TOKTOTAL,
    PLAYERS,
    R_BLD_A,
    R_BLD_B,
    R_COAT,
    R_ENEMY,
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
) = range(len(VIOLATIONS))


@ajit
def violation(state, params):
    """0 when ``state`` is sound, else the first violated invariant's code."""
    players = params[P_PLAYERS]
    if state[SUPPLY] < 0 or state[SUPPLY] > params[P_SUPPLY]:
        return BAD_SUPPLY
    if state[SUPPLY] == 0 and state[ENDING] == 0:
        return BAD_END
    for p in range(players):
        b = PLAYERS + p * PL_SIZE
        total = 0
        for i in range(T.N_WEDGES):
            if state[b + PL_TOK + i] < 0:
                return BAD_WHEEL
            total += state[b + PL_TOK + i]
        if total != state[b + PL_TOKTOTAL]:
            return BAD_WHEEL
        for k in range(T.N_KNIGHTS):
            r = state[b + PL_KNIGHT + k]
            if r != T.KNIGHT_AWAY and (r < 0 or r >= T.N_REGIONS or not params[P_ACTIVE + r]):
                return BAD_KNIGHT
    placed = np.zeros((MAX_PLAYERS, T.N_BUILDING_TYPES), np.int64)
    coats = np.zeros(MAX_PLAYERS, np.int64)
    for r in range(T.N_REGIONS):
        a, b2 = state[R_BLD_A + r], state[R_BLD_B + r]
        if b2 >= 0 and (a < 0 or (b2 // 4) % 8 < T.N_BASE_TYPES):
            return BAD_SLOTS
        for c in (a, b2):
            if c < 0:
                continue
            if state[R_ENEMY + r] >= 0:
                return BAD_ENEMY_BUILDING
            o, t, lv = c // 32, (c // 4) % 8, c % 4
            if (
                o >= players
                or (placed[o, t] >> lv) & 1
                or (state[PLAYERS + o * PL_SIZE + PL_BOARD + t] >> lv) & 1
            ):
                return BAD_BOARD
            placed[o, t] |= 1 << lv
        e = state[R_ENEMY + r]
        if e >= 0 and state[ENEMY_LOC + e] != r:
            return BAD_ENEMY_LOC
        if state[R_COAT + r] >= 0:
            coats[state[R_COAT + r]] += 1
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
    if markers != 2:
        return BAD_CAPTURED
    for k in range(T.N_ENEMY_TYPES):
        total = 0
        for p in range(players):
            if captured[p, k] != state[PLAYERS + p * PL_SIZE + PL_CAPT + k]:
                return BAD_CAPTURED
            total += captured[p, k]
        if k < 2 and total != state[TRACK + k]:
            return BAD_CAPTURED
    if params[P_EXPANSION]:
        for p in range(players):
            if coats[p] + state[PLAYERS + p * PL_SIZE + PL_COATS] != T.COATS_OF_ARMS:
                return BAD_COATS
    return OK
