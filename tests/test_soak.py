"""The soak harness (benchmarks/soak.py): a CI slice, and that it catches and records failures.

The slice is small by default; CI can raise it with the environment variables
``CRUSADEGYM_SOAK_GAMES`` (compiled games per config) and
``CRUSADEGYM_SOAK_CHECKED`` (checked games per config).
"""

from __future__ import annotations

import dataclasses
import json
import os

import numpy as np
import pytest
import tinygame

from crusadegym.benchmarks import soak  # noqa: E402
from crusadegym.core import Kernels, make_game, registry
from crusadegym.core.drivers import random_playouts
from crusadegym.core.jit import jit
from crusadegym.core.records import load_replay, make_replay, replay

SLICE_GAMES = int(os.environ.get("CRUSADEGYM_SOAK_GAMES", "300"))
SLICE_CHECKED = int(os.environ.get("CRUSADEGYM_SOAK_CHECKED", "3"))
STUCK_AT = 4  # the "stuck" tiny variant offers no legal action after this many steps


def _three_marks(state: np.ndarray, params: np.ndarray) -> list[str]:
    """A deliberately wrong invariant: no game may reach three marks."""
    return ["three marks on the board"] if state[tinygame.STEPS] >= 3 else []


@jit
def _three_marks_kernel(state, params):
    """The same wrong invariant, compiled: code 1 from the third mark on."""
    return 1 if state[tinygame.STEPS] >= 3 else 0


@jit
def _stuck_legal_mask(state, params, out):
    n = tinygame.legal_mask(state, params, out)
    if state[tinygame.STEPS] == STUCK_AT:
        out[:] = 0
        return 0
    return n


@jit
def _generous_step(state, params, action, rewards):
    tinygame.step(state, params, action, rewards)
    rewards[0] += 0.5  # a reward the final returns do not account for


def _variant(monkeypatch, name: str, **changes) -> str:
    """Register a broken copy of the tiny game for this test only; return its name."""
    monkeypatch.setitem(registry._SPECS, name,
                        dataclasses.replace(tinygame.SPEC, name=name, **changes))  # fmt: skip
    return name


def run_soak(tmp_path, *args: str) -> tuple[int, dict]:
    out = tmp_path / "soak"
    code = soak.main([*args, "--out", str(out), "--no-progress"])
    return code, json.loads((out / "soak.json").read_text())


def replays_in(summary: dict) -> list[str]:
    return [p for case in summary["cases"] for p in case["replays"]]


# -- a clean run ------------------------------------------------------------------------


def test_clean_tiny_run_counts_games_steps_and_checks(tmp_path):
    code, summary = run_soak(tmp_path, "--games", "tiny_tictactoe", "--n-games", "3000",
                             "--checked-games", "40", "--seed", "1")  # fmt: skip
    assert code == 0 and summary["total_failures"] == 0
    compiled, checked = summary["cases"]
    assert compiled["mode"] == "compiled" and compiled["games"] >= 3000
    assert 5 * compiled["games"] <= compiled["steps"]  # tic-tac-toe needs >= 5 moves
    assert checked["games"] == 40
    assert checked["invariant_checks"] == checked["steps"] + checked["games"]
    assert replays_in(summary) == []


def test_same_seed_gives_the_same_counts(tmp_path):
    args = ("--games", "tiny_tictactoe", "--n-games", "500", "--checked-games", "5")
    _, a = run_soak(tmp_path / "a", *args, "--seed", "4")
    _, b = run_soak(tmp_path / "b", *args, "--seed", "4")
    assert [c["steps"] for c in a["cases"]] == [c["steps"] for c in b["cases"]]


def test_deus_lo_vult_slice_has_no_failures(tmp_path):
    code, summary = run_soak(tmp_path, "--games", "deus_lo_vult", "--configs", "all",
                             "--n-games", str(SLICE_GAMES), "--checked-games", str(SLICE_CHECKED),
                             "--sample-checks", "16")  # fmt: skip
    messages = [m for case in summary["cases"] for m in case["messages"]]
    assert code == 0, messages
    assert {c["config"] for c in summary["cases"]} == {
        soak.config_name(dict(c)) for c in make_game("deus_lo_vult").spec.test_configs
    }
    assert all(c["invariant_checks"] > 0 for c in summary["cases"])


# -- failures are caught and written as minimal replays ----------------------------------


def test_invariant_failure_becomes_a_minimal_replay(tmp_path, monkeypatch):
    name = _variant(monkeypatch, "tiny_bad_invariant", invariants=_three_marks)
    code, summary = run_soak(tmp_path, "--games", name, "--n-games", "200",
                             "--checked-games", "5", "--max-replays", "2")  # fmt: skip
    assert code == 1
    compiled, checked = summary["cases"]
    assert compiled["failures"] > 0 and checked["failures"] == 5
    assert "invariant violated after step 3" in checked["messages"][0]
    paths = replays_in(summary)
    assert len(paths) == 4
    for path in paths:
        rec = load_replay(path)
        assert len(rec.actions) == 3 and "three marks" in rec.note
        game, states = replay(rec)
        assert game.check_invariants(states[-1]) and not game.check_invariants(states[-2])


def test_compiled_invariants_check_every_state_and_cut_the_replay(tmp_path, monkeypatch):
    name = _variant(monkeypatch, "tiny_bad_kernel", invariants=_three_marks,
                    invariant_kernel=_three_marks_kernel,
                    invariant_messages=("sound", "three marks"))  # fmt: skip
    code, summary = run_soak(tmp_path, "--games", name, "--n-games", "50",
                             "--checked-games", "0", "--max-replays", "3")  # fmt: skip
    assert code == 1
    compiled = summary["cases"][0]
    # every slot stops at its first violation: after its initial state and 3 steps
    assert compiled["invariant_checks"] == 4 * compiled["failures"] > 0
    assert "invariant violated after step 3" in compiled["messages"][0]
    assert "compiled check: three marks" in compiled["messages"][0]
    for path in replays_in(summary):
        assert len(load_replay(path).actions) == 3


def test_deus_lo_vult_compiled_mode_checks_every_state(tmp_path):
    code, summary = run_soak(tmp_path, "--games", "deus_lo_vult", "--configs",
                             "players=2,rounds=1,max_turns=3", "--n-games", "50",
                             "--checked-games", "0", "--differential", "2")  # fmt: skip
    assert code == 0, [m for c in summary["cases"] for m in c["messages"]]
    compiled, _, differential = summary["cases"]
    # one check per initial state (each game started, incl. unfinished ones) and per step
    assert compiled["invariant_checks"] >= compiled["steps"] + compiled["games"]
    assert differential["mode"] == "differential" and differential["games"] == 2
    assert differential["invariant_checks"] == differential["steps"] + 2


def test_empty_mask_failure_is_found_in_both_modes(tmp_path, monkeypatch):
    kernels = dataclasses.replace(tinygame.SPEC.kernels, legal_mask=_stuck_legal_mask)
    assert isinstance(kernels, Kernels)
    name = _variant(monkeypatch, "tiny_stuck", kernels=kernels)
    code, summary = run_soak(tmp_path, "--games", name, "--n-games", "50",
                             "--checked-games", "3", "--max-replays", "1")  # fmt: skip
    assert code == 1
    compiled, checked = summary["cases"]
    assert compiled["failures"] > 0 and "empty legal mask" in compiled["messages"][0]
    assert checked["failures"] == 3 and "empty legal mask at step 4" in checked["messages"][0]
    for path in replays_in(summary):
        game, states = replay(load_replay(path))
        assert len(states) == STUCK_AT + 1
        assert not game.is_terminal(states[-1]) and not game.legal_mask(states[-1]).any()


def test_game_longer_than_max_steps_is_found(tmp_path, monkeypatch):
    sizes = tinygame.SPEC.sizes

    def short_sizes(params):
        return {**sizes(params), "max_steps": 3}  # a lie: tic-tac-toe needs >= 5 moves

    name = _variant(monkeypatch, "tiny_long", sizes=short_sizes)
    code, summary = run_soak(tmp_path, "--games", name, "--n-games", "10",
                             "--checked-games", "2", "--steps-per-slot", "1")  # fmt: skip
    assert code == 1
    for case in summary["cases"]:
        assert case["failures"] > 0
        assert "did not end within max_steps=3" in case["messages"][0]
    for path in replays_in(summary):
        game, states = replay(load_replay(path))
        assert len(states) >= 4 and not game.is_terminal(states[-1])


def test_rewards_that_do_not_sum_to_the_returns_are_found(tmp_path, monkeypatch):
    kernels = dataclasses.replace(tinygame.SPEC.kernels, step=_generous_step)
    name = _variant(monkeypatch, "tiny_generous", kernels=kernels)
    code, summary = run_soak(tmp_path, "--games", name, "--n-games", "0",
                             "--checked-games", "2")  # fmt: skip
    assert code == 1
    checked = summary["cases"][1]
    assert checked["failures"] == 2 and "step rewards sum to" in checked["messages"][0]


# -- the trace mirrors the compiled driver -------------------------------------------------


@pytest.mark.parametrize("name,options", [("tiny_tictactoe", {}),
                                          ("deus_lo_vult", {"players": 2, "rounds": 1,
                                                            "max_turns": 30})])  # fmt: skip
def test_trace_slot_reproduces_the_driver_state(name, options):
    game = make_game(name, **options)
    seeds = np.arange(10, 14, dtype=np.int64)
    choice = seeds * 7 + 1
    n_steps = 300
    states = game.new_states(seeds)
    k = game.k
    random_playouts(k.init, k.legal_mask, k.step, k.is_terminal, states, game.params, choice,
                    n_steps, game.num_actions, game.num_players)  # fmt: skip
    for i in range(len(seeds)):
        seed, actions, state, stuck = soak.trace_slot(game, int(seeds[i]), int(choice[i]), n_steps)
        assert not stuck and np.array_equal(state, states[i])
        _, replayed = replay(make_replay(game, seed, actions))  # (seed, actions) alone suffice
        assert np.array_equal(replayed[-1], states[i])


# -- options and output -------------------------------------------------------------------


def test_parse_options_types_values():
    assert soak.parse_options("players=3,robbing=true,deployment=latin") == {
        "players": 3, "robbing": True, "deployment": "latin"}  # fmt: skip
    assert soak.parse_options("default") == {}
    assert soak.config_name({"players": 2, "rounds": 1}) == "players=2,rounds=1"
    heroes = soak.parse_options("heroes=eleanor_of_aquitaine//,war_engines=true")
    assert heroes == {"heroes": ("eleanor_of_aquitaine", "", ""), "war_engines": True}
    assert soak.config_name(heroes) == "heroes=eleanor_of_aquitaine//,war_engines=True"


@pytest.mark.parametrize(
    "argv,error,fragment",
    [
        (["--games", "tiny_tictactoe", "--configs", "players"], ValueError, "bad config"),
        (["--games", "tiny_tictactoe", "--configs", "bogus=1"], ValueError, "unknown option"),
        (["--games", "no_such_game"], KeyError, "unknown game"),
        (["--games", "tiny_tictactoe", "--n-games", "-1"], ValueError, "--n-games"),
    ],
)
def test_bad_command_lines_raise_clear_errors(tmp_path, argv, error, fragment):
    with pytest.raises(error, match=fragment):
        soak.main([*argv, "--out", str(tmp_path), "--no-progress"])


def test_summary_table_lists_every_case(tmp_path, capsys):
    run_soak(tmp_path, "--games", "tiny_tictactoe", "--n-games", "100", "--checked-games", "2")
    out = capsys.readouterr().out
    assert "games/s" in out and "inv. checks" in out
    assert out.count("tiny_tictactoe  default") == 2
