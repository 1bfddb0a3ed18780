"""Potential-based reward shaping for training: none, the envs' coin lead, or the heuristic.

A shaping term ``weight * (phi(after) - phi(before))`` per learner transition (the
learner's move plus the opponents' replies), with
the potential of a finished game taken as zero, sums over a game to
``-weight * phi(start)``: a constant, so the ranking of policies by true result is
unchanged (Ng et al., 1999). Kinds (:data:`SHAPING_KINDS`):

* ``"none"``: the game result only (+1 win, 0 draw, -1 loss at the end);
* ``"coins"``: the envs' per-game potential (:mod:`crusadegym.envs.shaping`; Deus lo
  Vult: 0.05 per coin of lead), which pays only once a coin is secured;
* ``"heuristic"``: the heuristic agent's evaluation in [-1, 1]
  (:mod:`crusadegym.agents.heuristics`), which also pays for carrying coins home
  and reaching plunder spots: a much denser signal for short runs.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

SHAPING_KINDS = ("none", "coins", "heuristic")


class PotentialShaper:
    """Tracks ``phi`` along one game and returns each transition's shaping term per seat."""

    def __init__(self, game: Game, kind: str = "heuristic", weight: float = 1.0) -> None:
        if kind not in SHAPING_KINDS:
            raise ValueError(f"shaping must be one of {SHAPING_KINDS}, got {kind!r}")
        self.game = game
        self.kind = kind
        self.weight = np.float32(weight)
        self._coins = None
        if kind == "coins":
            from crusadegym.envs.shaping import Shaper

            self._coins = Shaper(game)
        elif kind == "heuristic":
            from crusadegym.agents.heuristics import value_kernel

            self._value = value_kernel(game)
        self._phi = np.zeros(game.num_players, np.float32)

    def potential(self, state: np.ndarray) -> np.ndarray:
        """``weight * phi(state)`` per seat (zero once the game is over)."""
        out = np.zeros(self.game.num_players, np.float32)
        if self.kind == "heuristic" and not self.game.is_terminal(state):
            self._value(state, self.game.params, out)
        return self.weight * out

    def reset(self, state: np.ndarray) -> None:
        """Start tracking a fresh game at ``state``."""
        if self._coins is not None:
            self._coins.reset(state)
        self._phi = self.potential(state)

    def step(self, state: np.ndarray) -> np.ndarray:
        """Shaping of the transition(s) that led to ``state``, per seat."""
        if self.kind == "none":
            return np.zeros(self.game.num_players, np.float32)
        if self._coins is not None:
            return self.weight * self._coins.step(state)
        phi = self.potential(state)
        delta, self._phi = phi - self._phi, phi
        return delta
