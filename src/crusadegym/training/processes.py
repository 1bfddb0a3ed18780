"""Worker processes for the data-collecting learners (valuefit, searchfit, evolve)."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from typing import Any


class _InProcess:
    """The pool interface for one worker: this process does the work (no spawn, and no
    second compile of the kernels in a child)."""

    def __init__(self, initializer: Callable | None, initargs: tuple) -> None:
        if initializer is not None:
            initializer(*initargs)

    def map(self, fn: Callable, jobs: list) -> list:
        return [fn(job) for job in jobs]

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def worker_pool(workers: int, initializer: Callable | None = None, initargs: tuple = ()) -> Any:
    """A context manager with ``map``: ``workers`` spawned processes (each runs
    ``initializer(*initargs)`` once), or this process when ``workers == 1``."""
    if workers == 1:
        return _InProcess(initializer, initargs)
    return mp.get_context("spawn").Pool(workers, initializer, initargs)
