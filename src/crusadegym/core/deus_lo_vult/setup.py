"""Set up and the start of every round [R "Set Up", "End of the Round / Winning"].

City Quarters are dealt from the shuffled stack; Saracens fill the empty green cells
(blind: at random from the bag; tactical: the seats pick kinds in turn, centre first);
then pre-deployment (Saracenic / Latin) or straight to the first turn (Campaign).
"""

from __future__ import annotations

import numpy as np

from .. import rng as R
from ..jit import jit
from ..stack import stack_row
from . import tables as T
from .campaign import hookpoints as H
from .choices import any_deploy
from .config import (
    DEPLOY_CAMPAIGN,
    DEPLOY_LATIN,
    P_CAMPAIGN,
    P_DEPLOY,
    P_PLAYERS,
    P_PRE_POINTS,
    P_PRE_UNITS,
    P_QUARTER_FACING,
    P_SARACEN_PLACE,
    P_SEAT_FACING,
    PLACE_TACTICAL,
)
from .layout import (
    AP,
    BOARD,
    CUR,
    LAST_PLUNDER,
    LOC_OFF,
    LOC_RESERVE,
    LOC_STACK,
    OVER,
    PH_ARMY,
    PH_DEPLOY,
    PH_OVER,
    PH_PICK,
    PHASE,
    PURG,
    QNEXT,
    QORDER,
    QUOTA,
    RNG,
    ROUND_LEFT,
    ROUND_START,
    SEL,
    SETUP_DONE,
    SETUP_K,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_MOVED,
    TRUNC,
)
from .pieces import (
    KIND_IN_DUEL,
    N_CELLS,
    N_TOKENS,
    QUARTER_TOKEN0,
    SARACEN_CELLS,
    SARACEN_DIRS,
    SARACEN_TOKEN0,
    TOKEN_KIND,
    TOKEN_OWNER,
    bag_count,
    place_token,
    saracen_in_bag,
)

KIND_COINS = T.KIND_COINS
N_SARACEN_CELLS = T.N_SARACEN_CELLS


N_SARACENS = T.N_SARACENS  # a module constant: stack_row needs one


@jit
def deal_quarters(state, params):
    """Four City Quarters from the shuffled stack onto the slots, with their coins [R]."""
    if params[P_CAMPAIGN] != 0 and H.deal_quarters(state, params):
        return  # a Campaign module dealt them (the Jerusalem setup)
    total = 0
    for slot in range(4):
        q = state[QORDER + state[QNEXT]]
        state[QNEXT] += 1
        t = QUARTER_TOKEN0 + q
        place_token(state, t, T.QUARTER_SLOTS[slot], params[P_QUARTER_FACING + slot])
        state[TOK_COINS + t] = KIND_COINS[TOKEN_KIND[t]]
        total += state[TOK_COINS + t]
    state[ROUND_LEFT] = total


@jit
def next_free_green(state, k):
    """Index (setup order, centre first) of the first empty green cell at or after k."""
    while k < N_SARACEN_CELLS and state[BOARD + SARACEN_CELLS[k]] >= 0:
        k += 1
    return k


@jit
def fill_green_blind(state, quota):
    """Blind placement: the empty green cells, centre first, get Saracens drawn at
    random from the bag [R "Placing ... randomly from the bag"], at most ``quota``."""
    bag = stack_row(N_SARACENS, np.int64)
    n = 0
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if state[TOK_LOC + t] == LOC_RESERVE:
            bag[n] = t
            n += 1
    R.shuffle(state, RNG, bag, n)
    i = 0
    k = next_free_green(state, 0)
    while k < N_SARACEN_CELLS and i < n and i < quota:
        place_token(state, bag[i], SARACEN_CELLS[k], SARACEN_DIRS[k])
        i += 1
        k = next_free_green(state, k + 1)


@jit
def begin_turn(state, params, p):
    """Seat p's turn starts with 7 Action Points [R "Actions"]."""
    state[CUR] = p
    state[AP] = T.ACTION_POINTS
    state[PHASE] = PH_ARMY
    state[SEL] = -1
    for t in range(N_TOKENS):
        state[TOK_MOVED + t] = 0
    if params[P_CAMPAIGN] != 0:
        H.begin_turn(state, params, p)


@jit
def setup_quota(params):
    """Pre-deployment quota: Army Points (Latin) or units (Saracenic) [R "Set Up"]."""
    return params[P_PRE_POINTS] if params[P_DEPLOY] == DEPLOY_LATIN else params[P_PRE_UNITS]


@jit
def advance_setup(state, params):
    """Move setup deployment on to the next seat once a seat's quota is used up."""
    players = params[P_PLAYERS]
    while state[QUOTA] <= 0 or not any_deploy(state, params, state[CUR]):
        state[SETUP_DONE] += 1
        if state[SETUP_DONE] >= players:
            begin_turn(state, params, state[ROUND_START])
            return
        state[CUR] = (state[CUR] + 1) % players
        state[QUOTA] = setup_quota(params)


@jit
def start_round_play(state, params):
    """Pre-deployment (Saracenic / Latin) or straight to the first turn (Campaign) [R]."""
    if params[P_DEPLOY] == DEPLOY_CAMPAIGN:
        begin_turn(state, params, state[ROUND_START])
        return
    state[PHASE] = PH_DEPLOY
    state[SEL] = -1
    state[CUR] = state[ROUND_START]
    state[SETUP_DONE] = 0
    state[QUOTA] = setup_quota(params)
    advance_setup(state, params)


@jit
def place_saracens(state, params, quota):
    """Put up to ``quota`` Saracens on the empty green cells (centre first) with the
    chosen placement mode [R]: all of them at setup, the replenishment between rounds.
    A tactical placement keeps the Saracens still to place in ``QUOTA``."""
    if params[P_SARACEN_PLACE] == PLACE_TACTICAL:
        k = next_free_green(state, 0)
        if quota > 0 and k < N_SARACEN_CELLS and bag_count(state) > 0:
            state[PHASE] = PH_PICK
            state[SETUP_K] = k
            state[SEL] = -1
            state[CUR] = state[ROUND_START]
            state[QUOTA] = quota
            return
    else:
        fill_green_blind(state, quota)
    start_round_play(state, params)


@jit
def do_pick(state, params, kind):
    """Tactical placement: the seat to move puts a Saracen of ``kind`` on the next cell."""
    t = saracen_in_bag(state, kind)
    k = state[SETUP_K]
    place_token(state, t, SARACEN_CELLS[k], SARACEN_DIRS[k])
    k = next_free_green(state, k + 1)
    state[SETUP_K] = k
    state[QUOTA] -= 1
    if k >= N_SARACEN_CELLS or bag_count(state) == 0 or state[QUOTA] <= 0:
        start_round_play(state, params)
    else:
        state[CUR] = (state[CUR] + 1) % params[P_PLAYERS]


@jit
def init(state, params, seed):
    """A new Duel: quarters dealt, Saracens placed, then setup deployment [R "Set Up"]."""
    state[:] = 0
    R.seed(state, RNG, seed)
    for c in range(N_CELLS):
        state[BOARD + c] = -1
    for i in range(T.PURGATORY_SLOTS):
        state[PURG + i] = -1
    for t in range(N_TOKENS):
        state[TOK_LOC + t] = LOC_RESERVE if KIND_IN_DUEL[TOKEN_KIND[t]] else LOC_OFF
        owner = TOKEN_OWNER[t]
        if owner < params[P_PLAYERS]:
            state[TOK_FACE + t] = params[P_SEAT_FACING + owner]
    for q in range(T.N_QUARTERS):
        state[TOK_LOC + QUARTER_TOKEN0 + q] = LOC_STACK
        state[QORDER + q] = q
    R.shuffle(state, RNG, state[QORDER : QORDER + T.N_QUARTERS], T.N_QUARTERS)
    state[LAST_PLUNDER] = -1
    state[SEL] = -1
    deal_quarters(state, params)
    place_saracens(state, params, N_SARACEN_CELLS)  # setup: every green cell [R]


@jit
def finish(state, truncated):
    state[OVER] = 1
    state[TRUNC] = 1 if truncated else 0
    state[PHASE] = PH_OVER
    state[SEL] = -1
