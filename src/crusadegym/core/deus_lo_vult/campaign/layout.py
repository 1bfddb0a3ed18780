"""The Campaign block of the state, the Campaign params, and the Campaign action ids.

A Campaign state is a Duel state (``..layout``, ``STATE_SIZE`` slots) followed by one
block per rule module, each module owning its slots (offsets inside its block are the
module's own named constants). A Campaign's params are the Duel's (``..config``,
``N_PARAMS`` slots, ``P_CAMPAIGN`` = 1) followed by one block per module. Campaign
action ids follow the Duel's 175, one range per module::

    state   | Duel 0..STATE_SIZE | BATTLE | WEATHER | RIVER | FIELD | UNITS | DEEDS |
    params  | Duel 0..N_PARAMS   | BATTLE | WEATHER | RIVER | FIELD | UNITS | DEEDS |
    actions | Duel 0..174 | BATTLE | WEATHER | RIVER | FIELD | UNITS | DEEDS |
"""

from __future__ import annotations

from .. import tables as T
from ..actions import N_ACTIONS as N_DUEL_ACTIONS
from ..config import N_PARAMS as N_DUEL_PARAMS
from ..layout import STATE_SIZE as DUEL_STATE_SIZE

# ------------------------------------------------------------------ state blocks
CB_BATTLE = DUEL_STATE_SIZE  # battles, glory, carry-over, gauntlets (battle.py, gauntlets.py)
CB_BATTLE_SIZE = 192
CB_WEATHER = CB_BATTLE + CB_BATTLE_SIZE
CB_WEATHER_SIZE = 32
CB_RIVER = CB_WEATHER + CB_WEATHER_SIZE
CB_RIVER_SIZE = 64
CB_FIELD = CB_RIVER + CB_RIVER_SIZE
CB_FIELD_SIZE = 64 + T.N_TOKENS  # scalars, then one flag word per token
CB_UNITS = CB_FIELD + CB_FIELD_SIZE
CB_UNITS_SIZE = 96
CB_DEEDS = CB_UNITS + CB_UNITS_SIZE
CB_DEEDS_SIZE = 64
CAMPAIGN_STATE_SIZE = CB_DEEDS + CB_DEEDS_SIZE

# ------------------------------------------------------------------ params blocks
PB_BATTLE = N_DUEL_PARAMS
PB_BATTLE_SIZE = 32
PB_WEATHER = PB_BATTLE + PB_BATTLE_SIZE
PB_WEATHER_SIZE = 16
PB_RIVER = PB_WEATHER + PB_WEATHER_SIZE
PB_RIVER_SIZE = 16
PB_FIELD = PB_RIVER + PB_RIVER_SIZE
PB_FIELD_SIZE = 16
PB_UNITS = PB_FIELD + PB_FIELD_SIZE
PB_UNITS_SIZE = 32
PB_DEEDS = PB_UNITS + PB_UNITS_SIZE
PB_DEEDS_SIZE = 16
N_CAMPAIGN_PARAMS = PB_DEEDS + PB_DEEDS_SIZE

# ------------------------------------------------------------------ action ranges
A_BATTLE = N_DUEL_ACTIONS  # 175
A_BATTLE_SIZE = 16
A_WEATHER = A_BATTLE + A_BATTLE_SIZE
A_WEATHER_SIZE = 8
A_RIVER = A_WEATHER + A_WEATHER_SIZE
A_RIVER_SIZE = 16
A_FIELD = A_RIVER + A_RIVER_SIZE
A_FIELD_SIZE = 16
A_UNITS = A_FIELD + A_FIELD_SIZE
A_UNITS_SIZE = 24
A_DEEDS = A_UNITS + A_UNITS_SIZE
A_DEEDS_SIZE = 8
N_CAMPAIGN_ACTIONS = A_DEEDS + A_DEEDS_SIZE

# ------------------------------------------------------------------ observation
# The Campaign observation is the Duel's, then these planes, then these scalars; each
# module writes only its own scalar range.
N_CPLANES = T.N_CAMPAIGN_UNIT_KINDS + T.N_AMENITY_KINDS  # one plane per Campaign kind
OS_BATTLE, OS_BATTLE_SIZE = 0, 32
OS_WEATHER, OS_WEATHER_SIZE = OS_BATTLE + OS_BATTLE_SIZE, 8
OS_RIVER, OS_RIVER_SIZE = OS_WEATHER + OS_WEATHER_SIZE, 24
OS_FIELD, OS_FIELD_SIZE = OS_RIVER + OS_RIVER_SIZE, 24
OS_UNITS, OS_UNITS_SIZE = OS_FIELD + OS_FIELD_SIZE, 24
OS_DEEDS, OS_DEEDS_SIZE = OS_UNITS + OS_UNITS_SIZE, 24
N_CSCALARS = OS_DEEDS + OS_DEEDS_SIZE
