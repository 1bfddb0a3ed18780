"""Time to first step in a fresh process, with a cold and with a warm numba cache.

A child interpreter imports the suite, builds the game, and takes one checked
step, then one batched compiled step (and one AEC env step when the env exists).
Times are wall-clock seconds since the parent spawned the child, so they include
interpreter start-up and imports, and each figure includes the ones before it.
"Cold" points ``NUMBA_CACHE_DIR`` at a fresh empty directory (everything is
compiled); "warm" uses the normal cache, which the benchmark's own earlier
measurements have filled.
"""

from __future__ import annotations

import tempfile
from typing import Any

from .child import run_child
from .results import Results

CODE = r"""
out["import_s"] = since()
g = make_game(args["game"], **args["options"])
s = g.new_state(0)
g.step(s, int(np.flatnonzero(g.legal_mask(s))[0]))
out["first_step_s"] = since()
if args["extra"]["core_only"]:
    print("RESULT " + json.dumps(out))
    raise SystemExit(0)
states = new_batch(g, 2)
playouts(g, states, np.arange(2, dtype=np.int64), 1)
out["first_batched_step_s"] = since()
try:
    env = importlib.import_module("crusadegym.envs." + args["game"] + "_v0").env(**args["options"])
except ImportError:
    env = None
if env is not None:
    env.reset(seed=0)
    obs, _, _, _, info = env.last()
    mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    out["first_env_step_s"] = since()
print("RESULT " + json.dumps(out))
"""


def measure_startup(
    game: Any, options: dict, tags: dict, results: Results, core_only: bool = False
) -> None:
    """Cold-cache and warm-cache time to first step of ``game`` (``core_only``: no batched
    or env step, for quick runs)."""
    extra = {"core_only": core_only}
    with tempfile.TemporaryDirectory(prefix="crusadegym-numba-cold-") as cold_dir:
        cold = run_child(CODE, game, options, extra, {"NUMBA_CACHE_DIR": cold_dir})
    # this process has already run every kernel, so the normal cache is filled
    warm = run_child(CODE, game, options, extra, {"NUMBA_CACHE_DIR": None})
    for cache, figures in (("cold", cold), ("warm", warm)):
        row = {**tags, "cache": cache, **figures}
        results.startup.append(row)
        if results.verbose:
            text = ", ".join(f"{k} {v:.2f}s" for k, v in figures.items() if k.endswith("_s"))
            print(f"  startup {cache:<4}: {text}", flush=True)
