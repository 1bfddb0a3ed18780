"""Gymnasium ids of the single-agent envs (``gymnasium.make("crusadegym/DeusLoVult-v0")``).

Entry points are strings, so registering imports no env module; keyword arguments of
``gymnasium.make`` (``opponents=``, ``seat=``, rule options) reach the env, and
``gymnasium.make_vec(id, num_envs=B, vectorization_mode="vector_entry_point")`` builds
the batched :class:`~crusadegym.envs.vector.CrusadeVectorSingleAgentEnv`.
"""

from __future__ import annotations

SINGLE_AGENT_IDS = {
    "crusadegym/DeusLoVult-v0": "deus_lo_vult",
}
"""Gymnasium id -> core game name."""


def register_envs() -> None:
    """Register every id in :data:`SINGLE_AGENT_IDS` (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for env_id, game_name in SINGLE_AGENT_IDS.items():
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="crusadegym.envs.single_agent:CrusadeSingleAgentEnv",
                vector_entry_point="crusadegym.envs.vector:CrusadeVectorSingleAgentEnv",
                kwargs={"game_name": game_name},
            )
