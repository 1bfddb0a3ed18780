"""Token predicates and lookups shared by every Deus lo Vult rule family.

Which token a cell holds, whose it is, what edge it shows in a direction, how many
coins it can still carry, whose camp a cell belongs to [R "Game Board Explanation",
"Unit Anatomy", "Carrying and Stealing Coins", "Unit Types / Army Points"].
"""

from __future__ import annotations

import numpy as np

from ..jit import jit
from . import tables as T
from .config import P_CAMP_CENTRE, P_CAMP_OWNER
from .layout import (
    BOARD,
    LOC_PURGATORY,
    LOC_RESERVE,
    TOK_FACE,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
)

NEIGH = T.NEIGH
TOKEN_KIND = T.TOKEN_KIND
TOKEN_OWNER = T.TOKEN_OWNER
KIND_EDGES = T.KIND_EDGES
KIND_COST = T.KIND_COST
KIND_CAPACITY = T.KIND_CAPACITY
KIND_IN_DUEL = T.KIND_IN_DUEL
SARACEN_CELLS = T.SARACEN_CELLS
N_SARACEN_CELLS = T.N_SARACEN_CELLS
SARACEN_DIRS = T.SARACEN_DIRS
N_CELLS = T.N_CELLS
N_TOKENS = T.N_TOKENS
SARACEN_TOKEN0 = T.SARACEN_TOKEN0
QUARTER_TOKEN0 = T.QUARTER_TOKEN0
ARMY_SIZE = T.ARMY_SIZE
CAMPAIGN_UNIT0 = T.CAMPAIGN_UNIT0
CAMPAIGN_ARMY_SIZE = T.CAMPAIGN_ARMY_SIZE
AMENITY_TOKEN0 = T.AMENITY_TOKEN0
NO_SEAT = -1
STRONG = 0  # the strong side of a token (side 1 is the weak side)


def _saracen_cell_dirs():
    out = np.full(N_CELLS, -1, np.int64)
    out[SARACEN_CELLS] = SARACEN_DIRS
    return out


CELL_SARACEN_DIR = _saracen_cell_dirs()
"""Per cell: the "moon" direction of a green Saracen camp cell, -1 elsewhere."""

CAMP_RING = np.array(
    [dr * T.SIZE + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc], np.int64
)
"""Cell offsets of a camp's ring from its centre: a camp is the 3x3 square around its
centre cell (``config.params``: ``P_CAMP_OWNER``, ``P_CAMP_CENTRE``), in a board corner."""


@jit
def is_crusader(t):
    """A seat's unit: its 20 Duel tokens, or its Campaign-only War Engines and Heroes."""
    return 0 <= t < SARACEN_TOKEN0 or CAMPAIGN_UNIT0 <= t < AMENITY_TOKEN0


@jit
def is_saracen(t):
    return SARACEN_TOKEN0 <= t < QUARTER_TOKEN0


@jit
def is_city_token(t):
    """A City Quarter token, on either side (quarter or Refugee)."""
    return QUARTER_TOKEN0 <= t < CAMPAIGN_UNIT0


@jit
def is_quarter(state, t):
    """A City Quarter still on its quarter side (a city token on side 0)."""
    return QUARTER_TOKEN0 <= t < CAMPAIGN_UNIT0 and state[TOK_SIDE + t] == 0


@jit
def is_refugee(state, t):
    return QUARTER_TOKEN0 <= t < CAMPAIGN_UNIT0 and state[TOK_SIDE + t] == 1


@jit
def is_amenity(t):
    """A Campaign Field Amenity token [R Part 2 "Field Amenities"] (never in a Duel)."""
    return t >= AMENITY_TOKEN0


@jit
def campaign_units(p):
    """First token id of seat p's Campaign-only units (War Engines, Heroes)."""
    return CAMPAIGN_UNIT0 + p * CAMPAIGN_ARMY_SIZE


@jit
def is_green_cell(c):
    """A green Saracen camp cell [R "Green squares are the Saracen camps"]."""
    return CELL_SARACEN_DIR[c] >= 0


@jit
def edge_icon(state, t, absdir):
    """Icon on the edge of token ``t`` that points in absolute direction ``absdir``."""
    rel = (absdir - state[TOK_FACE + t] + 4) % 4
    return KIND_EDGES[TOKEN_KIND[t], state[TOK_SIDE + t], rel]


@jit
def camp_owner(params, c):
    return params[P_CAMP_OWNER + c]


@jit
def is_camp_centre(params, c):
    o = params[P_CAMP_OWNER + c]
    return o >= 0 and params[P_CAMP_CENTRE + o] == c


@jit
def is_rival_camp(params, t, c):
    """Is cell c in a camp that is a rival camp for token t [R "Unfriendly units ... rival
    camps"]? For a Crusader: another seat's camp; for a Saracen: any Crusader camp. The
    green Saracen camps are not counted (see docs/rules: nothing can be stolen there)."""
    o = camp_owner(params, c)
    if o < 0:
        return False
    if is_crusader(t):
        return o != TOKEN_OWNER[t]
    return is_saracen(t)


@jit
def army_points_used(state, p):
    """Army Points of seat p on the board, in camp or in Purgatory [R "Unit Types"]."""
    total = 0
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        loc = state[TOK_LOC + t]
        if loc >= 0 or loc == LOC_PURGATORY:
            total += KIND_COST[TOKEN_KIND[t]]
    u0 = campaign_units(p)  # War Engines and Heroes: off the board in every Duel
    for t in range(u0, u0 + CAMPAIGN_ARMY_SIZE):
        loc = state[TOK_LOC + t]
        if loc >= 0 or loc == LOC_PURGATORY:
            total += KIND_COST[TOKEN_KIND[t]]
    return total


@jit
def saracens_on_board(state):
    n = 0
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if state[TOK_LOC + t] >= 0:
            n += 1
    return n


@jit
def bag_count(state):
    """Saracens in the bag (the S space) [R "S is for placing unused Saracen tokens"]."""
    n = 0
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if state[TOK_LOC + t] == LOC_RESERVE:
            n += 1
    return n


@jit
def saracen_in_bag(state, kind):
    """Lowest-id Saracen of ``kind`` in the bag, or -1."""
    for t in range(SARACEN_TOKEN0, QUARTER_TOKEN0):
        if TOKEN_KIND[t] == kind and state[TOK_LOC + t] == LOC_RESERVE:
            return t
    return -1


@jit
def place_token(state, t, c, face):
    """Put token t on cell c, strong side up, facing ``face``."""
    state[TOK_LOC + t] = c
    state[BOARD + c] = t
    state[TOK_FACE + t] = face
    state[TOK_SIDE + t] = STRONG
    state[TOK_MOVED + t] = 0
