"""Run the conformance kit over every registered game and each declared small config."""

from __future__ import annotations

import conformance as kit
import pytest
from conftest import case_id, game_cases

from crusadegym.core import make_game

CASES = game_cases()


@pytest.fixture(scope="module", params=CASES, ids=[case_id(c) for c in CASES])
def game(request):
    name, options = request.param
    return make_game(name, **options)


def test_random_games_end_with_nonempty_masks(game):
    kit.check_random_games(game, n_games=3)


def test_every_legal_action_steps(game):
    kit.check_every_legal_action_steps(game, n_states=15)


def test_illegal_actions_rejected(game):
    kit.check_illegal_actions_rejected(game)


def test_same_seed_same_actions_same_game(game):
    kit.check_determinism(game)


def test_batched_stepping_equals_single(game):
    kit.check_batched_equals_single(game, n_games=4)


def test_clone_independence(game):
    kit.check_clone_independence(game)


def test_compiled_random_playouts(game):
    kit.check_compiled_playouts(game, n_games=8, n_steps=500)


def test_observations(game):
    kit.check_observations(game)


def test_action_strings_round_trip(game):
    kit.check_action_strings(game)
