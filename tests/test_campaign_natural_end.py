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
from campaign_helpers import position
from dlv_helpers import greedy

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
