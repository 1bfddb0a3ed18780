"""Cards: the draw pile, the discard pile, hands, columns, and what each seat knows.

Rulebook: setup 6 (deal 5), "If, at the end of your action, you have no more cards in
hand, automatically draw 5 new cards. If the draw pile is empty, shuffle the discards to
create a new one", offerings step 4 (refill, hand limit 10). Also the determinization
kernel: resample every card a seat cannot see, consistently with its view.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from ..jit import ajit, jit
from . import tables as T
from .config import P_PLAYERS
from .layout import (
    ALL_SEATS,
    CARD_LOC,
    DECK,
    DECK_N,
    DISC,
    DISC_N,
    HAND_N,
    KNOWN,
    LOC_DECK,
    LOC_DISCARD,
    LOC_HAND0,
    RNG,
    col,
    col_n,
    player,
)

CARD_DESIGN = T.CARD_DESIGN


@jit
def reshuffle(state):
    """The discard pile becomes the shuffled draw pile; nobody knows its order [R A]."""
    n = state[DISC_N]
    for i in range(n):
        c = state[DISC + i]
        state[DECK + state[DECK_N]] = c
        state[DECK_N] += 1
        state[CARD_LOC + c] = LOC_DECK
        state[KNOWN + c] = 0
        state[DISC + i] = -1
    state[DISC_N] = 0
    rng.shuffle(state, RNG, state[DECK : DECK + T.N_CARDS], state[DECK_N])


@jit
def draw(state, seat, n):
    """Draw up to n cards, stopping at the hand limit of 10; returns how many were drawn."""
    drawn = 0
    pb = player(seat)
    for _ in range(n):
        if state[pb + HAND_N] >= T.HAND_LIMIT:
            break
        if state[DECK_N] == 0:
            reshuffle(state)
            if state[DECK_N] == 0:
                break
        state[DECK_N] -= 1
        c = state[DECK + state[DECK_N]]
        state[DECK + state[DECK_N]] = -1
        state[CARD_LOC + c] = LOC_HAND0 + seat
        state[KNOWN + c] = 1 << seat
        state[pb + HAND_N] += 1
        drawn += 1
    return drawn


@jit
def card_in_hand(state, seat, design):
    """Lowest card id of ``design`` in ``seat``'s hand, or -1."""
    for c in range(T.N_CARDS):
        if CARD_DESIGN[c] == design and state[CARD_LOC + c] == LOC_HAND0 + seat:
            return c
    return -1


@jit
def hand_counts(state, seat, out):
    """out[d] = copies of design d in ``seat``'s hand."""
    out[:] = 0
    for c in range(T.N_CARDS):
        if state[CARD_LOC + c] == LOC_HAND0 + seat:
            out[CARD_DESIGN[c]] += 1


@jit
def leave_hand(state, seat, c):
    state[player(seat) + HAND_N] -= 1


@jit
def to_column(state, seat, c, loc_column):
    """Play card c on top of its colour column (public from now on) [R A.2]."""
    colour = T.DESIGN_COLOUR[CARD_DESIGN[c]]
    n = state[col_n(seat, colour)]
    state[col(seat, colour) + n] = c
    state[col_n(seat, colour)] = n + 1
    state[CARD_LOC + c] = loc_column
    state[KNOWN + c] = ALL_SEATS


@jit
def to_discard(state, c, known):
    """Put card c on the discard pile, known to the seats in bitmask ``known``."""
    state[DISC + state[DISC_N]] = c
    state[DISC_N] += 1
    state[CARD_LOC + c] = LOC_DISCARD
    state[KNOWN + c] = known


@ajit
def determinize(state, params, seat):
    """Resample, in place, every card whose identity ``seat`` does not know.

    The unseen cards (the draw pile, rivals' hands, discarded cards hidden under an
    offering) are dealt back at random into the places they occupied, each place keeping
    who knows it. Sizes of hands and piles, every column, the top card of each offering
    and ``seat``'s own hand are untouched, so ``seat``'s observation is unchanged. The
    places are listed in a fixed order (deck, discard pile, hands by seat) and the cards
    by id, so the result depends only on what ``seat`` sees and on the RNG: two states
    that differ only in what ``seat`` cannot see determinize to the same state.
    VP are left as they are: every VP change is a public event (a Vesta offering, a card
    effect, an attack, an escape), so a seat that remembers the game knows every total;
    the rulebook hides the tokens, not the events (docs/rules/deus.md).
    Chance comes from the state's RNG, which this advances.
    """
    bit = 1 << seat
    players = params[P_PLAYERS]
    # the unseen places, in a fixed order: (location, pile index, who knows it)
    where = np.empty(T.N_CARDS, np.int64)
    index = np.empty(T.N_CARDS, np.int64)
    known = np.empty(T.N_CARDS, np.int64)
    n = 0
    for i in range(state[DECK_N]):
        c = state[DECK + i]
        if not state[KNOWN + c] & bit:
            where[n], index[n], known[n] = LOC_DECK, i, state[KNOWN + c]
            n += 1
    for i in range(state[DISC_N]):
        c = state[DISC + i]
        if not state[KNOWN + c] & bit:
            where[n], index[n], known[n] = LOC_DISCARD, i, state[KNOWN + c]
            n += 1
    for q in range(players):
        for c in range(T.N_CARDS):
            if state[CARD_LOC + c] == LOC_HAND0 + q and not state[KNOWN + c] & bit:
                where[n], index[n], known[n] = LOC_HAND0 + q, -1, state[KNOWN + c]
                n += 1
    # the unseen cards, by id
    ids = np.empty(n, np.int64)
    m = 0
    for c in range(T.N_CARDS):
        loc = state[CARD_LOC + c]
        in_place = loc == LOC_DECK or loc == LOC_DISCARD or LOC_HAND0 <= loc < LOC_HAND0 + players
        if in_place and not state[KNOWN + c] & bit:
            ids[m] = c
            m += 1
    rng.shuffle(state, RNG, ids, n)
    for i in range(n):
        c = ids[i]
        state[CARD_LOC + c] = where[i]
        state[KNOWN + c] = known[i]
        if where[i] == LOC_DECK:
            state[DECK + index[i]] = c
        elif where[i] == LOC_DISCARD:
            state[DISC + index[i]] = c


@jit
def deal_start(state, params):
    """Shuffle the 96 cards and deal 5 to each player [R setup 6]."""
    for c in range(T.N_CARDS):
        state[DECK + c] = c
        state[CARD_LOC + c] = LOC_DECK
        state[KNOWN + c] = 0
    state[DECK_N] = T.N_CARDS
    state[DISC_N] = 0
    for i in range(T.N_CARDS):
        state[DISC + i] = -1
    rng.shuffle(state, RNG, state[DECK : DECK + T.N_CARDS], T.N_CARDS)
    for p in range(params[P_PLAYERS]):
        draw(state, p, T.HAND_START)
