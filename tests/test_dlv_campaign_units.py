"""War Engines, the Engineer and Heroes [R Part 2 "War Engines", "Engineer", "Heroes"]
as positions with expected outcomes, plus random Campaigns with them on (invariants,
conformance). Seat 0's camp is a1..c3 (centre b2), seat 1's j10..l12 (two players).
"""

from __future__ import annotations

import pytest
from campaign_helpers import at, field, game, legal, play, position, random_games, token

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import units as U
from crusadegym.core.deus_lo_vult.campaign.config import CampaignConfig

ENGINES = {"war_engines": True}
FR, TEMPLAR, ANGEVIN = "regnum_francorum", "knights_templar", "imperium_angevinium"
HRE, CASTILE, OUTREMER = "sacrum_imperium_romanum", "corona_castelae", "outremer"


def heroes(h0: str = "", h1: str = "", f0: str = "", f1: str = "") -> dict:
    return {"heroes": (h0, h1), "factions": (f0, f1)}


def loc(state, t: int) -> int:
    return int(state[L.TOK_LOC + t])


def campaign_token(seat: int, kind: str) -> int:
    return (
        T.CAMPAIGN_UNIT0 + seat * T.CAMPAIGN_ARMY_SIZE + T.KIND_NAMES.index(kind) - T.KIND_CAMPAIGN0
    )


def to_reserve(state, seat: int, *kinds: str) -> None:
    for kind in kinds:
        state[L.TOK_LOC + campaign_token(seat, kind)] = L.LOC_RESERVE


# ------------------------------------------------------------------ Battle start
def test_engines_and_hero_wait_in_reserve_at_each_battle_start():
    """[R "You can use War Engine class Unit tokens during Campaigns"]; [R "Heroes"]
    "Each Player can use only one Hero at one Battle"."""
    g = game(**ENGINES, **heroes("louis_ix", "", FR, ""))
    s = g.new_state(seed=3)
    for kind in ("trebuchet", "siege_tower", "greek_fire", "catapult"):
        assert loc(s, campaign_token(0, kind)) == L.LOC_RESERVE
        assert loc(s, campaign_token(1, kind)) == L.LOC_RESERVE
    assert loc(s, campaign_token(0, "hero_knight")) == L.LOC_RESERVE  # Louis IX
    assert loc(s, campaign_token(0, "hero_cavalry")) == L.LOC_OFF
    assert loc(s, campaign_token(1, "hero_knight")) == L.LOC_OFF
    assert U.hero_of(s, campaign_token(0, "hero_knight")) == U.LOUIS
    off = game().new_state(seed=3)
    assert all(loc(off, campaign_token(0, k)) == L.LOC_OFF for k in ("trebuchet", "hero_knight"))


def test_deploy_a_war_engine_costs_three_army_points():
    """[R] "All War Engines cost 3 Army Points"; deployed like any unit."""
    g, s = position({"a2": "0K", "c1": "0K", "c2": "0C"}, **ENGINES)  # 9 points used
    to_reserve(s, 0, "trebuchet", "catapult")
    play(g, s, "cell a1")
    assert {"deploy trebuchet", "deploy catapult"} <= legal(g, s)
    play(g, s, "deploy trebuchet")
    assert at(s, "a1") == "trebuchet side=0 coins=0"
    assert s[L.AP] == 6
    play(g, s, "cell a3")  # 12 points: a second engine would pass the 13-point cap
    assert "deploy catapult" not in legal(g, s)


def test_config_heroes_of_their_army_only():
    """[R] "pick up the Hero of their Army only"; Philippe IV "Can be played only if
    another Player has Jacques de Molay in the game"."""
    with pytest.raises(ValueError, match="belongs to the regnum_francorum army"):
        CampaignConfig(players=2, heroes=("louis_ix", ""), factions=(ANGEVIN, ""))
    with pytest.raises(ValueError, match="jacques_de_molay"):
        CampaignConfig(players=2, heroes=("philippe_iv", ""), factions=(FR, ""))
    CampaignConfig(players=2, heroes=("philippe_iv", "jacques_de_molay"), factions=(FR, TEMPLAR))


# ------------------------------------------------------------------ War Engines
def test_trebuchet_single_shot_kills_any_unit():
    """[R "Trebuchet"] "whose single shot crushes and instantly kills any Unit"."""
    g, s = position({"e7": "0T^", "e8": "0P", "e5": "sfv"}, **ENGINES)
    saracen = token(s, "e5")
    play(g, s, "cell e7", "strike N")
    assert loc(s, saracen) == L.LOC_PURGATORY
    g, s = position({"e7": "0A^", "e8": "0P", "e5": "sfv"}, **ENGINES)  # an Archer wounds
    play(g, s, "cell e7", "strike N")
    assert at(s, "e5") == "saracen_footman side=1 coins=0"


def test_catapult_projectiles_ignore_shields():
    """[R "Catapult"] "Projectiles ignore shields when attacking". The footman facing
    north shows its Shield (back edge) to the south."""
    board = {"e8": "0P", "e5": "sf^"}
    g, s = position({**board, "e7": "0U^"}, **ENGINES)
    play(g, s, "cell e7", "strike N")
    assert at(s, "e5") == "saracen_footman side=1 coins=0"
    g, s = position({**board, "e7": "0A^"}, **ENGINES)
    play(g, s, "cell e7", "strike N")
    assert at(s, "e5") == "saracen_footman side=0 coins=0"


def test_siege_tower_band_robs_a_quarter_over_its_shield_edge():
    """[R "Siege Tower"] "allows adjoined Band to rob the Quarter over its Shield edge as
    if it was a Skull edge". Residential faces north: its Shield (back) edge is south."""
    board = {"e5": "Q0^*2", "e6": "0K^"}
    g, s = position({**board, "e7": "0P"}, **ENGINES)
    play(g, s, "cell e6")
    assert "strike N" not in legal(g, s)
    g, s = position({**board, "e7": "0W"}, **ENGINES)
    play(g, s, "cell e6")
    assert "strike N" in legal(g, s)
    play(g, s, "strike N")
    assert at(s, "e6") == "foot_knight side=0 coins=1"
    assert int(s[L.TOK_COINS + token(s, "e5")]) == 1


def test_siege_tower_doubles_the_range_of_archers_in_its_band():
    """[R] "grants all Archers in the same Band a double effective range": the arrow
    hits the first token 2..4 clear steps away (our reading)."""
    board = {"e9": "0A^", "e5": "sfv"}
    g, s = position({**board, "f9": "0P"}, **ENGINES)
    play(g, s, "cell e9")
    assert "strike N" not in legal(g, s)
    g, s = position({**board, "f9": "0W"}, **ENGINES)
    play(g, s, "cell e9", "strike N")
    assert at(s, "e5") == "saracen_footman side=1 coins=0"


def test_greek_fire_two_uses_damage_every_adjacent_unit():
    """[R "Greek Fire"] "two uses; it flips on the first one and goes to the Purgatory
    on the second. Upon use, it damages every orthogonally adjacent Unit"."""
    g, s = position({"e5": "0G", "e4": "sf", "f5": "0P", "d5": "sm'", "e6": "0K"}, **ENGINES)
    fire = token(s, "e5")
    mamluk = token(s, "d5")
    play(g, s, "cell e5", "greek fire")
    assert at(s, "e5") == "greek_fire side=1 coins=0"
    assert at(s, "e4") == "saracen_footman side=1 coins=0"
    assert at(s, "f5") == "pilgrim side=1 coins=0"  # own units too
    assert at(s, "e6") == "foot_knight side=1 coins=0"
    assert loc(s, mamluk) == L.LOC_PURGATORY
    assert s[L.AP] == 6
    play(g, s, "cell e5", "greek fire")
    assert loc(s, fire) == L.LOC_PURGATORY
    assert at(s, "e4") == "empty"


# ------------------------------------------------------------------ the Engineer
ENGINEER = {"war_engines": True, "amenities": ("engineer",)}


def moves(g, s) -> set[str]:
    return {a for a in legal(g, s) if a.startswith("cell")}


def test_engines_move_only_with_the_sober_engineer_in_band_or_camp():
    """[R "Engineer"] "you can only make Moves with your Siege Engines when you have the
    sober Engineer connected to the same Band or settled in your Camp"."""
    g, s = position({"e5": "0T", "e6": "0P"}, **ENGINEER)
    play(g, s, "cell e5")
    assert moves(g, s) == set()
    g, s = position({"e5": "0T", "e6": "0P", "f6": "men"}, **ENGINEER)
    play(g, s, "cell e5")
    assert moves(g, s)
    g, s = position({"e5": "0T", "e6": "0P", "a1": "men"}, **ENGINEER)  # in own camp
    play(g, s, "cell e5")
    assert moves(g, s)
    g, s = position({"e5": "0T", "e6": "0P", "l12": "men"}, **ENGINEER)  # rival camp
    play(g, s, "cell e5")
    assert moves(g, s) == set()


def test_drunk_engineer_renders_engines_useless_and_sobers_for_a_coin_or_a_move():
    """[R] "he flips the "drunk" side up ... rendering all Siege Engines useless ... only
    could be flipped manually to get sober for the additional One Coin or One Move"."""
    board = {"e7": "0T^", "e8": "0P", "e5": "sf", "f8": "men'"}
    g, s = position(board, "seat=0 ap=7 phase=army score=1,0", **ENGINEER)
    play(g, s, "cell e7")
    assert legal(g, s) == {"weaken"}  # no move, no shot
    s[L.SEL] = -1
    assert {"sober engineer coin", "sober engineer move"} <= legal(g, s)
    play(g, s, "sober engineer coin")
    assert s[L.SCORE] == 0 and s[L.TOK_SIDE + U.ENGINEER_TOKEN] == U.SOBER
    play(g, s, "cell e7")
    assert "strike N" in legal(g, s)
    g, s = position(board, **ENGINEER)
    play(g, s, "sober engineer move")
    assert s[L.AP] == 6 and s[L.TOK_SIDE + U.ENGINEER_TOKEN] == U.SOBER


def test_engineer_gets_drunk_when_baccatio_comes_into_play():
    """[R] "The Engineer gets drunk every time the Baccatio card comes to play"; Local
    Bacchanalia: "a Player finishes a Turn having a Pilgrim Unit and no Knight Units in
    a Camp" (local reading, Pillory on)."""
    opts = {"war_engines": True, "amenities": ("engineer", "pillory")}
    g, s = position({"a1": "0P", "e5": "men"}, **opts)
    play(g, s, "end")
    assert s[L.TOK_SIDE + U.ENGINEER_TOKEN] == U.DRUNK
    g, s = position({"a1": "0P", "a2": "0K", "e5": "men"}, **opts)
    play(g, s, "end")
    assert s[L.TOK_SIDE + U.ENGINEER_TOKEN] == U.SOBER


# ------------------------------------------------------------------ Heroes
def test_louis_ix_ransoms_one_unit_per_turn_for_one_coin():
    """[R "Louis IX"] "He can ransom Units from Purgatory - one unit per turn for one
    Coin price"."""
    g, s = position(
        {"e5": "0Y"},
        "seat=0 ap=7 phase=army score=2,0 purgatory=0K,0F",
        **heroes("louis_ix", "", FR),
    )
    knight = int(s[L.PURG])
    play(g, s, "ransom")
    assert loc(s, knight) == L.LOC_RESERVE and s[L.SCORE] == 1
    assert "ransom" not in legal(g, s)


def test_louis_ix_dies_of_amebiasis_when_the_latrine_is_left_dirty():
    """[R] "Dies of amebiasis (if anyone leaves the Latrine dirty at the end of the turn)"."""
    opts = {**heroes("louis_ix", "", FR), "amenities": ("latrine",)}
    g, s = position({"e5": "0Y", "e6": "0P"}, campaign="campaign latrine=1", **opts)
    louis = token(s, "e5")
    play(g, s, "end")
    assert loc(s, louis) == L.LOC_PURGATORY
    g, s = position({"e5": "0Y", "e6": "0P"}, **opts)  # clean Latrine: he lives
    play(g, s, "end")
    assert at(s, "e5") == "hero_knight side=0 coins=0"


def test_philippe_iv_robs_templars_through_heart_and_skull_and_dies_after_de_molay():
    """[R "Philippe IV"] "he can take the Coins from Templar Units through both heart and
    skull side"; "Dies ... on the next game turn after the death of Jacques de Molay"."""
    opts = heroes("philippe_iv", "jacques_de_molay", FR, TEMPLAR)
    # the Templar footman faces south: its skull (front) edge points at Philippe
    g, s = position({"e5": "0Y^", "e6": "0P", "e4": "1Fv*1", "e3": "1P"}, **opts)
    play(g, s, "cell e5", "strike N")
    assert at(s, "e5") == "hero_knight side=0 coins=1"  # no robbing wound for him
    g, s = position({"e5": "0Y", "e6": "0P", "k11": "1Y'"}, "seat=1 ap=7 phase=army", **opts)
    molay = token(s, "k11")
    philippe = token(s, "e5")
    s[L.TOK_SIDE + molay] = 1
    from crusadegym.core.deus_lo_vult.purgatory import kill

    kill(s, molay)
    assert loc(s, philippe) >= 0  # de Molay died on seat 1's turn
    play(g, s, "end")  # the next game turn begins: the wild boar
    assert loc(s, philippe) == L.LOC_PURGATORY


def test_richard_dies_to_a_single_shot_and_next_to_a_city():
    """[R "Richard"] "Any ranged unit would kill Richard with a single shot"; "Richard
    can't end his moves next to a city (otherwise, he'll receive a wound and die)"."""
    opts = heroes("", "richard_lionheart", "", ANGEVIN)
    g, s = position({"e5": "sav", "e7": "1Y", "e8": "1P"}, **opts)
    richard = token(s, "e7")
    play(g, s, "cell e5", "strike S")
    assert loc(s, richard) == L.LOC_PURGATORY
    g, s = position({"e5": "sav", "e7": "1K", "e8": "1P"}, **opts)
    play(g, s, "cell e5", "strike S")
    assert at(s, "e7") == "foot_knight side=1 coins=0"
    g, s = position({"g5": "Q0", "e7": "1Y", "f7": "1P"}, "seat=1 ap=7 phase=army", **opts)
    richard = token(s, "e7")
    play(g, s, "cell e7", "cell f6")  # f6 and the quarter on g5 only touch diagonally
    assert loc(s, richard) >= 0
    g, s = position({"g6": "Q0", "e7": "1Y", "f7": "1P"}, "seat=1 ap=7 phase=army", **opts)
    richard = token(s, "e7")
    play(g, s, "cell e7", "cell f6")  # f6 touches the quarter on g6
    assert loc(s, richard) == L.LOC_PURGATORY


def test_richard_drives_refugees_from_his_tents():
    """[R] "Richard can drive the Refugees away from his tents"."""
    opts = heroes("", "richard_lionheart", "", ANGEVIN)
    g, s = position({"k10": "1Y", "l10": "R3", "j11": "R4"}, "seat=1 ap=7 phase=army", **opts)
    play(g, s, "cell k10", "drive refugees")
    assert at(s, "l10") == "empty" and at(s, "j11") == "empty"
    assert loc(s, token(s, "k10")) >= 0


def test_eleanor_wounded_by_another_player_goes_to_the_french():
    """[R "Eleanor"] "When wounded by another Player, moves to the side of the Regnum
    Francorum" (the French seat's spare hero token takes her place)."""
    opts = {"players": 3, "heroes": ("", "eleanor_of_aquitaine", ""), "factions": ("", ANGEVIN, FR)}
    g, s = position({"e5": "sfv", "e6": "1Y", "e7": "1P"}, **opts)
    play(g, s, "cell e5", "strike S")
    t = token(s, "e6")
    assert T.TOKEN_OWNER[t] == 2 and U.hero_of(s, t) == U.ELEANOR
    assert at(s, "e6") == "hero_knight side=1 coins=0"


def test_eleanor_without_a_french_army_moves_to_the_army_on_the_left():
    """[R] "If there are is no Regnum Francorum Army in the game, Eleanor moves to the
    Army on the left" (the next seat in play order: our reading)."""
    opts = heroes("", "eleanor_of_aquitaine", "", ANGEVIN)
    g, s = position({"e5": "sfv", "e6": "1Y", "e7": "1P"}, **opts)
    play(g, s, "cell e5", "strike S")
    t = token(s, "e6")
    assert T.TOKEN_OWNER[t] == 0 and U.hero_of(s, t) == U.ELEANOR


def test_heroes_without_a_printed_rule_play_as_their_base_token():
    """Pierre l'Ermite, Saladin, Jacques de Molay: no game rule is printed."""
    g = game(**heroes("saladin", "pierre_l_ermite", "inshallah", "popular_crusade"))
    s = g.new_state(seed=1)
    assert loc(s, campaign_token(0, "hero_knight")) == L.LOC_RESERVE
    assert U.hero_of(s, campaign_token(1, "hero_knight")) == U.HERO_INDEX["pierre_l_ermite"]
    g, s = position({}, **heroes("saladin", "", "inshallah"))
    to_reserve(s, 0, "hero_knight")
    play(g, s, "cell a1")
    assert legal(g, s) >= {"deploy hero_knight", "deploy foot_knight"}


@pytest.mark.parametrize("passes", ["end_of_turn", "at_once"])
def test_olivier_wounded_intentionally_passes_to_the_templars(passes):
    """[R "Olivier"] "When wounded intentionally, he passes to the Templar faction": at
    the end of that turn (option ``olivier_passes``, default) or at once."""
    after = ("end",) if passes == "end_of_turn" else ()
    opts = heroes("olivier_lo_templier", "jacques_de_molay", CASTILE, TEMPLAR)
    g, s = position({"e5": "0Y", "e6": "0P"}, olivier_passes=passes, **opts)
    # Jacques de Molay's seat plays its Hero on hero_knight: Olivier takes the spare
    # hero_knight only if it is free, so he leaves play here (our reading)
    play(g, s, "cell e5", "weaken", *after)
    assert at(s, "e5") == "empty"
    opts = heroes("olivier_lo_templier", "", CASTILE, TEMPLAR)
    g, s = position({"e5": "0Y", "e6": "0P"}, olivier_passes=passes, **opts)
    play(g, s, "cell e5", "weaken")
    assert (T.TOKEN_OWNER[token(s, "e5")] == 0) == (passes == "end_of_turn")
    play(g, s, *after)
    t = token(s, "e5")
    assert T.TOKEN_OWNER[t] == 1 and U.hero_of(s, t) == U.OLIVIER


def test_barbarossa_death_makes_his_army_retreat_dropping_the_loot():
    """[R "Barbarossa"] "Whenever he is killed, all Sacrum Imperium Romanum units on
    board must immediately retreat to their camp dropping the loot"."""
    opts = heroes("friedrich_barbarossa", "", HRE)
    board = {"e5": "sfv", "e6": "0Z'>", "e7": "0P*1", "h8": "0K"}
    g, s = position(board, "seat=1 ap=7 phase=army", **opts)
    play(g, s, "cell e5", "strike S")  # seat 1's Saracen action kills him
    assert at(s, "e7") == "empty" and at(s, "h8") == "empty"
    assert s[L.GROUND + 6 * 12 + 4] == 1  # the Pilgrim's coin lies on e7


def test_barbarossa_charges_on_his_first_move():
    """[R] "the only Cavalry unit that can use Charge ability on a first move": his
    skull breaks a shield without moving first. The footman facing north shows its
    Shield (back) to the south."""
    opts = heroes("friedrich_barbarossa", "", HRE)
    g, s = position({"e5": "sf^", "e6": "0Z^", "e7": "0P"}, **opts)
    play(g, s, "cell e6", "strike N")
    assert at(s, "e5") == "saracen_footman side=1 coins=0"
    g, s = position({"e5": "sf^", "e6": "0C^", "e7": "0P"}, **opts)
    play(g, s, "cell e6", "strike N")
    assert at(s, "e5") == "saracen_footman side=0 coins=0"


def test_wounded_barbarossa_moves_alone():
    """[R "Barbarossa"] "Can move as a single unit while being wounded": on his wounded
    side, with no band, he may step to an adjacent empty cell (our reading); strong, or
    any other unit alone, cannot move."""
    opts = heroes("friedrich_barbarossa", "", HRE)
    steps = {"cell e5", "cell d6", "cell f6"}  # e7 is taken by a Saracen
    g, s = position({"e6": "0Z'", "e7": "sf"}, **opts)
    play(g, s, "cell e6")
    assert steps <= legal(g, s) and "cell e7" not in legal(g, s)
    play(g, s, "cell d6")
    assert at(s, "d6") == "hero_cavalry side=1 coins=0" and s[L.AP] == 6
    g, s = position({"e6": "0Z", "e7": "sf"}, **opts)  # not wounded: no move
    play(g, s, "cell e6")
    assert "weaken" in legal(g, s) and not steps & legal(g, s)
    g, s = position({"e6": "0C'", "e7": "sf"}, **opts)  # a wounded Cavalry: nothing to do
    assert "cell e6" not in legal(g, s)


def test_leopold_takes_an_angevin_captive_redeemed_for_one_coin():
    """[R "Leopold V"] "The wounded side allows you to take one Anjouan ... token
    captive. It can be returned to the main Army for One Coin price"."""
    opts = heroes("leopold_v", "", HRE, ANGEVIN)
    g, s = position(
        {"e5": "0Y'", "e6": "0P", "f5": "1K", "f6": "1P"},
        "seat=0 ap=7 phase=army score=0,1",
        **opts,
    )
    knight = token(s, "f5")
    play(g, s, "cell e5")
    assert "capture e" in legal(g, s)
    play(g, s, "capture e", "end")
    assert loc(s, knight) == L.LOC_OFF and field(s, "captive")[0] == knight + 1
    assert "redeem captive" in legal(g, s)
    play(g, s, "redeem captive")
    assert loc(s, knight) == L.LOC_RESERVE and list(s[L.SCORE : L.SCORE + 2]) == [1, 0]
    g, s = position({"e5": "0Y", "e6": "0P", "f5": "1K", "f6": "1P"}, **opts)  # not wounded
    play(g, s, "cell e5")
    assert "capture e" not in legal(g, s)


def test_el_cid_dead_when_wounded_stays_on_the_board_and_cannot_fight():
    """[R "El Cid"] "considered dead when wounded ... won't leave the board even in
    death ... he cannot fight"."""
    opts = heroes("el_cid", "", CASTILE)
    board = {"e5": "sfv", "e6": "0Z'*1", "e7": "0P", "d6": "sf"}
    g, s = position(board, "seat=1 ap=7 phase=army", **opts)
    cid = token(s, "e6")
    play(g, s, "cell e5", "strike S")  # a second wound: stays on e6, dead
    assert token(s, "e6") == cid and field(s, "cid_dead")[0] == 1
    assert s[L.TOK_COINS + cid] == 0 and s[L.GROUND + 5 * 12 + 4] == 1
    play(g, s, "end")
    play(g, s, "cell e6")
    assert not {"strike W", "strike N"} & legal(g, s)


def test_dead_el_cid_cannot_take_or_be_given_coins():
    """[R "El Cid"] "he's unable to take or carry Coins in his cold dead hands": a dead
    El Cid carries nothing (capacity 0, hook ``capacity``), so he is offered no TAKE and
    his band cannot GIVE him a coin; alive, he can."""
    opts = heroes("el_cid", "", CASTILE)
    board = {"e6": "0Z", "e7": "0P*1", "f6": "$1"}
    g, s = position(board, **opts)
    play(g, s, "cell e6")
    assert "take E" in legal(g, s)
    g, s = position(board, **opts)
    play(g, s, "cell e7")
    assert "give N" in legal(g, s)
    dead = {**board, "e6": "0Z'"}
    g, s = position(dead, campaign="campaign cid_dead=1,0,0,0", **opts)
    play(g, s, "cell e6")
    assert "take E" not in legal(g, s)
    g, s = position(dead, campaign="campaign cid_dead=1,0,0,0", **opts)
    play(g, s, "cell e7")
    assert "give N" not in legal(g, s)


def test_baldwin_iv_turns_one_opponent_unit_into_a_disgusting_man_once_per_battle():
    """[R "Baldwin IV"] "Once per Battle, he touches the token of any opponent, which
    turns this Unit into a disgusting man"."""
    opts = heroes("baldwin_iv", "", OUTREMER)
    g, s = position({"e5": "0Y", "e6": "0P", "f5": "1K", "f6": "1P", "d5": "1F"}, **opts)
    knight = token(s, "f5")
    play(g, s, "cell e5", "touch e")
    assert loc(s, knight) == L.LOC_PURGATORY
    assert token(s, "f5") == U.DISGUSTING_MAN_TOKEN
    play(g, s, "cell e5")
    assert "touch w" not in legal(g, s)


# ------------------------------------------------------------------ random Campaigns
RANDOM_CONFIGS = (
    {"war_engines": True, "max_turns": 16, "battles": 2},
    {
        "war_engines": True,
        "amenities": ("engineer", "pillory", "latrine"),
        "heroes": ("louis_ix", "jacques_de_molay"),
        "factions": (FR, TEMPLAR),
        "max_turns": 16,
        "battles": 2,
    },
    {
        "players": 3,
        "war_engines": True,
        "heroes": ("richard_lionheart", "leopold_v", "el_cid"),
        "factions": (ANGEVIN, HRE, CASTILE),
        "max_turns": 16,
        "battles": 2,
    },
)


RANDOM_CONFIGS_4P = (
    {
        "players": 4,
        "war_engines": True,
        "amenities": ("engineer", "pillory"),
        "heroes": ("baldwin_iv", "eleanor_of_aquitaine", "friedrich_barbarossa", "louis_ix"),
        "factions": (OUTREMER, ANGEVIN, HRE, FR),
        "max_turns": 16,
        "battles": 2,
    },
)


@pytest.mark.parametrize("options", RANDOM_CONFIGS + RANDOM_CONFIGS_4P)
def test_random_campaigns_keep_invariants(options):
    g = game(**options)
    finals = random_games(g, 4, seed=5)
    assert all(g.is_terminal(s) or g.is_truncated(s) for s in finals)


def test_random_campaigns_use_the_engines():
    """Engines get deployed in random play (the actions are reachable)."""
    g = game(war_engines=True, max_turns=30, battles=1)
    finals = random_games(g, 4, seed=9, check=False)
    seen = 0
    for s in finals:
        for p in range(2):
            for kind in ("trebuchet", "siege_tower", "greek_fire", "catapult"):
                if loc(s, campaign_token(p, kind)) not in (L.LOC_OFF, L.LOC_RESERVE):
                    seen += 1
    assert seen > 0


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
def test_conformance_with_engines_and_heroes(check):
    import conformance as kit

    getattr(kit, check)(game(**RANDOM_CONFIGS[1]))
