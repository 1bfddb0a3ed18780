"""The invariants of ``invariants.py``, compiled, so a soak checks every state it plays.

:func:`violation` returns 0 for a sound state, else the code of the first violated
invariant (``VIOLATIONS[code]`` says which). It reads the state only and never
raises; the plain-Python :func:`invariants.check` stays the readable statement and
names the offending token or cell (the tests check both agree). For Campaign params it
then runs the Campaign's own checks (``campaign/invariant_kernel.py``, the compiled
``campaign/invariants.py``; its codes follow the Duel's).
"""

from __future__ import annotations

import numpy as np

from ..jit import jit
from . import tables as T
from .campaign.battle import C_COIN_BALANCE
from .campaign.invariant_kernel import BAD_ADJOINED as CAMPAIGN_BAD_ADJOINED
from .campaign.invariant_kernel import VIOLATIONS as CAMPAIGN_VIOLATIONS
from .campaign.invariant_kernel import campaign_violation
from .carry import capacity
from .config import NO_SARACEN_CAP, P_CAMP_CENTRE, P_CAMPAIGN, P_PLAYERS, P_SARACEN_CAP
from .layout import (
    AP,
    BOARD,
    GROUND,
    LOC_OFF,
    LOC_PURGATORY,
    LOC_RESERVE,
    LOC_STACK,
    OVER,
    PURG,
    QNEXT,
    QORDER,
    ROUND_LEFT,
    SCORE,
    TOK_COINS,
    TOK_LOC,
    TOK_SIDE,
)

VIOLATIONS = (
    "sound",
    "a cell and its token disagree on where the token is",
    "a token has an invalid location",
    "a token of an absent seat left the reserve",
    "a camp centre is occupied",
    "Purgatory slots and the tokens located there disagree (or a duplicate)",
    "Purgatory has a gap before an occupied slot",
    "a seat uses more than 13 Army Points",
    "a token holds negative coins or has an invalid side",
    "a Crusader carries more than its capacity",
    "a Saracen, City Quarter off the board, or off-board Crusader holds coins",
    "negative loose coins",
    "coins not conserved (held + loose + secured != dealt)",
    "the round's coins-left counter != the coins on the board",
    "secured coins out of range",
    "action points out of range",
    "a Campaign-only token (Greek fire) is in the Duel",
    "more Saracens on the board than the saracen_cap home rule allows",
    "the quarters dealt (QNEXT) or the quarter order name no such quarter",
) + CAMPAIGN_VIOLATIONS[1:]  # campaign/invariant_kernel.py: the Campaign's own slots
(
    OK,
    BAD_BOARD,
    BAD_LOC,
    BAD_ABSENT,
    BAD_CENTRE,
    BAD_PURGATORY,
    BAD_PURG_GAP,
    BAD_ARMY_POINTS,
    BAD_SIDE_COINS,
    BAD_CAPACITY,
    BAD_CARRIER,
    BAD_GROUND,
    BAD_CONSERVATION,
    BAD_ROUND_LEFT,
    BAD_SECURED,
    BAD_AP,
    BAD_CAMPAIGN_TOKEN,
    BAD_SARACEN_CAP,
    BAD_QUARTERS,
) = range(len(VIOLATIONS) - len(CAMPAIGN_VIOLATIONS) + 1)
CAMPAIGN_CODE0 = BAD_QUARTERS  # Campaign code k (campaign/invariant_kernel.py) is this + k
BAD_ADJOINED = CAMPAIGN_CODE0 + CAMPAIGN_BAD_ADJOINED

N_SEATS = T.MAX_PLAYERS


@jit
def violation(state, params):
    """0 if ``state`` is sound, else the code of the first violated invariant."""
    players = params[P_PLAYERS]
    for c in range(T.N_CELLS):
        t = state[BOARD + c]
        if t >= T.N_TOKENS or (t >= 0 and state[TOK_LOC + t] != c):
            return BAD_BOARD
    in_purgatory = 0
    for t in range(T.N_TOKENS):
        c = state[TOK_LOC + t]
        if c < LOC_STACK or c >= T.N_CELLS:
            return BAD_LOC
        if c >= 0 and state[BOARD + c] != t:
            return BAD_BOARD
        owner = T.TOKEN_OWNER[t]
        if T.KIND_IN_DUEL[T.TOKEN_KIND[t]] == 0:
            if c != LOC_OFF and params[P_CAMPAIGN] == 0:
                return BAD_CAMPAIGN_TOKEN
        elif owner < N_SEATS and owner >= players and c != LOC_RESERVE:
            return BAD_ABSENT
        if c == LOC_PURGATORY:
            in_purgatory += 1
    for p in range(players):
        if state[BOARD + params[P_CAMP_CENTRE + p]] >= 0:
            return BAD_CENTRE
    # Purgatory: every slot token is located there, no duplicates, no gaps
    filled = 0
    for i in range(T.PURGATORY_SLOTS):
        t = state[PURG + i]
        if t < 0:
            continue
        if i > 0 and state[PURG + i - 1] < 0:
            return BAD_PURG_GAP
        if t >= T.N_TOKENS or state[TOK_LOC + t] != LOC_PURGATORY:
            return BAD_PURGATORY
        for j in range(i):
            if state[PURG + j] == t:
                return BAD_PURGATORY
        filled += 1
    if filled != in_purgatory:
        return BAD_PURGATORY
    for p in range(players):
        used = 0
        for t in range(p * T.ARMY_SIZE, (p + 1) * T.ARMY_SIZE):
            loc = state[TOK_LOC + t]
            if loc >= 0 or loc == LOC_PURGATORY:
                used += T.KIND_COST[T.TOKEN_KIND[t]]
        if used > T.ARMY_POINT_CAP:
            return BAD_ARMY_POINTS
    held = 0
    saracens = 0
    for t in range(T.N_TOKENS):
        coins = state[TOK_COINS + t]
        side = state[TOK_SIDE + t]
        loc = state[TOK_LOC + t]
        owner = T.TOKEN_OWNER[t]
        if coins < 0 or side < 0 or side > 1:
            return BAD_SIDE_COINS
        if owner < N_SEATS and coins > capacity(state, params, t, side):
            return BAD_CAPACITY
        if owner == T.OWNER_SARACEN and coins:
            return BAD_CARRIER
        if owner < N_SEATS and loc < 0 and coins:
            return BAD_CARRIER
        if owner == T.OWNER_SARACEN and loc >= 0:
            saracens += 1
        if loc >= 0:
            held += coins
    loose = 0
    for c in range(T.N_CELLS):
        if state[GROUND + c] < 0:
            return BAD_GROUND
        loose += state[GROUND + c]
    if state[QNEXT] < 0 or state[QNEXT] > T.N_QUARTERS:
        return BAD_QUARTERS
    dealt = 0
    for i in range(state[QNEXT]):
        q = state[QORDER + i]
        if q < 0 or q >= T.N_QUARTERS:
            return BAD_QUARTERS
        dealt += T.KIND_COINS[T.KIND_QUARTER0 + q]
    secured = 0
    for p in range(players):
        secured += state[SCORE + p]
    if params[P_CAMPAIGN] != 0:  # coins paid/tithed/carried (campaign/battle.py)
        dealt -= state[C_COIN_BALANCE]
    if held + loose + secured != dealt:
        return BAD_CONSERVATION
    if state[OVER] == 0 and held + loose != state[ROUND_LEFT]:
        return BAD_ROUND_LEFT
    if secured < 0 or secured > T.TOTAL_COINS:
        return BAD_SECURED
    if state[OVER] == 0 and not 0 <= state[AP] <= T.ACTION_POINTS:
        return BAD_AP
    cap = params[P_SARACEN_CAP]
    if cap != NO_SARACEN_CAP and saracens > cap:
        return BAD_SARACEN_CAP
    if params[P_CAMPAIGN] != 0:  # the Campaign's own slots (compiled for Campaign params only)
        code = campaign_violation(state, params)
        if code != OK:
            return CAMPAIGN_CODE0 + code
    return OK


def describe(code: int) -> str:
    """The message of a :func:`violation` code."""
    return VIOLATIONS[int(code)] if 0 <= int(code) < len(VIOLATIONS) else f"code {code}"


__all__ = ["VIOLATIONS", "describe", "violation", "np"]
