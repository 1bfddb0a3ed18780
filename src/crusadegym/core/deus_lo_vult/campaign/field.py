"""Field Amenities [R Part 2 "Field Amenities" and each one's section]: their start
under the City Quarters, Cat and Rats, Dog, Gallows, Disgusting Man, Flagellant cortege.

State: ``layout.CB_FIELD`` (scalars, then one flag word per token at ``CB_FIELD + 64``);
actions: ``layout.A_FIELD``.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
