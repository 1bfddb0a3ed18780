"""Behaviour every env type shares, written once: illegal actions, seeds, spaces, metadata.

The AEC env, the single-agent env and the batched vector env all decide here

* what an illegal action does (:data:`ILLEGAL_MODES`). The default, ``"loss"``, follows
  PettingZoo classic's convention (its ``TerminateIllegalWrapper``): the game ends, the
  offender scores -1 and the other seats share +1 (:func:`forfeit_rewards`), ``info``
  says which action and why (``"illegal_action"``, ``"illegal_reason"``), and the env
  warns once. This is what off-the-shelf checkers and learners that sample unmasked
  actions need. ``"raise"`` (for debugging) raises the core
  :class:`~crusadegym.core.IllegalActionError` (a ``ValueError``) naming the action and
  the number of legal actions. An action that is not an integer always raises;
* what an action may be: an int, a numpy integer, or a 0-d / one-element integer array
  (what ``model.predict(obs)`` returns);
* how a game seed is drawn when the caller gives none (:func:`draw_seed`);
* the observation/action spaces and the metadata of a game (:func:`observation_box`,
  :func:`env_metadata`; :data:`CLASS_METADATA` is what the env classes declare before
  any game is built, so ``gymnasium.make(..., render_mode="rgb_array")`` finds the mode).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from crusadegym.core import Game, IllegalActionError, make_game
from crusadegym.core.protocol import action_int

ILLEGAL_MODES = ("loss", "raise")
DEFAULT_ILLEGAL = "loss"
"""PettingZoo classic's convention: an illegal action loses the game (see the module doc)."""
RENDER_MODES = ("ansi", "rgb_array", "human")
RENDER_FPS = 2
CLASS_METADATA = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}
"""Metadata every env class declares; instances add the game's own (:func:`env_metadata`)."""
ENV_VERSION = 0
"""Version of the env wrappers themselves (the ``_v0`` in ``deus_lo_vult_v0``)."""

SEED_BOUND = 2**63 - 1


def check_illegal_mode(mode: str) -> str:
    """Return ``mode`` if it is one of :data:`ILLEGAL_MODES`, else raise ValueError."""
    if mode not in ILLEGAL_MODES:
        raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {mode!r}")
    return mode


def check_render_mode(mode: str | None) -> str | None:
    """Return ``mode`` if it is ``None`` or one of :data:`RENDER_MODES`, else raise ValueError."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}")
    return mode


def build_game(game_name: str, config: dict[str, Any]) -> Game:
    """The core game for ``game_name`` under keyword options ``config``.

    ``preset="kyivan"`` (any name of ``campaign.tables.PRESETS``) with ``deus_lo_vult``
    or ``deus_lo_vult_campaign`` builds the Campaign from that Conventional Preset [R
    Part 2 "Conventional Presets/Builds"]; the other options override the preset's
    (``campaign.presets.game_from_options``). Without ``preset`` the game is
    ``game_name`` under ``config`` (``deus_lo_vult``: the Duel, unchanged).
    """
    if not isinstance(game_name, str):
        raise TypeError(f"game_name must be a str, got {type(game_name).__name__}")
    if "preset" not in config:
        return make_game(game_name, **config)
    from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options

    return game_from_options(game_name, config)


def legal_action(
    game: Game, state: np.ndarray, action: Any, illegal: str, mask: np.ndarray | None = None
) -> tuple[int | None, str]:
    """``(action as an int, "")`` if ``action`` is legal in ``state`` (whose mask may be given).

    An illegal action raises :class:`~crusadegym.core.IllegalActionError` under
    ``illegal="raise"`` and returns ``(None, reason)`` under ``illegal="loss"`` (the
    caller then ends the game with :func:`forfeit_rewards`). Non-integer actions always
    raise.
    """
    try:
        return game.check_action(state, action, mask), ""
    except IllegalActionError as err:
        if illegal == "raise" or action_int(action) is None:
            raise
        return None, str(err)


def forfeit_info(action: Any, reason: str) -> dict[str, Any]:
    """The ``info`` entries of a game ended by an illegal action."""
    return {"illegal_action": action_int(action), "illegal_reason": reason}


def warn_illegal_once(env: Any, seat: int, reason: str) -> None:
    """Warn (once per env object) that an illegal action ended a game as a loss."""
    if getattr(env, "_warned_illegal", False):
        return
    env._warned_illegal = True
    import gymnasium

    gymnasium.logger.warn(
        f"{reason}; the game ends as a loss for seat {seat} (illegal='loss', PettingZoo "
        "classic's convention). Mask your actions, or pass illegal='raise' to get an "
        "exception. Further illegal actions of this env are not reported."
    )


def forfeit_rewards(num_players: int, offender: int) -> np.ndarray:
    """Per-seat rewards of a game lost by an illegal action: -1 offender, +1 shared by the rest."""
    rewards = np.full(num_players, 1.0 / max(num_players - 1, 1), np.float32)
    rewards[offender] = -1.0
    return rewards


def check_batch_actions(actions: Any, masks: np.ndarray) -> np.ndarray:
    """``actions`` as an int64 ``[B]`` array, after checking its shape and integer dtype.

    Whether each entry is legal under its row of ``masks`` (the masks the caller was
    shown) is :func:`illegal_rows`' job.
    """
    arr = np.asarray(actions)
    if arr.shape != (masks.shape[0],):
        raise ValueError(f"actions must have shape ({masks.shape[0]},), got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers, got dtype {arr.dtype}")
    return arr.astype(np.int64)


def illegal_rows(actions: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Indices of the rows whose action is out of range or masked out."""
    in_range = (actions >= 0) & (actions < masks.shape[1])
    legal = np.zeros(actions.shape[0], bool)
    rows = np.flatnonzero(in_range)
    legal[rows] = masks[rows, actions[rows]] != 0
    return np.flatnonzero(~legal)


def batch_illegal_error(actions: np.ndarray, masks: np.ndarray, bad: np.ndarray) -> ValueError:
    """A readable error naming the envs (at most 10) whose action is illegal."""
    shown = ", ".join(
        f"env {i}: action {int(actions[i])} ({int(masks[i].sum())} legal)" for i in bad[:10]
    )
    more = f" and {bad.size - 10} more" if bad.size > 10 else ""
    return IllegalActionError(f"illegal action(s) in env(s) {bad.tolist()[:10]}{more}: {shown}")


def draw_seed(rng: np.random.Generator) -> int:
    """A fresh game seed drawn from ``rng`` (so unseeded resets are reproducible too)."""
    return int(rng.integers(0, SEED_BOUND))


def observation_box(game: Game):
    """The flat float32 observation space; bounds from ``sizes`` when the game declares them.

    A game may add ``"obs_low"`` / ``"obs_high"`` to its ``sizes(params)``; otherwise
    the box is unbounded.
    """
    from gymnasium import spaces

    sizes = game.spec.sizes(game.params)
    low = np.float32(sizes.get("obs_low", -np.inf))
    high = np.float32(sizes.get("obs_high", np.inf))
    return spaces.Box(low, high, (game.obs_size,), np.float32)


def max_players(game: Game) -> int:
    """Most seats the game supports (``spec.max_players`` when declared, else this config's)."""
    return int(getattr(game.spec, "max_players", game.num_players))


def env_metadata(game: Game) -> dict[str, Any]:
    """The metadata dict shared by every env type of ``game``."""
    return {
        "name": f"{game.name}_v{ENV_VERSION}",
        "version": game.spec.version,
        "is_parallelizable": False,
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "max_players": max_players(game),
        "stand_in_data": bool(game.spec.stand_in_data),
        **_campaign_metadata(game),
    }


def _campaign_metadata(game: Game) -> dict[str, Any]:
    """A Campaign's preset and the note on its stand-in data (empty for other games)."""
    if game.name != "deus_lo_vult_campaign":
        return {}
    from crusadegym.core.deus_lo_vult.tables import STAND_IN_NOTE

    return {"preset": game.config.preset, "stand_in_note": STAND_IN_NOTE}


def render_state(game: Game, state: np.ndarray, mode: str | None) -> str | np.ndarray | None:
    """Render ``state`` in ``mode``: ansi text, an RGB array, or print it (``"human"``)."""
    if mode is None:
        return None
    if mode == "rgb_array":
        from .render import render_rgb

        return render_rgb(game, state)
    text = game.render(state)
    if game.name == "deus_lo_vult_campaign":  # a status line above the notation
        from .render_dlv import campaign_status

        text = campaign_status(game, state) + "\n" + text
    if mode == "human":
        print(text)
        return None
    return text
