"""Crusaders (+ Divine Influence) as a PettingZoo AEC env: ``env(**kwargs)`` and ``raw_env``.

The convention for every game: a module ``<game>_v<N>.py`` with these two functions,
keyword arguments as :class:`~crusadegym.envs.aec.CrusadeAECEnv` (``render_mode``,
``illegal``, ``shaped_rewards``, then the game's rule options)::

    from crusadegym.envs import crusaders_v0
    env = crusaders_v0.env(players=3, expansion=True)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import CrusadeAECEnv, make_raw_env, wrap

GAME = "crusaders"


def raw_env(**kwargs: Any) -> CrusadeAECEnv:
    """The unwrapped env."""
    return make_raw_env(GAME, **kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The env with PettingZoo's standard (order-enforcing) wrapper."""
    return wrap(raw_env(**kwargs))
