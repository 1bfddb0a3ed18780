"""The Deus lo Vult state: ONE flat int32 array with named offsets.

::

    0      2      ... 20     24       36        48            192           336          1056
    | RNG  | scalars | SCORE | QORDER  | PURGATORY| BOARD[144]  | GROUND[144] | TOKENS 5x144 |
                       [4]    [12]       [9]      token or -1    loose coins   LOC SIDE FACE
                                                                               COINS MOVED

Tokens 0..111 are the Duel's; 112..143 are Campaign-only (War Engines, Hero tokens, Field
Amenities) and stay off the board (``LOC_OFF``) in every Duel. A Campaign state continues
after ``STATE_SIZE`` with its own block (``campaign/layout.py``).

Scalars: seat to move, action points left, phase, selected cell (-1 none), round,
turn, step, round coins still unsecured, last plunderer, setup cursor, setup quota
(during a tactical Saracen placement: the Saracens still to pick), game over,
truncated, next quarter in QORDER, seat that opens the round, seats done with setup
deployment.

Tokens (see ``tables.TOKEN_KIND``/``TOKEN_OWNER``): LOC is a cell, or one of
``LOC_RESERVE`` (army reserve / Saracen bag), ``LOC_PURGATORY``, ``LOC_OFF``
(discarded Refugee), ``LOC_STACK`` (City Quarter not yet dealt). SIDE is 0 strong /
1 weak (City Quarter: 0 quarter / 1 Refugee). FACE is the direction of the front
edge. COINS is what a Crusader carries or what a City Quarter still holds. MOVED marks
the unit whose last action was its move (it may Charge with its next action).

Clone = ``state.copy()``; a batch of games = a ``[B, STATE_SIZE]`` array.
"""

from __future__ import annotations

from . import tables as T

RNG = 0
CUR, AP, PHASE, SEL, ROUND, TURN, STEP, ROUND_LEFT = 2, 3, 4, 5, 6, 7, 8, 9
LAST_PLUNDER, SETUP_K, QUOTA, OVER, TRUNC, QNEXT, ROUND_START, SETUP_DONE = (
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    17,
)
SCORE = 20
QORDER = SCORE + 4
PURG = QORDER + T.N_QUARTERS
BOARD = 48
GROUND = BOARD + T.N_CELLS
TOK_LOC = GROUND + T.N_CELLS
TOK_SIDE = TOK_LOC + T.N_TOKENS
TOK_FACE = TOK_SIDE + T.N_TOKENS
TOK_COINS = TOK_FACE + T.N_TOKENS
TOK_MOVED = TOK_COINS + T.N_TOKENS
STATE_SIZE = TOK_MOVED + T.N_TOKENS

assert PURG + T.PURGATORY_SLOTS <= BOARD

_QUARTER_COINS = TOK_COINS + T.QUARTER_TOKEN0
PROGRESS_SLOTS = (ROUND, ROUND_LEFT, *range(SCORE, SCORE + 4),
                  *range(_QUARTER_COINS, _QUARTER_COINS + T.N_QUARTERS))  # fmt: skip
"""What progress is in a Duel [R "End of Round"]: a coin plundered from a City Quarter,
a coin secured, a round ended (``GameSpec.progress_slots``; ``agents/stall.py``)."""

# phases
PH_PICK, PH_DEPLOY, PH_ARMY, PH_SARACEN, PH_OVER = 0, 1, 2, 3, 4
PHASE_NAMES = ("saracen-pick", "setup-deploy", "army", "saracen", "over")

# token locations that are not cells
LOC_RESERVE, LOC_PURGATORY, LOC_OFF, LOC_STACK = -1, -2, -3, -4

# Layout 1 (crusadegym <= stop 25): the same slots with 112 tokens (no Campaign-only
# tokens). Replays recorded then still replay: ``project_v1`` maps a state of this
# layout to that one so their final-state hashes can be checked (``LegacyLayout``).
V1_TOKENS = T.N_DUEL_TOKENS
V1_STATE_SIZE = TOK_LOC + 5 * V1_TOKENS


def project_v1(state):
    """The layout-1 image of a Duel state (its Campaign-only token slots dropped)."""
    import numpy as np

    parts = [state[:TOK_LOC]]
    for base in (TOK_LOC, TOK_SIDE, TOK_FACE, TOK_COINS, TOK_MOVED):
        parts.append(state[base : base + V1_TOKENS])
    return np.concatenate(parts)
