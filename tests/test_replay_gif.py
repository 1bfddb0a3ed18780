"""Replays as animations: a replay file becomes a GIF with one frame per decision or turn."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SMALL_GAMES
from PIL import Image

from crusadegym.cli import main as cli
from crusadegym.core import available_games, get_spec, make_game
from crusadegym.core.records import save_replay

SMALL = dict(SMALL_GAMES)
EVERY_GAME = [(g, SMALL.get(g, dict(get_spec(g).test_configs[0]))) for g in available_games()]
"""Every registered game (new games join by registering) under a small config."""


def _random_replay(path, name, opts, seed=3):
    game = make_game(name, **opts)
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    actions = []
    while not game.is_terminal(state):
        a = int(rng.choice(game.legal_actions(state)))
        game.step(state, a)
        actions.append(a)
    save_replay(path, game, seed, actions)
    return game, actions


def _seat_changes(game, seed, actions):
    """Frames per turn, counted by hand: first, last, and each change of the seat to move."""
    state = game.new_state(seed)
    seats = [game.current_player(state)]
    for a in actions:
        game.step(state, a)
        seats.append(game.current_player(state))
    last = len(seats) - 1
    return sum(1 for k in range(last + 1) if k in (0, last) or seats[k] != seats[k - 1])


SHORT = {"max_turns": 8}
"""Deus lo Vult games are cut short here: a few hundred frames prove no more than a hundred."""


@pytest.mark.parametrize("name,opts", EVERY_GAME, ids=[n for n, _ in EVERY_GAME])
def test_gif_has_a_frame_per_decision_and_per_turn(name, opts, tmp_path, capsys):
    rep = tmp_path / "game.json"
    opts = {**opts, **SHORT} if name == "deus_lo_vult" else opts
    game, actions = _random_replay(rep, name, opts)
    out = tmp_path / "decision.gif"
    assert cli(["replay", str(rep), "--gif", str(out), "--scale", "0.25", "--fps", "20"]) == 0
    with Image.open(out) as gif:
        assert gif.n_frames == len(actions) + 1
        assert gif.info["duration"] == 50
    turns = tmp_path / "turn.gif"
    assert cli(["replay", str(rep), "--gif", str(turns), "--per", "turn", "--scale", "0.25"]) == 0
    with Image.open(turns) as gif:
        assert gif.n_frames == _seat_changes(game, 3, actions)
    assert f"{len(actions) + 1} frames (decision)" in capsys.readouterr().out


def test_replay_without_output_lists_the_moves(tmp_path, capsys):
    rep = tmp_path / "game.json"
    game, actions = _random_replay(rep, "tiny_tictactoe", {})
    assert cli(["replay", str(rep)]) == 0
    out = capsys.readouterr().out
    assert out.count(" seat ") == len(actions)


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["missing.json", "--gif", "x.gif"], "no such replay file: missing.json"),
        (["BAD", "--gif", "x.gif"], "corrupt or truncated replay JSON"),
        (["GOOD", "--gif", "x.gif", "--fps", "0"], "--fps must be > 0"),
        (["GOOD", "--gif", "x.gif", "--scale", "0"], "--scale must be in"),
    ],
)
def test_bad_replay_commands_are_one_line_errors(args, fragment, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "BAD").write_text("{not json")
    _random_replay(tmp_path / "GOOD", "tiny_tictactoe", {})
    assert cli(["replay", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err and "\n" not in err


def test_mp4_without_ffmpeg_names_the_extra(tmp_path, capsys):
    try:
        import imageio_ffmpeg  # noqa: F401

        pytest.skip("imageio-ffmpeg is installed; the missing-extra message cannot show")
    except ImportError:
        pass
    rep = tmp_path / "game.json"
    _random_replay(rep, "tiny_tictactoe", {})
    assert cli(["replay", str(rep), "--mp4", str(tmp_path / "x.mp4")]) == 2
    assert "crusadegym[video]" in capsys.readouterr().err


def test_mp4_has_a_frame_per_decision(tmp_path, capsys):
    imageio = pytest.importorskip("imageio.v2", reason="mp4 needs the video extra")
    pytest.importorskip("imageio_ffmpeg", reason="mp4 needs the video extra")
    rep = tmp_path / "game.json"
    _, actions = _random_replay(rep, "tiny_tictactoe", {})
    out = tmp_path / "game.mp4"
    assert cli(["replay", str(rep), "--mp4", str(out), "--scale", "2"]) == 0
    with imageio.get_reader(out) as reader:
        assert reader.count_frames() == len(actions) + 1


@pytest.mark.parametrize("name", ["deus_lo_vult", "deus", "crusaders"])
def test_gif_frames_carry_the_legend_of_their_symbols(name, tmp_path):
    """Each frame has the page's picture legend as a strip under the board: its swatch
    colours are there and the frame is taller than without it (``--no-legend``)."""
    from crusadegym.ui.legend import picture_legend

    rep = tmp_path / "game.json"
    opts = {**SMALL.get(name, {}), **SHORT} if name == "deus_lo_vult" else SMALL.get(name, {})
    game, _ = _random_replay(rep, name, opts)
    with_legend, without = tmp_path / "legend.gif", tmp_path / "plain.gif"
    assert cli(["replay", str(rep), "--gif", str(with_legend), "--per", "turn"]) == 0
    assert cli(["replay", str(rep), "--gif", str(without), "--per", "turn", "--no-legend"]) == 0
    with Image.open(with_legend) as gif, Image.open(without) as plain:
        assert gif.height > plain.height
        strip = np.asarray(gif.convert("RGB"))[plain.height :]
    colours = {tuple(int(item["fill"][k : k + 2], 16) for k in (1, 3, 5))
               for item in picture_legend(game) if item["fill"]}  # fmt: skip
    found = {c for c in colours if (strip == np.array(c, np.uint8)).all(axis=2).sum() >= 100}
    assert len(found) >= 0.8 * len(colours), colours - found  # GIF palettes may merge a few
