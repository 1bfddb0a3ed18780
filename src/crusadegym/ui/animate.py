"""``crusadegym replay FILE --gif out.gif``: a replay drawn frame by frame with the rgb renderer.

A frame shows the board (:func:`crusadegym.envs.render.render_rgb`, so every game with a
drawing hook, and the text fallback for the others) under a caption line: the step, the
seat to move and the action that led there, and above a legend strip that explains every
mark of the picture (the page's legend, :func:`crusadegym.ui.legend.picture_legend`; the
terminal's legend lines for a game without one; ``--no-legend`` leaves it out). Frames are
taken

* ``--per decision``: one per state, ``len(actions) + 1`` frames;
* ``--per turn``: the first and last state and every state where the seat to move
  changed (a turn ends when play passes to another seat).

GIF needs only Pillow; ``--mp4`` needs imageio with its ffmpeg binary (the ``video`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from crusadegym.core import Game
from crusadegym.core.records import RecordError, Replay, load_replay, replay
from crusadegym.core.turn_cap import ending
from crusadegym.envs.render import render_rgb, text_font
from crusadegym.errors import UserError, missing_extra

from .legend import picture_legend

PER_CHOICES = ("decision", "turn")
CAPTION_HEIGHT = 22
"""Pixels of the caption band above each board."""
CAPTION_FONT_SIZE = 13
LEGEND_FONT_SIZE = 13
LEGEND_MIN_WIDTH = 480
"""Narrowest legend strip (pixels): a small ``--scale`` shrinks the board, not the legend."""
LEGEND_COLUMN_MIN = 330
"""A legend column is at least this wide; a wider strip gets more columns."""
SWATCH = (30, 20)
"""Width and height of a legend item's swatch (pixels)."""
PAD = 6
SHAPE_MARKS = {
    "\u25b2": ((0.5, 0.1), (0.2, 0.9), (0.8, 0.9)),  # a triangle pointing up
    "\u25bc": ((0.2, 0.1), (0.8, 0.1), (0.5, 0.9)),  # a triangle pointing down
}
"""Marks drawn as shapes (corners as fractions of the swatch): the font may lack them."""


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


def legend_items(game: Game) -> list[dict]:
    """What the legend strip explains: the picture legend's items, or else the terminal
    legend's lines as plain text items (no swatch)."""
    items = picture_legend(game)
    if items:
        return items
    from crusadegym.agents.human import legend

    lines = [line.strip() for line in legend(game).splitlines() if line.strip()]
    return [{"fill": None, "ring": None, "mark": "", "text": line} for line in lines]


def _wrapped(text: str, font, width: float) -> list[str]:
    """``text`` broken at spaces into lines at most ``width`` pixels wide."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _ink_on(fill: str | None) -> str:
    """Black on a pale (or no) fill, white on a dark one (``fill`` as ``#rrggbb``)."""
    if fill is None:
        return "black"
    r, g, b = (int(fill[k : k + 2], 16) for k in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "white"


def _swatch(draw: ImageDraw.ImageDraw, x: int, y: int, item: dict, font) -> None:
    """An item's swatch: ``fill``, ``ring`` and ``mark`` as the page draws them."""
    if item["fill"] is None and item["ring"] is None and not item["mark"]:
        return
    box = (x, y, x + SWATCH[0], y + SWATCH[1])
    draw.rectangle(box, fill=item["fill"], outline=item["ring"] or item["fill"], width=3)
    shape = SHAPE_MARKS.get(item["mark"])
    if shape:
        corners = [(x + fx * SWATCH[0], y + fy * SWATCH[1]) for fx, fy in shape]
        draw.polygon(corners, fill=_ink_on(item["fill"]))
    elif item["mark"]:
        left, top, right, bottom = draw.textbbox((0, 0), item["mark"], font=font)
        at = (x + (SWATCH[0] - left - right) / 2, y + (SWATCH[1] - top - bottom) / 2)
        draw.text((round(at[0]), round(at[1])), item["mark"], fill=_ink_on(item["fill"]), font=font)


def legend_strip(items: list[dict], width: int) -> Image.Image | None:
    """The legend as a white strip ``width`` (at least :data:`LEGEND_MIN_WIDTH`) pixels
    wide: a swatch and its wrapped text per item, in columns of at least
    :data:`LEGEND_COLUMN_MIN` pixels. ``None`` without items."""
    if not items:
        return None
    width = max(width, LEGEND_MIN_WIDTH)
    font = text_font(LEGEND_FONT_SIZE)
    line_h = LEGEND_FONT_SIZE + 4
    columns = max(1, (width - PAD) // LEGEND_COLUMN_MIN)
    col_w = (width - PAD) // columns
    text_w = col_w - SWATCH[0] - 3 * PAD
    cells = [_wrapped(item["text"], font, text_w) for item in items]
    heights = [max(SWATCH[1], len(lines) * line_h) + PAD for lines in cells]
    per_column = -(-len(items) // columns)
    column_heights = [sum(heights[c * per_column : (c + 1) * per_column]) for c in range(columns)]
    strip = Image.new("RGB", (width, max(column_heights) + 2 * PAD + line_h), "white")
    draw = ImageDraw.Draw(strip)
    draw.text((PAD, PAD), "Legend", fill="black", font=font)
    for c in range(columns):
        x, y = PAD + c * col_w, 2 * PAD + line_h
        for k in range(c * per_column, min(len(items), (c + 1) * per_column)):
            _swatch(draw, x, y, items[k], font)
            for j, line in enumerate(cells[k]):
                draw.text((x + SWATCH[0] + PAD, y + j * line_h), line, fill="black", font=font)
            y += heights[k]
    return strip


def draw_frame(
    game: Game,
    state: np.ndarray,
    text: str,
    scale: float = 1.0,
    legend: Image.Image | None = None,
) -> Image.Image:
    """One frame: the board with ``text`` in a band above it, resized by ``scale``, and the
    ``legend`` strip (:func:`legend_strip`) under it."""
    board = Image.fromarray(render_rgb(game, state))
    if scale != 1.0:  # the board is scaled, the caption and the legend keep a readable size
        size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
        board = board.resize(size, Image.Resampling.LANCZOS)
    below = legend.height if legend is not None else 0
    width = max(board.width, legend.width if legend is not None else 0)
    frame = Image.new("RGB", (width, board.height + CAPTION_HEIGHT + below), "white")
    frame.paste(board, (0, CAPTION_HEIGHT))
    if legend is not None:
        frame.paste(legend, (0, CAPTION_HEIGHT + board.height))
    ImageDraw.Draw(frame).text((4, 3), text, fill="black", font=text_font(CAPTION_FONT_SIZE))
    return frame


def replay_frames(
    rec: Replay, per: str = "decision", scale: float = 1.0, with_legend: bool = True
) -> list[Image.Image]:
    """The frames of a replay (see :func:`frame_indices` for ``per``), each with the
    legend strip unless ``with_legend`` is false."""
    if not 0.05 <= scale <= 4.0:
        raise UserError(f"--scale must be in [0.05, 4], got {scale}")
    game, states = replay(rec)
    keep = frame_indices(game, states, per)
    legend = None
    if with_legend:
        board_width = render_rgb(game, states[0]).shape[1]
        legend = legend_strip(legend_items(game), max(1, round(board_width * scale)))
    frames = [
        draw_frame(game, states[k], caption(game, states, rec.actions, k), scale, legend)
        for k in keep
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


PALETTE_SAMPLES = 6
"""Frames, spread over the replay, whose colours make the GIF's one shared palette."""


def shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One 256-colour palette for every frame, from a sheet of :data:`PALETTE_SAMPLES`
    frames: the pixels that do not change (the legend, the empty board) stay identical
    from frame to frame, so the GIF stores only what changed."""
    picks = frames[:: max(1, len(frames) // PALETTE_SAMPLES)]
    sheet = Image.new("RGB", (max(f.width for f in picks), sum(f.height for f in picks)))
    y = 0
    for f in picks:
        sheet.paste(f, (0, y))
        y += f.height
    return sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def save_gif(frames: list[Image.Image], path: str | Path, fps: float = 2.0) -> Path:
    """Write ``frames`` as a looping GIF (every frame kept: captions make each one
    distinct), all in one :func:`shared_palette` without dithering."""
    path = Path(path)
    duration = max(20, round(1000 / fps))
    palette = shared_palette(frames)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    indexed[0].save(
        path, save_all=True, append_images=indexed[1:], duration=duration, loop=0, optimize=True
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
                   help="resize the board by this factor, e.g. 0.5 (default: 1; the caption "
                        "and the legend keep their size)")  # fmt: skip
    p.add_argument("--no-legend", action="store_true",
                   help="leave out the legend strip under each frame")  # fmt: skip
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
        frames = replay_frames(rec, args.per, args.scale, not args.no_legend)
    except RecordError as e:
        raise UserError(str(e)) from e
    save = save_gif if args.gif else save_mp4
    path = save(frames, args.gif or args.mp4, args.fps)
    print(f"wrote {path}: {len(frames)} frames ({args.per}), {path.stat().st_size / 1e3:.0f} kB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
