"""The collector every measurement writes into, and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field

from .timing import Measurement


@dataclass
class Results:
    """Measurements, skipped items (with the reason), startup and memory figures."""

    measurements: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    startup: list[dict] = field(default_factory=list)
    memory: list[dict] = field(default_factory=list)
    meta: dict = field(default_factory=dict)
    verbose: bool = True

    def add(self, m: Measurement, **tags) -> dict:
        """Record a measurement under ``tags`` (game, players, side, ...) and print a line."""
        row = {**tags, **m.to_dict()}
        self.measurements.append(row)
        if self.verbose:
            where = "/".join(str(tags[k]) for k in ("game", "players") if k in tags)
            print(f"  {where:<22} {m.label:<44} {m.steps_per_s:>14,.0f} steps/s", flush=True)
        return row

    def skip(self, what: str, reason: str) -> None:
        """Record (and print) that ``what`` was not measured, and why."""
        self.skipped.append({"what": what, "reason": reason})
        if self.verbose:
            print(f"  skipped {what}: {reason}", flush=True)

    def find(self, **tags) -> list[dict]:
        """Measurements whose fields equal every given tag."""
        return [r for r in self.measurements if all(r.get(k) == v for k, v in tags.items())]
