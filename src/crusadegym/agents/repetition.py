"""Repetition guard: a seat does not play the same move twice from the same position.

Issue #36: in one Duel of the 200-game ladder both seats, each greedy, moved one Saracen
back and forth between their plunder spots for 2,600 turns. Each move frees the mover's
own spot and blocks the rival's, which is the best the mover can do *this* turn; the
rival undoes it the next. Nothing in the rules stops it (the rulebook has no repetition
rule), so the agents must: a seat that finds itself again in a position it has moved
from this game plays its best move *not yet tried there*. Every cycle of positions then
breaks on its second pass, and play that never repeats a position is unchanged.

Which positions count: perfect-information games only (the game's spec has no
``determinize`` kernel), keyed by the whole state with its clocks cleared (the turn and
step counters, ``GameSpec.turn_slot`` and ``clock_slots``: they alone would make every
position new). A hidden-information state holds
what the seat may not see, so the guard stays off there rather than read it. A position is
kept as a 16-byte digest of that state, not the state itself: a Duel against a random seat
runs 30,000 steps to the cap, and 4 kB a decision would be some 60 MB an agent.

Use: ``key = guard.key(game, state)`` once a decision, then ``guard.tried(key)`` and
``guard.record(key, action)``.
"""

from __future__ import annotations

import hashlib

import numpy as np

from crusadegym.core import Game


class RepetitionGuard:
    """The moves a seat played from each position of the current game.

    A new game is noticed by the turn counter going back (or by :meth:`reset`), so an
    agent reused across games (embedded opponents, ``play``) starts each one afresh."""

    def __init__(self) -> None:
        self._played: dict[bytes, set[int]] = {}
        """Position digest -> the moves played from it."""
        self._last_turn = -1

    def reset(self) -> None:
        """Forget every position (a new game)."""
        self._played.clear()
        self._last_turn = -1

    def key(self, game: Game, state: np.ndarray) -> bytes | None:
        """The position's digest (``None`` when the guard is off for ``game``); a turn
        counter lower than the last one seen starts a new game."""
        slot = game.spec.turn_slot
        if game.spec.determinize is not None or slot < 0:
            return None
        turn = int(state[slot])
        if turn < self._last_turn:
            self.reset()
        self._last_turn = turn
        key = state.copy()
        key[slot] = 0
        key[list(game.spec.clock_slots)] = 0
        return hashlib.blake2b(key.tobytes(), digest_size=16).digest()

    def tried(self, key: bytes | None) -> set[int]:
        """The moves already played from the position ``key`` in this game (empty when it
        is new, or the guard is off)."""
        return set() if key is None else set(self._played.get(key, ()))

    def record(self, key: bytes | None, action: int) -> int:
        """Note that ``action`` is played from the position ``key``; returns ``action``."""
        if key is not None:
            self._played.setdefault(key, set()).add(int(action))
        return int(action)


def untried(candidates: np.ndarray, tried: set[int]) -> np.ndarray:
    """``candidates`` without the ``tried`` moves, unless that leaves none: a position
    where every move has been tried is played as if new."""
    if not tried:
        return candidates
    fresh = np.array([a for a in candidates if int(a) not in tried], dtype=candidates.dtype)
    return fresh if len(fresh) else candidates
