"""Campaign invariants, beside the Duel's (``..invariants``), for the soak."""

from __future__ import annotations

import numpy as np

from .. import tables as T
from ..config import P_PLAYERS
from ..pieces import is_crusader
from . import adjoin, deeds, field, gauntlets, river, units, weather
from . import battle as B
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
    errors += check_adjoined(state, params)
    return errors


def check_adjoined(state: np.ndarray, params: np.ndarray) -> list[str]:
    """The adjoined units (``adjoin.py``) are what the position gives: recomputed, the
    same; only Crusaders of another seat, joined to the commander's tapped Hero."""
    if units.adjoined_stale(state, params):
        return ["adjoined units differ from the position's (units.update_adjoined)"]
    seat = adjoin.commander(state)
    errors = []
    for t in range(T.N_TOKENS):
        if adjoin.is_adjoined(state, t) and (
            seat < 0 or not is_crusader(t) or T.TOKEN_OWNER[t] == seat
        ):
            errors.append(f"token {t} adjoined to seat {seat}: not another seat's Crusader")
    return errors
