"""The turn cap counts per seat (issue #36, ``core/turn_cap.py``), in every game.

Random play under a small ``max_turns`` (no game ends by its rules that fast) must be cut
exactly when every seat has played ``max_turns`` turns: the state's turn counter, which
counts all seats' turns, then equals ``max_turns * players``, and the game says it was
truncated.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.crusaders import layout as crusaders_layout
from crusadegym.core.deus import layout as deus_layout
from crusadegym.core.deus_lo_vult import layout as dlv_layout
from crusadegym.core.turn_cap import turn_limit

TURN_SLOT = {
    "deus_lo_vult": dlv_layout.TURN,
    "deus": deus_layout.TURN,
    "crusaders": crusaders_layout.TURN,
}
MAX_TURNS = 3


def random_play(game, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    while not game.is_terminal(state):
        game.step(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(TURN_SLOT))
def test_the_cap_cuts_the_game_after_max_turns_for_every_seat(name: str, players: int) -> None:
    game = make_game(name, players=players, max_turns=MAX_TURNS)
    for seed in range(3):
        state = random_play(game, seed)
        assert game.is_truncated(state)
        assert int(state[TURN_SLOT[name]]) == turn_limit(MAX_TURNS, players) == MAX_TURNS * players
