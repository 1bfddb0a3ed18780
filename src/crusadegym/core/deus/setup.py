"""Setup [R "Preparation (Setup)" 1-7]: the board, the supply, the players, the cards."""

from __future__ import annotations

import numpy as np

from .. import rng
from ..jit import ajit, jit
from . import tables as T
from .board import on_board
from .cards import deal_start
from .config import P_PLAYERS, P_TILES
from .layout import (
    ACT_COLOUR,
    ACT_POS,
    ATTACKED,
    CUR,
    EFF_SEL,
    FIRST,
    GOLD,
    IN_SUPPLY,
    ON_BOARD,
    OWNER,
    PEND_CARD,
    PEND_REGION,
    PH_MAIN,
    PHASE,
    PIECES,
    RES,
    RNG,
    SUPPLY,
    TEMPLES_LEFT,
    TERRAIN,
    VILLAGE_VP,
    VP,
    player,
)

MAX_BOARD_TRIES = 10_000


@ajit
def _lay_tiles(state, params):
    """Random tiles, sides and rotations; False if two villages touch [R setup 1]."""
    n_tiles = params[P_TILES]
    order = np.arange(T.N_PHYSICAL_TILES)
    rng.shuffle(state, RNG, order, T.N_PHYSICAL_TILES)
    for slot in range(T.N_TILE_SLOTS):
        for pos in range(T.REGIONS_PER_TILE):
            state[TERRAIN + slot * 7 + pos] = -1
    for slot in range(n_tiles):
        face = 2 * order[slot] + rng.randint(state, RNG, 2)
        rot = rng.randint(state, RNG, 6)
        state[TERRAIN + slot * 7] = T.TILE_FACES[face, 0]
        for k in range(6):
            state[TERRAIN + slot * 7 + 1 + (k + rot) % 6] = T.TILE_FACES[face, 1 + k]
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[TERRAIN + r] == T.VILLAGE:
            for k in range(6):
                n = T.NEIGH[r, k]
                if on_board(params, n) and state[TERRAIN + n] == T.VILLAGE:
                    return False
    return True


@jit
def init(state, params, seed):
    """A fresh game from ``seed`` [R setup 1-7]; the first player is seat 0."""
    state[:] = 0
    rng.seed(state, RNG, seed)
    for _ in range(MAX_BOARD_TRIES):
        if _lay_tiles(state, params):
            break
    for r in range(T.N_REGIONS):
        state[OWNER + r] = -1
        state[PIECES + r] = 0
        state[ATTACKED + r] = 0
        state[VILLAGE_VP + r] = 0
        if on_board(params, r) and state[TERRAIN + r] == T.VILLAGE:
            n = 0
            for k in range(6):
                if on_board(params, T.NEIGH[r, k]):
                    n += 1
            state[VILLAGE_VP + r] = n  # [R setup 2] VP = adjacent regions
    players = params[P_PLAYERS]
    state[TEMPLES_LEFT] = params[P_TILES]  # [R setup 3]
    for k in range(T.N_RESOURCES):
        state[SUPPLY + k] = (T.RESOURCE_PER_PLAYER - 1) * players  # 1 each went to players
    for p in range(players):
        pb = player(p)
        state[pb + GOLD] = T.START_GOLD
        state[pb + VP] = T.START_VP
        state[pb + FIRST] = -1
        for k in range(T.N_RESOURCES):
            state[pb + RES + k] = 1
        for t in range(T.N_TYPES):
            state[pb + ON_BOARD + t] = T.START_ON_BOARD
            state[pb + IN_SUPPLY + t] = T.PIECES_PER_TYPE - T.START_ON_BOARD
    deal_start(state, params)
    state[CUR] = 0
    state[PHASE] = PH_MAIN
    state[PEND_CARD] = -1
    state[PEND_REGION] = -1
    state[EFF_SEL] = -1
    state[ACT_COLOUR] = -1
    state[ACT_POS] = 0
