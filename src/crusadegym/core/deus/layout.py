"""The Deus state: ONE flat int32 array with named offsets (fixed size, 4 seats' room).

::

    0     2          32        40        48                 176
    | RNG | scalars  | PAY[5]  | SUPPLY  | PLAYER 4 x 32     | REGIONS 5 x 49 ...
                       pending   wheat..   GOLD VP RES[4]       OWNER PIECES TERRAIN
                       cost      stone     BOARD[5] SUPP[5]     VILLAGE_VP ATTACKED
                                           FIRST HAND_N
    ... | CARD_LOC[96] | KNOWN[96] | DECK[96] | DISC[96] | COLS 4x6x16 | COL_N 4x6 |

Scalars: seat to move, phase, step, turn (completed turns), game over, truncated, end
triggered, turns left after the trigger, pending card, pending region, cards in the
current offering, what to resume after a choice, the pending effect (kind, left, a, b,
c, selected region), the column being activated and its next card, temples left in the
general supply, deck and discard sizes, extra Minerva draws.

Regions: OWNER is the seat holding the region or -1; PIECES a bitmask of piece types
(bit ``TEMPLE`` for the neutral temple); VILLAGE_VP the VP still on a village; ATTACKED 1
once a village is attacked (or emptied).

Cards: CARD_LOC is where each card is (``LOC_*`` below); KNOWN a bitmask of the seats
that know which card lies in that place (a hand card: its owner; a column card and the
top card of an offering: everyone; a card under an offering: its discarder; the deck:
nobody). DECK lists deck cards bottom to top (draw from the top); DISC the discard pile
bottom to top. COLS[p, colour] stacks a player's column bottom to top.

Clone = ``state.copy()``; a batch of games = a ``[B, STATE_SIZE]`` array.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T

RNG = 0
CUR, PHASE, STEP, TURN, OVER, TRUNC, END_TRIGGER, FINAL_LEFT = 2, 3, 4, 5, 6, 7, 8, 9
PEND_CARD, PEND_REGION, OFFER_N, RESUME = 10, 11, 12, 13
EFF_KIND, EFF_LEFT, EFF_A, EFF_B, EFF_C, EFF_SEL = 14, 15, 16, 17, 18, 19
ACT_COLOUR, ACT_POS, TEMPLES_LEFT, DECK_N, DISC_N, MINERVA_EXTRA = 20, 21, 22, 23, 24, 25
ESCAPED = 26  # 1 while the pending placement is the paid 3-VP escape
PAY = 32  # [5] cost still to pay: wheat, wood, clay, stone, gold
PAY_GOLD = PAY + 4  # the gold part of the cost still to pay
SUPPLY = 40  # [4] resources in the general supply

PLAYER = 48
PLAYER_SIZE = 32
GOLD, VP, RES, ON_BOARD, IN_SUPPLY, FIRST, HAND_N = 0, 1, 2, 6, 11, 16, 17  # within a block

REGIONS = PLAYER + T.MAX_PLAYERS * PLAYER_SIZE
OWNER = REGIONS
PIECES = OWNER + T.N_REGIONS
TERRAIN = PIECES + T.N_REGIONS
VILLAGE_VP = TERRAIN + T.N_REGIONS
ATTACKED = VILLAGE_VP + T.N_REGIONS
CARD_LOC = ATTACKED + T.N_REGIONS
KNOWN = CARD_LOC + T.N_CARDS
DECK = KNOWN + T.N_CARDS
DISC = DECK + T.N_CARDS
COLS = DISC + T.N_CARDS
COL_N = COLS + T.MAX_PLAYERS * T.N_COLOURS * T.COLUMN_CAP
STATE_SIZE = COL_N + T.MAX_PLAYERS * T.N_COLOURS

assert SUPPLY + T.N_RESOURCES <= PLAYER and HAND_N < PLAYER_SIZE

# phases
PH_MAIN, PH_PLACE, PH_TEMPLE, PH_PAY, PH_OFFER, PH_GOD, PH_EFFECT, PH_OVER = range(8)
PHASE_NAMES = ("main", "place", "temple", "pay", "offer", "god", "effect", "over")

# what a finished choice returns to
RESUME_ACTIVATION, RESUME_OFFERING = 0, 1

# card locations (CARD_LOC values)
LOC_DECK, LOC_DISCARD, LOC_PENDING = 0, 1, 2
LOC_HAND0 = 3  # + seat
LOC_COLUMN0 = LOC_HAND0 + T.MAX_PLAYERS  # + seat

TEMPLE_BIT = 1 << T.TEMPLE
ALL_SEATS = (1 << T.MAX_PLAYERS) - 1


@jit
def player(seat: int) -> int:
    """Offset of ``seat``'s player block (also used inside kernels as plain arithmetic)."""
    return PLAYER + seat * PLAYER_SIZE


@jit
def col(seat: int, colour: int) -> int:
    """Offset of the bottom slot of ``seat``'s column of ``colour``."""
    return COLS + (seat * T.N_COLOURS + colour) * T.COLUMN_CAP


@jit
def col_n(seat: int, colour: int) -> int:
    """Offset of the card count of ``seat``'s column of ``colour``."""
    return COL_N + seat * T.N_COLOURS + colour
