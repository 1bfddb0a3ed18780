"""Registry ids of the envs, in Gymnasium's registry and in PettingZoo's.

* Gymnasium (single-agent): ``gymnasium.make("crusadegym/DeusLoVult-v0")``. Keyword
  arguments of ``gymnasium.make`` (``opponents=``, ``seat=``, ``reward=``, rule options)
  reach the env, and ``gymnasium.make_vec(id, num_envs=B,
  vectorization_mode="vector_entry_point")`` builds the batched
  :class:`~crusadegym.envs.vector.CrusadeVectorSingleAgentEnv`. In a process that has not
  imported ``crusadegym.envs`` (a ``SubprocVecEnv`` worker started with ``spawn``), write
  ``gymnasium.make("crusadegym.envs:crusadegym/DeusLoVult-v0")``: Gymnasium imports the
  module before the ``:`` and then finds the id.
* PettingZoo (AEC, turn-based): ``pettingzoo.make("aec", "crusadegym/deus_lo_vult_v0")``
  (PettingZoo also accepts ``deus_lo_vult-v0``), the same env as
  ``crusadegym.envs.deus_lo_vult_v0.env()``.
* The Campaign [R Part 2]: ``crusadegym/DeusLoVultCampaign-v0`` and
  ``crusadegym/deus_lo_vult_campaign-v0`` (default: the plain preset); every id of Deus
  lo Vult also takes ``preset="kyivan"`` (a Conventional Preset by name), which builds
  the Campaign from it (``envs.common.build_game``).

Entry points are strings, so registering imports no env module.
"""

from __future__ import annotations

NAMESPACE = "crusadegym"

SINGLE_AGENT_IDS = {
    "crusadegym/DeusLoVult-v0": "deus_lo_vult",
    "crusadegym/DeusLoVultCampaign-v0": "deus_lo_vult_campaign",
    "crusadegym/Deus-v0": "deus",
    "crusadegym/Crusaders-v0": "crusaders",
}
"""Gymnasium id -> core game name."""

AEC_IDS = {
    "crusadegym/deus_lo_vult-v0": "crusadegym.envs.deus_lo_vult_v0:env",
    "crusadegym/deus_lo_vult_campaign-v0": "crusadegym.envs.deus_lo_vult_campaign_v0:env",
    "crusadegym/deus-v0": "crusadegym.envs.deus_v0:env",
    "crusadegym/crusaders-v0": "crusadegym.envs.crusaders_v0:env",
}
"""PettingZoo id -> entry point (the per-game module's wrapped ``env``)."""


def register_gymnasium_envs() -> None:
    """Register every id in :data:`SINGLE_AGENT_IDS` with Gymnasium (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for env_id, game_name in SINGLE_AGENT_IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="crusadegym.envs.single_agent:CrusadeSingleAgentEnv",
                vector_entry_point="crusadegym.envs.vector:CrusadeVectorSingleAgentEnv",
                kwargs={"game_name": game_name},
            )


def register_pettingzoo_envs() -> None:
    """Register every id in :data:`AEC_IDS` with PettingZoo's registry (idempotent).

    PettingZoo before 1.25 has no registry; then there is nothing to do.
    """
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return
    for env_id, entry_point in AEC_IDS.items():
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=entry_point)


def register_envs() -> None:
    """Register the ids in both registries (idempotent)."""
    register_gymnasium_envs()
    register_pettingzoo_envs()
