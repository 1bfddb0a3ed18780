"""Gauntlet Runs [R Part 2 "Gauntlet Runs"]: Refugees Welcome!, Holier Than Thou (with
the Hidden Stash, the Capitularius cards and the Penance option) and Fons Honorum.

State: ``battle.C_GAUNTLET0`` .. ``battle.C_BATTLE_END`` (owned here).
"""

from __future__ import annotations

FIELDS: dict[str, tuple[int, int]] = {}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""
