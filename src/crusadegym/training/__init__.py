"""Self-play training of AI opponents with MaskablePPO (``crusadegym train``).

* :mod:`.selfplay`: the run, top to bottom (arguments, seeding, envs, model, loop);
* :mod:`.policy`: which network a game gets (spatial policy for boards, MLP otherwise);
* :mod:`.spatial`: the spatial policy (1x1-conv cell logits over a conv trunk);
* :mod:`.bc`, :mod:`.warmstart`: behaviour cloning of the heuristic (+ DAgger) before
  PPO, and imitation replay during it;
* :mod:`.pool`: the opponent pool (baselines + frozen learner snapshots);
* :mod:`.env`: the training env (learner's-seat reward, shaping, outcome info);
* :mod:`.callbacks`: win rates, snapshots, checkpoints, progress bar;
* :mod:`.checkpoint`: checkpoints with a JSON sidecar and compatibility checks;
* :mod:`.evaluate`, :mod:`.plots`: the end-of-run arena evaluation and learning curve.

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib, tensorboard,
matplotlib, openskill); modules load lazily, so importing this package is cheap.
"""

_LAZY = {
    "TrainArgs": "selfplay",
    "train": "selfplay",
    "BoardExtractor": "policy",
    "policy_kwargs_for": "policy",
    "policy_spec": "policy",
    "SpatialPolicy": "spatial",
    "obs_layout": "policy",
    "OpponentPool": "pool",
    "load_model": "checkpoint",
    "save_checkpoint": "checkpoint",
}


def __getattr__(name: str):
    """Load the training modules on first access (``crusadegym.training.train``)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_LAZY)
