"""The turn cap every game shares: a safety net, counted per seat (issue #36).

No rulebook has a turn cap; a game ends by its own end condition (Deus lo Vult: the last
coin of the last round secured; Deus: the temples or the barbarians' end and one more
round; Crusaders: the influence supply run out and the round finished). The cap only
stops games that would not end, and a game it stops is *truncated*: the envs say so in
``info["turn_cap"]``, the arena and ladder count such games, ``play`` and ``replay`` print
"ended at the turn cap".

Every game's option ``max_turns`` is **per seat**: the game is cut once every seat has
played ``max_turns`` turns, so the same number means the same length of play for 2, 3 or 4
players. The kernels compare the state's turn counter, which counts the turns of all seats
together, with :func:`turn_limit`, compiled into the game's params.
"""

from __future__ import annotations

ENDED_AT_CAP = "ended at the turn cap"
"""What every tool says of a game the cap stopped (``play``, ``replay``, ``serve``)."""
ENDED_BY_RULES = "ended by the rules"
"""What every tool says of a game that reached its rulebook's end."""


def ending(truncated: bool) -> str:
    """How a finished game ended, in the words every tool prints."""
    return ENDED_AT_CAP if truncated else ENDED_BY_RULES


def turn_limit(max_turns: int, players: int) -> int:
    """Turns over all seats after which a game is cut: ``max_turns`` for every seat."""
    return int(max_turns) * int(players)
