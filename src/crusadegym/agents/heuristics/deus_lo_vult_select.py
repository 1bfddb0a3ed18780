"""Inputs of a learned Deus lo Vult *selection* prior (:mod:`crusadegym.agents.select_prior`).

A Deus lo Vult move is "select a cell, then act" (``core/deus_lo_vult/actions.py``), and
the heuristic scores a selection by the best of its follow-ups: a second ply, about 77
step + evaluation calls per position, which a profile of the compiled search found to
be about four fifths of its time (``docs/training.md``). A selection prior estimates
that value from what the selection offers without playing its follow-ups: the selected
token, the kinds of follow-up the rules allow it (one step and one legal mask), and how
far its legal moves bring it toward the loot or home.

Columns (:data:`FEATURE_NAMES`), for selection ``a`` by the seat to move, from the
state after the selection (``s1``) and its legal mask (``mask2``):
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import (
    CELL0,
    DEPLOY0,
    GIVE0,
    HEAL,
    N_ACTIONS,
    PICK0,
    REALIGN,
    STRIKE0,
    TAKE0,
    WEAKEN,
    WITHDRAW,
)  # fmt: skip
from crusadegym.core.jit import jit

from . import deus_lo_vult as H

FEATURE_NAMES = (
    "bias",
    "deploy",  # an empty camp cell: the follow-up deploys
    "saracen",  # a Saracen is selected
    "wounded",  # the selected token is on its weak side
    "coins",  # coins the selected token carries
    "moves",  # legal CELL moves / 4
    "strikes",  # legal STRIKE directions
    "gives",  # legal GIVE directions, if it carries coins
    "takes",  # legal TAKE directions
    "withdraw",
    "heal",
    "realign",
    "weaken",
    "deploys",  # legal DEPLOY kinds / 4
    "ready_strike",  # a free own Crusader on a clear plunder spot that may strike
    "loot_gain",  # best cut in steps to a plunder spot over its legal moves / LOOT_RANGE
    "home_gain",  # carried coins x best cut in steps home over its legal moves / 4
    "loot_far",  # steps to a plunder spot / LOOT_RANGE (free own Crusaders)
    "home_far",  # carried coins x steps home / 12
)
N_FEATURES = len(FEATURE_NAMES)
__doc__ += "\n".join(f"* ``{n}``" for n in FEATURE_NAMES) + "\n"


@jit
def select_features(state, params, cell, s1, mask2, out):
    """Write the columns of selecting ``cell`` into ``out[N_FEATURES]``: ``state`` is the
    position before the selection, ``s1`` after it, ``mask2`` the legal mask of ``s1``."""
    out[:] = 0.0
    out[0] = 1.0
    p = state[L.CUR]
    t = state[L.BOARD + cell]
    if t < 0:
        out[1] = 1.0
    elif t >= T.SARACEN_TOKEN0:
        out[2] = 1.0
    if t >= 0:
        out[3] = state[L.TOK_SIDE + t]
        out[4] = state[L.TOK_COINS + t]
    for c in range(T.N_CELLS):
        out[5] += mask2[CELL0 + c] * 0.25
    for d in range(4):
        out[6] += mask2[STRIKE0 + d]
        out[8] += mask2[TAKE0 + d]
        if out[4] > 0:
            out[7] += mask2[GIVE0 + d]
    out[9] = mask2[WITHDRAW]
    out[10] = mask2[HEAL]
    out[11] = mask2[REALIGN]
    out[12] = mask2[WEAKEN]
    for k in range(DEPLOY0, PICK0):
        out[13] += mask2[k] * 0.25
    if t < 0 or t >= T.SARACEN_TOKEN0 or T.TOKEN_OWNER[t] != p:
        return
    side, coins = state[L.TOK_SIDE + t], state[L.TOK_COINS + t]
    if H.KIND_CAPACITY[H.TOKEN_KIND[t], side] > coins:
        here = H._loot_distance(state, t, cell)
        out[17] = here / H.LOOT_RANGE
        if here == 0.0 and out[6] > 0:
            out[14] = 1.0
        best = here
        for c in range(T.N_CELLS):
            if mask2[CELL0 + c]:
                best = min(best, H._loot_distance(state, t, c))
        out[15] = (here - best) / H.LOOT_RANGE
    if coins > 0:
        home = H._home_distance(params, p, cell)
        out[18] = coins * home / 12.0
        best_home = home
        for c in range(T.N_CELLS):
            if mask2[CELL0 + c]:
                best_home = min(best_home, H._home_distance(params, p, c))
        out[16] = coins * (home - best_home) / 4.0


EXACT_FOLLOWUPS = np.zeros(N_ACTIONS, np.uint8)
"""Follow-ups the selection prior still plays out: every one but a move (``CELL``). They
are about a tenth of a selection's follow-ups, and hold its big swings (strikes that
plunder, wound or kill; coins given or taken) that a linear guess cannot see."""
EXACT_FOLLOWUPS[STRIKE0:] = 1
