"""Deus as a PettingZoo AEC env: ``env(**kwargs)`` (wrapped) and ``raw_env(**kwargs)``.

The convention for every game: a module ``<game>_v<N>.py`` with these two functions,
keyword arguments as :class:`~crusadegym.envs.aec.CrusadeAECEnv` (``render_mode``,
``illegal``, ``shaped_rewards``, then the game's rule options)::

    from crusadegym.envs import deus_v0
    env = deus_v0.env(players=3, max_turns=100)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import CrusadeAECEnv, make_raw_env, wrap

GAME = "deus"


def raw_env(**kwargs: Any) -> CrusadeAECEnv:
    """The unwrapped env."""
    return make_raw_env(GAME, **kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The env with PettingZoo's standard (order-enforcing) wrapper."""
    return wrap(raw_env(**kwargs))
