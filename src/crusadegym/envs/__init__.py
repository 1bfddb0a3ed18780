"""Environment wrappers over the core protocol, shared by every game.

Importing this package only registers the Gymnasium ids (cheap); the env modules
load on first use:

* :mod:`.aec`: PettingZoo AEC env; per-game modules such as :mod:`.deus_lo_vult_v0`
* :mod:`.single_agent`: Gymnasium env, one learner seat against embedded opponents
* :mod:`.vector`: batched envs over a ``[B, S]`` array (multi-agent, and a Gymnasium
  ``VectorEnv`` for single-agent training)
* :mod:`.render`: Pillow rendering; :mod:`.opponents`: the opponent registry
"""

from .registration import register_envs

register_envs()

_LAZY = {
    "CrusadeAECEnv": "aec",
    "CrusadeSingleAgentEnv": "single_agent",
    "CrusadeVectorEnv": "vector",
    "CrusadeVectorSingleAgentEnv": "vector",
    "RandomAgent": "opponents",
    "register_opponent": "opponents",
    "render_rgb": "render",
}


def __getattr__(name: str):
    """Load the env classes on first access (``crusadegym.envs.CrusadeAECEnv``)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["register_envs", *_LAZY]
