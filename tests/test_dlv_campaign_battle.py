"""Campaign structure, Battles and Glory [R Part 2 "Campaign Mode", "Steps of Starting
the Battle"]: the number of Battles or a Glory target, Glory = coins bought + Gauntlet
+ Deeds, what carries over, the Jerusalem setup, the Campaign result and its ties, what
the observation shows."""

from __future__ import annotations

import numpy as np
from campaign_helpers import field, game, random_games

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import battle as B
from crusadegym.core.deus_lo_vult.campaign import flow
from crusadegym.core.deus_lo_vult.campaign import observe as O


def test_a_number_of_battles():
    """[R] "Play a certain number of Battles (e.g., the same number as players)"."""
    g = game(players=2, max_turns=10, battles=3)
    for s in random_games(g, 2, seed=1):
        assert s[B.C_BATTLE] == 3 and s[B.C_OVER] == 1


def test_until_a_glory_target():
    """[R] "Play until a certain number of Glory points is reached by someone"."""
    g = game(players=2, battles=0, glory_target=2, max_battles=5)
    s = g.new_state(seed=0)
    s[L.SCORE : L.SCORE + 2] = [10, 0]  # 2 Glory bought
    s[B.C_COIN_BALANCE] = -10
    assert flow.end_battle(s, g.params)
    assert s[B.C_OVER] == 1 and field(s, "glory")[:2] == [2, 0]
    s = g.new_state(seed=0)
    s[L.SCORE : L.SCORE + 2] = [5, 0]
    s[B.C_COIN_BALANCE] = -5
    assert not flow.end_battle(s, g.params)  # 1 < 2: the next Battle
    assert s[B.C_BATTLE] == 1 and s[B.C_OVER] == 0


def test_coins_buy_glory_and_the_rest_is_carried_into_the_next_battle():
    """[R] "Glory points that you bought at the end of each Battle (5 coins = 1 Glory
    Point)"; the remainder starts the next Battle as secured coins (our reading), and the
    coin conservation still holds (coin balance)."""
    g = game(players=2, battles=3)
    s = g.new_state(seed=0)
    s[L.SCORE : L.SCORE + 2] = [7, 13]
    s[B.C_COIN_BALANCE] = -20
    flow.end_battle(s, g.params)
    assert field(s, "last_glory")[:2] == [1, 2]
    assert field(s, "carry")[:2] == [2, 3]
    assert [int(x) for x in s[L.SCORE : L.SCORE + 2]] == [2, 3]
    assert s[B.C_COIN_BALANCE] == -5
    assert not g.check_invariants(s)


def test_pay_coins_keeps_coins_conserved():
    g = game(players=2)
    s = g.new_state(seed=0)
    s[L.SCORE] = 3
    s[B.C_COIN_BALANCE] = -3
    assert not g.check_invariants(s)
    B.pay_coins(s, 0, 2)
    assert s[L.SCORE] == 1 and not g.check_invariants(s)
    s[L.SCORE] += 1  # a coin from nowhere is caught
    assert any("conserved" in e for e in g.check_invariants(s))


def test_campaign_result_most_glory_wins_ties_share_the_win():
    """Our reading (the rulebook has no tie rule for the Campaign): seats sharing the
    most Glory all win, everyone equal is a draw."""
    g = game(players=3)
    s = g.new_state(seed=0)
    s[B.C_OVER] = 1
    out = np.zeros(3, np.float32)
    for glory, expected in (
        ([4, 2, 1], [1, -1, -1]),
        ([3, 3, 1], [1, 1, -1]),
        ([2, 2, 2], [0, 0, 0]),
    ):
        s[B.C_GLORY : B.C_GLORY + 3] = glory
        flow.campaign_returns(s, g.params, out)
        assert out.tolist() == expected


def test_jerusalem_deals_all_twelve_quarters_at_once():
    """[R] "All 12 City Quarters (Jerusalem mode)"."""
    g = game(players=2)
    s = g.new_state(seed=2)
    on_board = [q for q in range(T.N_QUARTERS) if s[L.TOK_LOC + T.QUARTER_TOKEN0 + q] >= 0]
    assert len(on_board) == 12
    assert sorted(int(s[L.TOK_LOC + T.QUARTER_TOKEN0 + q]) for q in on_board) == sorted(
        int(c) for c in B.JERUSALEM_CELLS
    )


def test_observation_shows_the_battle_and_what_carried_over():
    g = game(players=2, battles=4)
    s = g.new_state(seed=0)
    o0 = g.observe(s, 0)
    s[L.SCORE : L.SCORE + 2] = [3, 9]
    s[B.C_COIN_BALANCE] = -12
    flow.end_battle(s, g.params)
    o1 = g.observe(s, 0)
    base = O.CSCALARS0
    assert o0[base + O.SB_BATTLE] == 0 and o1[base + O.SB_BATTLE] == 1 / 4
    assert o1[base + O.SB_CARRY] == 3 / 5 and o1[base + O.SB_CARRY + 1] == 4 / 5
    assert o1[base + O.SB_GLORY + 1] > 0 and o1[base + O.SB_GLORY] == 0
    assert np.all((o1 >= 0) & (o1 <= 1))
