"""Campaign invariants, beside the Duel's (``..invariants``), for the soak."""

from __future__ import annotations

import numpy as np

from ..config import P_PLAYERS
from . import battle as B
from . import deeds, field, gauntlets, river, weather
from .config import P_MAX_BATTLES


def check_campaign(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Every violated Campaign invariant as a readable string."""
    errors: list[str] = []
    players = int(params[P_PLAYERS])
    if not 0 <= int(state[B.C_BATTLE]) <= int(params[P_MAX_BATTLES]):
        errors.append(f"battle counter {int(state[B.C_BATTLE])} out of range")
    for p in range(players):
        if state[B.C_GLORY + p] < 0:
            errors.append(f"seat {p} has negative Glory {int(state[B.C_GLORY + p])}")
        if state[B.C_CARRY + p] < 0:
            errors.append(f"seat {p} carries {int(state[B.C_CARRY + p])} coins")
    if state[B.C_OVER] and not state[B.C_BATTLE]:
        errors.append("campaign over before any Battle ended")
    errors += field.check_field(state, params)
    errors += gauntlets.check(state, params)
    errors += deeds.check(state, params)
    errors += weather.check(state, params)
    errors += river.check(state, params)
    return errors
