"""Campaign games end by the rules, not at the turn cap (issue #36).

The Campaign heuristic (``agents/heuristics/deus_lo_vult_campaign.py``) reads the
Duel's evaluation plus Glory. In self-play (``kyivan``, 2 players) a third of the
Campaigns had a Battle cut by the cap: the trailing seat held the last coin next to its
camp centre for thousands of turns, since securing it ended the Campaign as a loss and
any unfinished game was worth more. Positions in the board notation
(``campaign_helpers``); no rule changed.
"""

from __future__ import annotations

import numpy as np
from campaign_helpers import position

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristics import HeuristicAgent

LAST_COIN = {"b3": "0P*1", "c3": "0F", "k10": "1F", "k9": "1F"}
"""Seat 0's Pilgrim carries the round's last coin, one step from its camp centre (b2)."""


def _greedy(game, state, n: int) -> list[str]:
    agent, names = HeuristicAgent(seed=0), []
    for _ in range(n):
        action = select_action(agent, game, state)
        names.append(game.action_to_str(action, state))
        game.step(state, action)
        if game.is_terminal(state):
            break
    return names


def test_a_seat_that_has_lost_the_campaign_secures_its_last_coin():
    """Last Battle, last round: seat 0 leads in Glory (7 to 6) but has 15 coins to 26, so
    even with the last coin it buys 3 Glory to 5 and ends 10 to 11: the Campaign is lost
    either way, and ending it is no worse than holding the coin, so it secures it."""
    game, state = position(
        LAST_COIN,
        "seat=0 ap=7 phase=army score=15,26 left=1",
        "campaign battle=2 glory=7,6,0,0",
        battles=3,
        rounds=1,
    )
    assert _greedy(game, state, 2) == ["cell b3", "give N"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [-1.0, 1.0])


def test_a_battle_that_decides_nothing_is_still_played_for_its_coins():
    """The same coin in the first of three Battles: nothing is decided, and securing it is
    worth its coin, so the heuristic secures it too (the rule above only settles the
    Campaign's last Battle)."""
    game, state = position(
        LAST_COIN,
        "seat=0 ap=7 phase=army score=15,26 left=1",
        "campaign battle=0 glory=7,6,0,0",
        battles=3,
        rounds=1,
    )
    assert _greedy(game, state, 2) == ["cell b3", "give N"]
    assert not game.is_terminal(state)
