"""Deus as a PettingZoo AEC env: ``env(**kwargs)`` (wrapped) and ``raw_env(**kwargs)``.

=================  =========================================================================
import             ``from crusadegym.envs import deus_v0``
game               ``deus`` (``make_game("deus", **options)``); hidden hands
ids                ``crusadegym/Deus-v0`` (Gymnasium, one learner seat),
                   ``crusadegym/deus-v0`` (PettingZoo)
agents             ``player_0`` .. ``player_{n-1}``, n = ``players``: 2 (default) to 4
actions            ``Discrete(208)`` in every config
observation        ``Box(0.0, 1.0, (1707,), float32)`` in every config: 49 regions x 22,
                   4 seats x 95 (absent seats zero), then 249 scalars
                   (``core/deus/observe.py``); a seat sees only what it may see
legal-action mask  AEC: ``observe(agent)["action_mask"]``, int8[208], all zero but for the
                   agent to move; Gymnasium: ``info["action_mask"]`` and
                   ``env.action_masks()`` (bool, for MaskablePPO); vector: ``action_masks()``,
                   [B, 208]. An illegal action loses the game (``illegal="loss"``, default)
                   or raises (``illegal="raise"``)
rewards            ``reward="result"`` (default): at the end, +1 to the seats with the best
                   final score, -1 to the others, 0 to all if all tie; ``reward="score"``
                   (AEC, Gymnasium): plus 0.02 x the change of the seat's lead in the final
                   score as if the game ended now, each step; ``shaped_rewards=True`` (AEC):
                   plus 0.01 x the change of that lead, which sums to zero over a game
                   (``envs/shaping.py``)
turn cap           ``max_turns=250`` turns a seat (default; 500 in all at 2 players): the
                   game is scored as it stands and ``terminated`` (never ``truncated``),
                   with ``info["turn_cap"]`` True (AEC: ``infos[agent]``)
version history    v0 (unreleased). Changed within v0: the cap counts per seat (issue #36);
                   ``reward="score"`` and ``shaped_rewards`` (issue #36); 208 actions and
                   the observation's 1707, since Minerva's extra draw is a choice (issue #38);
                   every seat's VP in the observation, a public tally (issue #38)
=================  =========================================================================

The convention for every game: a module ``<game>_v<N>.py`` with these two functions,
keyword arguments as :class:`~crusadegym.envs.aec.CrusadeAECEnv` (``render_mode``,
``illegal``, ``shaped_rewards``, ``reward``, then the game's rule options)::

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
