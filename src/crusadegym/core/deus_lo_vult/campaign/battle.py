"""Battles and Glory [R Part 2 "Campaign Mode", "Steps of Starting the Battle"].

The Campaign block's first slots (``layout.CB_BATTLE``): which Battle is being fought,
each seat's Glory, and the Campaign's end. The Jerusalem setup [R "All 12 City
Quarters (Jerusalem mode)", "Build the Jerusalem ... placing them with the golden side
inside of the square"] deals all 12 City Quarters at once onto the ring of 12 cells
around the four central Saracen squares, coin edge inward (the corner cells of the
ring face the central column/row like their side; STAND-IN [P]: the rulebook shows no
diagram). Hook-level only: the flow between Battles is in ``flow.py``.
"""

from __future__ import annotations

import numpy as np

from ...jit import jit
from .. import tables as T
from ..config import P_QUARTER_FACING
from ..layout import BOARD, LOC_PURGATORY, QNEXT, QORDER, ROUND_LEFT, SCORE, TOK_COINS, TOK_LOC
from ..pieces import TOKEN_OWNER, camp_owner, is_crusader, is_refugee, is_saracen, place_token
from .adjoin import controller
from .config import P_JERUSALEM
from .layout import CB_BATTLE

# state slots (battle.py's part of the BATTLE block; gauntlets.py owns CB_BATTLE + 64 ...)
C_BATTLE = CB_BATTLE + 0  # Battles finished so far (0 during the first)
C_OVER = CB_BATTLE + 1  # 1 once the Campaign has ended
C_TRUNC = CB_BATTLE + 2  # 1 once any Battle of the Campaign was cut by the turn cap
C_COIN_BALANCE = CB_BATTLE + 3  # coins of this Battle's deal now off the board and out of
# SCORE (prices paid, tithe) minus coins put into SCORE from outside (carried in): the
# Duel's coin conservation reads held + loose + secured + this == dealt (invariants.py)
C_GLORY = CB_BATTLE + 4  # [4] Glory per seat
C_LAST_GLORY = CB_BATTLE + 8  # [4] Glory each seat earned in the last Battle
C_CARRY = CB_BATTLE + 12  # [4] coins each seat carries into the next Battle
C_LAST_SCORE = CB_BATTLE + 16  # [4] coins each seat had secured when the last Battle ended
C_GAUNTLET_GLORY = CB_BATTLE + 20  # [4] Glory from the Gauntlet Run of the last Battle
C_DEED_GLORY = CB_BATTLE + 24  # [4] Glory from Deeds completed in the last Battle
C_GAUNTLET0 = CB_BATTLE + 64  # first slot owned by gauntlets.py
C_BATTLE_END = CB_BATTLE + 192

FIELDS = {
    "battle": (C_BATTLE, 1),
    "over": (C_OVER, 1),
    "glory": (C_GLORY, 4),
    "last_glory": (C_LAST_GLORY, 4),
    "carry": (C_CARRY, 4),
    "last_score": (C_LAST_SCORE, 4),
    "coin_balance": (C_COIN_BALANCE, 1),
    "last_gauntlet_glory": (C_GAUNTLET_GLORY, 4),
    "last_deed_glory": (C_DEED_GLORY, 4),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""


def _ring() -> tuple[np.ndarray, np.ndarray]:
    cells, dirs = [], []
    for c in range(4, 8):  # top row, coin edge south
        cells.append(T.SIZE * 4 + c)
        dirs.append(T.S)
    for r in range(5, 8):  # right column, coin edge west
        cells.append(T.SIZE * r + 7)
        dirs.append(T.W)
    for c in range(6, 3, -1):  # bottom row, coin edge north
        cells.append(T.SIZE * 7 + c)
        dirs.append(T.N)
    for r in range(6, 4, -1):  # left column, coin edge east
        cells.append(T.SIZE * r + 4)
        dirs.append(T.E)
    return np.array(cells, np.int64), np.array(dirs, np.int64)


JERUSALEM_CELLS, JERUSALEM_COIN_DIR = _ring()
assert len(JERUSALEM_CELLS) == T.N_QUARTERS
assert set(int(c) for c in T.QUARTER_SLOTS) <= set(int(c) for c in JERUSALEM_CELLS)


@jit
def deal_jerusalem(state, params):
    """All 12 City Quarters at once [R "Jerusalem mode"]; False unless the switch is on."""
    if params[P_JERUSALEM] == 0:
        return False
    flip = (params[P_QUARTER_FACING] - T.QUARTER_COIN_DIR[0] + 4) % 4  # coin_facing="out"
    total = 0
    for slot in range(T.N_QUARTERS):
        q = state[QORDER + state[QNEXT]]
        state[QNEXT] += 1
        t = T.QUARTER_TOKEN0 + q
        place_token(state, t, JERUSALEM_CELLS[slot], (JERUSALEM_COIN_DIR[slot] + flip) % 4)
        state[TOK_COINS + t] = T.KIND_COINS[T.TOKEN_KIND[t]]
        total += state[TOK_COINS + t]
    state[ROUND_LEFT] = total
    return True


# ------------------------------------------------------------------ shared helpers
@jit
def pay_coins(state, p, n):
    """Seat p pays n of its secured coins (``SCORE[p]``) to the bank [our reading of a
    "Coin" price]; the coin balance keeps the Duel's coin conservation exact. Every
    module that charges a coin should call this (not ``SCORE -= n``)."""
    state[SCORE + p] -= n
    state[C_COIN_BALANCE] += n


@jit
def refugees_in_camp(state, params, p):
    """Refugees stationed in seat p's camp [R "Refugees Welcome!": "Refugees stationed
    in their Camps"]."""
    n = 0
    for c in range(T.N_CELLS):
        u = state[BOARD + c]
        if u >= 0 and camp_owner(params, c) == p and is_refugee(state, u):
            n += 1
    return n


@jit
def purgatory_count(state, p):
    """Seat p's units on the Purgatory track [R "Penance"]."""
    n = 0
    for t in range(T.N_TOKENS):
        if state[TOK_LOC + t] == LOC_PURGATORY and is_crusader(t) and TOKEN_OWNER[t] == p:
            n += 1
    return n


@jit
def killed(state, t, c):
    """Did token t, which stood on cell c before a strike, die in it?"""
    return state[BOARD + c] != t


@jit
def strike_credits(state, c, tc, t, u, out):
    """Who gets credit for what a strike from c (token t) at tc (token u) killed:
    ``out[0]`` the seat credited with a Saracen kill, ``out[1]`` the seat credited with a
    rival Crusader kill (-1 none). A Saracen (or rival) killed by the striker counts for
    the striker's seat; one killed by the defender's strike back counts for the
    defender's seat (our reading of "kill more Saracens"). A unit's seat: the seat that
    commands it this action (``adjoin.controller``: Eleanor's adjoined units)."""
    out[0] = -1
    out[1] = -1
    if u >= 0 and killed(state, u, tc) and is_crusader(t):
        seat = controller(state, t)
        if is_saracen(u):
            out[0] = seat
        elif is_crusader(u) and controller(state, u) != seat:
            out[1] = seat
    if t >= 0 and killed(state, t, c) and u >= 0 and is_crusader(u):
        seat = controller(state, u)
        if is_saracen(t):
            out[0] = seat
        elif is_crusader(t) and controller(state, t) != seat:
            out[1] = seat


@jit
def place_points(counts, players, table, out):
    """Glory by places [R "Refugees Welcome!"]: the most gets ``table[0]``, the next
    ``table[1]``, ...; seats with the same count "get the same amount of Point, but not
    the First Place reward": a tie shares the points of the LOWEST place it covers (3, 3,
    2, 1 Refugees -> 2, 2, 1, 0; Fons Honorum's 8, 6, 6, 2 kills -> 2, 1, 1, 1, as the
    rulebook's examples say). Places beyond ``table`` get 0."""
    for p in range(players):
        above = 0
        same = 0
        for q in range(players):
            if counts[q] > counts[p]:
                above += 1
            elif counts[q] == counts[p]:
                same += 1
        place = above + same - 1
        out[p] = table[place] if place < table.shape[0] else 0


@jit
def unique_best(counts, players):
    """The seat with strictly more than every other seat, else -1 ("tie means no one
    wins")."""
    best = -1
    for p in range(players):
        if best < 0 or counts[p] > counts[best]:
            best = p
    for q in range(players):
        if q != best and counts[q] == counts[best]:
            return -1
    return best
