"""The Deus lo Vult Campaign as a PettingZoo AEC env [R Part 2]: ``env(**kwargs)``
(wrapped) and ``raw_env(**kwargs)``.

=================  =========================================================================
import             ``from crusadegym.envs import deus_lo_vult_campaign_v0``
game               ``deus_lo_vult_campaign`` (``make_game("deus_lo_vult_campaign", **options)``)
ids                ``crusadegym/DeusLoVultCampaign-v0`` (Gymnasium, one learner seat),
                   ``crusadegym/deus_lo_vult_campaign-v0`` (PettingZoo)
agents             ``player_0`` .. ``player_{n-1}``, n = ``players``: 2 (default) to 4
actions            ``Discrete(263)`` in every config: the Duel's 175, then the Campaign's
observation        ``Box(0.0, 1.0, (11124,), float32)`` in every config: the Duel's 8972,
                   then 14 planes of 12x12 cells and 136 scalars
                   (``core/deus_lo_vult/campaign/observe.py``)
legal-action mask  AEC: ``observe(agent)["action_mask"]``, int8[263], all zero but for the
                   agent to move; Gymnasium: ``info["action_mask"]`` and
                   ``env.action_masks()`` (bool, for MaskablePPO); vector: ``action_masks()``,
                   [B, 263]. An illegal action loses the game (``illegal="loss"``, default)
                   or raises (``illegal="raise"``)
rewards            ``reward="result"`` (default): at the end, +1 to the seats with the most
                   Glory, -1 to the others, 0 to all if all tie; ``reward="score"`` (AEC,
                   Gymnasium): plus 0.1 x the change of the seat's lead in Glory (in coins,
                   5 a Glory) plus the Battle's coins each step; ``shaped_rewards=True``
                   (AEC): plus 0.05 x the change of that lead, which sums to zero over a
                   game (``envs/shaping.py``)
turn cap           ``max_turns=3000`` turns a seat in each Battle (default): a Battle the cap
                   cuts is scored and the Campaign goes on; at the Campaign's end, which is
                   ``terminated`` (never ``truncated``), ``info["turn_cap"]`` is True if any
                   Battle was cut (AEC: ``infos[agent]``)
version history    v0 (unreleased). Changed within v0: the cap counts per seat (issue #36);
                   ``reward="score"`` and ``shaped_rewards`` (issue #36)
=================  =========================================================================

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
