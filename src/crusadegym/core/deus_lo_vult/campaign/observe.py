"""A seat's view of a Campaign: the Duel's observation, then the Campaign's.

Layout after the Duel's ``OBS_SIZE`` entries: one 12x12 plane per Campaign token kind
(War Engines, Hero tokens, Field Amenities; Campaign units of relative seat r are
also marked in the Duel's seat planes), then ``layout.N_CSCALARS`` scalars, each module
writing its own range (``layout.OS_*``): Battle number, Glory, coins carried, ...
Everything stays in [0, 1]. A module with hidden cards (Deeds, Weather hands) writes
only what ``player`` may see.
"""

from __future__ import annotations

from ...jit import jit
from .. import tables as T
from ..config import P_PLAYERS
from ..layout import BOARD
from ..observe import OBS_SIZE as DUEL_OBS_SIZE
from ..observe import observe as duel_observe
from . import battle as B
from . import deeds, field, gauntlets, river, units, weather
from .config import P_COINS_PER_GLORY, P_GLORY_TARGET, P_MAX_BATTLES
from .layout import (
    N_CPLANES,
    N_CSCALARS,
    OS_BATTLE,
    OS_DEEDS,
    OS_FIELD,
    OS_RIVER,
    OS_UNITS,
    OS_WEATHER,
)

NC = T.N_CELLS
CPLANES0 = DUEL_OBS_SIZE
CSCALARS0 = CPLANES0 + N_CPLANES * NC
OBS_SIZE = CSCALARS0 + N_CSCALARS
GLORY_SCALE = 20.0  # Glory is shown as min(glory / scale, 1) without a Glory target

# battle scalars (offsets inside OS_BATTLE)
SB_BATTLE = 0  # Battles finished / max_battles
SB_GLORY = 1  # [4] Glory per relative seat
SB_LAST_GLORY = 5  # [4]
SB_CARRY = 9  # [4] coins carried, / coins per Glory
SB_GAUNTLET = 13  # gauntlets.observe's scalars (gauntlets.N_OBS)


@jit
def observe(state, params, player, out):
    """Fill ``out`` (float32[OBS_SIZE]) with seat ``player``'s view of the Campaign."""
    duel_observe(state, params, player, out[:DUEL_OBS_SIZE])
    out[DUEL_OBS_SIZE:] = 0.0
    for c in range(NC):
        t = state[BOARD + c]
        if t >= 0 and T.TOKEN_KIND[t] >= T.KIND_CAMPAIGN0:
            out[CPLANES0 + (T.TOKEN_KIND[t] - T.KIND_CAMPAIGN0) * NC + c] = 1.0
    battle_scalars(state, params, player, out, CSCALARS0 + OS_BATTLE)
    if gauntlets.on(params):
        gauntlets.observe(state, params, player, out, CSCALARS0 + OS_BATTLE + SB_GAUNTLET)
    if deeds.on(params):
        deeds.observe(state, params, player, out, CSCALARS0 + OS_DEEDS)
    if units.any_on(params):
        units.observe(state, params, player, out, CSCALARS0 + OS_UNITS)
    weather.observe(state, params, player, out, CSCALARS0 + OS_WEATHER)
    river.observe(state, params, player, out, CSCALARS0 + OS_RIVER)
    if field.any_on(params):
        field.observe(state, params, player, out, CSCALARS0 + OS_FIELD)


@jit
def battle_scalars(state, params, player, out, o):
    players = params[P_PLAYERS]
    out[o + SB_BATTLE] = min(state[B.C_BATTLE] / params[P_MAX_BATTLES], 1.0)
    target = params[P_GLORY_TARGET]
    scale = target if target > 0 else GLORY_SCALE
    rate = params[P_COINS_PER_GLORY]
    for p in range(players):
        r = (p - player + players) % players
        out[o + SB_GLORY + r] = min(state[B.C_GLORY + p] / scale, 1.0)
        out[o + SB_LAST_GLORY + r] = min(state[B.C_LAST_GLORY + p] / scale, 1.0)
        out[o + SB_CARRY + r] = min(state[B.C_CARRY + p] / rate, 1.0)
