"""The Field Amenities' own actions (ids ``layout.A_FIELD`` ...) [R Part 2 "Dog",
"Gallows"]; imported only by ``extras.py``.

=====================  =====================================================  ======
action                 what it does                                           cost
=====================  =====================================================  ======
``dog take n/e/s/w``   (an own Crusader whose band holds the offensive Dog)   1 AP
                       picks up one loose Coin lying under the next cell's
                       unit [R "pick up Coins blocked by other Units"]
``flip dog``           (the Dog selected, held by the seat) turns it between  1 AP
                       defensive and offensive (our reading: the rulebook
                       gives the Dog two sides but no price; one Move, as the
                       Engineer's manual flip "One Coin or One Move")
(cell)                 (a rival's Flagellant follower selected) moves it    1 AP
                       next to another member of its cortege (Duel move ids)
``bury thief``         (stage 1, any seat, a hanged thief on the Gallows)     1 AP
                       flips the Gallows ready side up [R "until his body is
                       buried (Gallows flipped ready side up)"]; our reading:
                       one Move, the River Amenities' rearm price
=====================  =====================================================  ======
"""

from __future__ import annotations

import numpy as np

from ...jit import ajit, jit
from .. import tables as T
from ..carry import free_capacity
from ..layout import AP, BOARD, CUR, GROUND, PH_ARMY, PHASE, TOK_COINS, TOK_SIDE
from ..pieces import NEIGH, TOKEN_OWNER, is_crusader
from . import field as F
from .layout import A_FIELD

A_DOG_TAKE0 = A_FIELD + 0  # [4] directions N E S W
A_FLIP_DOG = A_FIELD + 4
A_BURY_THIEF = A_FIELD + 5
ACTION_COST = 1

ACTION_NAMES: dict[int, str] = {
    **{A_DOG_TAKE0 + d: f"dog take {T.DIR_NAMES[d].lower()}" for d in range(4)},
    A_FLIP_DOG: "flip dog",
    A_BURY_THIEF: "bury thief",
}


@jit
def dog_take_ok(state, params, c, d):
    """May the Crusader on c take a Coin blocked by the unit on the next cell toward d?"""
    t = state[BOARD + c]
    nb = NEIGH[c, d]
    if nb < 0 or state[BOARD + nb] < 0 or state[GROUND + nb] <= 0:
        return False
    if free_capacity(state, params, t) <= 0:
        return False
    return F.dog_side_joined(state, c) == F.DOG_OFFENSIVE


@ajit
def cortege_moves(state, params, c, out, first_only):
    """Moves of a rival's cortege follower on c [R "Flagellant Cortege can be moved around
    by any Player during his Crusader phase"]: like a band move, next to another member of
    its cortege (the Flagellant and the followers joined to it), on an empty cell outside
    every camp (our reading: the cortege roams the field). They use the Duel's move ids
    (the destination cell), so the Duel applies them (1 AP, the Stampede)."""
    seen = np.zeros(T.N_CELLS, np.uint8)
    stack = np.empty(T.N_CELLS, np.int64)
    flag = T.AMENITY_TOKEN0 + F.FLAGELLANT
    top = 1
    stack[0] = c
    seen[c] = 1
    n = 0
    while top > 0:
        top -= 1
        m = stack[top]
        for d in range(4):
            e = NEIGH[m, d]
            if e < 0 or seen[e]:
                continue
            u = state[BOARD + e]
            if u >= 0:
                if u == flag or F.in_cortege(state, u):
                    seen[e] = 1
                    stack[top] = e
                    top += 1
            elif m != c and F.in_camp_of(params, e) < 0:
                if first_only:
                    return 1  # existence only: ``out`` is scratch
                if out[e] == 0:
                    out[e] = 1
                    n += 1
    return n


@jit
def unit_extras(state, params, c, out, first_only):
    """Mark the Field Amenity actions of the selection on c; return the count."""
    if state[AP] < ACTION_COST:
        return 0
    p = state[CUR]
    t = state[BOARD + c]
    if t < 0:
        return 0
    if is_crusader(t) and TOKEN_OWNER[t] != p and F.in_cortege(state, t):
        if state[PHASE] == PH_ARMY and F.amenity_on(params, F.FLAGELLANT):
            return cortege_moves(state, params, c, out, first_only)
        return 0
    if not F.amenity_on(params, F.DOG):
        return 0
    n = 0
    if t == T.AMENITY_TOKEN0 + F.DOG:
        if F.holds(state, params, p, F.DOG):
            out[A_FLIP_DOG] = 1
            n += 1
        return n
    if not is_crusader(t) or TOKEN_OWNER[t] != p or F.in_cortege(state, t):
        return 0
    for d in range(4):
        if dog_take_ok(state, params, c, d):
            out[A_DOG_TAKE0 + d] = 1
            n += 1
            if first_only:
                return n
    return n


@jit
def apply_unit_extra(state, params, c, a):
    """The selection on c does Field Amenity action a (paying its Action Point)."""
    if a == A_FLIP_DOG:
        dog = T.AMENITY_TOKEN0 + F.DOG
        state[TOK_SIDE + dog] = 1 - state[TOK_SIDE + dog]
    else:
        t = state[BOARD + c]
        nb = NEIGH[c, a - A_DOG_TAKE0]
        state[GROUND + nb] -= 1
        state[TOK_COINS + t] += 1
    state[AP] -= ACTION_COST


@jit
def turn_extras(state, params, out):
    """Stage-1 actions: bury the hanged thief."""
    if F.amenity_on(params, F.GALLOWS) and F.gallows_hanged(state) and state[AP] >= ACTION_COST:
        out[A_BURY_THIEF] = 1
        return 1
    return 0


@jit
def apply_turn_extra(state, params, a):
    state[TOK_SIDE + T.AMENITY_TOKEN0 + F.GALLOWS] = F.GALLOWS_READY
    state[AP] -= ACTION_COST
