"""RGB rendering with Pillow: one drawing hook per game, and a text fallback for the rest.

:func:`render_rgb` returns an ``H x W x 3`` uint8 array. A game with a hook in
:data:`DRAWERS` (``draw(game, state) -> PIL.Image``) gets a picture of its board;
any other game gets its ansi rendering drawn as text.

``python -m crusadegym.envs.render [out.png]`` saves a mid-game Deus lo Vult board
(see :func:`save_sample_board`).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crusadegym.core import Game

DRAWERS: dict[str, Callable[[Game, np.ndarray], Image.Image] | str] = {
    "deus_lo_vult": "crusadegym.envs.render_dlv:draw",
    "deus_lo_vult_campaign": "crusadegym.envs.render_dlv:draw",
    "deus": "crusadegym.envs.render_deus:draw",
    "crusaders": "crusadegym.envs.render_crusaders:draw",
}
"""Drawing hook per game name: a callable, or ``"module:function"`` imported on first use."""


def register_drawer(game_name: str, draw: Callable[[Game, np.ndarray], Image.Image]) -> None:
    """Use ``draw(game, state) -> PIL.Image`` for the rgb_array rendering of ``game_name``."""
    DRAWERS[game_name] = draw


def _drawer(game_name: str) -> Callable[[Game, np.ndarray], Image.Image]:
    hook = DRAWERS.get(game_name, draw_text)
    if isinstance(hook, str):
        module, func = hook.split(":")
        hook = DRAWERS[game_name] = getattr(importlib.import_module(module), func)
    return hook


def text_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at ``size`` pixels: the same font file on every machine, so
    pictures stay deterministic. Without FreeType (or Pillow < 10.1) the fixed 11 px
    bitmap font instead."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError):  # no sized default font in this Pillow
        return ImageFont.load_default()


def centred_text(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, font, fill
) -> None:
    """Write ``text`` with the middle of its ink box at ``centre`` (any font kind)."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = centre[0] - (left + right) / 2
    y = centre[1] - (top + bottom) / 2
    draw.text((round(x), round(y)), text, fill=fill, font=font)


def draw_text(game: Game, state: np.ndarray, seat: int | None = None) -> Image.Image:
    """The game's ansi rendering (``seat``'s view) on a white canvas (the fallback hook)."""
    text = game.render(state, seat)
    font = ImageFont.load_default()
    lines = text.splitlines() or [""]
    box = ImageDraw.Draw(Image.new("RGB", (1, 1))).multiline_textbbox((0, 0), text, font=font)
    width, height = max(box[2], 8) + 16, max(box[3], 8 * len(lines)) + 16
    img = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(img).multiline_text((8, 8), text, fill="black", font=font)
    return img


def render_rgb(game: Game, state: np.ndarray, seat: int | None = None) -> np.ndarray:
    """``state`` drawn as an ``H x W x 3`` uint8 array.

    ``seat``: draw only what that seat may see (drawers that show hidden things take a
    ``seat`` argument; the others draw nothing hidden).
    """
    game.check_state(state)
    drawer = _drawer(game.name)
    if seat is not None and "seat" in inspect.signature(drawer).parameters:
        img = drawer(game, state, seat=int(seat))
    else:
        img = drawer(game, state)
    return np.asarray(img.convert("RGB"), dtype=np.uint8)


def save_sample_board(path: str | Path, steps: int = 150, seed: int = 7, **config) -> Path:
    """Play ``steps`` random moves of a 2-player Deus lo Vult game and save the board as PNG."""
    from crusadegym.core import make_game

    config = {"players": 2, **config}
    game = make_game("deus_lo_vult", **config)
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        game.step(state, int(rng.choice(game.legal_actions(state))))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(render_rgb(game, state)).save(path)
    return path


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "docs/img/deus_lo_vult_board.png"
    print(save_sample_board(out))
