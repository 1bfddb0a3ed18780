"""Crusaders hidden information: the dealt order tiles, and ``determinize`` for one seat.

The seat's view (its observation) must not change when what it cannot see is resampled,
and the resampled deal must be a legal deal consistent with everything public.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import make_game
from crusadegym.core.crusaders import layout as L


def dealt(state: np.ndarray, p: int) -> tuple[int, int]:
    b = L.pl(p)
    return int(state[b + L.PL_DEALT]), int(state[b + L.PL_DEALT + 1])


def test_determinize_keeps_the_view_and_deals_consistently():
    for players in (2, 3, 4):
        game = make_game("crusaders", players=players)
        s = game.new_state(players)
        changed = 0
        for chosen in range(players + 1):  # before and after each seat keeps its order
            for seat in range(players):
                view = [game.observe(s, q) for q in range(players)]
                d = s.copy()
                game.determinize(d, seat)
                assert np.array_equal(game.observe(d, seat), view[seat])
                assert dealt(d, seat) == dealt(s, seat)
                tiles = [t for q in range(players) for t in dealt(d, q)]
                assert len(set(tiles)) == len(tiles), tiles  # every tile dealt once
                for q in range(players):
                    kept = int(d[L.pl(q) + L.PL_ORDER])
                    assert kept == int(s[L.pl(q) + L.PL_ORDER])
                    assert kept < 0 or kept in dealt(d, q)
                changed += any(dealt(d, q) != dealt(s, q) for q in range(players))
                mask = game.legal_mask(s)
                assert np.array_equal(game.legal_mask(d), mask) or game.current_player(s) != seat
            if chosen < players:
                game.step(s, int(game.legal_actions(s)[0]))
                while L.PHASE_NAMES[s[L.PHASE]] == "setup":
                    game.step(s, int(game.legal_actions(s)[0]))
        assert changed > 0  # the resampling does resample


def test_mcts_acts_through_determinized_roots():
    from crusadegym.agents.mcts import MCTSAgent, MCTSConfig

    game = make_game("crusaders", players=3)
    s = game.new_state(1)
    agent = MCTSAgent(seed=0, config=MCTSConfig(iterations=20, rollout_depth=0))
    a = agent.act_state(game, s)
    assert game.legal_mask(s)[a]
