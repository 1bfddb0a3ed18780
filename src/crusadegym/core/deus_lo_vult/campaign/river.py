"""River Amenities [R Part 2 "River Amenities" and each one's section]: Latrine and
Cholera, Pillory and Bacchanalia, Surgeon, Gravediggers, Salutificatio and the Donkey.

State: ``layout.CB_RIVER``; params: ``config.amenity_slot``; actions: ``layout.A_RIVER``.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
