"""Test setup: register the tiny example game and list every (game, config) case."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
# Batched drivers compile without numba's parallel lowering here (about 4x shorter; same
# results): core/jit.py, PARALLEL. tests/test_parallel_drivers.py checks the parallel build.
os.environ.setdefault("CRUSADEGYM_PARALLEL_DRIVERS", "0")
# One numba cache per pytest-xdist worker (and the processes it starts): two workers
# compiling the same kernel into one cold cache can read each other's half-written index,
# and the failed typing then sticks for that worker's whole run (a fresh clone once failed
# 504 Deus lo Vult tests this way: "Invalid use of type(CPUDispatcher(randint))"). Set
# before numba is imported; NUMBA_CACHE_DIR given by the caller wins.
if os.environ.get("PYTEST_XDIST_WORKER"):
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.environ.setdefault(
        "NUMBA_CACHE_DIR",
        os.path.join(_root, ".numba_cache", os.environ["PYTEST_XDIST_WORKER"]),
    )

import tinygame  # noqa: E402

from crusadegym.core import available_games, get_spec, register  # noqa: E402

register(tinygame.SPEC)


# Small configs of every game, for tests that run per game rather than per config.
SMALL_GAMES = [
    ("tiny_tictactoe", {}),
    ("deus_lo_vult", {"players": 2, "rounds": 1, "max_turns": 30}),
]


def game_cases() -> list[tuple[str, dict]]:
    """Every registered game under each of its declared small test configs."""
    cases = []
    for name in available_games():
        for options in get_spec(name).test_configs:
            cases.append((name, dict(options)))
    return cases


def case_id(case: tuple[str, dict]) -> str:
    name, options = case
    return name + ("-" + "-".join(f"{k}={v}" for k, v in options.items()) if options else "")
