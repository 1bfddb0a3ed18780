"""The terminal seat explains itself (issue #39): help per action kind, narrated outcomes,
the legend once, marked Duel boards, Crusaders/Deus boards without the rulebook open."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

from crusadegym.agents import make_agent
from crusadegym.agents.action_help import ACTION_HELP, help_for
from crusadegym.agents.human import HumanAgent, legend, text_board
from crusadegym.agents.match import play_session
from crusadegym.agents.narrate import changes, narrate_action
from crusadegym.core import get_spec, make_game
from crusadegym.core.deus import layout as L

GAMES = ["deus_lo_vult", "deus_lo_vult_campaign", "deus", "crusaders"]


def _config(name: str) -> dict:
    return dict(get_spec(name).test_configs[0])


def _labels_seen(game, seeds=3, steps=400) -> set[str]:
    """Every label ``action_to_str`` writes for a legal action in a few random games, and
    for every action id in the opening position."""
    state = game.new_state(0)
    seen = {game.action_to_str(a, state) for a in range(game.num_actions)}
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        for _ in range(steps):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            seen.update(game.action_to_str(int(a), state) for a in legal)
            game.step(state, int(rng.choice(legal)))
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_every_action_kind_has_a_help_entry(name):
    game = make_game(name, **_config(name))
    missing = sorted({lab for lab in _labels_seen(game) if not help_for(game, lab)})
    assert not missing, f"{name}: no help for {missing[:10]}"
    assert all(len(text) < 400 for text in ACTION_HELP[name].values())  # one or two lines


def test_help_action_in_the_terminal():
    game = make_game("crusaders", players=2)
    state = game.new_state(0)
    out = io.StringIO()
    human = HumanAgent(input=io.StringIO("help wedge 3\nhelp upgrade\nhelp\n1\n"), output=out)
    human.act_state(game, state)
    text = out.getvalue()
    assert "wedge N: the wedge whose tokens you sow" in text
    assert "upgrade N: flip wedge N" in text
    assert "The actions legal now:" in text and "order NAME" in text


def test_narration_of_a_deploy_and_of_a_kill():
    game = make_game("deus_lo_vult", players=2)
    state = game.new_state(0)
    game.step(state, game.parse_action("cell a1"))
    line = narrate_action(game, state, game.parse_action("deploy pilgrim"), 0)
    assert line == "seat 0 plays deploy pilgrim: seat 0's pilgrim entered at a1"
    # the first strike in random games that wounds or kills is narrated with its outcome
    found = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        while not game.is_terminal(state) and found < 2:
            legal = game.legal_actions(state)
            for a in legal:
                if game.action_to_str(int(a), state).startswith("strike"):
                    after = state.copy()
                    game.step(after, int(a))
                    line = narrate_action(game, state, int(a), None)
                    if "to Purgatory (" in line or "wounded" in line:
                        assert line.startswith(f"seat {game.current_player(state)} plays strike")
                        found += 1
            game.step(state, int(rng.choice(legal)))
        if found >= 2:
            break
    assert found >= 2


def test_narration_names_every_seats_vp_changes_in_deus():
    """Every VP change is a public event, so the narration names a rival's too
    (docs/rules/deus.md, "Hidden information"); a rival's hand stays unnamed."""
    game = make_game("deus", players=2)
    rng = np.random.default_rng(1)
    state = game.new_state(1)
    rival_vp = 0
    for _ in range(2000):
        if game.is_terminal(state):
            break
        before = state.copy()
        game.step(state, int(rng.choice(game.legal_actions(state))))
        changed = before[L.player(1) + L.VP] != state[L.player(1) + L.VP]
        items = changes(game, before, state, 0)
        assert any("seat 1 VP" in item for item in items) == bool(changed)
        rival_vp += int(changed)
    assert rival_vp > 0


def test_human_sees_the_legend_once_and_the_opponents_outcomes():
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=6)
    out = io.StringIO()
    human = HumanAgent(input=io.StringIO("1\n" * 60 + "quit\n"), output=out)
    play_session(game, [human, make_agent("random", 3)], seed=2, out=out)
    text = out.getvalue()
    assert text.count("Legend:") == 1
    assert "Since your last move: seat 1's" in text
    assert "You play deploy" in text and "entered at" in text


def test_duel_board_marks_the_selection_and_the_deploy_zone():
    game = make_game("deus_lo_vult", players=2)
    state = game.new_state(0)
    board = text_board(game, state, 0)
    assert board.splitlines()[2].split()[:4] == ["1", "+", "+", "+"]  # the camp cells
    game.step(state, game.parse_action("cell a1"))
    assert text_board(game, state, 0).splitlines()[2].split()[1] == "[.]"
    assert "[0P] the selected unit" in legend(game)
    assert game.render(state, 0) != text_board(game, state, 0)  # the notation unchanged


def test_crusaders_board_has_a_map_and_names_its_tiles():
    game = make_game("crusaders", players=2)
    state = game.new_state(0)
    board = text_board(game, state, 0)
    assert "map:" in board and not re.search(r"\b(bonus|inf)=\d", board)
    assert re.search(r"inf=(once|perm|upgrade|distrib|endgame)", board)
    text = legend(game)
    for word in ("once", "perm", "capt", "end", "board = levels"):
        assert word in text
    out = io.StringIO()
    HumanAgent(input=io.StringIO("1\n"), output=out).act_state(game, state)
    assert "rivals' hands" not in out.getvalue()


def test_deus_hand_shows_cost_and_effect_and_pay_shows_the_price():
    game = make_game("deus", players=2)
    rng = np.random.default_rng(0)
    for seed in range(20):
        state = game.new_state(seed)
        seat = game.current_player(state)
        assert " cost " in text_board(game, state, seat)
        for _ in range(200):
            if game.is_terminal(state):
                break
            labels = [game.action_to_str(int(a), state) for a in game.legal_actions(state)]
            if "pay gold" in labels:
                board = text_board(game, state, game.current_player(state))
                assert "price still to pay: " in board
                return
            game.step(state, int(rng.choice(game.legal_actions(state))))
    pytest.fail("no payment choice met")


def test_crusaders_and_deus_moves_are_narrated_with_their_outcome():
    game = make_game("crusaders", players=2)
    rng = np.random.default_rng(0)
    state = game.new_state(0)
    while not any(
        game.action_to_str(int(a), state).startswith("upgrade") for a in game.legal_actions(state)
    ):
        game.step(state, int(rng.choice(game.legal_actions(state))))
    a = next(
        int(a)
        for a in game.legal_actions(state)
        if game.action_to_str(int(a), state).startswith("upgrade")
    )
    n = game.action_to_str(a, state).split()[1]
    seat = game.current_player(state)
    assert f"seat {seat} upgraded wedge {n}" in narrate_action(game, state, a, seat)
    game = make_game("deus", players=2)
    state = game.new_state(0)
    build = next(
        int(a)
        for a in game.legal_actions(state)
        if game.action_to_str(int(a), state).startswith("build")
    )
    card = game.action_to_str(build, state).split()[1]
    assert narrate_action(game, state, build, 1).endswith(f"seat 0 played {card}")


def test_crusaders_knights_are_narrated_as_entering_and_moving():
    """A knight's first placement reads "enters <region> from its player board", a
    later move "moves <from> -> <to>" (it read "the player board->d2" before)."""
    game = make_game("crusaders", players=2)
    rng = np.random.default_rng(3)
    state = game.new_state(3)
    seen = set()
    while len(seen) < 2 and not game.is_terminal(state):
        a = int(rng.choice(game.legal_actions(state)))
        lines = " / ".join(narrate_action(game, state, a, game.current_player(state)).split("\n"))
        assert "board->" not in lines
        if "from its player board" in lines:
            seen.add("enters")
        if "'s knight" in lines and " moves " in lines and " -> " in lines:
            seen.add("moves")
        game.step(state, a)
    assert seen == {"enters", "moves"}


def test_the_board_is_printed_whole_once_a_turn_then_only_its_changed_lines():
    """Crusaders' board is some 36 lines: a seat's first decision of a turn shows it whole,
    its next decisions only the lines that changed, and ``board`` shows it whole again."""
    game = make_game("crusaders", players=2)
    state = game.new_state(0)
    rng = np.random.default_rng(0)
    out = io.StringIO()
    agent = HumanAgent(output=out)
    seat = game.current_player(state)
    agent.show(game, state)
    whole = len(out.getvalue().splitlines())
    while True:  # a decision that keeps the seat to move
        action = int(rng.choice(game.legal_actions(state)))
        after = state.copy()
        game.step(after, action)
        if game.current_player(after) == seat:
            break
    out.truncate(0), out.seek(0)
    agent.show(game, after)
    assert "board lines unchanged; `board` prints it whole" in out.getvalue()
    assert len(out.getvalue().splitlines()) < whole - 20
    out.truncate(0), out.seek(0)
    agent.show(game, after, with_legend=True)
    assert "board lines unchanged" not in out.getvalue()
