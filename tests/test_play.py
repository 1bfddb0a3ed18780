"""The terminal human seat: scripted stdin drives whole games of every small test game.

Moves are typed as a person would (numbers, listed actions, abbreviations, commands);
each game ends, is saved as a replay, and the replay reproduces the final position.
"""

from __future__ import annotations

import io
import sys

import pytest
from conftest import SMALL_GAMES

from crusadegym.agents import make_agent
from crusadegym.agents.arena import run_arena
from crusadegym.agents.human import HumanAgent, legal_listing, read_move
from crusadegym.agents.match import main, play_session
from crusadegym.agents.options import make_game_with_players
from crusadegym.core import available_games, get_spec, make_game
from crusadegym.core.records import load_replay, replay

SMALL = dict(SMALL_GAMES)
EVERY_GAME = [(g, SMALL.get(g, dict(get_spec(g).test_configs[0]))) for g in available_games()]
"""Every registered game (new games join by registering) under a small config."""


def _options(opts: dict) -> list[str]:
    out = ["--players", str(opts.get("players", 2))]
    for k, v in opts.items():
        if k != "players":
            out += ["-o", f"{k}={v}"]
    return out


@pytest.mark.parametrize("name,opts", EVERY_GAME, ids=[n for n, _ in EVERY_GAME])
def test_cli_full_game_by_scripted_stdin(name, opts, tmp_path, monkeypatch, capsys):
    # A typo, a number out of range, then always the first listed action until the end.
    script = "what now\n999\nboard\nhelp\n" + "1\n" * 20000
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    rc = main([name, "--vs", "random", "--save-replays", str(tmp_path), *_options(opts)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "cannot read `what now`" in out and "type a number 1.." in out
    assert "there is no action number 999" in out
    assert "Legend" in out and "seat 0: human" in out
    (path,) = tmp_path.glob("*.json")
    game, states = replay(load_replay(path))
    assert game.is_terminal(states[-1])
    assert "stopped (quit)" not in out


def test_numbers_follow_the_listing_and_label_round_trips():
    game = make_game("deus_lo_vult", players=2)
    state = game.new_state(3)
    listing = legal_listing(game, state)
    assert [a for a, _ in listing] == list(game.legal_actions(state))
    for i, (a, label) in enumerate(listing):
        assert read_move(game, state, str(i + 1)).action == a
        assert read_move(game, state, label.upper()).action == a
        assert read_move(game, state, f"  {label}  ").action == a


def test_abbreviations_ambiguity_and_illegal_reasons():
    game = make_game("deus_lo_vult", players=2)
    state = game.new_state(0)  # setup: seat 0 selects a camp cell, e.g. a1
    assert read_move(game, state, "a1").action == game.parse_action("cell a1")
    assert "ambiguous" in read_move(game, state, "cell").error
    illegal = read_move(game, state, "cell l12").error
    assert "`cell l12` is not legal in this position" in illegal and "cell a1" in illegal
    other_kind = read_move(game, state, "end").error
    assert "no `end` action is" in other_kind and "cell (" in other_kind
    game.step(state, game.parse_action("cell a1"))
    assert read_move(game, state, "deploy pil").action == game.parse_action("deploy pilgrim")
    assert read_move(game, state, "undo").command == "undo"
    assert read_move(game, state, "Q").command == "quit"
    assert "type a number 1..6" in read_move(game, state, "xyzzy").error


def test_undo_rewinds_past_the_opponent_reply():
    game = make_game("tiny_tictactoe")
    human = HumanAgent(input=io.StringIO("1\nundo\n2\n" + "1\n" * 20), output=io.StringIO())
    human.allow_undo = True
    played = play_session(game, [human, make_agent("random", 5)], seed=4, out=io.StringIO())
    assert played.undos == 1 and not played.quit
    assert game.is_terminal(played.state)
    # the same game without the undone move: the human's first move is the 2nd legal one
    state = game.new_state(4)
    first_human = next(
        k for k, a in enumerate(played.actions) if _seat_before(game, played.actions, k) == 0
    )
    _replay_prefix(game, state, played.actions[:first_human])
    assert played.actions[first_human] == int(game.legal_actions(state)[1])


def _replay_prefix(game, state, actions):
    for a in actions:
        game.step(state, a)


def _seat_before(game, actions, k):
    state = game.new_state(4)
    _replay_prefix(game, state, actions[:k])
    return game.current_player(state)


def test_quit_saves_the_game_so_far(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    assert main(["deus_lo_vult", "--vs", "heuristic", "--save-replays", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "stopped (quit)" in out
    (path,) = tmp_path.glob("*.json")
    rec = load_replay(path)
    assert len(rec.actions) == 1 and "quit" in rec.note


def test_end_of_input_is_a_quit(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["tiny_tictactoe", "--vs", "random", "--no-save"]) == 0
    assert "stopped (quit)" in capsys.readouterr().out


def test_agents_only_mode_keeps_the_old_behaviour(capsys):
    rc = main(["deus_lo_vult", "--seats", "random,heuristic", "--games", "2",
               "-o", "rounds=1", "-o", "max_turns=8", "--no-board"])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0 and out.count("=== game") == 2 and "mean return per agent" in out


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["nogame"], "unknown game 'nogame'"),
        (["tiny_tictactoe", "--vs", "nobody"], "unknown agent 'nobody'"),
        (["tiny_tictactoe", "--seat", "5"], "--seat must be in 0..1"),
        (["tiny_tictactoe", "--games", "0"], "--games must be >= 1"),
        (["tiny_tictactoe", "--vs", "pretrained"], "no pretrained agent is shipped"),
    ],
)
def test_bad_command_lines_are_one_line_errors(argv, fragment, capsys):
    from crusadegym.cli import main as cli

    assert cli(["play", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_human_is_an_agent_name_in_the_arena_and_the_envs(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 50))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    result = run_arena("tiny_tictactoe", ["human", "random"], games_per_lineup=2, progress=False)
    assert len(result["records"]) == 2
    assert all(r["steps"] >= 3 for r in result["records"])
    from crusadegym.envs.opponents import resolve_opponents

    (opp,) = resolve_opponents("human", 1, seed=0)
    assert isinstance(opp, HumanAgent)
    game = make_game_with_players("tiny_tictactoe", 2, {})
    state = game.new_state(0)
    last = int(game.legal_actions(state)[-1])
    opp.input = io.StringIO(game.action_to_str(last, state) + "\n")
    opp.output = io.StringIO()
    assert opp.act_state(game, state) == last
