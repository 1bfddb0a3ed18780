"""``crusadegym warmup [GAME ...]``: compile the games' rules ahead of first use.

Per game (default: every game shipped in the package) it runs, once each:

1. ``kernels``: the single-step path (``make_game``, a new state, the legal mask, a
   step, an observation, the returns and end checks), as ``play`` and the envs use it;
2. ``batched``: the compiled batched driver (a batch of new games and one random
   playout step), as the vector envs, ``fastppo`` and ``bench`` use it;
3. ``search``: one move of the heuristic agent and one of a small compiled MCTS, as
   ``play``, ``arena`` and ``ladder`` use them.

and prints one line per game with the seconds each part took. The game kernels land
in numba's on-disk cache (``__pycache__`` next to the sources, or
``NUMBA_CACHE_DIR``), so later processes load them in about a second. The driver and
the search are compiled again in each process, since they take the kernels as
arguments and numba cannot cache such functions (``core/jit.py``, numba #2956); what
they call is cached here. Every config of a game shares the same compiled code, so
warming the default config warms them all (the Campaign's presets too).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from crusadegym.cli_help import command_parser
from crusadegym.core import available_games, first_use, get_spec, make_game
from crusadegym.errors import UnknownNameError

PARTS = ("kernels", "batched", "search")


def warm_kernels(name: str) -> Any:
    """The single-step path of ``name``'s default config; returns the game."""
    game = make_game(name)
    state = game.new_state(0)
    game.observe(state, game.current_player(state))
    game.step(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    game.returns(state)
    game.is_terminal(state)
    game.is_truncated(state)
    return game


def warm_batched(game: Any) -> None:
    """The compiled batched driver on a batch of two games, one step."""
    from .batch import new_batch, playouts

    playouts(game, new_batch(game, 2), np.arange(2, dtype=np.int64), 1)


def warm_search(game: Any) -> None:
    """One heuristic move and one compiled-MCTS move from the first position."""
    from crusadegym.agents import make_agent, select_action

    state = game.new_state(0)
    for spec in ("heuristic", "mcts:iterations=4:determinizations=1"):
        select_action(make_agent(spec), game, state)


def warm_game(name: str, parts: tuple[str, ...] = PARTS, out=None) -> dict[str, float]:
    """Compile ``name``'s ``parts``; seconds per part (and ``total``). Prints one line."""
    out = out or sys.stdout
    cold = first_use.is_cold(get_spec(name))
    first_use.mark_noticed(name)  # this line says it instead
    state = "cold cache, compiling" if cold else "cache warm, checking"
    print(f"warmup {name}: {state}:", end="", flush=True, file=out)
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    game = None
    steps: dict[str, Callable[[], Any]] = {
        "kernels": lambda: warm_kernels(name),
        "batched": lambda: warm_batched(game),
        "search": lambda: warm_search(game),
    }
    for part in PARTS:
        if part != "kernels" and part not in parts:
            continue
        t = time.perf_counter()
        result = steps[part]()
        if part == "kernels":
            game = result
            if part not in parts:
                continue
        seconds[part] = time.perf_counter() - t
        comma = "," if len(seconds) > 1 else ""
        print(f"{comma} {part} {seconds[part]:.1f} s", end="", flush=True, file=out)
    seconds["total"] = time.perf_counter() - t0
    print(f"; {seconds['total']:.1f} s in all", flush=True, file=out)
    return seconds


def shipped_games() -> list[str]:
    """Games whose kernels live in the crusadegym package."""
    return [n for n in available_games() if first_use.shipped(get_spec(n))]


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym warmup", __doc__)
    p.add_argument("game", nargs="*", help="games to compile (default: every shipped game)")
    p.add_argument(
        "--only",
        type=lambda s: tuple(x for x in s.split(",") if x),
        default=PARTS,
        metavar="PARTS",
        help="comma-separated parts: kernels,batched,search (default: all three)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    bad = [p for p in args.only if p not in PARTS]
    if bad:
        raise UnknownNameError(f"unknown part(s) {', '.join(bad)}; choose from {','.join(PARTS)}")
    names = args.game or shipped_games()
    for name in names:
        get_spec(name)  # an unknown game: one line before anything is compiled
    t0 = time.perf_counter()
    for name in names:
        warm_game(name, args.only)
    if len(names) > 1:
        print(f"warmup: {len(names)} games in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
