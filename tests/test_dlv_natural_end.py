"""Deus lo Vult games end by the rules, not at the turn cap (issue #36).

The heuristic self-play of the Duel used to stall in round 1 until the cap: its
evaluation was worth less after plundering a round's last coin (every unit lost its
pull toward the loot) and after securing it (the round's end cleared the board), and a
seat that had lost would hold the last coin forever. The evaluation is also the MCTS
cutoff value (``agents/heuristics/deus_lo_vult.py``; figures in docs/rules/deus_lo_vult.md,
"Natural game length"). Each position below is written in the board notation; the
rules are the rulebook's [R "End of the Round / Winning"]; no rule changed.
"""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import at, position

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristics import HeuristicAgent
from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L

SMALL = {"players": 2, "rounds": 1, "max_turns": 400}  # max_turns: per seat, never reached
GAMES = 4


def _greedy(game, state, n: int, seed: int = 0) -> list[str]:
    """Play ``n`` heuristic actions from ``state`` (in place); their names."""
    agent, names = HeuristicAgent(seed=seed), []
    for _ in range(n):
        action = select_action(agent, game, state)
        names.append(game.action_to_str(action, state))
        game.step(state, action)
        if game.is_terminal(state):
            break
    return names


@pytest.mark.parametrize("seed", range(GAMES))
def test_heuristic_self_play_ends_by_the_rules(seed):
    """Every seeded one-round game of heuristic self-play ends with its last coin secured:
    not truncated, every coin of the round in a camp centre."""
    game = make_game("deus_lo_vult", **SMALL)
    state = game.new_state(seed)
    agents = [HeuristicAgent(seed=10 * seed + p) for p in range(2)]
    while not game.is_terminal(state):
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    assert not game.is_truncated(state)
    assert state[L.ROUND_LEFT] == 0 and state[L.ROUND] == 1
    assert int(state[L.TURN]) < SMALL["max_turns"] * SMALL["players"]


def test_the_last_coin_of_a_quarter_is_plundered():
    """The issue's position: the round's last coin in a quarter, a unit of the seat to move
    on its plunder spot (the Pilgrim on g7 faces south, onto the coin edge of the quarter
    on g8). The heuristic plunders it, though no coin is left for its other units."""
    fields = {"g7": "0P", "f7": "0F", "g8": "Q11*1", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army score=6,4 left=1")
    assert _greedy(game, state, 2) == ["cell g7", "strike S"]
    assert at(state, "g7") == "pilgrim side=0 coins=1"


def test_the_rounds_last_coin_is_secured():
    """Securing the round's last coin ends the round and clears the board; the heuristic
    still secures it (a round played is worth more than the positions it clears)."""
    fields = {"b3": "0P*1", "c3": "0F", "d3": "0F", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army score=6,4 left=1")
    assert _greedy(game, state, 2) == ["cell b3", "give N"]
    assert state[L.ROUND] == 1 and state[L.SCORE] == 7


def test_a_seat_that_has_lost_still_secures_the_games_last_coin():
    """Last round, seat 0 behind by 5 with the game's last coin next to its camp: the game
    is decided, and ending it (a loss) is no worse than going on, so it secures the coin
    and the game ends by the rules."""
    fields = {"b3": "0P*1", "c3": "0F", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army round=3 score=0,5 left=1")
    assert _greedy(game, state, 2) == ["cell b3", "give N"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [-1.0, 1.0])


def test_a_unit_steps_off_a_plunder_spot_it_cannot_use():
    """Seat 1's Footman on f7, the only plunder spot of the Court on e7 (coin edge east;
    only seat 0's Foot Knight strikes west), blocks the quarter for good if it stays. With
    nothing else to do, the heuristic moves it off the spot."""
    fields = {"e7": "Q8*2", "f7": "1F", "g7": "1F", "b3": "0F", "c3": "0F"}
    game, state = position(fields, "seat=1 ap=7 phase=army")
    names = _greedy(game, state, 14, seed=1)
    assert at(state, "f7") == "empty", names


def test_a_seat_out_of_the_race_ends_a_three_player_game():
    """Three players, last round: seats 0 and 1 tie at 10, seat 2 has none and carries the
    game's last coin next to its camp (k10, centre k11). It cannot finish first any more,
    so ending the game (a loss) is no worse for it than going on: it secures the coin."""
    fields = {"k10": "2P*1", "k9": "2F", "b3": "0F", "c3": "0F", "j2": "1F", "k3": "1F"}
    header = "seat=2 ap=7 phase=army players=3 round=3 score=10,10,0 left=1 last=0"
    game, state = position(fields, header, players=3)
    assert _greedy(game, state, 2) == ["cell k10", "give S"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [1.0, -1.0, -1.0])
