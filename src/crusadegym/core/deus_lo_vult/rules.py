"""Deus lo Vult Duel rules as numba kernels over the flat state (see ``layout.py``).

Section references are to Part 1 (Duel Rules 2.0) of the rulebook
(``shared/rulebooks/deus_lo_vult.txt``); interpretations are listed in
``docs/rules/deus_lo_vult.md``. Public kernels: :func:`init`, :func:`legal_mask`,
:func:`step`, :func:`current_player`, :func:`is_terminal`, :func:`is_truncated`,
:func:`returns`. The helpers (bands, stampede, combat) are kernels too, and each has
a plain-Python twin in ``reference.py`` that the tests compare against.
"""

from __future__ import annotations

import numpy as np

from .. import rng as R
from ..jit import jit
from . import tables as T
from .actions import (
    DEPLOY0,
    END_TURN,
    GIVE0,
    HEAL,
    N_ACTIONS,
    PICK0,
    REALIGN,
    STRIKE0,
    TAKE0,
    WEAKEN,
    WITHDRAW,
)
from .config import (
    P_CAMP_CENTRE,
    P_CAMP_OWNER,
    P_CHIVALROUS,
    P_DBL_ADJ,
    P_DBL_SHIELD,
    P_DEPLOY,
    P_MAX_TURNS,
    P_PLAYERS,
    P_PRE_POINTS,
    P_PRE_UNITS,
    P_QUARTER_FACING,
    P_ROBBING,
    P_ROUNDS,
    P_SARACEN_PLACE,
    P_SEAT_FACING,
    P_TIE,
)
from .layout import (
    AP,
    BOARD,
    CUR,
    GROUND,
    LAST_PLUNDER,
    LOC_OFF,
    LOC_PURGATORY,
    LOC_RESERVE,
    LOC_STACK,
    OVER,
    PH_ARMY,
    PH_DEPLOY,
    PH_OVER,
    PH_PICK,
    PH_SARACEN,
    PHASE,
    PURG,
    QNEXT,
    QORDER,
    QUOTA,
    RNG,
    ROUND,
    ROUND_LEFT,
    ROUND_START,
    SCORE,
    SEL,
    SETUP_DONE,
    SETUP_K,
    STEP,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
    TRUNC,
    TURN,
)

NEIGH = T.NEIGH
TOKEN_KIND = T.TOKEN_KIND
TOKEN_OWNER = T.TOKEN_OWNER
KIND_EDGES = T.KIND_EDGES
KIND_COST = T.KIND_COST
KIND_CAPACITY = T.KIND_CAPACITY
KIND_CHARGE = T.KIND_CHARGE
KIND_COINS = T.KIND_COINS
CRT = T.CRT
ATTACK_ICON = T.ATTACK_ICON
RANGED_ICON = T.RANGED_ICON
SARACEN_CELLS = T.SARACEN_CELLS
SARACEN_DIRS = T.SARACEN_DIRS
QUARTER_SLOTS = T.QUARTER_SLOTS
N_CELLS = T.N_CELLS
N_TOKENS = T.N_TOKENS
SARACEN_TOKEN0 = T.SARACEN_TOKEN0
QUARTER_TOKEN0 = T.QUARTER_TOKEN0
ARMY_SIZE = T.ARMY_SIZE
N_CK = T.N_CRUSADER_KINDS
N_SK = T.N_SARACEN_KINDS
KIND_SARACEN0 = T.KIND_SARACEN0
ICON_S, ICON_D, ICON_SH, ICON_H, ICON_C = T.ICON_S, T.ICON_D, T.ICON_SH, T.ICON_H, T.ICON_C


def _saracen_cell_dirs():
    out = np.full(N_CELLS, -1, np.int64)
    out[SARACEN_CELLS] = SARACEN_DIRS
    return out


CELL_SARACEN_DIR = _saracen_cell_dirs()

# strike classification codes
STRIKE_NONE, STRIKE_COMBAT, STRIKE_PLUNDER, STRIKE_STEAL, STRIKE_KILL_REFUGEE = 0, 1, 2, 3, 4


# ============================================================== token predicates
@jit
def is_crusader(t):
    return 0 <= t < SARACEN_TOKEN0


@jit
def is_saracen(t):
    return SARACEN_TOKEN0 <= t < QUARTER_TOKEN0


@jit
def is_quarter(state, t):
    """A City Quarter still on its quarter side (token >= QUARTER_TOKEN0, side 0)."""
    return t >= QUARTER_TOKEN0 and state[TOK_SIDE + t] == 0


@jit
def is_refugee(state, t):
    return t >= QUARTER_TOKEN0 and state[TOK_SIDE + t] == 1


@jit
def edge_icon(state, t, absdir):
    """Icon on the edge of token ``t`` that points in absolute direction ``absdir``."""
    rel = (absdir - state[TOK_FACE + t] + 4) % 4
    return KIND_EDGES[TOKEN_KIND[t], state[TOK_SIDE + t], rel]


@jit
def free_capacity(state, t):
    """How many more coins a Crusader can carry [R "Carrying and Stealing Coins"]."""
    if not is_crusader(t):
        return 0
    return KIND_CAPACITY[TOKEN_KIND[t], state[TOK_SIDE + t]] - state[TOK_COINS + t]


@jit
def camp_owner(params, c):
    return params[P_CAMP_OWNER + c]


@jit
def is_camp_centre(params, c):
    o = params[P_CAMP_OWNER + c]
    return o >= 0 and params[P_CAMP_CENTRE + o] == c


@jit
def army_points_used(state, p):
    """Army Points of seat p on the board, in camp or in Purgatory [R "Unit Types"]."""
    total = 0
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        loc = state[TOK_LOC + t]
        if loc >= 0 or loc == LOC_PURGATORY:
            total += KIND_COST[TOKEN_KIND[t]]
    return total


# ============================================================== bands [R "Unit Movement"]
@jit
def band_member(state, t, p, saracen):
    """Is token t a band member for seat p's army (saracen=False) or for the Saracens?

    Army bands: p's Crusaders and Refugees. Saracen bands: Saracens, City Quarters
    ("count as stationary Saracen units") and Refugees [R].
    """
    if t < 0:
        return False
    if is_refugee(state, t):
        return True
    if saracen:
        return is_saracen(t) or t >= QUARTER_TOKEN0
    return is_crusader(t) and TOKEN_OWNER[t] == p


@jit
def label_bands(state, p, saracen, bands):
    """Label every band for seat p's army (or the Saracens) in one pass.

    ``bands`` is an int64[3, 145] scratch: row 0 = band id per cell (-1 for
    non-members), row 1 = member cells grouped band by band, row 2 = start offset of
    each band in row 1 (with a sentinel after the last). Returns the number of bands.
    """
    label = bands[0]
    order = bands[1]
    start = bands[2]
    label[:] = -1
    n_bands, top = 0, 0
    for c0 in range(N_CELLS):
        if label[c0] >= 0 or not band_member(state, state[BOARD + c0], p, saracen):
            continue
        start[n_bands] = top
        label[c0] = n_bands
        order[top] = c0
        head = top
        top += 1
        while head < top:
            c = order[head]
            head += 1
            for d in range(4):
                n = NEIGH[c, d]
                if n >= 0 and label[n] < 0 and band_member(state, state[BOARD + n], p, saracen):
                    label[n] = n_bands
                    order[top] = n
                    top += 1
        n_bands += 1
    start[n_bands] = top
    return n_bands


# ============================================================== stampede [R "Unit Movement"]
@jit
def tramples(state, c):
    """Would the token on cell c be trampled as the board stands now?

    A Crusader with 3+ orthogonal neighbours from its own band (its seat's Crusaders
    and Refugees) is trampled; so is a Refugee with 3+ Crusader/Refugee neighbours of
    which at least one is a Crusader ("attached to a Crusaders band"). Never Saracens
    or City Quarters.
    """
    u = state[BOARD + c]
    if u < 0:
        return False
    crusader_u = is_crusader(u)
    if not crusader_u and not is_refugee(state, u):
        return False
    friends, crusaders = 0, 0
    for d in range(4):
        n = NEIGH[c, d]
        if n < 0:
            continue
        v = state[BOARD + n]
        if v < 0:
            continue
        if is_refugee(state, v):
            friends += 1
        elif is_crusader(v):
            if crusader_u:
                if TOKEN_OWNER[v] == TOKEN_OWNER[u]:
                    friends += 1
            else:
                friends += 1
                crusaders += 1
    if crusader_u:
        return friends >= 3
    return friends >= 3 and crusaders >= 1


@jit
def stampede_victims(state, dst, victims):
    """Cells trampled after a placement on ``dst`` (dst and its neighbours); count."""
    k = 0
    if tramples(state, dst):
        victims[k] = dst
        k += 1
    for d in range(4):
        n = NEIGH[dst, d]
        if n >= 0 and tramples(state, n):
            victims[k] = n
            k += 1
    return k


@jit
def placement_tramples(state, src, dst, t):
    """Would putting token t on dst (lifting it from src, or -1) cause any stampede?"""
    if src >= 0:
        state[BOARD + src] = -1
    state[BOARD + dst] = t
    victims = np.empty(5, np.int64)
    k = stampede_victims(state, dst, victims)
    state[BOARD + dst] = -1
    if src >= 0:
        state[BOARD + src] = t
    return k > 0


# ============================================================== moves
@jit
def add_moves(state, params, c, saracen, out, first_only, bands):
    """Mark legal destinations of the unit on c moving with its army/Saracen band.

    [R] "You move a unit by placing it adjacent to any other unit in the band": any
    empty cell (not a camp centre) next to a band member other than the unit itself.
    ``bands`` comes from :func:`label_bands` for the same side. Returns how many
    destinations were newly marked in ``out`` (cell ids).
    """
    k = bands[0, c]
    if k < 0:
        return 0
    lo, hi = bands[2, k], bands[2, k + 1]
    if hi - lo < 2:
        return 0
    t = state[BOARD + c]
    chivalrous = params[P_CHIVALROUS] == 1 and not saracen
    count = 0
    for i in range(lo, hi):
        m = bands[1, i]
        if m == c:
            continue
        for d in range(4):
            e = NEIGH[m, d]
            if e < 0 or state[BOARD + e] >= 0 or is_camp_centre(params, e):
                continue
            if not first_only and out[e]:
                continue
            if chivalrous and placement_tramples(state, c, e, t):
                continue
            if first_only:
                return 1  # existence only: ``out`` is neither read nor written
            out[e] = 1
            count += 1
    return count


@jit
def refugee_movable(state, params, c):
    """A Refugee inside a seat's camp stays there [R "Plunder, Camps and Refugees"]."""
    return camp_owner(params, c) < 0


# ============================================================== combat [R "Attack"]
@jit
def resolve_combat(params, att_icon, def_icon, charge):
    """Combat Results Table lookup -> (damage to attacker, damage to defender)."""
    if def_icon == ICON_SH:
        if charge and att_icon == ICON_S:
            return 0, 1
        if att_icon == ICON_D and params[P_DBL_SHIELD] == 1:
            return 0, 1
    return CRT[att_icon, def_icon, 0], CRT[att_icon, def_icon, 1]


@jit
def strike_target(state, params, c, d):
    """(target cell, attacker icon) of the edge of the token on c facing d, or (-1, icon).

    Skull/cross hit the adjacent cell; arrows and double arrows hit exactly two clear
    straight steps away [R]; a City Quarter's double arrow may hit the adjacent cell
    with the ``double_arrow_adjacent`` home rule.
    """
    t = state[BOARD + c]
    icon = edge_icon(state, t, d)
    if ATTACK_ICON[icon] == 0:
        return -1, icon
    n1 = NEIGH[c, d]
    if n1 < 0:
        return -1, icon
    if RANGED_ICON[icon] == 0:
        return (n1 if state[BOARD + n1] >= 0 else -1), icon
    if state[BOARD + n1] >= 0:
        if icon == ICON_D and params[P_DBL_ADJ] == 1 and t >= QUARTER_TOKEN0:
            return n1, icon
        return -1, icon
    n2 = NEIGH[n1, d]
    if n2 < 0 or state[BOARD + n2] < 0:
        return -1, icon
    return n2, icon


@jit
def classify_strike(state, params, c, d, p, army_ok):
    """What a STRIKE(d) from cell c would do for seat p: a STRIKE_* code (0 = illegal).

    Army side (own Crusader, only while the army phase lasts): vs a Saracen ->
    combat; vs a City Quarter's coin or skull edge with a skull -> plunder; vs a
    rival's heart edge with a skull -> steal (skull edge too with ``robbing``); vs a
    Refugee -> kill (not in a rival's camp). Saracen side: Saracens, and City Quarter
    towers with arrow edges, vs any Crusader -> combat. No Crusader vs Crusader and no
    Saracen vs Saracen attacks; Saracens cannot attack Refugees [R].
    """
    t = state[BOARD + c]
    tc, icon = strike_target(state, params, c, d)
    if tc < 0:
        return STRIKE_NONE
    u = state[BOARD + tc]
    def_icon = edge_icon(state, u, (d + 2) % 4)
    if is_crusader(t):
        if not army_ok or TOKEN_OWNER[t] != p:
            return STRIKE_NONE
        if is_saracen(u):
            return STRIKE_COMBAT
        if is_quarter(state, u):
            if icon == ICON_S and (def_icon == ICON_C or def_icon == ICON_S):
                if state[TOK_COINS + u] > 0 and free_capacity(state, t) > 0:
                    return STRIKE_PLUNDER
            return STRIKE_NONE
        if is_refugee(state, u):
            o = camp_owner(params, tc)
            if o >= 0 and o != p:
                return STRIKE_NONE
            return STRIKE_KILL_REFUGEE
        if is_crusader(u) and TOKEN_OWNER[u] != p and icon == ICON_S:
            if def_icon == ICON_H or (def_icon == ICON_S and params[P_ROBBING] == 1):
                if state[TOK_COINS + u] > 0 and free_capacity(state, t) > 0:
                    return STRIKE_STEAL
        return STRIKE_NONE
    if is_saracen(t) or is_quarter(state, t):
        if is_quarter(state, t) and RANGED_ICON[icon] == 0:
            return STRIKE_NONE
        if is_crusader(u):
            return STRIKE_COMBAT
    return STRIKE_NONE


# ============================================================== damage & Purgatory
@jit
def purgatory_push(state, t):
    """Put a dead unit in slot 1; the unit pushed off slot 9 returns to reserve [R]."""
    last = state[PURG + T.PURGATORY_SLOTS - 1]
    if last >= 0:
        state[TOK_LOC + last] = LOC_RESERVE
    for i in range(T.PURGATORY_SLOTS - 1, 0, -1):
        state[PURG + i] = state[PURG + i - 1]
    state[PURG] = t
    state[TOK_LOC + t] = LOC_PURGATORY
    state[TOK_SIDE + t] = 0
    state[TOK_MOVED + t] = 0


@jit
def remove_from_board(state, t):
    """Lift a token off its cell; a Crusader drops the coins it carried there [R]."""
    c = state[TOK_LOC + t]
    state[BOARD + c] = -1
    if is_crusader(t):
        state[GROUND + c] += state[TOK_COINS + t]
        state[TOK_COINS + t] = 0


@jit
def kill(state, t):
    """A unit dies: Crusaders and Saracens go to Purgatory, Refugees are discarded."""
    remove_from_board(state, t)
    if t >= QUARTER_TOKEN0:
        state[TOK_LOC + t] = LOC_OFF
    else:
        purgatory_push(state, t)


@jit
def damage(state, t, n):
    """Two life points: one wound flips to the weak side, the next kills [R "Purgatory"]."""
    if n <= 0 or t >= QUARTER_TOKEN0 and state[TOK_SIDE + t] == 0:
        return
    if n >= 2 or state[TOK_SIDE + t] == 1:
        kill(state, t)
    else:
        state[TOK_SIDE + t] = 1


@jit
def apply_stampede(state, dst):
    """Trample every unit left in a T after a Crusader placement on dst [R]."""
    victims = np.empty(5, np.int64)
    k = stampede_victims(state, dst, victims)
    for i in range(k):
        u = state[BOARD + victims[i]]
        if u >= 0:
            kill(state, u)


# ============================================================== per-unit options
@jit
def deploy_ok(state, params, c, p, kind):
    """Deploy ``kind`` on empty cell c of seat p's camp [R "Unit Deployment"]."""
    if state[BOARD + c] >= 0 or camp_owner(params, c) != p or is_camp_centre(params, c):
        return False
    cost = KIND_COST[kind]
    if army_points_used(state, p) + cost > T.ARMY_POINT_CAP:
        return False
    if state[PHASE] == PH_DEPLOY and params[P_DEPLOY] == 1 and cost > state[QUOTA]:
        return False
    t = reserve_token(state, p, kind)
    if t < 0:
        return False
    if params[P_CHIVALROUS] == 1 and placement_tramples(state, -1, c, t):
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
    latin_setup = state[PHASE] == PH_DEPLOY and params[P_DEPLOY] == 1
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        if state[TOK_LOC + t] != LOC_RESERVE:
            continue
        cost = KIND_COST[TOKEN_KIND[t]]
        if used + cost <= T.ARMY_POINT_CAP and (not latin_setup or cost <= state[QUOTA]):
            return True
    return False


@jit
def reserve_token(state, p, kind):
    """Lowest-id token of ``kind`` in seat p's reserve, or -1."""
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        if TOKEN_KIND[t] == kind and state[TOK_LOC + t] == LOC_RESERVE:
            return t
    return -1


@jit
def unit_options(state, params, c, out, first_only, army_bands, saracen_bands):
    """Mark the stage-2 actions available to the selection on cell c; return the count.

    Army actions need the army phase; Saracen actions are open in both phases (taking
    one ends the army phase) [R "Actions"].
    """
    p = state[CUR]
    phase = state[PHASE]
    army_ok = phase == PH_ARMY
    setup = phase == PH_DEPLOY
    t = state[BOARD + c]
    n = 0
    if t < 0:
        if (army_ok or setup) and camp_owner(params, c) == p:
            return deploy_options(state, params, c, p, out, first_only)
        return 0
    if setup:
        return 0
    if is_crusader(t):
        if not army_ok or TOKEN_OWNER[t] != p:
            return 0
        coins = state[TOK_COINS + t]
        side = state[TOK_SIDE + t]
        in_own_camp = camp_owner(params, c) == p
        if side == 0:
            out[WEAKEN] = 1
            n += 1
            if first_only:
                return n
        if in_own_camp and coins == 0:
            out[WITHDRAW] = 1
            n += 1
        if in_own_camp and side == 1 and coins <= KIND_CAPACITY[TOKEN_KIND[t], 0]:
            out[HEAL] = 1
            n += 1
        for d in range(4):
            if classify_strike(state, params, c, d, p, True) != STRIKE_NONE:
                out[STRIKE0 + d] = 1
                n += 1
            nb = NEIGH[c, d]
            if nb < 0:
                continue
            if coins > 0 and give_ok(state, params, c, nb, p):
                out[GIVE0 + d] = 1
                n += 1
            if free_capacity(state, t) > 0 and state[BOARD + nb] < 0 and state[GROUND + nb] > 0:
                out[TAKE0 + d] = 1
                n += 1
        if first_only and n > 0:
            return n
        n += add_moves(state, params, c, False, out, first_only, army_bands)
        return n
    if is_saracen(t):
        on_camp = CELL_SARACEN_DIR[c] >= 0
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
        for d in range(4):
            if classify_strike(state, params, c, d, p, False) != STRIKE_NONE:
                out[STRIKE0 + d] = 1
                n += 1
        return n
    if is_quarter(state, t):
        for d in range(4):
            if classify_strike(state, params, c, d, p, False) != STRIKE_NONE:
                out[STRIKE0 + d] = 1
                n += 1
        return n
    # a Refugee: moves with an army band (army phase) or a Saracen band
    if not refugee_movable(state, params, c):
        return 0
    if army_ok:
        n += add_moves(state, params, c, False, out, first_only, army_bands)
        if first_only and n > 0:
            return n
    n += add_moves(state, params, c, True, out, first_only, saracen_bands)
    return n


@jit
def give_ok(state, params, c, nb, p):
    """GIVE toward nb: secure in own camp centre, pass to an own Crusader, or drop."""
    if nb == params[P_CAMP_CENTRE + p]:
        return True
    u = state[BOARD + nb]
    if u >= 0:
        return is_crusader(u) and TOKEN_OWNER[u] == p and free_capacity(state, u) > 0
    return not is_camp_centre(params, nb)


# ============================================================== legal mask
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
    army_bands = np.empty((3, N_CELLS + 1), np.int64)
    saracen_bands = np.empty((3, N_CELLS + 1), np.int64)
    sel = state[SEL]
    if sel >= 0:
        # stage 2: label only the band kind(s) the selected unit can move with
        t = state[BOARD + sel]
        if t >= 0 and (is_crusader(t) or is_refugee(state, t)):
            label_bands(state, p, False, army_bands)
        if t >= 0 and (is_saracen(t) or is_refugee(state, t)):
            label_bands(state, p, True, saracen_bands)
        return unit_options(state, params, sel, out, False, army_bands, saracen_bands)
    label_bands(state, p, False, army_bands)
    label_bands(state, p, True, saracen_bands)
    # Stage 1: a cell is selectable if its selection has at least one follow-up. In
    # first-only mode verbs are written to ``scratch`` but never read, so it is not cleared.
    scratch = np.zeros(N_ACTIONS, np.uint8)
    n = 0
    army_ok = phase == PH_ARMY or phase == PH_DEPLOY
    deployable = army_ok and any_kind_deployable(state, params, p)
    chivalrous = params[P_CHIVALROUS] == 1
    for c in range(N_CELLS):
        t = state[BOARD + c]
        if t < 0:
            # only empty cells of one's own camp can be selected (to deploy); which kinds
            # fit does not depend on the cell, only a chivalrous stampede check does
            if not deployable or camp_owner(params, c) != p or is_camp_centre(params, c):
                continue
            if not chivalrous:
                out[c] = 1
                n += 1
                continue
        elif t < SARACEN_TOKEN0 and (TOKEN_OWNER[t] != p or phase != PH_ARMY):
            continue  # other seats' Crusaders are never selectable
        if unit_options(state, params, c, scratch, True, army_bands, saracen_bands) > 0:
            out[c] = 1
            n += 1
    if phase == PH_ARMY or phase == PH_SARACEN:
        out[END_TURN] = 1
        n += 1
    return n


# ============================================================== setup and rounds
@jit
def saracen_in_bag(state, kind):
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if TOKEN_KIND[t] == kind and state[TOK_LOC + t] == LOC_RESERVE:
            return t
    return -1


@jit
def place_token(state, t, c, face):
    state[TOK_LOC + t] = c
    state[BOARD + c] = t
    state[TOK_FACE + t] = face
    state[TOK_SIDE + t] = 0
    state[TOK_MOVED + t] = 0


@jit
def deal_quarters(state, params):
    """Four City Quarters from the shuffled stack onto the slots, with their coins [R]."""
    total = 0
    for slot in range(4):
        q = state[QORDER + state[QNEXT]]
        state[QNEXT] += 1
        t = QUARTER_TOKEN0 + q
        place_token(state, t, QUARTER_SLOTS[slot], params[P_QUARTER_FACING + slot])
        state[TOK_COINS + t] = KIND_COINS[TOKEN_KIND[t]]
        total += state[TOK_COINS + t]
    state[ROUND_LEFT] = total


@jit
def place_saracens_blind(state):
    """Fill every green Saracen cell from the bag at random, centre first [R "Set Up"]."""
    bag = np.empty(T.N_SARACENS, np.int64)
    n = 0
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if state[TOK_LOC + t] == LOC_RESERVE:
            bag[n] = t
            n += 1
    R.shuffle(state, RNG, bag, n)
    for i in range(min(n, T.N_SARACEN_CELLS)):
        place_token(state, bag[i], SARACEN_CELLS[i], SARACEN_DIRS[i])


@jit
def begin_turn(state, p):
    state[CUR] = p
    state[AP] = T.ACTION_POINTS
    state[PHASE] = PH_ARMY
    state[SEL] = -1
    for t in range(N_TOKENS):
        state[TOK_MOVED + t] = 0


@jit
def any_deploy(state, params, p):
    for c in range(N_CELLS):
        if camp_owner(params, c) == p and state[BOARD + c] < 0:
            for k in range(N_CK):
                if deploy_ok(state, params, c, p, k):
                    return True
    return False


@jit
def advance_setup(state, params):
    """Move setup deployment on to the next seat once a seat's quota is used up."""
    players = params[P_PLAYERS]
    while state[QUOTA] <= 0 or not any_deploy(state, params, state[CUR]):
        state[SETUP_DONE] += 1
        if state[SETUP_DONE] >= players:
            begin_turn(state, state[ROUND_START])
            return
        state[CUR] = (state[CUR] + 1) % players
        state[QUOTA] = params[P_PRE_POINTS] if params[P_DEPLOY] == 1 else params[P_PRE_UNITS]


@jit
def start_round_play(state, params):
    """Pre-deployment (Saracenic / Latin) or straight to the first turn (Campaign) [R]."""
    if params[P_DEPLOY] == 2:
        begin_turn(state, state[ROUND_START])
        return
    state[PHASE] = PH_DEPLOY
    state[SEL] = -1
    state[CUR] = state[ROUND_START]
    state[SETUP_DONE] = 0
    state[QUOTA] = params[P_PRE_POINTS] if params[P_DEPLOY] == 1 else params[P_PRE_UNITS]
    advance_setup(state, params)


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
        state[TOK_LOC + t] = LOC_RESERVE
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
    if params[P_SARACEN_PLACE] == 1:
        state[PHASE] = PH_PICK
        state[SETUP_K] = 0
        state[CUR] = 0
    else:
        place_saracens_blind(state)
        start_round_play(state, params)


@jit
def do_pick(state, params, kind):
    """Tactical placement: the seat to move puts a Saracen of ``kind`` on the next cell."""
    t = saracen_in_bag(state, kind)
    k = state[SETUP_K]
    place_token(state, t, SARACEN_CELLS[k], SARACEN_DIRS[k])
    state[SETUP_K] = k + 1
    if k + 1 >= T.N_SARACEN_CELLS:
        start_round_play(state, params)
    else:
        state[CUR] = (state[CUR] + 1) % params[P_PLAYERS]


@jit
def finish(state, truncated):
    state[OVER] = 1
    state[TRUNC] = 1 if truncated else 0
    state[PHASE] = PH_OVER
    state[SEL] = -1


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
    state[TURN] += 1
    if state[TURN] >= params[P_MAX_TURNS]:
        finish(state, True)
        return
    begin_turn(state, (p + 1) % params[P_PLAYERS])


@jit
def round_transition(state, params):
    """The round ends when its last coin is secured [R "End of the Round"]."""
    state[ROUND] += 1
    state[TURN] += 1
    if state[ROUND] >= params[P_ROUNDS]:
        finish(state, False)
        return
    for t in range(N_TOKENS):
        loc = state[TOK_LOC + t]
        if loc < 0:
            continue
        if t >= QUARTER_TOKEN0:  # Refugee tokens are discarded
            state[BOARD + loc] = -1
            state[TOK_LOC + t] = LOC_OFF
        else:  # Saracens back to camps (via the bag), Crusaders to reserve
            state[BOARD + loc] = -1
            state[TOK_LOC + t] = LOC_RESERVE
            state[TOK_SIDE + t] = 0
            state[TOK_COINS + t] = 0
    for c in range(N_CELLS):
        state[GROUND + c] = 0
    place_saracens_blind(state)
    deal_quarters(state, params)
    if state[TURN] >= params[P_MAX_TURNS]:
        finish(state, True)
        return
    state[ROUND_START] = (state[CUR] + 1) % params[P_PLAYERS]
    start_round_play(state, params)


# ============================================================== applying actions
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
    bands = np.empty((3, N_CELLS + 1), np.int64)
    label_bands(state, p, False, bands)
    out = np.zeros(N_CELLS, np.uint8)
    add_moves(state, params, c, False, out, False, bands)
    return out[e] == 1


@jit
def do_move(state, params, c, e, army):
    t = state[BOARD + c]
    state[BOARD + c] = -1
    state[BOARD + e] = t
    state[TOK_LOC + t] = e
    state[TOK_MOVED + t] = 1
    if is_crusader(t) and state[GROUND + e] > 0:  # pick up by standing on it, free [R]
        take = min(state[GROUND + e], free_capacity(state, t))
        state[GROUND + e] -= take
        state[TOK_COINS + t] += take
    if army:
        apply_stampede(state, e)


@jit
def do_strike(state, params, c, d, p):
    t = state[BOARD + c]
    code = classify_strike(state, params, c, d, p, state[PHASE] == PH_ARMY)
    tc, icon = strike_target(state, params, c, d)
    u = state[BOARD + tc]
    def_icon = edge_icon(state, u, (d + 2) % 4)
    if code == STRIKE_COMBAT:
        charge = KIND_CHARGE[TOKEN_KIND[t]] == 1 and state[TOK_MOVED + t] == 1
        da, dd = resolve_combat(params, icon, def_icon, charge and t < QUARTER_TOKEN0)
        damage(state, u, dd)
        damage(state, t, da)
    elif code == STRIKE_PLUNDER:
        state[TOK_COINS + u] -= 1
        state[TOK_COINS + t] += 1
        state[LAST_PLUNDER] = p
        if state[TOK_COINS + u] == 0:
            state[TOK_SIDE + u] = 1  # empty quarter flips to its Refugee side [R]
        if def_icon == ICON_S:
            damage(state, t, 1)
    elif code == STRIKE_STEAL:
        state[TOK_COINS + u] -= 1
        state[TOK_COINS + t] += 1
        if def_icon == ICON_S:
            damage(state, t, 1)
    elif code == STRIKE_KILL_REFUGEE:
        kill(state, u)
        if camp_owner(params, tc) == p:
            kill(state, t)  # the murderer goes straight to Purgatory [R]


@jit
def do_give(state, params, c, nb, p):
    """Returns True when this coin was the round's last to be secured."""
    t = state[BOARD + c]
    state[TOK_COINS + t] -= 1
    if nb == params[P_CAMP_CENTRE + p]:
        state[SCORE + p] += 1
        state[ROUND_LEFT] -= 1
        return state[ROUND_LEFT] == 0
    u = state[BOARD + nb]
    if u >= 0:
        state[TOK_COINS + u] += 1
    else:
        state[GROUND + nb] += 1
    return False


@jit
def apply_unit_action(state, params, c, a):
    """Stage 2: the selection on c does action a. Returns True if the round ended."""
    p = state[CUR]
    t = state[BOARD + c]
    saracen_side = False
    cost = 1
    round_over = False
    if a < STRIKE0:
        army = move_is_army(state, params, c, a, p)
        saracen_side = not army
        do_move(state, params, c, a, army)
    elif a < GIVE0:
        saracen_side = not is_crusader(t)
        do_strike(state, params, c, a - STRIKE0, p)
    elif a < TAKE0:
        round_over = do_give(state, params, c, NEIGH[c, a - GIVE0], p)
    elif a < WITHDRAW:
        nb = NEIGH[c, a - TAKE0]
        state[GROUND + nb] -= 1
        state[TOK_COINS + t] += 1
    elif a == WITHDRAW:
        state[BOARD + c] = -1
        state[TOK_LOC + t] = LOC_RESERVE
        state[TOK_SIDE + t] = 0
    elif a == HEAL:
        saracen_side = is_saracen(t)
        state[TOK_SIDE + t] = 0
    elif a == REALIGN:
        saracen_side = True
        state[TOK_FACE + t] = CELL_SARACEN_DIR[c]
    elif a == WEAKEN:
        cost = 0  # [R] "you can also weaken a unit at will ... won't cost an Action Point"
        state[TOK_SIDE + t] = 1
    else:  # DEPLOY
        u = reserve_token(state, p, a - DEPLOY0)
        place_token(state, u, c, params[P_SEAT_FACING + p])
        if state[PHASE] == PH_DEPLOY:
            cost = 0
            state[QUOTA] -= KIND_COST[a - DEPLOY0] if params[P_DEPLOY] == 1 else 1
        if state[GROUND + c] > 0:
            take = min(state[GROUND + c], free_capacity(state, u))
            state[GROUND + c] -= take
            state[TOK_COINS + u] += take
        apply_stampede(state, c)
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
        do_pick(state, params, KIND_SARACEN0 + action - PICK0)
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


# ============================================================== queries
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
    if n > 1 and params[P_TIE] == 0 and lp >= 0 and out[lp] == 1:
        for p in range(players):
            out[p] = 1 if p == lp else 0
        n = 1
    return n


@jit
def returns(state, params, out):
    """Final reward per seat: winners +1, the others -1; 0 for all if everyone ties."""
    out[:] = 0.0
    if state[OVER] == 0:
        return
    players = params[P_PLAYERS]
    won = np.zeros(players, np.int64)
    n = winners(state, params, won)
    if n == players:
        return
    for p in range(players):
        out[p] = 1.0 if won[p] == 1 else -1.0
