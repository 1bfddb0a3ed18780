"""Time to first step in a fresh process, with a cold and with a warm numba cache.

A child interpreter imports the suite, builds the game, and takes one checked
step, then one batched compiled step (and one AEC env step when the env exists).
Times are wall-clock seconds since the parent spawned the child, so they include
interpreter start-up and imports, and each figure includes the ones before it.
"Cold" points ``NUMBA_CACHE_DIR`` at a fresh empty directory (everything is
compiled); "warm" is a second child on the same directory, which the cold child
has just filled.

Run alone, it prints the cold/warm table of docs/benchmarks.md for every shipped game
(the Campaign from the ``kyivan`` preset)::

    python -m crusadegym.benchmarks.startup              # all four games, first step only
    python -m crusadegym.benchmarks.startup deus --batched   # also the first batched step
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from crusadegym.cli_help import command_parser

from .child import run_child
from .results import Results

CODE = r"""
out["import_s"] = since()
if "preset" in args["options"]:
    from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options
    g = game_from_options(args["game"], args["options"])
else:
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
if not args["extra"].get("env", True):
    print("RESULT " + json.dumps(out))
    raise SystemExit(0)
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

CASES = [
    ("Duel", "deus_lo_vult", {}),
    ("Campaign kyivan", "deus_lo_vult_campaign", {"preset": "kyivan"}),
    ("Deus", "deus", {}),
    ("Crusaders", "crusaders", {}),
]
"""The games of the cold/warm table: (label, game, options)."""


def cold_and_warm(game: Any, options: dict, extra: dict) -> tuple[dict, dict]:
    """Figures of a child on an empty numba cache, then of a child on the cache it filled."""
    with tempfile.TemporaryDirectory(prefix="crusadegym-numba-cold-") as cache_dir:
        env = {"NUMBA_CACHE_DIR": cache_dir}
        cold = run_child(CODE, game, options, extra, env)
        warm = run_child(CODE, game, options, extra, env)
    return cold, warm


def measure_startup(
    game: Any, options: dict, tags: dict, results: Results, core_only: bool = False
) -> None:
    """Cold-cache and warm-cache time to first step of ``game`` (``core_only``: no batched
    or env step, for quick runs)."""
    cold, warm = cold_and_warm(game, options, {"core_only": core_only})
    for cache, figures in (("cold", cold), ("warm", warm)):
        row = {**tags, "cache": cache, **figures}
        results.startup.append(row)
        if results.verbose:
            text = ", ".join(f"{k} {v:.2f}s" for k, v in figures.items() if k.endswith("_s"))
            print(f"  startup {cache:<4}: {text}", flush=True)


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("python -m crusadegym.benchmarks.startup", __doc__)
    p.add_argument("game", nargs="*", help="games of the table (default: all four)")
    p.add_argument(
        "--batched", action="store_true", help="also time the first batched compiled step"
    )
    return p


def main(argv: list[str] | None = None) -> int:
    from crusadegym.core import get_spec

    args = build_parser().parse_args(argv)
    cases = [c for c in CASES if not args.game or c[1] in args.game]
    cases += [(g, g, {}) for g in args.game if g not in {c[1] for c in CASES}]
    extra = {"core_only": not args.batched, "env": False}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = "| game | cold: first step (s) | warm: first step (s) |"
    rule = "|---|---|---|"
    if args.batched:
        header += " cold: first batched step (s) | warm: first batched step (s) |"
        rule += "---|---|"
    print(f"1-minute load at the start: {load:.1f} on {os.cpu_count()} cores", flush=True)
    rows = []
    for label, name, options in cases:
        game = _Named(get_spec(name))
        print(f"  {label}: cold, then warm...", end="", flush=True, file=sys.stderr)
        cold, warm = cold_and_warm(game, options, extra)
        row = f"| {label} | {cold['first_step_s']:.1f} | {warm['first_step_s']:.1f} |"
        print(f" done: cold {cold['first_step_s']:.1f} s", flush=True, file=sys.stderr)
        if args.batched:
            row += f" {cold['first_batched_step_s']:.1f} | {warm['first_batched_step_s']:.1f} |"
        rows.append(row)
    print("\n".join([header, rule, *rows]))
    if hasattr(os, "getloadavg"):
        print(f"1-minute load at the end: {os.getloadavg()[0]:.1f}")
    return 0


class _Named:
    """What :func:`run_child` needs of a game: its name and spec (no kernels are run here)."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self.name = spec.name


if __name__ == "__main__":
    raise SystemExit(main())
