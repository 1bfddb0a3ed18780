"""The conformance kit: protocol checks any registered game must pass.

Each function takes a :class:`~crusadegym.core.Game` and raises AssertionError on
a violation. ``tests/test_conformance.py`` runs all of them over every game and
every declared test config; a new game plugs in by registering its SPEC.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game, IllegalActionError
from crusadegym.core.drivers import batch_legal_masks, batch_step, random_playouts


def play_random(game: Game, seed: int, rng: np.random.Generator, record: bool = False):
    """Play one random game through the checked API; return (actions, states, rewards)."""
    state = game.new_state(seed)
    actions, states, total = [], [state.copy()] if record else [], np.zeros(game.num_players)
    for _ in range(game.max_steps + 1):
        if game.is_terminal(state):
            break
        mask = game.legal_mask(state)
        assert mask.any(), f"empty mask before the end (step {len(actions)})"
        a = int(rng.choice(np.flatnonzero(mask)))
        r = game.step(state, a)
        assert r.shape == (game.num_players,) and r.dtype == np.float32
        total += r
        actions.append(a)
        if record:
            states.append(state.copy())
    assert game.is_terminal(state), f"game did not end within max_steps={game.max_steps}"
    assert not game.legal_mask(state).any(), "mask must be empty once the game is over"
    assert game.current_player(state) == -1
    return actions, states, total


def check_random_games(game: Game, n_games: int = 3, seed: int = 0) -> None:
    """Masks non-empty until the end, games end within max_steps, rewards well shaped."""
    rng = np.random.default_rng(seed)
    for g in range(n_games):
        _, _, total = play_random(game, seed * 100_003 + g, rng)
        state_returns = total  # rewards summed over the game equal the final returns
        assert np.all(np.isfinite(state_returns))


def check_every_legal_action_steps(game: Game, n_states: int = 15, seed: int = 0) -> None:
    """From sampled positions, every legal action steps without error on a clone."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(n_states):
        if game.is_terminal(state):
            state = game.new_state(int(rng.integers(1 << 30)))
        legal = game.legal_actions(state)
        for a in legal:
            clone = state.copy()
            game.step(clone, int(a))
        game.step(state, int(rng.choice(legal)))


def check_illegal_actions_rejected(game: Game, seed: int = 0) -> None:
    """Out-of-range, non-integer and illegal actions raise IllegalActionError."""
    state = game.new_state(seed)
    before = state.copy()
    for bad in (-1, game.num_actions, 10**9, 1.5, "3", None, True):
        try:
            game.step(state, bad)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"action {bad!r} was accepted")
    mask = game.legal_mask(state)
    illegal = np.flatnonzero(mask == 0)
    if illegal.size:
        try:
            game.step(state, int(illegal[0]))
        except IllegalActionError as e:
            assert str(illegal[0]) in str(e)
        else:
            raise AssertionError("an illegal action was accepted")
    assert np.array_equal(state, before), "a rejected action changed the state"


def check_determinism(game: Game, seed: int = 7) -> None:
    """Same seed + same actions = same states, step by step."""
    actions, states, _ = play_random(game, seed, np.random.default_rng(seed), record=True)
    replay = game.new_state(seed)
    assert np.array_equal(replay, states[0])
    for a, expected in zip(actions, states[1:], strict=True):
        game.step(replay, a)
        assert np.array_equal(replay, expected)
    other = game.new_state(seed + 1)
    assert other.shape == replay.shape


def check_batched_equals_single(game: Game, n_games: int = 8, seed: int = 3) -> None:
    """Stepping a [B, S] batch with the compiled driver equals stepping each game alone."""
    seeds = np.arange(seed, seed + n_games, dtype=np.int64)
    batch = game.new_states(seeds)
    singles = [game.new_state(int(s)) for s in seeds]
    for i in range(n_games):
        assert np.array_equal(batch[i], singles[i]), "batch_init differs from init"
    rng = np.random.default_rng(seed)
    k = game.k
    masks = np.zeros((n_games, game.num_actions), np.uint8)
    batch_legal_masks(k.legal_mask, batch, game.params, masks)
    rewards = np.zeros((n_games, game.num_players), np.float32)
    dones = np.zeros(n_games, np.bool_)
    players = np.zeros(n_games, np.int64)
    for _ in range(game.max_steps):
        live = [i for i in range(n_games) if not game.is_terminal(singles[i])]
        if not live:
            break
        actions = np.zeros(n_games, np.int64)
        for i in range(n_games):
            legal = np.flatnonzero(masks[i])
            actions[i] = rng.choice(legal) if legal.size else 0
        live_idx = np.array(live)
        sub = np.ascontiguousarray(batch[live_idx])
        sub_masks = np.ascontiguousarray(masks[live_idx])
        batch_step(
            k.step,
            k.is_terminal,
            k.current_player,
            k.legal_mask,
            k.init,
            sub,
            game.params,
            actions[live_idx],
            rewards[: len(live)],
            dones[: len(live)],
            seeds[live_idx],
            False,
            sub_masks,
            players[: len(live)],
        )
        batch[live_idx] = sub
        masks[live_idx] = sub_masks
        for j, i in enumerate(live):
            r = game.step(singles[i], int(actions[i]))
            assert np.array_equal(batch[i], singles[i]), "batched step differs from single"
            assert np.allclose(rewards[j], r)
            assert players[j] == game.current_player(singles[i])
            assert np.array_equal(masks[i], game.legal_mask(singles[i]))


def check_clone_independence(game: Game, seed: int = 5) -> None:
    """Mutating a copy of a state never touches the original."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(10):
        if game.is_terminal(state):
            break
        game.step(state, int(rng.choice(game.legal_actions(state))))
    original = state.copy()
    clone = state.copy()
    for _ in range(20):
        if game.is_terminal(clone):
            break
        game.step(clone, int(rng.choice(game.legal_actions(clone))))
    assert np.array_equal(state, original)


def check_compiled_playouts(game: Game, n_games: int = 16, n_steps: int = 2000) -> None:
    """The compiled random-playout driver never meets an empty mask before a game's end."""
    seeds = np.arange(n_games, dtype=np.int64)
    states = game.new_states(seeds)
    steps, finished, empty = random_playouts(
        game.k.init,
        game.k.legal_mask,
        game.k.step,
        game.k.is_terminal,
        states,
        game.params,
        seeds + 1000,
        n_steps,
        game.num_actions,
        game.num_players,
    )
    assert empty.sum() == 0, "empty legal mask inside a running game"
    assert steps.sum() == n_games * n_steps


def check_observations(game: Game, seed: int = 11) -> None:
    """Observations have the declared size, are finite, and are deterministic."""
    state = game.new_state(seed)
    for p in range(game.num_players):
        o = game.observe(state, p)
        assert o.shape == (game.obs_size,) and o.dtype == np.float32
        assert np.all(np.isfinite(o))
        assert np.array_equal(o, game.observe(state.copy(), p))
    sizes = game.spec.sizes(game.params)
    rng = np.random.default_rng(seed)
    for _ in range(200):
        if game.is_terminal(state):
            break
        game.step(state, int(rng.choice(game.legal_actions(state))))
        for p in range(game.num_players):
            o = game.observe(state, p)
            assert o.min() >= sizes.get("obs_low", -np.inf), "observation below obs_low"
            assert o.max() <= sizes.get("obs_high", np.inf), "observation above obs_high"


def check_action_strings(game: Game, seed: int = 13) -> None:
    """action_to_str and parse_action are inverse on every legal action."""
    state = game.new_state(seed)
    for a in game.legal_actions(state):
        text = game.action_to_str(int(a), state)
        assert game.parse_action(text, state) == a, text


ALL_CHECKS = [
    check_random_games,
    check_every_legal_action_steps,
    check_illegal_actions_rejected,
    check_determinism,
    check_batched_equals_single,
    check_clone_independence,
    check_compiled_playouts,
    check_observations,
    check_action_strings,
]


def check_quick(game: Game) -> None:
    """A short run of the kit for slow configs (module tests of a rule module switched
    on): every check but the batched and compiled-playout ones, on fewer states."""
    check_random_games(game, n_games=2)
    check_every_legal_action_steps(game, n_states=8)
    check_illegal_actions_rejected(game)
    check_determinism(game)
    check_clone_independence(game)
    check_observations(game)
    check_action_strings(game)
