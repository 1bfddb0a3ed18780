"""What a user of the plain wheel, a shell pipe or a count option meets (issue #39).

* The arena works without openskill (the plain wheel, no extras): win rates with Wilson
  intervals, and one line saying how to add the ratings.
* A closed stdout pipe (``crusadegym replay FILE | head``) ends a command quietly.
* Count options mean what they say: ``soak --n-games N`` plays N games per config.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from crusadegym.agents import arena
from crusadegym.cli import SIGPIPE_EXIT_CODE
from crusadegym.cli import main as cli
from crusadegym.core import make_game
from crusadegym.core.records import save_replay

ARENA = ["arena", "tiny_tictactoe", "--agents", "random,heuristic", "--games", "2", "--quiet"]


@pytest.fixture
def no_arena_extra(monkeypatch):
    """As in a plain wheel: openskill and matplotlib do not import."""
    for name in ("openskill", "openskill.models", "matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # `import name` raises ImportError


def test_arena_without_openskill_prints_win_rates_and_one_hint(no_arena_extra, capsys, tmp_path):
    assert cli([*ARENA, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    assert "win rate" in header and "95% CI" in header and "mu" not in header
    hints = [line for line in out.splitlines() if "openskill is not installed" in line]
    assert hints == [arena.RATINGS_HINT] and "pip install 'crusadegym[arena]'" in hints[0]
    assert "matplotlib is not installed" in out
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["ratings"] is None and result["summary"]["random"]["games"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]


def test_arena_with_openskill_rates_as_before(capsys):
    pytest.importorskip("openskill")
    assert cli(ARENA) == 0
    out = capsys.readouterr().out
    assert "mu" in out.splitlines()[0] and "openskill is not installed" not in out


def test_ratings_required_fail_before_any_game(no_arena_extra, monkeypatch):
    """Callers that need ratings (the ladder) learn it before playing, not after."""
    monkeypatch.setattr(arena, "_run_task", lambda job: pytest.fail("a game was played"))
    with pytest.raises(ImportError):
        arena.run_arena("tiny_tictactoe", ["random", "heuristic"], 1, progress=False)


def _replay_file(tmp_path) -> str:
    game = make_game("crusaders", players=2)
    state, actions, rng = game.new_state(3), [], np.random.default_rng(3)
    while not game.is_terminal(state):
        actions.append(int(rng.choice(game.legal_actions(state))))
        game.step(state, actions[-1])
    path = tmp_path / "long.json"
    save_replay(path, game, 3, actions)
    return str(path)


def _cli(*args: str) -> subprocess.Popen:
    code = "import sys; from crusadegym.cli import main; sys.exit(main())"
    return subprocess.Popen([sys.executable, "-c", code, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


@pytest.mark.parametrize("read", [0, 1])
def test_a_closed_pipe_ends_quietly(tmp_path, read):
    """``crusadegym replay FILE | head``: the reader goes away; no traceback, no noise."""
    for args in (["replay", _replay_file(tmp_path)], ["arena", "--help"], ["--help"]):
        proc = _cli(*args)
        if read:
            proc.stdout.readline()  # like `head -1`
        proc.stdout.close()
        err = proc.stderr.read().decode()
        code = proc.wait(timeout=120)
        assert "Traceback" not in err and "BrokenPipe" not in err and err == "", err
        assert code in (0, SIGPIPE_EXIT_CODE)
        if not read and args[0] == "replay":  # nothing read: its writes fail, that ends it
            assert code == SIGPIPE_EXIT_CODE  # (argparse's --help swallows the error: 0)


def test_soak_plays_exactly_the_games_asked_for(tmp_path):
    from crusadegym.benchmarks import soak

    out = tmp_path / "soak"
    args = ["--games", "tiny_tictactoe", "--n-games", "200", "--checked-games", "7",
            "--chunk", "64", "--out", str(out), "--no-progress"]  # fmt: skip
    assert soak.main(args) == 0
    summary = json.loads((out / "soak.json").read_text())
    compiled, checked = summary["cases"]
    assert compiled["games"] == 200 and checked["games"] == 7
    assert summary["total_games"] == 207
