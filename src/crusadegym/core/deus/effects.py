"""Card effects and the bottom-to-top activation of a column [R A.5].

Each card row names an effect template (``tables.E_*``) with magnitudes (a, b, c).
Automatic effects resolve at once; effects with a choice open a sub-decision
(``PH_EFFECT``) that the seat answers one id at a time (``begin_choice`` /
``choice_mask`` / ``apply_choice``); the activation then resumes with the next card.
Colour rules from the rulebook's card clarifications: a production building produces
only its region's resource; sold resources return to the supply, bought ones come
from it; armies move only through card effects; "army" means military piece.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import army_next_to, attack_villages, has_army, n_buildings, on_board
from .cards import draw
from .config import P_PLAYERS
from .layout import (
    ACT_COLOUR,
    ACT_POS,
    ATTACKED,
    DECK_N,
    DISC_N,
    EFF_A,
    EFF_B,
    EFF_C,
    EFF_KIND,
    EFF_LEFT,
    EFF_SEL,
    GOLD,
    HAND_N,
    IN_SUPPLY,
    ON_BOARD,
    OWNER,
    PH_EFFECT,
    PHASE,
    PIECES,
    RES,
    RESUME,
    SUPPLY,
    TERRAIN,
    VILLAGE_VP,
    VP,
    col,
    col_n,
    player,
)

K_CERES = 40  # offering to Ceres: N resources of your choice [R B.3]
K_MINERVA = 41  # offering to Minerva: up to N extra cards, one ``draw`` each [R B.3-4]
MINERVA_TARGET = 0  # the one option of a Minerva choice (the ``draw`` action)
PRODUCTION_BIT = 1 << T.PRODUCTION
MILITARY_BIT = 1 << T.MILITARY


# ------------------------------------------------------------------ counters
@jit
def regions_of_terrain(state, params, seat, terrain):
    n = 0
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[OWNER + r] == seat and state[TERRAIN + r] == terrain:
            n += 1
    return n


@jit
def cities(state, params, seat, k):
    """Regions of ``seat`` holding at least k buildings (a temple counts) [research §3A']."""
    n = 0
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[OWNER + r] == seat and n_buildings(state, r) >= k:
            n += 1
    return n


@jit
def buildings_of_type(state, params, seat, ptype):
    n = 0
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[OWNER + r] == seat and state[PIECES + r] >> ptype & 1:
            n += 1
    return n


@jit
def buildings_on(state, params, seat, terrain):
    n = 0
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[OWNER + r] == seat and state[TERRAIN + r] == terrain:
            n += n_buildings(state, r)
    return n


@jit
def producers_on(state, params, seat, terrain):
    n = 0
    for r in range(T.N_REGIONS):
        if (
            on_board(params, r)
            and state[OWNER + r] == seat
            and state[TERRAIN + r] == terrain
            and state[PIECES + r] & PRODUCTION_BIT
        ):
            n += 1
    return n


@jit
def live_village(state, params, v):
    """A village that still counts as one for card effects (not attacked) [R, S5]."""
    return on_board(params, v) and state[TERRAIN + v] == T.VILLAGE and state[ATTACKED + v] == 0


@jit
def villages_near_armies(state, params, seat):
    n = 0
    for v in range(T.N_REGIONS):
        if live_village(state, params, v) and army_next_to(state, params, seat, v):
            n += 1
    return n


@jit
def rival_near_army(state, params, seat, rival):
    """True if ``rival`` holds a region adjacent to one of ``seat``'s armies."""
    for r in range(T.N_REGIONS):
        if (
            on_board(params, r)
            and state[OWNER + r] == rival
            and army_next_to(state, params, seat, r)
        ):
            return True
    return False


# ------------------------------------------------------------------ gains
@jit
def gain_resource(state, seat, k, n):
    """Gain up to n of resource k; exhausted resources cannot be gained [R setup 3]."""
    g = min(n, state[SUPPLY + k])
    state[SUPPLY + k] -= g
    state[player(seat) + RES + k] += g
    return g


@jit
def gain_piece(state, seat, ptype):
    """A piece of ``ptype`` from the personal supply to the player board, if one is left."""
    pb = player(seat)
    if state[pb + IN_SUPPLY + ptype] > 0:
        state[pb + IN_SUPPLY + ptype] -= 1
        state[pb + ON_BOARD + ptype] += 1
        return True
    return False


@jit
def steal(state, params, seat, a, slot):
    """Take a of ``slot`` (VP or GOLD) from each rival next to one of your armies."""
    for q in range(params[P_PLAYERS]):
        if q != seat and rival_near_army(state, params, seat, q):
            g = min(a, state[player(q) + slot])
            state[player(q) + slot] -= g
            state[player(seat) + slot] += g


# ------------------------------------------------------------------ armies
@jit
def army_can_leave(state, r):
    """An army sharing its region only with a temple cannot move [research §3A'.4]."""
    rest = state[PIECES + r] & ~MILITARY_BIT
    return not (rest == (1 << T.TEMPLE))


@jit
def army_target_ok(state, params, seat, src, dst):
    """One step into an empty land region, or an own region without an army (a sea region
    only with your ship) [research §4: no two armies share a region, never a village]."""
    if not on_board(params, dst) or state[TERRAIN + dst] == T.VILLAGE:
        return False
    adjacent = False
    for k in range(6):
        if T.NEIGH[src, k] == dst:
            adjacent = True
    if not adjacent:
        return False
    owner = state[OWNER + dst]
    if state[TERRAIN + dst] == T.SEA:
        return owner == seat and not has_army(state, dst)
    if owner < 0:
        return True
    return owner == seat and not has_army(state, dst)


@jit
def army_can_move(state, params, seat, src):
    if not (on_board(params, src) and state[OWNER + src] == seat and has_army(state, src)):
        return False
    if not army_can_leave(state, src):
        return False
    for k in range(6):
        if army_target_ok(state, params, seat, src, T.NEIGH[src, k]):
            return True
    return False


@jit
def move_army(state, params, seat, src, dst):
    state[PIECES + src] &= ~MILITARY_BIT
    if state[PIECES + src] == 0:
        state[OWNER + src] = -1
    state[OWNER + dst] = seat
    state[PIECES + dst] |= MILITARY_BIT
    return attack_villages(state, params)


# ------------------------------------------------------------------ choices
@jit
def choice_option(state, params, seat, kind, a, b, c, sel, target):
    """Whether ``target`` (a resource, piece type or region) answers the pending choice."""
    pb = player(seat)
    if kind == K_CERES:
        return target < T.N_RESOURCES and state[SUPPLY + target] > 0
    if kind == K_MINERVA:  # a card to draw and room for it [R B.4 "no more than 10"]
        return (
            target == MINERVA_TARGET
            and state[pb + HAND_N] < T.HAND_LIMIT
            and state[DECK_N] + state[DISC_N] > 0
        )
    if kind == T.E_PIECES or kind == T.E_PIECES_PER_CITY:
        return target < T.N_TYPES and state[pb + IN_SUPPLY + target] > 0
    if kind == T.E_BUY:
        return target < T.N_RESOURCES and state[SUPPLY + target] > 0 and state[pb + GOLD] >= b
    if kind == T.E_SELL_GOLD:
        return target < T.N_RESOURCES and state[pb + RES + target] > 0
    if kind == T.E_SELL_VP:
        return target == c and state[pb + RES + target] > 0
    if kind == T.E_PRODUCE_ONE:
        r = target
        return (
            on_board(params, r)
            and state[OWNER + r] == seat
            and (state[PIECES + r] & PRODUCTION_BIT) != 0
            and state[TERRAIN + r] < T.N_RESOURCES
            and state[SUPPLY + state[TERRAIN + r]] > 0
        )
    if kind == T.E_STEAL_VILLAGE:
        v = target
        return (
            live_village(state, params, v)
            and state[VILLAGE_VP + v] > 0
            and army_next_to(state, params, seat, v)
        )
    if kind == T.E_MOVE_ARMIES:
        if sel < 0:  # c = 1 + the region of an army that attacked: it moves no further
            return target + 1 != c and army_can_move(state, params, seat, target)
        return army_target_ok(state, params, seat, sel, target)
    return False


@jit
def choice_uses_regions(kind):
    return kind == T.E_PRODUCE_ONE or kind == T.E_STEAL_VILLAGE or kind == T.E_MOVE_ARMIES


@jit
def choice_uses_pieces(kind):
    return kind == T.E_PIECES or kind == T.E_PIECES_PER_CITY


@jit
def choice_optional(kind):
    """ "Up to" effects may stop early (DONE) [card texts "up to"; Minerva "You can"]."""
    return (
        kind == T.E_BUY
        or kind == T.E_SELL_GOLD
        or kind == T.E_SELL_VP
        or kind == T.E_MOVE_ARMIES
        or kind == K_MINERVA
    )


@jit
def choice_any(state, params, seat):
    kind = state[EFF_KIND]
    n = T.N_REGIONS if choice_uses_regions(kind) else T.N_TYPES
    for t in range(n):
        if choice_option(
            state, params, seat, kind, state[EFF_A], state[EFF_B], state[EFF_C], state[EFF_SEL], t
        ):
            return True
    return False


@jit
def begin_choice(state, params, seat, kind, count, a, b, c, resume):
    """Open a sub-decision; returns False (nothing opened) when it has no option."""
    if count <= 0:
        return False
    state[EFF_KIND] = kind
    state[EFF_LEFT] = count
    state[EFF_A] = a
    state[EFF_B] = b
    state[EFF_C] = c
    state[EFF_SEL] = -1
    state[RESUME] = resume
    if not choice_any(state, params, seat):
        state[EFF_KIND] = 0
        return False
    state[PHASE] = PH_EFFECT
    return True


@jit
def apply_choice(state, params, seat, target):
    """Apply one answer; returns True when the choice is over (resume the caller)."""
    kind = state[EFF_KIND]
    a = state[EFF_A]
    b = state[EFF_B]
    pb = player(seat)
    if kind == T.E_MOVE_ARMIES and state[EFF_SEL] < 0:
        state[EFF_SEL] = target  # the army to move; binding
        return False
    if kind == K_CERES:
        gain_resource(state, seat, target, 1)
    elif kind == K_MINERVA:
        draw(state, seat, 1)
    elif kind == T.E_PIECES or kind == T.E_PIECES_PER_CITY:
        gain_piece(state, seat, target)
    elif kind == T.E_BUY:
        state[pb + GOLD] -= b
        gain_resource(state, seat, target, 1)
    elif kind == T.E_SELL_GOLD or kind == T.E_SELL_VP:
        state[pb + RES + target] -= 1
        state[SUPPLY + target] += 1
        state[pb + (GOLD if kind == T.E_SELL_GOLD else VP)] += b
    elif kind == T.E_PRODUCE_ONE:
        gain_resource(state, seat, state[TERRAIN + target], a)
    elif kind == T.E_STEAL_VILLAGE:
        g = min(a, state[VILLAGE_VP + target])
        state[VILLAGE_VP + target] -= g
        state[pb + VP] += g
        if state[VILLAGE_VP + target] == 0:  # emptied: counts as attacked [S5]
            state[ATTACKED + target] = 1
    elif kind == T.E_MOVE_ARMIES:
        if move_army(state, params, seat, state[EFF_SEL], target) > 0:
            state[EFF_C] = target + 1  # [S5] an army that triggers an attack stops there
        state[EFF_SEL] = -1
    state[EFF_LEFT] -= 1
    if state[EFF_LEFT] <= 0 or not choice_any(state, params, seat):
        state[EFF_KIND] = 0
        return True
    return False


@jit
def finish_choice_early(state):
    state[EFF_KIND] = 0
    state[EFF_SEL] = -1


# ------------------------------------------------------------------ one card
@jit
def apply_card(state, params, seat, design, resume):
    """Resolve one card's effect; True if it opened a choice (activation pauses)."""
    e = T.DESIGN_EFFECT[design]
    a = T.DESIGN_A[design]
    b = T.DESIGN_B[design]
    c = T.DESIGN_C[design]
    pb = player(seat)
    if e == T.E_GOLD:
        state[pb + GOLD] += a
    elif e == T.E_VP:
        state[pb + VP] += a
    elif e == T.E_GOLD_PER_TERRAIN:
        state[pb + GOLD] += a * regions_of_terrain(state, params, seat, b)
    elif e == T.E_VP_PER_TERRAIN:
        state[pb + VP] += a * regions_of_terrain(state, params, seat, b)
    elif e == T.E_GOLD_PER_CITY:
        state[pb + GOLD] += a * cities(state, params, seat, b)
    elif e == T.E_VP_PER_CITY:
        state[pb + VP] += a * cities(state, params, seat, b)
    elif e == T.E_VP_PER_CITY_PAIR:
        state[pb + VP] += a * (cities(state, params, seat, b) // 2)
    elif e == T.E_RES_PER_PRODUCER:
        gain_resource(state, seat, b, a * producers_on(state, params, seat, b))
    elif e == T.E_PRODUCE_ALL:
        for r in range(T.N_REGIONS):
            if (
                on_board(params, r)
                and state[OWNER + r] == seat
                and state[PIECES + r] & PRODUCTION_BIT
                and state[TERRAIN + r] < T.N_RESOURCES
            ):
                gain_resource(state, seat, state[TERRAIN + r], a)
    elif e == T.E_DRAW:
        draw(state, seat, a)
    elif e == T.E_DRAW_PER_CITY:
        draw(state, seat, a * cities(state, params, seat, b))
    elif e == T.E_GOLD_PER_VILLAGE:
        state[pb + GOLD] += a * villages_near_armies(state, params, seat)
    elif e == T.E_STEAL_VP:
        steal(state, params, seat, a, VP)
    elif e == T.E_STEAL_GOLD:
        steal(state, params, seat, a, GOLD)
    elif e == T.E_GOLD_PER_TYPE:
        state[pb + GOLD] += a * buildings_of_type(state, params, seat, b)
    elif e == T.E_VP_PER_TYPE:
        state[pb + VP] += a * buildings_of_type(state, params, seat, b)
    elif e == T.E_PIECES:
        return begin_choice(state, params, seat, e, a, a, b, c, resume)
    elif e == T.E_PIECES_PER_CITY:
        n = a * cities(state, params, seat, b)
        return begin_choice(state, params, seat, e, n, a, b, c, resume)
    elif e == T.E_PRODUCE_ONE:
        return begin_choice(state, params, seat, e, 1, a, b, c, resume)
    elif e == T.E_STEAL_VILLAGE:
        return begin_choice(state, params, seat, e, 1, a, b, c, resume)
    elif e == T.E_BUY or e == T.E_SELL_GOLD or e == T.E_SELL_VP or e == T.E_MOVE_ARMIES:
        return begin_choice(state, params, seat, e, a, a, b, c, resume)
    return False


@jit
def run_activation(state, params, seat, resume):
    """Activate the column ACT_COLOUR from ACT_POS upward; True once the column is done."""
    colour = state[ACT_COLOUR]
    while state[ACT_POS] < state[col_n(seat, colour)]:
        card = state[col(seat, colour) + state[ACT_POS]]
        state[ACT_POS] += 1
        if apply_card(state, params, seat, T.CARD_DESIGN[card], resume):
            return False
    return True


@jit
def temple_vp(state, params, seat, design):
    """End-game VP of one temple card, capped at 12 [R temples 3]."""
    e = T.DESIGN_EFFECT[design]
    a = T.DESIGN_A[design]
    b = T.DESIGN_B[design]
    v = 0
    if e == T.T_END_PER_CITY:
        v = a * cities(state, params, seat, b)
    elif e == T.T_END_PER_TERRAIN:
        v = a * regions_of_terrain(state, params, seat, b)
    elif e == T.T_END_PER_BUILDING_ON:
        v = a * buildings_on(state, params, seat, b)
    elif e == T.T_END_PER_TYPE:
        v = a * buildings_of_type(state, params, seat, b)
    return min(v, T.TEMPLE_VP_CAP)
