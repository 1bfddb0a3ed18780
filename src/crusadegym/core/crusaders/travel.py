"""Travel [C] and the expansion's cheaper departures [R "Travel"].

"Moving a knight to an adjacent region costs 1; moving out of a region that holds an
enemy token costs 2" [C]. "Leaving a region with your Coat-of-Arms marker costs 1 less
movement point than normal (1 if an Enemy is present, 0 if not)" [R]. Paid steps are
limited by the points only; free steps by ``tables.FREE_TRAVEL_STEPS``.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import adjacent, base, has_enemy
from .layout import MOVES_LEFT, PL_KNIGHT, R_COAT, TRAVEL_LEFT

LEAVE_COST, LEAVE_ENEMY_COST, COAT_DISCOUNT = 1, 2, 1


@jit
def leave_cost(state, p, r):
    """Movement points seat p pays to leave region r."""
    cost = LEAVE_ENEMY_COST if has_enemy(state, r) else LEAVE_COST
    if state[R_COAT + r] == p:
        cost -= COAT_DISCOUNT
    return cost


@jit
def can_move(state, params, p, k, r):
    """May seat p's knight k step into region r with the travel points left?

    A paid step needs only the points; a free step (cost 0) needs one of the
    ``FREE_TRAVEL_STEPS`` left (``MOVES_LEFT``), so that a Travel always ends.
    """
    src = state[base(p) + PL_KNIGHT + k]
    if src < 0 or not adjacent(params, src, r):
        return False
    cost = leave_cost(state, p, src)
    if cost == 0:
        return state[MOVES_LEFT] > 0
    return cost <= state[TRAVEL_LEFT]


@jit
def any_move(state, params, p):
    for k in range(T.N_KNIGHTS):
        src = state[base(p) + PL_KNIGHT + k]
        if src < 0:
            continue
        for r in range(T.N_REGIONS):
            if can_move(state, params, p, k, r):
                return True
    return False


@jit
def move(state, p, k, r):
    """Step knight k into region r, paying for leaving its region (or a free step)."""
    b = base(p)
    cost = leave_cost(state, p, state[b + PL_KNIGHT + k])
    state[TRAVEL_LEFT] -= cost
    if cost == 0:
        state[MOVES_LEFT] -= 1
    state[b + PL_KNIGHT + k] = r
