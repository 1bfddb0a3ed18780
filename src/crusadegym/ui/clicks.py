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
    """A pixel of :func:`crusadegym.envs.render_dlv.draw` -> ``cell a1`` .. ``cell l12``."""
    from crusadegym.core.deus_lo_vult import tables as T
    from crusadegym.core.deus_lo_vult.actions import cell_name
    from crusadegym.envs import render_dlv as R

    col = (x - R.MARGIN) // R.CELL
    row = (y - R.HEADER - R.MARGIN) // R.CELL
    if x < R.MARGIN or y < R.HEADER + R.MARGIN or not (0 <= col < T.SIZE and 0 <= row < T.SIZE):
        return None
    return "cell " + cell_name(row * T.SIZE + col)
