"""The two kernel decorators keep array lifetimes right (``core/jit.py``).

Kernels under ``jit`` are compiled without numba's reference-counting runtime, so:

1. a ``jit`` kernel must never return an array (its caller would release a reference
   that was never taken: a use-after-free);
2. a ``jit`` kernel must never call an ``ajit`` kernel that returns a fresh array
   (nothing would release it: a leak);
3. and, whatever the source says, random play, the checked front and the search agents
   of every game allocate and free the same number of arrays (numba's allocation
   counters, in a child process started with ``NUMBA_NRT_STATS=1``; MCTS on the
   Duel only, to keep the test short).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
import textwrap

import numba
import pytest
from numba.core import types

import crusadegym
from crusadegym.benchmarks.throughput import shipped_games
from crusadegym.core import make_game


def _kernel_modules() -> list:
    names = [m.name for m in pkgutil.walk_packages(crusadegym.__path__, "crusadegym.")]
    keep = ("crusadegym.core", "crusadegym.agents.heuristics", "crusadegym.training.fastbuffer")
    return [importlib.import_module(n) for n in names if n.startswith(keep)]


def _dispatchers(nrt: bool) -> dict[str, numba.core.registry.CPUDispatcher]:
    """Every kernel defined in the package whose decorator sets ``_nrt`` to ``nrt``."""
    found = {}
    for module in _kernel_modules():
        for name, obj in vars(module).items():
            if (
                isinstance(obj, numba.core.registry.CPUDispatcher)
                and obj.py_func.__module__ == module.__name__
                and obj.targetoptions.get("_nrt") is nrt
            ):
                found[f"{module.__name__}.{name}"] = obj
    return found


def _has_array(ty: types.Type) -> bool:
    if isinstance(ty, types.Array):
        return True
    if isinstance(ty, types.BaseTuple):
        return any(_has_array(t) for t in ty.types)
    return False


@pytest.fixture(scope="module")
def compiled() -> None:
    """Load every game's kernels (a few random moves through the checked front)."""
    import numpy as np

    from crusadegym.core.drivers import mask_buffer
    from crusadegym.core.rng import stream

    stream(np.int64(1)), mask_buffer(8)  # the drivers' array-returning helpers
    rng = np.random.default_rng(0)
    for name in shipped_games():
        game = make_game(name)
        state = game.new_state(1)
        for _ in range(30):
            if game.is_terminal(state):
                break
            game.observe(state, game.current_player(state))
            game.step(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        game.returns(state)


def test_both_decorators_are_in_use() -> None:
    assert len(_dispatchers(nrt=False)) > 300
    assert len(_dispatchers(nrt=True)) > 30


def test_no_jit_kernel_returns_an_array(compiled: None) -> None:
    offenders = [
        f"{name}{sig.args} -> {sig.return_type}"
        for name, disp in _dispatchers(nrt=False).items()
        for sig in disp.nopython_signatures
        if _has_array(sig.return_type)
    ]
    assert offenders == [], "decorate these @ajit (they return arrays): " + "; ".join(offenders)


def test_no_jit_kernel_calls_an_array_returning_ajit_kernel(compiled: None) -> None:
    returning = {
        name.rsplit(".", 1)[1]
        for name, disp in _dispatchers(nrt=True).items()
        if any(_has_array(sig.return_type) for sig in disp.nopython_signatures)
    }
    assert {"stream", "mask_buffer"} <= returning  # the check sees what it must
    offenders = []
    for name, disp in _dispatchers(nrt=False).items():
        tree = ast.parse(textwrap.dedent(inspect.getsource(disp.py_func)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                callee = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                if callee in returning:
                    offenders.append(f"{name} calls {callee}")
    assert offenders == [], "a @jit kernel would leak what these return: " + "; ".join(offenders)


_CHILD = """
import gc
import numpy as np
from numba.core.runtime import rtsys
from crusadegym.agents.registry import make_agent
from crusadegym.core import make_game

def live():
    gc.collect()
    s = rtsys.get_allocation_stats()
    return s.alloc - s.free, s.mi_alloc - s.mi_free

def play(name):
    game = make_game(name)
    seeds = np.arange(4, dtype=np.int64)
    states = game.new_states(seeds)
    game.play_random_games(states, seeds, max_steps=300)
    state = game.new_state(7)
    search = "mcts:iterations=8:rollout_depth=6" if name == "deus_lo_vult" else "heuristic"
    agents = [make_agent("heuristic", seed=1), make_agent(search, seed=2)]
    for i in range(6):
        if game.is_terminal(state):
            break
        game.observe(state, game.current_player(state))
        game.step(state, agents[i % 2].act_state(game, state))

for name in {games!r}:
    play(name)  # compile first: compiling allocates numba's own arrays
    before = live()
    for _ in range(3):
        play(name)
    after = live()
    assert after == before, f"{{name}}: live NRT allocations {{before}} -> {{after}}"
    print(name, "ok", before, after)
"""


@pytest.mark.parametrize("name", shipped_games())
def test_play_frees_every_array_it_allocates(name: str) -> None:
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD.format(games=[name])],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"{name} ok" in proc.stdout


# ---------------------------------------------------------------- stack scratch
_ROWS, _COLS = 3, 145


def test_stack_arrays_hold_what_is_written_and_need_constant_sizes() -> None:
    import numpy as np

    from crusadegym.core.stack import stack_empty, stack_row

    @numba.njit(_nrt=False)
    def fill_and_sum(x: int) -> int:
        table = stack_empty(_ROWS, _COLS, np.int64)
        row = stack_row(_COLS, np.uint8)
        total = 0
        for r in range(_ROWS):
            for c in range(_COLS):
                table[r, c] = x * r + c
        for c in range(_COLS):
            row[c] = c % 7
            total += row[c]
        return table.sum() + table[2].sum() + total + table.shape[0] * table.strides[0]

    @numba.njit(_nrt=True)
    def many_calls(n: int) -> int:
        s = 0
        for i in range(n):
            s += fill_and_sum(i)  # a frame per call: the stack does not grow with n
        return s

    def expected(x: int) -> int:
        table = np.array([[x * r + c for c in range(_COLS)] for r in range(_ROWS)])
        row_total = sum(c % 7 for c in range(_COLS))
        return int(table.sum() + table[2].sum() + row_total + _ROWS * _COLS * 8)

    assert [fill_and_sum(x) for x in range(3)] == [expected(x) for x in range(3)]
    # fill_and_sum is linear in x; 200,000 calls from one loop must not grow the stack
    n, f0, f1 = 200_000, expected(0), expected(1)
    assert many_calls(n) == n * f0 + (f1 - f0) * n * (n - 1) // 2

    @numba.njit(_nrt=False)
    def dynamic(n: int) -> int:
        return stack_row(n, np.int64).shape[0]

    with pytest.raises(numba.core.errors.TypingError, match="module-level int constants"):
        dynamic(4)
