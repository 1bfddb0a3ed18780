"""Deus lo Vult (the Duel) as a PettingZoo AEC env: ``env(**kwargs)`` (wrapped) and
``raw_env(**kwargs)``.

=================  =========================================================================
import             ``from crusadegym.envs import deus_lo_vult_v0``
game               ``deus_lo_vult`` (``make_game("deus_lo_vult", **options)``)
ids                ``crusadegym/DeusLoVult-v0`` (Gymnasium, one learner seat),
                   ``crusadegym/deus_lo_vult-v0`` (PettingZoo)
agents             ``player_0`` .. ``player_{n-1}``, n = ``players``: 2 (default) to 4
actions            ``Discrete(175)`` in every config
observation        ``Box(0.0, 1.0, (8972,), float32)`` in every config: 62 planes of 12x12
                   cells, then 44 scalars (``core/deus_lo_vult/observe.py``);
                   ``preset="kyivan"`` builds the Campaign instead (``deus_lo_vult_campaign_v0``)
legal-action mask  AEC: ``observe(agent)["action_mask"]``, int8[175], all zero but for the
                   agent to move; Gymnasium: ``info["action_mask"]`` and
                   ``env.action_masks()`` (bool, for MaskablePPO); vector: ``action_masks()``,
                   [B, 175]. An illegal action loses the game (``illegal="loss"``, default)
                   or raises (``illegal="raise"``)
rewards            ``reward="result"`` (default): at the end, +1 to the seats with the most
                   secured coins, -1 to the others, 0 to all if all tie;
                   ``reward="score"`` (AEC, Gymnasium): plus 0.1 x the change of the seat's
                   coin lead each step; ``shaped_rewards=True`` (AEC): plus 0.05 x the
                   change of the coin lead, which sums to zero over a game (``envs/shaping.py``)
turn cap           ``max_turns=1900`` turns a seat (default; 3800 in all at 2 players): the
                   game is scored as it stands and ``terminated`` (never ``truncated``),
                   with ``info["turn_cap"]`` True (AEC: ``infos[agent]``)
version history    v0 (0.1.0). Changed within v0: an illegal action loses by default; the
                   cap is ``terminated``, not ``truncated``, and counts per seat (issue
                   #36); ``reward="score"`` and ``shaped_rewards``; ``preset=`` builds the
                   Campaign
=================  =========================================================================

The convention for every game: a module ``<game>_v<N>.py`` with these two functions,
keyword arguments as :class:`~crusadegym.envs.aec.CrusadeAECEnv` (``render_mode``,
``illegal``, ``shaped_rewards``, ``reward``, then the game's rule options)::

    from crusadegym.envs import deus_lo_vult_v0
    env = deus_lo_vult_v0.env(players=2, rounds=1)

Adding a game: docs/adding_a_game.md.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .aec import CrusadeAECEnv, make_raw_env, wrap

GAME = "deus_lo_vult"


def raw_env(**kwargs: Any) -> CrusadeAECEnv:
    """The unwrapped env."""
    return make_raw_env(GAME, **kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The env with PettingZoo's standard (order-enforcing) wrapper."""
    return wrap(raw_env(**kwargs))
