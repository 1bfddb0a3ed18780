"""Board clicks: a pixel of a game's rgb_array picture -> the action text it means.

One hook per game, like :data:`crusadegym.envs.render.DRAWERS`: ``click(game, x, y) ->
str | None`` gets a pixel of the picture the game's drawer made and returns the text a
player would type for it (``"cell a1"``), or ``None`` off the board. The text then goes
through the same reading as typed input (:func:`crusadegym.agents.human.read_move`), so
an illegal click is refused with the same explanation. Games without a hook are played
with the action buttons.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from crusadegym.core import Game

CLICK_MAPS: dict[str, Callable[[Game, int, int], str | None] | str] = {
    "deus_lo_vult": "crusadegym.ui.clicks:deus_lo_vult_click",
    "deus_lo_vult_campaign": "crusadegym.ui.clicks:deus_lo_vult_click",  # the same board
    "deus": "crusadegym.ui.clicks:deus_click",
    "crusaders": "crusadegym.ui.clicks:crusaders_click",
}
"""Click hook per game name: a callable, or ``"module:function"`` imported on first use."""


def register_click_map(game_name: str, click: Callable[[Game, int, int], str | None]) -> None:
    """Use ``click(game, x, y) -> action text | None`` for clicks on ``game_name``'s board."""
    CLICK_MAPS[game_name] = click


def click_map(game_name: str) -> Callable[[Game, int, int], str | None] | None:
    """The click hook of a game, or ``None`` when its board is not clickable."""
    hook = CLICK_MAPS.get(game_name)
    if isinstance(hook, str):
        module, func = hook.split(":")
        hook = CLICK_MAPS[game_name] = getattr(importlib.import_module(module), func)
    return hook


def deus_lo_vult_click(game: Game, x: int, y: int) -> str | None:
    """A pixel of :func:`crusadegym.envs.render_dlv.draw` -> ``cell a1`` .. ``cell l12``
    (the Duel's board and each Battle of the Campaign, drawn alike)."""
    from crusadegym.core.deus_lo_vult import tables as T
    from crusadegym.core.deus_lo_vult.actions import cell_name
    from crusadegym.envs import render_dlv as R

    col = (x - R.MARGIN) // R.CELL
    row = (y - R.HEADER - R.MARGIN) // R.CELL
    if x < R.MARGIN or y < R.HEADER + R.MARGIN or not (0 <= col < T.SIZE and 0 <= row < T.SIZE):
        return None
    return "cell " + cell_name(row * T.SIZE + col)


HEX_HIT = 0.9
"""A click counts for a hex when it is within this fraction of the hex radius of its centre."""


def _nearest(centres: dict[int, tuple[float, float]], x: int, y: int, radius: float) -> int | None:
    best, best_d2 = None, (HEX_HIT * radius) ** 2
    for r, (cx, cy) in centres.items():
        d2 = (x - cx) ** 2 + (y - cy) ** 2
        if d2 <= best_d2:
            best, best_d2 = r, d2
    return best


def deus_click(game: Game, x: int, y: int) -> str | None:
    """A pixel of :func:`crusadegym.envs.render_deus.draw` -> ``region a1`` (the hex under it)."""
    from crusadegym.core.deus.actions import region_name
    from crusadegym.envs import render_deus as R

    r = _nearest(R.hex_centres(game), x, y, R.HEX)
    return None if r is None else "region " + region_name(r)


def crusaders_click(game: Game, x: int, y: int) -> str | None:
    """A pixel of :func:`crusadegym.envs.render_crusaders.draw` -> ``region f5``."""
    from crusadegym.core.crusaders import tables as T
    from crusadegym.envs import render_crusaders as R

    r = _nearest(R.hex_centres(game), x, y, R.HEX)
    return None if r is None else "region " + T.REGION_NAMES[r]
