"""Deus MCTS at its default budget: what its value reads and how it searches (issue #36).

Goal 4: MCTS beats the heuristic with a Wilson lower bound above 0.6 over 200 games at
the default config. Measured by the ladder (docs/arena.md, ``ladder:deus``): 146-52-2,
0.73 [0.67, 0.79]. The search scores each root action one round of whole turns later
(``heuristics/deus.evaluate_turn``) and takes one iteration per determinized root: a
deeper tree scored lower the more it searched (docs/rules/deus.md, "Measured"). These
tests pin that shape; the strength itself is the ladder's (200 games are too slow here).
"""

from __future__ import annotations

import numpy as np
from deus_helpers import game

from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics.deus import (
    _complete_turn,
    best_turn,
    evaluate,
    evaluate_turn,
    turn_values,
)
from crusadegym.agents.mcts import MCTSAgent
from crusadegym.core.deus import layout as L


def _value(kernel, state, params, players):
    out = np.zeros(players, np.float32)
    kernel(state, params, out)
    return out


def _one_round_later(state, params, players):
    """evaluate where the current turn ends and every seat has had one more whole turn."""
    s = state.copy()
    if s[L.PHASE] != L.PH_MAIN:
        _complete_turn(s, params, s[L.CUR], s[L.TURN])
    for _ in range(players):
        if s[L.OVER]:
            break
        best_turn(s, params)
    return _value(evaluate, s, params, players)


def _positions(g, count, seed=3):
    """Heuristic-play positions, both at a turn's start and halfway through a turn."""
    s = g.new_state(seed)
    agents = [HeuristicAgent(seed=seed + p) for p in range(g.num_players)]
    found = {"start": [], "mid": []}
    steps = 0
    while not g.is_terminal(s) and min(len(v) for v in found.values()) < count:
        kind = "start" if s[L.PHASE] == L.PH_MAIN else "mid"
        if steps % 5 == 0 and len(found[kind]) < count:
            found[kind].append(s.copy())
        g.step(s, agents[g.current_player(s)].act_state(g, s))
        steps += 1
    return found["start"] + found["mid"]


def test_value_is_read_one_round_later():
    g = game(players=2)
    positions = _positions(g, 3)
    assert any(p[L.PHASE] != L.PH_MAIN for p in positions)
    for s in positions:
        before = s.copy()
        np.testing.assert_array_equal(
            _value(evaluate_turn, s, g.params, 2), _one_round_later(s, g.params, 2)
        )
        np.testing.assert_array_equal(s, before)  # scored on a copy


def test_best_turn_is_the_heuristic_lookahead_then_greedy():
    g = game(players=2)
    s = _positions(g, 1)[0]
    seat, turn = s[L.CUR], s[L.TURN]
    values = np.empty(g.num_actions, np.float64)
    turn_values(s, g.params, values)
    played = s.copy()
    best_turn(played, g.params)
    assert played[L.OVER] or (played[L.TURN] == turn + 1 and played[L.CUR] != seat)
    replay = s.copy()
    g.step(replay, int(np.argmax(values)))
    _complete_turn(replay, g.params, seat, turn)
    np.testing.assert_array_equal(played, replay)


def test_default_budget_is_one_iteration_per_root():
    g = game(players=2)
    cfg = MCTSAgent().config_for(g)
    assert cfg.iterations == cfg.determinizations
    assert cfg.rollout_depth == 0


def test_default_search_plays_legal_moves():
    g = game(players=2)
    agent = MCTSAgent(seed=1)
    for s in _positions(g, 2):
        a = agent.act_state(g, s)
        assert g.legal_mask(s)[a]
        assert agent.last_iterations in (0, agent.config_for(g).iterations)
