"""The legal mask: which selections and which follow-ups the seat to move has.

An action is "select a cell" then "what it does" (``actions.py``). Stage 1 offers a
cell only if its selection has a legal follow-up; stage 2 offers that selection's
follow-ups (:func:`unit_options`). Army actions need the army phase; Saracen actions
are open in both phases, and taking one ends the army phase [R "Actions"].
"""

from __future__ import annotations

import numpy as np

from ..jit import inline_jit, jit
from ..stack import stack_empty, stack_row
from . import tables as T
from .actions import (
    DEPLOY0,
    END_TURN,
    GIVE0,
    HEAL,
    N_ACTIONS,
    PICK0,
    REALIGN,
    SPAWN,
    STRIKE0,
    TAKE0,
    WEAKEN,
    WITHDRAW,
)
from .bands import (
    ARMY_BAND,
    BAND_COLS,
    SARACEN_BAND,
    add_moves,
    chivalrous,
    fill_kinds,
    label_band_of,
    label_kind,
    placement_tramples,
    refugee_movable,
    saracen_band_destinations,
    stampede_scan,
)
from .campaign import hookpoints as H
from .campaign.adjoin import commands, controller
from .carry import capacity, free_capacity
from .coins import give_ok
from .combat import STRIKE_NONE, classify_strike, saracen_target_near
from .config import (
    DEPLOY_LATIN,
    NO_SARACEN_CAP,
    P_CAMP_CENTRE,
    P_CAMPAIGN,
    P_DEPLOY,
    P_SARACEN_CAP,
    P_SARACEN_PLACE,
    PLACE_TACTICAL,
)
from .layout import (
    BOARD,
    CUR,
    GROUND,
    LOC_RESERVE,
    OVER,
    PH_ARMY,
    PH_DEPLOY,
    PH_PICK,
    PH_SARACEN,
    PHASE,
    QUOTA,
    SEL,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_SIDE,
)
from .pieces import (
    ARMY_SIZE,
    CAMP_RING,
    CAMPAIGN_ARMY_SIZE,
    CELL_SARACEN_DIR,
    KIND_COST,
    N_CELLS,
    N_SARACEN_CELLS,
    NEIGH,
    SARACEN_CELLS,
    TOKEN_KIND,
    TOKEN_OWNER,
    army_points_used,
    bag_count,
    camp_owner,
    campaign_units,
    is_amenity,
    is_camp_centre,
    is_crusader,
    is_green_cell,
    is_quarter,
    is_saracen,
    saracen_in_bag,
    saracens_on_board,
)

N_CK = T.N_CRUSADER_KINDS
WORK_ROWS = 9  # legal_mask: two band tables of 3 rows, then kinds, good and count
N_SK = T.N_SARACEN_KINDS
KIND_SARACEN0 = T.KIND_SARACEN0


# ------------------------------------------------------------------ deployment
@jit
def reserve_token(state, p, kind):
    """Lowest-id token of ``kind`` in seat p's reserve, or -1."""
    if kind >= T.KIND_CAMPAIGN0:  # War Engines and Heroes (Campaign only)
        u0 = campaign_units(p)
        for t in range(u0, u0 + CAMPAIGN_ARMY_SIZE):
            if TOKEN_KIND[t] == kind and state[TOK_LOC + t] == LOC_RESERVE:
                return t
        return -1
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        if TOKEN_KIND[t] == kind and state[TOK_LOC + t] == LOC_RESERVE:
            return t
    return -1


@jit
def deploy_ok(state, params, c, p, kind):
    """Deploy ``kind`` on empty cell c of seat p's camp [R "Unit Deployment"]."""
    if state[BOARD + c] >= 0 or camp_owner(params, c) != p or is_camp_centre(params, c):
        return False
    if params[P_CAMPAIGN] != 0 and not H.may_place(state, params, c, p):
        return False
    cost = KIND_COST[kind]
    if army_points_used(state, p) + cost > T.ARMY_POINT_CAP:
        return False
    if state[PHASE] == PH_DEPLOY and params[P_DEPLOY] == DEPLOY_LATIN and cost > state[QUOTA]:
        return False
    t = reserve_token(state, p, kind)
    if t < 0:
        return False
    if chivalrous(params):
        before = stack_row(N_CELLS, np.int64)
        stampede_scan(state, params, before)
        if placement_tramples(state, params, -1, c, t, before):
            return False
    return True


@jit
def deploy_options(state, params, c, p, out, first_only):
    """Mark DEPLOY(kind) for every kind that may be deployed on camp cell c; count."""
    n = 0
    for k in range(N_CK):
        if deploy_ok(state, params, c, p, k):
            out[DEPLOY0 + k] = 1
            n += 1
            if first_only:
                return n
    return n


@jit
def any_kind_deployable(state, params, p):
    """Is some kind in seat p's reserve affordable (13-point cap, setup quota)?"""
    used = army_points_used(state, p)
    latin_setup = state[PHASE] == PH_DEPLOY and params[P_DEPLOY] == DEPLOY_LATIN
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        if state[TOK_LOC + t] != LOC_RESERVE:
            continue
        cost = KIND_COST[TOKEN_KIND[t]]
        if used + cost <= T.ARMY_POINT_CAP and (not latin_setup or cost <= state[QUOTA]):
            return True
    u0 = campaign_units(p)  # War Engines and Heroes: never in reserve in a Duel
    for t in range(u0, u0 + CAMPAIGN_ARMY_SIZE):
        if state[TOK_LOC + t] != LOC_RESERVE:
            continue
        cost = KIND_COST[TOKEN_KIND[t]]
        if used + cost <= T.ARMY_POINT_CAP and (not latin_setup or cost <= state[QUOTA]):
            return True
    return False


@jit
def any_deploy(state, params, p):
    for c in range(N_CELLS):
        if camp_owner(params, c) == p and state[BOARD + c] < 0:
            for k in range(N_CK):
                if deploy_ok(state, params, c, p, k):
                    return True
    return False


# ------------------------------------------------------------------ Saracen spawning
@jit
def spawn_allowed(state, params):
    """May a Saracen be spawned now [R "Saracen tokens will be spawned ... here"]? A
    Saracen action (army or Saracen phase), a Saracen in the bag, and under the
    ``saracen_cap`` home rule fewer than that many Saracens on the board."""
    phase = state[PHASE]
    if phase != PH_ARMY and phase != PH_SARACEN:
        return False
    if bag_count(state) == 0:
        return False
    cap = params[P_SARACEN_CAP]
    return cap == NO_SARACEN_CAP or saracens_on_board(state) < cap


@jit
def spawn_options(state, params, out, first_only):
    """Stage 2 on an empty green cell: SPAWN (blind: drawn from the bag at random) or
    PICK(kind) for every kind in the bag (tactical)."""
    if params[P_SARACEN_PLACE] != PLACE_TACTICAL:
        out[SPAWN] = 1
        return 1
    n = 0
    for k in range(N_SK):
        if saracen_in_bag(state, KIND_SARACEN0 + k) >= 0:
            out[PICK0 + k] = 1
            n += 1
            if first_only:
                return n
    return n


# ------------------------------------------------------------------ one selection
@inline_jit
def may_weaken(state, t, p):
    """May seat p WEAKEN Crusader t: its own (not an adjoined unit, whose WEAKEN stays its
    owner's), on its strong side [R "Actions"]."""
    return state[TOK_SIDE + t] == 0 and TOKEN_OWNER[t] == p


@inline_jit
def strike_options(state, params, c, p, army_ok, out, first_only):
    """Mark STRIKE(d) for every direction the unit on c may strike toward; count (with
    ``first_only``, stop at the first)."""
    if params[P_CAMPAIGN] == 0 and not is_crusader(state[BOARD + c]):
        if not saracen_target_near(state, params, c, p):
            return 0  # Duel: no Crusader to hit (Campaign: hooks.classify may say more)
    n = 0
    for d in range(4):
        if classify_strike(state, params, c, d, p, army_ok) != STRIKE_NONE:
            out[STRIKE0 + d] = 1
            n += 1
            if first_only:
                return n
    return n


@inline_jit
def crusader_options(state, params, c, out, first_only, army_bands):
    """Follow-ups of an own Crusader in the army phase."""
    p = state[CUR]
    t = state[BOARD + c]
    n = 0
    coins = state[TOK_COINS + t]
    side = state[TOK_SIDE + t]
    own = TOKEN_OWNER[t] == p  # not an adjoined unit: its camp, WEAKEN stay its owner's
    in_own_camp = own and camp_owner(params, c) == p
    if may_weaken(state, t, p):
        out[WEAKEN] = 1
        n += 1
        if first_only:
            return n
    if in_own_camp and coins == 0:
        out[WITHDRAW] = 1
        n += 1
    if in_own_camp and side == 1 and coins <= capacity(state, params, t, 0):
        if params[P_CAMPAIGN] == 0 or H.may_place(state, params, c, p):
            out[HEAL] = 1
            n += 1
    if first_only and n > 0:
        return n
    # first_only answers "is there any?": cheap coin checks first, each loop stops early
    room = free_capacity(state, params, t) > 0
    for d in range(4):
        nb = NEIGH[c, d]
        if nb < 0:
            continue
        if coins > 0 and give_ok(state, params, c, nb, p):
            if params[P_CAMPAIGN] == 0 or H.may_give(state, params, c, nb, p):
                out[GIVE0 + d] = 1
                n += 1
        if room and state[BOARD + nb] < 0 and state[GROUND + nb] > 0:
            out[TAKE0 + d] = 1
            n += 1
        if first_only and n > 0:
            return n
    n += strike_options(state, params, c, p, True, out, first_only)
    if first_only and n > 0:
        return n
    if params[P_CAMPAIGN] != 0 and not H.may_move(state, params, t, p):
        return n
    n += add_moves(state, params, c, False, out, first_only, army_bands)
    if params[P_CAMPAIGN] != 0:
        n += H.extra_moves(state, params, c, out, first_only)
    return n


@inline_jit
def saracen_options(state, params, c, out, first_only, saracen_bands):
    """Follow-ups of a Saracen: heal / realign on a green cell, move, attack."""
    p = state[CUR]
    t = state[BOARD + c]
    n = 0
    on_camp = is_green_cell(c)
    if on_camp and state[TOK_SIDE + t] == 1:
        out[HEAL] = 1
        n += 1
    if on_camp and state[TOK_FACE + t] != CELL_SARACEN_DIR[c]:
        out[REALIGN] = 1
        n += 1
    if first_only and n > 0:
        return n
    # moves first: most Saracens stand in a band, so existence is settled at once
    n += add_moves(state, params, c, True, out, first_only, saracen_bands)
    if first_only and n > 0:
        return n
    return n + strike_options(state, params, c, p, False, out, first_only)


@inline_jit
def unit_options(state, params, c, out, first_only, army_bands, saracen_bands):
    """Mark the stage-2 actions available to the selection on cell c; return the count."""
    p = state[CUR]
    phase = state[PHASE]
    army_ok = phase == PH_ARMY
    setup = phase == PH_DEPLOY
    t = state[BOARD + c]
    n = 0
    if t < 0:
        if (army_ok or setup) and camp_owner(params, c) == p:
            return deploy_options(state, params, c, p, out, first_only)
        if is_green_cell(c) and spawn_allowed(state, params):
            return spawn_options(state, params, out, first_only)
        return 0
    if setup:
        return 0
    if is_crusader(t):
        if not army_ok or controller(state, t) != p:
            return 0
        return crusader_options(state, params, c, out, first_only, army_bands)
    if is_saracen(t):
        return saracen_options(state, params, c, out, first_only, saracen_bands)
    if is_quarter(state, t):
        return strike_options(state, params, c, p, False, out, first_only)
    # a Refugee: moves with an army band (army phase) or a Saracen band
    if not refugee_movable(state, params, c) and not is_amenity(t):
        return 0  # Field Amenities may leave a camp [R Part 2 "Disgusting Man"] (Campaign)
    if params[P_CAMPAIGN] != 0 and not H.may_carry(state, params, t, p):
        return 0
    if army_ok:
        n += add_moves(state, params, c, False, out, first_only, army_bands)
        if first_only and n > 0:
            return n
    n += add_moves(state, params, c, True, out, first_only, saracen_bands)
    return n


@inline_jit
def saracen_selectable(state, params, c, p, saracen_bands, good, count, scratch):
    """``saracen_options(..., first_only=True) > 0`` in a Duel with the unforgiving
    Stampede, its "has a move" read from :func:`bands.saracen_band_destinations`."""
    t = state[BOARD + c]
    if is_green_cell(c):
        if state[TOK_SIDE + t] == 1 or state[TOK_FACE + t] != CELL_SARACEN_DIR[c]:
            return True  # HEAL or REALIGN
    k = saracen_bands[0, c]
    if k >= 0 and count[k] - good[c] > 0:
        return True  # another member of its band has a free neighbour
    return strike_options(state, params, c, p, False, scratch, True) > 0


# ------------------------------------------------------------------ the mask
@jit
def legal_mask(state, params, out):
    """uint8 mask over the 175 actions for the seat to move; returns the legal count."""
    out[:] = 0
    phase = state[PHASE]
    if state[OVER] != 0:
        return 0
    if phase == PH_PICK:
        n = 0
        for k in range(N_SK):
            if saracen_in_bag(state, KIND_SARACEN0 + k) >= 0:
                out[PICK0 + k] = 1
                n += 1
        return n
    p = state[CUR]
    work = stack_empty(WORK_ROWS, BAND_COLS, np.int64)  # every table, on the stack
    army_bands = work[0:3]
    saracen_bands = work[3:6]
    sel = state[SEL]
    if sel >= 0:
        # stage 2: label only the selected unit's band(s) of the kind(s) it moves with
        t = state[BOARD + sel]
        if t >= 0 and not is_saracen(t):
            label_band_of(state, p, False, sel, army_bands)
        if t >= 0 and not is_crusader(t):
            label_band_of(state, p, True, sel, saracen_bands)
        return unit_options(state, params, sel, out, False, army_bands, saracen_bands)
    kinds = work[6]
    fill_kinds(state, p, kinds)
    n_saracen_bands = label_kind(kinds, SARACEN_BAND, saracen_bands)
    # The army's bands are labelled when the first unit needs them: a seat's own Crusader
    # on its strong side can WEAKEN, so it is selectable without them, and outside the
    # army phase no army band moves. A Campaign labels them at once (its hooks may read).
    army_labelled = False
    if params[P_CAMPAIGN] != 0:
        label_kind(kinds, ARMY_BAND, army_bands)
        army_labelled = True
    # Stage 1: a cell is selectable if its selection has at least one follow-up. In
    # first-only mode verbs are written to ``scratch`` but never read, so it is not cleared.
    scratch = stack_row(N_ACTIONS, np.uint8)
    n = 0
    army_ok = phase == PH_ARMY or phase == PH_DEPLOY
    deployable = army_ok and any_kind_deployable(state, params, p)
    polite = chivalrous(params)
    spawnable = spawn_allowed(state, params)
    # Duel with the unforgiving Stampede, past setup: every Saracen's "has a move" at once
    fast = params[P_CAMPAIGN] == 0 and not polite and phase != PH_DEPLOY
    good, count = work[7], work[8]  # views made once: each view costs a reference count
    # Campaign: p commands adjoined units (adjoin.py); unit_options asks who commands
    # each, so no call sits in this loop (a call on the state per cell costs the Duel)
    commanding = commands(state, p)
    if fast:
        saracen_band_destinations(state, params, saracen_bands, n_saracen_bands, good, count)
    # empty cells: a green Saracen camp cell (to SPAWN) and the seat's own camp ring (to
    # DEPLOY; which kinds fit does not depend on the cell, only a chivalrous stampede
    # check and a Campaign's hooks do) are the only ones that can be selected
    if spawnable:
        for i in range(N_SARACEN_CELLS):
            c = SARACEN_CELLS[i]
            if state[BOARD + c] < 0:
                out[c] = 1
                n += 1
    if deployable:
        centre = params[P_CAMP_CENTRE + p]
        for i in range(CAMP_RING.shape[0]):
            c = centre + CAMP_RING[i]
            if state[BOARD + c] >= 0 or camp_owner(params, c) != p or is_green_cell(c):
                continue
            # (what unit_options answers for an empty cell of one's camp; not called
            # here, since each call site of an inlined kernel is compiled again)
            if (not polite and params[P_CAMPAIGN] == 0) or deploy_options(
                state, params, c, p, scratch, True
            ) > 0:
                out[c] = 1
                n += 1
    # the units: cells with a token, listed without a branch per cell
    cells = stack_row(N_CELLS, np.int64)
    n_units = 0
    for c in range(N_CELLS):
        cells[n_units] = c
        n_units += state[BOARD + c] >= 0
    for i in range(n_units):
        c = cells[i]
        t = state[BOARD + c]
        if is_crusader(t):
            if phase != PH_ARMY or (TOKEN_OWNER[t] != p and not commanding):
                continue  # other seats' Crusaders are never selectable (unless adjoined)
            if may_weaken(state, t, p) and controller(state, t) == p:
                out[c] = 1  # WEAKEN (crusader_options' first follow-up)
                n += 1
                continue
        elif fast and is_saracen(t):
            if saracen_selectable(state, params, c, p, saracen_bands, good, count, scratch):
                out[c] = 1
                n += 1
            continue
        if not army_labelled and phase == PH_ARMY and (kinds[c] & ARMY_BAND) != 0:
            label_kind(kinds, ARMY_BAND, army_bands)
            army_labelled = True
        if unit_options(state, params, c, scratch, True, army_bands, saracen_bands) > 0:
            out[c] = 1
            n += 1
    if phase == PH_ARMY or phase == PH_SARACEN:
        out[END_TURN] = 1
        n += 1
    return n
