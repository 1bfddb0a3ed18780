"""The shared core: the in-state RNG, the game registry and the batched drivers."""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import available_games, get_spec, make_game, register
from crusadegym.core import rng as R
from crusadegym.core.drivers import batch_legal_masks, batch_observe
from crusadegym.core.jit import ajit


@ajit
def _draws(seed, n, k):
    state = np.zeros(4, np.int32)
    R.seed(state, 1, seed)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = R.randint(state, 1, k)
    return out, state


@ajit
def _shuffled(seed, n):
    state = np.zeros(2, np.int32)
    R.seed(state, 0, seed)
    arr = np.arange(n)
    R.shuffle(state, 0, arr, n)
    return arr


# ---------------------------------------------------------------- RNG
def test_rng_is_deterministic_and_lives_in_the_state():
    a, sa = _draws(42, 1000, 6)
    b, sb = _draws(42, 1000, 6)
    c, _ = _draws(43, 1000, 6)
    assert np.array_equal(a, b) and np.array_equal(sa, sb)
    assert not np.array_equal(a, c)
    assert sa[0] == 0 and sa[3] == 0  # only the two slots at the offset are touched


def test_randint_covers_its_range_uniformly():
    draws, _ = _draws(7, 60_000, 6)
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    expected = 10_000
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 25.0, counts  # 5 degrees of freedom: p < 1e-4 for a fair generator


def test_shuffle_is_a_permutation_and_every_position_moves():
    perms = np.array([_shuffled(s, 8) for s in range(2000)])
    for p in perms[:50]:
        assert sorted(p.tolist()) == list(range(8))
    # each value lands in each position about 1/8 of the time
    freq = np.array([(perms[:, i] == v).mean() for i in range(8) for v in range(8)])
    assert freq.min() > 0.08 and freq.max() < 0.17


def test_choice_streams_do_not_touch_game_dice():
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=10)
    a = game.new_states(np.array([5, 5], np.int64))
    game.play_random_games(a, np.array([1, 2], np.int64))
    # the same game seed played with different choice streams ends differently
    assert not np.array_equal(a[0], a[1])
    mask = np.array([0, 1, 0, 1, 1], np.uint8)
    picks = {R.pick_uniform(mask, 3, R.stream(s)) for s in range(50)}
    assert picks == {1, 3, 4}


# ---------------------------------------------------------------- registry
def test_registry_lists_and_makes_games():
    assert "deus_lo_vult" in available_games()
    assert get_spec("deus_lo_vult").name == "deus_lo_vult"
    game = make_game("deus_lo_vult", players=3)
    assert game.num_players == 3 and game.config.players == 3


def test_registry_errors_are_clear():
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        make_game("chess")
    with pytest.raises(ValueError, match="unknown option"):
        make_game("deus_lo_vult", playrs=2)
    spec = get_spec("deus_lo_vult")
    with pytest.raises(ValueError, match="either a config object or keyword options"):
        make_game("deus_lo_vult", spec.config_cls(), players=2)


def test_register_replaces_by_name():
    import tinygame

    register(tinygame.SPEC)
    assert get_spec("tiny_tictactoe") is tinygame.SPEC


# ---------------------------------------------------------------- drivers
@pytest.mark.parametrize("name", ["tiny_tictactoe", "deus_lo_vult"])
def test_batch_masks_and_observations_equal_single_calls(name):
    game = make_game(name, **({"rounds": 1, "max_turns": 10} if name == "deus_lo_vult" else {}))
    seeds = np.arange(6, dtype=np.int64)
    states = game.new_states(seeds)
    masks = np.zeros((6, game.num_actions), np.uint8)
    counts = batch_legal_masks(game.k.legal_mask, states, game.params, masks)
    obs = np.zeros((6, game.obs_size), np.float32)
    seats = np.array([game.current_player(s) for s in states], np.int64)
    batch_observe(game.k.observe, states, game.params, seats, obs)
    for i, s in enumerate(states):
        assert np.array_equal(masks[i], game.legal_mask(s)) and counts[i] == masks[i].sum()
        assert np.array_equal(obs[i], game.observe(s, int(seats[i])))


def test_random_games_play_every_game_to_its_end():
    """``Game.play_random_games`` (the ``random_games`` driver) ends every game."""
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=15)
    seeds = np.arange(50, dtype=np.int64)
    states = game.new_states(seeds)
    steps, empty = game.play_random_games(states, seeds)
    assert empty.sum() == 0 and np.all(steps > 0)
    assert all(game.is_terminal(s) for s in states)
    with pytest.raises(ValueError, match="seeds must have shape"):
        game.play_random_games(game.new_states(seeds), seeds[:3])
    # the batch is reproducible: same seeds, same final states
    again = game.new_states(seeds)
    game.play_random_games(again, seeds)
    assert np.array_equal(states, again)
