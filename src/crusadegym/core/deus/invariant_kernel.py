"""The invariants of ``invariants.py``, compiled, so a soak checks every state it plays.

:func:`violation` returns 0 for a sound state, else the code of the first violated
invariant (``VIOLATIONS[code]`` says which). It reads the state only and never raises;
the plain-Python :func:`invariants.check` stays the readable statement (the tests check
that both agree).
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .config import P_ON_BOARD, P_PLAYERS, P_TILES
from .effects import temple_vp
from .layout import (
    CARD_LOC,
    DECK,
    DECK_N,
    DISC,
    DISC_N,
    GOLD,
    HAND_N,
    IN_SUPPLY,
    LOC_COLUMN0,
    LOC_DECK,
    LOC_DISCARD,
    LOC_HAND0,
    LOC_PENDING,
    ON_BOARD,
    OWNER,
    PIECES,
    RES,
    SUPPLY,
    TEMPLE_BIT,
    TEMPLES_LEFT,
    TERRAIN,
    VILLAGE_VP,
    VP,
    col,
    col_n,
    player,
)

VIOLATIONS = (
    "sound",
    "resources not conserved (held + supply != 5 x players) or negative",
    "negative gold or VP",
    "a hand count disagrees with its cards, or a hand holds more than 10",
    "pieces not conserved (map + board + supply != 5 per type) or negative",
    "a temple card scores outside [0, 12]",
    "a region's owner and pieces disagree, or a piece where none may stand",
    "temples not conserved (map + supply != tiles)",
    "cards not conserved (a card in no place, in two, or in the wrong column)",
    "two villages are adjacent",
)
MARITIME_BIT = 1 << T.MARITIME
MILITARY_BIT = 1 << T.MILITARY


@jit
def _bad_card_places(state, players):
    """Pile and column sizes outside their room, or a column entry that is no card: read
    first, so that no later check indexes the tables with them (code 8)."""
    if not (0 <= state[DECK_N] <= T.N_CARDS and 0 <= state[DISC_N] <= T.N_CARDS):
        return True
    for p in range(players):
        for colour in range(T.N_COLOURS):
            n = state[col_n(p, colour)]
            if n < 0 or n > T.COLUMN_CAP:
                return True
            for i in range(n):
                c = state[col(p, colour) + i]
                if c < 0 or c >= T.N_CARDS:
                    return True
    return False


@jit
def violation(state, params):
    """0 if ``state`` is sound, else the code of the first violated invariant."""
    players = params[P_PLAYERS]
    if _bad_card_places(state, players):
        return 8
    for k in range(T.N_RESOURCES):
        held = 0
        for p in range(players):
            if state[player(p) + RES + k] < 0:
                return 1
            held += state[player(p) + RES + k]
        if state[SUPPLY + k] < 0 or held + state[SUPPLY + k] != T.RESOURCE_PER_PLAYER * players:
            return 1
    for p in range(players):
        pb = player(p)
        if state[pb + GOLD] < 0 or state[pb + VP] < 0:
            return 2
        hand = 0
        for c in range(T.N_CARDS):
            if state[CARD_LOC + c] == LOC_HAND0 + p:
                hand += 1
        if hand != state[pb + HAND_N] or hand > T.HAND_LIMIT:
            return 3
        for t in range(T.N_TYPES):
            placed = 0
            for r in range(T.N_REGIONS):
                if params[P_ON_BOARD + r] and state[OWNER + r] == p and state[PIECES + r] >> t & 1:
                    placed += 1
            board = state[pb + ON_BOARD + t]
            supp = state[pb + IN_SUPPLY + t]
            if board < 0 or supp < 0 or placed + board + supp != T.PIECES_PER_TYPE:
                return 4
        for i in range(state[col_n(p, T.TEMPLE)]):
            v = temple_vp(state, params, p, T.CARD_DESIGN[state[col(p, T.TEMPLE) + i]])
            if v < 0 or v > T.TEMPLE_VP_CAP:
                return 5
    temples = 0
    for r in range(T.N_REGIONS):
        pieces = state[PIECES + r]
        if not params[P_ON_BOARD + r]:
            if state[OWNER + r] != -1 or pieces != 0:
                return 6
            continue
        if (state[OWNER + r] >= 0) != (pieces != 0) or state[VILLAGE_VP + r] < 0:
            return 6
        t = state[TERRAIN + r]
        if t == T.VILLAGE and pieces:
            return 6
        if t == T.SEA and pieces & ~(MARITIME_BIT | MILITARY_BIT):
            return 6
        if t != T.SEA and pieces & MARITIME_BIT:
            return 6
        if t == T.VILLAGE:
            for k in range(6):
                n = T.NEIGH[r, k]
                if n >= 0 and params[P_ON_BOARD + n] and state[TERRAIN + n] == T.VILLAGE:
                    return 9
        if pieces & TEMPLE_BIT:
            temples += 1
    if temples + state[TEMPLES_LEFT] != params[P_TILES]:
        return 7
    return _cards(state, players)


@ajit
def _cards(state, players):
    seen = np.zeros(T.N_CARDS, np.int64)
    for i in range(state[DECK_N]):
        c = state[DECK + i]
        if c < 0 or c >= T.N_CARDS or state[CARD_LOC + c] != LOC_DECK:
            return 8
        seen[c] += 1
    for i in range(state[DISC_N]):
        c = state[DISC + i]
        if c < 0 or c >= T.N_CARDS or state[CARD_LOC + c] != LOC_DISCARD:
            return 8
        seen[c] += 1
    for p in range(players):
        for colour in range(T.N_COLOURS):
            for i in range(state[col_n(p, colour)]):
                c = state[col(p, colour) + i]
                if c < 0 or c >= T.N_CARDS or state[CARD_LOC + c] != LOC_COLUMN0 + p:
                    return 8
                if T.DESIGN_COLOUR[T.CARD_DESIGN[c]] != colour:
                    return 8
                seen[c] += 1
    for c in range(T.N_CARDS):
        loc = state[CARD_LOC + c]
        if loc == LOC_PENDING or LOC_HAND0 <= loc < LOC_HAND0 + players:
            seen[c] += 1
        if seen[c] != 1:
            return 8
    return 0
