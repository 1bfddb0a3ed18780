"""The board pictures' labels are readable at 100% zoom and the pictures stay deterministic.

The page shows the Deus map at its own pixels (``board_scale`` 1), so the labels drawn
into it must be large in the picture itself: a region name's digits are measured in the
rendered pixels.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.envs import render_deus
from crusadegym.envs.render import render_rgb, text_font
from crusadegym.ui.clicks import deus_click
from crusadegym.ui.serve import BOARD_SCALE

MIN_INK_HEIGHT = 10
"""Digits of a 14-16 px font are 10-12 px tall; the old 11 px bitmap font's were 7."""


def _played(name: str, moves: int, seed: int = 1):
    game = make_game(name, players=2)
    state = game.new_state(0)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.is_terminal(state):
            break
        game.step(state, int(rng.choice(game.legal_actions(state))))
    return game, state


def ink_height(picture: np.ndarray, box: tuple[int, int, int, int], ink, tolerance=60) -> int:
    """Rows of ``box`` (x0, y0, x1, y1) holding a pixel within ``tolerance`` of ``ink``
    (summed over the channels: anti-aliased glyphs' cores)."""
    x0, y0, x1, y1 = box
    near = np.abs(picture[y0:y1, x0:x1].astype(int) - np.array(ink)).sum(axis=2) <= tolerance
    rows = np.nonzero(near.any(axis=1))[0]
    return int(rows[-1] - rows[0] + 1) if rows.size else 0


def test_deus_region_names_are_drawn_large():
    if not hasattr(text_font(16), "getlength") or text_font(16).size != 16:
        pytest.skip("this Pillow has no sized default font (no FreeType)")
    game, state = _played("deus", 0)
    picture = render_rgb(game, state)
    assert BOARD_SCALE.get("deus", 1.0) == 1.0  # shown at its own pixels
    assert min(render_deus.MAP_FONT_SIZE, render_deus.PANEL_FONT_SIZE) >= 14
    from crusadegym.core.deus import layout as L

    for r, (cx, cy) in render_deus.hex_centres(game).items():
        terrain = int(state[L.TERRAIN + r])
        ink = render_deus.INK if terrain in render_deus.LIGHT_TERRAINS else render_deus.WHITE
        # the name's box, inside the hex's outline (the top vertex is at cy - HEX)
        hex_r = render_deus.HEX
        box = (int(cx - 12), int(cy - 0.75 * hex_r), int(cx + 12), int(cy - 0.3 * hex_r))
        assert ink_height(picture, box, ink) >= MIN_INK_HEIGHT, r


def test_deus_clicks_find_every_hex_the_drawer_placed():
    game, _ = _played("deus", 0)
    from crusadegym.core.deus.actions import region_name

    for r, (cx, cy) in render_deus.hex_centres(game).items():
        assert deus_click(game, round(cx), round(cy)) == "region " + region_name(r)


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_pictures_are_deterministic(name):
    game, state = _played(name, 40)
    assert np.array_equal(render_rgb(game, state), render_rgb(game, state.copy()))
