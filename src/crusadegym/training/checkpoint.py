"""Checkpoints: a MaskablePPO ``.zip`` plus a JSON sidecar saying what it was trained for.

The sidecar (``name.json`` next to ``name.zip``) records the game, its config and
version, the policy's input size (observation plus any heuristic advice, see
:mod:`crusadegym.agents.advice`) and its advice kind, the action count, the crusadegym
version and the timesteps trained. :func:`load_model` checks a checkpoint against the game it is
meant for *before* handing it to SB3, so a missing, corrupt or incompatible file
fails with a readable error instead of a shape mismatch deep inside torch.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import crusadegym
from crusadegym.agents.advice import advice_for_size, advice_size
from crusadegym.agents.neural import read_sidecar, sidecar_path
from crusadegym.core import Game

__all__ = ["check_compatible", "checkpoint_info", "load_model", "read_sidecar",
           "save_checkpoint", "sidecar_path"]  # fmt: skip

SIDECAR_FORMAT = 1


def checkpoint_info(
    game: Game, timesteps: int, extra: dict | None = None, advice: str = "none"
) -> dict:
    """The sidecar content for a model of ``game`` (with ``advice``) trained ``timesteps``."""
    return {
        "format": SIDECAR_FORMAT,
        "game": game.name,
        "game_version": game.spec.version,
        "config": game.config_dict(),
        "layout_hash": game.layout_hash(),
        "obs_size": game.obs_size + advice_size(game, advice),
        "advice": advice,
        "num_actions": game.num_actions,
        "crusadegym_version": crusadegym.__version__,
        "timesteps": int(timesteps),
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **(extra or {}),
    }


def save_checkpoint(model: Any, path: str, game: Game, extra: dict | None = None) -> str:
    """Save ``model`` to ``path`` (``.zip``) and its sidecar; return the ``.zip`` path.

    The advice kind is read off the model's input size (:func:`advice_for_size`).
    """
    advice = advice_for_size(game, int(model.observation_space.shape[0]))
    if not path.endswith(".zip"):
        path += ".zip"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    model.save(path)
    with open(sidecar_path(path), "w") as f:
        json.dump(checkpoint_info(game, model.num_timesteps, extra, advice), f, indent=1)
    return path


def check_compatible(path: str, game: Game) -> dict | None:
    """Raise ValueError if checkpoint ``path`` was trained for another game or sizes.

    Returns the sidecar (``None`` when absent; the model's spaces are then checked
    after loading by :func:`load_model`).
    """
    info = read_sidecar(path)
    if info is None:
        return None
    where = f"checkpoint {path!r}"
    if info.get("game") != game.name:
        raise ValueError(f"{where} was trained for game {info.get('game')!r}, not {game.name!r}")
    obs_size = game.obs_size + advice_size(game, info.get("advice", "none"))
    for key, want in (("obs_size", obs_size), ("num_actions", game.num_actions)):
        if info.get(key) != want:
            raise ValueError(
                f"{where} has {key}={info.get(key)} but {game.name} with config "
                f"{game.config_dict()} has {key}={want} (trained with config {info.get('config')})"
            )
    return info


def _check_spaces(model: Any, path: str, game: Game, advice: str) -> None:
    obs_shape = tuple(model.observation_space.shape)
    n_actions = int(getattr(model.action_space, "n", -1))
    want = game.obs_size + advice_size(game, advice)
    if obs_shape != (want,) or n_actions != game.num_actions:
        raise ValueError(
            f"checkpoint {path!r} expects observations {obs_shape} and {n_actions} actions; "
            f"{game.name} with advice={advice!r} has ({want},) and {game.num_actions}"
        )


def load_model(
    path: str | os.PathLike,
    game: Game,
    env: Any = None,
    device: str = "cpu",
    advice: str | None = None,
) -> Any:
    """Load the MaskablePPO checkpoint at ``path`` for ``game`` (optionally bound to ``env``).

    FileNotFoundError for a missing file; ValueError for a corrupt file or one trained
    for another game, observation size, action count or (when ``advice`` is given)
    another advice kind.
    """
    from sb3_contrib import MaskablePPO

    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint at {path!r}")
    info = check_compatible(path, game) or {}
    trained = info.get("advice", "none")
    if advice is not None and advice != trained:
        raise ValueError(
            f"checkpoint {path!r} was trained with advice={trained!r}, not {advice!r} "
            f"(pass --advice {trained})"
        )
    try:
        model = MaskablePPO.load(path, env=env, device=device)
    except ValueError as e:
        if "space" in str(e).lower():  # SB3's own space check when binding ``env``
            raise ValueError(f"checkpoint {path!r} does not fit {game.name}: {e}") from e
        raise ValueError(f"{path!r} is not a readable MaskablePPO checkpoint: {e}") from e
    except Exception as e:  # zipfile, pickle and torch errors all mean "not a checkpoint"
        raise ValueError(f"{path!r} is not a readable MaskablePPO checkpoint: {e}") from e
    _check_spaces(model, path, game, trained if info else _advice_of(model, game))
    return model


def _advice_of(model: Any, game: Game) -> str:
    """A sidecar-less checkpoint's advice, from its input size (ValueError when none fits)."""
    try:
        return advice_for_size(game, int(model.observation_space.shape[0]))
    except ValueError:
        return "none"  # let _check_spaces report the mismatch
