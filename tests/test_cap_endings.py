"""Games the turn cap stopped are visible everywhere (issue #36, goal 2).

The arena's table, its ``results.json`` (in all, per agent, per pairing), the ladder's
tables, ``play``, ``replay`` and ``serve`` all say how many games, or whether this game,
ended at the turn cap. A Duel cut after one turn per seat always ends there; tic-tac-toe
never does.
"""

from __future__ import annotations

import json

from crusadegym.agents import arena, ladder, match
from crusadegym.agents.stats import (
    agent_summary,
    cap_endings,
    natural_lengths,
    natural_lengths_per_agent,
    pairwise_scores,
)
from crusadegym.cli import main as cli
from crusadegym.core import make_game
from crusadegym.core.records import save_replay
from crusadegym.core.turn_cap import ENDED_AT_CAP, ENDED_BY_RULES, ending

CUT = ["-o", "rounds=1", "-o", "max_turns=1"]
"""A Duel cut after one turn per seat: no round of it can end by the rules."""


def record(seats: list[str], returns: list[float], truncated: bool) -> dict:
    return {"seats": seats, "returns": returns, "truncated": truncated}


def test_cap_endings_are_counted_per_agent_and_per_pairing():
    records = [
        record(["a", "b"], [1.0, -1.0], truncated=True),
        record(["b", "a"], [1.0, -1.0], truncated=False),
        record(["a", "c"], [0.0, 0.0], truncated=True),
        record(["c", "b"], [-1.0, 1.0], truncated=False),
    ]
    assert cap_endings(records) == 2
    summary = agent_summary(records, ["a", "b", "c"])
    assert [summary[x]["cap_endings"] for x in "abc"] == [2, 1, 1]
    pairwise = pairwise_scores(records, ["a", "b", "c"])
    assert pairwise["cap_endings"] == [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    assert pairwise["games"] == [[0, 2, 1], [2, 0, 1], [1, 1, 0]]


def test_natural_lengths_count_turns_a_seat_of_games_ended_by_the_rules():
    records = [
        {**record(["a", "b"], [1.0, -1.0], truncated=False), "turns": 40},
        {**record(["b", "a"], [1.0, -1.0], truncated=False), "turns": 60},
        {**record(["a", "c"], [0.0, 0.0], truncated=True), "turns": 1000},
        {**record(["c", "b"], [-1.0, 1.0], truncated=False), "turns": 100},
    ]
    lengths = natural_lengths(records)
    assert lengths["games"] == 3 and lengths["p50"] == 30.0 and lengths["max"] == 50.0
    assert 49.0 < lengths["p99"] < 50.0
    per_agent = natural_lengths_per_agent(records, ["a", "c"])
    assert per_agent["a"]["games"] == 2 and per_agent["a"]["max"] == 30.0
    assert per_agent["c"]["games"] == 1 and per_agent["c"]["p50"] == 50.0
    assert natural_lengths([record(["a", "b"], [1.0, -1.0], False)]) is None  # no counter


def test_the_arena_prints_and_saves_its_cap_endings(tmp_path, capsys):
    out = tmp_path / "cut"
    argv = ["deus_lo_vult", "--agents", "random,heuristic", "--games", "2", "--quiet"]
    assert arena.main([*argv, *CUT, "--out", str(out), "--no-plots"]) == 0
    printed = capsys.readouterr().out
    assert "at cap" in printed and "2 of 2 games ended at the turn cap" in printed
    data = json.loads((out / "results.json").read_text())
    assert data["cap_endings"] == 2 and all(r["truncated"] for r in data["records"])
    assert data["summary"]["random"]["cap_endings"] == 2
    assert data["pairwise"]["cap_endings"] == [[0, 2], [2, 0]]
    assert [r["turns"] for r in data["records"]] == [2, 2]  # one turn a seat, then the cap
    assert data["natural_lengths"] == {"games": 0, "p50": None, "p99": None, "max": None}

    out = tmp_path / "ttt"
    argv = ["tiny_tictactoe", "--agents", "random,heuristic", "--games", "4", "--quiet"]
    assert arena.main([*argv, "--out", str(out), "--no-plots"]) == 0
    assert "0 of 4 games ended at the turn cap" in capsys.readouterr().out
    assert json.loads((out / "results.json").read_text())["cap_endings"] == 0


def test_the_ladder_tables_count_cap_endings_and_time_per_decision(tmp_path):
    result = arena.run_arena(
        "deus_lo_vult", ["random", "heuristic"], games_per_lineup=2, progress=False,
        options={"rounds": 1, "max_turns": 1},
    )  # fmt: skip
    section = ladder.game_section(result, "crusadegym ladder ...")
    assert "**2 of 2 games ended at the turn cap**." in section  # and no natural length
    assert "| at cap | ms per decision |" in section
    assert "2 at cap" in section  # each pairwise cell
    row = next(line for line in section.splitlines() if line.startswith("| heuristic |"))
    assert row.split("|")[-3].strip() == "2"  # its "at cap" column


def test_play_and_replay_say_the_game_ended_at_the_turn_cap(tmp_path, capsys):
    argv = ["deus_lo_vult", "--seats", "random,random", "--no-board", "--no-save", *CUT]
    assert match.main(argv) == 0
    assert ENDED_AT_CAP in capsys.readouterr().out

    game = make_game("deus_lo_vult", rounds=1, max_turns=1)
    state = game.new_state(5)
    actions = []
    while not game.is_terminal(state):
        actions.append(int(game.legal_mask(state).nonzero()[0][0]))
        game.step(state, actions[-1])
    path = tmp_path / "cut.json"
    save_replay(path, game, 5, actions, final_state=state)
    assert cli(["replay", str(path)]) == 0
    assert f"({ENDED_AT_CAP})" in capsys.readouterr().out


def test_the_words_for_each_ending():
    assert ending(True) == ENDED_AT_CAP == "ended at the turn cap"
    assert ending(False) == ENDED_BY_RULES


def test_a_campaign_with_a_battle_cut_by_the_cap_ends_cut_even_if_its_last_battle_did_not():
    """A Campaign scores every Battle into Glory, so one Battle cut by the cap makes the
    Campaign's result the cap's: it ends *truncated*, not only when its last Battle was
    the one cut. Mid-Campaign it is not truncated (an env's episode goes on)."""
    import numpy as np

    from crusadegym.core.deus_lo_vult.campaign import flow
    from crusadegym.core.deus_lo_vult.campaign.battle import C_BATTLE, C_TRUNC
    from crusadegym.core.deus_lo_vult.layout import OVER, TRUNC

    game = make_game("deus_lo_vult_campaign", players=2, battles=2, rounds=1, max_turns=1)
    rng = np.random.default_rng(0)
    state = game.new_state(3)
    while state[C_BATTLE] == 0:  # the first Battle, cut after one turn a seat
        game.step(state, int(rng.choice(game.legal_actions(state))))
    assert state[C_TRUNC] == 1
    assert not game.is_terminal(state) and not game.is_truncated(state)
    # the second Battle ends by the rules (its last coin secured): the Campaign ends cut
    state[OVER], state[TRUNC] = 1, 0
    assert flow.end_battle(state, game.params)
    assert game.is_terminal(state) and game.is_truncated(state)
    # a Campaign none of whose Battles was cut ends by the rules
    state[C_TRUNC], state[C_BATTLE], state[OVER], state[TRUNC] = 0, 1, 1, 0
    assert flow.end_battle(state, game.params) and not game.is_truncated(state)
