"""Deus games between the shipped agents end by the rulebook's end condition (issue #36).

[R "End of Game"]: all temples built or all barbarian villages attacked, the round
finished, then one more round. The heuristic values a lead more the nearer that end is
(``agents/heuristics/deus.py``, ``scores``), so a seat ahead builds toward it; before,
two greedy seats traded Vesta's 2 VP a turn for ever and games ran into the turn cap.
"""

from __future__ import annotations

import numpy as np
import pytest
from deus_helpers import game, position

from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics.deus import seat_material, turns_left
from crusadegym.core.deus import layout as L
from crusadegym.core.deus.board import all_villages_attacked
from crusadegym.core.deus.scoring import final_scores

BIG_CAP = 5_000
"""Turns per seat: far above any natural game, so only the rules can end one."""
GAMES = {2: 6, 3: 4, 4: 3}

# Seat 0 may build its first temple (no prerequisite) on its region b0, a field: the
# Temple of Mountains scores 0 there and costs one of each resource, so it gains no
# material; but it is the last temple piece, so it triggers the end [R "End of Game"].
LAST_TEMPLE = """
piece b0 0 civil
seat 0 vp {vp0} res 3 3 3 3
seat 1 vp {vp1}
temples 1
hand 0 temple-of-mountains villa-field forum
"""


def _material(g, s, seat):
    scores = np.zeros(g.num_players, np.int64)
    final_scores(s, g.params, scores)
    return seat_material(s, g.params, seat, scores[seat])


def _finish_turn(g, s, agent):
    seat, turn = g.current_player(s), s[L.TURN]
    while not g.is_terminal(s) and g.current_player(s) == seat and s[L.TURN] == turn:
        g.step(s, agent.act_state(g, s))


@pytest.mark.parametrize("players", sorted(GAMES))
def test_heuristic_self_play_ends_by_the_rules(players):
    """Every seeded game ends by the end condition, never at the (far away) cap."""
    g = game(players=players, max_turns=BIG_CAP)
    for seed in range(GAMES[players]):
        agents = [HeuristicAgent(seed=100 * seed + p) for p in range(players)]
        s = g.new_state(seed)
        while not g.is_terminal(s):
            g.step(s, agents[g.current_player(s)].act_state(g, s))
        assert not g.is_truncated(s), f"seed {seed}: cut at turn {s[L.TURN]}"
        assert s[L.END_TRIGGER] == 1
        assert s[L.TEMPLES_LEFT] == 0 or all_villages_attacked(s, g.params)


def test_the_leader_builds_the_last_temple_the_trailer_does_not():
    """Tips for Winning 3: ahead, end the game; behind, play on. The temple gains no
    material here (a pure material greedy would offer instead): only the end does."""
    g = game(max_turns=BIG_CAP)
    ahead = position(g, LAST_TEMPLE.format(vp0=30, vp1=5))
    action = HeuristicAgent(seed=0).act_state(g, ahead)
    assert g.action_to_str(action, ahead) == "build temple-of-mountains"

    built, offered = ahead.copy(), ahead.copy()
    _finish_turn(g, built, HeuristicAgent(seed=0))
    g.step(offered, g.parse_action("offer villa-field", offered))
    _finish_turn(g, offered, HeuristicAgent(seed=0))
    assert built[L.END_TRIGGER] == 1 and offered[L.END_TRIGGER] == 0
    assert _material(g, built, 0) < _material(g, offered, 0)

    behind = position(g, LAST_TEMPLE.format(vp0=5, vp1=30))
    action = HeuristicAgent(seed=0).act_state(g, behind)
    assert g.action_to_str(action, behind) != "build temple-of-mountains"


def test_turns_left_is_exact_once_the_end_is_triggered():
    """After the trigger: the rest of the round, then one more round [R "End of Game"]."""
    g = game(max_turns=BIG_CAP)
    s = position(g, LAST_TEMPLE.format(vp0=30, vp1=5))
    before = turns_left(s, g.params, 0)
    _finish_turn(g, s, HeuristicAgent(seed=0))
    assert s[L.END_TRIGGER] == 1
    # seat 0 built it: seat 1 ends the round, then one turn each = 3 turns, 1.5 per seat
    assert turns_left(s, g.params, 0) == s[L.FINAL_LEFT] / 2 == 1.5
    assert before > 1.5
