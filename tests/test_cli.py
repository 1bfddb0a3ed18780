"""The ``crusadegym`` command as a user meets it: help texts, the game argument, errors.

Every command's ``--help`` is plain text with each default shown once; every command
that plays a game takes it positionally; every mistake a user can make is ONE line on
stderr, ``crusadegym <command>: <what went wrong and what to do>``, with exit status 2.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from crusadegym import cli
from crusadegym.core import make_game
from crusadegym.errors import USAGE_EXIT_CODE

REST_MARKUP = re.compile(r"``|:(mod|func|class|meth|data|attr):`")
GAME_COMMANDS = ("play", "arena", "train", "bench", "soak")
"""The commands that play a game: each takes it as its first positional argument."""


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    """``crusadegym argv`` in this process: exit status, stdout, stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as stop:  # argparse's --help and usage errors
        code = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert code == USAGE_EXIT_CODE, err
    assert len(lines) == 1, err
    assert lines[0].startswith(f"crusadegym {command}: ")
    assert not lines[0].startswith(f"crusadegym {command}: '")  # no KeyError quoting
    return lines[0]


@pytest.mark.parametrize("command", list(cli.COMMANDS))
def test_help_is_plain_text_with_each_default_once(command, capsys):
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0 and out.startswith(f"usage: crusadegym {command}")
    assert not REST_MARKUP.search(out), "raw reST markup in the help text"
    flat = " ".join(out.split())
    assert "(default: None)" not in flat
    assert not re.search(r"\(default: [^)]*\)\s*\(default:", flat)


def test_top_level_help_lists_every_command(capsys):
    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0 and all(f"  {c} " in out for c in cli.COMMANDS)
    code, _, err = run_cli(["fly"], capsys)
    assert code == USAGE_EXIT_CODE and "unknown command 'fly'" in err


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_game_command_takes_the_game_positionally(command):
    import importlib

    module = importlib.import_module(cli.COMMANDS[command][0])
    args = vars(module.build_parser().parse_args(["deus_lo_vult"]))
    assert "deus_lo_vult" in args.values() or ["deus_lo_vult"] in args.values()


def test_unknown_game_is_one_line_without_stray_quotes(capsys):
    line = one_line_error(*run_cli(["arena", "chess"], capsys)[::2], "arena")
    assert "unknown game 'chess'; available: " in line
    with pytest.raises(KeyError) as caught:
        make_game("chess")
    assert str(caught.value).startswith("unknown game 'chess'")
    assert isinstance(caught.value, ValueError)


def test_a_missing_checkpoint_is_one_line(capsys):
    code, _, err = run_cli(["arena", "deus_lo_vult", "--agents", "policy:/nope.zip"], capsys)
    assert "no policy checkpoint at /nope.zip" in one_line_error(code, err, "arena")


def test_a_checkpoint_without_its_sidecar_says_so(tmp_path, capsys):
    """A policy trained on observation + advice, copied without the .json that says so."""
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    game = make_game("tiny_tictactoe")
    size = game.obs_size + 2 * game.num_actions  # what an advised policy reads

    class AdvisedShapes(gym.Env):
        observation_space = gym.spaces.Box(-1.0, 1.0, (size,), np.float32)
        action_space = gym.spaces.Discrete(game.num_actions)

    path = tmp_path / "copied.zip"
    MaskablePPO("MlpPolicy", AdvisedShapes(), n_steps=16, batch_size=16, seed=0).save(path)
    argv = ["arena", "tiny_tictactoe", "--agents", f"policy:{path},random", "--games", "1"]
    line = one_line_error(*run_cli([*argv, "--quiet"], capsys)[::2], "arena")
    assert f"sidecar {tmp_path / 'copied.json'} is missing" in line


def test_a_missing_extra_names_the_extra(monkeypatch, capsys):
    """Without sb3 (the train extra) training says what to install, in one line. (The
    arena runs without its extra, openskill: tests/test_install_paths.py.)"""
    for name in ("torch", "stable_baselines3", "sb3_contrib"):
        monkeypatch.setitem(sys.modules, name, None)
    argv = ["train", "tiny_tictactoe", "--timesteps", "10"]
    line = one_line_error(*run_cli(argv, capsys)[::2], "train")
    assert "pip install 'crusadegym[train]'" in line


def test_the_installed_entry_point_prints_one_line():
    """The same through a real process, as the shell sees it (no traceback)."""
    proc = subprocess.run(
        [sys.executable, "-m", "crusadegym.cli", "arena", "nosuchgame"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == USAGE_EXIT_CODE
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("crusadegym arena: unknown game 'nosuchgame'; available: ")
    assert "Traceback" not in proc.stderr
