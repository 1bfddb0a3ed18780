"""1,000 complete random Deus lo Vult games per player count, with invariants checked.

Games run through the compiled batch driver (``core.drivers.random_games``); the
final state of every game is checked, and a slice of games is stepped through the
checked API with invariants verified after every single step.
"""

from __future__ import annotations

import numpy as np
import pytest
from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.drivers import random_games

DEPLOYMENTS = {2: "latin", 3: "saracenic", 4: "campaign"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_random_games_end_and_keep_invariants(players):
    game = make_game(
        "deus_lo_vult", players=players, deployment=DEPLOYMENTS[players], rounds=3, max_turns=40
    )
    seeds = np.arange(1000, dtype=np.int64) + 1000 * players
    states = game.new_states(seeds)
    steps, empty = random_games(
        game.k.legal_mask,
        game.k.step,
        game.k.is_terminal,
        states,
        game.params,
        seeds,
        game.max_steps,
        game.num_actions,
        game.num_players,
    )
    assert empty.sum() == 0, "a running game had no legal action"
    assert np.all(states[:, L.OVER] == 1), "a game did not end within max_steps"
    assert np.all(steps <= game.max_steps)
    for i in range(len(states)):
        errors = game.check_invariants(states[i])
        assert not errors, f"seed {seeds[i]}: {errors[:3]}"
    returns = np.array([game.returns(s) for s in states])
    assert np.all(np.isin(returns, (-1.0, 0.0, 1.0)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_step(players):
    game = make_game(
        "deus_lo_vult", players=players, deployment=DEPLOYMENTS[players], rounds=1, max_turns=30
    )
    rng = np.random.default_rng(players)
    for seed in range(3):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            game.step(state, int(rng.choice(game.legal_actions(state))))
            errors = game.check_invariants(state)
            assert not errors, errors[:3]
