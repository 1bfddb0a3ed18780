"""The board pictures' labels are readable at 100% zoom and the pictures stay deterministic.

The page shows the Deus and Crusaders maps at their own pixels (``board_scale`` 1), so
the labels drawn into them must be large in the picture itself: a region name's digits
are measured in the rendered pixels.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.envs import render_crusaders, render_deus
from crusadegym.envs.render import render_rgb, text_font
from crusadegym.ui.clicks import crusaders_click, deus_click
from crusadegym.ui.serve import BOARD_SCALE

MIN_INK_HEIGHT = 10
"""Digits of a 14-16 px font are 10-12 px tall; the old 11 px bitmap font's were 7."""


def _played(name: str, moves: int, seed: int = 1, players: int = 2):
    game = make_game(name, players=players)
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


def _skip_without_sized_font():
    if not hasattr(text_font(16), "getlength") or text_font(16).size != 16:
        pytest.skip("this Pillow has no sized default font (no FreeType)")


def test_deus_region_names_are_drawn_large():
    _skip_without_sized_font()
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


@pytest.mark.parametrize("players", [2, 4])
def test_crusaders_labels_are_drawn_large(players):
    """Region names (every hex, on the board or off), enemy letters, tile costs and the
    wheels' letters: each at least MIN_INK_HEIGHT pixels tall, the picture at its own pixels
    and no wider than the page shows it."""
    _skip_without_sized_font()
    from crusadegym.core.crusaders import layout as L
    from crusadegym.core.crusaders import tables as T

    game, state = _played("crusaders", 60, players=players)
    picture = render_rgb(game, state)
    assert BOARD_SCALE.get("crusaders", 1.0) == 1.0  # shown at its own pixels
    assert picture.shape[1] <= 760  # the page's widest picture (style.css)
    assert min(render_crusaders.MAP_FONT_SIZE, render_crusaders.STATUS_FONT_SIZE) >= 14
    hex_r, ink, white = render_crusaders.HEX, render_crusaders.INK, render_crusaders.WHITE
    enemies = tiles = 0
    for r, (cx, cy) in render_crusaders.hex_centres(game).items():
        name = (int(cx - 12), int(cy - 0.8 * hex_r), int(cx + 12), int(cy - 0.4 * hex_r))
        assert ink_height(picture, name, ink) >= MIN_INK_HEIGHT, T.REGION_NAMES[r]
        if state[L.R_ENEMY + r] >= 0:  # the enemy's letter, white on its disc
            letter = (int(cx - 32), int(cy - 10), int(cx - 22), int(cy + 6))
            assert ink_height(picture, letter, white) >= MIN_INK_HEIGHT, T.REGION_NAMES[r]
            enemies += 1
        if state[L.R_INF + r] >= 0:  # the influence tile's cost, inside its box
            cost = (int(cx - 5), int(cy + 13), int(cx + 9), int(cy + 28))
            assert ink_height(picture, cost, ink) >= MIN_INK_HEIGHT, T.REGION_NAMES[r]
            tiles += 1
    assert enemies and tiles
    # the first wheel's top-right wedge: its action letter(s) above its token count
    cx = picture.shape[1] - 2 * render_crusaders.WHEEL_W + render_crusaders.WHEEL_W // 2
    cy = render_crusaders.HEADER + render_crusaders.MARGIN + render_crusaders.WHEEL_R
    wedge = (int(cx + 4), int(cy - 50), int(cx + 40), int(cy - 30))
    assert ink_height(picture, wedge, ink) >= MIN_INK_HEIGHT


def test_crusaders_clicks_find_every_hex_the_drawer_placed():
    from crusadegym.core.crusaders import tables as T

    game, _ = _played("crusaders", 0)
    for r, (cx, cy) in render_crusaders.hex_centres(game).items():
        assert crusaders_click(game, round(cx), round(cy)) == "region " + T.REGION_NAMES[r]


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_pictures_are_deterministic(name):
    game, state = _played(name, 40)
    assert np.array_equal(render_rgb(game, state), render_rgb(game, state.copy()))
