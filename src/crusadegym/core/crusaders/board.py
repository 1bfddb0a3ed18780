"""Shared look-ups over the Crusaders state: seats, influence, bonuses, map queries.

Every function is ``@njit`` and reads or writes the flat state of ``layout.py``.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .config import P_ACTIVE, P_ADJ, P_EXPANSION, P_PLAYERS
from .layout import (
    ENDING,
    PL_BOARD,
    PL_KNIGHT,
    PL_ORDER,
    PL_PERM,
    PL_SCORE,
    PL_SIZE,
    PL_TROOPS,
    PLAYERS,
    R_BLD_A,
    R_BLD_B,
    R_ENEMY,
    SUPPLY,
    TRACK,
)


@jit
def base(p):
    """Offset of seat p's block."""
    return PLAYERS + p * PL_SIZE


@jit
def gain(state, p, n):
    """Seat p takes n influence from the supply [C]; the supply running out triggers the end.

    Influence taken after the supply is empty still counts (from the reserve) [C].
    """
    if n <= 0:
        return
    state[base(p) + PL_SCORE] += n
    left = state[SUPPLY] - n
    if left <= 0:
        left = 0
        state[ENDING] = 1
    state[SUPPLY] = left


@jit
def has_level(state, p, t, lv):
    """Is seat p's type-t building of level lv+1 still on its player board?"""
    return (state[base(p) + PL_BOARD + t] >> lv) & 1


@jit
def next_level(state, p, t):
    """Lowest level still on seat p's board for building type t, or -1 [I]."""
    m = state[base(p) + PL_BOARD + t]
    for lv in range(T.N_LEVELS):
        if (m >> lv) & 1:
            return lv
    return -1


@jit
def action_bonus(state, params, p, a):
    """Bonus to action a: uncovered building icons [C], troops (Crusade) [C], permanent
    influence tiles [R], and the order's modifier [C]."""
    b = state[base(p) + PL_PERM + a]
    for t in range(T.N_BASE_TYPES):
        for lv in range(T.N_LEVELS - 1):
            if T.BUILDING_BONUS[t, lv] == a and not has_level(state, p, t, lv):
                b += 1
    if a == T.CRUSADE:
        b += T.TROOP_CRUSADE_BONUS * state[base(p) + PL_TROOPS]
    o = state[base(p) + PL_ORDER]
    if o >= 0:
        b += T.ORDER_MOD[o, a]
    return b


@jit
def n_troops(params):
    """Troops per player: 5, plus VI and VII with the expansion [R]."""
    return T.EXPANSION_TROOPS if params[P_EXPANSION] else T.BASE_TROOPS


@jit
def enemy_strength(state, params, e):
    """Current strength of enemy token e: its type's track, or 6 for Saracens [C]."""
    kind = T.ENEMY_TYPE[e]
    if kind == T.SARACEN:
        return T.SARACEN_STRENGTH
    pos = min(state[TRACK + kind], T.TRACK_LEN - 1)
    if params[P_EXPANSION]:
        return T.TRACK_EXPANSION[kind, pos]
    return T.TRACK_BASE[kind, pos]


@jit
def knight_in(state, p, r):
    """Does seat p have a knight in region r?"""
    for k in range(T.N_KNIGHTS):
        if state[base(p) + PL_KNIGHT + k] == r:
            return True
    return False


@jit
def adjacent(params, a, b):
    """Are regions a and b neighbours on the board side in play?"""
    for k in range(6):
        if params[P_ADJ + 6 * a + k] == b:
            return True
    return False


@jit
def active(params, r):
    return params[P_ACTIVE + r] != 0


@jit
def n_players(params):
    return params[P_PLAYERS]


@jit
def bld_code(owner, t, lv):
    """A building in a region: owner, type and level in one int."""
    return owner * 32 + t * 4 + lv


@jit
def bld_owner(code):
    return code // 32


@jit
def bld_type(code):
    return (code // 4) % 8


@jit
def bld_level(code):
    return code % 4


@jit
def region_empty(state, r):
    return state[R_BLD_A + r] < 0 and state[R_BLD_B + r] < 0


@jit
def has_enemy(state, r):
    return state[R_ENEMY + r] >= 0
