"""Weather Mode [R Part 2 "Weather Mode"]: Heat (Calor), Cold (Frigus), Rain (Pluvia),
Sand Storm (Procella); active (cards in hand) and passive (dealt every round).

State: ``layout.CB_WEATHER``; params: ``layout.PB_WEATHER``; actions: ``layout.A_WEATHER``.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
