"""The Gravediggers River Amenity [R Part 2 "Gravediggers"] as positions: the reaction
window, its price, its conditions, the flip back, the notation and the kit.

Seat 0's camp is a1-c3 (centre b2), seat 1's j10-l12 (2 players). A Saracen ghazi on e4
facing south kills the weak Knight on e5 facing south (its back to the ghazi).
"""

from __future__ import annotations

import conformance as kit
import numpy as np
import pytest
from campaign_helpers import at, field, game, legal, play, position
from dlv_helpers import ground, purgatory

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult.campaign import battle as B
from crusadegym.core.deus_lo_vult.campaign import gravediggers as GD
from crusadegym.core.deus_lo_vult.campaign import layout as CL
from crusadegym.core.deus_lo_vult.campaign.observe import CSCALARS0
from crusadegym.core.deus_lo_vult.notation import parse_position

GRAVE = {"amenities": ("gravediggers",)}
KILL = {"e4": "sgv", "e5": "1K'v", "h8": "1V", "h9": "0F"}
RIVAL_TURN = "seat=0 ap=7 phase=saracen score=0,1"  # seat 1 has one secured coin
BANKED = "campaign coin_balance=-1"  # keeps coin conservation with score=0,1


def kill_knight(board=KILL, header=RIVAL_TURN, campaign=BANKED, **options):
    """Seat 0's ghazi kills seat 1's Knight on e5; return (game, state)."""
    g, s = position(board, header, campaign, **{**GRAVE, **options})
    play(g, s, "cell e4", "strike S")
    return g, s


def window_open(g, s) -> bool:
    return "gravediggers pass" in legal(g, s)


# ------------------------------------------------------------------ the window
def test_a_killed_knight_is_saved_by_burying_a_pavesier_in_the_rivals_turn():
    """[R] "When sending your killed Unit to Purgatory, flip the Gravediggers "used" side up
    to instantly replace this Unit with any other one of your Units in play, i.e., burying
    an unnecessary Pavesier instead of a valuable Knight"."""
    g, s = kill_knight()
    assert g.current_player(s) == 1  # seat 1 reacts in seat 0's turn
    assert legal(g, s) == {"bury h8", "gravediggers pass"}
    play(g, s, "bury h8")
    assert at(s, "e5") == "foot_knight side=1 coins=0"  # back as before the blow
    assert at(s, "h8") == "empty" and purgatory(s) == ["pavesier"]
    assert field(s, "gravediggers") == [GD.USED]
    assert not g.check_invariants(s)


def test_the_bury_costs_one_coin_and_one_move_from_the_next_turn():
    """[R] "This action will cost you one Move and one Coin": the coin goes to the bank;
    outside its turn the seat's Move is taken from its next turn (our reading)."""
    g, s = kill_knight()
    play(g, s, "bury h8")
    assert int(s[L.SCORE + 1]) == 0 and field(s, "coin_balance") == [0]
    assert field(s, "gd_debt") == [0, 1, 0, 0]
    # play is back with seat 0, its turn intact
    assert g.current_player(s) == 0 and int(s[L.AP]) == 6 and int(s[L.PHASE]) == L.PH_SARACEN
    play(g, s, "end")
    assert g.current_player(s) == 1 and int(s[L.AP]) == 6  # 7 - the Move owed
    assert field(s, "gd_debt") == [0, 0, 0, 0]


def test_passing_leaves_the_unit_dead_and_the_gravediggers_ready():
    g, s = kill_knight()
    play(g, s, "gravediggers pass")
    assert at(s, "e5") == "empty" and purgatory(s) == ["foot_knight"]
    assert int(s[L.SCORE + 1]) == 1 and field(s, "gravediggers") == [GD.READY]
    assert g.current_player(s) == 0 and int(s[L.AP]) == 6
    assert field(s, "gd_debt") == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "case, board, header, campaign",
    [
        ("no coin", KILL, "seat=0 ap=7 phase=saracen score=0,0", ""),
        ("no other unit", {"e4": "sgv", "e5": "1K'v", "h9": "0F"}, RIVAL_TURN, BANKED),
        ("used side", KILL, RIVAL_TURN, BANKED + " gravediggers=1"),
    ],
)
def test_no_window_without_a_coin_another_unit_or_the_ready_side(case, board, header, campaign):
    """[R] "flip the Gravediggers "used" side up ... with any other one of your Units in
    play ... one Coin": each condition missing closes the window (the kill_knight()
    position with all of them opens it)."""
    g, s = kill_knight()
    assert window_open(g, s)
    g, s = kill_knight(board, header, campaign)
    assert not window_open(g, s) and g.current_player(s) == 0, case
    assert at(s, "e5") == "empty" and purgatory(s) == ["foot_knight"]


def test_the_next_death_flips_the_used_gravediggers_back_ready():
    """[R] "Flip the Gravediggers back "ready" side up after sending any Unit to
    Purgatory": the death after the used one flips it back and opens nothing (our
    reading); the death after that opens a window again."""
    board = {**KILL, "g4": "sgv", "g5": "1K'v"}
    g, s = position(board, RIVAL_TURN, BANKED + " gravediggers=1", **GRAVE)
    play(g, s, "cell e4", "strike S")
    assert field(s, "gravediggers") == [GD.READY] and not window_open(g, s)
    play(g, s, "cell g4", "strike S")
    assert window_open(g, s) and g.current_player(s) == 1


def test_the_bury_itself_does_not_flip_the_gravediggers_back():
    board = {**KILL, "g4": "sgv", "g5": "1K'v", "h7": "1V"}
    g, s = position(board, RIVAL_TURN, "campaign coin_balance=-2", **GRAVE)
    s[L.SCORE + 1] = 2
    play(g, s, "cell e4", "strike S", "bury h8")
    assert field(s, "gravediggers") == [GD.USED]
    play(g, s, "cell g4", "strike S")  # the next death: flips back, no window
    assert field(s, "gravediggers") == [GD.READY] and not window_open(g, s)


# ------------------------------------------------------------------ own turn, Stampede
STAMPEDE = {"d5": "0P", "d6": "0F", "e6": "0A", "f6": "0F", "h8": "0V", "l6": "Q4*3"}


def test_own_unit_trampled_in_own_stampede_costs_an_action_point_now():
    """A death in the seat's own turn (a Stampede: moving d5 to e5 tramples its Archer):
    the Move is one Action Point at once."""
    g, s = position(STAMPEDE, "seat=0 ap=7 phase=army score=1,0", BANKED, **GRAVE)
    play(g, s, "cell d5", "cell e5")
    assert g.current_player(s) == 0 and "bury h8" in legal(g, s)
    assert {"bury d6", "bury e5", "bury f6"} <= legal(g, s)  # any other Unit in play
    play(g, s, "bury h8")
    assert at(s, "e6") == "archer side=0 coins=0" and purgatory(s) == ["pavesier"]
    assert int(s[L.AP]) == 5 and field(s, "gd_debt") == [0, 0, 0, 0]
    assert not g.check_invariants(s)


def test_restore_weak_option_brings_the_unit_back_on_its_weak_side():
    """Option ``gravediggers_restore="weak"`` (the rulebook is silent on the side)."""
    g, s = position(
        STAMPEDE, "seat=0 ap=7 phase=army score=1,0", BANKED, gravediggers_restore="weak", **GRAVE
    )
    play(g, s, "cell d5", "cell e5", "bury h8")
    assert at(s, "e6") == "archer side=1 coins=0"


def test_the_last_action_point_bury_is_owed_when_the_turn_has_passed():
    """With one Action Point the move ends seat 0's turn; its window opens in seat 1's
    turn, so the Move is owed to seat 0's next turn and play goes back to seat 1."""
    g, s = position(STAMPEDE, "seat=0 ap=1 phase=army score=1,0", BANKED, **GRAVE)
    play(g, s, "cell d5", "cell e5")
    assert g.current_player(s) == 0 and window_open(g, s)
    play(g, s, "bury h8")
    assert g.current_player(s) == 1 and int(s[L.AP]) == 7
    assert field(s, "gd_debt") == [1, 0, 0, 0]


def test_the_saved_unit_gets_back_its_dropped_coin_the_buried_one_drops_its_own():
    """The bury is a normal death for the buried Unit: "a dying carrier leaves its coin on
    the ground" [R "Carrying and Stealing Coins"]."""
    board = {"e4": "sgv", "e5": "1K'v*1", "h8": "1V*1", "h9": "0F"}
    g, s = kill_knight(board, campaign="campaign coin_balance=-3")
    assert ground(s, "e5") == 1
    play(g, s, "bury h8")
    assert at(s, "e5") == "foot_knight side=1 coins=1" and ground(s, "e5") == 0
    assert ground(s, "h8") == 1
    assert not g.check_invariants(s)


def test_saracens_and_units_in_a_rival_camp_open_no_window_but_flip_the_side_back():
    """Saracens are never buried; a Unit dying in a rival's Camp (the end-of-turn camp
    rule) is not saved (our reading). Both deaths still count as "any Unit"."""
    board = {"j10": "0F", "b3": "sf", "e5": "0F", "e6": "0F"}
    g, s = position(board, "seat=0 ap=7 phase=army score=1,0", BANKED + " gravediggers=1", **GRAVE)
    play(g, s, "end")
    assert sorted(purgatory(s)) == ["footman", "saracen_footman"]
    assert field(s, "gravediggers") == [GD.READY] and not window_open(g, s)
    assert g.current_player(s) == 1


def test_a_killed_barbarossa_retreats_his_army_first_so_nobody_is_left_to_bury():
    """Our order: the death's own effects resolve before the window. [R "Barbarossa"]
    "Whenever he is killed, all Sacrum Imperium Romanum units on board must immediately
    retreat": no Unit of his seat is left in play, so no window. A Cavalry in his place
    is saved."""
    hre = {"heroes": ("friedrich_barbarossa", ""), "factions": ("sacrum_imperium_romanum", "")}
    header = "seat=1 ap=7 phase=army score=1,0"
    board = {"e5": "sfv", "e6": "0C'>", "e7": "0P", "h8": "0K"}
    g, s = position(board, header, **GRAVE, **hre)
    play(g, s, "cell e5", "strike S")
    assert window_open(g, s) and g.current_player(s) == 0
    g, s = position({**board, "e6": "0Z'>"}, header, **GRAVE, **hre)
    play(g, s, "cell e5", "strike S")
    assert not window_open(g, s) and g.current_player(s) == 1
    assert at(s, "h8") == "empty" and field(s, "gravediggers") == [GD.READY]


# ------------------------------------------------------------------ notation, view
def test_a_position_with_an_open_window_parses_back_from_its_render():
    g, s = kill_knight()
    text = g.render(s)
    assert "gd_pending=2" in text
    s2 = parse_position(text, g.config)
    assert legal(g, s2) == legal(g, s) and g.current_player(s2) == 1
    for name in ("gravediggers", "gd_pending", "gd_turn", "gd_deaths", "gd_queue"):
        assert field(s2, name) == field(s, name), name
    play(g, s2, "bury h8")
    assert at(s2, "e5") == "foot_knight side=1 coins=0" and g.current_player(s2) == 0


def test_the_window_and_the_side_are_public_in_the_observation():
    g, s = kill_knight()
    o = CSCALARS0 + CL.OS_RIVER + GD.OBS_AT
    for viewer in (0, 1):
        obs = g.observe(s, viewer)
        relative = (1 - viewer) % 2
        assert obs[o + 1 + relative] == 1.0 and obs[o] == GD.READY
    play(g, s, "bury h8")
    obs = g.observe(s, 1)
    assert obs[o] == GD.USED and obs[o + 1 : o + 5].sum() == 0 and obs[o + 5] == 1.0


def test_invariants_catch_a_broken_window():
    g, s = kill_knight()
    assert not g.check_invariants(s)
    bad = s.copy()
    bad[L.CUR] = 0  # the window's seat must be the current player
    assert any("gravediggers" in e for e in g.check_invariants(bad))
    bad = s.copy()
    bad[GD.G_SIDE] = 2
    assert any("gravediggers side" in e for e in g.check_invariants(bad))


# ------------------------------------------------------------------ random play, kit
@pytest.mark.parametrize(
    "options",
    [
        {"preset": "second_crusade"},
        {"amenities": ("gravediggers", "surgeon"), "gauntlet": "fons_honorum", "deeds": True},
    ],
)
def test_random_campaigns_reach_the_window_and_keep_invariants(options):
    """Random Campaigns (second_crusade; with Fons Honorum kill counts and Deeds), each
    seat given 3 secured coins at the start (random play hardly ever secures one):
    windows open (the choice in them alternates, so bury and pass are both played),
    invariants hold on every state."""
    g = game(max_turns=30, battles=2, **options)
    rng = np.random.default_rng(1)
    chosen = {"bury": 0, "pass": 0}
    for i in range(24):
        s = g.new_state(seed=i)
        for p in range(2):
            s[L.SCORE + p] += 3
            s[B.C_COIN_BALANCE] -= 3
        while not (g.is_terminal(s) or g.is_truncated(s)):
            assert not g.check_invariants(s)
            legal = g.legal_actions(s)
            a = int(rng.choice(legal))
            if s[GD.G_SEAT]:  # windows are rare in random play: alternate pass and bury
                windows = chosen["bury"] + chosen["pass"]
                burials = [int(x) for x in legal if x != GD.A_GD_PASS]
                a = GD.A_GD_PASS if windows % 2 else int(rng.choice(burials))
                chosen["pass" if a == GD.A_GD_PASS else "bury"] += 1
            g.step(s, a)
    assert chosen["bury"] > 0 and chosen["pass"] > 0, chosen


def test_play_is_deterministic_through_windows():
    g, s = kill_knight()
    s2 = s.copy()
    play(g, s, "bury h8", "end")
    play(g, s2, "bury h8", "end")
    assert np.array_equal(s, s2)


def test_conformance_kit_with_the_gravediggers_on():
    g = game("second_crusade", max_turns=16, battles=2)
    kit.check_quick(g)
