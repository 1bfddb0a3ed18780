"""The one place that owns numba settings.

Every kernel in the suite is decorated with :data:`jit` (or :data:`pjit` for the
batched drivers) so that caching and math flags are decided here, once.

* ``cache=True``: compiled machine code is written next to the module, so the
  second process starts in about a second instead of recompiling. The first, cold
  compile of a game is announced in one line (``core/first_use.py``), and ``crusadegym
  warmup`` does it ahead of time (``benchmarks/warmup.py``).
* ``fastmath`` stays off: the kernels are integer code, and bit-exact determinism
  matters more than the last percent.
* ``boundscheck`` is left to the ``NUMBA_BOUNDSCHECK`` environment variable so the
  test suite can be run once with out-of-bounds checking switched on.
* Kernels that allocate nothing are compiled without numba's reference-counting
  runtime (NRT). With it, every call that passes an array (the state, the params,
  a scratch row) increments and decrements the array's reference count with an
  atomic instruction, in the callee's prologue and epilogue; the stage-1 legal mask
  makes thousands of such calls per step, and the counts were about 14% of a
  batched step (docs/benchmarks.md, issue #23). A kernel that allocates (``np.empty``,
  ``np.zeros``, ``.copy()`` ...) is decorated :data:`ajit` instead; under :data:`jit`
  the allocation fails to compile, so the choice cannot be silently wrong. Two rules
  keep the arrays' lifetimes right, and ``tests/test_jit_runtime.py`` checks both:
  a :data:`jit` kernel never returns an array (its caller would release a reference
  it never took), and never receives a fresh array from an :data:`ajit` callee
  (nothing would release it).
"""

from __future__ import annotations

import os

import numba

CACHE = True

jit = numba.njit(cache=CACHE, nogil=True, _nrt=False)
"""Decorator for single-game kernels that allocate nothing and return no array."""

ajit = numba.njit(cache=CACHE, nogil=True, _nrt=True)
"""Decorator for single-game kernels that allocate scratch or return an array.

``_nrt=True`` is explicit because numba passes a caller's flags on to callees that do
not set them, and most callers of these kernels are :data:`jit` kernels.
"""

inline_jit = numba.njit(cache=CACHE, nogil=True, _nrt=False, inline="always")
""":data:`jit` for the kernels on the batched step's hot path, inlined by numba into
every caller (numba's ``inline="always"``: the callee's typed code is copied into the
caller before LLVM sees it, which lets LLVM optimise across the call, where a plain call
passes every array as seven separate values).

Measured on the Duel's random playouts (one thread, B=256, paired runs): 1.31 -> 1.15
µs per step with the kernels that use it; the price is compile time (a cold
compile of the Duel's kernels and the driver went from 54 s to 75 s), since a kernel is
re-typed at every call site. So it is for small kernels called in the per-cell loops
of the mask and the Stampede, chosen by profile (docs/benchmarks.md), not by default.
"""

kjit = numba.njit(cache=False, nogil=True, _nrt=True)
"""Decorator for functions that take a game's kernels as arguments (search, rollouts).

numba cannot reliably cache a function whose arguments are jitted functions (numba
issue #2956: the cache index keeps a dead reference to the dispatcher and a later
save fails; a cached caller could also keep a stale copy of an edited kernel). So
such functions compile once per process; the game kernels they call stay cached.
"""

inline_kjit = numba.njit(cache=False, nogil=True, _nrt=True, inline="always")
""":data:`kjit` for the search helpers that take a game's kernels, inlined into their
callers: a compiled search that calls them as separate functions links and optimises the
game's whole kernel code once per callee (the tree search compiled in 37 s that way; as
one inlined function, 11 s, measured)."""

PARALLEL_ENV = "CRUSADEGYM_PARALLEL_DRIVERS"
PARALLEL = os.environ.get(PARALLEL_ENV, "1") != "0"
"""Whether :data:`pjit` drivers are compiled with numba's parallel lowering (the default).
``CRUSADEGYM_PARALLEL_DRIVERS=0``, read at import, compiles them as plain loops: the same
results on one thread, and a compile about four times shorter (the Campaign's batched step
and mask drivers: 48 -> 13 s; its random playouts: 28 -> 7 s, measured). The test suite
sets it (``tests/conftest.py``), since those compiles were most of its time, and checks the
parallel build in a subprocess (``tests/test_parallel_drivers.py``)."""

pjit = numba.njit(cache=False, nogil=True, parallel=PARALLEL, _nrt=True)
"""Decorator for batched drivers that loop over games with ``numba.prange``
(parallel unless :data:`PARALLEL` is off).

Not cached, for the same reason as :data:`kjit`: drivers take a game's kernels as
arguments.
"""

prange = numba.prange


def set_threads(n: int) -> None:
    """Set how many threads the batched drivers may use (1 <= n <= numba's maximum)."""
    if not 1 <= n <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, got {n}")
    numba.set_num_threads(n)


def get_threads() -> int:
    """Number of threads the batched drivers currently use."""
    return numba.get_num_threads()
