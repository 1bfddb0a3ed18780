"""Optional potential-based reward shaping (``shaped_rewards=True``), one hook per game.

A game's potential ``phi(game, state) -> float32[P]`` scores each seat's position; a
transition adds ``phi(after) - phi(before)`` to the core rewards, with the potential
of a finished game taken as zero. Summed over a game the shaping cancels out, so
shaped returns equal the true returns (Ng et al., 1999, with gamma = 1).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crusadegym.core import Game

COIN_WEIGHT = 0.05
"""Shaping reward per coin of lead (small against the +-1 game result)."""


def _deus_lo_vult_potential(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's score (secured coins) minus the other seats' mean, in COIN_WEIGHT units."""
    from crusadegym.core.deus_lo_vult import layout as L

    n = game.num_players
    score = state[L.SCORE : L.SCORE + n].astype(np.float32)
    others = (score.sum() - score) / max(n - 1, 1)
    return np.float32(COIN_WEIGHT) * (score - others)


POTENTIALS: dict[str, Callable[[Game, np.ndarray], np.ndarray]] = {
    "deus_lo_vult": _deus_lo_vult_potential,
}


def register_potential(game_name: str, fn: Callable[[Game, np.ndarray], np.ndarray]) -> None:
    """Declare the shaping potential of ``game_name``."""
    POTENTIALS[game_name] = fn


class Shaper:
    """Tracks the potential along one game and returns the shaping term of each transition."""

    def __init__(self, game: Game) -> None:
        if game.name not in POTENTIALS:
            raise ValueError(
                f"shaped_rewards: no shaping potential for {game.name!r}; "
                f"games with one: {sorted(POTENTIALS)}"
            )
        self.game = game
        self.potential = POTENTIALS[game.name]
        self._phi = np.zeros(game.num_players, np.float32)

    def reset(self, state: np.ndarray) -> None:
        """Start tracking a fresh game."""
        self._phi = self.potential(self.game, state).astype(np.float32)

    def step(self, state: np.ndarray) -> np.ndarray:
        """Shaping of the transition that led to ``state`` (per seat)."""
        if self.game.is_terminal(state):
            phi = np.zeros(self.game.num_players, np.float32)
        else:
            phi = self.potential(self.game, state).astype(np.float32)
        delta, self._phi = phi - self._phi, phi
        return delta
