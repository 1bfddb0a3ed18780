"""Campaign lines of the position notation: ``campaign name=v1,v2 ...``.

A Campaign position is a Duel position (``..notation``; Campaign tokens allowed: a
seat's War Engines and Hero tokens ``0T 0W 0G 0U 0Y 0Z``, Field Amenities ``mct mdg
mgl mdm men mhs mfl mdk``) followed by lines that set Campaign fields by name. Every
module lists its fields in ``FIELDS`` (``name -> (state offset, length)``); a field not
written keeps the value a new Campaign gives it. :func:`campaign_lines` prints every
field that differs from zero, so ``render`` output parses back.
"""

from __future__ import annotations

import numpy as np

from crusadegym.errors import NotationError

from . import battle, deeds, field, gauntlets, river, units, weather

MODULES = (battle, gauntlets, deeds, weather, river, field, units)


def all_fields() -> dict[str, tuple[int, int]]:
    """Every module's notation fields; a name used twice is a programming error."""
    out: dict[str, tuple[int, int]] = {}
    for module in MODULES:
        for name, spec in module.FIELDS.items():
            assert name not in out, f"campaign field {name!r} defined twice"
            out[name] = spec
    return out


def apply_campaign_lines(state: np.ndarray, params: np.ndarray, lines: list[str]) -> None:
    """Set the fields named on ``campaign ...`` lines, then recompute the derived ones."""
    fields = all_fields()
    for line in lines:
        for item in line.split()[1:]:
            name, _, value = item.partition("=")
            if name not in fields:
                raise NotationError(
                    f"unknown campaign field {name!r}; fields: {', '.join(sorted(fields))}"
                )
            offset, length = fields[name]
            try:
                values = [int(v) for v in value.split(",")]
            except ValueError as e:
                raise NotationError(f"campaign field {item!r}: integers expected") from e
            if len(values) != length:
                raise NotationError(f"campaign field {name} takes {length} value(s): {item!r}")
            state[offset : offset + length] = values
    units.update_adjoined(state, params)  # derived slots (adjoin.py): not written


def campaign_lines(state: np.ndarray) -> str:
    """``campaign ...`` lines for every non-zero field (eight fields per line)."""
    items = []
    for name, (offset, length) in all_fields().items():
        values = state[offset : offset + length]
        if np.any(values):
            items.append(f"{name}=" + ",".join(str(int(v)) for v in values))
    return "\n".join("campaign " + " ".join(items[i : i + 8]) for i in range(0, len(items), 8))
