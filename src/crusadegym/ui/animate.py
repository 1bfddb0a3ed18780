"""``crusadegym replay FILE --gif out.gif``: a replay drawn frame by frame with the rgb renderer.

A frame shows the board (:func:`crusadegym.envs.render.render_rgb`, so every game with a
drawing hook, and the text fallback for the others) under a caption line: the step, the
seat to move and the action that led there. Frames are taken

* ``--per decision``: one per state, ``len(actions) + 1`` frames;
* ``--per turn``: the first and last state and every state where the seat to move
  changed (a turn ends when play passes to another seat).

GIF needs only Pillow; ``--mp4`` needs imageio with its ffmpeg binary (the ``video`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crusadegym.core import Game
from crusadegym.core.records import RecordError, Replay, load_replay, replay
from crusadegym.core.turn_cap import ending
from crusadegym.envs.render import render_rgb
from crusadegym.errors import UserError, missing_extra

PER_CHOICES = ("decision", "turn")
CAPTION_HEIGHT = 22
"""Pixels of the caption band above each board."""
CAPTION_FONT_SIZE = 13


def frame_indices(game: Game, states: np.ndarray, per: str = "decision") -> list[int]:
    """Which states (indices into ``states``) become frames (see the module docstring)."""
    if per not in PER_CHOICES:
        raise UserError(f"--per must be one of {', '.join(PER_CHOICES)}, got {per!r}")
    last = len(states) - 1
    if per == "decision":
        return list(range(last + 1))
    seats = [game.current_player(s) for s in states]
    keep = [k for k in range(last + 1) if k in (0, last) or seats[k] != seats[k - 1]]
    return keep


def caption(game: Game, states: np.ndarray, actions: tuple[int, ...], k: int) -> str:
    """The caption of frame ``k``: step, seat to move (or the result) and the last action."""
    state = states[k]
    text = f"step {k}/{len(actions)}"
    if game.is_terminal(state):
        text += "  over: " + " ".join(f"{r:+.0f}" for r in game.returns(state))
        text += f" ({ending(game.is_truncated(state))})"
    else:
        text += f"  seat {game.current_player(state)} to move"
    if k > 0:
        text += f"  last: {game.action_to_str(actions[k - 1], states[k - 1])}"
    return text


def draw_frame(game: Game, state: np.ndarray, text: str, scale: float = 1.0) -> Image.Image:
    """One frame: the board with ``text`` in a band above it, resized by ``scale``."""
    board = Image.fromarray(render_rgb(game, state))
    if scale != 1.0:  # the board is scaled, the caption keeps a readable size
        size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
        board = board.resize(size, Image.Resampling.LANCZOS)
    frame = Image.new("RGB", (board.width, board.height + CAPTION_HEIGHT), "white")
    frame.paste(board, (0, CAPTION_HEIGHT))
    try:
        font = ImageFont.load_default(size=CAPTION_FONT_SIZE)
    except TypeError:  # Pillow < 10.1 has one fixed-size default font
        font = ImageFont.load_default()
    ImageDraw.Draw(frame).text((4, 3), text, fill="black", font=font)
    return frame


def replay_frames(rec: Replay, per: str = "decision", scale: float = 1.0) -> list[Image.Image]:
    """The frames of a replay (see :func:`frame_indices` for ``per``)."""
    if not 0.05 <= scale <= 4.0:
        raise UserError(f"--scale must be in [0.05, 4], got {scale}")
    game, states = replay(rec)
    frames = [
        draw_frame(game, states[k], caption(game, states, rec.actions, k), scale)
        for k in frame_indices(game, states, per)
    ]
    return same_size(frames)


def same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Pad frames on white to the largest width and height (text boards vary; videos cannot)."""
    width, height = max(f.width for f in frames), max(f.height for f in frames)
    padded = []
    for f in frames:
        if f.size != (width, height):
            canvas = Image.new("RGB", (width, height), "white")
            canvas.paste(f, (0, 0))
            f = canvas
        padded.append(f)
    return padded


def save_gif(frames: list[Image.Image], path: str | Path, fps: float = 2.0) -> Path:
    """Write ``frames`` as a looping GIF (every frame kept: captions make each one distinct)."""
    path = Path(path)
    duration = max(20, round(1000 / fps))
    frames[0].save(
        path, save_all=True, append_images=frames[1:], duration=duration, loop=0, optimize=True
    )
    return path


def save_mp4(frames: list[Image.Image], path: str | Path, fps: float = 2.0) -> Path:
    """Write ``frames`` as an H.264 MP4 (needs the ``video`` extra: imageio, imageio-ffmpeg)."""
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg  # noqa: F401 - the ffmpeg binary imageio writes MP4 with
    except ImportError as e:
        raise missing_extra("imageio-ffmpeg", "video") from e
    path = Path(path)
    even = [f.crop((0, 0, f.width - f.width % 2, f.height - f.height % 2)) for f in frames]
    with imageio.get_writer(path, fps=fps, macro_block_size=1) as writer:
        for f in even:
            writer.append_data(np.asarray(f))
    return path


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crusadegym replay",
        description="Draw a replay file (from crusadegym play, arena --save-replays or "
        "crusadegym.core.records) as a GIF or MP4 animation, or print its moves.",
    )
    p.add_argument("file", help="replay file (JSON)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--gif", metavar="OUT.gif", help="write an animated GIF (needs Pillow)")
    out.add_argument("--mp4", metavar="OUT.mp4",
                     help="write an MP4 video (needs the video extra: "
                          "pip install 'crusadegym[video]')")  # fmt: skip
    p.add_argument("--per", choices=PER_CHOICES, default="decision",
                   help="one frame per decision, or per turn (when the seat to move "
                        "changes); default: %(default)s")  # fmt: skip
    p.add_argument("--fps", type=float, default=2.0, help="frames per second (default: 2)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="resize frames by this factor, e.g. 0.5 (default: 1)")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.fps > 0:
        raise UserError(f"--fps must be > 0, got {args.fps}")
    try:
        rec = load_replay(args.file)
    except FileNotFoundError as e:
        raise UserError(f"no such replay file: {args.file}") from e
    except (RecordError, OSError) as e:
        raise UserError(str(e)) from e
    if not (args.gif or args.mp4):
        game, states = replay(rec)
        print(f"{rec.game} seed {rec.seed}: {len(rec.actions)} actions {rec.note}".rstrip())
        for k, a in enumerate(rec.actions):
            seat = game.current_player(states[k])
            print(f"{k + 1:>5}  seat {seat}  {game.action_to_str(a, states[k])}")
        print(game.render(states[-1]))
        if game.is_terminal(states[-1]):
            returns = " ".join(f"{r:+.0f}" for r in game.returns(states[-1]))
            print(f"over: {returns} ({ending(game.is_truncated(states[-1]))})")
        print("(write an animation with --gif OUT.gif or --mp4 OUT.mp4)")
        return 0
    try:
        frames = replay_frames(rec, args.per, args.scale)
    except RecordError as e:
        raise UserError(str(e)) from e
    save = save_gif if args.gif else save_mp4
    path = save(frames, args.gif or args.mp4, args.fps)
    print(f"wrote {path}: {len(frames)} frames ({args.per}), {path.stat().st_size / 1e3:.0f} kB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
