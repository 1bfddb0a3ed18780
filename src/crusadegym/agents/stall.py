"""Stall breaker: a seat that has seen no progress for a long time now and then plays a
random legal move, until something changes.

Issue #36: the Campaign's greedy heuristic can sit in a position where no single move
improves its evaluation although the game is far from over. Arena seed 0 at the default
``kyivan`` config left about one Campaign in five with a Battle run to the turn cap:

* a band in its camp that could only advance by moves that each break it up (game 8 of
  one run, 15 coins left for 1,000 turns);
* the ring of City Quarters in Jerusalem, whose last quarters only a Foot Knight of one
  seat could plunder, none on the board, the seat's army at its points (game 2);
* positions where the plan to muster the kind that can plunder costs more than ending
  the turn.

Each is a local optimum of the evaluation, not a position the rules cannot resolve. A
few random moves move the seat off it, and the greedy play that follows finds another
way: replayed from the first two positions with one move in ten at random, both Battles
ended by the rules (a session script; the ring is a test in
``tests/test_campaign_natural_end.py``). It does not resolve every stall: a seat whose
Camp is full of Refugees and whose army is in Purgatory stays stuck
(``docs/rules/deus_lo_vult.md``, "A fifth pass").

"Progress" is a change in the game's ``GameSpec.progress_slots`` (public slots such as
the scores, the coins left, the round): a game that has none declared is never treated
as stalled. The patience is counted in turns a seat (the game's ``turn_slot`` over its
players), so a game that makes progress as fast as natural games do never explores. The
breaker reads only public slots, and draws from the agent's own generator only when
stalled, so play that never stalls is the same move for move as without it.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

PATIENCE = 100
"""Turns a seat without progress before a seat explores: the Duel's natural rounds secure
a coin every 13 turns a seat or so (docs/rules/deus_lo_vult.md), so 100 is a stall."""
EXPLORE = 0.1
"""The share of random moves while stalled."""


def check_options(patience: int, explore: float) -> None:
    """Refuse a ``patience`` below 0 or an ``explore`` outside [0, 1] (a ``ValueError``)."""
    if patience < 0 or not 0.0 <= explore <= 1.0:
        raise ValueError(f"need patience >= 0 and explore in [0, 1], got {patience}, {explore}")


class StallBreaker:
    """Watches one game's progress from one seat's decisions; :meth:`act` says when to
    play a random move instead of the agent's own."""

    def __init__(self, patience: int = PATIENCE, explore: float = EXPLORE) -> None:
        check_options(patience, explore)
        self.patience = int(patience)
        """Turns a seat without progress before exploring; 0 switches the breaker off."""
        self.explore = float(explore)
        self.reset()

    def reset(self) -> None:
        """Forget the game (a new one starts)."""
        self._mark: bytes | None = None
        self._since = 0
        self._last_turn = -1

    def stalled(self, game: Game, state: np.ndarray) -> bool:
        """Has the game made no progress for ``patience`` turns a seat? A turn counter lower
        than the last one seen starts afresh (a new game, or the Campaign's next Battle)."""
        slots, turn_slot = game.spec.progress_slots, game.spec.turn_slot
        if self.patience == 0 or not slots or turn_slot < 0:
            return False
        turn = int(state[turn_slot])
        if turn < self._last_turn:
            self.reset()
        self._last_turn = turn
        mark = state[list(slots)].tobytes()
        if mark != self._mark:
            self._mark, self._since = mark, turn
            return False
        return turn - self._since >= self.patience * game.num_players

    def act(self, game: Game, state: np.ndarray, rng: np.random.Generator) -> int | None:
        """A random legal move when the game is stalled (with probability ``explore``),
        else ``None``: the agent plays its own."""
        if self.stalled(game, state) and rng.random() < self.explore:
            return int(rng.choice(game.legal_actions(state)))
        return None
