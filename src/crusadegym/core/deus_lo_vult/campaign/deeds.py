"""Decks of Deeds [R Part 2 "Decks of Deeds"]: quest, reward, scourge, value; the
rulebook describes the card anatomy but not the cards, so the deck is a STAND-IN.

State: ``layout.CB_DEEDS`` block; params: ``layout.PB_DEEDS``; actions: ``layout.A_DEEDS``.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
