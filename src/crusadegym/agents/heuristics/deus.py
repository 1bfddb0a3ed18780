"""Heuristic for Deus: a whole-turn greedy lookahead on a determinization of the state.

It acts only on what its seat sees: before looking ahead it determinizes a copy of the
state for its seat (``Game.determinize``: rivals' hands, the deck order and the cards
under offerings are resampled from what the seat knows), so draws in the lookahead come
from a sampled deck, never the real one.

Strategy: every legal action is stepped on the copy, then the rest of the same turn
(placement, payment, effect choices, the god of a Jupiter offering) is completed greedily,
one sub-decision at a time, each scored one ply ahead; the action whose completed turn
scores best for the mover is played. Evaluation, per seat, in VP:

* the final score as it stands (VP, temple cards capped at 12, the 2-VP majorities);
* gold at 1/4 VP and resources at 1/2 VP (a resource is worth 4 gold in a cost);
* pieces on the player board (they allow building) and cards in hand (they allow
  building and feed offerings), each a small bonus;
* regions held and armies next to live barbarian villages (future raids).

A seat's value is ``tanh((own - best rival) / SCALE)`` in [-1, 1]. Rivals' VP enter as
totals a seat that remembers the game knows (every VP change is a public event).
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game
from crusadegym.core.deus import layout as L
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.actions import N_ACTIONS
from crusadegym.core.deus.board import army_next_to, on_board
from crusadegym.core.deus.config import P_PLAYERS
from crusadegym.core.deus.effects import live_village
from crusadegym.core.deus.rules import current_player, is_terminal, legal_mask, step
from crusadegym.core.deus.scoring import final_scores
from crusadegym.core.jit import ajit, jit

from . import Heuristic

W_GOLD = 0.25
W_RESOURCE = 0.5
W_PIECE = 0.3
W_CARD = 0.4
W_REGION = 0.6
W_RAID = 1.0
SCALE = 10.0
_TIE_NOISE = 1e-6


@jit
def seat_material(state, params, p, score):
    """Seat p's material in VP units (``score``: its final score as it stands)."""
    pb = L.player(p)
    v = float(score)
    v += W_GOLD * state[pb + L.GOLD]
    for k in range(T.N_RESOURCES):
        v += W_RESOURCE * state[pb + L.RES + k]
    for t in range(T.N_TYPES):
        v += W_PIECE * min(state[pb + L.ON_BOARD + t], 2)
    v += W_CARD * min(state[pb + L.HAND_N], 6)
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[L.OWNER + r] == p:
            v += W_REGION
    for r in range(T.N_REGIONS):
        if live_village(state, params, r) and army_next_to(state, params, p, r):
            v += W_RAID
    return v


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: tanh((own material - best rival's) / SCALE)."""
    players = params[P_PLAYERS]
    score = np.zeros(players, np.int64)
    final_scores(state, params, score)
    mat = np.zeros(players, np.float64)
    for p in range(players):
        mat[p] = seat_material(state, params, p, score[p])
    for p in range(players):
        rival = -np.inf
        for q in range(players):
            if q != p and mat[q] > rival:
                rival = mat[q]
        out[p] = np.tanh((mat[p] - rival) / SCALE)


@jit
def _same_turn(state, params, seat, turn):
    return not is_terminal(state, params) and state[L.CUR] == seat and state[L.TURN] == turn


@ajit
def _complete_turn(state, params, seat, turn):
    """Finish ``seat``'s turn greedily, each sub-decision scored one ply ahead."""
    mask = np.zeros(N_ACTIONS, np.uint8)
    rewards = np.zeros(params[P_PLAYERS], np.float32)
    vals = np.zeros(params[P_PLAYERS], np.float32)
    trial = np.empty_like(state)
    while _same_turn(state, params, seat, turn):
        legal_mask(state, params, mask)
        best, best_a = -np.inf, -1
        for a in range(N_ACTIONS):
            if not mask[a]:
                continue
            trial[:] = state
            step(trial, params, a, rewards)
            evaluate(trial, params, vals)
            if vals[seat] > best:
                best, best_a = vals[seat], a
        step(state, params, best_a, rewards)


@ajit
def turn_values(state, params, out):
    """out[a] = the mover's value after action a and a greedy rest of the turn."""
    seat = current_player(state, params)
    turn = state[L.TURN]
    mask = np.zeros(N_ACTIONS, np.uint8)
    rewards = np.zeros(params[P_PLAYERS], np.float32)
    vals = np.zeros(params[P_PLAYERS], np.float32)
    trial = np.empty_like(state)
    legal_mask(state, params, mask)
    for a in range(N_ACTIONS):
        out[a] = -np.inf
        if not mask[a]:
            continue
        trial[:] = state
        step(trial, params, a, rewards)
        _complete_turn(trial, params, seat, turn)
        evaluate(trial, params, vals)
        out[a] = vals[seat]


@ajit
def evaluate_turn(state, params, out):
    """The MCTS value: finish the current turn greedily on a copy, then :func:`evaluate`.

    A build is several sub-decisions (card, region, payment, effect choices); scoring
    the state halfway through would miss what the turn gains, so search values (priors
    and leaves) are taken where the turn ends, as the heuristic's own lookahead does.
    """
    if is_terminal(state, params):
        evaluate(state, params, out)
        return
    trial = state.copy()
    _complete_turn(trial, params, trial[L.CUR], trial[L.TURN])
    evaluate(trial, params, out)


def choose(game: Game, state: np.ndarray, rng: np.random.Generator) -> int:
    """The heuristic's action: whole-turn greedy lookahead on a determinized copy."""
    game.check_state(state)
    if game.is_terminal(state):
        raise ValueError(f"{game.name}: the game is over; no action to choose")
    seat = game.current_player(state)
    view = state.copy()
    game.determinize(view, seat)  # never look at what the seat cannot see
    values = np.empty(game.num_actions, np.float64)
    turn_values(view, game.params, values)
    legal = np.isfinite(values)
    values[legal] += rng.random(int(legal.sum())) * _TIE_NOISE
    return int(np.argmax(np.where(legal, values, -np.inf)))


HEURISTIC = Heuristic(
    game="deus",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate_turn,
    choose=choose,
    # values move in steps of ~0.02-0.05: little exploration, evaluation at the leaf, a
    # strong pull toward the whole-turn priors
    mcts_defaults={
        "iterations": 48,
        "c_uct": 0.05,
        "rollout_depth": 0,
        "prior_visits": 8.0,
        "determinizations": 4,
    },
)
