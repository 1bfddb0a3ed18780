"""Plain-Python invariant checks over a Deus lo Vult state (reads the array only).

Used by the conformance kit, the fuzz harness and the random-game tests:
coins conserved, the round's coins-left counter equal to the coins on the board,
Army Points <= 13, one unit per cell and every token in exactly one place,
Purgatory <= 9 and consistent, scores within bounds, the Duel roster, the Saracen
cap. ``invariant_kernel.py`` holds the same checks compiled (for the soak).
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .campaign.battle import C_COIN_BALANCE
from .carry import capacity
from .config import NO_SARACEN_CAP, P_CAMP_CENTRE, P_CAMPAIGN, P_PLAYERS, P_SARACEN_CAP


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Every violated invariant as a readable string (empty when the state is sound)."""
    errors: list[str] = []
    players = int(params[P_PLAYERS])
    loc = state[L.TOK_LOC : L.TOK_LOC + T.N_TOKENS]
    board = state[L.BOARD : L.BOARD + T.N_CELLS]
    # one occupant per cell, and board <-> token locations agree
    for c in range(T.N_CELLS):
        t = int(board[c])
        if t >= 0 and int(loc[t]) != c:
            errors.append(f"cell {c} holds token {t} whose location is {int(loc[t])}")
    for t in range(T.N_TOKENS):
        c = int(loc[t])
        if c >= 0 and int(board[c]) != t:
            errors.append(f"token {t} thinks it is on cell {c}, which holds {int(board[c])}")
        if c < L.LOC_STACK or c >= T.N_CELLS:
            errors.append(f"token {t} has invalid location {c}")
        absent = T.TOKEN_OWNER[t] < 4 and T.TOKEN_OWNER[t] >= players
        if absent and T.KIND_IN_DUEL[T.TOKEN_KIND[t]] and c != L.LOC_RESERVE:
            errors.append(f"token {t} of an absent seat left the reserve")
    for p in range(players):
        centre = int(params[P_CAMP_CENTRE + p])
        if board[centre] >= 0:
            errors.append(f"camp centre {centre} is occupied")
    # Purgatory: at most 9, each slot token really there, no duplicates
    purg = [int(t) for t in state[L.PURG : L.PURG + T.PURGATORY_SLOTS] if t >= 0]
    if len(set(purg)) != len(purg):
        errors.append(f"a token is twice in Purgatory: {purg}")
    in_purg = {t for t in range(T.N_TOKENS) if loc[t] == L.LOC_PURGATORY}
    if in_purg != set(purg):
        errors.append(f"Purgatory slots {sorted(purg)} != tokens located there {sorted(in_purg)}")
    slots = state[L.PURG : L.PURG + T.PURGATORY_SLOTS]
    if np.any((slots[1:] >= 0) & (slots[:-1] < 0)):
        errors.append("Purgatory has a gap before an occupied slot")
    # Army Points cap
    for p in range(players):
        used = sum(
            int(T.KIND_COST[T.TOKEN_KIND[t]])
            for t in range(p * T.ARMY_SIZE, (p + 1) * T.ARMY_SIZE)
            if loc[t] >= 0 or loc[t] == L.LOC_PURGATORY
        )
        if used > T.ARMY_POINT_CAP:
            errors.append(f"seat {p} uses {used} Army Points > {T.ARMY_POINT_CAP}")
    # carrying capacity, who may carry, sides
    for t in range(T.N_TOKENS):
        coins = int(state[L.TOK_COINS + t])
        side = int(state[L.TOK_SIDE + t])
        if coins < 0:
            errors.append(f"token {t} holds {coins} coins")
        if side not in (0, 1):
            errors.append(f"token {t} has side {side}")
            continue
        if T.TOKEN_OWNER[t] < 4 and coins > capacity(state, params, t, side):
            errors.append(f"token {t} carries {coins} > its capacity")
        if T.TOKEN_OWNER[t] == T.OWNER_SARACEN and coins:
            errors.append(f"Saracen {t} carries coins")
        if T.TOKEN_OWNER[t] < 4 and loc[t] < 0 and coins:
            errors.append(f"off-board Crusader {t} holds coins")
    # coin conservation: everything dealt so far is on quarters, carried, loose or secured
    qnext = int(state[L.QNEXT])
    if not 0 <= qnext <= T.N_QUARTERS:
        errors.append(f"{qnext} quarters dealt, outside [0, {T.N_QUARTERS}]")
        qnext = 0
    dealt = [int(state[L.QORDER + i]) for i in range(qnext)]
    if any(not 0 <= q < T.N_QUARTERS for q in dealt):
        errors.append(f"the quarter order {dealt} names no such quarter")
        dealt = []
    total = sum(int(T.KIND_COINS[T.KIND_QUARTER0 + q]) for q in dealt)
    ground = state[L.GROUND : L.GROUND + T.N_CELLS]
    if ground.min() < 0:
        errors.append("negative loose coins")
    held = sum(int(state[L.TOK_COINS + t]) for t in range(T.N_TOKENS) if loc[t] >= 0)
    secured = int(state[L.SCORE : L.SCORE + players].sum())
    banked = int(state[C_COIN_BALANCE]) if params[P_CAMPAIGN] != 0 else 0  # campaign/battle.py
    if held + int(ground.sum()) + secured + banked != total:
        errors.append(
            f"coins not conserved: held {held} + loose {int(ground.sum())} + secured {secured}"
            f" != dealt {total}"
        )
    if not state[L.OVER] and held + int(ground.sum()) != int(state[L.ROUND_LEFT]):
        errors.append(
            f"round coins left {int(state[L.ROUND_LEFT])} != on board {held + int(ground.sum())}"
        )
    if not 0 <= secured <= T.TOTAL_COINS:
        errors.append(f"secured coins {secured} out of [0, {T.TOTAL_COINS}]")
    if not state[L.OVER] and not 0 <= int(state[L.AP]) <= T.ACTION_POINTS:
        errors.append(f"action points {int(state[L.AP])} out of range")
    # the Duel roster: Campaign-only kinds (Greek fire) never leave the box [R "Unit Types"]
    for t in range(T.N_TOKENS):
        if params[P_CAMPAIGN] != 0:
            break  # a Campaign brings them into play (campaign/invariants.py checks them)
        if not T.KIND_IN_DUEL[T.TOKEN_KIND[t]] and loc[t] != L.LOC_OFF:
            errors.append(f"Campaign-only token {t} ({T.KIND_NAMES[T.TOKEN_KIND[t]]}) in play")
    cap = int(params[P_SARACEN_CAP])
    on_board = sum(1 for t in range(T.SARACEN_TOKEN0, T.QUARTER_TOKEN0) if loc[t] >= 0)
    if cap != NO_SARACEN_CAP and on_board > cap:
        errors.append(f"{on_board} Saracens on the board > saracen_cap {cap}")
    return errors
