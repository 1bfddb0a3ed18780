"""Checkpoints: a MaskablePPO ``.zip`` plus a JSON sidecar saying what it was trained for.

The sidecar (``name.json`` next to ``name.zip``) records the game, its config and
version, the observation size, the action count, the crusadegym version and the
timesteps trained. :func:`load_model` checks a checkpoint against the game it is
meant for *before* handing it to SB3, so a missing, corrupt or incompatible file
fails with a readable error instead of a shape mismatch deep inside torch.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from crusadegym.core import Game

import crusadegym

SIDECAR_FORMAT = 1


def sidecar_path(checkpoint: str | os.PathLike) -> str:
    """``runs/x/final.zip`` -> ``runs/x/final.json``."""
    root, _ = os.path.splitext(os.fspath(checkpoint))
    return root + ".json"


def checkpoint_info(game: Game, timesteps: int, extra: dict | None = None) -> dict:
    """The sidecar content for a model of ``game`` trained for ``timesteps`` steps."""
    return {
        "format": SIDECAR_FORMAT,
        "game": game.name,
        "game_version": game.spec.version,
        "config": game.config_dict(),
        "layout_hash": game.layout_hash(),
        "obs_size": game.obs_size,
        "num_actions": game.num_actions,
        "crusadegym_version": crusadegym.__version__,
        "timesteps": int(timesteps),
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **(extra or {}),
    }


def save_checkpoint(model: Any, path: str, game: Game, extra: dict | None = None) -> str:
    """Save ``model`` to ``path`` (``.zip``) and its sidecar; return the ``.zip`` path."""
    if not path.endswith(".zip"):
        path += ".zip"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    model.save(path)
    with open(sidecar_path(path), "w") as f:
        json.dump(checkpoint_info(game, model.num_timesteps, extra), f, indent=1)
    return path


def read_sidecar(path: str) -> dict | None:
    """The sidecar of checkpoint ``path`` (``None`` if absent); ValueError if unreadable."""
    side = sidecar_path(path)
    if not os.path.isfile(side):
        return None
    try:
        with open(side) as f:
            info = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"checkpoint sidecar {side!r} is not readable JSON: {e}") from e
    if not isinstance(info, dict):
        raise ValueError(f"checkpoint sidecar {side!r} is not a JSON object")
    return info


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
    for key, want in (("obs_size", game.obs_size), ("num_actions", game.num_actions)):
        if info.get(key) != want:
            raise ValueError(
                f"{where} has {key}={info.get(key)} but {game.name} with config "
                f"{game.config_dict()} has {key}={want} (trained with config {info.get('config')})"
            )
    return info


def _check_spaces(model: Any, path: str, game: Game) -> None:
    obs_shape = tuple(model.observation_space.shape)
    n_actions = int(getattr(model.action_space, "n", -1))
    if obs_shape != (game.obs_size,) or n_actions != game.num_actions:
        raise ValueError(
            f"checkpoint {path!r} expects observations {obs_shape} and {n_actions} actions; "
            f"{game.name} has ({game.obs_size},) and {game.num_actions}"
        )


def load_model(path: str | os.PathLike, game: Game, env: Any = None, device: str = "cpu") -> Any:
    """Load the MaskablePPO checkpoint at ``path`` for ``game`` (optionally bound to ``env``).

    FileNotFoundError for a missing file; ValueError for a corrupt file or one trained
    for another game, observation size or action count.
    """
    from sb3_contrib import MaskablePPO

    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no checkpoint at {path!r}")
    check_compatible(path, game)
    try:
        model = MaskablePPO.load(path, env=env, device=device)
    except ValueError as e:
        if "space" in str(e).lower():  # SB3's own space check when binding ``env``
            raise ValueError(f"checkpoint {path!r} does not fit {game.name}: {e}") from e
        raise ValueError(f"{path!r} is not a readable MaskablePPO checkpoint: {e}") from e
    except Exception as e:  # zipfile, pickle and torch errors all mean "not a checkpoint"
        raise ValueError(f"{path!r} is not a readable MaskablePPO checkpoint: {e}") from e
    _check_spaces(model, path, game)
    return model
