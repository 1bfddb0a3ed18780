"""Decks of Deeds [R Part 2 "Decks of Deeds", "Steps of Starting the Battle"]: the
STAND-IN deck's quests, rewards and scourges as positions with expected outcomes, the
drop/take/discard actions, hidden cards (observation, determinize, the seat's text
view), random Campaigns and the conformance kit with Deeds on."""

from __future__ import annotations

import conformance as kit
import numpy as np
import pytest
from campaign_helpers import at, field, game, legal, play, position, random_games

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import battle as B
from crusadegym.core.deus_lo_vult.campaign import deeds as D
from crusadegym.core.deus_lo_vult.campaign import flow
from crusadegym.core.deus_lo_vult.campaign.determinize import view_state

DEEDS = {"deeds": True}
CARD = {row[0]: i for i, row in enumerate(D.DECK)}


def deed_line(cards, **more) -> str:
    cards = list(cards) + [-1] * (4 - len(cards))
    items = ["deed=" + ",".join(str(c) for c in cards)]
    items += [f"{k}={v}" for k, v in more.items()]
    return "campaign " + " ".join(items)


def token_of(kind: str, seat: int) -> int:
    k = T.KIND_NAMES.index(kind)
    return next(t for t in range(T.N_TOKENS) if T.TOKEN_KIND[t] == k and T.TOKEN_OWNER[t] == seat)


# ------------------------------------------------------------------ the deck
def test_deck_has_three_classes_worth_three_two_one_glory():
    """[R] "Epic Deed grants three Glory Points ... Mediocre Deed gives two ... Feeble
    Deed offers ... a single Glory Point"; every card has a quest, a reward for one Unit
    class and a scourge [R "The Card Anatomy"]."""
    values = sorted(int(v) for v in D.CARD_VALUE)
    assert values.count(3) == 3 and values.count(2) == 3 and values.count(1) >= 3
    assert all(0 <= k < T.N_CRUSADER_KINDS for k in D.CARD_KIND)
    assert all(n >= 1 for n in D.CARD_NEED)


def test_each_seat_draws_a_deed_and_a_common_quest_at_the_battle_start():
    """[R] "Randomly choose the individual Quest ... Randomly choose the common Quest"."""
    g = game(players=3, **DEEDS)
    seen = set()
    for seed in range(12):
        s = g.new_state(seed=seed)
        cards = field(s, "deed")[:3]
        assert all(0 <= c < D.N_CARDS for c in cards)
        assert 0 <= s[D.D_COMMON] < D.N_CARDS
        seen.update(cards)
    assert len(seen) > 3  # random draws
    s = game(players=2, **DEEDS, common_deed=False).new_state(seed=0)
    assert s[D.D_COMMON] == -1


# ------------------------------------------------------------------ quests
def test_a_quest_met_by_the_end_of_the_turn_is_completed():
    """First Blood (kill 1 Saracen): completed at the end of the turn, 1 Glory; the seat
    may take another Deed [R "If the Quest is finished, the Player can take an additional
    one"]."""
    first_blood = CARD["First Blood"]
    g, s = position(
        {"e6": "0K^", "e5": "sf'"},
        campaign=deed_line([first_blood, 0], deed_common=-1, deed_common_done=-1),
        **DEEDS,
    )
    play(g, s, "cell e6", "strike n")
    assert field(s, "deed_count")[D.K_SARACEN_KILLS] == 1
    play(g, s, "end")
    assert field(s, "deed")[0] == -1
    assert field(s, "deed_glory")[0] == 1
    assert field(s, "deed_pending")[0] == 1 << first_blood
    assert field(s, "deed_free")[0] == 1


def test_take_another_deed_after_completing_one():
    g, s = position({"e6": "0K"}, campaign=deed_line([-1, 0], deed_free="1,0,0,0"), **DEEDS)
    assert "take deed" in legal(g, s)
    play(g, s, "take deed")
    assert 0 <= field(s, "deed")[0] < D.N_CARDS
    assert "take deed" not in legal(g, s)


def test_glory_and_rewards_count_at_the_battle_end_failed_card_is_scourged():
    """[R] "If the Quest is not completed before this moment, it counts as failed, and
    the penalty awaits"; "The rewards and penalties always affect the next Battle"."""
    g = game(players=2, **DEEDS, common_deed=False)
    s = g.new_state(seed=1)
    s[D.D_CARD] = -1
    s[D.D_PENDING] = 1 << 4
    s[D.D_GLORY] = 2
    s[D.D_CARD + 1] = CARD["Knightly Robbery"]  # failed: fine 2 coins next Battle
    s[B.C_CARRY + 1] = 0
    s[L.SCORE : L.SCORE + 2] = [0, 3]
    s[B.C_COIN_BALANCE] = -3
    flow.end_battle(s, g.params)
    assert field(s, "last_deed_glory")[:2] == [2, 0]
    assert field(s, "deed_rewards")[:2] == [1 << 4, 0]
    assert field(s, "deed_scourge")[1] == 1 << CARD["Knightly Robbery"]
    assert field(s, "deed_public")[1] == 1
    assert field(s, "deed")[1] == CARD["Knightly Robbery"]  # kept to try again
    assert s[L.SCORE + 1] == 3 - 2  # the fine, paid from the carried coins
    assert not g.check_invariants(s)


def test_slow_scourge_costs_one_action_point_on_the_first_turn():
    g = game(players=2, **DEEDS)
    s = g.new_state(seed=1)
    s[D.D_SLOW] = 1
    s[L.AP] = 7
    D.begin_turn(s, g.params, 0)
    assert s[L.AP] == 6
    s[L.AP] = 7
    D.begin_turn(s, g.params, 0)
    assert s[L.AP] == 7


# ------------------------------------------------------------------ upgrades act
def test_veteran_reward_makes_a_wounding_skull_strike_kill():
    """Scourge of the Infidel's reward (veteran Foot Knights)."""
    board = {"e6": "0K^", "e5": "sf>"}  # its heart edge toward the Knight
    g, s = position(board, **DEEDS)
    play(g, s, "cell e6", "strike n")
    assert at(s, "e5") == "saracen_footman side=1 coins=0"  # wounded without it
    bit = 1 << CARD["Scourge of the Infidel"]
    g, s = position(board, campaign=f"campaign deed_rewards={bit},0,0,0", **DEEDS)
    play(g, s, "cell e6", "strike n")
    assert at(s, "e5") == "empty"


def test_porter_reward_carries_one_coin_more():
    """[R "Rewards"] "Upgrades may improve these Units' ... carrying capacities":
    Treasurer of the Host's reward (porter Pavesiers, STAND-IN) lifts the capacity of 1
    to 2 (hook ``capacity``), so a loaded Pavesier may TAKE a second coin."""
    board = {"e6": "0V*1", "f6": "$1"}
    g, s = position(board, **DEEDS)
    play(g, s, "cell e6")
    assert "take E" not in legal(g, s)
    bit = 1 << CARD["Treasurer of the Host"]
    g, s = position(board, campaign=f"campaign deed_rewards={bit},0,0,0", **DEEDS)
    play(g, s, "cell e6", "take E")
    assert at(s, "e6") == "pavesier side=0 coins=2"
    assert not [e for e in g.check_invariants(s) if "capacity" in e]


def test_swift_reward_makes_the_first_move_of_the_turn_free():
    """[R "Rewards"] "... movements": Knightly Robbery's reward (swift Cavalry, STAND-IN
    reading) -- the seat's first Cavalry move each turn costs no Action Point."""
    board = {"e6": "0C", "e7": "0P"}
    g, s = position(board, **DEEDS)
    play(g, s, "cell e6", "cell e8")
    assert s[L.AP] == 6
    bit = 1 << CARD["Knightly Robbery"]
    g, s = position(board, campaign=f"campaign deed_rewards={bit},0,0,0", **DEEDS)
    play(g, s, "cell e6", "cell e8")
    assert s[L.AP] == 7 and at(s, "e8").startswith("cavalry")
    play(g, s, "cell e8", "cell e6")  # the second move pays
    assert s[L.AP] == 6
    play(g, s, "cell e7", "cell e5")  # a Pilgrim is not of the class
    assert s[L.AP] == 5
    D.begin_turn(s, g.params, 0)
    assert field(s, "deed_swift_used") == [0]


def test_looter_reward_plunders_a_second_coin():
    """[R "Rewards"] "... plundering ... capacities": Pocket Money's reward (looter
    Pilgrims, STAND-IN) -- a plunder strike takes two coins when it can."""
    board = {"e4": "0Pv", "e5": "Q0^*2"}
    g, s = position(board, **DEEDS)
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "pilgrim side=0 coins=1"
    assert at(s, "e5") == "Residential side=0 coins=1"
    bit = 1 << CARD["Pocket Money"]
    g, s = position(board, campaign=f"campaign deed_rewards={bit},0,0,0", **DEEDS)
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "pilgrim side=0 coins=2"
    assert at(s, "e5") == "Residential side=1 coins=0"  # emptied: a Refugee


def test_armour_reward_and_frail_scourge_change_the_damage():
    g = game(players=2, **DEEDS)
    s = g.new_state(seed=0)
    archer, footman = token_of("archer", 0), token_of("footman", 0)
    saracen = T.SARACEN_TOKEN0
    assert D.adjust(s, saracen, archer, D.ICON_ARROW, 1) == 1
    s[D.D_REWARDS] = 1 << CARD["First Blood"]  # armour for Archers
    assert D.adjust(s, saracen, archer, D.ICON_ARROW, 1) == 0
    assert D.adjust(s, saracen, archer, D.ICON_SKULL, 1) == 1  # melee is not arrows
    assert D.adjust(s, saracen, footman, D.ICON_SKULL, 1) == 1
    s[D.D_SCOURGE] = 1 << CARD["Sack of the Bazaar"]  # frail Footmen
    assert D.adjust(s, saracen, footman, D.ICON_SKULL, 1) == 2
    assert D.adjust(s, saracen, footman, D.ICON_SKULL, 0) == 0


# ------------------------------------------------------------------ actions
def test_swap_deed_costs_the_price_in_secured_coins():
    """[R] "the Player can drop the Quest for 1 coin price and pick another one"; the
    option deed_swap_price=3 [R "by spending 3 coins"]."""
    line = deed_line([0, 0], coin_balance=-2)
    g, s = position({"e6": "0K"}, header="seat=0 ap=7 phase=army score=2,0", campaign=line, **DEEDS)
    assert "swap deed" in legal(g, s)
    play(g, s, "swap deed")
    assert s[L.SCORE] == 1 and s[L.AP] == 7
    assert not g.check_invariants(s)
    g, s = position(
        {"e6": "0K"},
        header="seat=0 ap=7 phase=army score=2,0",
        campaign=line,
        **DEEDS,
        deed_swap_price=3,
    )
    assert "swap deed" not in legal(g, s)


def test_a_deed_may_be_dropped_in_the_saracen_phase_of_ones_turn():
    """[R "Quest Overall Rules"] "Anytime during the game but on his/her turn, the Player
    can drop the Quest": after the seat has spent Action Points on the Saracens too."""
    line = deed_line([0, 0], coin_balance=-2)
    g, s = position(
        {"e6": "0K", "h8": "sf"},
        header="seat=0 ap=5 phase=saracen score=2,0",
        campaign=line,
        **DEEDS,
    )
    assert "swap deed" in legal(g, s)
    play(g, s, "swap deed")
    assert s[L.SCORE] == 1 and s[L.AP] == 5 and s[L.PHASE] == L.PH_SARACEN
    assert g.current_player(s) == 0 and not g.check_invariants(s)


def test_discard_failed_deed_draws_a_fresh_one():
    g, s = position({"e6": "0K"}, campaign=deed_line([3, 0], deed_public="1,0,0,0"), **DEEDS)
    assert "discard failed deed" in legal(g, s)
    play(g, s, "discard failed deed")
    assert field(s, "deed_public")[0] == 0
    assert "discard failed deed" not in legal(g, s)


def test_config_rejects_bad_deed_options():
    from crusadegym.core.deus_lo_vult.campaign.config import CampaignConfig

    with pytest.raises(ValueError, match="deed_swap_price"):
        CampaignConfig(players=2, deeds=True, deed_swap_price=2)
    with pytest.raises(ValueError, match="refugee_glory"):
        CampaignConfig(players=2, refugee_glory=False)


# ------------------------------------------------------------------ hidden cards
def test_a_hidden_deed_is_not_in_other_seats_observation():
    """[R] "You can decide to play with showing Deeds to each other, or hide them"."""
    g = game(players=2, **DEEDS)
    s = g.new_state(seed=3)
    t = s.copy()
    t[D.D_CARD] = (s[D.D_CARD] + 1) % D.N_CARDS
    assert np.array_equal(g.observe(s, 1), g.observe(t, 1))
    assert not np.array_equal(g.observe(s, 0), g.observe(t, 0))  # the holder sees it
    g = game(players=2, **DEEDS, deeds_visible=True)
    s = g.new_state(seed=3)
    t = s.copy()
    t[D.D_CARD] = (s[D.D_CARD] + 1) % D.N_CARDS
    assert not np.array_equal(g.observe(s, 1), g.observe(t, 1))


def test_determinize_resamples_only_what_the_seat_cannot_see():
    g = game(players=3, **DEEDS)
    s = g.new_state(seed=5)
    cards = set()
    for k in range(20):
        t = s.copy()
        t[L.RNG] = k + 1
        g.determinize(t, 0)
        assert t[D.D_CARD] == s[D.D_CARD]  # its own card
        assert np.array_equal(g.observe(t, 0), g.observe(s, 0))
        cards.add((int(t[D.D_CARD + 1]), int(t[D.D_CARD + 2])))
    assert len(cards) > 1
    s[D.D_PUBLIC + 1] = 1  # a public (failed) card is not resampled
    t = s.copy()
    g.determinize(t, 0)
    assert t[D.D_CARD + 1] == s[D.D_CARD + 1]


def test_render_view_hides_other_seats_deeds():
    g = game(players=2, **DEEDS)
    s = g.new_state(seed=3)
    v = view_state(s, g.params, 1)
    assert v[D.D_CARD] == -1 and v[D.D_CARD + 1] == s[D.D_CARD + 1]
    assert "hidden Deeds held by seat(s) 0" in g.render(s, 1)


# ------------------------------------------------------------------ random Campaigns
def test_random_campaigns_with_deeds_keep_invariants():
    g = game(players=3, max_turns=30, battles=3, **DEEDS, gauntlet="fons_honorum")
    for s in random_games(g, 3, seed=7):
        assert s[B.C_OVER] == 1


def test_conformance_with_deeds_on():
    g = game(players=2, max_turns=16, battles=2, **DEEDS)
    kit.check_quick(g)
