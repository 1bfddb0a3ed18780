"""The one-line notice that a game's rules are being compiled for the first time.

A game's kernels are compiled by numba on their first call and cached on disk
(``core/jit.py``: ``__pycache__`` next to the sources, or ``NUMBA_CACHE_DIR``). The
first compile takes from about 20 s (Deus, Crusaders) to about two minutes (the
Campaign) on an otherwise idle 2-core machine (``docs/benchmarks.md``, "Cold and warm start"),
and used to pass in silence. :func:`notice`, called by
:func:`~crusadegym.core.make_game` (the one place every game is built), says so once:

* **cold** means numba's cache index of the game's ``init``, ``legal_mask`` or
  ``step`` kernel holds no entry valid for today's source file (numba's own test: the
  index file is missing, from another numba version, or stamped with another mtime or
  size of the source). Three small file reads; warm starts print nothing.
* **where it goes**: the ``crusadegym`` command line (``cli.py`` calls
  :func:`notify_on_stderr`) prints one line on stderr; in library use it is a
  ``logging`` record at INFO on the ``crusadegym.first_use`` logger, silent unless the
  application shows INFO records (``logging.basicConfig(level=logging.INFO)``).
* **once**: per game and process (forked workers inherit the record), and after the
  compile the cache is warm, so later processes print nothing either.

``crusadegym warmup`` (``benchmarks/warmup.py``) compiles every game ahead of time.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

LOGGER = logging.getLogger("crusadegym.first_use")

ESTIMATE_S = {
    "deus_lo_vult": 45,
    "deus_lo_vult_campaign": 110,
    "deus": 20,
    "crusaders": 20,
}
"""Rough seconds of a cold compile up to the first step, per game: issue #40's figures on
this 2-core machine, rounded up (42.5, 107.6, 18 and 18.6 s); a busy machine takes
several times longer (docs/benchmarks.md)."""

_on_stderr = False
_noticed: set[str] = set()


def notify_on_stderr(enabled: bool = True) -> None:
    """Print the notice on stderr (the command line) instead of logging it."""
    global _on_stderr
    _on_stderr = enabled


def _dispatchers(spec: Any) -> list[Any]:
    k = spec.kernels
    return [k.init, k.legal_mask, k.step]


def _cached(dispatcher: Any) -> bool | None:
    """Whether numba's on-disk cache holds a valid entry for ``dispatcher``; None when
    it cannot tell (caching off, jit disabled, numba internals changed)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    load_index = getattr(cache_file, "_load_index", None)
    if load_index is None:
        return None
    try:
        return bool(load_index())
    except Exception:  # an unreadable index: numba will recompile, but do not guess
        return None


def shipped(spec: Any) -> bool:
    """Whether the game's kernels live in the crusadegym package (a game registered from
    outside, such as the tests' tiny game, compiles in about a second: no notice)."""
    module = getattr(getattr(spec.kernels.init, "py_func", None), "__module__", "") or ""
    return module.startswith("crusadegym.")


def is_cold(spec: Any) -> bool:
    """True when at least one of the game's core kernels has nothing in numba's cache
    (so the first step will compile), False when all are cached or it cannot tell."""
    return any(_cached(d) is False for d in _dispatchers(spec))


def message(name: str) -> str:
    """The notice for game ``name``."""
    seconds = ESTIMATE_S.get(name)
    if seconds is None:
        about = ""
    elif seconds >= 90:
        about = f"about {round(seconds / 60)} minutes, "
    else:
        about = f"about {seconds} s, "
    return (
        f"crusadegym: compiling {name}'s rules for first use ({about}once per install; "
        "`crusadegym warmup` does it ahead)..."
    )


def notice(spec: Any) -> bool:
    """Say once that ``spec``'s kernels are about to be compiled, if they are cold.
    Returns whether the notice was given."""
    name = spec.name
    if name in _noticed:
        return False
    _noticed.add(name)  # one look per game and process: after the compile it is warm
    if not shipped(spec) or not is_cold(spec):
        return False
    text = message(name)
    if _on_stderr:
        print(text, file=sys.stderr, flush=True)
    else:
        LOGGER.info(text)
    return True


def mark_noticed(name: str) -> None:
    """Give no notice for ``name`` in this process (a caller that reports itself)."""
    _noticed.add(name)
