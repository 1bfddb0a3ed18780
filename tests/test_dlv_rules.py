"""Deus lo Vult Duel rules, tested the way the rulebook states them.

Each test is a position in notation (see ``core/deus_lo_vult/notation.py``), one or
more actions, and the outcome a rulebook reader expects. Orientation reminders:
seat 0 camps in the north-west (a1-c3, centre b2) and its tokens face south;
seat 1 camps in the south-east (j10-l12, centre k11) and faces north. Edges are
(front, right, back, left), so a seat-0 Footman (S H Sh H) has its skull to the
south, its shield to the north and hearts east and west.
"""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import at, ground, legal, loc, play, position, purgatory, token

from crusadegym.core import IllegalActionError, make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import parse_cell
from crusadegym.core.deus_lo_vult.config import P_CAMP_OWNER

# a quarter far away keeps the round from ending when a test secures a coin
SPARE = {"l6": "Q4*3"}


# ------------------------------------------------------------------ board and setup
def test_two_players_use_diagonal_camps_and_face_along_their_camp():
    g = make_game("deus_lo_vult", players=2)
    s = g.new_state(0)
    assert g.render(s).splitlines()[3].split()[2] == "#"  # b2: seat 0's camp centre
    assert g.render(s).splitlines()[12].split()[11] == "#"  # k11: seat 1's camp centre


@pytest.mark.parametrize("seed", range(5))
def test_setup_deals_four_quarters_coin_edge_to_the_centre_and_fills_green_cells(seed):
    g = make_game("deus_lo_vult", players=2, deployment="campaign")
    s = g.new_state(seed)
    centre = {int(c) for c in T.SARACEN_CELLS[:4]}
    for slot in T.QUARTER_SLOTS:
        t = int(s[L.BOARD + slot])
        assert t >= T.QUARTER_TOKEN0
        assert s[L.TOK_COINS + t] == T.KIND_COINS[T.TOKEN_KIND[t]]
        coin_dirs = [d for d in range(4) if T.NEIGH[slot, d] in centre]
        from crusadegym.core.deus_lo_vult.rules import edge_icon

        assert edge_icon(s, t, coin_dirs[0]) == T.ICON_C
    for c in T.SARACEN_CELLS:
        t = int(s[L.BOARD + c])
        assert T.SARACEN_TOKEN0 <= t < T.QUARTER_TOKEN0
    assert s[L.PHASE] == L.PH_ARMY and s[L.AP] == 7  # Campaign: no pre-deployment


def test_tactical_saracen_placement_lets_seats_pick_in_turn():
    g = make_game("deus_lo_vult", players=2, saracen_placement="tactical", deployment="campaign")
    s = g.new_state(1)
    seats = []
    for _ in range(12):
        assert s[L.PHASE] == L.PH_PICK
        seats.append(g.current_player(s))
        play(g, s, "pick mamluk" if "pick mamluk" in legal(g, s) else sorted(legal(g, s))[0])
    assert seats == [0, 1] * 6
    assert s[L.PHASE] == L.PH_ARMY
    assert all(s[L.BOARD + c] >= T.SARACEN_TOKEN0 for c in T.SARACEN_CELLS)


@pytest.mark.parametrize(("deployment", "expect"), [("latin", "points"), ("saracenic", "units")])
def test_pre_deployment_styles(deployment, expect):
    g = make_game("deus_lo_vult", players=2, deployment=deployment)
    s = g.new_state(4)
    rng = np.random.default_rng(0)
    while s[L.PHASE] == L.PH_DEPLOY:
        play(g, s, g.action_to_str(int(rng.choice(g.legal_actions(s)))))
    for p in range(2):
        toks = [t for t in range(p * 20, p * 20 + 20) if s[L.TOK_LOC + t] >= 0]
        if expect == "points":
            assert sum(T.KIND_COST[T.TOKEN_KIND[t]] for t in toks) == 5
        else:
            assert len(toks) == 3
        assert all(g.params[P_CAMP_OWNER + s[L.TOK_LOC + t]] == p for t in toks)  # own camp
    assert s[L.PHASE] == L.PH_ARMY and g.current_player(s) == 0


# ------------------------------------------------------------------ Army Points
def test_army_points_cap_counts_purgatory():
    g, s = position({}, "seat=0 ap=7 phase=army purgatory=0K,0K,0C,0C,0P")
    assert "cell a1" not in legal(g, s)  # 13 points used: nothing can be deployed
    g, s = position({}, "seat=0 ap=7 phase=army purgatory=0K,0K,0C,0C")
    play(g, s, "cell a1")
    assert legal(g, s) == {"deploy pilgrim"}  # 12 used: only a 1-point Pilgrim fits


def test_deploy_places_a_strong_unit_in_camp_facing_the_camp_direction():
    g, s = position(SPARE)
    play(g, s, "cell a3", "deploy cavalry")
    assert at(s, "a3") == "cavalry side=0 coins=0"
    assert s[L.TOK_FACE + token(s, "a3")] == T.S
    assert s[L.AP] == 6


# ------------------------------------------------------------------ turn structure
def test_seven_action_points_then_the_turn_passes():
    g, s = position(SPARE)
    cells = ("a1", "b1", "c1", "a2", "c2", "a3", "b3")
    kinds = ["pilgrim"] * 4 + ["footman"] * 3
    for spent, (cell, kind) in enumerate(zip(cells, kinds, strict=True)):
        assert g.current_player(s) == 0 and s[L.AP] == 7 - spent
        play(g, s, f"cell {cell}", f"deploy {kind}")
    assert g.current_player(s) == 1 and s[L.AP] == 7


def test_once_a_point_is_spent_on_saracens_the_army_is_done_for_the_turn():
    g, s = position({"e5": "0F", "e6": "0F", "h8": "sf", "h9": "sf", **SPARE})
    assert "cell e5" in legal(g, s)
    play(g, s, "cell h8", "cell g9")  # a Saracen moves in its band
    assert s[L.PHASE] == L.PH_SARACEN
    assert "cell e5" not in legal(g, s) and "cell a1" not in legal(g, s)
    assert "cell g9" in legal(g, s) and "end" in legal(g, s)


def test_weakening_is_free_healing_in_camp_costs_a_point():
    g, s = position({"b3": "0F", "a2": "0F'", **SPARE})
    play(g, s, "cell b3", "weaken")
    assert at(s, "b3") == "footman side=1 coins=0" and s[L.AP] == 7
    play(g, s, "cell a2", "heal")
    assert at(s, "a2") == "footman side=0 coins=0" and s[L.AP] == 6


def test_withdraw_returns_a_unit_in_camp_to_reserve():
    g, s = position({"b3": "0A", "e5": "0A", **SPARE})
    t = token(s, "b3")
    play(g, s, "cell b3", "withdraw")
    assert loc(s, t) == L.LOC_RESERVE and at(s, "b3") == "empty"
    play(g, s, "cell e5")
    assert "withdraw" not in legal(g, s)  # outside the camp: no withdrawing


# ------------------------------------------------------------------ bands and movement
def test_a_lone_unit_cannot_move():
    g, s = position({"e5": "0F", **SPARE})
    play(g, s, "cell e5")
    assert not any(a.startswith("cell") for a in legal(g, s))


def test_a_band_member_is_placed_next_to_another_member():
    g, s = position({"e5": "0F", "e6": "0F", **SPARE})
    play(g, s, "cell e5")
    assert {a for a in legal(g, s) if a.startswith("cell")} == {"cell d6", "cell f6", "cell e7"}


def test_moving_the_middle_unit_splits_a_band():
    g, s = position({"d5": "0V", "e5": "0V", "f5": "0V", **SPARE})
    play(g, s, "cell e5", "cell d6")
    play(g, s, "cell f5")
    assert not any(a.startswith("cell") for a in legal(g, s))  # f5 is alone now


def test_a_bridge_merges_two_bands():
    g, s = position({"d5": "0V", "d6": "0V", "f6": "0V", "g6": "0V", **SPARE})
    play(g, s, "cell d5", "cell e6")  # now d6-e6-f6-g6 is one band
    play(g, s, "cell g6")
    assert "cell c6" in legal(g, s)  # g6 may be placed next to d6, across the band


def test_city_quarters_count_as_stationary_saracens_for_saracen_bands():
    g, s = position({"e7": "sf", "e6": "Q0*2", **SPARE})
    play(g, s, "cell e7")
    moves = {a for a in legal(g, s) if a.startswith("cell")}
    assert {"cell d6", "cell f6", "cell e5"} <= moves
    g, s = position({"e6": "Q0*2", "e7": "sf", **SPARE})
    assert "cell e6" not in legal(g, s)  # the quarter never moves (and has nothing to shoot)


def test_refugees_join_crusader_bands():
    g, s = position({"e5": "0F", "e6": "R0", **SPARE})
    play(g, s, "cell e6", "cell f5")  # the Refugee moves with seat 0's band
    assert at(s, "f5") == "Residential side=1 coins=0"
    assert s[L.PHASE] == L.PH_ARMY  # an army move, not a Saracen one


# ------------------------------------------------------------------ stampede
def test_stampede_tramples_a_unit_left_in_a_t():
    g, s = position({"d5": "0P", "d6": "0F", "e6": "0A", "f6": "0F", **SPARE})
    victim = token(s, "e6")
    play(g, s, "cell d5", "cell e5")
    assert at(s, "e6") == "empty" and loc(s, victim) == L.LOC_PURGATORY
    assert purgatory(s) == ["archer"]


def test_chivalrous_stampede_forbids_the_move_instead():
    g, s = position(
        {"d5": "0P", "d6": "0F", "e6": "0A", "f6": "0F", **SPARE}, stampede="chivalrous"
    )
    play(g, s, "cell d5")
    assert "cell e5" not in legal(g, s) and "cell c6" in legal(g, s)


def test_a_trampled_refugee_is_removed_and_nobody_is_punished():
    g, s = position({"d5": "0P", "d6": "0F", "e6": "R0", "f6": "0F", **SPARE})
    refugee = token(s, "e6")
    play(g, s, "cell d5", "cell e5")
    assert loc(s, refugee) == L.LOC_OFF and purgatory(s) == []


def test_stampede_does_not_apply_to_saracens():
    g, s = position({"d5": "sg", "d6": "sg", "e6": "sa", "f6": "sg", **SPARE})
    play(g, s, "cell d5", "cell e5")
    assert at(s, "e6").startswith("saracen_archer")


# ------------------------------------------------------------------ camps
def test_units_cannot_stay_in_a_rival_camp_when_the_turn_ends():
    g, s = position({"j10": "0F", "b3": "sf", "e5": "0F", **SPARE})
    play(g, s, "end")
    assert sorted(purgatory(s)) == ["footman", "saracen_footman"]
    assert at(s, "e5") == "footman side=0 coins=0"


def test_a_refugee_in_a_camp_stays_unless_killed_by_the_owner_who_pays_for_it():
    g, s = position({"a2": "R3", "a1": "0P", "b1": "0P", **SPARE})
    assert "cell a2" not in legal(g, s)  # in a band, but a Refugee in a camp stays
    g, s = position({"a2": "R3", "a1": "0F", **SPARE})
    killer = token(s, "a1")
    play(g, s, "cell a1", "strike S")
    assert at(s, "a2") == "empty" and loc(s, killer) == L.LOC_PURGATORY


def test_a_refugee_in_a_rival_camp_cannot_be_attacked():
    g, s = position({"k10": "R3", "k9": "0F", **SPARE})  # k10 lies in seat 1's camp
    play(g, s, "cell k9")
    assert "strike S" not in legal(g, s)


# ------------------------------------------------------------------ plunder
def test_plunder_through_the_coin_edge():
    g, s = position({"e4": "0F", "e5": "Q0^*2", **SPARE})
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "footman side=0 coins=1"
    assert at(s, "e5") == "Residential side=0 coins=1"
    assert s[L.AP] == 6 and s[L.LAST_PLUNDER] == 0


def test_plunder_through_the_skull_edge_wounds_the_crusader():
    g, s = position({"e4": "0F", "e5": "Q0>*2", **SPARE})  # north edge is a skull
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "footman side=1 coins=1"


def test_shield_and_arrow_edges_of_a_quarter_cannot_be_attacked():
    g, s = position({"e4": "0F", "e5": "Q0v*2", **SPARE})  # north edge: shield
    play(g, s, "cell e4")
    assert "strike S" not in legal(g, s)
    g, s = position({"e4": "0F", "e5": "Q8>*4", **SPARE})  # north edge: arrow
    play(g, s, "cell e4")
    assert "strike S" not in legal(g, s)


def test_only_the_skull_plunders():
    g, s = position({"e4": "0A", "e6": "Q0^*2", **SPARE})
    play(g, s, "cell e4")
    assert "strike S" not in legal(g, s)


def test_the_last_coin_turns_the_quarter_into_a_refugee():
    g, s = position({"e4": "0F", "e5": "Q0^*1", **SPARE})
    play(g, s, "cell e4", "strike S")
    assert at(s, "e5") == "Residential side=1 coins=0"  # the Refugee side


def test_pilgrims_carry_two_coins_others_one():
    g, s = position({"e4": "0P*1", "e5": "Q0^*2", "g4": "0F*1", "g5": "Q5^*3", **SPARE})
    play(g, s, "cell e4", "strike S")
    assert at(s, "e4") == "pilgrim side=0 coins=2"
    play(g, s, "cell g4")
    assert "strike S" not in legal(g, s)


def test_saracens_cannot_attack_refugees():
    g, s = position({"e6": "sf", "e5": "R0", **SPARE})
    play(g, s, "cell e6")
    assert "strike N" not in legal(g, s)


# ------------------------------------------------------------------ coins
def test_secure_a_coin_in_the_camp_centre():
    g, s = position({"b3": "0F*1", **SPARE})
    play(g, s, "cell b3", "give N")
    assert s[L.SCORE] == 1 and at(s, "b3") == "footman side=0 coins=0"


def test_pass_drop_and_pick_up_coins():
    g, s = position({"e4": "0F*1", "e5": "0P", **SPARE})
    play(g, s, "cell e4", "give S")
    assert at(s, "e5") == "pilgrim side=0 coins=1"
    play(g, s, "cell e5", "give E")
    assert ground(s, "f5") == 1
    play(g, s, "cell e5", "take E")  # from an adjacent cell: one Action Point
    assert at(s, "e5") == "pilgrim side=0 coins=1" and s[L.AP] == 4


def test_standing_on_a_coin_picks_it_up_and_blocks_it():
    g, s = position({"e4": "0F", "e5": "0F", "f5": "$1", **SPARE})
    play(g, s, "cell e4", "cell f5")
    assert at(s, "f5") == "footman side=0 coins=1" and ground(s, "f5") == 0
    g, s = position({"e5": "0F", "f5": "sg+1", **SPARE})
    play(g, s, "cell e5")
    assert "take E" not in legal(g, s)  # a Saracen stands on it


def test_steal_with_the_skull_against_a_heart_without_wounding():
    g, s = position({"e5": "0K", "d5": "1P*1", **SPARE})  # seat-1 Pilgrim's east edge: heart
    play(g, s, "cell e5", "strike W")
    assert at(s, "e5") == "foot_knight side=0 coins=1"
    assert at(s, "d5") == "pilgrim side=0 coins=0"


def test_no_stealing_through_a_shield_and_no_crusader_combat():
    g, s = position({"e5": "0K", "d5": "1V*1", **SPARE})
    play(g, s, "cell e5")
    assert "strike W" not in legal(g, s)
    g, s = position({"e5": "0K", "d5": "1P", **SPARE})  # nothing to steal: no attack either
    play(g, s, "cell e5")
    assert "strike W" not in legal(g, s)


def test_robbing_home_rule_steals_through_the_skull_and_wounds_the_robber():
    g, s = position({"e5": "0K", "d5": "1K*1", **SPARE})
    play(g, s, "cell e5")
    assert "strike W" not in legal(g, s)
    g, s = position({"e5": "0K", "d5": "1K*1", **SPARE}, robbing=True)
    play(g, s, "cell e5", "strike W")
    assert at(s, "e5") == "foot_knight side=1 coins=1"


def test_a_dying_carrier_leaves_its_coin_on_the_ground():
    g, s = position({"e5": "1P'*1", "e6": "sf", **SPARE})  # Saracen footman faces north
    play(g, s, "cell e6", "strike N")
    assert at(s, "e5") == "empty" and ground(s, "e5") == 1 and purgatory(s) == ["pilgrim"]


# ------------------------------------------------------------------ attacks
def test_saracen_melee_against_a_heart_wounds():
    g, s = position({"e5": "1P", "e6": "sf", **SPARE})
    play(g, s, "cell e6", "strike N")
    assert at(s, "e5") == "pilgrim side=1 coins=0"


def test_skull_against_skull_wounds_both():
    g, s = position({"e5": "0F", "e6": "sf", **SPARE})
    play(g, s, "cell e5", "strike S")
    assert at(s, "e5") == "footman side=1 coins=0"
    assert at(s, "e6") == "saracen_footman side=1 coins=0"


def test_ranged_attacks_need_exactly_two_clear_steps():
    g, s = position({"e5": "1P", "e7": "sa", **SPARE})
    play(g, s, "cell e7", "strike N")
    assert at(s, "e5") == "pilgrim side=1 coins=0"
    g, s = position({"e5": "1P", "e6": "sg", "e7": "sa", **SPARE})
    play(g, s, "cell e7")
    assert "strike N" not in legal(g, s)
    g, s = position({"e6": "1P", "e7": "sa", "d7": "sg", **SPARE})
    play(g, s, "cell e7")
    assert "strike N" not in legal(g, s)  # adjacent: an arrow cannot hit it


def test_no_saracen_attacks_saracen():
    g, s = position({"e6": "sf", "e5": "sg", **SPARE})
    play(g, s, "cell e6")
    assert "strike N" not in legal(g, s)


def test_charge_breaks_a_shield_only_after_moving():
    fields = {"d4": "0C", "d5": "0P", "e6": "sfv", **SPARE}  # Saracen's north edge: shield
    g, s = position({**fields, "e5": "0C", "d4": "."})
    play(g, s, "cell e5", "strike S")
    assert at(s, "e6") == "saracen_footman side=0 coins=0"  # no charge: nothing happens
    g, s = position(fields)
    play(g, s, "cell d4", "cell e5", "cell e5", "strike S")
    assert at(s, "e6") == "saracen_footman side=1 coins=0"


def test_city_quarter_towers_shoot_during_the_saracen_phase():
    g, s = position({"e5": "Q8*4", "g5": "1P", **SPARE})  # Court: arrow on its east edge
    play(g, s, "cell e5", "strike E")
    assert at(s, "g5") == "pilgrim side=1 coins=0" and s[L.PHASE] == L.PH_SARACEN


def test_double_arrow_kills_outright_and_its_home_rules():
    g, s = position({"e5": "Q11*4", "g5": "1P", **SPARE})
    play(g, s, "cell e5", "strike E")
    assert at(s, "g5") == "empty" and purgatory(s) == ["pilgrim"]
    g, s = position({"e5": "Q11*4", "f5": "1P", **SPARE})
    assert "cell e5" not in legal(g, s)  # adjacent target: no shot, nothing to select
    g, s = position({"e5": "Q11*4", "f5": "1P", **SPARE}, double_arrow_adjacent=True)
    play(g, s, "cell e5", "strike E")
    assert purgatory(s) == ["pilgrim"]
    g, s = position({"e5": "Q11*4", "g5": "1K", **SPARE})  # knight's west edge: shield
    play(g, s, "cell e5", "strike E")
    assert at(s, "g5") == "foot_knight side=0 coins=0"
    g, s = position({"e5": "Q11*4", "g5": "1K", **SPARE}, double_arrow_vs_shield="wound")
    play(g, s, "cell e5", "strike E")
    assert at(s, "g5") == "foot_knight side=1 coins=0"


# ------------------------------------------------------------------ Purgatory, Saracen camps
def test_the_tenth_death_pushes_the_oldest_soul_back_to_reserve():
    full = "purgatory=0P,0P,0P,0P,sg,sg,sg,sg,1P"
    g, s = position({"e5": "1P'", "e6": "sf", **SPARE}, header=f"seat=0 ap=7 phase=army {full}")
    oldest = int(s[L.PURG + 8])
    play(g, s, "cell e6", "strike N")
    assert purgatory(s)[0] == "pilgrim" and len(purgatory(s)) == 9
    assert loc(s, oldest) == L.LOC_RESERVE


def test_saracens_realign_and_heal_in_their_camps():
    g, s = position({"f1": "sf'^", "g1": "sg", **SPARE})  # f1 is a green cell facing south
    play(g, s, "cell f1")
    assert {"realign", "heal"} <= legal(g, s)
    play(g, s, "realign")
    assert s[L.TOK_FACE + token(s, "f1")] == T.S and s[L.AP] == 6
    play(g, s, "cell f1", "heal")
    assert at(s, "f1") == "saracen_footman side=0 coins=0"


# ------------------------------------------------------------------ rounds and winning
def test_securing_the_last_coin_ends_the_round():
    g, s = position(
        {"b3": "0F*1", "e5": "R0", "h8": "sg"}, "seat=0 ap=7 phase=army purgatory=1P", rounds=3
    )
    play(g, s, "cell b3", "give N")
    assert s[L.ROUND] == 1 and s[L.SCORE] == 1
    assert purgatory(s) == ["pilgrim"]  # units in Purgatory stay there
    assert all(s[L.BOARD + c] >= T.QUARTER_TOKEN0 for c in T.QUARTER_SLOTS)  # 4 new quarters
    # the Saracen survivor back in the first camp; no Saracen in Purgatory: none added
    assert green_saracens(s) == 1
    assert not any(
        T.TOKEN_OWNER[t] < 4 for t in s[L.BOARD : L.BOARD + 144] if t >= 0
    )  # back to reserve
    assert not any(
        s[L.TOK_SIDE + t] == 1 and s[L.TOK_LOC + t] >= 0
        for t in range(T.QUARTER_TOKEN0, T.N_TOKENS)
    )  # Refugees discarded
    assert g.current_player(s) == 1  # the next seat opens the new round (after deployment)


def test_most_coins_after_the_last_round_wins():
    g, s = position({"b3": "0F*1"}, "seat=0 ap=7 phase=army score=2,2", rounds=1)
    rewards = play(g, s, "cell b3", "give N")
    assert g.is_terminal(s) and not g.is_truncated(s)
    assert rewards.tolist() == [1.0, -1.0]


@pytest.mark.parametrize(
    ("tie_rule", "expected"), [("last_coin", [-1.0, 1.0]), ("shared", [0.0, 0.0])]
)
def test_tie_rules(tie_rule, expected):
    g, s = position(
        {"b3": "0F*1"}, "seat=0 ap=7 phase=army score=2,3 last=1", rounds=1, tie_rule=tie_rule
    )
    assert play(g, s, "cell b3", "give N").tolist() == expected


def test_the_turn_cap_truncates_and_scores_on_coins():
    # max_turns counts per seat: with 2 seats, turn 10 is seat 1's fifth and last
    g, s = position(SPARE, "seat=1 ap=7 phase=army score=1,0 turn=10", max_turns=5)
    rewards = play(g, s, "end")
    assert g.is_terminal(s) and g.is_truncated(s) and rewards.tolist() == [1.0, -1.0]
    with pytest.raises(IllegalActionError):
        play(g, s, "end")


def test_the_turn_cap_counts_every_seats_turns():
    # turn 9 is seat 0's fifth: seat 1 still has its fifth turn to play
    g, s = position(SPARE, "seat=0 ap=7 phase=army score=1,0 turn=9", max_turns=5)
    play(g, s, "end")
    assert not g.is_terminal(s) and g.current_player(s) == 1


def test_cell_names_match_the_board():
    assert parse_cell("a1") == 0 and parse_cell("l12") == 143 and parse_cell("e5") == 52


def test_refugees_join_saracen_bands_too():
    g, s = position({"e6": "R0", "e7": "sg", **SPARE}, "seat=0 ap=7 phase=saracen")
    play(g, s, "cell e6")
    assert {"cell d7", "cell f7", "cell e8"} <= legal(g, s)
    play(g, s, "cell e8")
    assert at(s, "e8") == "Residential side=1 coins=0"


# ------------------------------------------------------------------ observation
def test_observation_is_absolute_with_the_viewer_named():
    """Action ids name absolute cells, so every seat sees the board in that same frame;
    units are split into "mine" and the others' planes, and a one-hot names my corner."""
    from crusadegym.core.deus_lo_vult import observe as O

    g, s = position({"b3": "0F", "k10": "1F", **SPARE})
    for seat, mine, theirs in ((0, [2, 1], [9, 10]), (1, [9, 10], [2, 1])):
        o = g.observe(s, seat)
        planes = o[: O.N_PLANES * 144].reshape(O.N_PLANES, 12, 12)
        assert np.argwhere(planes[O.PL_SEAT]).tolist() == [mine]
        assert np.argwhere(planes[O.PL_SEAT + 1]).tolist() == [theirs]
        corner = o[O.N_PLANES * 144 + O.SC_CORNER : O.N_PLANES * 144 + O.SC_CORNER + 4]
        assert corner.tolist() == ([1, 0, 0, 0] if seat == 0 else [0, 0, 1, 0])  # NW / SE
    # seat 0's footman faces south: its skull edge is on the south side, absolute frame
    planes = g.observe(s, 0)[: O.N_PLANES * 144].reshape(O.N_PLANES, 12, 12)
    assert planes[O.PL_EDGE + T.N_ICONS * T.S + T.ICON_S, 2, 1] == 1.0
    assert planes[O.PL_EDGE + T.N_ICONS * T.N + T.ICON_S, 9, 10] == 1.0  # seat 1's faces north


# ================================================================== second rules pass (#17)
# Each test below failed on the engine before issue #17 (see docs/rules/deus_lo_vult.md).


# 1. A Refugee is a friend of the faction it is attached to; two factions: the seat to move
@pytest.mark.parametrize("mover", [0, 1])
def test_a_refugee_moved_next_to_a_rival_does_not_trample_the_rival(mover):
    rival = 1 - mover
    fields = {"d5": f"{rival}F", "e5": f"{rival}A", "f5": f"{rival}F"}  # e5 has two friends
    fields.update({"e7": f"{mover}F", "e8": "R0", **SPARE})  # the mover's band with a Refugee
    g, s = position(fields, f"seat={mover} ap=7 phase=army")
    play(g, s, "cell e8", "cell e6")  # the Refugee, attached to both factions, counts for mover
    assert at(s, "e5") == "archer side=0 coins=0" and purgatory(s) == []
    assert at(s, "e6") == "Residential side=1 coins=0"


def test_a_refugee_completes_a_t_around_its_own_factions_unit():
    fields = {"d5": "0F", "e5": "0A", "f5": "0F", "e7": "0F", "e8": "R0", **SPARE}
    g, s = position(fields)
    play(g, s, "cell e8", "cell e6")
    assert at(s, "e5") == "empty" and purgatory(s) == ["archer"]


# 2. One move enables at most one charge, and only as the unit's next action
CHARGE = {"d4": "0C", "d5": "0P", "e6": "sfv", "e4": "sf", **SPARE}  # shields face e5


def test_one_move_enables_one_charge():
    g, s = position(CHARGE)
    play(g, s, "cell d4", "cell e5", "cell e5", "strike S")
    assert at(s, "e6") == "saracen_footman side=1 coins=0"  # the charge breaks a shield
    play(g, s, "cell e5", "strike N")
    assert at(s, "e4") == "saracen_footman side=0 coins=0"  # a second shield holds


def test_another_action_between_move_and_strike_cancels_the_charge():
    g, s = position(CHARGE)
    play(g, s, "cell d4", "cell e5", "cell d5", "weaken", "cell e5", "strike S")
    assert at(s, "e6") == "saracen_footman side=0 coins=0"


# 3. The Stampede applies to a Refugee attached to a Crusaders band, whoever moved it
def test_a_refugee_moved_by_a_saracen_band_into_a_t_is_trampled():
    fields = {"d6": "0F", "f6": "0F", "e7": "0F", "e5": "sg", "e4": "R0", **SPARE}
    g, s = position(fields)
    refugee = token(s, "e4")
    play(g, s, "cell e4", "cell e6")
    assert s[L.PHASE] == L.PH_SARACEN  # a Saracen-band move
    assert at(s, "e6") == "empty" and loc(s, refugee) == L.LOC_OFF and purgatory(s) == []


# 4. Between rounds: survivors return to camps, only empty camps are replenished
LAST_COIN = {"b3": "0F*1", "e5": "R0", "h8": "sg'"}


def green_saracens(s) -> int:
    """Saracens standing on the green camp cells."""
    return sum(1 for c in T.SARACEN_CELLS if T.SARACEN_TOKEN0 <= s[L.BOARD + c] < T.QUARTER_TOKEN0)


def test_saracens_on_the_field_return_to_camps_with_their_wounds():
    g, s = position(LAST_COIN, "seat=0 ap=7 phase=army purgatory=sf", rounds=3)
    survivor, dead = token(s, "h8"), int(s[L.PURG])
    play(g, s, "cell b3", "give N")
    assert s[L.ROUND] == 1
    assert loc(s, survivor) == int(T.SARACEN_CELLS[0])  # back in a camp, centre first
    assert s[L.TOK_SIDE + survivor] == 1  # still wounded: only the camps heal, for an AP
    assert loc(s, dead) == L.LOC_PURGATORY
    assert green_saracens(s) == 2  # the survivor + one for the Saracen in Purgatory


# 5 Saracens on the field, 2 in Purgatory when the last coin is secured
FIVE_SURVIVORS = {**LAST_COIN, "j8": "sf", "h10": "sa", "k4": "sf", "d10": "sg"}


@pytest.mark.parametrize(("replenish", "expected"), [("purgatory", 5 + 2), ("fill", 12)])
def test_saracen_camps_are_replenished_for_those_still_in_purgatory(replenish, expected):
    """[R "End of the Round"] "Saracen camps are replenished to make up for those still in
    purgatory. Saracens units still on the field are returned to camps": 5 survivors and
    2 dead Saracens make 7 Saracens; option ``saracen_replenish="fill"`` refills all 12."""
    header = "seat=0 ap=7 phase=army purgatory=sf,sg"
    g, s = position(FIVE_SURVIVORS, header, rounds=3, saracen_replenish=replenish)
    play(g, s, "cell b3", "give N")
    assert s[L.ROUND] == 1 and purgatory(s) == ["saracen_footman", "ghazi"]
    on_board = [t for t in s[L.BOARD : L.BOARD + T.N_CELLS] if t >= 0]
    assert sum(T.SARACEN_TOKEN0 <= t < T.QUARTER_TOKEN0 for t in on_board) == expected
    assert green_saracens(s) == expected  # all of them in the camps, centre first
    assert all(s[L.BOARD + c] >= 0 for c in T.SARACEN_CELLS[:expected])


@pytest.mark.parametrize(
    ("replenish", "purg", "picks"),
    [("fill", "", T.N_SARACEN_CELLS - 1), ("purgatory", "sf,sg", 2), ("purgatory", "", 0)],
)
def test_tactical_placement_is_used_every_round(replenish, purg, picks):
    """Tactical placement replenishes the camps every round [R home rule "Placing"]: one
    pick per Saracen in Purgatory (or every empty camp with ``saracen_replenish="fill"``)."""
    header = f"seat=0 ap=7 phase=army purgatory={purg}"
    g, s = position(
        LAST_COIN,
        header if purg else "seat=0 ap=7 phase=army",
        rounds=3,
        saracen_placement="tactical",
        deployment="campaign",
        saracen_replenish=replenish,
    )
    play(g, s, "cell b3", "give N")
    n = 0
    if picks:
        assert s[L.PHASE] == L.PH_PICK and g.current_player(s) == 1  # the next seat first
        assert s[L.SETUP_K] == 1  # the survivor holds the first camp; picks fill the rest
    while s[L.PHASE] == L.PH_PICK:
        play(g, s, sorted(legal(g, s))[0])
        n += 1
    assert n == picks and s[L.PHASE] == L.PH_ARMY
    assert green_saracens(s) == 1 + picks


# 5. Saracens and towers attack the opponents' Crusaders (option: any Crusader)
def test_your_saracens_and_towers_do_not_attack_your_own_crusaders():
    g, s = position({"e5": "0P", "e6": "sf", "h5": "Q8*4", "j5": "0P", **SPARE})
    assert "cell e6" not in legal(g, s) and "cell h5" not in legal(g, s)
    g, s = position({"e5": "1P", "e6": "sf", **SPARE})
    play(g, s, "cell e6", "strike N")  # an opponent's unit: allowed
    assert at(s, "e5") == "pilgrim side=1 coins=0"


def test_saracen_targets_any_lets_saracens_attack_your_own_crusaders():
    g, s = position({"e5": "0P", "e6": "sf", **SPARE}, saracen_targets="any")
    play(g, s, "cell e6", "strike N")
    assert at(s, "e5") == "pilgrim side=1 coins=0"


# 6. "Double arrow breaks shields and inflicts 1 damage": 1 damage through every edge
def test_double_arrow_wound_home_rule_inflicts_one_damage_through_a_heart_too():
    g, s = position({"e5": "Q11*4", "g5": "1P", **SPARE}, double_arrow_vs_shield="wound")
    play(g, s, "cell e5", "strike E")
    assert at(s, "g5") == "pilgrim side=1 coins=0"


# 7. Weaken: free (default) or one Action Point
def test_weaken_costs_an_action_point_with_the_option():
    g, s = position({"b3": "0F", **SPARE}, weaken_cost="action_point")
    play(g, s, "cell b3", "weaken")
    assert at(s, "b3") == "footman side=1 coins=0" and s[L.AP] == 6


# 8. No move into a rival camp with the last Action Point
def test_no_move_into_a_rival_camp_with_the_last_action_point():
    fields = {"i10": "0F", "i11": "0F", "d5": "sg", "d6": "sg", **SPARE}
    g, s = position(fields, "seat=0 ap=1 phase=army")
    play(g, s, "cell i11")
    assert "cell j10" not in legal(g, s) and "cell h10" in legal(g, s)
    g, s = position(fields, "seat=0 ap=2 phase=army")
    play(g, s, "cell i11", "cell j10")  # with a point left to get out again
    play(g, s, "cell j10", "cell h10")
    assert purgatory(s) == []


def test_no_saracen_move_into_a_crusader_camp_with_the_last_action_point():
    g, s = position({"d3": "sg", "d4": "sg", **SPARE}, "seat=0 ap=1 phase=saracen")
    play(g, s, "cell d4")
    assert "cell c3" not in legal(g, s) and "cell e3" in legal(g, s)


def test_a_unit_stuck_in_a_rival_camp_still_goes_to_purgatory():
    g, s = position({"j10": "0F", "e5": "0F", **SPARE})
    play(g, s, "end")
    assert purgatory(s) == ["footman"]


# 9. Greek fire is not used in the Duel
@pytest.mark.parametrize("placement", ["blind", "tactical"])
def test_greek_fire_is_not_in_the_duel_roster(placement):
    g = make_game("deus_lo_vult", saracen_placement=placement, deployment="campaign")
    naffatun = [t for t in range(T.N_TOKENS) if T.KIND_NAMES[T.TOKEN_KIND[t]] == "naffatun"]
    for seed in range(40):
        s = g.new_state(seed)
        assert all(loc(s, t) == L.LOC_OFF for t in naffatun)
        assert "pick naffatun" not in legal(g, s)


# 10. Saracens spawn on empty green cells; the "12 Saracens top" home rule
def test_a_saracen_spawns_on_an_empty_green_cell_for_an_action_point():
    g, s = position({"b3": "0F", **SPARE})
    play(g, s, "cell f1")  # f1: a green camp cell whose moon faces south
    assert legal(g, s) == {"spawn"}
    play(g, s, "spawn")
    t = token(s, "f1")
    assert T.SARACEN_TOKEN0 <= t < T.QUARTER_TOKEN0 and s[L.TOK_FACE + t] == T.S
    assert s[L.AP] == 6 and s[L.PHASE] == L.PH_SARACEN
    assert "cell b3" not in legal(g, s)  # a Saracen action ends the army phase


def test_tactical_spawn_picks_the_kind():
    g, s = position(SPARE, saracen_placement="tactical")
    play(g, s, "cell f1", "pick mamluk")
    assert at(s, "f1") == "mamluk side=0 coins=0"


def test_twelve_saracens_top_home_rule():
    kinds = {"d": "sg", "e": "sf", "f": "sa"}  # four of each, off the green cells
    twelve = {f"{c}{r}": kinds[c] for c in "def" for r in range(8, 12)}
    assert len(twelve) == 12
    g, s = position({**twelve, **SPARE}, saracen_cap=12)
    assert "cell f1" not in legal(g, s)
    g, s = position({**twelve, **SPARE})
    assert "cell f1" in legal(g, s)  # no preset limit by default


# 11. Readings: securing several coins
@pytest.mark.parametrize(("secure", "score", "ap"), [("one", 1, 6), ("all", 2, 6)])
def test_securing_coins_one_per_action_or_all_at_once(secure, score, ap):
    g, s = position({"b3": "0P*2", **SPARE}, secure_coins=secure)
    play(g, s, "cell b3", "give N")
    assert s[L.SCORE] == score and s[L.AP] == ap
