"""Batched drivers: one compiled call steps or plays a ``[B, S]`` batch of games.

Each driver takes the game's kernels as arguments (numba specialises it per game
and caches the result), and loops over games with ``prange`` so that the games
of a batch run on all threads. Nothing here knows any game's rules.

Randomness for *choosing* actions in :func:`random_playouts` comes from a
separate per-game generator, never from the state's own RNG, so a random
playout does not perturb the game's dice.
"""

from __future__ import annotations

import numpy as np

from .jit import pjit, prange
from .rng import next_u64, pick_uniform, stream


@pjit
def batch_init(init, states, params, seeds):
    """``init`` every game of the batch from its own seed."""
    for i in prange(states.shape[0]):
        init(states[i], params, seeds[i])


@pjit
def batch_legal_masks(legal_mask, states, params, masks):
    """Fill ``masks[i]`` with the legal mask of game ``i``; return legal counts."""
    counts = np.zeros(states.shape[0], np.int64)
    for i in prange(states.shape[0]):
        counts[i] = legal_mask(states[i], params, masks[i])
    return counts


@pjit
def batch_observe(observe, states, params, players, obs):
    """Fill ``obs[i]`` with the observation of seat ``players[i]`` in game ``i``."""
    for i in prange(states.shape[0]):
        observe(states[i], params, players[i], obs[i])


@pjit
def batch_step(
    step,
    is_terminal,
    current_player,
    legal_mask,
    init,
    states,
    params,
    actions,
    rewards,
    dones,
    reset_seeds,
    auto_reset,
    masks,
    players,
):
    """Step every game with its action, then refresh its mask and seat to move.

    The caller has already checked each action against ``masks`` (the masks the
    agent saw). ``rewards[i]`` gets the transition's per-seat rewards and
    ``dones[i]`` whether the game ended. With ``auto_reset`` an ended game is
    re-initialised from ``reset_seeds[i]`` (its final rewards stay in ``rewards``).
    """
    for i in prange(states.shape[0]):
        rewards[i, :] = 0.0
        step(states[i], params, actions[i], rewards[i])
        done = is_terminal(states[i], params)
        dones[i] = done
        if done and auto_reset:
            init(states[i], params, reset_seeds[i])
        legal_mask(states[i], params, masks[i])
        players[i] = current_player(states[i], params)


@pjit
def random_playouts(
    init, legal_mask, step, is_terminal, states, params, seeds, n_steps, n_actions, n_players
):
    """Play uniformly random legal moves for ``n_steps`` steps in every game.

    Games start from ``states`` as given; a game that ends is re-initialised
    from a seed derived from ``seeds[i]``. Returns ``(steps, games_finished,
    illegal)`` per game; ``illegal`` counts any step where the mask was empty
    before the game ended (a protocol violation the conformance kit checks).
    """
    B = states.shape[0]
    steps = np.zeros(B, np.int64)
    finished = np.zeros(B, np.int64)
    empty = np.zeros(B, np.int64)
    for i in prange(B):
        mask = np.zeros(n_actions, np.uint8)
        rewards = np.zeros(n_players, np.float32)
        rng_state = stream(seeds[i])
        for _ in range(n_steps):
            if is_terminal(states[i], params):
                finished[i] += 1
                init(states[i], params, np.int64(next_u64(rng_state, 0) >> np.uint64(2)))
            n = legal_mask(states[i], params, mask)
            if n == 0:
                empty[i] += 1
                break
            a = pick_uniform(mask, n, rng_state)
            step(states[i], params, a, rewards)
            steps[i] += 1
    return steps, finished, empty


@pjit
def random_games(
    legal_mask, step, is_terminal, states, params, seeds, max_steps, n_actions, n_players
):
    """Play every game of the batch to its end with uniformly random legal moves.

    The final states stay in ``states`` (for invariant checks). Returns per game the
    number of steps and a flag that is 1 if the mask was ever empty before the end.
    """
    B = states.shape[0]
    steps = np.zeros(B, np.int64)
    empty = np.zeros(B, np.int64)
    for i in prange(B):
        mask = np.zeros(n_actions, np.uint8)
        rewards = np.zeros(n_players, np.float32)
        rng_state = stream(seeds[i])
        while not is_terminal(states[i], params) and steps[i] < max_steps:
            n = legal_mask(states[i], params, mask)
            if n == 0:
                empty[i] = 1
                break
            step(states[i], params, pick_uniform(mask, n, rng_state), rewards)
            steps[i] += 1
    return steps, empty
