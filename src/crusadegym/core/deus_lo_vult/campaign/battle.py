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
from ..layout import QNEXT, QORDER, ROUND_LEFT, TOK_COINS
from ..pieces import place_token
from .config import P_JERUSALEM
from .layout import CB_BATTLE

# state slots (battle.py's part of the BATTLE block; gauntlets.py owns CB_BATTLE + 64 ...)
C_BATTLE = CB_BATTLE + 0  # Battles finished so far (0 during the first)
C_OVER = CB_BATTLE + 1  # 1 once the Campaign has ended
C_TRUNC = CB_BATTLE + 2  # 1 if the Campaign ended with a Battle cut by the turn cap
C_GLORY = CB_BATTLE + 4  # [4] Glory per seat
C_LAST_GLORY = CB_BATTLE + 8  # [4] Glory each seat earned in the last Battle
C_CARRY = CB_BATTLE + 12  # [4] coins each seat carries into the next Battle
C_LAST_SCORE = CB_BATTLE + 16  # [4] coins each seat had secured when the last Battle ended
C_GAUNTLET0 = CB_BATTLE + 64  # first slot owned by gauntlets.py
C_BATTLE_END = CB_BATTLE + 192

FIELDS = {
    "battle": (C_BATTLE, 1),
    "over": (C_OVER, 1),
    "glory": (C_GLORY, 4),
    "last_glory": (C_LAST_GLORY, 4),
    "carry": (C_CARRY, 4),
    "last_score": (C_LAST_SCORE, 4),
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
