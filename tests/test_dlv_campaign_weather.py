"""Weather Mode [R Part 2 "Weather Mode"] as positions, invariants and conformance.

Cells used below (STAND-IN colours, ``campaign/tables.WEATHER_CELL_COLOURS``): e5, g5,
d4 red; g4, d5, e6 blue (asserted in ``test_stand_in_colours``).
"""

from __future__ import annotations

import numpy as np
import pytest
from campaign_helpers import at, field, game, legal, play, position, random_games

from crusadegym.core import rng as R
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult.actions import parse_cell
from crusadegym.core.deus_lo_vult.campaign import weather as W
from crusadegym.core.deus_lo_vult.campaign.config import CampaignConfig

RED = ("e5", "g5", "d4")
BLUE = ("g4", "d5", "e6")
HEAT, COLD, RAIN, SAND = W.CARD_HEAT, W.CARD_COLD, W.CARD_RAIN, W.CARD_SAND


def deck(*cards: int) -> str:
    """A ``weather_deck`` field: these cards first, the rest of the 16 slots empty."""
    cards = cards + (0,) * (W.DECK_MAX - len(cards))
    return "weather_deck=" + ",".join(str(c) for c in cards)


def test_stand_in_colours():
    for name in RED:
        assert W.CELL_COLOUR[parse_cell(name)] == W.COLOUR_RED, name
    for name in BLUE:
        assert W.CELL_COLOUR[parse_cell(name)] == W.COLOUR_BLUE, name
    for name in ("b2", "a1", "k11", "f6", "g6", "f1"):  # camps, centre, Saracen camp: no colour
        assert W.CELL_COLOUR[parse_cell(name)] == W.COLOUR_NONE, name


# ------------------------------------------------------------------ active variant
ACTIVE_BOARD = {
    "e5": "0K",  # Knight on red: hurt by Heat
    "e6": "0P",  # Pilgrim on blue (band with e5)
    "g5": "1C'",  # rival's weak Cavalry on red: Heat kills it
    "h5": "1P",
    "g4": "0K",  # Knight on blue: Heat spares it
    "g3": "0P",
    "d5": "1P",  # Pilgrim on blue: Cold hurts it
    "d4": "1P",  # Pilgrim on red: Cold spares it
}


def test_active_each_seat_holds_one_heat_one_cold():
    g, s = position(ACTIVE_BOARD, weather="active")
    assert field(s, "weather_hand")[:4] == [1, 1, 1, 1]
    assert {"play heat", "play cold"} <= legal(g, s)


def test_active_heat_hurts_knights_on_red_cells_and_ends_the_turn():
    """[R] "Heat hurts all Knights on red cells" ... "at the end of turn, inflicting
    damage to affected Units immediately"."""
    g, s = position(ACTIVE_BOARD, weather="active")
    play(g, s, "play heat")
    assert at(s, "e5") == "foot_knight side=1 coins=0"  # wounded
    assert at(s, "g5") == "empty"  # weak already: dead
    assert int(s[L.PURG]) >= 0  # ... and in Purgatory
    assert at(s, "g4") == "foot_knight side=0 coins=0"  # blue cell: spared
    assert at(s, "d5") == "pilgrim side=0 coins=0"  # Pilgrims: spared by Heat
    assert int(s[L.CUR]) == 1  # the card ended seat 0's turn
    assert field(s, "weather_hand")[:2] == [0, 1]
    assert field(s, "weather_card") == [HEAT]


def test_active_cold_hurts_pilgrims_on_blue_cells_only_once_per_battle():
    g, s = position(ACTIVE_BOARD, weather="active")
    play(g, s, "play cold")
    assert at(s, "d5") == "pilgrim side=1 coins=0"
    assert at(s, "e6") == "pilgrim side=1 coins=0"  # the player's own Pilgrims too ("all")
    assert at(s, "d4") == "pilgrim side=0 coins=0"  # red cell: spared
    assert at(s, "e5") == "foot_knight side=0 coins=0"  # Knights: spared by Cold
    assert int(s[L.CUR]) == 1
    play(g, s, "end")  # seat 1 passes; seat 0 again
    assert "play cold" not in legal(g, s) and "play heat" in legal(g, s)


def test_active_cards_are_not_offered_without_weather():
    g, s = position(ACTIVE_BOARD)
    assert not {"play heat", "play cold"} & legal(g, s)


# ------------------------------------------------------------------ passive variant
PASSIVE = "campaign weather_deals=1 weather_size=8 weather_next=0 " + deck(HEAT, COLD, HEAT)


def test_passive_deals_at_the_start_of_each_round():
    """[R] "randomly dealt with every round": seat 1's turn opens no round; seat 0's does."""
    g, s = position(ACTIVE_BOARD, campaign=PASSIVE, weather="passive")
    play(g, s, "end")  # seat 1 starts: same round, no card
    assert field(s, "weather_next") == [0]
    assert at(s, "e5") == "foot_knight side=0 coins=0"
    play(g, s, "end")  # seat 0 opens the next round: Heat
    assert field(s, "weather_card") == [HEAT] and field(s, "weather_next") == [1]
    assert at(s, "e5") == "foot_knight side=1 coins=0"
    assert at(s, "g5") == "empty"
    play(g, s, "end", "end")
    assert field(s, "weather_card") == [COLD]
    assert at(s, "d5") == "pilgrim side=1 coins=0"


def test_passive_turn_option_deals_every_turn():
    """weather_deal="turn": the Player Turn Memo's "Start of the turn: Take a weather card"."""
    g, s = position(ACTIVE_BOARD, campaign=PASSIVE, weather="passive", weather_deal="turn")
    play(g, s, "end")
    assert field(s, "weather_card") == [HEAT] and field(s, "weather_next") == [1]
    assert at(s, "g5") == "empty"


def test_exhausted_deck_is_reshuffled():
    camp = "campaign weather_deals=1 weather_size=8 weather_next=8 " + deck(
        *([HEAT] * 4 + [COLD] * 4)
    )
    g, s = position(ACTIVE_BOARD, campaign=camp, weather="passive", weather_deal="turn")
    play(g, s, "end")
    assert field(s, "weather_next") == [1] and field(s, "weather_size") == [8]
    assert sorted(field(s, "weather_deck")[:8]) == [HEAT] * 4 + [COLD] * 4


def test_new_battle_deck_is_eight_heat_and_cold_or_sixteen_with_rain_sand():
    g = game(weather="passive")
    s = g.new_state(seed=3)
    assert sorted(field(s, "weather_deck")[: field(s, "weather_size")[0]]) == [1] * 4 + [2] * 4
    g = game(weather="passive", rain_sand=True)
    s = g.new_state(seed=3)
    assert field(s, "weather_size") == [16]
    assert sorted(field(s, "weather_deck")) == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4


# ------------------------------------------------------------------ Rain, Sand Storm
def test_rain_grounds_war_engines():
    """[R] "Rain disables the War Machines. They can't move and shoot"."""
    board = {"e5": "0T^", "e6": "0P", "e3": "sg"}
    g, s = position(board, weather="passive", rain_sand=True, war_engines=True)
    play(g, s, "cell e5")
    dry = legal(g, s)
    assert "strike N" in dry and any(a.startswith("cell ") for a in dry)
    wet = "campaign weather_card=3"
    g, s = position(board, campaign=wet, weather="passive", rain_sand=True, war_engines=True)
    assert W.engines_grounded(s, g.params)
    play(g, s, "cell e5")
    assert legal(g, s) == {"weaken"}  # no move, no strike
    play(g, s, "weaken")  # a free action: still seat 0's turn, the Pilgrim moves
    play(g, s, "cell e6")
    assert any(a.startswith("cell ") for a in legal(g, s))


def test_sand_storm_blinds_archers_who_still_move():
    """[R] "Sand Storm makes Archers unable to shoot. They can move"."""
    board = {"e5": "0A^", "e6": "0P", "e3": "sg"}
    g, s = position(board, weather="passive", rain_sand=True)
    play(g, s, "cell e5")
    assert "strike N" in legal(g, s)
    g, s = position(board, campaign="campaign weather_card=4", weather="passive", rain_sand=True)
    assert W.archers_blinded(s, g.params)
    play(g, s, "cell e5")
    opts = legal(g, s)
    assert "strike N" not in opts
    assert any(a.startswith("cell ") for a in opts)  # moves stay


def test_rain_and_sand_need_the_passive_deck():
    with pytest.raises(ValueError, match="passive"):
        CampaignConfig(players=2, weather="active", rain_sand=True)
    with pytest.raises(ValueError, match="weather_deal"):
        CampaignConfig(players=2, weather="passive", weather_deal="hour")


# ------------------------------------------------------------------ hidden information
def test_determinize_reshuffles_only_the_undealt_cards():
    g = game(weather="passive", rain_sand=True)
    s = g.new_state(seed=5)
    s[W.W_NEXT] = 5
    before = field(s, "weather_deck")
    seen = set()
    for i in range(20):
        c = s.copy()
        R.seed(c, L.RNG, i)  # a search reseeds the state's RNG per sampled world
        W.determinize(c, g.params, 0)
        after = field(c, "weather_deck")
        assert after[:5] == before[:5]
        assert sorted(after[5:]) == sorted(before[5:])
        seen.add(tuple(after))
    assert len(seen) > 1


def test_observation_does_not_show_the_deck_order():
    g = game(weather="passive", rain_sand=True)
    s = g.new_state(seed=5)
    t = s.copy()
    W.determinize(t, g.params, 0)
    assert not np.array_equal(s[W.W_DECK : W.W_END], t[W.W_DECK : W.W_END])
    for seat in range(2):
        assert np.array_equal(g.observe(s, seat), g.observe(t, seat))


# ------------------------------------------------------------------ random games
@pytest.mark.parametrize(
    "options",
    [
        {"preset": "kyivan"},
        {"weather": "active"},
        {"weather": "passive", "rain_sand": True, "weather_deal": "turn", "war_engines": True},
    ],
)
def test_random_campaigns_keep_invariants(options):
    g = game(max_turns=30, battles=2, **options)
    finals = random_games(g, 4, seed=2)
    assert all(g.is_terminal(s) or g.is_truncated(s) for s in finals)


def test_invariants_catch_a_broken_deck():
    g = game(weather="passive")
    s = g.new_state(seed=1)
    assert not W.check(s, g.params)
    s[W.W_DECK] = RAIN  # a Rain card in a deck without rain_sand
    assert W.check(s, g.params)
    s = g.new_state(seed=1)
    s[W.W_NEXT] = 9
    assert any("cursor" in e for e in g.check_invariants(s))


def test_sand_storm_blinds_saracen_archers_too():
    """Our reading of "Archers": the Saracen archer kinds are blinded as well."""
    board = {"e4": "sav", "d4": "sg", "e6": "1P", "e7": "1P", "h8": "0F", "h9": "0F"}
    g, s = position(board, "seat=0 ap=7 phase=saracen", weather="passive", rain_sand=True)
    play(g, s, "cell e4")
    assert "strike S" in legal(g, s)
    sand = "campaign weather_card=4"
    g, s = position(
        board, "seat=0 ap=7 phase=saracen", campaign=sand, weather="passive", rain_sand=True
    )
    play(g, s, "cell e4")
    opts = legal(g, s)
    assert "strike S" not in opts and "cell d5" in opts  # blind, but it moves
