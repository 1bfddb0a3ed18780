"""Heuristic for ``tiny_tictactoe`` (the test-suite's example game).

Strategy, read off the observation (own marks, opponent marks, blocked cells):
complete an own line if possible; else block an opponent's line; else take the
centre; else a random legal cell.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

from . import Heuristic

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _completing(marks: np.ndarray, mask: np.ndarray) -> int:
    """A legal cell that completes a line of ``marks`` (two present), or -1."""
    for line in LINES:
        have = [c for c in line if marks[c]]
        free = [c for c in line if mask[c]]
        if len(have) == 2 and len(free) == 1:
            return free[0]
    return -1


def choose(game: Game, state: np.ndarray, rng: np.random.Generator) -> int:
    """Win, else block, else centre, else random."""
    obs = game.observe(state, game.current_player(state))
    mask = game.legal_mask(state)
    for marks in (obs[0:9], obs[9:18]):
        cell = _completing(marks, mask)
        if cell >= 0:
            return cell
    if mask[4]:
        return 4
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


HEURISTIC = Heuristic(game="tiny_tictactoe", description=__doc__.split("\n\n")[1], choose=choose)
