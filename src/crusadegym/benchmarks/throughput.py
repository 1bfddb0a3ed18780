"""Step throughput of our games side by side with the peers, in one run.

Usage (from the repository root)::

    python -m crusadegym.benchmarks.throughput                 # every real game, all peers
    crusadegym bench --players 2 --seconds 2
    python -m crusadegym.benchmarks.throughput --quick --no-peers --games tiny_tictactoe

For every game and player count it measures uniformly random play through the
checked core API, the raw kernels, the PettingZoo AEC env, the compiled batched
driver (per batch size and thread count) and, where one exists, the plain-Python
reference; then the peers (PettingZoo classic, OpenSpiel) on the same loop shape,
time to first step (cold and warm numba cache), and memory. It prints a table and
writes JSON, a Markdown table and a PNG plot (see ``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from dataclasses import fields
from pathlib import Path

import numba

from crusadegym.cli_help import command_parser
from crusadegym.core import available_games, get_spec, make_game
from crusadegym.core.jit import get_threads
from crusadegym.errors import USAGE_EXIT_CODE

from .memory import measure_memory
from .ours import measure_aec, measure_batched, measure_core, measure_reference
from .peers import measure_peers
from .report import write_outputs
from .results import Results
from .startup import measure_startup

ENV_VARS = ("NUMBA_THREADING_LAYER", "NUMBA_NUM_THREADS", "OMP_WAIT_POLICY", "NUMBA_CACHE_DIR")
QUICK = {"seconds": 0.2, "batch_sizes": [1, 64], "memory_batch": 256, "games": ["deus"]}
"""``--quick``, the smoke test (under a minute): one game unless games are named, short
measurements, and no cold/warm startup children unless ``--startup`` asks (a cold child
compiles a game from scratch: 20 s to 2 minutes; ``python -m
crusadegym.benchmarks.startup`` prints that table on its own)."""


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        msg = f"expected comma-separated integers, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    for convert in (int, {"true": True, "false": False}.__getitem__):
        try:
            return key, convert(value.lower() if convert is not int else value)
        except (ValueError, KeyError):
            pass
    return key, value


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym bench", __doc__)
    p.add_argument(
        "game",
        nargs="*",
        help="game names, as everywhere (default: every game shipped in the package)",
    )
    p.add_argument(
        "--games",
        type=lambda s: [x for x in s.split(",") if x],
        help="the same, comma-separated",
    )
    p.add_argument(
        "--players",
        type=_int_list,
        default=None,
        help="player counts for games with a 'players' option (default 2,3,4)",
    )
    p.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra game option, e.g. --option rounds=1 (repeatable)",
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="seconds per measurement (default 2; --quick: 0.2)",
    )
    p.add_argument(
        "--batch-sizes",
        type=_int_list,
        default=None,
        help="batch sizes of the compiled driver (default 1,64,1024,8192)",
    )
    p.add_argument(
        "--threads",
        type=_int_list,
        default=None,
        help="thread counts of the compiled driver (default 1,2)",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path("runs/bench/bench.json"),
        help="JSON output; the .md table and .png plot go next to it",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny settings, one game (deus) unless named, no startup children (smoke test)",
    )
    p.add_argument("--no-peers", action="store_true", help="skip PettingZoo and OpenSpiel")
    p.add_argument(
        "--no-startup",
        action="store_true",
        help="skip the cold/warm time-to-first-step subprocesses",
    )
    p.add_argument(
        "--startup",
        action="store_true",
        help="with --quick: measure the cold/warm time to first step too (full runs do)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the final table")
    return p


def shipped_games() -> list[str]:
    """Games whose spec lives in the crusadegym package (test-only games are excluded)."""
    names = []
    for name in available_games():
        try:
            spec = get_spec(name)
        except Exception as err:  # a game still being written must not stop the benchmark
            print(f"  skipped game {name}: cannot load ({type(err).__name__}: {err})")
            continue
        if spec.kernels.init.py_func.__module__.startswith("crusadegym."):
            names.append(name)
    return names


def game_options(name: str, players: list[int], extra: dict) -> list[dict]:
    """Option dicts to run ``name`` under: one per player count if it has a players option."""
    has_players = "players" in {f.name for f in fields(get_spec(name).config_cls)}
    if not has_players:
        return [dict(extra)]
    return [{**extra, "players": n} for n in players]


def _meta(args: argparse.Namespace, argv: list[str]) -> dict:
    return {
        "command": " ".join(["python -m crusadegym.benchmarks.throughput", *argv]),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "numba_max_threads": numba.config.NUMBA_NUM_THREADS,
        "loadavg_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "seconds_per_measurement": args.seconds,
        "batch_sizes": args.batch_sizes,
        "threads": args.threads,
        "quick": args.quick,
        "env": {k: os.environ.get(k) for k in ENV_VARS if k in os.environ},
    }


def run_game(
    name: str, options: dict, args: argparse.Namespace, results: Results, first: bool
) -> None:
    """Every measurement of one game under one config; the first config of a game also
    gets the (slow, fresh-process) peak-memory and time-to-first-step measurements."""
    game = make_game(name, **options)
    tags = {"game": name, "players": game.num_players}
    if not args.quiet:
        print(
            f"\n== {name} {options or ''} (state {game.state_size} ints, "
            f"{game.num_actions} actions)",
            flush=True,
        )
    measure_core(game, tags, args.seconds, results)
    measure_aec(name, options, tags, args.seconds, results)
    measure_batched(game, tags, args.batch_sizes, args.threads, args.seconds, results)
    measure_reference(game, tags, args.seconds, results)
    measure_memory(game, options, tags, args.memory_batch if first else None, results)
    if first and not args.no_startup:
        measure_startup(game, options, tags, results, core_only=args.quick)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    if args.seconds is None:
        args.seconds = QUICK["seconds"] if args.quick else 2.0
    if args.seconds <= 0:
        raise SystemExit("crusadegym bench: --seconds must be positive")
    if args.batch_sizes is None:
        args.batch_sizes = QUICK["batch_sizes"] if args.quick else [1, 64, 1024, 8192]
    max_threads = numba.config.NUMBA_NUM_THREADS
    if args.threads is None:
        args.threads = [t for t in (1, 2) if t <= max_threads]
    if max(args.threads) > max_threads:
        raise SystemExit(f"crusadegym bench: --threads must be <= {max_threads} on this machine")
    args.memory_batch = QUICK["memory_batch"] if args.quick else 8192
    players = args.players or ([2] if args.quick else [2, 3, 4])
    names = (args.game + (args.games or [])) or (QUICK["games"] if args.quick else shipped_games())
    if args.quick and not args.startup:
        args.no_startup = True
    unknown = [n for n in names if n not in available_games()]
    if unknown:
        known = ", ".join(available_games())
        print(f"crusadegym bench: unknown game(s) {', '.join(unknown)}; available: {known}",
              file=sys.stderr)  # fmt: skip
        raise SystemExit(USAGE_EXIT_CODE)

    results = Results(verbose=not args.quiet)
    results.meta = _meta(args, argv)
    threads_before = get_threads()
    t0 = time.perf_counter()
    for name in names:
        cases = game_options(name, players, dict(args.option))
        for i, options in enumerate(cases):
            try:
                run_game(name, options, args, results, first=i == 0)
            except Exception as err:  # keep going: one broken game must not hide the others
                results.skip(f"{name} {options}", f"{type(err).__name__}: {err}")
    if not args.no_peers:
        if not args.quiet:
            print("\n== peers", flush=True)
        measure_peers(args.seconds, results)
    try:
        results.meta["threading_layer"] = numba.threading_layer()
    except ValueError:  # no parallel region ran
        results.meta["threading_layer"] = None
    results.meta["loadavg_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    results.meta["wall_seconds"] = time.perf_counter() - t0
    results.meta["threads_restored"] = threads_before
    write_outputs(results, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
