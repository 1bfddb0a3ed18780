"""Gauntlet Runs [R Part 2 "Gauntlet Runs"] as positions with expected outcomes (the
rulebook's worked examples included), plus random Campaigns with each Gauntlet on
(invariants, conformance). Camps: seat 0 a1..c3 (centre b2); with three seats seat 1
j1..l3 (centre k2) and seat 2 j10..l12 (centre k11); with two seats seat 1 j10..l12.
"""

from __future__ import annotations

import conformance as kit
import numpy as np
import pytest
from campaign_helpers import field, game, legal, play, position, random_games

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import battle as B
from crusadegym.core.deus_lo_vult.campaign import flow
from crusadegym.core.deus_lo_vult.campaign import gauntlets as G

REFUGEES = {"gauntlet": "refugees_welcome"}
HOLIER = {"gauntlet": "holier_than_thou"}
FONS = {"gauntlet": "fons_honorum"}


def points(counts, table) -> list[int]:
    out = np.zeros(len(counts), np.int64)
    B.place_points(np.array(counts, np.int64), len(counts), np.array(table, np.int64), out)
    return [int(x) for x in out]


# ------------------------------------------------------------------ places and ties
def test_refugees_places_three_two_one_nothing():
    """[R] "First place ... 3 Glory Points; Second place - 2; Third place - 1; The fourth
    Player on the run gets nothing"."""
    assert points([5, 1, 3, 2], G.PLACES_REFUGEES) == [3, 0, 2, 1]


def test_refugees_tie_example_from_the_rulebook():
    """[R] "if two Players have 3 Refugees each, one has 2 and another one has 1, the
    first two get 2 Glory Points each and the last one still gets nothing"."""
    assert points([3, 3, 2, 1], G.PLACES_REFUGEES) == [2, 2, 1, 0]


def test_fons_honorum_example_from_the_rulebook():
    """[R] "Player A has 8 kills, Players B and C have 6 kills each, and Player D has
    just two kills, then only Player A gets 2 Glory Points, while the others get 1"."""
    assert points([8, 6, 6, 2], G.FONS_TABLE[4 - 2]) == [2, 1, 1, 1]
    assert points([8, 7, 6, 2], G.FONS_TABLE[4 - 2]) == [2, 2, 1, 1]  # "first two ... 2"


# ------------------------------------------------------------------ the coin exchange
def exchange(counts, purse):
    state = np.zeros(L.STATE_SIZE + 2000, np.int64)
    purse = np.array(purse, np.int64)
    G.exchange(state, np.array(counts, np.int64), len(counts), purse)
    held = [int(state[G.G_HELD + p]) for p in range(len(counts))]
    won = [int(state[G.G_EXCHANGE + p]) for p in range(len(counts))]
    return [int(x) for x in purse], won, held


def test_exchange_example_from_the_rulebook():
    """[R] "Player A has 4 Refugees, Player B has 5, and Player C has 3: B wins three
    Coins - one from A and two from C; A wins one Coin from C but loses it to B; C loses
    one Coin to A and two Coins to B"."""
    purse, won, held = exchange([4, 5, 3], [6, 6, 6])
    assert won == [0, 3, -3]
    assert purse == [6, 9, 3]
    assert held == [0, 0, 0]


def test_exchange_ransom_when_a_player_cannot_pay():
    """[R] "If the Player has no Coins to pay ... they can hold his Units for ransom
    (creditor's choice is limited by debt size measured in Army Points)": A (no coins)
    owes B one coin: one Army Point held; A still gets C's coin."""
    purse, won, held = exchange([4, 5, 3], [0, 6, 6])
    assert held == [1, 0, 0]
    assert purse == [1, 8, 3]
    assert won == [1, 2, -3]


def test_ransom_holds_the_most_valuable_units_up_to_the_debt():
    """The held units stay out of the next Battle (our reading: a 4-coin debt holds a
    Knight (3) and a Pilgrim (1), the rulebook's own example)."""
    g = game(players=2, **REFUGEES, refugee_exchange=True)
    s = g.new_state(seed=1)
    s[G.G_HELD + 1] = 4
    flow.next_battle(s, g.params)
    off = [
        T.KIND_NAMES[T.TOKEN_KIND[t]]
        for t in range(T.ARMY_SIZE, 2 * T.ARMY_SIZE)
        if s[L.TOK_LOC + t] == L.LOC_OFF
    ]
    assert sorted(off) == ["foot_knight", "pilgrim"]
    assert s[G.G_HELD + 1] == 0


# ------------------------------------------------------------------ Refugees Welcome!
def test_refugees_welcome_glory_at_the_battle_end():
    """Refugees stationed in each camp when the Battle ends: 3, 1, 2 -> 3, 1, 2 Glory,
    plus the coins bought (5 coins = 1 Glory Point), the rest carried over."""
    g, s = position(
        {"a1": "R0", "a3": "R1", "c1": "R2", "j1": "R3", "l12": "R4", "j12": "R5"},
        players=3,
        **REFUGEES,
    )
    s[L.SCORE : L.SCORE + 3] = [7, 0, 5]
    s[B.C_COIN_BALANCE] = -12  # as if carried in
    flow.score_battle(s, g.params)
    assert field(s, "last_gauntlet_glory")[:3] == [3, 1, 2]
    assert field(s, "last_glory")[:3] == [4, 1, 3]
    assert field(s, "carry")[:3] == [2, 0, 0]


def test_refugees_exchange_moves_coins_before_glory_is_bought():
    """The exchange's coins count toward the Glory bought: 3 vs 0 Refugees, 2 coins vs
    5: seat 1 pays 3 -> 5 and 2 coins."""
    g, s = position(
        {"a1": "R0", "a3": "R1", "c1": "R2"}, players=2, **REFUGEES, refugee_exchange=True
    )
    s[L.SCORE : L.SCORE + 2] = [2, 5]
    flow.score_battle(s, g.params)
    assert field(s, "last_score")[:2] == [5, 2]
    assert field(s, "exchange")[:2] == [3, -3]
    assert field(s, "last_glory")[:2] == [1 + 3, 0 + 2]


# ------------------------------------------------------------------ Fons Honorum
def test_fons_honorum_counts_saracen_kills_per_seat():
    """[R] "Players must kill more Saracens than others": a kill by seat 0's Knight."""
    g, s = position({"e6": "0K^", "e5": "sf'"}, **FONS)
    play(g, s, "cell e6", "strike n")
    assert s[L.BOARD + 4 * 12 + 4] == -1  # e5 is empty: the Saracen died
    assert field(s, "g_count")[:2] == [1, 0]


def test_fons_honorum_wounding_is_not_a_kill():
    g, s = position({"e6": "0K^", "e5": "sf"}, **FONS)
    play(g, s, "cell e6", "strike n")
    assert field(s, "g_count")[:2] == [0, 0]


def test_fons_honorum_winner_alone_has_knights_next_battle():
    """[R] "during the next Battle, the winning Player will have all Knight tokens from
    all Armies at his disposal, while other Players will have none"."""
    g = game(players=2, **FONS)
    s = g.new_state(seed=2)
    s[G.G_COUNT : G.G_COUNT + 2] = [3, 1]
    flow.end_battle(s, g.params)
    assert s[G.G_KNIGHTS] == 0
    assert field(s, "last_gauntlet_glory")[:2] == [2, 1]
    kinds = [T.TOKEN_KIND[t] for t in range(T.ARMY_SIZE, 2 * T.ARMY_SIZE)]
    knights = [
        t + T.ARMY_SIZE
        for t, k in enumerate(kinds)
        if T.KIND_NAMES[k] in ("foot_knight", "cavalry")
    ]
    assert all(s[L.TOK_LOC + t] == L.LOC_OFF for t in knights)
    assert all(s[L.TOK_LOC + t - T.ARMY_SIZE] == L.LOC_RESERVE for t in knights)
    assert not g.check_invariants(s)


def test_fons_honorum_tie_means_no_one_wins_the_knights():
    """[R] "tie means no one wins"."""
    g = game(players=2, **FONS)
    s = g.new_state(seed=2)
    s[G.G_COUNT : G.G_COUNT + 2] = [2, 2]
    flow.end_battle(s, g.params)
    assert s[G.G_KNIGHTS] == -1
    assert all(s[L.TOK_LOC + t] == L.LOC_RESERVE for t in range(2 * T.ARMY_SIZE))


# ------------------------------------------------------------------ Holier Than Thou
STASH = {"e5": "mhs", "e6": "0P*2", "c9": "1F"}
NO_HIDDEN = "field_under=" + ",".join(["-1"] * T.N_AMENITY_KINDS)


def test_tithe_a_coin_to_the_hidden_stash():
    """[R] "The Player must pass the Coin to this Amenity (Capitularius side up) to
    instantly transfer it to this Player's Capitularius card"."""
    # a hand-made position: the Pilgrim's 2 coins as if carried in (coin balance -2)
    g, s = position(STASH, campaign=f"campaign coin_balance=-2 {NO_HIDDEN}", **HOLIER)
    assert not g.check_invariants(s)
    left = int(s[L.ROUND_LEFT])
    play(g, s, "cell e6", "tithe coin")
    assert field(s, "capitularius")[:2] == [1, 0]
    assert s[L.ROUND_LEFT] == left - 1
    assert s[L.AP] == 6
    assert not g.check_invariants(s)


def test_withdraw_needs_the_stash_side_up_one_coin_per_move():
    """[R] "Players can't withdraw Coins from their Capitularius card directly ... flip
    it Stash side up. Transfer Coins back from your card, one Coin per Move"."""
    g, s = position(STASH, campaign="campaign capitularius=2,0,0,0", **HOLIER)
    play(g, s, "cell e6")
    assert "withdraw tithe" not in legal(g, s)
    play(g, s, "flip stash", "cell e6")
    assert "tithe coin" not in legal(g, s)  # Stash side up: no passing
    # the Pilgrim carries 2 (its capacity): no room to withdraw
    assert "withdraw tithe" not in legal(g, s)


def test_withdraw_a_coin_back():
    g, s = position({"e5": "mhs", "e6": "0P"}, campaign="campaign capitularius=2,0,0,0", **HOLIER)
    play(g, s, "cell e6", "flip stash", "cell e6", "withdraw tithe")
    assert field(s, "capitularius")[:2] == [1, 0]
    assert s[L.TOK_COINS + s[L.BOARD + 5 * 12 + 4]] == 1
    assert s[L.AP] == 5


def test_penance_lets_others_withdraw_from_the_foremost_sinner():
    """[R "Penance"] "other Players can withdraw Coins from this Player's Capitularius
    card as if it was their own"; the sinner has the most units in Purgatory, no ties."""
    g, s = position(
        {"e5": "mhs", "e6": "0P"},
        header="seat=0 ap=7 phase=army purgatory=1K,1F",
        campaign="campaign capitularius=0,3,0,0",
        **HOLIER,
        penance=True,
    )
    play(g, s, "cell e6", "flip stash", "cell e6")
    assert "withdraw penance" in legal(g, s)
    play(g, s, "withdraw penance")
    assert field(s, "capitularius")[:2] == [0, 2]
    g, s = position(
        {"e5": "mhs", "e6": "0P"},
        header="seat=0 ap=7 phase=army purgatory=1K,0F",
        campaign="campaign capitularius=0,3,0,0",
        **HOLIER,
        penance=True,
    )
    play(g, s, "cell e6", "flip stash", "cell e6")
    assert "withdraw penance" not in legal(g, s)  # 1 vs 1: no foremost sinner


def test_last_coin_tithed_ends_the_battle():
    """[R] "The last Coin could be secured either to Camp or to Stash to end the
    Battle"."""
    g, s = position({"e5": "mhs", "e6": "0P*1"}, **HOLIER)
    s[L.ROUND_LEFT] = 1  # the pilgrim's coin is the Battle's last one
    battle = int(s[B.C_BATTLE])
    play(g, s, "cell e6", "tithe coin")
    assert s[B.C_BATTLE] == battle + 1


def test_tithe_winner_gets_indulgence_and_resurrects_later():
    """[R] "Whoever to raise more than others will be granted ... the ability to use
    those collected Coins to save their Units from Purgatory during the next Battles
    (discard one Coin to resurrect your Unit)"."""
    g = game(players=2, **HOLIER)
    s = g.new_state(seed=4)
    s[G.G_CAPIT : G.G_CAPIT + 2] = [3, 1]
    flow.end_battle(s, g.params)
    assert s[G.G_TITHE_WINNER] == 0
    assert field(s, "indulgence")[:2] == [3, 0]
    assert field(s, "last_gauntlet_glory")[:2] == [3, 2]


def test_two_coins_rule_breaks_a_tithe_tie():
    """[R] "the two-coins rule, which grants double points for the first and the last
    secured Coins, to resolve ties" (read as the first and last coins tithed)."""
    g = game(players=2, **HOLIER, two_coins=True)
    s = g.new_state(seed=4)
    s[G.G_CAPIT : G.G_CAPIT + 2] = [2, 2]
    s[G.G_TITHE_FIRST] = 1
    s[G.G_TITHE_LAST] = 1
    flow.end_battle(s, g.params)
    assert s[G.G_TITHE_WINNER] == 1
    g = game(players=2, **HOLIER)
    s = g.new_state(seed=4)
    s[G.G_CAPIT : G.G_CAPIT + 2] = [2, 2]
    flow.end_battle(s, g.params)
    assert s[G.G_TITHE_WINNER] == -1


def test_indulgence_action_brings_a_unit_back_from_purgatory():
    g, s = position(
        {"e6": "0P"},
        header="seat=0 ap=7 phase=army purgatory=0K,1F",
        campaign="campaign indulgence=1,0,0,0",
        **HOLIER,
    )
    assert "indulgence" in legal(g, s)
    play(g, s, "indulgence")
    assert field(s, "indulgence")[:2] == [0, 0]
    assert s[L.PURG + 1] == -1 and T.TOKEN_OWNER[s[L.PURG]] == 1
    assert "indulgence" not in legal(g, s)
    assert not g.check_invariants(s)


# ------------------------------------------------------------------ random Campaigns
@pytest.mark.parametrize(
    "options",
    [
        {**REFUGEES, "refugee_exchange": True},
        {**HOLIER, "penance": True, "two_coins": True},
        FONS,
    ],
)
def test_random_campaigns_keep_invariants(options):
    g = game(players=3, max_turns=30, battles=2, **options)
    finals = random_games(g, 3, seed=5)
    for s in finals:
        assert s[B.C_OVER] == 1 and s[B.C_BATTLE] == 2


@pytest.mark.parametrize("gauntlet", ["refugees_welcome", "holier_than_thou", "fons_honorum"])
def test_conformance_with_each_gauntlet(gauntlet):
    g = game(players=2, max_turns=16, battles=2, gauntlet=gauntlet)
    kit.check_quick(g)
