"""The arena: schedules, seat rotation, statistics, ratings, reproducibility, the commands."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from crusadegym.agents import arena, match
from crusadegym.agents.stats import (
    agent_summary,
    finishing_ranks,
    openskill_ratings,
    pairwise_scores,
    seat_outcomes,
    wilson_interval,
)
from crusadegym.core import make_game


# ----------------------------------------------------------------- Wilson intervals
@pytest.mark.parametrize(
    "wins, games, lo, hi",
    [  # hand-computed from Wilson (1927): centre (p + z^2/2n)/(1 + z^2/n), z = 1.95996
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (8, 10, 0.4902, 0.9433),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_matches_hand_computed_values(wins, games, lo, hi):
    got = wilson_interval(wins, games)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_interval_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


# ----------------------------------------------------------------- outcomes and ratings
def test_outcomes_ranks_and_margins():
    assert seat_outcomes([1.0, -1.0, -1.0]) == ["win", "loss", "loss"]
    assert seat_outcomes([0.0, 0.0]) == ["draw", "draw"]
    assert seat_outcomes([1.0, 1.0, -1.0]) == ["win", "win", "loss"]
    assert finishing_ranks(["a", "b", "c"], [1.0, -1.0, 0.0]) == {"a": 1, "c": 2, "b": 3}
    assert finishing_ranks(["a", "b", "a"], [-1.0, -1.0, 1.0]) == {"a": 1, "b": 2}
    records = [{"seats": ["a", "b", "c"], "returns": [1.0, -1.0, -1.0]}]
    summary = agent_summary(records, ["a", "b", "c"])
    assert summary["a"]["mean_margin"] == 2.0 and summary["b"]["mean_margin"] == -1.0


def rigged_records(n: int) -> list[dict]:
    """``winner`` always beats ``loser``, seats alternating."""
    recs = []
    for g in range(n):
        seats = ["winner", "loser"] if g % 2 == 0 else ["loser", "winner"]
        recs.append({"seats": seats, "returns": [1.0, -1.0] if g % 2 == 0 else [-1.0, 1.0]})
    return recs


def test_ratings_and_win_rates_on_a_rigged_tournament():
    records = rigged_records(20)
    agents = ["winner", "loser"]
    summary = agent_summary(records, agents)
    assert summary["winner"]["win_rate"] == 1.0 and summary["loser"]["wins"] == 0
    assert summary["winner"]["win_rate_ci95"] == pytest.approx([0.8389, 1.0], abs=5e-5)
    ratings = openskill_ratings(records, agents)
    assert ratings["winner"]["mu"] > 25.0 > ratings["loser"]["mu"]
    assert ratings["winner"]["ordinal"] > ratings["loser"]["ordinal"]
    assert ratings["winner"]["sigma"] < 25.0 / 3  # uncertainty shrank from the prior
    fewer = openskill_ratings(records[:4], agents)
    assert (
        ratings["winner"]["mu"] - ratings["loser"]["mu"]
        > fewer["winner"]["mu"] - fewer["loser"]["mu"]
    )
    pair = pairwise_scores(records, agents)
    assert pair["score"] == [[None, 1.0], [0.0, None]]
    assert pair["games"][0][1] == 20


def test_multiplayer_ratings_follow_the_finishing_order():
    records = [
        {"seats": ["a", "b", "c"], "returns": [1.0, 0.0, -1.0]},
        {"seats": ["c", "a", "b"], "returns": [-1.0, 1.0, 0.0]},
        {"seats": ["b", "c", "a"], "returns": [0.0, -1.0, 1.0]},
    ] * 4
    ratings = openskill_ratings(records, ["a", "b", "c"])
    assert ratings["a"]["mu"] > ratings["b"]["mu"] > ratings["c"]["mu"]


# ----------------------------------------------------------------- schedules and seats
def test_lineups():
    assert arena.lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert arena.lineups(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert arena.lineups(["h", "x", "y"], 3, "gauntlet") == [
        ("h", "x", "x"),
        ("h", "x", "y"),
        ("h", "y", "y"),
    ]
    with pytest.raises(ValueError, match="distinct"):
        arena.lineups(["a", "a"], 2)
    with pytest.raises(ValueError, match="mode"):
        arena.lineups(["a", "b"], 2, "swiss")


def test_seats_rotate_so_every_agent_plays_every_seat_equally():
    tasks = arena.schedule(["a", "b", "c"], 3, games_per_lineup=6, seed=0)
    seat_counts = Counter((who, s) for t in tasks for s, who in enumerate(t.seats))
    assert set(seat_counts.values()) == {2}  # 6 games: each agent twice in each seat
    assert len({t.game_seed for t in tasks}) == len(tasks)


def test_play_game_records_and_rotation_in_results():
    result = arena.run_arena("tiny_tictactoe", ["random", "heuristic"], 4, seed=1, progress=False)
    seats = [r["seats"] for r in result["records"]]
    assert seats == [["random", "heuristic"], ["heuristic", "random"]] * 2
    for r in result["records"]:
        assert len(r["returns"]) == 2 and 5 <= r["steps"] <= 8
        assert sum(r["decisions"]) == r["steps"] and min(r["think_seconds"]) >= 0.0


def test_seconds_per_move_charges_each_agent_its_own_seats():
    records = [
        {"seats": ["a", "b"], "think_seconds": [1.0, 3.0], "decisions": [10, 10]},
        {"seats": ["b", "a"], "think_seconds": [1.0, 2.0], "decisions": [10, 30]},
    ]
    per_move = arena.seconds_per_move(records, ["a", "b", "c"])
    assert per_move == {"a": 3.0 / 40, "b": 4.0 / 20, "c": None}
    assert arena.format_move_times(per_move) == "ms per decision: a 75.00, b 200.00"


# ----------------------------------------------------------------- reproducibility
def _without_timing(result: dict) -> dict:
    result = dict(result)
    result.pop("timing")
    clocks = ("seconds", "think_seconds")
    result["records"] = [{k: v for k, v in r.items() if k not in clocks} for r in result["records"]]
    return result


AGENTS = ["random", "heuristic", "mcts:iterations=30"]


def test_arena_is_reproducible_with_a_fixed_seed():
    run = lambda seed: arena.run_arena(  # noqa: E731
        "tiny_tictactoe", AGENTS, games_per_lineup=4, seed=seed, progress=False
    )
    first, second, other = run(5), run(5), run(6)
    assert _without_timing(first) == _without_timing(second)
    assert [r["seed"] for r in first["records"]] != [r["seed"] for r in other["records"]]


def test_parallel_run_equals_serial_run():
    kwargs = dict(games_per_lineup=4, seed=2, progress=False)
    serial = arena.run_arena("tiny_tictactoe", AGENTS, **kwargs)
    parallel = arena.run_arena("tiny_tictactoe", AGENTS, workers=2, **kwargs)
    assert _without_timing(serial) == _without_timing(parallel)


def test_bad_arguments_fail_fast():
    with pytest.raises(ValueError, match="unknown agent"):
        arena.run_arena("tiny_tictactoe", ["random", "nobody"], 2, progress=False)
    with pytest.raises(ValueError, match="played by 2 players"):
        arena.run_arena("tiny_tictactoe", ["random", "heuristic"], 2, players=3, progress=False)
    with pytest.raises(KeyError, match="unknown game"):
        arena.run_arena("no_such_game", ["random", "heuristic"], 2, progress=False)


# ----------------------------------------------------------------- commands and files
def test_arena_command_writes_json_and_plots(tmp_path, capsys):
    out = tmp_path / "run"
    code = arena.main(
        ["tiny_tictactoe", "--agents", "random,heuristic", "--games", "4", "--seed", "3",
         "--out", str(out), "--quiet"]
    )  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "heuristic" in printed and "95% CI" in printed
    data = json.loads((out / "results.json").read_text())
    assert data["agents"] == ["random", "heuristic"] and len(data["records"]) == 4
    assert (out / "arena_ratings.png").stat().st_size > 1000
    assert (out / "arena_pairwise.png").stat().st_size > 1000


def test_arena_command_reports_bad_input(capsys):
    assert arena.main(["tiny_tictactoe", "--agents", "random,zzz", "--quiet"]) == 2
    assert "unknown agent" in capsys.readouterr().err


def test_play_command_prints_boards_and_returns(capsys):
    code = match.main(["tiny_tictactoe", "--seats", "heuristic,random", "--games", "2"])
    assert code == 0
    printed = capsys.readouterr().out
    assert printed.count("=== game") == 2 and "seat 1:" in printed and "mean return" in printed


def test_play_command_plays_deus_lo_vult():
    pytest.importorskip("crusadegym.core.deus_lo_vult.rules")
    try:
        make_game("deus_lo_vult")
    except Exception:
        pytest.skip("deus_lo_vult engine not importable")
    argv = ["deus_lo_vult", "--seats", "random,heuristic", "--no-board", "-o", "rounds=1"]
    assert match.main([*argv, "-o", "max_turns=10"]) == 0


def test_arena_pins_torch_threads_only_for_policy_agents(capsys):
    code = arena.main(["tiny_tictactoe", "--agents", "random,heuristic", "--quiet",
                       "--torch-threads", "0"])  # fmt: skip
    assert code == 2 and "--torch-threads must be >= 1" in capsys.readouterr().err
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        arena.pin_torch_threads(["random", "heuristic"], 1)
        assert torch.get_num_threads() == 2  # no policy agent: torch is left alone
        arena.pin_torch_threads(["random", "policy:runs/x.zip"], 1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
