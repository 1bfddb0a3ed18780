"""The first-use notice (core/first_use.py): one line on a cold numba cache, none warm.

The real check runs in subprocesses: one on an empty ``NUMBA_CACHE_DIR`` (cold, the
notice appears once even when the game is built twice), one on the normal cache after
this process has compiled the game's core kernels there (warm, no notice). Building a
game compiles nothing, so the cold child is quick.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from crusadegym.core import first_use, get_spec, make_game

GAME = "deus"  # the quickest shipped game to compile

CHILD = f"""
from crusadegym.core import first_use, make_game
first_use.notify_on_stderr()
make_game({GAME!r})
make_game({GAME!r}, players=3)
"""


def run_child(env_updates: dict) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_updates}
    return subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300
    )


def test_cold_cache_gives_one_line_on_stderr(tmp_path):
    proc = run_child({"NUMBA_CACHE_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "first use" in line]
    assert lines == [first_use.message(GAME)], proc.stderr
    assert "about 20 s" in lines[0] and "crusadegym warmup" in lines[0]


def test_warm_cache_gives_none():
    game = make_game(GAME)  # compiles the core kernels into the normal cache if needed
    state = game.new_state(0)
    game.step(state, int(game.legal_mask(state).nonzero()[0][0]))
    assert not first_use.is_cold(get_spec(GAME))
    proc = run_child({})
    assert proc.returncode == 0, proc.stderr
    assert "first use" not in proc.stderr


class _FakeFile:
    def __init__(self, index):
        self.index = index

    def _load_index(self):
        return self.index


class _FakeDispatcher:
    def __init__(self, index):
        self._cache = type("C", (), {"_cache_file": _FakeFile(index)})()


@pytest.fixture
def fake_game(monkeypatch):
    """A shipped-looking game whose kernels' cache indexes the test sets."""
    indexes = {"init": {"k": "f"}, "legal_mask": {"k": "f"}, "step": {"k": "f"}}
    monkeypatch.setattr(first_use, "_noticed", set())
    monkeypatch.setattr(first_use, "shipped", lambda spec: True)
    monkeypatch.setattr(
        first_use,
        "_dispatchers",
        lambda spec: [_FakeDispatcher(indexes[k]) for k in ("init", "legal_mask", "step")],
    )
    spec = type("Spec", (), {"name": "deus_lo_vult"})()
    return spec, indexes


def test_cold_means_any_core_kernel_uncached(fake_game):
    spec, indexes = fake_game
    assert not first_use.is_cold(spec)
    indexes["step"] = {}  # missing, stale or another numba version: numba returns {}
    assert first_use.is_cold(spec)


def test_stderr_on_the_command_line_logging_otherwise(fake_game, monkeypatch, capsys, caplog):
    spec, indexes = fake_game
    indexes["init"] = {}
    monkeypatch.setattr(first_use, "_on_stderr", True)
    assert first_use.notice(spec) and not first_use.notice(spec)  # once per process
    err = capsys.readouterr().err
    assert err.splitlines() == [first_use.message("deus_lo_vult")]
    assert "about 45 s" in err
    monkeypatch.setattr(first_use, "_on_stderr", False)
    monkeypatch.setattr(first_use, "_noticed", set())
    with caplog.at_level(logging.INFO, logger="crusadegym.first_use"):
        assert first_use.notice(spec)
    assert capsys.readouterr().err == ""
    assert [r.getMessage() for r in caplog.records] == [first_use.message("deus_lo_vult")]


def test_no_notice_when_warm_or_not_shipped(fake_game, monkeypatch, capsys):
    spec, indexes = fake_game
    monkeypatch.setattr(first_use, "_on_stderr", True)
    assert not first_use.notice(spec)
    monkeypatch.setattr(first_use, "_noticed", set())
    monkeypatch.setattr(first_use, "shipped", lambda spec: False)
    indexes["step"] = {}
    assert not first_use.notice(spec)
    assert capsys.readouterr().err == ""


def test_the_campaign_estimate_reads_in_minutes():
    assert "about 2 minutes" in first_use.message("deus_lo_vult_campaign")
    assert "(once per install" in first_use.message("some_new_game")
