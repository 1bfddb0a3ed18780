"""The map: regions, control, placement geometry and barbarian-village attacks.

Rulebook sections: "Build a Building" step 4 (placement) and "Attacking a Barbarian
Village". Kernels only; the Game front checks input.
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .config import P_EDGE, P_ON_BOARD, P_PLAYERS
from .layout import ATTACKED, FIRST, OWNER, PIECES, TEMPLE_BIT, TERRAIN, VILLAGE_VP, VP, player

NEIGH = T.NEIGH
HEX_DIST = T.HEX_DIST
MILITARY_BIT = 1 << T.MILITARY


@jit
def on_board(params, r):
    return r >= 0 and params[P_ON_BOARD + r] != 0


@jit
def is_edge(params, r):
    return params[P_EDGE + r] != 0


@jit
def popcount(x):
    """Set bits of a non-negative word (0 for a negative one, which no sound state holds:
    the invariant checks flag it; a right shift never empties a negative number)."""
    n = 0
    while x > 0:
        n += x & 1
        x >>= 1
    return n


@jit
def n_buildings(state, r):
    """Buildings in region r; a temple counts as a building [R temples, research §3A'.4]."""
    return popcount(state[PIECES + r])


@jit
def owns(state, seat, r):
    return state[OWNER + r] == seat


@jit
def is_village(state, r):
    return state[TERRAIN + r] == T.VILLAGE


@jit
def has_army(state, r):
    return (state[PIECES + r] & MILITARY_BIT) != 0


@jit
def army_next_to(state, params, seat, r):
    """True if ``seat`` has an army in a region adjacent to r."""
    for k in range(6):
        n = NEIGH[r, k]
        if on_board(params, n) and state[OWNER + n] == seat and has_army(state, n):
            return True
    return False


@jit
def first_region_ok(state, params, seat, r, spacing):
    """An edge region at hex distance >= 3 from every rival's first building [R A.4]."""
    if not is_edge(params, r):
        return False
    if spacing:
        players = params[P_PLAYERS]
        for q in range(players):
            f = state[player(q) + FIRST]
            if q != seat and f >= 0 and HEX_DIST[r, f] < T.FIRST_SPACING:
                return False
    return True


@jit
def terrain_fits(state, r, ptype):
    """Ships only at sea, every other type only on land; never a village [R A.4]."""
    t = state[TERRAIN + r]
    if t == T.VILLAGE:
        return False
    return (t == T.SEA) == (ptype == T.MARITIME)


@jit
def adjacent_to_own(state, params, seat, r):
    for k in range(6):
        n = NEIGH[r, k]
        if on_board(params, n) and state[OWNER + n] == seat:
            return True
    return False


@ajit
def attack_villages(state, params):
    """Resolve every barbarian village whose neighbours are all occupied [R "Attacking"].

    Condition: every on-board adjacent region is occupied (any player, any piece) and
    at least one army stands in them. Winner: most armies; tie -> most buildings in
    those regions; still tied -> the VP are split among the tied, rounded down (the
    remainder stays with the barbarians and is lost: our reading). Returns how many
    villages were attacked.
    """
    players = params[P_PLAYERS]
    attacked = 0
    armies = np.zeros(T.MAX_PLAYERS, np.int64)
    builds = np.zeros(T.MAX_PLAYERS, np.int64)
    for v in range(T.N_REGIONS):
        if not on_board(params, v) or state[TERRAIN + v] != T.VILLAGE or state[ATTACKED + v]:
            continue
        full = True
        any_army = False
        armies[:] = 0
        builds[:] = 0
        for k in range(6):
            n = NEIGH[v, k]
            if not on_board(params, n):
                continue
            o = state[OWNER + n]
            if o < 0:
                full = False
                break
            if has_army(state, n):
                any_army = True
                armies[o] += 1
            builds[o] += n_buildings(state, n)
        if not full or not any_army:
            continue
        best = 0
        for p in range(players):
            best = max(best, armies[p])
        best_b = 0
        for p in range(players):
            if armies[p] == best:
                best_b = max(best_b, builds[p])
        n_win = 0
        for p in range(players):
            if armies[p] == best and builds[p] == best_b:
                n_win += 1
        share = state[VILLAGE_VP + v] // n_win
        for p in range(players):
            if armies[p] == best and builds[p] == best_b:
                state[player(p) + VP] += share
        state[VILLAGE_VP + v] = 0
        state[ATTACKED + v] = 1
        attacked += 1
    return attacked


@jit
def all_villages_attacked(state, params):
    for v in range(T.N_REGIONS):
        if on_board(params, v) and state[TERRAIN + v] == T.VILLAGE and not state[ATTACKED + v]:
            return False
    return True


@jit
def temple_in(state, r):
    return (state[PIECES + r] & TEMPLE_BIT) != 0
