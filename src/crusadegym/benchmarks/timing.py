"""The one timed loop every throughput measurement shares.

A measurement is a ``chunk()`` callable that plays some random-play steps and
returns ``(steps, games_finished)``; :func:`measure` calls it until the time
budget is spent. Chunks keep their own state between calls, so a game in
progress simply continues in the next chunk.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

Chunk = Callable[[], tuple[int, int]]
MIN_GAMES_PER_SLOT = 20


@dataclass
class Measurement:
    """Steps and finished games counted over ``seconds`` of one method."""

    method: str
    label: str
    steps: int
    games: int
    seconds: float
    extra: dict = field(default_factory=dict)

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_game_length(self) -> float | None:
        """Steps per finished game, or None when too few games finished to tell.

        The window cuts up to one game in progress per parallel slot at each end,
        so the figure is only reported once ``MIN_GAMES_PER_SLOT`` games per slot
        (``extra["batch"]``, default 1) have finished.
        """
        if self.games < MIN_GAMES_PER_SLOT * self.extra.get("batch", 1):
            return None
        return self.steps / self.games

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(d.pop("extra"))
        d.update(
            steps_per_s=self.steps_per_s,
            games_per_s=self.games_per_s,
            mean_game_length=self.mean_game_length,
        )
        return d


def measure(method: str, label: str, chunk: Chunk, seconds: float, **extra) -> Measurement:
    """Call ``chunk`` once to warm up, then repeatedly for at least ``seconds``."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    chunk()
    steps = games = 0
    t0 = time.perf_counter()
    while True:
        s, g = chunk()
        steps += s
        games += g
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return Measurement(method, label, steps, games, elapsed, dict(extra))
