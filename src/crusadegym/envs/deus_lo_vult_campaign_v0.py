"""The Deus lo Vult Campaign as a PettingZoo AEC env [R Part 2]: ``env(**kwargs)``
(wrapped) and ``raw_env(**kwargs)``.

Keyword arguments as :class:`~crusadegym.envs.aec.CrusadeAECEnv`, then the Campaign's
options: ``preset="kyivan"`` (a Conventional Preset by name, ``campaign.tables.PRESETS``)
and/or any ``CampaignConfig`` field, which overrides the preset's::

    from crusadegym.envs import deus_lo_vult_campaign_v0
    env = deus_lo_vult_campaign_v0.env(preset="kyivan", battles=2)

``deus_lo_vult_v0.env(preset="kyivan")`` builds the same env.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import CrusadeAECEnv, make_raw_env, wrap

GAME = "deus_lo_vult_campaign"


def raw_env(**kwargs: Any) -> CrusadeAECEnv:
    """The unwrapped env."""
    return make_raw_env(GAME, **kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The env with PettingZoo's standard (order-enforcing) wrapper."""
    return wrap(raw_env(**kwargs))
