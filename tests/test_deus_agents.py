"""Deus agents act only on what their seat sees: their move does not change when the
hidden information (rivals' hands, deck order, cards under offerings) is changed."""

from __future__ import annotations

import numpy as np
import pytest
from deus_helpers import game
from test_deus_hidden import _random_positions, resample_hidden

from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics import get_heuristic
from crusadegym.agents.mcts import MCTSAgent
from crusadegym.core.deus import layout as L


def _decision_points(g, n_games, seed):
    """Positions where the mover has a real choice in the main phase."""
    for s in _random_positions(g, n_games, seed, every=5):
        if s[L.PHASE] == L.PH_MAIN and len(g.legal_actions(s)) > 2:
            yield s


@pytest.mark.parametrize("players", [2, 3])
def test_heuristic_move_ignores_what_its_seat_cannot_see(players):
    g = game(players=players, max_turns=40)
    rng = np.random.default_rng(1)
    n = 0
    for s in _decision_points(g, 2, 30 + players):
        seat = g.current_player(s)
        other = resample_hidden(s, seat, players, rng, vp_and_dice=False)
        if np.array_equal(other, s):
            continue
        a = HeuristicAgent(seed=5).act_state(g, s)
        b = HeuristicAgent(seed=5).act_state(g, other)
        assert a == b
        n += 1
    assert n > 10


def test_mcts_move_ignores_what_its_seat_cannot_see():
    g = game(max_turns=40)
    rng = np.random.default_rng(3)
    n = 0
    for s in _decision_points(g, 1, 50):
        seat = g.current_player(s)
        other = resample_hidden(s, seat, 2, rng, vp_and_dice=False)
        agent_a = MCTSAgent(seed=9, iterations=16, determinizations=4)
        agent_b = MCTSAgent(seed=9, iterations=16, determinizations=4)
        assert agent_a.act_state(g, s) == agent_b.act_state(g, other)
        assert agent_a.last_visits == agent_b.last_visits
        n += 1
        if n == 6:
            break
    assert n == 6


def test_mcts_searches_determinized_roots_only(monkeypatch):
    """Every root handed to the Python search is a determinization, never the true state
    (the compiled engine's roots: tests/test_search_hidden_info.py)."""
    import crusadegym.agents.mcts as mcts

    g = game(max_turns=40)
    s = next(_decision_points(g, 1, 60))
    seen = []
    original = mcts._Node.__init__

    def spy(self, game_, state, rng, shuffle=True):
        seen.append(state.copy())
        original(self, game_, state, rng, shuffle)

    monkeypatch.setattr(mcts._Node, "__init__", spy)
    agent = MCTSAgent(seed=0, iterations=8, determinizations=4, prior_visits=0.0, engine="python")
    agent.act_state(g, s)
    roots = seen[:4]
    assert len(roots) == 4 and all(not np.array_equal(r, s) for r in roots)
    seat = g.current_player(s)
    assert all(np.array_equal(g.observe(r, seat), g.observe(s, seat)) for r in roots)


def test_heuristic_is_registered():
    assert get_heuristic("deus").game == "deus"
