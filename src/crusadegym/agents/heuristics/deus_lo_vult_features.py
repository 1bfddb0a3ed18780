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
so the ``heuristic`` set holds everything the hand-written evaluation knows.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.config import P_MAX_TURNS
from crusadegym.core.jit import jit

from . import deus_lo_vult as H

SEAT_TERMS = (
    "secured",  # coins in the seat's score
    "carried",  # coins its units carry
    "on_board",  # its units on the board
    "wounded",  # of those, on their weak side
    "purgatory",  # its units in Purgatory
    "carried_home",  # carried coins, each worth less the farther from home (heuristic)
    "loot",  # sum over free units of 1 - (steps to a plunder spot) / LOOT_RANGE
    "ready",  # free units standing on a clear plunder spot
    "escort",  # sum over other units of 1 - (steps to a quarter with coins) / LOOT_RANGE
    "in_band",  # units with a friendly neighbour
)
N_SEAT_TERMS = len(SEAT_TERMS)
CLOCK_TERMS = (
    "turn",  # turns played / the turn cap
    "to_move",  # 1 if this seat moves now
    "action_points",  # action points left to the seat to move
    "quarter_coins",  # coins still in City Quarters on the board
    "loose_coins",  # coins lying on the ground
)
FEATURE_NAMES = (
    tuple(f"own_{n}" for n in SEAT_TERMS) + tuple(f"rival_{n}" for n in SEAT_TERMS) + CLOCK_TERMS
)
N_FEATURES = len(FEATURE_NAMES)

W_TERMS = np.array(
    [H.W_SECURED, 0.0, H.W_ON_BOARD, -H.W_WOUNDED, -H.W_PURGATORY, H.W_CARRIED, H.W_LOOT,
     H.W_READY, H.W_ESCORT, H.W_IN_BAND],
    np.float64,
)  # fmt: skip
"""The heuristic's weight of each seat term (its ``seat_score`` is this dot product)."""

_POSITIONAL = ("loot", "ready", "escort", "in_band")  # not counted for a rival
W_MATERIAL = np.array(
    [0.0 if n in _POSITIONAL else w for n, w in zip(SEAT_TERMS, W_TERMS, strict=True)]
)
MARGIN = np.concatenate([W_TERMS, -W_MATERIAL, np.zeros(len(CLOCK_TERMS))]) / H.SCALE
"""``MARGIN . row`` = the heuristic's (own full score - rival material) / SCALE for the row's
seat, the argument of its ``tanh`` (2 players): a learned value may add to it
(``LearnedValue.skip``) instead of replacing it."""

_STATE_TERMS = ("secured", "carried", "on_board", "wounded", "purgatory")
FEATURE_SETS = {
    "state": tuple(
        i
        for i, n in enumerate(FEATURE_NAMES)
        if n.split("_", 1)[-1] in _STATE_TERMS or n in CLOCK_TERMS
    ),
    "heuristic": tuple(range(N_FEATURES)),
}
"""Column indices of each named feature set (see the module docstring)."""


@jit
def seat_terms(state, params, p, out, o):
    """Add seat p's :data:`SEAT_TERMS` to ``out[o:o + N_SEAT_TERMS]`` (zeroed by the caller),
    term by term as the heuristic's ``seat_score`` counts them."""
    out[o + 0] += state[L.SCORE + p]
    for t in range(p * T.ARMY_SIZE, (p + 1) * T.ARMY_SIZE):
        loc = state[L.TOK_LOC + t]
        if loc == L.LOC_PURGATORY:
            out[o + 4] += 1.0
            continue
        if loc < 0:
            continue
        out[o + 2] += 1.0
        side = state[L.TOK_SIDE + t]
        out[o + 3] += side
        coins = state[L.TOK_COINS + t]
        if coins > 0:
            out[o + 1] += coins
            worth = H.W_CARRIED - H.W_CARRY_DIST * H._home_distance(params, p, loc)
            out[o + 5] += coins * max(worth, H.W_CARRIED_MIN) / H.W_CARRIED
        if H._in_band(state, p, loc):
            out[o + 9] += 1.0
        if T.KIND_CAPACITY[T.TOKEN_KIND[t], side] > coins:
            loot = H._loot_distance(state, t, loc)
            if loot < H.LOOT_RANGE:
                out[o + 6] += 1.0 - loot / H.LOOT_RANGE
                if loot == 0.0:
                    out[o + 7] += 1.0
                continue
        out[o + 8] += 1.0 - H._quarter_distance(state, loc) / H.LOOT_RANGE


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
