"""Per-seat observation of a Deus lo Vult state, from the viewer's perspective.

Seats are numbered relative to the viewer (0 = me, 1 = next to play after me, ...)
and a one-hot scalar names the viewer's own camp corner. The board itself is NOT
rotated: action ids name absolute cells, so the observation uses the same absolute
frame (a rotated view would give two seats the same picture for different actions).
Nothing is hidden in the Duel: the quarter stack order and the Saracen bag are
never shown (nobody sees them).

Layout: ``N_PLANES`` planes of 12x12 (plane-major), then ``N_SCALARS`` scalars.
Every entry lies in [0, 1] (counts are divided by their maximum and clipped).
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .config import P_CAMP_CENTRE, P_CAMP_OWNER, P_MAX_TURNS, P_PLAYERS, P_SEAT_CORNER
from .layout import (
    AP,
    BOARD,
    GROUND,
    LAST_PLUNDER,
    PH_ARMY,
    PH_DEPLOY,
    PH_PICK,
    PH_SARACEN,
    PHASE,
    PURG,
    QNEXT,
    ROUND,
    ROUND_LEFT,
    SCORE,
    SEL,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
    TURN,
)
from .rules import army_points_used

# plane indices
PL_SEAT = 0  # 4: Crusader of relative seat r
PL_SARACEN = 4
PL_QUARTER = 5
PL_REFUGEE = 6
PL_WEAK = 7
PL_EDGE = 8  # 28: edge toward direction d has icon i -> 8 + 7*d + i
PL_CKIND = PL_EDGE + 4 * T.N_ICONS  # 6 Crusader kinds
PL_SKIND = PL_CKIND + T.N_CRUSADER_KINDS  # 8 Saracen kinds
PL_CARRIED = PL_SKIND + T.N_SARACEN_KINDS
PL_QCOINS = PL_CARRIED + 1
PL_GROUND = PL_QCOINS + 1
PL_MOVED = PL_GROUND + 1
PL_SELECTED = PL_MOVED + 1
PL_CAMP = PL_SELECTED + 1  # 4: camp ring of relative seat r
PL_CENTRE = PL_CAMP + 4
PL_SARACEN_CELL = PL_CENTRE + 1
PL_SLOT = PL_SARACEN_CELL + 1
N_PLANES = PL_SLOT + 1

# scalar indices (after the planes)
SC_AP = 0
SC_PHASE = 1  # 4 one-hot: pick, deploy, army, saracen
SC_SELECTING = 5
SC_ROUND = 6  # 3 one-hot
SC_TURN = 9
SC_SCORE = 10  # 4 relative seats, /36
SC_RESERVE = 14  # 6 kinds in my reserve, /count
SC_ARMY_PTS = 20  # 4 relative seats, /13
SC_PURG = 24  # 4 relative seats + Saracens, /9
SC_ROUND_LEFT = 29
SC_STACK = 30
SC_LAST = 31  # 5: none + relative seat
SC_ACTIVE = 36  # 4 relative seats present
SC_CORNER = 40  # 4: one-hot of the viewer's camp corner (NW, NE, SE, SW)
N_SCALARS = 44
OBS_SIZE = N_PLANES * T.N_CELLS + N_SCALARS


TOKEN_KIND = T.TOKEN_KIND
TOKEN_OWNER = T.TOKEN_OWNER
KIND_EDGES = T.KIND_EDGES
SARACEN_CELLS = T.SARACEN_CELLS
QUARTER_SLOTS = T.QUARTER_SLOTS
NC = T.N_CELLS


@jit
def observe(state, params, player, out):
    """Fill ``out`` (float32[OBS_SIZE]) with seat ``player``'s view of the state."""
    out[:] = 0.0
    players = params[P_PLAYERS]
    for c in range(NC):
        v = c
        o = params[P_CAMP_OWNER + c]
        if o >= 0:
            if params[P_CAMP_CENTRE + o] == c:
                out[PL_CENTRE * NC + v] = 1.0
            else:
                out[(PL_CAMP + (o - player + players) % players) * NC + v] = 1.0
        out[PL_GROUND * NC + v] = min(state[GROUND + c], 4) / 4.0
        t = state[BOARD + c]
        if t < 0:
            continue
        owner = TOKEN_OWNER[t]
        kind = TOKEN_KIND[t]
        side = state[TOK_SIDE + t]
        if owner < 4:
            out[(PL_SEAT + (owner - player + players) % players) * NC + v] = 1.0
            if kind < T.N_CRUSADER_KINDS:  # Campaign units: planes of campaign/observe.py
                out[(PL_CKIND + kind) * NC + v] = 1.0
            out[PL_CARRIED * NC + v] = state[TOK_COINS + t] / 4.0
        elif owner == T.OWNER_SARACEN:
            out[PL_SARACEN * NC + v] = 1.0
            out[(PL_SKIND + kind - T.KIND_SARACEN0) * NC + v] = 1.0
        elif owner == T.OWNER_AMENITY:
            continue  # Campaign Field Amenities: planes of campaign/observe.py
        elif side == 0:
            out[PL_QUARTER * NC + v] = 1.0
            out[PL_QCOINS * NC + v] = state[TOK_COINS + t] / 4.0
        else:
            out[PL_REFUGEE * NC + v] = 1.0
        if owner != T.OWNER_QUARTER and side == 1:
            out[PL_WEAK * NC + v] = 1.0
        out[PL_MOVED * NC + v] = state[TOK_MOVED + t]
        face = state[TOK_FACE + t]
        for rel in range(4):
            d = (face + rel) % 4
            icon = KIND_EDGES[kind, side, rel]
            out[(PL_EDGE + T.N_ICONS * d + icon) * NC + v] = 1.0
    for i in range(SARACEN_CELLS.shape[0]):
        out[PL_SARACEN_CELL * NC + SARACEN_CELLS[i]] = 1.0
    for i in range(4):
        out[PL_SLOT * NC + QUARTER_SLOTS[i]] = 1.0
    sel = state[SEL]
    if sel >= 0:
        out[PL_SELECTED * NC + sel] = 1.0
    _scalars(state, params, player, out, N_PLANES * NC)


@jit
def _scalars(state, params, player, out, o):
    players = params[P_PLAYERS]
    out[o + SC_AP] = state[AP] / T.ACTION_POINTS
    phase = state[PHASE]
    if phase == PH_PICK:
        out[o + SC_PHASE] = 1.0
    elif phase == PH_DEPLOY:
        out[o + SC_PHASE + 1] = 1.0
    elif phase == PH_ARMY:
        out[o + SC_PHASE + 2] = 1.0
    elif phase == PH_SARACEN:
        out[o + SC_PHASE + 3] = 1.0
    out[o + SC_SELECTING] = 1.0 if state[SEL] >= 0 else 0.0
    out[o + SC_ROUND + min(state[ROUND], 2)] = 1.0
    out[o + SC_TURN] = state[TURN] / params[P_MAX_TURNS]
    for p in range(players):
        r = (p - player + players) % players
        out[o + SC_SCORE + r] = state[SCORE + p] / T.TOTAL_COINS
        out[o + SC_ARMY_PTS + r] = army_points_used(state, p) / T.ARMY_POINT_CAP
        out[o + SC_ACTIVE + r] = 1.0
    out[o + SC_CORNER + params[P_SEAT_CORNER + player]] = 1.0
    base = player * T.ARMY_SIZE
    for t in range(base, base + T.ARMY_SIZE):
        if state[TOK_LOC + t] == -1:
            kind = TOKEN_KIND[t]
            out[o + SC_RESERVE + kind] += 1.0 / T.KIND_COUNT[kind]
    for i in range(T.PURGATORY_SLOTS):
        t = state[PURG + i]
        if t < 0:
            continue
        owner = TOKEN_OWNER[t]
        slot = 4 if owner >= 4 else (owner - player + players) % players
        out[o + SC_PURG + slot] += 1.0 / T.PURGATORY_SLOTS
    out[o + SC_ROUND_LEFT] = min(state[ROUND_LEFT], 16) / 16.0
    out[o + SC_STACK] = (T.N_QUARTERS - state[QNEXT]) / T.N_QUARTERS
    lp = state[LAST_PLUNDER]
    out[o + SC_LAST + (0 if lp < 0 else 1 + (lp - player + players) % players)] = 1.0
