"""Helpers for the Deus tests: a fixed 2-player board and position/step shorthands."""

from __future__ import annotations

import numpy as np

from crusadegym.core import make_game
from crusadegym.core.deus import layout as L
from crusadegym.core.deus.actions import parse_region
from crusadegym.core.deus.notation import parse_position

# A fixed board (tile slots a-d), centre then ring 1..6; villages a0 (6 VP), b6 (3 VP),
# c1 (4 VP) and d0 (6 VP); edges and neighbours as in tables.NEIGH for 4 tiles.
BOARD = """
tile a V F W S M s s
tile b F s s W S M V
tile c M V F W S s s
tile d V F W S M s s
"""


def game(**options):
    return make_game("deus", **{"players": 2, **options})


def position(g, text: str, seed: int = 0) -> np.ndarray:
    return parse_position(BOARD + text, g, seed)


def play(g, state: np.ndarray, *moves: str) -> np.ndarray:
    """Step each move (action text); return the last step's rewards."""
    r = np.zeros(g.num_players, np.float32)
    for m in moves:
        r = g.step(state, g.parse_action(m, state))
    return r


def legal(g, state: np.ndarray) -> set[str]:
    return {g.action_to_str(int(a), state) for a in g.legal_actions(state)}


def legal_regions(g, state: np.ndarray) -> set[str]:
    return {a.split()[1] for a in legal(g, state) if a.startswith("region ")}


def seat_value(state: np.ndarray, seat: int, slot: int) -> int:
    return int(state[L.player(seat) + slot])


def region(name: str) -> int:
    return parse_region(name)
