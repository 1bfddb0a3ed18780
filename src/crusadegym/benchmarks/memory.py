"""Bytes per game state, and the peak memory of a large batch of random playouts.

Measured in a fresh child process (see :mod:`.child`), so memory freed by earlier
measurements cannot hide the batch's cost. The driver is compiled (or loaded) on
a batch of 2 first; then, around building and playing the large batch:

* ``tracemalloc_peak_bytes``: NumPy allocations made from Python (the batch and
  the driver's result arrays);
* ``rss_delta_bytes`` (needs psutil): resident memory growth, which also sees
  numba's own per-game scratch.
"""

from __future__ import annotations

from typing import Any

from .child import run_child
from .results import Results

CODE = r"""
import tracemalloc
try:
    import psutil
    rss = lambda: psutil.Process().memory_info().rss
except ImportError:
    rss = lambda: None
g = make_game(args["game"], **args["options"])
def play(batch, n_steps):
    states = new_batch(g, batch)
    playouts(g, states, np.arange(batch, dtype=np.int64), n_steps)
    return states
play(2, 1)
rss0 = rss()
tracemalloc.start()
states = play(args["extra"]["batch"], args["extra"]["n_steps"])
out["tracemalloc_peak_bytes"] = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
rss1 = rss()
out["rss_delta_bytes"] = None if rss0 is None else rss1 - rss0
out["batch_states_bytes"] = int(states.nbytes)
print("RESULT " + json.dumps(out))
"""


def measure_memory(
    game: Any, options: dict, tags: dict, batch: int | None, results: Results
) -> None:
    """State size, and (unless ``batch`` is None) the peak memory of building and playing
    a ``[batch, S]`` batch in a fresh process."""
    row = {**tags, "bytes_per_state": int(game.state_size * 4), "state_ints": game.state_size}
    results.memory.append(row)
    if batch is None:
        if results.verbose:
            print(f"  memory: {row['bytes_per_state']} B/state", flush=True)
        return
    row["batch"] = int(batch)
    row.update(run_child(CODE, game, options, extra={"batch": batch, "n_steps": 16}))
    if results.verbose:
        rss = row["rss_delta_bytes"]
        rss_text = "n/a" if rss is None else f"{rss / 2**20:.1f} MiB"
        print(
            f"  memory: {row['bytes_per_state']} B/state; B={batch}: states "
            f"{row['batch_states_bytes'] / 2**20:.1f} MiB, tracemalloc peak "
            f"{row['tracemalloc_peak_bytes'] / 2**20:.1f} MiB, RSS delta {rss_text}",
            flush=True,
        )
