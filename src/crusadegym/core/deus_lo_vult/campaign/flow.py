"""From Battle to Battle [R Part 2 "Campaign Mode", "Decks of Deeds / How to Play"].

A Battle is a Duel game (its rounds, its turn cap) that ends "with the last Coin
secured". Then each seat buys Glory with its secured coins ("5 coins = 1 Glory Point";
the remainder is carried into the next Battle, our reading of "Players gain Coins and
spend them in an endless cycle"), the modules score their Gauntlet Runs and Deeds, and
the next Battle is set up from the Campaign's RNG. The Campaign ends after ``battles``
Battles, or when a seat reaches ``glory_target`` (at most ``max_battles``).
"""

from __future__ import annotations

import numpy as np

from ... import rng as R
from ...jit import ajit, jit
from ..config import P_PLAYERS
from ..layout import OVER, RNG, SCORE, TRUNC
from ..setup import init as duel_init
from . import battle as B
from . import deeds, field, gauntlets, river, units, weather
from .config import P_BATTLES, P_COINS_PER_GLORY, P_GLORY_TARGET, P_MAX_BATTLES
from .layout import CAMPAIGN_STATE_SIZE, CB_BATTLE

SEED_RANGE = 2**31 - 1
WIN, LOSS, DRAW = 1.0, -1.0, 0.0


@jit
def campaign_init(state, params, seed):
    """A new Campaign: the first Battle's Duel set-up, then the Campaign block."""
    duel_init(state, params, seed)  # zeroes the whole state, Campaign block included
    gauntlets.new_campaign(state)
    deeds.new_campaign(state)
    start_modules(state, params)


@jit
def start_modules(state, params):
    """Each module's set-up for a new Battle (after the Duel part is set up). The coins
    carried over start as the seat's secured coins (the coin balance keeps the Duel's
    conservation count exact: they were not dealt in this Battle)."""
    players = params[P_PLAYERS]
    state[B.C_COIN_BALANCE] = 0
    for p in range(players):
        state[SCORE + p] = state[B.C_CARRY + p]
        state[B.C_COIN_BALANCE] -= state[B.C_CARRY + p]
    if gauntlets.on(params):
        gauntlets.start_battle(state, params)
    if deeds.on(params):
        deeds.start_battle(state, params)
    field.start_battle(state, params)
    if units.any_on(params):
        units.start_battle(state, params)
    weather.start_battle(state, params)
    river.start_battle(state, params)


@ajit
def score_battle(state, params):
    """Glory at the end of a Battle [R "Glory points ... calculated with a sum of"]:
    "Glory points that you bought at the end of each Battle (5 coins = 1 Glory Point)"
    (after the Refugees Welcome! coin exchange), "Glory points received from the
    Gauntlet Runs", "Each completed Deed". The coins left after buying are carried into
    the next Battle (our reading of "Players gain Coins and spend them in an endless
    cycle"); ``SCORE`` itself is left as the Battle ended."""
    players = params[P_PLAYERS]
    rate = params[P_COINS_PER_GLORY]
    purse = np.zeros(4, np.int64)
    g_glory = np.zeros(4, np.int64)
    d_glory = np.zeros(4, np.int64)
    for p in range(players):
        purse[p] = state[SCORE + p]
    if gauntlets.on(params):
        gauntlets.score(state, params, purse, g_glory)
    if deeds.on(params):
        deeds.score(state, params, d_glory)
    for p in range(players):
        coins = purse[p]
        state[B.C_LAST_SCORE + p] = coins
        bought = coins // rate
        state[B.C_CARRY + p] = coins - bought * rate
        state[B.C_GAUNTLET_GLORY + p] = g_glory[p]
        state[B.C_DEED_GLORY + p] = d_glory[p]
        state[B.C_LAST_GLORY + p] = bought + g_glory[p] + d_glory[p]
    for p in range(players):
        state[B.C_GLORY + p] += state[B.C_LAST_GLORY + p]


@jit
def campaign_done(state, params):
    """After ``C_BATTLE`` Battles: is the Campaign over [R "choose one of the two options"]?"""
    if state[B.C_BATTLE] >= params[P_MAX_BATTLES]:
        return True
    if params[P_BATTLES] > 0:
        return False
    target = params[P_GLORY_TARGET]
    for p in range(params[P_PLAYERS]):
        if state[B.C_GLORY + p] >= target:
            return True
    return False


@jit
def end_battle(state, params):
    """The Duel part has ended (``OVER``): score it, then end the Campaign or set up the
    next Battle. Returns True if the Campaign is over.

    A Battle cut by the turn cap (``TRUNC``) marks the whole Campaign as cut
    (``C_TRUNC``, kept across Battles): its Glory was scored as the Battle stood, not by
    the rules, so the Campaign's result is the cap's too, and when the Campaign ends
    ``TRUNC`` says so (issue #36: a game decided by the cap is not a game result; before,
    only a cut *last* Battle was reported)."""
    if state[TRUNC] != 0:
        state[B.C_TRUNC] = 1
    score_battle(state, params)
    state[B.C_BATTLE] += 1
    if campaign_done(state, params):
        state[B.C_OVER] = 1
        state[TRUNC] = state[B.C_TRUNC]
        return True
    next_battle(state, params)
    return False


@ajit
def next_battle(state, params):
    """Set the next Battle up: a fresh Duel part drawn from the Campaign's RNG, the
    Campaign block kept."""
    seed = R.randint(state, RNG, SEED_RANGE)
    keep = state[CB_BATTLE:CAMPAIGN_STATE_SIZE].copy()
    duel_init(state, params, seed)
    state[CB_BATTLE:CAMPAIGN_STATE_SIZE] = keep
    start_modules(state, params)


@ajit
def campaign_returns(state, params, out):
    """Final result: the most Glory wins (+1), the others lose (-1); all tie: 0."""
    out[:] = DRAW
    if state[B.C_OVER] == 0:
        return
    players = params[P_PLAYERS]
    best = -1
    for p in range(players):
        best = max(best, state[B.C_GLORY + p])
    won = np.zeros(players, np.int64)
    n = 0
    for p in range(players):
        if state[B.C_GLORY + p] == best:
            won[p] = 1
            n += 1
    if n == players:
        return
    for p in range(players):
        out[p] = WIN if won[p] == 1 else LOSS


@jit
def is_over(state, params):
    return state[OVER] != 0 and state[B.C_OVER] != 0
