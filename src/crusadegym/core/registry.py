"""The game registry: name -> :class:`GameSpec`, and :func:`make_game`."""

from __future__ import annotations

import importlib
from typing import Any

from crusadegym.errors import UnknownNameError

from . import first_use
from .protocol import Game, GameSpec, config_from_dict

_SPECS: dict[str, GameSpec] = {}

# Games shipped with the suite, imported lazily so `import crusadegym.core` stays cheap.
_BUILTIN = {
    "deus_lo_vult": "crusadegym.core.deus_lo_vult",
    "deus_lo_vult_campaign": "crusadegym.core.deus_lo_vult.campaign.game",
    "crusaders": "crusadegym.core.crusaders",
    "deus": "crusadegym.core.deus",
}


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (re-registering the same name replaces it)."""
    _SPECS[spec.name] = spec
    return spec


def get_spec(name: str) -> GameSpec:
    """The spec of a registered or built-in game.

    An unknown name raises :class:`~crusadegym.errors.UnknownNameError` (a ``KeyError``
    and a ``ValueError``) whose message lists the available games.
    """
    if name not in _SPECS and name in _BUILTIN:
        module = importlib.import_module(_BUILTIN[name])
        register(module.SPEC)
    if name not in _SPECS:
        raise UnknownNameError(f"unknown game {name!r}; available: {', '.join(available_games())}")
    return _SPECS[name]


def available_games() -> list[str]:
    """Names of every registered and built-in game."""
    return sorted(set(_SPECS) | set(_BUILTIN))


def make_game(name: str, config: Any = None, **options: Any) -> Game:
    """A :class:`Game` for ``name`` with a config object or keyword options.

    ``make_game("deus_lo_vult", players=3, deployment="latin")``

    The first time a game's kernels are not in numba's cache, one line says that they
    are being compiled (:mod:`.first_use`).
    """
    spec = get_spec(name)
    if config is None:
        config = config_from_dict(spec.config_cls, options)
    elif options:
        raise ValueError("pass either a config object or keyword options, not both")
    first_use.notice(spec)
    return Game(spec, config)
