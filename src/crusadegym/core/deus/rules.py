"""The turn: legal actions and stepping, dispatched to one module per rule family.

[R "The Game Turn"]: on your turn, Build a Building (``build.py``, ``effects.py``) or
Make an Offering (``offering.py``); at the end of your action, an empty hand draws 5
(``cards.py``); the end of the game (``end_action``) and scoring (``scoring.py``).
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .actions import (
    BUILD0,
    DONE,
    DRAW,
    GOD0,
    OFFER0,
    PASS,
    PAY_GOLD,
    PAY_RESOURCE,
    PIECE0,
    REGION0,
    RES0,
)
from .board import all_villages_attacked
from .build import (
    PLACE_ESCAPE,
    PLACE_NO,
    any_normal,
    can_build,
    first_spacing,
    pay_choice,
    pay_options,
    placement_kind,
    put_piece,
    put_temple,
    set_cost,
    settle_payment,
    temple_region_ok,
)
from .cards import card_in_hand, draw, hand_counts, leave_hand, to_column
from .config import P_MAX_TURNS, P_PLAYERS
from .effects import (
    K_MINERVA,
    MINERVA_TARGET,
    apply_choice,
    choice_option,
    choice_optional,
    choice_uses_pieces,
    choice_uses_regions,
    finish_choice_early,
    run_activation,
)
from .layout import (
    ACT_COLOUR,
    ACT_POS,
    CUR,
    EFF_A,
    EFF_B,
    EFF_C,
    EFF_KIND,
    EFF_SEL,
    END_TRIGGER,
    FINAL_LEFT,
    HAND_N,
    LOC_COLUMN0,
    OVER,
    PEND_CARD,
    PEND_REGION,
    PH_EFFECT,
    PH_GOD,
    PH_MAIN,
    PH_OFFER,
    PH_OVER,
    PH_PAY,
    PH_PLACE,
    PH_TEMPLE,
    PHASE,
    RESUME,
    RESUME_ACTIVATION,
    STEP,
    TEMPLES_LEFT,
    TRUNC,
    TURN,
    player,
)
from .offering import add_to_offering, close_offering, invoke, refill, start_offering
from .scoring import winners
from .setup import init  # noqa: F401  (re-exported: the protocol's init kernel)


# ============================================================== legal actions
@ajit
def legal_mask(state, params, out):
    """Mark the legal actions of the seat to move; returns how many there are."""
    out[:] = 0
    if state[OVER] != 0:
        return 0
    seat = state[CUR]
    phase = state[PHASE]
    n = 0
    if phase == PH_MAIN or phase == PH_OFFER:
        counts = np.zeros(T.N_DESIGNS, np.int64)
        hand_counts(state, seat, counts)
        for d in range(T.N_DESIGNS):
            if counts[d] == 0:
                continue
            out[OFFER0 + d] = 1
            n += 1
            if phase == PH_MAIN and can_build(state, params, seat, d):
                out[BUILD0 + d] = 1
                n += 1
        if phase == PH_OFFER:
            out[DONE] = 1
            n += 1
        elif n == 0:
            out[PASS] = 1  # no card to play and none to draw
            n = 1
    elif phase == PH_PLACE:
        ptype = T.DESIGN_COLOUR[T.CARD_DESIGN[state[PEND_CARD]]]
        spacing = first_spacing(state, params, seat, ptype)
        normal = any_normal(state, params, seat, ptype)
        for r in range(T.N_REGIONS):
            if placement_kind(state, params, seat, r, ptype, spacing, normal) != PLACE_NO:
                out[REGION0 + r] = 1
                n += 1
    elif phase == PH_TEMPLE:
        for r in range(T.N_REGIONS):
            if temple_region_ok(state, params, seat, r):
                out[REGION0 + r] = 1
                n += 1
    elif phase == PH_PAY:
        _, res_ok, gold_ok = pay_options(state, seat)
        out[PAY_RESOURCE] = res_ok
        out[PAY_GOLD] = gold_ok
        n = int(res_ok) + int(gold_ok)
    elif phase == PH_GOD:
        for g in range(T.N_TYPES):
            out[GOD0 + g] = 1
        n = T.N_TYPES
    elif phase == PH_EFFECT and state[EFF_KIND] == K_MINERVA:
        out[DRAW] = 1  # the choice is open only while a card can be drawn
        out[DONE] = 1
        n = 2
    elif phase == PH_EFFECT:
        kind = state[EFF_KIND]
        base = (
            REGION0 if choice_uses_regions(kind) else (PIECE0 if choice_uses_pieces(kind) else RES0)
        )
        size = (
            T.N_REGIONS
            if choice_uses_regions(kind)
            else (T.N_TYPES if choice_uses_pieces(kind) else T.N_RESOURCES)
        )
        a, b, c, sel = state[EFF_A], state[EFF_B], state[EFF_C], state[EFF_SEL]
        for t in range(size):
            if choice_option(state, params, seat, kind, a, b, c, sel, t):
                out[base + t] = 1
                n += 1
        if choice_optional(kind) and sel < 0:
            out[DONE] = 1
            n += 1
    return n


# ============================================================== turn flow
@jit
def end_action(state, params):
    """End of the seat's action: empty hand draws 5 [R A "Important"], end trigger and the
    final round [R "End of Game"], the turn cap, then the next seat."""
    seat = state[CUR]
    players = params[P_PLAYERS]
    if state[player(seat) + HAND_N] == 0:
        draw(state, seat, T.HAND_START)
    state[PHASE] = PH_MAIN
    state[PEND_CARD] = -1
    state[PEND_REGION] = -1
    state[TURN] += 1
    if state[END_TRIGGER]:
        state[FINAL_LEFT] -= 1
        if state[FINAL_LEFT] <= 0:
            _game_over(state, 0)
            return
    elif state[TEMPLES_LEFT] == 0 or all_villages_attacked(state, params):
        # finish the round (seat 0 opens every round), then one more full round
        state[END_TRIGGER] = 1
        state[FINAL_LEFT] = (players - 1 - seat) + players
    if state[TURN] >= params[P_MAX_TURNS]:
        _game_over(state, 1)
        return
    state[CUR] = (seat + 1) % players


@jit
def _game_over(state, truncated):
    state[OVER] = 1
    state[TRUNC] = truncated
    state[PHASE] = PH_OVER


@jit
def _after_payment(state, params, seat):
    """Cost paid: a standard building activates its column [R A.5]; a temple ends."""
    colour = T.DESIGN_COLOUR[T.CARD_DESIGN[state[PEND_CARD]]]
    if colour == T.TEMPLE:
        end_action(state, params)
        return
    state[ACT_COLOUR] = colour
    state[ACT_POS] = 0
    _continue_activation(state, params, seat)


@jit
def _continue_activation(state, params, seat):
    state[PHASE] = PH_PAY  # any phase but PH_EFFECT while cards resolve
    if run_activation(state, params, seat, RESUME_ACTIVATION):
        state[ACT_COLOUR] = -1
        state[ACT_POS] = 0
        end_action(state, params)


@jit
def _to_payment(state, params, seat):
    set_cost(state, T.CARD_DESIGN[state[PEND_CARD]])
    if settle_payment(state, params, seat):
        _after_payment(state, params, seat)
    else:
        state[PHASE] = PH_PAY


@jit
def _finish_offering(state, params, seat):
    if not refill(state, params, seat):  # else the Minerva choice is open
        end_action(state, params)


@jit
def _resume(state, params, seat):
    """A sub-decision is over: go back to whatever opened it."""
    if state[RESUME] == RESUME_ACTIVATION:
        _continue_activation(state, params, seat)
    else:
        _finish_offering(state, params, seat)


@jit
def _start_build(state, params, seat, design):
    """Play the card on top of its column [R A.2]; then placement and payment."""
    c = card_in_hand(state, seat, design)
    leave_hand(state, seat, c)
    to_column(state, seat, c, LOC_COLUMN0 + seat)
    state[PEND_CARD] = c
    if T.DESIGN_COLOUR[design] != T.TEMPLE:
        state[PHASE] = PH_PLACE
    elif state[TEMPLES_LEFT] > 0:
        state[PHASE] = PH_TEMPLE
    else:
        _to_payment(state, params, seat)  # no temple piece left to place [R temples 4]


@jit
def step(state, params, action, rewards):
    """Apply one (legal) action; ``rewards`` receives the final result when it ends."""
    rewards[:] = 0.0
    state[STEP] += 1
    seat = state[CUR]
    phase = state[PHASE]
    if phase == PH_MAIN:
        if action == PASS:
            end_action(state, params)
        elif action < OFFER0:
            _start_build(state, params, seat, action - BUILD0)
        else:
            start_offering(state, seat, action - OFFER0)
    elif phase == PH_OFFER:
        if action == DONE:
            god = close_offering(state, params, seat)
            if god != T.TEMPLE and not invoke(state, params, seat, god):
                _finish_offering(state, params, seat)
        else:
            add_to_offering(state, seat, action - OFFER0)
    elif phase == PH_GOD:
        state[PHASE] = PH_OFFER
        if not invoke(state, params, seat, action - GOD0):
            _finish_offering(state, params, seat)
    elif phase == PH_PLACE:
        r = action - REGION0
        ptype = T.DESIGN_COLOUR[T.CARD_DESIGN[state[PEND_CARD]]]
        spacing = first_spacing(state, params, seat, ptype)
        normal = any_normal(state, params, seat, ptype)
        kind = placement_kind(state, params, seat, r, ptype, spacing, normal)
        state[PEND_REGION] = r
        put_piece(state, params, seat, r, ptype, 1 if kind == PLACE_ESCAPE else 0)
        _to_payment(state, params, seat)
    elif phase == PH_TEMPLE:
        state[PEND_REGION] = action - REGION0
        put_temple(state, params, action - REGION0)
        _to_payment(state, params, seat)
    elif phase == PH_PAY:
        if pay_choice(state, params, seat, action == PAY_GOLD):
            _after_payment(state, params, seat)
    elif phase == PH_EFFECT:
        if action == DONE:
            finish_choice_early(state)
            _resume(state, params, seat)
        else:
            kind = state[EFF_KIND]
            if kind == K_MINERVA:
                target = MINERVA_TARGET
            elif choice_uses_regions(kind):
                target = action - REGION0
            elif choice_uses_pieces(kind):
                target = action - PIECE0
            else:
                target = action - RES0
            if apply_choice(state, params, seat, target):
                _resume(state, params, seat)
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


@ajit
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
