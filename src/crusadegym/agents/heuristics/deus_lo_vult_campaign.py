"""Heuristic for the Deus lo Vult Campaign [R Part 2]: the Duel heuristic's greedy
lookahead over a Campaign evaluation.

Strategy: as in the Duel (:mod:`.deus_lo_vult`), every legal action is stepped on a
clone and scored; a stage-1 cell selection is scored by its best stage-2 follow-up.
The Campaign's own actions (ids >= 175: the modules' unit and turn actions, such as
an amenity's use or a War Engine's shot) need no table of their own: the generic
lookahead steps them like any other action and scores what they did to the
evaluation (coins, wounds, units lost, Glory).

Evaluation, per seat, in coin units: Glory already won counts as the coins it took
(``COINS_PER_GLORY`` secured coins each, [R "5 coins = 1 Glory Point"]) plus the
Duel evaluation of the Battle in progress (secured and carried coins, progress
toward the loot, units lost or wounded), with the seat's Campaign-only units (War
Engines, Heroes) counted like its army's. A seat's value is ``tanh((own - best
rival material) / SCALE)`` as in the Duel; the same kernel is the MCTS cutoff.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign.battle import C_GLORY
from crusadegym.core.deus_lo_vult.campaign.config import P_COINS_PER_GLORY
from crusadegym.core.deus_lo_vult.config import P_PLAYERS
from crusadegym.core.deus_lo_vult.pieces import campaign_units
from crusadegym.core.jit import ajit, jit

from . import Heuristic
from . import deus_lo_vult as duel

CAMPAIGN_ARMY_SIZE = T.CAMPAIGN_ARMY_SIZE
SCALE = duel.SCALE
W_SECURED = duel.W_SECURED


@jit
def _campaign_units_score(state, params, p, positional):
    """The Duel's unit terms for seat p's War Engines and Hero tokens."""
    score = 0.0
    t0 = campaign_units(p)
    for t in range(t0, t0 + CAMPAIGN_ARMY_SIZE):
        loc = state[L.TOK_LOC + t]
        if loc == L.LOC_PURGATORY:
            score -= duel.W_PURGATORY
            continue
        if loc < 0:
            continue
        score += duel.W_ON_BOARD
        side = state[L.TOK_SIDE + t]
        if side == 1:
            score -= duel.W_WOUNDED
        coins = state[L.TOK_COINS + t]
        if coins > 0:
            worth = duel.W_CARRIED - duel.W_CARRY_DIST * duel._home_distance(params, p, loc)
            score += coins * max(worth, duel.W_CARRIED_MIN)
        if positional:
            score += duel._positional(state, p, t, loc, coins, side)
    return score


@jit
def campaign_seat_score(state, params, p, positional):
    """Raw evaluation of seat p in coin units: Glory + the Battle in progress."""
    glory = W_SECURED * params[P_COINS_PER_GLORY] * state[C_GLORY + p]
    battle = duel.seat_score(state, params, p, positional)
    return glory + battle + _campaign_units_score(state, params, p, positional)


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: tanh of (own full score - best rival material) / SCALE."""
    players = params[P_PLAYERS]
    material = np.zeros(players, np.float64)
    full = np.zeros(players, np.float64)
    for p in range(players):
        material[p] = campaign_seat_score(state, params, p, False)
        full[p] = campaign_seat_score(state, params, p, True)
    duel.versus_best_rival(material, full, out)


HEURISTIC = Heuristic(
    game="deus_lo_vult_campaign",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate,
    extend=duel.extend,  # stage-1 cell selections get a second ply, as in the Duel (it
    # reaches the Campaign's stage-2 unit actions too)
    mcts_defaults=duel.HEURISTIC.mcts_defaults,
)
