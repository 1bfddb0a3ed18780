"""Smoke test of ``crusadegym bench``: a quick run on the tiny game writes sound outputs.

No speed thresholds: only that every expected figure is present, positive and
consistent with the game (tiny tic-tac-toe lasts at most 8 moves).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import tinygame  # noqa: E402  (registered by conftest)

from crusadegym.benchmarks.probe import (  # noqa: E402
    GAME_LENGTH,
    N_PROBE_ACTIONS,
    new_probe_batch,
    probe_mask,
)
from crusadegym.benchmarks.throughput import main  # noqa: E402
from crusadegym.core.drivers import mask_buffer, pick_legal  # noqa: E402
from crusadegym.core.rng import pick_uniform, stream  # noqa: E402


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    argv = ["--games", "tiny_tictactoe", "--quick", "--startup", "--no-peers", "--quiet"]
    argv += ["--out", str(out)]
    assert main(argv) == 0
    return json.loads(out.read_text()) | {"_out": out}


def test_every_access_path_is_measured(bench: dict) -> None:
    methods = {r["method"] for r in bench["measurements"]}
    assert {"core_checked", "core_checked_obs", "core_raw", "aec"} <= methods
    assert {"batched_b1_t1", "batched_b64_t1"} <= methods
    for r in bench["measurements"]:
        assert r["game"] == "tiny_tictactoe" and r["players"] == 2
        assert r["steps"] > 0 and r["seconds"] > 0 and r["steps_per_s"] > 0, r


def test_game_lengths_fit_the_game(bench: dict) -> None:
    # one cell is blocked, so a game lasts 5..8 moves
    for r in bench["measurements"]:
        if r["side"] == "ours" and r["mean_game_length"] is not None:
            assert 5 <= r["mean_game_length"] <= 8, r
    (case,) = bench["cases"]
    assert 5 <= case["mean_game_length"] <= 8


def test_batched_rows_carry_batch_and_threads(bench: dict) -> None:
    rows = [r for r in bench["measurements"] if r["method"].startswith("batched")]
    assert {(r["batch"], r["threads"]) for r in rows} >= {(1, 1), (64, 1)}
    for r in rows:
        assert r["method"] == f"batched_b{r['batch']}_t{r['threads']}"


def test_every_batched_row_has_its_limit_probe(bench: dict) -> None:
    probes = {r["method"]: r for r in bench["measurements"] if r["side"] == "probe"}
    assert set(probes) >= {"probe_b1_t1", "probe_b64_t1"}
    for r in probes.values():
        assert r["steps_per_s"] > 0, r
        length = r["mean_game_length"]  # games restart every GAME_LENGTH steps
        assert length is None or abs(length - GAME_LENGTH) < 0.1 * GAME_LENGTH, r
    shares = {s["method"]: s["share"] for s in bench["probe_shares"]}
    for r in bench["measurements"]:
        if r["side"] == "ours" and "batch" in r:
            probe = probes[f"probe_b{r['batch']}_t{r['threads']}"]
            assert shares[r["method"]] == pytest.approx(r["steps_per_s"] / probe["steps_per_s"])
    assert "of probe" in bench["_out"].with_suffix(".md").read_text().splitlines()[0]


def test_probe_mask_counts_the_free_steps() -> None:
    # a fresh probe game: seat 0's 13 pieces on cells 0..12 (the top row and the first
    # cell of row 2). Cells 1..11 may step south; cell 0 is boxed in (east and south
    # taken); cell 12 may step east (13) or south (24)
    state = new_probe_batch(1, 896)[0]
    state[2] = 0
    mask = np.zeros(N_PROBE_ACTIONS, np.uint8)
    assert probe_mask(state, mask) == 11 + 2
    assert mask[12 * 4 + 1] and mask[12 * 4 + 2] and mask[5 * 4 + 2]
    assert not mask[0 * 4 + 1] and not mask[0 * 4 + 2] and not mask[5 * 4 + 1]


def test_driver_sampler_picks_what_pick_uniform_picks() -> None:
    # the soak replays a driver slot with pick_uniform: both must choose the same entry
    rng = np.random.default_rng(0)
    for n_actions in (1, 7, 8, 9, 175, 576):
        for density in (0.02, 0.3, 1.0):
            mask, words = mask_buffer(n_actions)
            mask[:] = rng.random(n_actions) < density
            mask[rng.integers(n_actions)] = rng.integers(1, 256)  # any nonzero is legal
            n = int(np.count_nonzero(mask))
            a, b = stream(n_actions), stream(n_actions)
            for _ in range(50):
                assert pick_legal(words, n, a) == pick_uniform(mask, n, b)


def test_startup_and_memory(bench: dict) -> None:
    caches = {row["cache"]: row for row in bench["startup"]}
    assert set(caches) == {"cold", "warm"}
    for row in caches.values():
        assert 0 < row["import_s"] <= row["first_step_s"]
    (mem,) = bench["memory"]
    assert mem["bytes_per_state"] == tinygame.STATE_SIZE * 4
    assert mem["batch_states_bytes"] == mem["batch"] * mem["bytes_per_state"]
    assert mem["tracemalloc_peak_bytes"] >= mem["batch_states_bytes"]


def test_goals_and_outputs(bench: dict) -> None:
    assert bench["meta"]["quick"] is True
    assert bench["meta"]["cpu_count"] >= 1
    goals = {g["goal"]: g for g in bench["goals"]}
    warm = goals["time to first step, warm cache (s)"]
    assert warm["value"] > 0 and warm["met"] in (True, False)
    # peers were skipped, so peer goals are reported as not measured
    assert goals["AEC random play / PettingZoo chess_v6"]["met"] is None
    internal = {r["what"]: r["ratio"] for r in bench["internal_ratios"]}
    assert internal["raw kernels / checked front"] > 0
    out = bench["_out"]
    assert out.with_suffix(".md").read_text().startswith("| game/players")
    pytest.importorskip("matplotlib")
    assert out.with_suffix(".png").stat().st_size > 0


@pytest.mark.parametrize(
    "argv",
    [["--games", "no_such_game"], ["--threads", "999"], ["--seconds", "0"]],
)
def test_bad_arguments_exit_with_a_message(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as err:
        main(argv + ["--quick", "--no-peers", "--no-startup"])
    assert err.value.code not in (0, None)


# ---------------------------------------------------------------- perfmap
def test_perfmap_names_kernels_and_sums_their_specialisations() -> None:
    from crusadegym.benchmarks.perfmap import parse_report, short_name

    mangled = "_ZN10crusadegym4core12deus_lo_vult7choices10legal_maskB3v68B40c8tJTIeFIjxB2IKSgI4E"
    assert short_name(mangled) == "deus_lo_vult.choices.legal_mask"
    assert short_name("_ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7f4aB4v2") == (
        "driver loop (parfor)"
    )
    assert short_name("NRT_incref") == "NRT_incref"
    report = f"""
# Overhead  Symbol
    12.50%  [.] {mangled}
     3.25%  [.] NRT_decref
     2.50%  [.] {mangled.replace("B3v68", "B3v81")}
     0.75%  [k] clear_page_erms
"""
    assert parse_report(report) == [
        ("deus_lo_vult.choices.legal_mask", 15.0),
        ("NRT_decref", 3.25),
        ("clear_page_erms", 0.75),
    ]


def test_perfmap_without_perf_is_a_one_line_error(monkeypatch, capsys) -> None:
    from crusadegym.benchmarks import perfmap

    monkeypatch.setattr(perfmap.shutil, "which", lambda name: None)
    monkeypatch.delenv("_CRUSADEGYM_PERFMAP_CHILD", raising=False)
    assert perfmap.main(["deus_lo_vult"]) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("error: the perf tool is not installed")
