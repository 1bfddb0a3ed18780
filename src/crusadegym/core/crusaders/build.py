"""Build [C], the expansion buildings [R "Build"] and the Mill [R].

Base: "not allowed in a region with an enemy token; 1 building per region. Pay X +
build bonuses >= the cost; ... The building goes in a region with your knight. Gain
influence equal to the building's level. Building reveals action bonuses on your
board. A castle unlocks a knight, placed in that castle's region" [C]. The next
building of a type is the lowest level still on the board [I].
Expansion: "cost 5 / 6 / 7 / 8 ... reduced to 3 / 4 / 5 / 6" in the region of the
matching base building (Keep-Castle, Chapel-Church, Mill-Farm, Vault-Bank) of any
player; "no build bonus tiles apply to the new buildings" [R].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import (
    active,
    base,
    bld_code,
    bld_type,
    gain,
    has_enemy,
    has_level,
    knight_in,
    next_level,
)
from .config import P_EXPANSION, P_MILL_EFFECTS
from .layout import BUILT_EXP, PL_BOARD, PL_CHAPELQ, PL_KNIGHT, PL_ORDER, R_BLD_A, R_BLD_B, R_BONUS
from .muster import free_troop

FOLLOW_NONE, FOLLOW_MILL, FOLLOW_VAULT = 0, 1, 2
NO_SITE = -1


@jit
def build_cost(state, params, p, t, r):
    """What seat p pays to build type t in region r, or NO_SITE if it may not [C]/[R]."""
    if t >= T.N_BASE_TYPES and not params[P_EXPANSION]:
        return NO_SITE
    lv = next_level(state, p, t)
    if lv < 0 or not active(params, r) or has_enemy(state, r) or not knight_in(state, p, r):
        return NO_SITE
    a, b2 = state[R_BLD_A + r], state[R_BLD_B + r]
    if t < T.N_BASE_TYPES:
        if a >= 0 or b2 >= 0:
            return NO_SITE
        cost = T.BASE_COST[lv]
        tile = state[R_BONUS + r]
        if tile >= 0 and T.BONUS_TILES[tile, 0] == t:
            cost -= T.BONUS_TILES[tile, 1]
        return max(cost, 0)
    o = state[base(p) + PL_ORDER]
    dragon = o >= 0 and T.ORDER_DRAGON[o] != 0
    if a < 0 and b2 < 0:
        return T.EXP_COST[lv] - (T.DRAGON_DISCOUNT if dragon else 0)
    if b2 >= 0:
        return NO_SITE
    if bld_type(a) == T.EXP_PAIR[t]:
        return T.EXP_PAIRED_COST[lv]
    if dragon:  # "in regions with any one building as if they were empty" [R]
        return T.EXP_COST[lv] - T.DRAGON_DISCOUNT
    return NO_SITE


@jit
def can_build(state, params, p, t, r, strength):
    c = build_cost(state, params, p, t, r)
    return c != NO_SITE and c <= strength


@jit
def any_site(state, params, p, t, strength):
    for r in range(T.N_REGIONS):
        if can_build(state, params, p, t, r, strength):
            return True
    return False


@jit
def any_build(state, params, p, strength):
    for t in range(T.N_BUILDING_TYPES):
        if any_site(state, params, p, t, strength):
            return True
    return False


@jit
def release_knight(state, p, r):
    """A castle unlocks a knight, placed in region r [C]."""
    for k in range(1, 1 + T.SPARE_KNIGHTS):
        if state[base(p) + PL_KNIGHT + k] == T.KNIGHT_AWAY:
            state[base(p) + PL_KNIGHT + k] = r
            return


@jit
def uncover(state, params, p, t, lv, r, built):
    """Effects of taking building (t, lv) off seat p's board; returns the follow-up.

    Action bonuses are read off the board mask (``board.action_bonus``). Castles free a
    knight [C]; Keeps I-III a free troop, Chapels I-III a token at the end of the turn,
    Vaults I-III a wedge flip [R]; a built Mill removes another building [R]. A Mill
    removing an expansion building grants its effect only with ``mill_effects`` [I].
    """
    state[base(p) + PL_BOARD + t] &= ~(1 << lv)
    if t == T.CASTLE and T.CASTLE_KNIGHT[lv]:
        release_knight(state, p, r)
    if lv == T.LEVEL_IV or t < T.N_BASE_TYPES:
        return FOLLOW_MILL if built and t == T.MILL else FOLLOW_NONE
    if not built and not params[P_MILL_EFFECTS]:
        return FOLLOW_NONE
    if t == T.KEEP:
        free_troop(state, params, p)
    elif t == T.CHAPEL:
        state[base(p) + PL_CHAPELQ] += 1
    elif t == T.VAULT:
        return FOLLOW_VAULT
    elif t == T.MILL and built:
        return FOLLOW_MILL
    return FOLLOW_NONE


@jit
def place_building(state, params, p, t, r):
    """Put seat p's next type-t building into region r and score its level [C]/[R]."""
    lv = next_level(state, p, t)
    code = bld_code(p, t, lv)
    if state[R_BLD_A + r] < 0:
        state[R_BLD_A + r] = code
    else:
        state[R_BLD_B + r] = code
    if t < T.N_BASE_TYPES:
        state[R_BONUS + r] = -1  # the bonus tile is used up by the building on it
    else:
        state[BUILT_EXP] = 1
    gain(state, p, lv + 1)
    return uncover(state, params, p, t, lv, r, True)


@jit
def mill_ok(state, p, t, lv, mill_level):
    """May a Mill of level mill_level+1 remove (t, lv)? "Level IV Mill may not remove
    the level IV Bank"; any eligible building, in any order [R]."""
    if not has_level(state, p, t, lv) or lv > mill_level:
        return False
    return not (t == T.BANK and lv == T.LEVEL_IV)


@jit
def any_mill(state, p, mill_level):
    for t in range(T.N_BUILDING_TYPES):
        for lv in range(T.N_LEVELS):
            if mill_ok(state, p, t, lv, mill_level):
                return True
    return False
