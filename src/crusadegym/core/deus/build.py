"""Building: legality, placement of the wooden piece, temples, and paying the cost.

Rulebook "A. Build a Building": standard buildings steps 1-5, temples steps 1-4.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import (
    adjacent_to_own,
    attack_villages,
    first_region_ok,
    is_edge,
    on_board,
    temple_in,
    terrain_fits,
)
from .config import (
    ESCAPE_ALWAYS,
    P_ESCAPE,
    P_PAYMENT,
    P_SPACING,
    PAY_RESOURCES_FIRST,
    SPACING_STRICT,
)
from .layout import (
    ESCAPED,
    FIRST,
    GOLD,
    ON_BOARD,
    OWNER,
    PAY,
    PAY_GOLD,
    PIECES,
    RES,
    SUPPLY,
    TEMPLE_BIT,
    TEMPLES_LEFT,
    TERRAIN,
    VP,
    col_n,
    player,
)

DESIGN_COST = T.DESIGN_COST


# ------------------------------------------------------------------ placement [R A.4]
@jit
def _first_spaced_exists(state, params, seat, ptype):
    for r in range(T.N_REGIONS):
        if (
            on_board(params, r)
            and state[OWNER + r] < 0
            and terrain_fits(state, r, ptype)
            and first_region_ok(state, params, seat, r, True)
        ):
            return True
    return False


@jit
def first_spacing(state, params, seat, ptype):
    """Whether the first-building gap applies ("if_possible" drops it when no region fits)."""
    if params[P_SPACING] == SPACING_STRICT:
        return True
    return _first_spaced_exists(state, params, seat, ptype)


@jit
def normal_ok(state, params, seat, r, ptype, spacing):
    """Ordinary placement of a ``ptype`` piece in r [R A.4 bullets 1-5]."""
    if not on_board(params, r) or not terrain_fits(state, r, ptype):
        return False
    owner = state[OWNER + r]
    if state[player(seat) + FIRST] < 0:
        return owner < 0 and first_region_ok(state, params, seat, r, spacing)
    if owner == seat:
        return (state[PIECES + r] & (1 << ptype)) == 0
    return owner < 0 and adjacent_to_own(state, params, seat, r)


@jit
def any_normal(state, params, seat, ptype):
    spacing = first_spacing(state, params, seat, ptype)
    for r in range(T.N_REGIONS):
        if normal_ok(state, params, seat, r, ptype, spacing):
            return True
    return False


@jit
def escape_ok(state, params, seat, r, ptype):
    """The paid placement in an empty edge region [R A.4 "If blocked ... paying 3 VPs"]."""
    return (
        on_board(params, r)
        and is_edge(params, r)
        and state[OWNER + r] < 0
        and terrain_fits(state, r, ptype)
        and state[player(seat) + VP] >= T.ESCAPE_VP
    )


PLACE_NO, PLACE_NORMAL, PLACE_ESCAPE = 0, 1, 2
"""What :func:`placement_kind` finds: no placement, a normal one, or the escape [R Build
"escape": it costs 3 VP]."""


@jit
def placement_kind(state, params, seat, r, ptype, spacing, normal_exists):
    """PLACE_NORMAL, PLACE_ESCAPE (costs 3 VP) or PLACE_NO for a ``ptype`` piece in r."""
    if normal_ok(state, params, seat, r, ptype, spacing):
        return PLACE_NORMAL
    if (params[P_ESCAPE] == ESCAPE_ALWAYS or not normal_exists) and escape_ok(
        state, params, seat, r, ptype
    ):
        return PLACE_ESCAPE
    return PLACE_NO


@jit
def any_placement(state, params, seat, ptype):
    spacing = first_spacing(state, params, seat, ptype)
    normal = any_normal(state, params, seat, ptype)
    if normal:
        return True
    for r in range(T.N_REGIONS):
        if placement_kind(state, params, seat, r, ptype, spacing, normal) != PLACE_NO:
            return True
    return False


@jit
def temple_region_ok(state, params, seat, r):
    """One of your (land) regions without a temple [R temples 4]."""
    return (
        on_board(params, r)
        and state[OWNER + r] == seat
        and not temple_in(state, r)
        and state[TERRAIN + r] != T.SEA
    )


# ------------------------------------------------------------------ cost [R A.3]
@jit
def gold_needed(state, seat, cost, off):
    """Least gold that pays ``cost[off:off+5]`` given the seat's resources."""
    pb = player(seat)
    g = cost[off + 4]
    for k in range(T.N_RESOURCES):
        short = cost[off + k] - state[pb + RES + k]
        if short > 0:
            g += T.GOLD_PER_RESOURCE * short
    return g


@jit
def affordable(state, seat, design):
    return gold_needed(state, seat, DESIGN_COST[design], 0) <= state[player(seat) + GOLD]


@jit
def temple_prerequisite(state, seat):
    """The n-th temple needs n-1 cards of each of the 5 colours [R temples 2]."""
    built = state[col_n(seat, T.TEMPLE)]
    for colour in range(T.N_TYPES):
        if state[col_n(seat, colour)] < built:
            return False
    return True


@jit
def can_build(state, params, seat, design):
    """Whether ``seat`` may start building a card of ``design`` (held in hand)."""
    if not affordable(state, seat, design):
        return False
    colour = T.DESIGN_COLOUR[design]
    if colour == T.TEMPLE:
        if not temple_prerequisite(state, seat):
            return False
        if state[TEMPLES_LEFT] == 0:
            return True  # [R temples 4 "you can still play the Temple card"]
        for r in range(T.N_REGIONS):
            if temple_region_ok(state, params, seat, r):
                return True
        return False
    if state[player(seat) + ON_BOARD + colour] <= 0:  # [R A.1 "No piece, no construction"]
        return False
    return any_placement(state, params, seat, colour)


@jit
def put_piece(state, params, seat, r, ptype, escape):
    """Move a piece from the player board to region r; resolve village attacks [R A.4]."""
    pb = player(seat)
    if escape:
        state[pb + VP] -= T.ESCAPE_VP
    state[OWNER + r] = seat
    state[PIECES + r] |= 1 << ptype
    state[pb + ON_BOARD + ptype] -= 1
    if state[pb + FIRST] < 0:
        state[pb + FIRST] = r
    state[ESCAPED] = escape
    attack_villages(state, params)


@jit
def put_temple(state, params, r):
    state[PIECES + r] |= TEMPLE_BIT
    state[TEMPLES_LEFT] -= 1


@jit
def set_cost(state, design):
    for k in range(5):
        state[PAY + k] = DESIGN_COST[design, k]


@jit
def _pay_unit(state, seat, k, with_gold):
    pb = player(seat)
    state[PAY + k] -= 1
    if with_gold:
        state[pb + GOLD] -= T.GOLD_PER_RESOURCE
    else:
        state[pb + RES + k] -= 1
        state[SUPPLY + k] += 1  # paid resources return to the general supply


@jit
def pay_options(state, seat):
    """(resource k still owed, may pay it with the resource, may pay it with 4 gold)."""
    pb = player(seat)
    for k in range(T.N_RESOURCES):
        if state[PAY + k] > 0:
            res_ok = state[pb + RES + k] > 0
            state[PAY + k] -= 1
            rest = gold_needed(state, seat, state, PAY)
            state[PAY + k] += 1
            gold_ok = state[pb + GOLD] - T.GOLD_PER_RESOURCE >= rest
            return k, res_ok, gold_ok
    return -1, False, False


@jit
def settle_payment(state, params, seat):
    """Pay every unit without a real choice; True when the cost is fully paid.

    The gold part of a cost is paid first. With ``payment="choose"`` the loop stops at
    the first resource that could be paid either way (the seat decides).
    """
    pb = player(seat)
    state[pb + GOLD] -= state[PAY_GOLD]
    state[PAY_GOLD] = 0
    while True:
        k, res_ok, gold_ok = pay_options(state, seat)
        if k < 0:
            return True
        if res_ok and gold_ok and params[P_PAYMENT] != PAY_RESOURCES_FIRST:
            return False
        _pay_unit(state, seat, k, not res_ok)


@jit
def pay_choice(state, params, seat, with_gold):
    """The seat's choice for the pending resource unit, then the forced rest."""
    k, _, _ = pay_options(state, seat)
    _pay_unit(state, seat, k, with_gold)
    return settle_payment(state, params, seat)
