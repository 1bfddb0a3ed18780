"""Crusaders games between the shipped agents end by the rulebook, not by the turn cap.

"The game ends when the supply runs out; finish the round" [C] (research note
``crusaders_published_facts.md``, "Setup and end of game"). Heuristic self-play must
reach that end at every player count; the MCTS evaluation is taken where the mover's
turn ends (``heuristics/crusaders.evaluate_turn``). Measured figures at the default
config: ``docs/rules/crusaders.md``, "Natural game length".
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristics.crusaders import _complete_turn, evaluate, evaluate_turn
from crusadegym.agents.registry import make_agent
from crusadegym.core import make_game
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders.actions import N_ACTIONS
from crusadegym.core.crusaders.notation import parse_position

SMALL_SUPPLY = 40  # influence supply of the small config (the rule's is 20 + 60 per player)
GAMES_PER_COUNT = 8


def _play(game, seed: int, specs: list[str]) -> np.ndarray:
    agents = [make_agent(s, seed=seed * 10 + i) for i, s in enumerate(specs)]
    state = game.new_state(seed)
    while not game.is_terminal(state):
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_self_play_ends_by_the_supply_and_a_finished_round(players):
    """Every seeded heuristic game ends because the supply ran out and the round was
    finished [C], under the default turn cap, never truncated by it."""
    game = make_game("crusaders", players=players, supply=SMALL_SUPPLY)
    for seed in range(GAMES_PER_COUNT):
        s = _play(game, seed, ["heuristic"] * players)
        assert not game.is_truncated(s), f"seed {seed}: ended at the turn cap"
        assert s[L.ENDING] == 1 and s[L.SUPPLY] == 0, f"seed {seed}: supply not empty"
        assert s[L.TURN] % players == 0, f"seed {seed}: the round was not finished"


# A Travel/Build wedge of 5 tokens, resolved all on Build: a level I Keep (cost 5) in the
# knight's empty region is open (the rulebook's example B-1/B-2 [R "Build"]).
MID_TURN = """
crusaders players=2 expansion=1 seat=0
seat 0 score=0
  wheel TB:5^ TI:2 MC:2 CB:2 IM:2 BI:2
  knights d3 - - -
seat 1
  knights f5 - - -
"""


def _values(kernel, state, params, players: int) -> np.ndarray:
    out = np.zeros(players, np.float32)
    kernel(state, params, out)
    return out


def test_search_value_is_taken_where_the_turn_ends():
    """Halfway through a turn (a Build of strength 5 pending) the search value is the
    evaluation of the turn finished greedily, which has built and scored; the state
    searched from is left untouched."""
    game = make_game("crusaders", players=2)
    s, params = parse_position(MID_TURN)
    for text in ("resolve 1", "split 0"):
        game.step(s, game.parse_action(text, s))
    assert s[L.PHASE] == L.PH_BUILD_TYPE
    before = s.copy()
    searched = _values(evaluate_turn, s, params, 2)
    assert np.array_equal(s, before)
    done = s.copy()
    mask = np.zeros(N_ACTIONS, np.uint8)
    _complete_turn(done, params, 0, N_ACTIONS, mask, np.zeros(2, np.float32))
    assert done[L.CUR] == 1 and done[L.PHASE] == L.PH_TURN
    assert done[L.pl(0) + L.PL_SCORE] >= 1  # the turn built and scored
    np.testing.assert_allclose(searched, _values(evaluate, done, params, 2))
    assert searched[0] > _values(evaluate, s, params, 2)[0]


def test_search_value_of_a_finished_game_is_its_result():
    """A finished game is worth its result: the winner +1, the others -1 [R "Scoring"]."""
    game = make_game("crusaders", players=3, supply=SMALL_SUPPLY)
    s = _play(game, 0, ["heuristic"] * 3)
    np.testing.assert_array_equal(_values(evaluate_turn, s, game.params, 3), game.returns(s))


# Supply 1: any influence ends the game [C]; seat 1, last in the round and 30 behind,
# can take it (Muster 3, Influence) or not (upgrade a wedge, Travel).
LAST_POINT = """
crusaders players=2 expansion=0 seat=1 supply=1
seat 0 score=40
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:2
  knights d3 - - -
seat 1 score=10
  wheel TB:2 TI:2 MC:3 CB:2 IM:2 BI:2
  knights f5 - - -
"""


def test_a_trailing_seat_still_takes_the_supplys_last_influence():
    """A seat that loses when the game ends still scores the last point and ends it
    (the supply runs out, the round is finished [C]) instead of stalling forever."""
    game = make_game("crusaders", players=2, expansion=False)
    s, params = parse_position(LAST_POINT)
    assert np.array_equal(params, game.params)
    agent = make_agent("heuristic", seed=0)
    while not game.is_terminal(s) and game.current_player(s) == 1:
        game.step(s, select_action(agent, game, s))
    assert game.is_terminal(s) and not game.is_truncated(s)
    assert game.returns(s).tolist() == [1.0, -1.0]
