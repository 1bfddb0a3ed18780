"""Batched drivers: one compiled call steps or plays a ``[B, S]`` batch of games.

Each driver takes the game's kernels as arguments (numba specialises it per game
and caches the result), and loops over games with ``prange`` so that the games
of a batch run on all threads. Nothing here knows any game's rules.

Randomness for *choosing* actions in :func:`random_playouts` comes from a
separate per-game generator, never from the state's own RNG, so a random
playout does not perturb the game's dice. The drivers choose exactly as
:func:`crusadegym.core.rng.pick_uniform` would (the soak replays a slot with it),
only faster: :func:`pick_legal` reads the mask eight entries at a time.
"""

from __future__ import annotations

import numpy as np

from .jit import ajit, inline_jit, jit, pjit, prange
from .rng import next_u64, stream

_BYTE_LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
_BYTE_HIGH = np.uint64(0x8080808080808080)
_BYTE_ONES = np.uint64(0x0101010101010101)


@ajit
def mask_buffer(n_actions):
    """A zeroed mask of ``n_actions`` entries inside a buffer padded to whole words.

    Returns ``(mask, words)``: ``mask`` is what a game's ``legal_mask`` fills, and
    ``words`` the same bytes as ``uint64`` for :func:`pick_legal` (the padding stays 0).
    """
    buf = np.zeros((n_actions + 7) // 8 * 8, np.uint8)
    return buf[:n_actions], buf.view(np.uint64)


@jit
def _nonzero_bytes(x):
    """How many of the 8 bytes of ``x`` are nonzero."""
    high = (((x & _BYTE_LOW7) + _BYTE_LOW7) | x) & _BYTE_HIGH
    return np.int64(((high >> np.uint64(7)) * _BYTE_ONES) >> np.uint64(56))


@inline_jit
def pick_legal(words, n_legal, rng_state):
    """The same choice as ``pick_uniform(mask, n_legal, rng_state)`` (same draw, the
    same nonzero entry), skipping eight entries at a time where it can; ``words``
    from :func:`mask_buffer`. Assumes a little-endian machine (x86, ARM)."""
    r = np.int64((next_u64(rng_state, 0) >> np.uint64(33)) % np.uint64(n_legal))
    for w in range(words.shape[0]):
        x = words[w]
        if x == 0:
            continue
        k = _nonzero_bytes(x)
        if r >= k:
            r -= k
            continue
        for b in range(8):
            if (x >> np.uint64(8 * b)) & np.uint64(0xFF):
                if r == 0:
                    return w * 8 + b
                r -= 1
    return -1


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
        mask, words = mask_buffer(n_actions)
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
            a = pick_legal(words, n, rng_state)
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
        mask, words = mask_buffer(n_actions)
        rewards = np.zeros(n_players, np.float32)
        rng_state = stream(seeds[i])
        while not is_terminal(states[i], params) and steps[i] < max_steps:
            n = legal_mask(states[i], params, mask)
            if n == 0:
                empty[i] = 1
                break
            step(states[i], params, pick_legal(words, n, rng_state), rewards)
            steps[i] += 1
    return steps, empty
