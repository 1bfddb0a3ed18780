"""B. Making an Offering to the Gods [R B.1-4].

The seat names the top card first (``OFFER d``: its colour picks the god), adds any
number of cards under it (hidden from rivals: "only the top card visible"), then
``DONE``. N = cards discarded. Divine powers [R B.3]: Neptune 2N gold + a ship; Ceres
N resources of choice + a production piece; Minerva a scientific piece and N extra
draws; Vesta 1 VP (N = 1) or 2 VP + a civil piece; Mars N pieces of choice; Jupiter
the power of one other god. Pieces come from the personal supply (research §3B).
Refill to 5, then Minerva's N extra cards, never above 10 [R B.4]: "You can draw", so
by default each extra card is a choice (``draw`` / ``done``, choice ``K_MINERVA``);
option ``minerva_draw="always"`` draws them all at once.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .cards import card_in_hand, draw, leave_hand, to_discard
from .config import MINERVA_ALWAYS, P_MINERVA
from .effects import K_CERES, K_MINERVA, begin_choice, gain_piece
from .layout import (
    ALL_SEATS,
    CARD_LOC,
    GOLD,
    HAND_N,
    KNOWN,
    LOC_PENDING,
    MINERVA_EXTRA,
    OFFER_N,
    PEND_CARD,
    PH_GOD,
    PH_OFFER,
    PHASE,
    RESUME_OFFERING,
    VP,
    player,
)

NEPTUNE_GOLD_PER_CARD = 2  # [R B.3]
VESTA_VP_ONE, VESTA_VP_MORE = 1, 2  # [R B.3]


@jit
def start_offering(state, seat, design):
    """The top card of the offering: public, and it names the god [R B.2-3]."""
    c = card_in_hand(state, seat, design)
    leave_hand(state, seat, c)
    state[CARD_LOC + c] = LOC_PENDING
    state[KNOWN + c] = ALL_SEATS
    state[PEND_CARD] = c
    state[OFFER_N] = 1
    state[PHASE] = PH_OFFER


@jit
def add_to_offering(state, seat, design):
    """One more card, face down under the top card: only its owner knows it [R B.2]."""
    c = card_in_hand(state, seat, design)
    leave_hand(state, seat, c)
    to_discard(state, c, 1 << seat)
    state[OFFER_N] += 1


@jit
def close_offering(state, params, seat):
    """Put the top card on the pile; returns its god (a colour, TEMPLE for Jupiter)."""
    c = state[PEND_CARD]
    to_discard(state, c, ALL_SEATS)
    state[PEND_CARD] = -1
    god = T.DESIGN_COLOUR[T.CARD_DESIGN[c]]
    if god == T.TEMPLE:
        state[PHASE] = PH_GOD
    return god


@jit
def invoke(state, params, seat, god):
    """Apply a god's power; True if it opened a choice (Ceres, Mars)."""
    n = state[OFFER_N]
    pb = player(seat)
    if god == T.MARITIME:
        state[pb + GOLD] += NEPTUNE_GOLD_PER_CARD * n
        gain_piece(state, seat, T.MARITIME)
    elif god == T.PRODUCTION:
        gain_piece(state, seat, T.PRODUCTION)
        return begin_choice(state, params, seat, K_CERES, n, 0, 0, 0, RESUME_OFFERING)
    elif god == T.SCIENTIFIC:
        gain_piece(state, seat, T.SCIENTIFIC)
        state[MINERVA_EXTRA] = n
    elif god == T.CIVIL:
        state[pb + VP] += VESTA_VP_ONE if n == 1 else VESTA_VP_MORE
        gain_piece(state, seat, T.CIVIL)
    elif god == T.MILITARY:
        return begin_choice(state, params, seat, T.E_PIECES, n, n, 0, 0, RESUME_OFFERING)
    return False


@jit
def refill(state, params, seat):
    """Draw to 5 cards, then the Minerva extra, within the hand limit [R B.4].

    Returns True when it opened the Minerva choice (the seat then draws each extra card
    or stops; the choice resumes the offering, which calls this again with no extra).
    """
    need = T.HAND_START - state[player(seat) + HAND_N]
    draw(state, seat, max(need, 0))
    extra = state[MINERVA_EXTRA]
    state[MINERVA_EXTRA] = 0
    state[OFFER_N] = 0
    if params[P_MINERVA] == MINERVA_ALWAYS:
        draw(state, seat, extra)
        return False
    return begin_choice(state, params, seat, K_MINERVA, extra, 0, 0, 0, RESUME_OFFERING)
