"""River Amenities [R Part 2 "River Amenities", "Latrine", "Cholera", "Surgeon",
"Salutificatio", "Donkey"] as positions, invariants and conformance.

Seat 0's camp is a1-c3 (centre b2), seat 1's j10-l12 (2 players).
"""

from __future__ import annotations

import conformance as kit
import pytest
from campaign_helpers import at, field, game, legal, play, position, random_games

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult.campaign import river as RV

LATRINE = {"amenities": ("latrine",)}
SURGEON = {"amenities": ("surgeon",)}
SALUT = {"amenities": ("salutificatio",)}


# ------------------------------------------------------------------ Latrine, Cholera
def test_units_in_camp_use_the_clean_latrine_at_the_end_of_the_turn():
    """[R] "Players must use the Latrine at the end of their Turn if they have any units
    in their Camp Tents" ... "to flip the clean Latrine filthy side up"."""
    g, s = position({"a1": "0F"}, **LATRINE)
    assert field(s, "latrine") == [RV.CLEAN]
    play(g, s, "end")
    assert field(s, "latrine") == [RV.FILTHY] and field(s, "cholera")[:2] == [0, 0]


def test_empty_camp_leaves_the_latrine_clean():
    g, s = position({"e5": "0F", "e6": "0F"}, **LATRINE)
    play(g, s, "end")
    assert field(s, "latrine") == [RV.CLEAN]


def test_filthy_latrine_and_units_in_camp_bring_cholera():
    """[R "Cholera"] "If you end your Turn having both filthy Latrine AND Unit(s) in your
    Camp ... Put the Cholera Divine Will card next to you"."""
    g, s = position({"a1": "0F"}, campaign="campaign latrine=1", **LATRINE)
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [1, 0]


def test_a_pilgrim_in_camp_cleans_for_free():
    """[R] "having Pilgrim in Camp gives you free cleanup"."""
    g, s = position({"a1": "0P"}, campaign="campaign latrine=1", **LATRINE)
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [0, 0] and field(s, "latrine") == [RV.FILTHY]


def test_cleaning_costs_one_move():
    """[R] "Cleaning will cost you either one Move or one Coin"."""
    g, s = position({"a1": "0F"}, campaign="campaign latrine=1", **LATRINE)
    opts = legal(g, s)
    assert "clean latrine move" in opts
    assert "clean latrine coin" not in opts  # no secured coin to pay with
    play(g, s, "clean latrine move")
    assert int(s[L.AP]) == 6 and field(s, "latrine") == [RV.CLEAN]
    assert "clean latrine move" not in legal(g, s)  # clean now: nothing to clean
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [0, 0] and field(s, "latrine") == [RV.FILTHY]


def test_cleaning_costs_one_coin():
    g, s = position(
        {"a1": "0F"}, "seat=0 ap=7 phase=army score=2,0", campaign="campaign latrine=1", **LATRINE
    )
    play(g, s, "clean latrine coin")
    assert int(s[L.SCORE]) == 1 and int(s[L.AP]) == 7
    assert field(s, "latrine") == [RV.CLEAN]


CHOLERA_BOARD = {"e5": "0K^", "e6": "0P", "e4": "sg"}


def test_cholera_units_do_not_attack_but_move():
    """[R] "They can move ... but they won't attack until the Cholera is expelled"."""
    g, s = position(CHOLERA_BOARD, **LATRINE)
    play(g, s, "cell e5")
    assert "strike N" in legal(g, s)
    g, s = position(CHOLERA_BOARD, campaign="campaign cholera=1,0,0,0", **LATRINE)
    play(g, s, "cell e5")
    opts = legal(g, s)
    assert "strike N" not in opts
    assert any(a.startswith("cell ") for a in opts)


def test_cholera_is_expelled_with_an_empty_camp_and_a_clean_latrine():
    """[R] "Expel Cholera if you have an empty Camp and a clean Latrine by the end of your
    Turn"."""
    g, s = position({"e5": "0K"}, campaign="campaign cholera=1,0,0,0", **LATRINE)
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [0, 0]
    g, s = position({"e5": "0K"}, campaign="campaign cholera=1,0,0,0 latrine=1", **LATRINE)
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [1, 0]  # filthy Latrine: Cholera stays
    g, s = position({"a1": "0P"}, campaign="campaign cholera=1,0,0,0", **LATRINE)
    play(g, s, "end")
    assert field(s, "cholera")[:2] == [1, 0]  # someone in Camp: not expelled


# ------------------------------------------------------------------ Surgeon
SURGERY = {"e5": "0K'", "e6": "0P"}


def test_surgeon_heals_anywhere_for_one_move_then_is_used():
    """[R "Surgeon"] "heal a Crusader Unit anywhere on the game board without entering
    the Tent" ... "(spend one Move). Flip the Surgeon "used" side up afterward"."""
    g, s = position(SURGERY, **SURGEON)
    play(g, s, "cell e5")
    assert "surgeon heal" in legal(g, s)
    play(g, s, "surgeon heal")
    assert at(s, "e5") == "foot_knight side=0 coins=0"
    assert int(s[L.AP]) == 6 and field(s, "surgeon") == [RV.USED]
    play(g, s, "cell e5", "weaken", "cell e5")
    assert "surgeon heal" not in legal(g, s)


def test_surgeon_is_not_offered_for_strong_or_rival_units():
    g, s = position({"e5": "0K", "e6": "0P", "h8": "1K'", "h9": "1P"}, **SURGEON)
    play(g, s, "cell e5")
    assert "surgeon heal" not in legal(g, s)


def test_rearming_the_surgeon_costs_one_coin_and_one_move():
    """[R] "flipped "ready" side up for one Coin ... This action will also cost you one
    Move"."""
    g, s = position(SURGERY, campaign="campaign surgeon=1", **SURGEON)
    assert "rearm surgeon" not in legal(g, s)  # no coin
    g, s = position(
        SURGERY, "seat=0 ap=7 phase=army score=1,0", campaign="campaign surgeon=1", **SURGEON
    )
    play(g, s, "rearm surgeon")
    assert int(s[L.SCORE]) == 0 and int(s[L.AP]) == 6 and field(s, "surgeon") == [RV.READY]
    play(g, s, "cell e5", "surgeon heal")
    assert at(s, "e5") == "foot_knight side=0 coins=0"


# ------------------------------------------------------------------ Salutificatio, Donkey
def test_a_refugee_put_into_a_rival_camp_earns_a_coin_on_salutificatio():
    """[R] "The Player can put one Coin from his treasury onto his Salutificatio card
    whenever he puts a Refugee to another Player's Camp"."""
    board = {"i10": "0F", "i11": "R3"}
    g, s = position(board, "seat=0 ap=7 phase=army score=2,0", **SALUT)
    assert "salutificatio coin" not in legal(g, s)
    play(g, s, "cell i11", "cell j10")
    assert at(s, "j10") == "Hospital side=1 coins=0"  # the Refugee, in seat 1's Camp
    assert field(s, "salut_due")[:1] == [1]
    play(g, s, "salutificatio coin")
    assert field(s, "salut")[:2] == [1, 0] and int(s[L.SCORE]) == 1
    assert "salutificatio coin" not in legal(g, s)  # one coin per Refugee


def test_donkey_rescues_a_stranded_unit_and_returns_when_disconnected():
    """[R "Donkey"] "summon him ... by discarding a Coin from the Salutificatio ... puts
    him next to the chosen stranded Unit, thus creating a movable band ... returns to
    River after being disconnected from Units"."""
    g, s = position({"e5": "0K'"}, campaign="campaign salut=1,0,0,0", weather="active", **SALUT)
    play(g, s, "cell e5")
    opts = legal(g, s)
    assert {"summon donkey n", "summon donkey w"} <= opts
    assert not any(a.startswith("cell ") for a in opts)  # alone: cannot move
    play(g, s, "summon donkey w")
    assert at(s, "d5").startswith("donkey")
    assert field(s, "salut")[:1] == [0]
    play(g, s, "cell e5")
    assert any(a.startswith("cell ") for a in legal(g, s))  # a movable band now


def test_donkey_goes_back_to_the_river_when_its_unit_dies():
    g, s = position({"e5": "0K'"}, campaign="campaign salut=1,0,0,0", weather="active", **SALUT)
    play(g, s, "cell e5", "summon donkey w")
    donkey = RV.DONKEY
    assert int(s[L.TOK_LOC + donkey]) >= 0
    play(g, s, "play heat")  # e5 is red: the weak Knight dies
    assert at(s, "e5") == "empty" and at(s, "d5") == "empty"
    assert int(s[L.TOK_LOC + donkey]) == L.LOC_OFF


def test_no_donkey_without_a_coin_on_the_card_or_for_a_unit_in_a_band():
    g, s = position({"e5": "0K"}, **SALUT)
    play(g, s, "cell e5")
    assert not any(a.startswith("summon") for a in legal(g, s))
    g, s = position({"e5": "0K", "e6": "0P"}, campaign="campaign salut=1,0,0,0", **SALUT)
    play(g, s, "cell e5")
    assert not any(a.startswith("summon") for a in legal(g, s))


# ------------------------------------------------------------------ Pillory, Bacchanalia
PILLORY = {"amenities": ("pillory",)}


def test_local_bacchanalia_pilgrims_without_a_knight_in_camp():
    """[R] "Local Bacchanalia happens when a Player finishes a Turn having a Pilgrim Unit
    and no Knight Units in a Camp" ... "discards it when having either a supervising
    Knight or no idle Pilgrims in Camp"."""
    g, s = position({"a1": "0P"}, **PILLORY)
    play(g, s, "end")
    assert field(s, "baccatio")[:2] == [RV.LOCAL, 0]
    assert RV.baccatio_active(s, g.params, 0) and not RV.baccatio_active(s, g.params, 1)
    g, s = position({"a1": "0P", "a2": "0K"}, **PILLORY)
    play(g, s, "end")
    assert field(s, "baccatio")[:2] == [0, 0]  # a supervising Knight
    g, s = position({"e5": "0P", "e6": "0P"}, campaign="campaign baccatio=1,0,0,0", **PILLORY)
    play(g, s, "end")
    assert field(s, "baccatio")[:2] == [0, 0]  # no idle Pilgrim in Camp any more


def test_total_bacchanalia_a_loose_coin_vanishes_and_everyone_without_knights_drinks():
    """[R] "Total Bacchanalia happens when there is a Coin at an empty cell on the game
    board (not in Camp) by the end of the Turn ... The Coin disappears ... All Players
    should put a Baccatio Card next to their Camp until their next Turn if they don't
    have Knights in their Camps"."""
    board = {"e5": "$1", "f5": "Q0*2", "l12": "1K", "h8": "0F", "h9": "0F"}
    g, s = position(board, **PILLORY)
    left = int(s[L.ROUND_LEFT])
    play(g, s, "end")
    assert int(s[L.GROUND + 4 * 12 + 4]) == 0 and int(s[L.ROUND_LEFT]) == left - 1
    assert field(s, "baccatio")[0] == RV.TOTAL  # seat 0: no Knight in its Camp
    assert field(s, "baccatio")[1] == 0  # seat 1 keeps a Knight in camp (and its turn began)
    assert field(s, "coin_balance") == [1]  # the bank's coin, for the conservation count
    play(g, s, "end")
    assert field(s, "baccatio")[0] == 0  # "until their next Turn"


def test_the_rounds_last_coin_does_not_vanish():
    g, s = position({"e5": "$1", "h8": "0F", "h9": "0F"}, **PILLORY)
    play(g, s, "end")
    assert int(s[L.GROUND + 4 * 12 + 4]) == 1 and field(s, "baccatio")[0] == 0


ROBBERY = {"e5": "0K^", "e6": "0P", "e4": "1Kv*1", "e3": "1P"}


def test_drunk_units_can_be_robbed_over_their_skull_edge_without_a_wound():
    """[R] "Units get drunk and cannot retaliate, so they could be attacked and robbed via
    Skull edge as quickly as if it was a Heart edge"."""
    g, s = position(ROBBERY, **PILLORY)
    play(g, s, "cell e5")
    assert "strike N" not in legal(g, s)  # sober: a Skull edge cannot be robbed
    g, s = position(ROBBERY, campaign="campaign baccatio=0,1,0,0", **PILLORY)
    play(g, s, "cell e5")
    assert "strike N" in legal(g, s)
    play(g, s, "strike N")
    assert at(s, "e5") == "foot_knight side=0 coins=1"  # no wound to the robber
    assert at(s, "e4") == "foot_knight side=0 coins=0"


def test_drunk_units_cannot_retaliate():
    board = {"e4": "sgv", "e5": "1K^", "e6": "1P", "h8": "0F", "h9": "0F"}
    g, s = position(board, "seat=0 ap=7 phase=saracen", **PILLORY)
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "ghazi side=1 coins=0"  # the Knight's skull strikes back
    g, s = position(
        board, "seat=0 ap=7 phase=saracen", campaign="campaign baccatio=0,1,0,0", **PILLORY
    )
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "ghazi side=0 coins=0"  # drunk: no retaliation
    assert at(s, "e5") == "foot_knight side=1 coins=0"


def test_the_pillory_ends_the_bacchanalia_then_costs_a_coin_or_two_moves():
    """[R "The Pillory"] "To use it means to flip it the active side up. After that ... the
    Bacchanalia comes to an end. If the Pillory was used/flipped before, the Player should
    pay One Coin or Two Moves to use it again"."""
    g, s = position({"a1": "0P"}, campaign="campaign baccatio=1,0,0,0", **PILLORY)
    assert "use pillory" in legal(g, s)
    play(g, s, "use pillory")
    assert field(s, "baccatio")[0] == 0 and field(s, "pillory") == [RV.USED]
    assert int(s[L.AP]) == 7
    g, s = position(
        {"a1": "0P"},
        "seat=0 ap=7 phase=army score=1,0",
        campaign="campaign baccatio=1,0,0,0 pillory=1",
        **PILLORY,
    )
    opts = legal(g, s)
    assert "use pillory" not in opts and {"pillory coin", "pillory moves"} <= opts
    play(g, s, "pillory moves")
    assert int(s[L.AP]) == 5 and field(s, "baccatio")[0] == 0
    g, s = position(
        {"a1": "0P"},
        "seat=0 ap=7 phase=army score=1,0",
        campaign="campaign baccatio=1,0,0,0 pillory=1",
        **PILLORY,
    )
    play(g, s, "pillory coin")
    assert int(s[L.SCORE]) == 0 and field(s, "baccatio")[0] == 0
    assert field(s, "coin_balance") == [1]  # paid to the bank (battle.pay_coins)


def test_no_baccatio_without_the_pillory():
    """[R] "there can't be Baccatio effect, in case there is no Pillory in the River"."""
    g, s = position({"a1": "0P"}, **LATRINE)
    play(g, s, "end")
    assert field(s, "baccatio")[:2] == [0, 0]


# ------------------------------------------------------------------ random games, kit
RIVER_ALL = {"amenities": ("latrine", "pillory", "surgeon", "salutificatio")}


@pytest.mark.parametrize("options", [{"preset": "kyivan"}, RIVER_ALL])
def test_random_campaigns_keep_invariants(options):
    g = game(max_turns=30, battles=2, **options)
    finals = random_games(g, 4, seed=3)
    assert all(g.is_terminal(s) or g.is_truncated(s) for s in finals)


@pytest.mark.parametrize("preset", ["kyivan", "matrimonial"])
def test_conformance_kit_with_the_river_on(preset):
    g = game(preset, max_turns=16, battles=2)
    kit.check_quick(g)


def test_invariants_catch_broken_river_tokens():
    g = game("matrimonial")
    s = g.new_state(seed=1)
    assert not RV.check(s, g.params)
    s[RV.R_LATRINE] = 2
    assert any("latrine" in e for e in g.check_invariants(s))
    s = g.new_state(seed=1)
    s[RV.R_SALUT + 1] = -1
    assert RV.check(s, g.params)
