"""Heuristic for Crusaders: each option judged by the whole rest of its turn.

A Crusaders turn is a chain of sub-decisions (wedge, split, targets, sowing), and most
of them score nothing until the chain is done. So for every legal action the agent
steps a copy, completes the rest of the *same seat's turn* greedily (every later
sub-decision takes the one-ply best of :func:`seat_value`), and scores the position
the turn ends in. All of it is one compiled call per decision.

Evaluation of a seat, in influence points (weights below):

* influence scored so far plus the end-game points it would get now (majorities,
  level-IV buildings, Vaults, 7-cost tiles: ``scoring.final_points``);
* action bonuses uncovered (buildings, permanent tiles, troops' Crusade icons), face-up
  one-time tiles and upgraded wedges: future strength;
* the tokens on the wheel's best wedge (a big X next turn);
* each knight's distance to the nearest region where it has something to do (an
  influence tile, an enemy, or an empty region it could build on): knights walk on.

The MCTS cutoff value is ``tanh((own - best rival) / SCALE)``.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders import tables as T
from crusadegym.core.crusaders.actions import N_ACTIONS
from crusadegym.core.crusaders.board import action_bonus, base
from crusadegym.core.crusaders.config import P_ACTIVE, P_PLAYERS
from crusadegym.core.crusaders.rules import (
    current_player,
    is_terminal,
    legal_mask,
    returns,
    step,
)
from crusadegym.core.crusaders.scoring import final_points
from crusadegym.core.crusaders.wheel import wedge_value
from crusadegym.core.jit import ajit, jit

from . import Heuristic

W_BONUS = 1.5  # per point of permanent action bonus
W_ONCE = 0.5  # per face-up one-time tile
W_UPGRADED = 1.0  # per upgraded wedge
W_BEST_WEDGE = 0.4  # per token on the fullest wedge
W_DISTANCE = 0.6  # per region between a knight and its nearest target
SCALE = 20.0  # influence margin of a near-certain result (the MCTS value's sharp part)
SCALE_FAR = 100.0  # margin scale of the value's other part, which does not saturate
W_FAR = 0.2  # its share: a leader far ahead still sees each point it gains
WIN_VALUE = 1e6  # a won game, above any running position
MAX_COMPLETION = 24  # sub-decisions simulated to finish a turn
WEIGHTS = {
    "bonus": W_BONUS,
    "once": W_ONCE,
    "upgraded": W_UPGRADED,
    "best_wedge": W_BEST_WEDGE,
    "distance": W_DISTANCE,
    "scale": SCALE,
    "scale_far": SCALE_FAR,
    "w_far": W_FAR,
}


def _all_distances() -> np.ndarray:
    """Hex steps between every two regions of the full stand-in map (BFS)."""
    n = T.N_REGIONS
    out = np.full((n, n), 99, np.int64)
    for s in range(n):
        out[s, s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for r in frontier:
                for q in T.MAP_ADJ[r]:
                    if q >= 0 and out[s, q] == 99:
                        out[s, q] = out[s, r] + 1
                        nxt.append(int(q))
            frontier = nxt
    return out


DIST = _all_distances()


@jit
def _target(state, params, r):
    """Is region r worth walking to (a tile, an enemy, or room to build)?"""
    if not params[P_ACTIVE + r]:
        return False
    if state[L.R_INF + r] >= 0 or state[L.R_ENEMY + r] >= 0:
        return True
    return state[L.R_BLD_A + r] < 0


@jit
def seat_value(state, params, p, endgame):
    """Seat p's position in influence points (see the module docstring)."""
    b = base(p)
    v = float(state[b + L.PL_SCORE]) + endgame[p]
    for a in range(T.N_ACTION_TYPES):
        v += W_BONUS * action_bonus(state, params, p, a)
        v += W_ONCE * state[b + L.PL_ONCE + a]
    best = 0
    for i in range(T.N_WEDGES):
        v += W_UPGRADED * state[b + L.PL_UP + i]
        best = max(best, wedge_value(state, p, i))
    v += W_BEST_WEDGE * best
    for k in range(T.N_KNIGHTS):
        src = state[b + L.PL_KNIGHT + k]
        if src < 0:
            continue
        near = 99
        for r in range(T.N_REGIONS):
            if DIST[src, r] < near and _target(state, params, r):
                near = DIST[src, r]
        v -= W_DISTANCE * min(near, 6)
    return v


@ajit
def relative_value(state, params, p):
    """Seat p's value minus the best rival's (a finished game's scores already hold the
    end-game points)."""
    endgame = np.zeros(L.MAX_PLAYERS, np.int64)
    if not state[L.OVER]:
        final_points(state, params, endgame)
    own = seat_value(state, params, p, endgame)
    rival = -1e9
    for q in range(params[P_PLAYERS]):
        if q != p:
            rival = max(rival, seat_value(state, params, q, endgame))
    return own - rival


@jit
def evaluate(state, params, out):
    """Value per seat in [-1, 1] (the final result once the game is over)."""
    if state[L.OVER]:
        returns(state, params, out)  # the winner +1, the others -1 [R "Scoring"]
        return
    for p in range(params[P_PLAYERS]):
        rel = relative_value(state, params, p)
        out[p] = (1.0 - W_FAR) * np.tanh(rel / SCALE) + W_FAR * np.tanh(rel / SCALE_FAR)


@ajit
def _outcome(state, params, p):
    """Value of a finished turn for seat p: a won game dominates; a lost one is worth
    its margin, like any other position.

    A loss is not scored below every running position: a seat that would lose when the
    game ends then refuses forever to take the supply's last points (the end [C]), and
    once the leader has nothing left to score the game never ends (seen: 350 turns per
    seat at supply 1, MCTS vs heuristic).
    """
    rel = relative_value(state, params, p)
    if is_terminal(state, params):
        out = np.zeros(params[P_PLAYERS], np.float32)
        returns(state, params, out)
        if out[p] > 0:
            return WIN_VALUE + rel
    return rel


@ajit
def _complete_turn(state, params, p, n_actions, mask, rewards):
    """Play seat p's remaining sub-decisions greedily (one ply each)."""
    for _ in range(MAX_COMPLETION):
        if is_terminal(state, params) or current_player(state, params) != p:
            return
        if state[L.PHASE] == L.PH_TURN:
            return
        legal_mask(state, params, mask)
        best, best_a = -1e18, -1
        for a in range(n_actions):
            if not mask[a]:
                continue
            c = state.copy()
            step(c, params, a, rewards)
            v = _outcome(c, params, p)
            if v > best:
                best, best_a = v, a
        step(state, params, best_a, rewards)


@ajit
def turn_values(state, params, n_actions, n_players, noise, values):
    """Each legal action's value after completing the turn greedily (-inf if illegal)."""
    p = current_player(state, params)
    mask = np.zeros(n_actions, np.uint8)
    inner = np.zeros(n_actions, np.uint8)
    rewards = np.zeros(n_players, np.float32)
    legal_mask(state, params, mask)
    for a in range(n_actions):
        values[a] = -np.inf
        if not mask[a]:
            continue
        c = state.copy()
        step(c, params, a, rewards)
        _complete_turn(c, params, p, n_actions, inner, rewards)
        values[a] = _outcome(c, params, p) + noise[a]


@ajit
def evaluate_turn(state, params, out):
    """The MCTS value: finish the mover's turn greedily on a copy, then :func:`evaluate`.

    A Crusaders turn is a chain of sub-decisions (wedge, split, boosts, targets,
    sowing) that score nothing until the chain is done: a state halfway through a
    turn reads as if its action were wasted. So search values (priors and leaves) are
    taken where the turn ends, as the heuristic's own lookahead does.
    """
    if is_terminal(state, params) or state[L.PHASE] == L.PH_TURN:
        evaluate(state, params, out)
        return
    trial = state.copy()
    mask = np.zeros(N_ACTIONS, np.uint8)
    rewards = np.zeros(params[P_PLAYERS], np.float32)
    _complete_turn(trial, params, current_player(trial, params), N_ACTIONS, mask, rewards)
    evaluate(trial, params, out)


def choose(game: Game, state: np.ndarray, rng: np.random.Generator) -> int:
    """The legal action whose completed turn is best for the mover (random tie-break)."""
    game.check_state(state)
    if game.is_terminal(state):
        raise ValueError("crusaders: the game is over; no action to choose")
    values = np.empty(game.num_actions, np.float64)
    noise = rng.random(game.num_actions) * 1e-6
    turn_values(state, game.params, game.num_actions, game.num_players, noise, values)
    return int(np.argmax(values))


HEURISTIC = Heuristic(
    game="crusaders",
    description="Judges every option by completing the rest of its turn greedily and "
    "scoring the result: influence, end-game points now, uncovered bonuses, upgraded "
    "wedges, the fullest wedge, knights' distance to tiles, enemies and building room, "
    "minus the best rival's.",
    value=evaluate_turn,
    choose=choose,
    # leaves and priors: the value where the turn ends, no random rollout (random play
    # takes 250-580 turns per seat to drain the supply); c_uct scaled by the value's
    # slope at an even game (0.84 of tanh(m / SCALE)'s); one determinized root: the
    # only hidden information, rivals' dealt order tiles, stops mattering once kept
    mcts_defaults={"iterations": 100, "rollout_depth": 0, "c_uct": 1.2, "determinizations": 1},
)
