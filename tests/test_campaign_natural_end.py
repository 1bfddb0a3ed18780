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
