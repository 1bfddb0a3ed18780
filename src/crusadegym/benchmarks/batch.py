"""The compiled batched driver, called the one way every measurement calls it."""

from __future__ import annotations

from typing import Any

import numpy as np

from crusadegym.core.drivers import random_playouts


def new_batch(game: Any, batch: int, seed: int = 0) -> np.ndarray:
    """A ``[batch, S]`` batch of fresh games from seeds ``seed, seed + 1, ...``."""
    return game.new_states(np.arange(batch, dtype=np.int64) + seed)


def playouts(game: Any, states: np.ndarray, seeds: np.ndarray, n_steps: int) -> tuple:
    """``random_playouts`` on ``states``: ``(steps, finished, empty)`` per game."""
    k = game.k
    return random_playouts(
        k.init,
        k.legal_mask,
        k.step,
        k.is_terminal,
        states,
        game.params,
        seeds,
        int(n_steps),
        game.num_actions,
        game.num_players,
    )
