"""The agents' stall breaker (``agents/stall.py``, issue #36): when it says a game has
stalled, and that play which never stalls is unchanged by it."""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.agents.registry import make_agent
from crusadegym.agents.stall import StallBreaker
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.registry import make_game


def test_no_progress_for_patience_turns_a_seat_is_a_stall():
    game = make_game("deus_lo_vult")  # 2 seats: 10 turns a seat are 20 turns in all
    state = game.new_state(0)
    breaker = StallBreaker(patience=10)
    state[L.TURN] = 100
    assert not breaker.stalled(game, state)  # the first look sets the mark
    state[L.TURN] = 119
    assert not breaker.stalled(game, state)
    state[L.TURN] = 120
    assert breaker.stalled(game, state)
    state[L.SCORE + 1] += 1  # a coin secured is progress
    assert not breaker.stalled(game, state)
    state[L.TURN] = 139
    assert not breaker.stalled(game, state)
    state[L.TURN] = 5  # the turn counter went back: a new game
    assert not breaker.stalled(game, state)


def test_a_game_without_progress_slots_never_stalls():
    game = make_game("deus")
    assert game.spec.progress_slots == ()
    state = game.new_state(0)
    breaker = StallBreaker(patience=1)
    for turn in (0, 50, 500):
        state[game.spec.turn_slot] = turn
        assert not breaker.stalled(game, state)


@pytest.mark.parametrize("options", ["patience=-1", "explore=1.5"])
def test_bad_stall_options_are_refused(options):
    with pytest.raises(ValueError, match="patience >= 0 and explore"):
        make_agent(f"heuristic:{options}", 0)


def test_play_that_never_stalls_is_unchanged():
    """A Duel between heuristic seats with the breaker on and off: the same moves, as long
    as no seat has gone 100 turns without progress (the breaker draws from the agent's
    generator only once stalled)."""
    game = make_game("deus_lo_vult")
    moves = []
    for patience in (100, 0):
        state = game.new_state(7)
        agents = [make_agent(f"heuristic:patience={patience}", seed) for seed in (1, 2)]
        played = []
        for _ in range(600):
            a = agents[game.current_player(state)].act_state(game, state)
            played.append(a)
            game.step(state, a)
        moves.append(played)
    assert moves[0] == moves[1]
    assert np.unique(moves[0]).size > 10
