"""The rules, compiled: flat int32 states, numba kernels, one protocol for every game.

Public entry points: :func:`make_game`, :func:`available_games`, :func:`register`,
:class:`Game`, :class:`GameSpec`, :class:`IllegalActionError`, :class:`StateError`.
"""

from .protocol import Game, GameSpec, IllegalActionError, Kernels, StateError
from .registry import available_games, get_spec, make_game, register

__all__ = [
    "Game",
    "GameSpec",
    "IllegalActionError",
    "Kernels",
    "StateError",
    "available_games",
    "get_spec",
    "make_game",
    "register",
]
