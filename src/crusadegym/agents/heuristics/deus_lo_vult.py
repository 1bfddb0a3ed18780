"""Heuristic for Deus lo Vult: greedy lookahead over a hand-written evaluation.

Strategy: for every legal action of the current stage, step a clone and score the
result with :func:`evaluate`; a stage-1 selection is scored by its best stage-2
follow-up (two plies of the same seat), so "select a unit" and "do something
with it" are judged together. Ties are broken at random. One decision costs a
few hundred compiled step+evaluate calls (about a millisecond).

Evaluation terms, per seat, in "coin" units (weights in :data:`WEIGHTS`):

* secured coins (the score) -- the only thing that wins;
* carried coins, each worth less the farther its carrier is from a cell next to
  its own camp centre (where a GIVE secures it);
* for every unit that can still carry a coin: a bonus that shrinks with the
  distance to its nearest *plunder spot* (a cell from which its skull edge
  faces the coin or skull edge of a City Quarter that still holds coins); a
  Saracen standing on the spot adds steps per remaining life point, so wounding
  and killing it pays; standing on a clear spot earns a further "ready" bonus,
  since the strike itself lies beyond the two-ply lookahead; units that cannot
  plunder get a smaller bonus for staying near a quarter with coins (escorts
  keep bands mobile);
* units on the board (deployed strength) and units in a band (mobile: a lone
  unit cannot move) as small bonuses;
* wounded units and units in Purgatory (killed, including by stampede) as
  penalties.

A seat's value is ``tanh((own - best rival) / SCALE)`` in [-1, 1], where "own"
counts every term but a rival counts only its material (coins, units, wounds).
Hurting a rival's material counts as much as helping oneself, but merely blocking
a rival's path with Saracens earns nothing: with symmetric positional terms, two
greedy players end up spending every turn moving Saracens into each other's way.
The same kernel is the MCTS cutoff value.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import CELL0, STRIKE0
from crusadegym.core.deus_lo_vult.config import P_CAMP_CENTRE, P_PLAYERS
from crusadegym.core.jit import ajit, jit

from . import Heuristic

# weight of each evaluation term (a secured coin is the unit of value)
W_SECURED = 10.0
W_CARRIED = 6.0
W_CARRY_DIST = 0.25  # per step between a carrier and its camp
W_CARRIED_MIN = 2.0  # a carried coin is worth at least this, however far
W_LOOT = 1.5  # a free unit standing on a clear plunder spot; less the farther it is
W_READY = 2.0  # extra for standing on a plunder spot (the strike is two plies away)
W_ESCORT = 0.5  # a unit that cannot plunder, next to a quarter with coins
LOOT_RANGE = 24.0  # steps at which the loot and escort bonuses reach zero
BLOCK_STEPS = 6.0  # a Saracen on a plunder spot counts as this many steps per life point
BLOCK_OTHER = 8.0  # any other token on a plunder spot
BLOCK_OWN = 2.0  # an own Crusader on a plunder spot (it can step aside)
W_ON_BOARD = 0.5
W_IN_BAND = 0.3
W_WOUNDED = 0.4
W_PURGATORY = 2.5
SCALE = 20.0
WEIGHTS = {
    "secured": W_SECURED,
    "carried": W_CARRIED,
    "carry_distance": W_CARRY_DIST,
    "carried_min": W_CARRIED_MIN,
    "loot": W_LOOT,
    "ready": W_READY,
    "escort": W_ESCORT,
    "loot_range": LOOT_RANGE,
    "block_steps": BLOCK_STEPS,
    "block_other": BLOCK_OTHER,
    "block_own": BLOCK_OWN,
    "on_board": W_ON_BOARD,
    "in_band": W_IN_BAND,
    "wounded": W_WOUNDED,
    "purgatory": W_PURGATORY,
    "scale": SCALE,
}

NEIGH = T.NEIGH
SIZE = T.SIZE
ARMY_SIZE = T.ARMY_SIZE
TOKEN_KIND = T.TOKEN_KIND
TOKEN_OWNER = T.TOKEN_OWNER
KIND_EDGES = T.KIND_EDGES
KIND_CAPACITY = T.KIND_CAPACITY
QUARTER_SLOTS = T.QUARTER_SLOTS
QUARTER_TOKEN0 = T.QUARTER_TOKEN0
SARACEN_TOKEN0 = T.SARACEN_TOKEN0
ICON_S, ICON_C = T.ICON_S, T.ICON_C


@jit
def _dist(a, b):
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@jit
def _icon(state, t, absdir):
    """Icon of token t's edge pointing in absolute direction ``absdir``."""
    rel = (absdir - state[L.TOK_FACE + t] + 4) % 4
    return KIND_EDGES[TOKEN_KIND[t], state[L.TOK_SIDE + t], rel]


@jit
def _home_distance(params, p, c):
    """Steps from cell c to the nearest cell next to seat p's camp centre."""
    centre = params[P_CAMP_CENTRE + p]
    best = 99
    for d in range(4):
        n = NEIGH[centre, d]
        if n >= 0:
            best = min(best, _dist(c, n))
    return best


@jit
def _blocker_steps(state, t, spot):
    """Extra steps charged for clearing plunder spot ``spot`` before t can stand there."""
    u = state[L.BOARD + spot]
    if u < 0 or u == t:
        return 0.0
    if SARACEN_TOKEN0 <= u < QUARTER_TOKEN0:
        return BLOCK_STEPS * (2 - state[L.TOK_SIDE + u])
    if u < SARACEN_TOKEN0 and TOKEN_OWNER[u] == TOKEN_OWNER[t]:
        return BLOCK_OWN
    return BLOCK_OTHER


@jit
def _loot_distance(state, t, c):
    """Steps from cell c to the nearest plunder spot for token t, blockers included.

    A plunder spot is a cell from which t's skull edge strikes the coin or skull edge
    of a City Quarter that still holds coins. Returns LOOT_RANGE when there is none.
    """
    best = LOOT_RANGE
    for s in range(QUARTER_SLOTS.shape[0]):
        slot = QUARTER_SLOTS[s]
        q = state[L.BOARD + slot]
        if q < QUARTER_TOKEN0 or state[L.TOK_SIDE + q] != 0 or state[L.TOK_COINS + q] <= 0:
            continue
        for d in range(4):  # t stands at `spot` and strikes in direction d onto the slot
            spot = NEIGH[slot, (d + 2) % 4]
            if spot < 0 or _icon(state, t, d) != ICON_S:
                continue
            edge = _icon(state, q, (d + 2) % 4)
            if edge == ICON_C or edge == ICON_S:
                best = min(best, _dist(c, spot) + _blocker_steps(state, t, spot))
    return best


@jit
def _quarter_distance(state, c):
    """Steps from cell c to the nearest City Quarter holding coins (LOOT_RANGE if none)."""
    best = LOOT_RANGE
    for s in range(QUARTER_SLOTS.shape[0]):
        q = state[L.BOARD + QUARTER_SLOTS[s]]
        if q >= QUARTER_TOKEN0 and state[L.TOK_SIDE + q] == 0 and state[L.TOK_COINS + q] > 0:
            best = min(best, float(_dist(c, QUARTER_SLOTS[s])))
    return best


@jit
def _in_band(state, p, c):
    for d in range(4):
        n = NEIGH[c, d]
        if n >= 0:
            u = state[L.BOARD + n]
            if 0 <= u < SARACEN_TOKEN0 and TOKEN_OWNER[u] == p:
                return True
    return False


@jit
def _positional(state, p, t, loc, coins, side):
    """Progress terms of one unit: in a band, and drawn toward the loot (or escorting)."""
    score = W_IN_BAND if _in_band(state, p, loc) else 0.0
    if KIND_CAPACITY[TOKEN_KIND[t], side] > coins:
        loot = _loot_distance(state, t, loc)
        if loot < LOOT_RANGE:
            ready = W_READY if loot == 0.0 else 0.0
            return score + ready + W_LOOT * (1.0 - loot / LOOT_RANGE)
    return score + W_ESCORT * (1.0 - _quarter_distance(state, loc) / LOOT_RANGE)


@jit
def seat_score(state, params, p, positional):
    """Raw evaluation of seat p in coin units (see the module docstring).

    ``positional=False`` keeps only the material terms (coins, units, wounds).
    """
    score = W_SECURED * state[L.SCORE + p]
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        loc = state[L.TOK_LOC + t]
        if loc == L.LOC_PURGATORY:
            score -= W_PURGATORY
            continue
        if loc < 0:
            continue
        score += W_ON_BOARD
        side = state[L.TOK_SIDE + t]
        if side == 1:
            score -= W_WOUNDED
        coins = state[L.TOK_COINS + t]
        if coins > 0:
            worth = W_CARRIED - W_CARRY_DIST * _home_distance(params, p, loc)
            score += coins * max(worth, W_CARRIED_MIN)
        if positional:
            score += _positional(state, p, t, loc, coins, side)
    return score


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: tanh of (own full score - best rival material) / SCALE."""
    players = params[P_PLAYERS]
    material = np.zeros(players, np.float64)
    full = np.zeros(players, np.float64)
    for p in range(players):
        material[p] = seat_score(state, params, p, False)
        full[p] = seat_score(state, params, p, True)
    versus_best_rival(material, full, out)


@jit
def versus_best_rival(material, full, out):
    """out[p] = tanh((full[p] - the best rival's material) / SCALE), for every seat."""
    players = material.shape[0]
    for p in range(players):
        rival = -np.inf
        for q in range(players):
            if q != p and material[q] > rival:
                rival = material[q]
        out[p] = np.tanh((full[p] - rival) / SCALE)


@jit
def extend(state, params, out):
    """Stage 1 (nothing selected, not the Saracen pick): CELL ids get a second ply."""
    out[:] = 0
    if state[L.SEL] < 0 and state[L.PHASE] != L.PH_PICK:
        out[CELL0:STRIKE0] = 1


HEURISTIC = Heuristic(
    game="deus_lo_vult",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate,
    extend=extend,
    # values move in steps of ~0.002: small exploration, evaluation at the leaf, and a
    # strong pull toward the greedy lookahead (plain search is too defensive; see docs)
    mcts_defaults={"iterations": 100, "c_uct": 0.005, "rollout_depth": 0, "prior_visits": 20.0},
)
