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
Engines, Heroes) counted like its army's, less what Cholera costs the seat
(:func:`cholera_cost`), and the rounds played over the whole
Campaign (each Battle's rounds; a Battle's end clears the board as a round's end
does). A seat's value is ``tanh((own - best rival material) / SCALE)`` as in the Duel;
the same kernel is the MCTS cutoff. In the last round of the Campaign's last Battle, a
seat that cannot end with the most Glory any more is worth just under a loss
(:func:`campaign_decided`), as a lost seat of the Duel's last round is.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import river
from crusadegym.core.deus_lo_vult.campaign.battle import C_BATTLE, C_GLORY
from crusadegym.core.deus_lo_vult.campaign.config import P_COINS_PER_GLORY
from crusadegym.core.deus_lo_vult.campaign.flow import campaign_done, score_battle
from crusadegym.core.deus_lo_vult.config import P_PLAYERS, P_ROUNDS
from crusadegym.core.deus_lo_vult.pieces import campaign_units
from crusadegym.core.jit import ajit, jit
from crusadegym.core.stack import stack_empty, stack_row

from . import Heuristic
from . import deus_lo_vult as duel

CAMPAIGN_ARMY_SIZE = T.CAMPAIGN_ARMY_SIZE
ARMY_SIZE = T.ARMY_SIZE
N_SEAT_TERMS = duel.N_SEAT_TERMS
MAX_SPOTS = duel.MAX_SPOTS
N_CELLS = T.N_CELLS
SCALE = duel.SCALE
W_SECURED = duel.W_SECURED
W_ROUND = duel.W_ROUND
MAX_PLAYERS = duel.MAX_PLAYERS
W_CHOLERA = 4.0  # coin units: a seat with Cholera "won't attack" (no plunder, no steal)
W_CHOLERA_CAMP = 1.5  # per own unit in the Camp while Cholera lasts: more than the unit's
# on_board + in_band + escort terms (1.3), so stepping out or withdrawing pays
W_CHOLERA_LATRINE = 1.0  # a filthy Latrine while Cholera lasts (a Move or a Coin cleans it)


@jit
def _glory(state, params, p):
    """Glory won, in coin units [R "5 coins = 1 Glory Point"]."""
    return W_SECURED * params[P_COINS_PER_GLORY] * state[C_GLORY + p]


@jit
def cholera_cost(state, params, p):
    """Coin units seat p loses to Cholera [R "Cholera": its units "won't attack until the
    Cholera is expelled from the Camp. Expel Cholera if you have an empty Camp and a clean
    Latrine by the end of your Turn"]: ``W_CHOLERA``, plus ``W_CHOLERA_CAMP`` per own unit
    still in the Camp and ``W_CHOLERA_LATRINE`` while the Latrine is filthy, so each step
    toward expelling it pays and the turn's end that expels it pays most. Issue #36
    (arena seed 0, game 8 of a run with the spot fix): the evaluation did not know
    Cholera; a seat that had it kept two units in its Camp, its Footman stood on a plunder
    spot it could not strike from, and the Battle ran to the turn cap. 0 without Cholera
    (a turn's end that would bring it is seen by the lookahead as this cost)."""
    if not river.has_cholera(state, params, p):
        return 0.0
    units, _ = river.camp_counts(state, params, p)
    cost = W_CHOLERA + W_CHOLERA_CAMP * units
    if state[river.R_LATRINE] == river.FILTHY:
        cost += W_CHOLERA_LATRINE
    return cost


@jit
def _campaign_terms(state, params, p, terms, spots, field, n_spots):
    terms[:] = 0.0
    u0 = campaign_units(p)
    duel.unit_terms(state, params, p, p * ARMY_SIZE, (p + 1) * ARMY_SIZE, u0,
                    u0 + CAMPAIGN_ARMY_SIZE, terms, 0, spots, field, n_spots)  # fmt: skip


@jit
def rounds_played(state, params):
    """Rounds played over the whole Campaign: Battles finished x rounds per Battle, plus
    the current Battle's rounds (a Battle's end must pay as a round's end does)."""
    return float(state[C_BATTLE] * params[P_ROUNDS] + state[L.ROUND])


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: tanh of (own full score + rounds played x W_ROUND - best
    rival material) / SCALE."""
    players = params[P_PLAYERS]
    material = np.zeros(players, np.float64)
    full = np.zeros(players, np.float64)
    progress = W_ROUND * rounds_played(state, params)
    spots = stack_empty(MAX_SPOTS, 3, np.int64)
    field = stack_empty(MAX_SPOTS, N_CELLS, np.int64)
    terms = stack_row(N_SEAT_TERMS, np.float64)
    for p in range(players):
        n_spots = duel.spot_fields(state, p, spots, field)
        _campaign_terms(state, params, p, terms, spots, field, n_spots)
        own = _glory(state, params, p) - cholera_cost(state, params, p)
        material[p] = own + duel.weigh(terms, False)
        full[p] = own + duel.weigh(terms, True) + progress
    duel.versus_best_rival(material, full, out)
    campaign_decided(state, params, material, full, out)


@ajit
def campaign_decided(state, params, material, full, out):
    """The Campaign's result once it is settled [R "The player with the most Glory
    points wins"]: in the last round of a Battle after which the Campaign ends, a seat
    that stays below another seat's Glory even if it secures every coin still to be
    secured has lost, and :func:`duel.score_decided` values it just under -1 (and the
    last seat in the race just under +1). So a seat that has lost secures the Battle's
    last coin rather than hold it until the turn cap (issue #36: Campaign self-play,
    seed 4012, third Battle: the trailing seat held the last coin one step from its camp
    centre for 3,000 turns). A seat whose best is a draw (every seat level on Glory:
    ``campaign_returns`` gives 0) cannot win either: otherwise a seat whose last coin
    would only level the Glory held it forever, its undecided value above a draw's 0
    (7 December, arena seed 0, game 1: 22 coins to 13 in the third Battle, Glory 6 to 8,
    the carrier next to its camp centre for 2,000 turns). A Battle after which the
    Campaign goes on decides nothing."""
    if state[L.ROUND] != params[P_ROUNDS] - 1:
        return
    players = params[P_PLAYERS]
    lost = stack_row(MAX_PLAYERS, np.uint8)
    for q in range(players):
        trial = state.copy()  # the Battle ended now, q having secured every coin left
        trial[L.SCORE + q] += trial[L.ROUND_LEFT]
        score_battle(trial, params)
        trial[C_BATTLE] += 1
        if not campaign_done(trial, params):
            return
        top, all_tied = -1, True
        for r in range(players):
            if r != q:
                top = max(top, trial[C_GLORY + r])
            all_tied = all_tied and trial[C_GLORY + r] == trial[C_GLORY + q]
        # q cannot win: below the top, or level with every seat (a draw, campaign_returns)
        lost[q] = 1 if trial[C_GLORY + q] < top or all_tied else 0
    duel.score_decided(lost, players, material, full, out)


HEURISTIC = Heuristic(
    game="deus_lo_vult_campaign",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate,
    extend=duel.extend,  # stage-1 cell selections get a second ply, as in the Duel (it
    # reaches the Campaign's stage-2 unit actions too)
    # the Duel's search constants; not its greedy_beyond: Glory won (50 coin units a
    # point) puts most Campaign positions past the tanh, and that was not measured
    mcts_defaults={**duel.HEURISTIC.mcts_defaults, "greedy_beyond": None},
    decided_at=duel.UNDECIDED,  # campaign_decided leaves the undecided band as the Duel does
)
