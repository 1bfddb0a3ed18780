"""The page's picture legends (:mod:`crusadegym.ui.legend`) explain every mark the drawers use."""

from __future__ import annotations

from crusadegym.core import make_game
from crusadegym.ui.legend import _hex, picture_legend


def test_crusaders_legend_has_every_colour_and_letter_of_the_drawer():
    from crusadegym.core.crusaders import tables as T
    from crusadegym.envs import render_crusaders as R

    items = picture_legend(make_game("crusaders", players=2))
    fills = {item["fill"] for item in items}
    rings = {item["ring"] for item in items}
    text = " ".join(item["text"] for item in items)
    drawn = [R.LAND, R.OFF_BOARD, R.TILE, R.WEDGE, R.WEDGE_UP, R.SEAT_COLOURS[0], *R.ENEMY_COLOURS]
    assert {_hex(c) for c in drawn} <= fills
    assert _hex(R.FLAG) in rings
    for letter, name in [
        *zip(T.ENEMY_LETTERS, T.ENEMY_NAMES, strict=True),
        *zip(T.BUILDING_LETTERS, T.BUILDING_NAMES, strict=True),
        *zip(T.ACTION_LETTERS, T.ACTION_NAMES, strict=True),
    ]:
        assert f"{letter} {name}" in text
    for mark in ("flag", "starting region", "knight", "influence tile", "Coat of Arms", "giant"):
        assert mark in text


def test_every_drawn_game_has_a_picture_legend():
    from crusadegym.envs.render import DRAWERS

    for name in DRAWERS:
        assert picture_legend(make_game(name, players=2)), name
