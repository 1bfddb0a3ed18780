"""Influence: the base action [C] and the expansion's influence tiles [R "Influence"].

Base: "gain X + influence bonuses" [C]. Expansion: "Collect the Influence tile costing
X or less from a region on the board occupied by one of your knights (an Enemy token
there is allowed); collect Influence points equal to the level of the tile; place one
of your Coat-of-Arms markers in the region" [R]. One tile per action [I].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import adjacent, base, gain, knight_in
from .layout import (
    PENDING_DIST,
    PL_COATS,
    PL_KNIGHT,
    PL_NEND,
    PL_NTILES,
    PL_ONCE,
    PL_ORDER,
    PL_PERM,
    R_COAT,
    R_INF,
    STRENGTH,
)


@jit
def in_reach(state, params, p, r):
    """A knight of p in r, or (Bailiwick of Brandenburg [R]) one region away."""
    if knight_in(state, p, r):
        return True
    o = state[base(p) + PL_ORDER]
    if o < 0 or T.ORDER_REACH[o] == 0:
        return False
    for k in range(T.N_KNIGHTS):
        src = state[base(p) + PL_KNIGHT + k]
        if src >= 0 and adjacent(params, src, r):
            return True
    return False


@jit
def can_collect(state, params, p, r):
    t = state[R_INF + r]
    if t < 0 or T.INF_TILES[t, 1] > state[STRENGTH]:
        return False
    return in_reach(state, params, p, r)


@jit
def any_collect(state, params, p):
    for r in range(T.N_REGIONS):
        if can_collect(state, params, p, r):
            return True
    return False


@jit
def collect(state, params, p, r):
    """Take the tile of region r [R]; returns its kind (the caller resolves an upgrade)."""
    b = base(p)
    t = state[R_INF + r]
    state[R_INF + r] = -1
    kind = T.INF_TILES[t, 0]
    a = T.INF_TILES[t, 2]
    state[b + PL_NTILES] += 1
    if kind == T.TILE_ONCE:
        state[b + PL_ONCE + a] += 1
    elif kind == T.TILE_PERMANENT:
        state[b + PL_PERM + a] += 1
    elif kind == T.TILE_ENDGAME:
        state[b + PL_NEND] += 1
    elif kind == T.TILE_DISTRIBUTE:
        state[PENDING_DIST] += 1
    gain(state, p, T.INF_TILES[t, 3])
    if state[b + PL_COATS] > 0:
        state[b + PL_COATS] -= 1
        state[R_COAT + r] = p
    return kind
