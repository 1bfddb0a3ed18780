"""End of game and scoring [R "End of Game and Scoring"].

Final score = VP gained during play + each temple card's VP (max 12 each) + 2 VP for
the most of each of wheat, wood, stone, clay and gold (at least 1; every tied player
scores). The rulebook prints no tie-break: tied leaders share the win (``tie_break``
option "leftovers": most resources + gold left among them [P]).
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .config import P_PLAYERS, P_TIE, TIE_LEFTOVERS
from .effects import temple_vp
from .layout import GOLD, RES, VP, col, col_n, player


@jit
def final_scores(state, params, out):
    """out[p] = seat p's final score (int64 array of length players)."""
    players = params[P_PLAYERS]
    for p in range(players):
        pb = player(p)
        s = state[pb + VP]
        for i in range(state[col_n(p, T.TEMPLE)]):
            s += temple_vp(state, params, p, T.CARD_DESIGN[state[col(p, T.TEMPLE) + i]])
        out[p] = s
    for k in range(T.N_RESOURCES + 1):
        slot = RES + k if k < T.N_RESOURCES else GOLD
        best = 1
        for p in range(players):
            best = max(best, state[player(p) + slot])
        for p in range(players):
            if state[player(p) + slot] >= best:
                out[p] += T.MAJORITY_VP


@ajit
def winners(state, params, won):
    """won[p] = 1 for each winner; returns how many there are."""
    players = params[P_PLAYERS]
    score = np.zeros(players, np.int64)
    final_scores(state, params, score)
    best = score.max()
    left = np.full(players, -1, np.int64)
    for p in range(players):
        if score[p] == best:
            left[p] = state[player(p) + GOLD]
            for k in range(T.N_RESOURCES):
                left[p] += state[player(p) + RES + k]
    best_left = left.max()
    n = 0
    for p in range(players):
        won[p] = 0
        if score[p] == best and (params[P_TIE] != TIE_LEFTOVERS or left[p] == best_left):
            won[p] = 1
            n += 1
    return n
