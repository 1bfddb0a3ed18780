"""One seat's observation of a Deus state: only what that seat can see.

Visible to every seat [R]: the board (terrain, pieces, temples, village VP), every
player's gold, resources, pieces on the player board and in the personal supply, hand
size and columns (cards in play are face up), the general supply, the top card of the
discard pile, the pile sizes, the card being built or topping an offering, and every
player's VP total (below). Visible only to the seat itself: its hand. Never visible:
rivals' hands, the deck order, the cards hidden under an offering.

VP: the rulebook hides the tokens ("5 VPs (do not show them!)"), not the events; every VP
change is public (a Vesta offering, a card effect, a village attacked, the escape), so a
seat that remembers the game knows every total. Every view (this observation, the text
and picture views, the narration) is that seat's, the same information model as
``cards.determinize``, which keeps every VP, and the search and heuristic that read its
roots (issue #38: until 7 December the views hid rivals' VP while the search read them).

Seats are relative to the viewer (0 = me, 1 = next to play after me, ...). Layout:
``N_REGIONS`` blocks of ``REGION_FEATURES``, then ``MAX_PLAYERS`` blocks of
``SEAT_FEATURES``, then the scalars. Every entry lies in [0, 1].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import is_edge, on_board
from .config import P_MAX_TURNS, P_PLAYERS
from .effects import K_CERES, K_MINERVA
from .layout import (
    ATTACKED,
    CARD_LOC,
    CUR,
    DECK_N,
    DISC,
    DISC_N,
    EFF_KIND,
    EFF_LEFT,
    EFF_SEL,
    END_TRIGGER,
    FINAL_LEFT,
    FIRST,
    GOLD,
    HAND_N,
    IN_SUPPLY,
    KNOWN,
    LOC_HAND0,
    OFFER_N,
    ON_BOARD,
    OWNER,
    PAY,
    PEND_CARD,
    PEND_REGION,
    PHASE,
    PIECES,
    RES,
    SUPPLY,
    TEMPLES_LEFT,
    TERRAIN,
    TURN,
    VILLAGE_VP,
    VP,
    col,
    col_n,
    player,
)

# region block
RF_ON, RF_TERRAIN, RF_OWNER, RF_PIECES, RF_VILLAGE_VP, RF_ATTACKED, RF_EDGE = (
    0,
    1,
    7,
    11,
    17,
    18,
    19,
)
RF_PENDING, RF_SELECTED = 20, 21
REGION_FEATURES = 22
# seat block
SF_PRESENT, SF_GOLD, SF_VP, SF_RES, SF_ON_BOARD, SF_IN_SUPPLY, SF_HAND = 0, 1, 2, 3, 7, 12, 17
SF_COL_N, SF_FIRST, SF_COLUMN_DESIGNS = 18, 24, 25
SEAT_FEATURES = SF_COLUMN_DESIGNS + T.N_DESIGNS
# scalars
SEATS0 = T.N_REGIONS * REGION_FEATURES
SC0 = SEATS0 + T.MAX_PLAYERS * SEAT_FEATURES
SC_HAND = 0  # my hand: copies per design
SC_TOP = SC_HAND + T.N_DESIGNS  # top of the discard pile, if I know it
SC_PENDING = SC_TOP + T.N_DESIGNS  # the public pending card
SC_PHASE = SC_PENDING + T.N_DESIGNS  # 8 one-hot
SC_CHOICE = SC_PHASE + 8  # pending choice kind, one-hot over CHOICE_KINDS
SC_CHOICE_LEFT = SC_CHOICE + 10  # len(CHOICE_KINDS), checked below
SC_PAY = SC_CHOICE_LEFT + 1  # 5
SC_OFFER_N = SC_PAY + 5
SC_SUPPLY = SC_OFFER_N + 1  # 4
SC_TEMPLES = SC_SUPPLY + 4
SC_DECK = SC_TEMPLES + 1
SC_DISC = SC_DECK + 1
SC_END = SC_DISC + 1
SC_FINAL_LEFT = SC_END + 1
SC_TURN = SC_FINAL_LEFT + 1
SC_MY_SEAT = SC_TURN + 1  # 4 one-hot: my place in the turn order
N_SCALARS = SC_MY_SEAT + T.MAX_PLAYERS
OBS_SIZE = SC0 + N_SCALARS

GOLD_SCALE = 40.0
VP_SCALE = 80.0
RES_SCALE = 20.0
CHOICE_KINDS = (
    K_CERES,
    T.E_PIECES,
    T.E_PIECES_PER_CITY,
    T.E_BUY,
    T.E_SELL_GOLD,
    T.E_SELL_VP,
    T.E_PRODUCE_ONE,
    T.E_STEAL_VILLAGE,
    T.E_MOVE_ARMIES,
    K_MINERVA,
)
assert SC_CHOICE_LEFT - SC_CHOICE == len(CHOICE_KINDS)
_CHOICE_INDEX = [-1] * (max(CHOICE_KINDS) + 1)
for _i, _k in enumerate(CHOICE_KINDS):
    _CHOICE_INDEX[_k] = _i
import numpy as _np  # noqa: E402

CHOICE_INDEX = _np.array(_CHOICE_INDEX, _np.int64)


@jit
def _clip01(x):
    return min(max(x, 0.0), 1.0)


@jit
def observe(state, params, seat, out):
    """Write ``seat``'s view into ``out`` (float32, length OBS_SIZE)."""
    out[:] = 0.0
    players = params[P_PLAYERS]
    for r in range(T.N_REGIONS):
        o = r * REGION_FEATURES
        if not on_board(params, r):
            continue
        out[o + RF_ON] = 1.0
        out[o + RF_TERRAIN + state[TERRAIN + r]] = 1.0
        owner = state[OWNER + r]
        if owner >= 0:
            out[o + RF_OWNER + (owner - seat) % players] = 1.0
        for t in range(T.N_COLOURS):
            if state[PIECES + r] >> t & 1:
                out[o + RF_PIECES + t] = 1.0
        out[o + RF_VILLAGE_VP] = state[VILLAGE_VP + r] / 6.0
        out[o + RF_ATTACKED] = state[ATTACKED + r]
        out[o + RF_EDGE] = 1.0 if is_edge(params, r) else 0.0
        out[o + RF_PENDING] = 1.0 if state[PEND_REGION] == r else 0.0
        out[o + RF_SELECTED] = 1.0 if state[EFF_SEL] == r else 0.0
    for p in range(players):
        rel = (p - seat) % players
        o = SEATS0 + rel * SEAT_FEATURES
        pb = player(p)
        out[o + SF_PRESENT] = 1.0
        out[o + SF_GOLD] = _clip01(state[pb + GOLD] / GOLD_SCALE)
        out[o + SF_VP] = _clip01(state[pb + VP] / VP_SCALE)  # every seat's: a public tally
        for k in range(T.N_RESOURCES):
            out[o + SF_RES + k] = _clip01(state[pb + RES + k] / RES_SCALE)
        for t in range(T.N_TYPES):
            out[o + SF_ON_BOARD + t] = state[pb + ON_BOARD + t] / T.PIECES_PER_TYPE
            out[o + SF_IN_SUPPLY + t] = state[pb + IN_SUPPLY + t] / T.PIECES_PER_TYPE
        out[o + SF_HAND] = state[pb + HAND_N] / T.HAND_LIMIT
        for colour in range(T.N_COLOURS):
            n = state[col_n(p, colour)]
            out[o + SF_COL_N + colour] = n / T.COLUMN_CAP
            for i in range(n):
                d = T.CARD_DESIGN[state[col(p, colour) + i]]
                out[o + SF_COLUMN_DESIGNS + d] += 1.0 / T.MAX_COPIES
        out[o + SF_FIRST] = 1.0 if state[pb + FIRST] >= 0 else 0.0
    s = SC0
    for c in range(T.N_CARDS):
        if state[CARD_LOC + c] == LOC_HAND0 + seat:
            out[s + SC_HAND + T.CARD_DESIGN[c]] += 1.0 / T.MAX_COPIES
    if state[DISC_N] > 0:
        top = state[DISC + state[DISC_N] - 1]
        if state[KNOWN + top] >> seat & 1:
            out[s + SC_TOP + T.CARD_DESIGN[top]] = 1.0
    if state[PEND_CARD] >= 0:
        out[s + SC_PENDING + T.CARD_DESIGN[state[PEND_CARD]]] = 1.0
    out[s + SC_PHASE + state[PHASE]] = 1.0
    kind = state[EFF_KIND]
    if 0 < kind < CHOICE_INDEX.shape[0] and CHOICE_INDEX[kind] >= 0:
        out[s + SC_CHOICE + CHOICE_INDEX[kind]] = 1.0
        out[s + SC_CHOICE_LEFT] = _clip01(state[EFF_LEFT] / 10.0)
    for k in range(5):
        out[s + SC_PAY + k] = _clip01(state[PAY + k] / 4.0)
    out[s + SC_OFFER_N] = state[OFFER_N] / T.HAND_LIMIT
    for k in range(T.N_RESOURCES):
        out[s + SC_SUPPLY + k] = _clip01(state[SUPPLY + k] / RES_SCALE)
    out[s + SC_TEMPLES] = state[TEMPLES_LEFT] / T.N_TILE_SLOTS
    out[s + SC_DECK] = state[DECK_N] / T.N_CARDS
    out[s + SC_DISC] = state[DISC_N] / T.N_CARDS
    out[s + SC_END] = state[END_TRIGGER]
    out[s + SC_FINAL_LEFT] = _clip01(state[FINAL_LEFT] / (2.0 * T.MAX_PLAYERS))
    out[s + SC_TURN] = _clip01(state[TURN] / params[P_MAX_TURNS])
    out[s + SC_MY_SEAT + seat] = 1.0
    _ = CUR
