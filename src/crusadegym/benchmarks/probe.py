"""The limit probe: the fastest compiled loop of a Deus-lo-Vult-shaped step, as a ceiling.

Every batched throughput row is compared with this loop at the same batch size and
thread count (``share of probe`` in the table). The probe does the least work a
random-play step of a 12x12 board game can do, with the same data shapes as our
batched driver:

* ``[B, S]`` ``int32`` states (``S`` = the game's state size, so the same bytes move
  through the cache), one game per ``prange`` slot, a per-slot ``uint8`` mask and a
  per-slot action-choosing generator (``core.rng.stream``), as in
  :func:`crusadegym.core.drivers.random_playouts`;
* per step: **scan** a 144x4 mask (each cell x each direction: "the mover's piece on
  this cell may step into the empty neighbour"), count it, **sample** one legal entry
  with :func:`crusadegym.core.drivers.pick_legal` (the driver's sampler) and **apply**
  it (move the piece, pass the turn); a game restarts after ``GAME_LENGTH`` steps
  (about a random Duel's length).

It has no rules beyond that: no bands, no stampede, no combat, no coins. So a real
engine cannot reach 100% of it; the project's goal is 25% (issue #23). It shows what
the hardware allows for work of this shape on this machine at this moment, which makes
the engine's share a figure that survives a noisy shared machine better than raw
steps/s.
"""

from __future__ import annotations

import time

import numpy as np

from crusadegym.core.drivers import mask_buffer, pick_legal
from crusadegym.core.jit import get_threads, kjit, pjit, prange, set_threads
from crusadegym.core.rng import next_u64, stream

SIZE = 12
N_CELLS = SIZE * SIZE
N_DIRS = 4
N_PROBE_ACTIONS = N_CELLS * N_DIRS
PIECES_PER_SEAT = 13  # a full 13-Army-Point army of Pilgrims
GAME_LENGTH = 1200  # steps per game: a random 2-player Duel lasts about 1,190
CUR, STEP, BOARD = 2, 8, 48  # the same offsets as the Deus lo Vult layout
MIN_STATE_SIZE = BOARD + N_CELLS


def _neighbours() -> np.ndarray:
    out = np.full((N_CELLS, N_DIRS), -1, np.int64)
    for c in range(N_CELLS):
        r, k = divmod(c, SIZE)
        for d, (dr, dk) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            if 0 <= r + dr < SIZE and 0 <= k + dk < SIZE:
                out[c, d] = (r + dr) * SIZE + k + dk
    return out


NEIGH = _neighbours()


@kjit
def probe_init(state, seed):
    """Two seats' pieces on their first and last rows; piece ids: even seat 0, odd seat 1."""
    state[:] = 0
    state[CUR] = np.int32(seed & 1)
    for c in range(N_CELLS):
        state[BOARD + c] = -1
    for i in range(PIECES_PER_SEAT):
        state[BOARD + i] = 2 * i
        state[BOARD + N_CELLS - 1 - i] = 2 * i + 1


@kjit
def probe_step(state, a):
    """Move the piece on cell ``a // 4`` one cell in direction ``a % 4``; pass the turn."""
    c = a // N_DIRS
    e = NEIGH[c, a % N_DIRS]
    state[BOARD + e] = state[BOARD + c]
    state[BOARD + c] = -1
    state[CUR] = 1 - state[CUR]
    state[STEP] += 1


@kjit
def probe_mask(state, mask):
    """The 144x4 scan: fill ``mask`` and return how many entries are set."""
    p = state[CUR]
    n = 0
    for c in range(N_CELLS):
        v = state[BOARD + c]
        mine = v >= 0 and (v & 1) == p
        for d in range(N_DIRS):
            e = NEIGH[c, d]
            ok = mine and e >= 0 and state[BOARD + e] < 0
            mask[c * N_DIRS + d] = ok
            n += ok
    return n


@pjit
def probe_playouts(states, seeds, n_steps):
    """``n_steps`` probe steps in every slot of ``states``; returns steps and games per slot."""
    B = states.shape[0]
    steps = np.zeros(B, np.int64)
    finished = np.zeros(B, np.int64)
    for i in prange(B):
        mask, words = mask_buffer(N_PROBE_ACTIONS)
        rng_state = stream(seeds[i])
        for _ in range(n_steps):
            if states[i, STEP] >= GAME_LENGTH:
                finished[i] += 1
                probe_init(states[i], np.int64(next_u64(rng_state, 0) >> np.uint64(2)))
            n = probe_mask(states[i], mask)
            if n == 0:  # blocked: pass (never happens from the opening rows)
                states[i, CUR] = 1 - states[i, CUR]
                states[i, STEP] += 1
            else:
                probe_step(states[i], pick_legal(words, n, rng_state))
            steps[i] += 1
    return steps, finished


def new_probe_batch(batch: int, state_size: int) -> np.ndarray:
    """A ``[batch, S]`` batch of fresh probe games; ``S`` is ``state_size``, at least
    :data:`MIN_STATE_SIZE` (the probe's own board needs that much)."""
    if batch < 1:
        raise ValueError(f"batch must be >= 1, got {batch}")
    states = np.zeros((batch, max(state_size, MIN_STATE_SIZE)), np.int32)
    for i in range(batch):
        probe_init(states[i], i)
        states[i, STEP] = (i * 97) % GAME_LENGTH  # stagger the restarts
    return states


def probe_rate(batch: int, threads: int, state_size: int, seconds: float = 1.0) -> float:
    """Probe steps per second at ``batch`` and ``threads`` (one quick, untabled figure)."""
    before = get_threads()
    set_threads(threads)
    try:
        states = new_probe_batch(batch, state_size)
        probe_playouts(states, np.arange(batch, dtype=np.int64), 1)
        n, total, t0 = 1, 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            total += int(probe_playouts(states, np.arange(batch, dtype=np.int64), n)[0].sum())
            n *= 2
        return total / (time.perf_counter() - t0)
    finally:
        set_threads(before)


if __name__ == "__main__":
    for t in (1, 2):
        for b in (64, 1024, 8192):
            print(f"probe B={b} threads={t}: {probe_rate(b, t, 896):,.0f} steps/s")
