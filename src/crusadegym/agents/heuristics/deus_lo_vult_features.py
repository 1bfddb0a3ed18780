"""Inputs of a learned Deus lo Vult evaluation (:mod:`crusadegym.agents.learned_value`).

Per seat, what the heuristic's evaluation counts (:mod:`.deus_lo_vult`), one column per
term and unweighted, so a learner can weigh them itself; then the clock and the coins
still to be had, which the hand-written evaluation does not read. Two named sets:

* ``state``: only what the state says directly: secured and carried coins, units on the
  board, wounded, in Purgatory, and the clock [R "End of the Round / Winning": the most
  coins secured when the game ends wins]. No distances, nothing the heuristic derives.
* ``heuristic``: ``state`` plus the heuristic's positional terms (carried coins weighted
  by the way home, the loot and escort pulls, units ready to plunder, units in a band).

``W_TERMS . seat_terms(p)`` is the heuristic's full ``seat_score(p)`` (a test checks it),
so the ``heuristic`` set holds everything the hand-written evaluation knows but the rounds
played, which it adds once per seat (last column, ``rounds``; see :data:`MARGIN`).
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.config import P_MAX_TURNS
from crusadegym.core.jit import jit

from . import deus_lo_vult as H

SEAT_TERMS = H.SEAT_TERMS
"""Per seat: the heuristic's terms (:data:`.deus_lo_vult.SEAT_TERMS`), unweighted."""
N_SEAT_TERMS = len(SEAT_TERMS)
CLOCK_TERMS = (
    "turn",  # turns played / the turn cap
    "to_move",  # 1 if this seat moves now
    "action_points",  # action points left to the seat to move
    "quarter_coins",  # coins still in City Quarters on the board
    "loose_coins",  # coins lying on the ground
)
PROGRESS_TERMS = ("rounds",)  # rounds played (the heuristic's W_ROUND term)
FEATURE_NAMES = (
    tuple(f"own_{n}" for n in SEAT_TERMS)
    + tuple(f"rival_{n}" for n in SEAT_TERMS)
    + CLOCK_TERMS
    + PROGRESS_TERMS
)
N_FEATURES = len(FEATURE_NAMES)

W_TERMS = H.W_TERMS
"""The heuristic's weight of each seat term (its ``seat_score`` is this dot product)."""

W_MATERIAL = np.where(H.POSITIONAL, 0.0, W_TERMS)  # a rival counts only its material
MARGIN = np.concatenate([W_TERMS, -W_MATERIAL, np.zeros(len(CLOCK_TERMS)), [H.W_ROUND]]) / H.SCALE
"""``MARGIN . row`` = the heuristic's (own full score + rounds x W_ROUND - rival material)
/ SCALE for the row's seat, the argument of its ``tanh`` (2 players): a learned value may
add to it (``LearnedValue.skip``) instead of replacing it."""

_STATE_TERMS = ("secured", "carried", "on_board", "wounded", "purgatory")
_INPUTS = len(FEATURE_NAMES) - len(PROGRESS_TERMS)
FEATURE_SETS = {
    "state": tuple(
        i
        for i, n in enumerate(FEATURE_NAMES[:_INPUTS])
        if n.split("_", 1)[-1] in _STATE_TERMS or n in CLOCK_TERMS
    ),
    "heuristic": tuple(range(_INPUTS)),
}
"""Column indices of each named feature set (see the module docstring). The ``rounds``
column is no network input: it enters a learned value through :data:`MARGIN` only, so
values fitted before it (the shipped one) keep their inputs."""


seat_terms = H.seat_terms
"""``seat_terms(state, params, p, out, o)``: add seat p's :data:`SEAT_TERMS` to
``out[o:o + N_SEAT_TERMS]`` (zeroed by the caller), as the heuristic counts them."""


@jit
def features(state, params, out):
    """``out[2, N_FEATURES]``: row p = seat p's terms, its rival's (2 players: the other
    seat), then the clock (:data:`FEATURE_NAMES`). Each seat's terms are computed once."""
    out[:, :] = 0.0
    for p in range(2):
        seat_terms(state, params, p, out[p], 0)
    for p in range(2):
        for i in range(N_SEAT_TERMS):
            out[p, N_SEAT_TERMS + i] = out[1 - p, i]
    g = 2 * N_SEAT_TERMS
    quarter_coins = 0
    for s in range(T.QUARTER_SLOTS.shape[0]):
        q = state[L.BOARD + T.QUARTER_SLOTS[s]]
        if q >= T.QUARTER_TOKEN0 and state[L.TOK_SIDE + q] == 0:
            quarter_coins += state[L.TOK_COINS + q]
    loose_coins = 0
    for c in range(T.N_CELLS):
        loose_coins += state[L.GROUND + c]
    for p in range(2):
        out[p, g] = state[L.TURN] / params[P_MAX_TURNS]
        out[p, g + 1] = 1.0 if state[L.CUR] == p else 0.0
        out[p, g + 2] = state[L.AP]
        out[p, g + 3] = quarter_coins
        out[p, g + 4] = loose_coins
        out[p, g + 5] = H.rounds_played(state, params)
