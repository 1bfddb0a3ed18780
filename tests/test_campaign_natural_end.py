"""Campaign games end by the rules, not at the turn cap (issue #36).

The Campaign heuristic (``agents/heuristics/deus_lo_vult_campaign.py``) reads the
Duel's evaluation plus Glory. In self-play (``kyivan``, 2 players) 15 of 26 Campaigns had
a Battle cut by the cap; in one, the trailing seat held the last coin next to its camp
centre for thousands of turns, since securing it ended the Campaign as a loss and any
unfinished game was worth more. Positions in the board notation (``campaign_helpers``);
no rule changed. Figures: docs/rules/deus_lo_vult.md, "Natural game length".
"""

from __future__ import annotations

import numpy as np
import pytest
from campaign_helpers import field, position
from dlv_helpers import greedy

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristics import deus_lo_vult as duel
from crusadegym.agents.registry import make_agent
from crusadegym.core.deus_lo_vult.actions import cell_name
from crusadegym.core.deus_lo_vult.campaign.battle import C_BATTLE, C_TRUNC

LAST_COIN = {"b3": "0P*1", "c3": "0F", "k10": "1F", "k9": "1F"}
"""Seat 0's Pilgrim carries the round's last coin, one step from its camp centre (b2)."""


@pytest.mark.parametrize("battle, campaign_ends", [(2, True), (0, False)])
def test_the_trailing_seat_secures_the_last_coin_whether_or_not_it_decides_the_campaign(
    battle, campaign_ends
):
    """Last round of a Battle of three: seat 0 leads in Glory (7 to 6) but has 15 coins to
    26. In the last Battle, even with the last coin it buys 3 Glory to 5 and ends 10 to 11:
    the Campaign is lost either way, and ending it (a loss) is no worse than holding the
    coin, so it secures it. In the first Battle nothing is decided and the coin is simply
    worth securing."""
    game, state = position(
        LAST_COIN,
        "seat=0 ap=7 phase=army score=15,26 left=1",
        f"campaign battle={battle} glory=7,6,0,0",
        battles=3,
        rounds=1,
    )
    assert greedy(game, state, 2) == ["cell b3", "give N"]
    assert game.is_terminal(state) == campaign_ends
    if campaign_ends:
        assert not game.is_truncated(state)
        assert np.array_equal(game.returns(state), [-1.0, 1.0])


DRAWN_BY_THE_LAST_COIN = {
    "a1": "0V", "b1": "0P*1", "c1": "R0", "f1": "sg", "a2": "0F", "c2": "0P", "a3": "R8",
    "b3": "R6", "c3": "R5", "h3": "sc<", "b4": "sf>", "e4": "sgv", "l4": "sa<", "e5": "sev",
    "h5": "sa<", "i6": "sgv", "e8": "sfv", "f8": "sn>", "j8": "sg<", "k8": "sn<", "l9": "sf<",
    "k10": "1P", "l10": "1P", "b11": "sa>", "i11": "1A", "j11": "1P", "l11": "1K", "j12": "R3",
    "k12": "R10", "l12": "R11",
}  # fmt: skip
"""Arena seed 0, game 1 (``kyivan``) at turn 5,001 of its third Battle: seat 0's Pilgrim on b1
carries the Battle's last coin next to its camp centre (b2)."""
DRAWN_CAMPAIGN_LINES = (
    "campaign battle=2 glory=6,8,0,0 last_glory=2,6,0,0 carry=1,0,0,0 "
    "last_score=11,30,0,0 knights=-1 tithe_first=-1 tithe_last=-1\n"
    "campaign tithe_winner=-1 deed=-1,-1,-1,-1 deed_common=-1 deed_common_done=-1 "
    "weather_card=2 weather_next=5 weather_size=8 weather_deals=2501\n"
    "campaign weather_deck=2,2,2,1,2,1,1,1,0,0,0,0,0,0,0,0 latrine=1 cholera=0,1,0,0 "
    "surgeon=1 rival_refugees=3 field_under=-1,-1,-1,-1,-1,-1,-1,-1 "
    "field_cell=-1,-1,-1,-1,-1,-1,-1,-1\n"
)


def test_a_seat_whose_last_coin_only_levels_the_glory_secures_it():
    """Last round of the last Battle, 22 coins to 13, Glory 6 to 8 (with the Refugees Welcome!
    exchange and the carried coins): securing the last coin ends the Campaign level on
    Glory, a draw (``campaign_returns``: every seat level gives 0). The seat's undecided
    value was above a draw's 0, so it held the coin for 2,000 turns until the cap; a seat
    whose best is a draw cannot win, and ending the Campaign is now no worse than holding."""
    game, state = position(DRAWN_BY_THE_LAST_COIN,
                           "seat=0 ap=7 phase=army score=22,13 left=1 "
                           "purgatory=sa,sm,sm,sf,1P,sc,0F,1V,1A",
                           DRAWN_CAMPAIGN_LINES, preset="kyivan")  # fmt: skip
    assert greedy(game, state, 2) == ["cell b1", "give S"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [0.0, 0.0])


JERUSALEM_RING = {
    "b1": "R6", "c1": "R10", "i1": "sgv", "c2": "R1", "b3": "R5", "c3": "R11", "f3": "sfv",
    "l3": "sa<", "a5": "sn<", "e5": "0V", "f5": "0A'", "d6": "0V", "e6": "Q7>*2", "k6": "sav",
    "a7": "sm", "c7": "sc", "d7": "0A", "e7": "Q2*1", "j7": "sc>", "l7": "sa", "d8": "0V",
    "e8": "Q8*4", "f8": "1A", "g8": "1A", "f9": "0V'", "j10": "1V", "l10": "R0", "b11": "sg",
    "g11": "sm<", "j11": "R9", "d12": "sf", "f12": "sa",
}  # fmt: skip
"""Arena seed 0, game 2 (``kyivan``) at turn 5,001 of its second Battle: the last three
quarters of the Jerusalem ring on e6, e7 and e8, 7 coins, seat 0's units around them."""
JERUSALEM_RING_HEADER = (
    "seat=0 ap=7 phase=army turn=5001 score=13,17 purgatory=sf,sg,sn,sg,se,sf,1C,1A,1P"
)
JERUSALEM_RING_LINES = (
    "campaign battle=1 glory=4,3,0,0 last_glory=4,3,0,0 carry=0,1,0,0 last_score=20,16,0,0 "
    "coin_balance=-1 knights=-1 tithe_first=-1 tithe_last=-1 tithe_winner=-1\n"
    "campaign deed=-1,-1,-1,-1 deed_common=-1 deed_common_done=-1 weather_card=2 "
    "weather_next=5 weather_size=8 weather_deals=2501\n"
    "campaign weather_deck=2,2,1,1,2,1,1,2,0,0,0,0,0,0,0,0 latrine=1 cholera=0,1,0,0 "
    "surgeon=1 rival_refugees=2 field_under=-1,-1,-1,-1,-1,-1,-1,-1 "
    "field_cell=-1,-1,-1,-1,-1,-1,-1,-1\n"
)


def test_a_cell_held_by_a_quarter_is_no_plunder_spot():
    """The quarter on e8 faces its coin edge north, onto e7, where the quarter Q2 stands;
    e6's skull edge faces south, onto e7 too. A unit can stand on e7 only once Q2 is
    emptied and leaves the board [R "City Quarters"], so the only spots are f6 and f7.
    Before, the heuristic counted e6, e7 and e8 as spots one or two steps from seat 0's
    units, and they stood around the ring while the real spots lay unused."""
    game, state = position(JERUSALEM_RING, JERUSALEM_RING_HEADER, JERUSALEM_RING_LINES,
                           preset="kyivan")  # fmt: skip
    spots = np.zeros((duel.MAX_SPOTS, 3), np.int64)
    field = np.zeros((duel.MAX_SPOTS, duel.N_CELLS), np.int64)
    for seat in (0, 1):
        n = duel.spot_fields(state, seat, spots, field)
        assert sorted(cell_name(int(c)) for c in spots[:n, 2]) == ["f6", "f7"]


CHOLERA_CAMP = {
    "g1": "sf", "e2": "0C'", "f2": "sa>", "h2": "sm>", "j2": "sf<", "c3": "R2",
    "d3": "0K", "f3": "0V", "i3": "sg", "b4": "sg>", "g4": "sn>", "c5": "sc'", "e5": "Q9v*4",
    "h5": "Q8v*4", "e6": "Q11>*3", "h6": "Q10*2", "j6": "sa>", "a7": "sm", "c7": "sg>",
    "e7": "Q7*3", "h7": "1F", "i7": "1P", "b8": "sa>", "e8": "Q5*3", "i8": "1K'", "b10": "sc<",
    "l10": "R1", "f11": "sfv", "l11": "1P", "g12": "se", "j12": "R6", "k12": "R4",
    "l12": "1K",
}  # fmt: skip
"""Arena seed 0, game 8 (``kyivan``, a run with the spot fix) at turn 5,001 of its second
Battle: seat 1 has Cholera, its Pilgrim and Foot Knight in its Camp (l11, l12), its
Footman on h7, the plunder spot of the quarter on h6."""
CHOLERA_LINES = (
    "campaign battle=1 glory=3,3,0,0 last_glory=3,3,0,0 carry=1,3,0,0 last_score=16,18,0,0 "
    "coin_balance=-4 knights=-1 tithe_first=-1 tithe_last=-1 tithe_winner=-1\n"
    "campaign deed=-1,-1,-1,-1 deed_common=-1 deed_common_done=-1 weather_card=1 "
    "weather_next=5 weather_size=8 weather_deals=2501\n"
    "campaign weather_deck=1,2,2,2,1,1,2,1,0,0,0,0,0,0,0,0 latrine=1 cholera=0,1,0,0 "
    "surgeon=1 rival_refugees=3 field_under=-1,-1,-1,-1,-1,-1,-1,-1 "
    "field_cell=-1,-1,-1,-1,-1,-1,-1,-1\n"
)


def test_a_seat_with_cholera_expels_it():
    """Seat 1's units "won't attack until the Cholera is expelled from the Camp. Expel
    Cholera if you have an empty Camp and a clean Latrine by the end of your Turn" [R
    "Cholera"]. The evaluation did not know Cholera: the Footman stood on the plunder spot
    it could not strike from, the Camp stayed full, and the Battle ran to the turn cap
    (``cholera_cost``). Now seat 1 cleans the Latrine, walks its units out of the Camp and
    ends its first turn free of Cholera."""
    game, state = position(CHOLERA_CAMP, "seat=0 ap=7 phase=army turn=5001 score=9,12 "
                           "purgatory=sf,0K,sn,sg,0P,sa,0P,1F,1P", CHOLERA_LINES,
                           preset="kyivan")  # fmt: skip
    assert field(state, "cholera")[:2] == [0, 1]
    agents = [make_agent("heuristic", 1), make_agent("heuristic", 2)]
    seat_turns = 0
    while seat_turns < 2:  # seat 0's turn, then seat 1's
        before = game.current_player(state)
        game.step(state, select_action(agents[before], game, state))
        seat_turns += int(game.current_player(state) != before)
    assert field(state, "cholera")[:2] == [0, 0]


@pytest.mark.parametrize("patience", [100, 0])
def test_a_stalled_heuristic_explores_until_the_battle_ends(patience):
    """The Jerusalem ring position again, 1,000 turns before the cap: the greedy heuristic
    alone stays stuck (``patience=0``: the Battle runs to the cap), while the default
    stall breaker (:mod:`crusadegym.agents.stall`: after 100 turns a seat with no coin
    plundered or secured, one move in ten at random) ends the Battle by the rules."""
    game, state = position(JERUSALEM_RING, JERUSALEM_RING_HEADER, JERUSALEM_RING_LINES,
                           preset="kyivan")  # fmt: skip
    agents = [make_agent(f"heuristic:patience={patience}", seed) for seed in (1, 2)]
    while state[C_BATTLE] == 1:
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    assert state[C_TRUNC] == (1 if patience == 0 else 0)
