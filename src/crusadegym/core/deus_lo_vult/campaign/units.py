"""War Engines and Heroes [R Part 2 "War Engines", "Heroes", "Engineer"].

State: ``layout.CB_UNITS``; params: ``config.P_WAR_ENGINES``, ``P_HERO``, ``P_FACTION``;
actions: ``layout.A_UNITS``.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
