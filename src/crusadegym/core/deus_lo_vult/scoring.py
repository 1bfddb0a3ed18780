"""The end of the game and its result [R "End of the Round / Winning"].

"The player with the most coins at the end of 3 rounds wins." Ties: the home rules
("last coin is the king" or "a tie remains a tie"). A game cut by the turn cap is
truncated and scored the same way on the coins secured so far.
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from .config import P_PLAYERS, P_TIE, TIE_LAST_COIN
from .layout import CUR, LAST_PLUNDER, OVER, SCORE, TRUNC

WIN, LOSS, DRAW = 1.0, -1.0, 0.0


@jit
def current_player(state, params):
    return -1 if state[OVER] != 0 else state[CUR]


@jit
def is_terminal(state, params):
    return state[OVER] != 0


@jit
def is_truncated(state, params):
    return state[TRUNC] != 0


@jit
def winners(state, params, out):
    """Mark the winning seats in ``out`` (most coins; ties by the tie rule [R])."""
    players = params[P_PLAYERS]
    best = -1
    for p in range(players):
        best = max(best, state[SCORE + p])
    n = 0
    for p in range(players):
        out[p] = 1 if state[SCORE + p] == best else 0
        n += out[p]
    lp = state[LAST_PLUNDER]
    if n > 1 and params[P_TIE] == TIE_LAST_COIN and lp >= 0 and out[lp] == 1:
        for p in range(players):
            out[p] = 1 if p == lp else 0
        n = 1
    return n


@ajit
def returns(state, params, out):
    """Final reward per seat: winners +1, the others -1; 0 for all if everyone ties."""
    out[:] = DRAW
    if state[OVER] == 0:
        return
    players = params[P_PLAYERS]
    won = np.zeros(players, np.int64)
    n = winners(state, params, won)
    if n == players:
        return
    for p in range(players):
        out[p] = WIN if won[p] == 1 else LOSS
