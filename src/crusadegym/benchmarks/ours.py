"""Random-play throughput of one of our games under one config, by every access path.

1. ``core``: the checked :class:`~crusadegym.core.Game` front from a Python loop
   (with and without building an observation), and the raw kernels without the front;
2. ``aec``: the PettingZoo AEC env ``crusadegym.envs.<game>_v0`` (mask from the observation);
3. ``batched``: :func:`crusadegym.core.drivers.random_playouts`, entirely compiled,
   per batch size and thread count, each followed by the limit probe (``probe.py``)
   at the same batch size, thread count and state size;
4. ``reference``: the plain-Python reference legal-move generator, when the game has one,
   against the compiled ``legal_mask`` on the same states.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

import numpy as np

from crusadegym.core.jit import get_threads, set_threads

from .batch import new_batch, playouts
from .loops import aec_chunk, core_checked_chunk, core_raw_chunk
from .probe import new_probe_batch, probe_playouts
from .results import Results
from .timing import Chunk, measure


def measure_core(game: Any, tags: dict, seconds: float, results: Results, seed: int = 0) -> None:
    """The single-state Python loops: checked, checked + observation, raw kernels."""
    cases = [
        ("core_checked", "core: Game.legal_mask+step (checked)", core_checked_chunk(game, seed)),
        (
            "core_checked_obs",
            "core: checked + observe",
            core_checked_chunk(game, seed, observe=True),
        ),
        ("core_raw", "core: raw kernels (no checks)", core_raw_chunk(game, seed)),
    ]
    for method, label, chunk in cases:
        results.add(measure(method, label, chunk, seconds), side="ours", **tags)


def make_aec_env(name: str, options: dict) -> Any:
    """Our PettingZoo AEC env for ``name``: ``crusadegym.envs.<name>_v0.env`` if it exists,
    else the generic ``crusadegym.envs.aec`` env over the registered game (same wrapping).

    Raises ImportError when neither can be imported.
    """
    try:
        module = importlib.import_module(f"crusadegym.envs.{name}_v0")
    except ModuleNotFoundError as err:
        if err.name != f"crusadegym.envs.{name}_v0":
            raise
        aec = importlib.import_module("crusadegym.envs.aec")
        return aec.wrap(aec.make_raw_env(name, **options))
    return module.env(**options)


def measure_aec(name: str, options: dict, tags: dict, seconds: float, results: Results) -> None:
    """Random play through our AEC env; a skip note when the env cannot be built."""
    try:
        env = make_aec_env(name, options)
    except ImportError as err:
        results.skip(f"{name} AEC env", f"crusadegym.envs not importable ({err})")
        return
    try:
        m = measure("aec", "PettingZoo AEC env (ours)", aec_chunk(env, 0), seconds)
    finally:
        env.close()
    results.add(m, side="ours", **tags)


def sized_chunk(run, call_seconds: float) -> Chunk:
    """A chunk of one ``run(n_steps)`` call, ``n_steps`` grown until a call takes about
    ``call_seconds``. ``run`` returns ``(steps, games)``; it is called once first to
    compile (or load from cache) outside the timed window."""
    run(1)
    # Grow the call until it takes half the target: a fixed per-call cost (thread
    # wake-up, which can reach tens of ms on a loaded machine) must not fool the scaling.
    n_steps = 1
    while True:
        t0 = time.perf_counter()
        run(n_steps)
        dt = time.perf_counter() - t0
        if dt >= call_seconds / 2 or n_steps >= 1 << 20:
            break
        n_steps *= 4
    n_steps = max(1, round(n_steps * call_seconds / max(dt, 1e-9)))
    return lambda: run(n_steps)


def batched_chunk(game: Any, batch: int, call_seconds: float, seed: int = 0) -> Chunk:
    """One compiled ``random_playouts`` call per chunk, sized to take about ``call_seconds``."""
    states = new_batch(game, batch, seed)
    calls = [0]

    def run(n_steps: int) -> tuple[int, int]:
        calls[0] += 1
        seeds = np.arange(batch, dtype=np.int64) + seed + calls[0] * batch
        steps, finished, empty = playouts(game, states, seeds, n_steps)
        if empty.any():
            raise RuntimeError(f"{game.name}: empty legal mask in a running game (B={batch})")
        return int(steps.sum()), int(finished.sum())

    return sized_chunk(run, call_seconds)


def probe_chunk(batch: int, state_size: int, call_seconds: float) -> Chunk:
    """One compiled :func:`.probe.probe_playouts` call per chunk (see :func:`sized_chunk`)."""
    states = new_probe_batch(batch, state_size)
    calls = [0]

    def run(n_steps: int) -> tuple[int, int]:
        calls[0] += 1
        seeds = np.arange(batch, dtype=np.int64) + calls[0] * batch
        steps, finished = probe_playouts(states, seeds, n_steps)
        return int(steps.sum()), int(finished.sum())

    return sized_chunk(run, call_seconds)


def measure_batched(
    game: Any,
    tags: dict,
    batch_sizes: list[int],
    threads: list[int],
    seconds: float,
    results: Results,
    probe: bool = True,
) -> None:
    """The compiled batched driver for every (threads, batch size), each followed (with
    ``probe``) by the limit probe at the same batch size and threads (``probe.py``).

    On a machine whose cores are busy with other processes, numba's default ``omp``
    layer (libgomp, active waiting) can pay tens of ms per multi-threaded launch;
    ``OMP_WAIT_POLICY=passive`` or ``NUMBA_THREADING_LAYER=workqueue`` avoid it. The
    run records both variables and the layer in its ``meta``.
    """
    before = get_threads()
    try:
        for t in threads:
            set_threads(t)
            for b in batch_sizes:
                chunk = batched_chunk(game, b, call_seconds=min(0.25, seconds / 4))
                label = f"batched compiled B={b} threads={t}"
                m = measure(f"batched_b{b}_t{t}", label, chunk, seconds, batch=b, threads=t)
                results.add(m, side="ours", method_family="batched", **tags)
                if probe:  # right after, so that both see the same machine load
                    chunk = probe_chunk(b, game.state_size, call_seconds=min(0.25, seconds / 4))
                    label = f"limit probe B={b} threads={t}"
                    m = measure(f"probe_b{b}_t{t}", label, chunk, seconds, batch=b, threads=t)
                    results.add(m, side="probe", **tags)
    finally:
        set_threads(before)


REFERENCE_LEGAL = ("ref_legal_actions", "legal_actions", "legal_mask")


def _reference_legal(game: Any) -> Any:
    """The plain-Python legal-move function ``f(state, params)`` of the game, or None.

    Looked up in ``crusadegym.core.<game>.reference`` under the names in
    :data:`REFERENCE_LEGAL` (the first that exists).
    """
    try:
        module = importlib.import_module(f"crusadegym.core.{game.name}.reference")
    except ImportError:
        return None
    for fname in REFERENCE_LEGAL:
        if hasattr(module, fname):
            return getattr(module, fname)
    return None


def sample_states(game: Any, n: int, seed: int = 0) -> list[np.ndarray]:
    """``n`` states met in random play (copies), for per-state kernel comparisons."""
    rng = np.random.default_rng(seed)
    out, state, s = [], game.new_state(seed), seed
    while len(out) < n:
        if game.is_terminal(state):
            s += 1
            state = game.new_state(s)
        out.append(state.copy())
        legal = game.legal_actions(state)
        game.step(state, int(legal[rng.integers(len(legal))]))
    return out


def measure_reference(game: Any, tags: dict, seconds: float, results: Results) -> None:
    """Compiled ``legal_mask`` vs the plain-Python reference on the same states."""
    ref = _reference_legal(game)
    if ref is None:
        results.skip(f"{game.name} reference", "no plain-Python reference legal-move function")
        return
    states = sample_states(game, 200)
    mask = np.zeros(game.num_actions, np.uint8)
    k, params = game.k, game.params

    def compiled() -> tuple[int, int]:
        for s in states:
            k.legal_mask(s, params, mask)
        return len(states), 0

    def reference() -> tuple[int, int]:
        for s in states:
            ref(s, params)
        return len(states), 0

    for method, label, chunk in (
        ("legal_compiled", "legal_mask: compiled kernel (calls/s)", compiled),
        ("legal_reference", "legal_mask: plain-Python reference (calls/s)", reference),
    ):
        results.add(measure(method, label, chunk, seconds), side="ours", kind="legal", **tags)
