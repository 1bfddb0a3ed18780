"""Turn and round flow, and applying an action [R "Actions", "End of the Round"].

A turn has 7 Action Points; a selection is followed by what it does
(:func:`apply_unit_action`); the turn passes at 0 points or on END_TURN, after units
left in rival camps are punished. Securing the round's last coin ends the round
(:func:`round_transition`); the game ends after the last round or at the turn cap.
"""

from __future__ import annotations

import numpy as np

from .. import rng as R
from ..jit import jit
from ..stack import stack_empty, stack_row
from . import tables as T
from .actions import (
    DEPLOY0,
    END_TURN,
    GIVE0,
    HEAL,
    PICK0,
    REALIGN,
    STRIKE0,
    TAKE0,
    WEAKEN,
    WITHDRAW,
)
from .bands import BAND_COLS, add_moves, apply_stampede, label_band_of, stampede_scan_near
from .campaign import hookpoints as H
from .choices import reserve_token
from .coins import do_give, pick_up, take_from
from .combat import do_strike
from .config import (
    DEPLOY_LATIN,
    P_CAMPAIGN,
    P_DEPLOY,
    P_MAX_TURNS,
    P_PLAYERS,
    P_REPLENISH,
    P_ROUNDS,
    P_SARACEN_PLACE,
    P_SEAT_FACING,
    P_WEAKEN_COST,
    PLACE_TACTICAL,
    REPLENISH_PURGATORY,
    WEAKEN_PAID,
)
from .layout import (
    AP,
    BOARD,
    CUR,
    GROUND,
    LOC_OFF,
    LOC_PURGATORY,
    LOC_RESERVE,
    OVER,
    PH_ARMY,
    PH_DEPLOY,
    PH_PICK,
    PH_SARACEN,
    PHASE,
    QUOTA,
    RNG,
    ROUND,
    ROUND_START,
    SEL,
    STEP,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
    TURN,
)
from .pieces import (
    CELL_SARACEN_DIR,
    KIND_COST,
    N_CELLS,
    N_TOKENS,
    NEIGH,
    QUARTER_TOKEN0,
    SARACEN_CELLS,
    SARACEN_DIRS,
    SARACEN_TOKEN0,
    TOKEN_OWNER,
    camp_owner,
    is_amenity,
    is_city_token,
    is_crusader,
    is_saracen,
    saracen_in_bag,
)
from .purgatory import STRONG, WEAK, kill
from .scoring import returns
from .setup import (
    N_SARACENS,
    advance_setup,
    begin_turn,
    deal_quarters,
    do_pick,
    finish,
    place_saracens,
    place_token,
)

ACTION_COST = 1  # [R] "Each of the following actions will cost you 1 Action Point"


@jit
def end_turn(state, params):
    """Rivals' camps cannot be held at turn end [R]; then the next seat plays."""
    p = state[CUR]
    for c in range(N_CELLS):
        u = state[BOARD + c]
        o = camp_owner(params, c)
        if u < 0 or o < 0:
            continue
        if is_saracen(u) or (is_crusader(u) and TOKEN_OWNER[u] == p and o != p):
            kill(state, u)
    if params[P_CAMPAIGN] != 0:
        H.end_turn(state, params, p)
        if state[OVER] != 0:
            return
    state[TURN] += 1
    if state[TURN] >= params[P_MAX_TURNS]:
        finish(state, True)
        return
    begin_turn(state, params, (p + 1) % params[P_PLAYERS])


@jit
def round_transition(state, params):
    """The round ends when its last coin is secured [R "End of the Round"].

    Purgatory stays; Refugees are discarded; Saracens still on the field return to
    the green camps (in token order, centre first, wounds kept; any beyond 12 go to
    the bag); the camps are replenished with the placement mode "to make up for those
    still in purgatory": one new Saracen per Saracen in Purgatory (option
    ``saracen_replenish="fill"``: every empty camp); 4 new City Quarters; Crusaders
    back to reserve; the next seat opens the round.
    """
    state[ROUND] += 1
    state[TURN] += 1
    if state[ROUND] >= params[P_ROUNDS]:
        finish(state, False)
        return
    replenish = T.N_SARACEN_CELLS
    if params[P_REPLENISH] == REPLENISH_PURGATORY:
        replenish = 0
        for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
            if state[TOK_LOC + t] == LOC_PURGATORY:
                replenish += 1
    survivors = stack_row(N_SARACENS, np.int64)
    n = 0
    for t in range(N_TOKENS):
        loc = state[TOK_LOC + t]
        state[TOK_MOVED + t] = 0
        if loc < 0:
            continue
        state[BOARD + loc] = -1
        if is_city_token(t) or is_amenity(t):  # Refugees are discarded (Amenities: hook)
            state[TOK_LOC + t] = LOC_OFF
        elif is_saracen(t):
            survivors[n] = t
            n += 1
        else:  # Crusaders to reserve
            state[TOK_LOC + t] = LOC_RESERVE
            state[TOK_SIDE + t] = STRONG
            state[TOK_COINS + t] = 0
    for c in range(N_CELLS):
        state[GROUND + c] = 0
    for i in range(n):
        t = survivors[i]
        if i < T.N_SARACEN_CELLS:
            side = state[TOK_SIDE + t]
            place_token(state, t, SARACEN_CELLS[i], SARACEN_DIRS[i])
            state[TOK_SIDE + t] = side
        else:
            state[TOK_LOC + t] = LOC_RESERVE
            state[TOK_SIDE + t] = STRONG
    deal_quarters(state, params)
    if params[P_CAMPAIGN] != 0:
        H.round_transition(state, params)
    if state[TURN] >= params[P_MAX_TURNS]:
        finish(state, True)
        return
    state[ROUND_START] = (state[CUR] + 1) % params[P_PLAYERS]
    place_saracens(state, params, replenish)


@jit
def move_is_army(state, params, c, e, p):
    """Is moving the unit on c to e an army move (vs a Saracen-band move)?"""
    t = state[BOARD + c]
    if is_saracen(t):
        return False
    if is_crusader(t):
        return True
    if state[PHASE] != PH_ARMY:
        return False
    bands = stack_empty(3, BAND_COLS, np.int64)
    label_band_of(state, p, False, c, bands)
    out = stack_row(N_CELLS, np.uint8)
    out[:] = 0
    add_moves(state, params, c, False, out, False, bands)
    return out[e] == 1


@jit
def do_move(state, params, c, e):
    """Place the unit on c onto e; it may charge with its next action [R]."""
    t = state[BOARD + c]
    before = stack_row(N_CELLS, np.int64)
    stampede_scan_near(state, params, c, e, before)
    state[BOARD + c] = -1
    state[BOARD + e] = t
    state[TOK_LOC + t] = e
    pick_up(state, params, t, e)  # standing on a coin picks it up, free [R]
    apply_stampede(state, params, c, e, before)
    if state[TOK_LOC + t] == e:
        state[TOK_MOVED + t] = 1
    if params[P_CAMPAIGN] != 0:
        H.after_move(state, params, t, e)


@jit
def do_deploy(state, params, c, p, kind):
    """Deploy a reserve unit of ``kind`` on camp cell c [R "Unit Deployment"]."""
    u = reserve_token(state, p, kind)
    before = stack_row(N_CELLS, np.int64)
    stampede_scan_near(state, params, -1, c, before)
    place_token(state, u, c, params[P_SEAT_FACING + p])
    pick_up(state, params, u, c)
    apply_stampede(state, params, -1, c, before)
    if state[PHASE] == PH_DEPLOY:
        state[QUOTA] -= KIND_COST[kind] if params[P_DEPLOY] == DEPLOY_LATIN else 1


@jit
def do_spawn(state, params, c, a):
    """Spawn a Saracen on the empty green cell c [R "spawned and healed here"]: the
    picked kind (tactical) or one drawn at random from the bag (blind)."""
    if params[P_SARACEN_PLACE] == PLACE_TACTICAL:
        t = saracen_in_bag(state, T.KIND_SARACEN0 + a - PICK0)
    else:
        bag = stack_row(N_SARACENS, np.int64)
        n = 0
        for u in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
            if state[TOK_LOC + u] == LOC_RESERVE:
                bag[n] = u
                n += 1
        t = bag[R.randint(state, RNG, n)]
    before = stack_row(N_CELLS, np.int64)
    stampede_scan_near(state, params, -1, c, before)
    place_token(state, t, c, CELL_SARACEN_DIR[c])
    apply_stampede(state, params, -1, c, before)


@jit
def apply_unit_action(state, params, c, a):
    """Stage 2: the selection on c does action a. Returns True if the round ended."""
    p = state[CUR]
    t = state[BOARD + c]
    may_charge = t >= 0 and state[TOK_MOVED + t] == 1
    for u in range(N_TOKENS):  # a charge must follow its move directly
        state[TOK_MOVED + u] = 0
    saracen_side = False
    cost = ACTION_COST
    round_over = False
    if a < STRIKE0:
        saracen_side = not move_is_army(state, params, c, a, p)
        do_move(state, params, c, a)
    elif a < GIVE0:
        saracen_side = not is_crusader(t)
        do_strike(state, params, c, a - STRIKE0, p, may_charge)
    elif a < TAKE0:
        round_over = do_give(state, params, c, NEIGH[c, a - GIVE0], p)
    elif a < WITHDRAW:
        take_from(state, t, NEIGH[c, a - TAKE0])
    elif a == WITHDRAW:
        state[BOARD + c] = -1
        state[TOK_LOC + t] = LOC_RESERVE
        state[TOK_SIDE + t] = STRONG
    elif a == HEAL:
        saracen_side = is_saracen(t)
        state[TOK_SIDE + t] = STRONG
    elif a == REALIGN:
        saracen_side = True
        state[TOK_FACE + t] = CELL_SARACEN_DIR[c]
    elif a == WEAKEN:
        # [R "Heal Unit"] "weaken a unit at will, but this won't cost an Action Point"
        cost = ACTION_COST if params[P_WEAKEN_COST] == WEAKEN_PAID else 0
        state[TOK_SIDE + t] = WEAK
        if params[P_CAMPAIGN] != 0:
            H.after_weaken(state, params, t, p)
    elif a < PICK0:
        do_deploy(state, params, c, p, a - DEPLOY0)
    else:
        saracen_side = True
        do_spawn(state, params, c, a)
    if saracen_side:
        state[PHASE] = PH_SARACEN
    if state[PHASE] != PH_DEPLOY:
        state[AP] -= cost
    return round_over


@jit
def step(state, params, action, rewards):
    """Apply one (legal) action; ``rewards`` receives the final result when it ends."""
    rewards[:] = 0.0
    state[STEP] += 1
    phase = state[PHASE]
    if phase == PH_PICK:
        do_pick(state, params, T.KIND_SARACEN0 + action - PICK0)
    elif state[SEL] < 0:
        if action == END_TURN:
            end_turn(state, params)
        else:
            state[SEL] = action
    else:
        c = state[SEL]
        state[SEL] = -1
        if apply_unit_action(state, params, c, action):
            round_transition(state, params)
        elif phase == PH_DEPLOY:
            advance_setup(state, params)
        elif state[AP] <= 0:
            end_turn(state, params)
    if state[OVER] != 0:
        returns(state, params, rewards)
