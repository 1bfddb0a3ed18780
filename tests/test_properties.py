"""Property tests (hypothesis): round trips and independence on randomly reached states.

A position is drawn as a seed, a number of uniformly random warm-up steps (so that
positions deep into a game are reached), and a list of choices; choice ``c`` at a
step plays the ``c % n_legal``-th legal action, so every draw is a legal game
prefix and hypothesis can shrink a failure to a short one.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import SMALL_GAMES as SMALL
from hypothesis import given, settings
from hypothesis import strategies as st

from crusadegym.core import Game, make_game
from crusadegym.core.records import load_replay, load_state, replay, save_replay, save_state

SETTINGS = settings(max_examples=25, deadline=None)
seeds = st.integers(min_value=0, max_value=2**62)
choices = st.lists(st.integers(min_value=0, max_value=10**6), max_size=60)
warmups = st.integers(min_value=0, max_value=600)


@pytest.fixture(scope="module", params=SMALL, ids=[n for n, _ in SMALL])
def game(request) -> Game:
    name, options = request.param
    try:
        return make_game(name, **options)
    except (ImportError, AttributeError) as e:
        pytest.skip(f"{name} does not import yet: {e}")


def walk(
    game: Game, seed: int, warmup: int, picks: list[int]
) -> tuple[list[int], list[np.ndarray]]:
    """Play ``warmup`` random steps, then ``picks``, from ``seed``; the actions and states."""
    rng = np.random.default_rng(seed)
    picks = [int(x) for x in rng.integers(0, 10**6, warmup)] + list(picks)
    state = game.new_state(seed)
    actions, states = [], [state.copy()]
    for c in picks:
        if game.is_terminal(state):
            break
        legal = game.legal_actions(state)
        a = int(legal[c % len(legal)])
        game.step(state, a)
        actions.append(a)
        states.append(state.copy())
    return actions, states


@SETTINGS
@given(seed=seeds, warmup=warmups, picks=choices)
def test_action_strings_round_trip_for_every_action(game, seed, warmup, picks):
    _, states = walk(game, seed, warmup, picks)
    state = states[-1]
    for a in range(game.num_actions):
        text = game.action_to_str(a, state)
        assert isinstance(text, str) and text
        assert game.parse_action(text, state) == a, text


@SETTINGS
@given(seed=seeds, warmup=warmups, picks=choices, pick=st.integers(min_value=0, max_value=10**6))
def test_stepping_a_clone_leaves_the_original_alone(game, seed, warmup, picks, pick):
    _, states = walk(game, seed, warmup, picks)
    state = states[-1]
    if game.is_terminal(state):
        return
    original = state.copy()
    legal = game.legal_actions(state)
    a = int(legal[pick % len(legal)])
    clone = state.copy()
    r_clone = game.step(clone, a)
    assert np.array_equal(state, original)
    r_state = game.step(state, a)  # the same action on the original: the same result
    assert np.array_equal(state, clone) and np.array_equal(r_state, r_clone)


@SETTINGS
@given(seed=seeds, warmup=warmups, picks=choices)
def test_replay_round_trip_reproduces_every_state(game, seed, warmup, picks):
    actions, states = walk(game, seed, warmup, picks)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.json"
        save_replay(path, game, seed, actions)
        _, replayed = replay(load_replay(path))
    assert np.array_equal(replayed, np.stack(states))


@SETTINGS
@given(seed=seeds, warmup=warmups, picks=choices)
def test_state_file_round_trip(game, seed, warmup, picks):
    _, states = walk(game, seed, warmup, picks)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.npz"
        save_state(path, game, states[-1])
        _, loaded = load_state(path, game)
    assert np.array_equal(loaded, states[-1])


@SETTINGS
@given(seed=seeds, warmup=warmups, picks=choices)
def test_reached_states_are_sound(game, seed, warmup, picks):
    """Invariants hold, masks are non-empty until the end, observations are finite."""
    _, states = walk(game, seed, warmup, picks)
    for state in states:
        assert game.check_invariants(state) == []
        assert game.legal_mask(state).any() != game.is_terminal(state)
        for p in range(game.num_players):
            assert np.all(np.isfinite(game.observe(state, p)))
