"""Sample the batched random-play driver with Linux ``perf``, kernel by kernel (issue #23).

Usage (from the repository root; needs the ``perf`` tool, e.g. Debian's
``linux-perf``, and ``kernel.perf_event_paranoid`` <= 1 or root)::

    python -m crusadegym.benchmarks.perfmap deus_lo_vult
    python -m crusadegym.benchmarks.perfmap deus --option players=3 --seconds 20 --top 40
    python -m crusadegym.benchmarks.perfmap deus_lo_vult --out runs/bench/perf.json

numba's machine code carries no symbols that ``perf`` can read. This tool compiles the
kernels afresh (in a child process with an empty numba cache, so the compiled module
is at hand), writes ``/tmp/perf-PID.map`` (the address range of every compiled
function: the format ``perf`` reads for JIT code), then plays random games with
:func:`crusadegym.core.drivers.random_playouts` on one thread while ``perf record``
samples the process. Each row is a kernel's share of the samples, self time only: a
kernel that LLVM inlined into its caller counts for the caller, and several
specialisations of one kernel are summed. ``NRT_incref``/``NRT_decref`` are numba's
reference counts, ``malloc``/``free``/``memset`` the allocator.

:mod:`crusadegym.benchmarks.profile` answers the other question, how long each kernel
takes per call in its own loop; this one shows where the driver itself spends time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD_FLAG = "_CRUSADEGYM_PERFMAP_CHILD"
_ROW = re.compile(r"^\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)")


def short_name(symbol: str) -> str:
    """``crusadegym.core.deus_lo_vult.choices.legal_mask`` -> ``deus_lo_vult.choices.legal_mask``
    from numba's mangled name (``_ZN10crusadegym4core12deus_lo_vult7choices10legal_maskB3v...``);
    the driver's parallel loop becomes ``driver loop``; other symbols are kept."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j : j + n])
        i = j + n
    if not parts:
        return symbol
    if "__numba_parfor_gufunc" in parts[-1]:
        return "driver loop (parfor)"
    names = [p for p in parts if p not in ("crusadegym", "core")]
    return ".".join(names)


def parse_report(text: str) -> list[tuple[str, float]]:
    """``perf report --stdio --sort sym`` rows as ``(kernel, percent)``, summed by kernel."""
    shares: dict[str, float] = {}
    for line in text.splitlines():
        m = _ROW.match(line)
        if m:
            name = short_name(m.group(2))
            shares[name] = shares.get(name, 0.0) + float(m.group(1))
    return sorted(shares.items(), key=lambda kv: -kv[1])


def _write_map(dispatchers: list) -> int:
    """Write ``/tmp/perf-PID.map`` for every function compiled into ``dispatchers``."""
    from numba.core.runtime import nrt

    addresses: dict[int, str] = {}
    libraries = [cres.library for d in dispatchers for cres in d.overloads.values()]
    libraries.append(nrt.rtsys.library)
    for library in libraries:
        module = getattr(library, "_final_module", None)
        if module is None:
            continue
        engine = library._codegen._engine
        for fn in module.functions:
            if not fn.is_declaration:
                address = engine.get_function_address(fn.name)
                if address:
                    addresses[address] = fn.name
    starts = sorted(addresses)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for k, start in enumerate(starts):
            size = (starts[k + 1] - start) if k + 1 < len(starts) else 4096
            fh.write(f"{start:x} {min(size, 1 << 20):x} {addresses[start]}\n")
    return len(starts)


def _child(args: argparse.Namespace) -> int:
    import numpy as np

    from crusadegym.agents.options import parse_options
    from crusadegym.core import make_game
    from crusadegym.core.drivers import random_playouts
    from crusadegym.core.jit import set_threads

    from .batch import new_batch, playouts

    set_threads(1)
    game = make_game(args.game, **parse_options(args.option))
    states = new_batch(game, args.batch)
    seeds = np.arange(args.batch, dtype=np.int64)
    t0 = time.perf_counter()
    playouts(game, states, seeds, 50)  # compiles, and leaves the games mid-way
    print(f"compiled in {time.perf_counter() - t0:.0f} s", flush=True)
    n_functions = _write_map([random_playouts])
    data = Path(tempfile.mkdtemp(prefix="crusadegym-perf-")) / "perf.data"
    record = subprocess.Popen(
        [
            "perf",
            "record",
            "-F",
            "2000",
            "-o",
            str(data),
            "-p",
            str(os.getpid()),
            "--",
            "sleep",
            str(args.seconds),
        ],  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.2)
    steps, calls, t0 = 0, 0, time.perf_counter()
    while record.poll() is None:
        calls += 1
        s, _, _ = playouts(game, states, seeds + calls * args.batch, 200)
        steps += int(s.sum())
    elapsed = time.perf_counter() - t0
    err = record.stderr.read() if record.stderr else ""
    if record.returncode != 0 or not data.exists():
        print(f"error: perf record failed ({err.strip()[:200]}); try as root or with "
              "sysctl kernel.perf_event_paranoid=1", file=sys.stderr)  # fmt: skip
        return 2
    report = subprocess.run(
        [
            "perf",
            "report",
            "-i",
            str(data),
            "--stdio",
            "--no-children",
            "--sort",
            "sym",
            "-g",
            "none",
        ],  # fmt: skip
        capture_output=True,
        text=True,
    ).stdout
    rows = parse_report(report)
    print(f"\n{args.game} {args.option or ''}: random_playouts, B={args.batch}, one thread, "
          f"{steps / elapsed:,.0f} steps/s while sampled ({n_functions} compiled functions "
          f"mapped)\n")  # fmt: skip
    print(f"{'% of samples':>12}  kernel")
    for name, share in rows[: args.top]:
        print(f"{share:12.2f}  {name}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            json.dumps(
                {
                    "game": args.game,
                    "options": args.option,
                    "batch": args.batch,
                    "steps_per_second": steps / elapsed,
                    "rows": [{"kernel": n, "percent": s} for n, s in rows],
                },
                indent=1,
            )
        )
        print(f"\nwrote {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m crusadegym.benchmarks.perfmap",
        description="Sample the batched random-play driver with perf, per compiled kernel.",
    )
    p.add_argument("game", nargs="?", default="deus_lo_vult")
    p.add_argument("--option", action="append", default=[], help="game option key=value")
    p.add_argument("--seconds", type=float, default=10.0, help="how long perf samples")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--top", type=int, default=30, help="rows to print")
    p.add_argument("--out", type=Path, default=None, help="also write the rows as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(argv)
    if os.environ.get(_CHILD_FLAG):
        return _child(args)
    if shutil.which("perf") is None:
        print("error: the perf tool is not installed (Debian: apt install linux-perf)")
        return 2
    if args.seconds <= 0 or args.batch < 1:
        print("error: --seconds and --batch must be positive")
        return 2
    with tempfile.TemporaryDirectory(prefix="crusadegym-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, **{_CHILD_FLAG: "1"})
        cmd = [sys.executable, "-m", "crusadegym.benchmarks.perfmap", *argv]
        return subprocess.run(cmd, env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())
