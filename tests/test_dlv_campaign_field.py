"""Field Amenities [R Part 2 "Field Amenities", "Cats & Rats", "Cat", "Dog", "Gallows",
"Disgusting Man", "Flagellant"]: rule tests as positions, then random Campaigns with
every Field Amenity on (invariants, conformance) and the Kerfuffle preset."""

from __future__ import annotations

import numpy as np
import pytest
from campaign_helpers import at, field, game, legal, play, position, random_games

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import parse_cell
from crusadegym.core.deus_lo_vult.campaign import field as F

FIELD = ("cat", "dog", "gallows", "disgusting_man", "engineer", "hidden_stash", "flagellant")
SPARE = {"l6": "Q4*3"}  # a quarter with coins: the Battle goes on
NONE_UNDER = "campaign field_under=" + ",".join(["-1"] * T.N_AMENITY_KINDS)


def pos(fields, header="seat=0 ap=7 phase=army", extra="", **options):
    """A Campaign position with the given amenities and nothing hidden under quarters."""
    options.setdefault("amenities", FIELD)
    lines = NONE_UNDER + ("\n" + extra if extra else "")
    return position({**SPARE, **fields}, header, lines, **options)


def tok(name: str) -> int:
    return F.amenity_token(name)


def cell(name: str) -> int:
    return parse_cell(name)


# ------------------------------------------------------------------ the generic mechanism
def test_field_amenities_start_hidden_under_their_city_quarters():
    """[R] "placed directly on the game board during the setup, underneath one of the City
    Quarters ... Garden - Hidden Stash; Residential - Cat; Market - Dog; Court - Gallows;
    Bathhouse - Disgusting man; Tavern - Engineer"."""
    g = game(None, amenities=FIELD)
    for seed in range(3):
        s = g.new_state(seed=seed)
        under = field(s, "field_under")
        for name, quarter in (
            ("cat", "Residential"),
            ("dog", "Market"),
            ("gallows", "Court"),
            ("disgusting_man", "Bathhouse"),
            ("engineer", "Tavern"),
            ("hidden_stash", "Garden"),
        ):
            q = T.QUARTER_TOKEN0 + [x[0] for x in T.QUARTERS].index(quarter)
            assert under[F.AMENITY_INDEX[name]] == int(s[L.TOK_LOC + q]) >= 0
            assert int(s[L.TOK_LOC + tok(name)]) == L.LOC_OFF
        assert under[F.FLAGELLANT] == -1 and under[F.DONKEY] == -1


def test_only_switched_on_amenities_are_placed_and_the_stash_comes_with_holier_than_thou():
    s = game(None, amenities=("cat",)).new_state(seed=0)
    under = field(s, "field_under")
    assert under[F.CAT] >= 0 and all(v == -1 for i, v in enumerate(under) if i != F.CAT)
    s = game(None, gauntlet="holier_than_thou").new_state(seed=0)
    assert field(s, "field_under")[F.HIDDEN_STASH] >= 0


def test_an_amenity_comes_out_when_its_quarter_cell_is_vacated():
    """Our reading (field_reveal="vacated"): under the quarter until the Refugee leaves."""
    extra = f"campaign field_under={cell('e5')}," + ",".join(["-1"] * 7)
    g, s = pos({"d5": "0P", "d6": "0P", "e5": "R0"}, extra=extra)
    assert at(s, "e5") == "Residential side=1 coins=0"
    play(g, s, "cell e5", "cell c6")  # the Refugee moves away with seat 0's band
    assert at(s, "e5") == "cat side=0 coins=0"
    assert field(s, "field_under")[F.CAT] == -1


def test_field_reveal_flipped_puts_it_beside_the_quarter_at_once():
    extra = f"campaign field_under={cell('e5')}," + ",".join(["-1"] * 7)
    g, s = pos({"e4": "0K", "e5": "Q0^*1"}, extra=extra, field_reveal="flipped")
    play(g, s, "cell e4", "strike S")  # plunders the last coin: the quarter flips
    assert at(s, "e5") == "Residential side=1 coins=0"
    assert at(s, "f5") == "cat side=0 coins=0"  # first free cell N, E, S, W of it


def test_holds_adjoined_to_a_band_or_in_camp():
    """[R] "players must have them adjoined to their Bands or stationed in Camp to use"."""
    g, s = pos({"e5": "0P", "e6": "R0", "e7": "mct", "k10": "mdg"})
    assert F.holds(s, g.params, 0, F.CAT)  # joined through the Refugee
    assert not F.holds(s, g.params, 1, F.CAT)
    assert F.holds(s, g.params, 1, F.DOG) and not F.holds(s, g.params, 0, F.DOG)  # camp
    assert not F.holds(s, g.params, 0, F.GALLOWS)  # not on the board


def test_amenities_move_with_any_band_and_may_leave_a_camp():
    """[R "Disgusting Man"] "can be freely moved by any Band"; a Refugee in a camp stays."""
    g, s = pos({"j11": "mdm", "j12": "0P", "i12": "0P"})  # seat 1's camp, seat 0's band
    play(g, s, "cell j11")
    assert "cell i11" in legal(g, s)


# ------------------------------------------------------------------ Cats & Rats
def test_unsecured_coins_in_the_tents_bring_the_rati_card():
    """[R] "When Players end their Turn having unsecured Coins in their tents, they must
    put the Rati Divine Will card next to their Camp"."""
    g, s = pos({"a2": "0P*1"})
    play(g, s, "end")
    assert field(s, "rats")[:2] == [1, 0]
    g, s = pos({"a2": "0P*1", "a1": "mct"})  # a Cat in the camp keeps rats away
    play(g, s, "end")
    assert field(s, "rats")[:2] == [0, 0]
    g, s = pos({"b2": "$0", "e5": "0P*1"})  # coins outside the camp: no rats
    play(g, s, "end")
    assert field(s, "rats")[0] == 0


def test_rats_make_shield_edges_useless_for_stealing():
    """[R] "Your armors fall apart, rendering your Shield edges useless and vulnerable"."""
    fields = {"e5": "0K", "d5": "1V*1", "k10": "1P*1"}
    g, s = pos(fields)
    play(g, s, "cell e5")
    assert "strike W" not in legal(g, s)  # the Pavesier's east edge is a shield
    g, s = pos(fields, extra="campaign rats=0,1,0,0")
    play(g, s, "cell e5", "strike W")
    assert at(s, "e5") == "foot_knight side=0 coins=1"


def test_the_infestation_ends_with_a_cat_or_without_coins_in_the_tents():
    """[R] "take the Coins off the Camp ... bring a Cat to the Camp"."""
    g, s = pos(
        {"e5": "0K", "d5": "1V*1", "k10": "1P*1", "j10": "mct"}, extra="campaign rats=0,1,0,0"
    )
    assert not F.rats(s, g.params, 1)
    g, s = pos({"e5": "0K", "d5": "1V*1"}, extra="campaign rats=0,1,0,0")
    assert not F.rats(s, g.params, 1)  # no coin in seat 1's tents


def test_rats_shield_fights_as_a_heart():
    g, s = pos({"e5": "1V", "k10": "1P*1"}, extra="campaign rats=0,1,0,0")
    u = int(s[L.BOARD + cell("e5")])
    saracen = T.SARACEN_TOKEN0
    da, dd = F.combat(s, g.params, saracen, u, T.ICON_S, T.ICON_SH, False, 0, 0)
    assert (da, dd) == (0, 1)
    g, s = pos({"e5": "1V"}, extra="campaign rats=0,1,0,0")  # cured: no coins
    assert F.combat(s, g.params, saracen, u, T.ICON_S, T.ICON_SH, False, 0, 0) == (0, 0)


# ------------------------------------------------------------------ Dog
def test_defensive_dog_prevents_robbing_its_band():
    """[R] "the defensive, which prevents other Players from robbing this Band"."""
    g, s = pos({"e5": "0K", "d5": "1P*1", "c5": "mdg"})
    play(g, s, "cell e5")
    assert "strike W" not in legal(g, s)
    g, s = pos({"e5": "0K", "d5": "1P*1", "c4": "mdg"})  # not adjoined: robbed as usual
    play(g, s, "cell e5", "strike W")
    assert at(s, "e5") == "foot_knight side=0 coins=1"


def test_offensive_dog_robs_via_any_edge_and_takes_blocked_coins():
    """[R] "the offensive, which allows the Player to rob other Crusaders via any edge and
    pick up Coins blocked by other Units"."""
    g, s = pos({"e5": "0K", "d5": "1V*1", "f5": "mdg'"})
    play(g, s, "cell e5", "strike W")  # through the Pavesier's shield
    assert at(s, "e5") == "foot_knight side=0 coins=1"
    g, s = pos({"e5": "0K", "e6": "sg+1", "f5": "mdg'"})
    play(g, s, "cell e5", "dog take s")
    assert at(s, "e5") == "foot_knight side=0 coins=1" and int(s[L.AP]) == 6
    g, s = pos({"e5": "0K", "e6": "sg+1", "f5": "mdg"})  # defensive side: no
    play(g, s, "cell e5")
    assert "dog take s" not in legal(g, s)


def test_flipping_the_dog_costs_a_move_and_needs_the_dog():
    g, s = pos({"e5": "0K", "f5": "mdg"})
    play(g, s, "cell f5", "flip dog")
    assert at(s, "f5") == "dog side=1 coins=0" and int(s[L.AP]) == 6
    g, s = pos({"e5": "1K", "f5": "mdg"})  # seat 0 does not hold it: not even selectable
    assert "cell f5" not in legal(g, s)


def test_defensive_dog_cannot_be_taken_from_adjoined_units():
    """[R] "The Dog can not be stolen when in defensive mode; you must kill all adjoined
    Units to repossess it"."""
    g, s = pos({"e5": "1K", "f5": "mdg", "g5": "0K"})
    play(g, s, "cell f5")  # seat 0 may flip it (it holds it) but not move it
    assert legal(g, s) == {"flip dog"}
    g, s = pos({"e5": "1K", "f5": "mdg'", "g5": "0K"})  # offensive: it can be taken
    play(g, s, "cell f5")
    assert "cell h5" in legal(g, s)


# ------------------------------------------------------------------ Gallows
def test_a_thief_in_the_gallows_quadrant_hangs_and_stealing_stops():
    """[R] "If someone commits theft there, the guilty Unit will hang for this and go to
    Purgatory. If there's a hanged thief on the Gallows, no one can steal until his
    body is buried (Gallows flipped ready side up)"."""
    g, s = pos({"e5": "0K", "d5": "1P*1", "b5": "mgl", "h9": "0K", "g9": "1P*1"})
    play(g, s, "cell e5", "strike W")
    assert at(s, "e5") == "empty" and int(s[L.GROUND + cell("e5")]) == 1
    assert "foot_knight" in [
        T.KIND_NAMES[T.TOKEN_KIND[t]] for t in s[L.PURG : L.PURG + 9] if t >= 0
    ]
    assert at(s, "b5") == "gallows side=1 coins=0"
    play(g, s, "cell h9")  # another quadrant: still no stealing while he hangs
    assert "strike W" not in legal(g, s)
    s[L.SEL] = -1  # unselect
    play(g, s, "bury thief")
    assert at(s, "b5") == "gallows side=0 coins=0"
    play(g, s, "cell h9", "strike W")
    assert at(s, "h9") == "foot_knight side=0 coins=1"


# ------------------------------------------------------------------ Disgusting Man
def test_disgusting_man_blocks_spawning_and_healing_in_adjacent_tents():
    """[R] "Being set in one of the Tents, this Amenity prevents all Units from being
    spawned or healed in adjacent Tent cells"."""
    g, s = pos({"a2": "mdm", "a1": "0K'"})
    assert "cell a3" not in legal(g, s)  # next to the Disgusting Man: no deploying
    assert "cell c3" in legal(g, s)  # not adjacent: deploy there
    play(g, s, "cell a1")
    assert "heal" not in legal(g, s)
    g, s = pos({"e5": "mdm", "a1": "0K'"})
    play(g, s, "cell a1")
    assert "heal" in legal(g, s)


def test_baldwin_ivs_disgusting_man_acts_without_the_amenity():
    """A Disgusting Man brought by Baldwin IV's touch [R "Heroes"] blocks the tents too."""
    heroes = {"heroes": ("baldwin_iv", ""), "factions": ("outremer", "")}
    g, s = pos({"a2": "mdm", "a1": "0K'"}, amenities=(), **heroes)
    assert "cell a3" not in legal(g, s) and "cell c3" in legal(g, s)
    assert not g.check_invariants(s)


# ------------------------------------------------------------------ Flagellant
def test_a_lone_pilgrim_at_turn_end_starts_a_cortege():
    """[R] "Whenever you finish your Turn with your Pilgrim Unit alone, without Band, put the
    Flagellant token adjacent to it"."""
    g, s = pos({"e5": "0P"})
    play(g, s, "end")
    assert at(s, "e4") == "flagellant side=0 coins=0"
    assert F.in_cortege(s, int(s[L.BOARD + cell("e5")]))
    g, s = pos({"e5": "0P", "e6": "0F"})  # in a band: nothing
    play(g, s, "end")
    assert int(s[L.TOK_LOC + tok("flagellant")]) == L.LOC_OFF


def test_the_cortege_cannot_attack_or_pass_coins_and_absorbs_pilgrims():
    """[R] "They can't attack, can't retaliate, and can't pass Coins. When Flagellant
    Cortege adjoins any Pilgrim, this Pilgrim becomes part of the Cortege"."""
    g, s = pos({"e5": "0P", "e4": "mfl", "e6": "sg", "g5": "0F", "g6": "0P*1"})
    follower = int(s[L.BOARD + cell("e5")])
    s[F.F_FLAGS + follower] = F.FLAG_CORTEGE
    play(g, s, "cell e5")
    assert "strike S" not in legal(g, s)  # its skull faces the Saracen: no attack
    s[L.SEL] = -1
    saracen = int(s[L.BOARD + cell("e6")])
    assert F.combat(s, g.params, saracen, follower, T.ICON_S, T.ICON_S, False, 1, 1) == (0, 1)
    play(g, s, "cell g6", "cell f5")  # the Pilgrim adjoins the cortege: it joins
    pilgrim = int(s[L.BOARD + cell("f5")])
    assert F.in_cortege(s, pilgrim)
    play(g, s, "cell f5")
    assert "give W" not in legal(g, s) and "give E" not in legal(g, s)  # no passing
    assert "give S" in legal(g, s)  # dropping on the ground is not passing


def test_any_player_moves_the_cortege_in_its_crusader_phase():
    """[R] "Flagellant Cortege can be moved around by any Player during his Crusader
    phase": seat 0 moves seat 1's follower next to the Flagellant."""
    g, s = pos({"e5": "1P", "e4": "mfl", "h8": "0K"})
    follower = int(s[L.BOARD + cell("e5")])
    s[F.F_FLAGS + follower] = F.FLAG_CORTEGE
    assert "cell e5" in legal(g, s)
    play(g, s, "cell e5")
    assert legal(g, s) == {"cell d4", "cell f4", "cell e3"}  # next to the Flagellant
    play(g, s, "cell f4")
    assert int(s[L.TOK_LOC + follower]) == cell("f4") and int(s[L.AP]) == 6
    g, s = pos({"e5": "1P", "h8": "0K"})  # not a follower: not seat 0's to move
    assert "cell e5" not in legal(g, s)


def test_the_flagellant_leaves_when_all_followers_are_dead():
    g, s = pos({"e5": "0P", "e4": "mfl"})
    s[F.F_FLAGS + int(s[L.BOARD + cell("e5")])] = F.FLAG_CORTEGE
    from crusadegym.core.deus_lo_vult.purgatory import kill

    kill(s, int(s[L.BOARD + cell("e5")]))
    F.cortege_sweep(s, g.params)
    assert at(s, "e4") == "empty"


# ------------------------------------------------------------------ random Campaigns
def _finals(g, n, seed):
    finals = random_games(g, n, seed=seed)
    assert len(finals) == n
    return finals


@pytest.mark.parametrize("reveal", ["vacated", "flipped"])
def test_random_campaigns_with_every_field_amenity_keep_the_invariants(reveal):
    g = game(None, amenities=FIELD, max_turns=30, battles=2, field_reveal=reveal)
    for s in _finals(g, 3, seed=11):
        for i in range(T.N_AMENITY_KINDS):  # hidden or on the board, never both
            assert not (
                field(s, "field_under")[i] >= 0 and s[L.TOK_LOC + tok(T.AMENITY_KINDS[i][0])] >= 0
            )


def test_random_campaigns_with_every_amenity_on_the_board_keep_the_invariants():
    """Random play rarely empties a quarter, so the amenities are put on the board first
    (next to their quarters) to exercise the Dog, Gallows, Cat and Disgusting Man."""
    g = game(None, amenities=FIELD, players=3, max_turns=40, battles=1)
    rng = np.random.default_rng(4)
    for i in range(2):
        s = g.new_state(seed=300 + i)
        for k in range(T.N_AMENITY_KINDS):
            if s[F.F_UNDER + k] >= 0:
                F.put(s, g.params, k, int(s[F.F_UNDER + k]))
        assert all(v == -1 for v in field(s, "field_under"))
        while not (g.is_terminal(s) or g.is_truncated(s)):
            assert not g.check_invariants(s)
            g.step(s, int(rng.choice(g.legal_actions(s))))


def test_random_campaigns_several_rounds_per_battle():
    g = game(None, amenities=FIELD, max_turns=40, battles=1, jerusalem=False, rounds=3)
    _finals(g, 3, seed=5)


def test_kerfuffle_preset_plays():
    """[R "Kerfuffle Convention: Latrine + Cholera; Pillory + Bacchanalia; Cat + Rats; Dog;
    Hidden Stash + Capitularius + Penance"]."""
    g = game("kerfuffle", max_turns=30, battles=2)
    for s in _finals(g, 2, seed=2):
        assert g.is_terminal(s) or g.is_truncated(s)


@pytest.mark.parametrize(
    "check",
    [
        "check_random_games",
        "check_every_legal_action_steps",
        "check_illegal_actions_rejected",
        "check_determinism",
        "check_batched_equals_single",
        "check_clone_independence",
        "check_observations",
        "check_action_strings",
    ],
)
def test_conformance_with_every_field_amenity(check):
    import conformance as kit

    g = game(None, amenities=FIELD, max_turns=16, battles=2)
    getattr(kit, check)(g)


def test_the_observation_shows_rats_dog_gallows_and_hidden_amenities():
    from crusadegym.core.deus_lo_vult.campaign import observe as O
    from crusadegym.core.deus_lo_vult.campaign.layout import OS_FIELD

    extra = "campaign rats=0,1,0,0\ncampaign field_under=-1,-1,-1,-1,-1,60,-1,-1"
    g, s = pos({"k10": "1P*1", "e5": "0K", "f5": "mdg'", "b5": "mgl'"}, extra=extra)
    o = O.CSCALARS0 + OS_FIELD
    for player, rats_seat in ((0, 1), (1, 0)):  # relative seats
        obs = g.observe(s, player)
        assert obs[o + F.SF_RATS + rats_seat] == 1.0 and obs[o + F.SF_RATS + 1 - rats_seat] == 0
        assert obs[o + F.SF_DOG_OFFENSIVE] == 1.0 and obs[o + F.SF_GALLOWS_HANGED] == 1.0
        assert obs[o + F.SF_HIDDEN + F.HIDDEN_STASH] == 1.0 and obs[o + F.SF_HIDDEN + F.CAT] == 0


def test_a_field_position_prints_and_parses_back():
    """``render`` prints amenity tokens (sides too) and the field's notation fields."""
    from crusadegym.core.deus_lo_vult.campaign.layout import CB_FIELD, CB_FIELD_SIZE
    from crusadegym.core.deus_lo_vult.notation import parse_position

    extra = "campaign rats=1,0,0,0\ncampaign field_under=-1,-1,-1,-1,-1,60,-1,-1"
    g, s = pos({"e5": "0P", "e4": "mfl", "f5": "mdg'", "b5": "mgl'", "a2": "0P*1"}, extra=extra)
    s[F.F_FLAGS + int(s[L.BOARD + cell("e5")])] = F.FLAG_CORTEGE
    back = parse_position(g.render(s), g.config)
    block = slice(CB_FIELD, CB_FIELD + CB_FIELD_SIZE)
    assert np.array_equal(back[block], s[block])
    board = slice(L.BOARD, L.STATE_SIZE)
    assert np.array_equal(back[board], s[board])
