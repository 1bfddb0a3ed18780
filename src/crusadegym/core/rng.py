"""A small, fast RNG whose whole state lives inside a game's state array.

Two int32 slots at ``off`` and ``off + 1`` hold the 64-bit state of a
xorshift64* generator (Vigna, 2016). Because the RNG is part of the state, a
state array fully determines its future given the actions: cloning a state
clones its dice, and batched, replayed and searched games stay bit-identical.

All functions are ``@njit`` and callable from kernels.
"""

from __future__ import annotations

import numpy as np

from .jit import ajit, jit

RNG_SLOTS = 2
_MASK32 = np.uint64(0xFFFFFFFF)
_MULT = np.uint64(0x2545F4914F6CDD1D)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@jit
def _load(state, off):
    lo = np.uint64(np.uint32(state[off]))
    hi = np.uint64(np.uint32(state[off + 1]))
    return lo | (hi << np.uint64(32))


@jit
def _store(state, off, x):
    state[off] = np.int32(np.uint32(x & _MASK32))
    state[off + 1] = np.int32(np.uint32(x >> np.uint64(32)))


@jit
def splitmix64(x):
    """One splitmix64 scramble of a uint64 (used to turn any seed into a good state)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def seed(state, off, s):
    """Seed the generator stored at ``state[off:off+2]`` from an integer seed."""
    x = splitmix64(np.uint64(s))
    if x == np.uint64(0):
        x = _GOLDEN
    _store(state, off, x)


@jit
def next_u64(state, off):
    """Advance the generator and return 64 random bits."""
    x = _load(state, off)
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    _store(state, off, x)
    return x * _MULT


@jit
def randint(state, off, n):
    """Uniform integer in ``[0, n)`` (n >= 1), using the high 32 bits (Lemire's method)."""
    r = next_u64(state, off) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@jit
def shuffle(state, off, arr, n):
    """Fisher-Yates shuffle of the first ``n`` entries of ``arr`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(state, off, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@ajit
def stream(s):
    """A fresh generator for choices made *outside* a game (random agents, playouts).

    Returns its own int32[2] state, so choosing actions never perturbs a game's dice.
    """
    out = np.zeros(RNG_SLOTS, np.int32)
    x = splitmix64(np.uint64(s))
    out[0] = np.int32(np.uint32(x & _MASK32))
    out[1] = np.int32(np.uint32(x >> np.uint64(32)) | np.uint32(1))
    return out


@jit
def pick_uniform(mask, n_legal, rng_state):
    """Index of a uniformly chosen nonzero entry of ``mask`` (``n_legal`` >= 1 of them)."""
    r = np.int64((next_u64(rng_state, 0) >> np.uint64(33)) % np.uint64(n_legal))
    for a in range(mask.shape[0]):
        if mask[a]:
            if r == 0:
                return a
            r -= 1
    return -1
