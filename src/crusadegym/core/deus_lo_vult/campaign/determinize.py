"""What a seat cannot see in a Campaign, resampled (``SPEC.determinize``) and hidden in
its text view (``SPEC.render_view``) [R Part 2 "Decks of Deeds": "You can decide to play
with showing Deeds to each other, or hide them till the end of the Battle"].

Hidden from ``seat``: every other seat's individual Deed card unless Deeds are played
shown (``deeds_visible``) or the card is public (a failed card tried again). Cards are
drawn with replacement ("each of you can have the same Quests"), so a hidden card is
resampled uniformly from the whole deck; whether a seat holds a card is public and
stays. Other modules' hidden cards join here when they have any.
"""

from __future__ import annotations

import numpy as np

from ... import rng as R
from ...jit import jit
from ..config import P_PLAYERS
from ..layout import RNG
from . import deeds as D
from . import weather as W

HIDDEN_MARK = "?"


@jit
def determinize(state, params, seat):
    """Resample, in place and from the state's RNG, every card ``seat`` cannot see."""
    if W.on(params):
        W.determinize(state, params, seat)  # the undealt Weather cards' order
    if not D.on(params):
        return
    for q in range(params[P_PLAYERS]):
        if state[D.D_CARD + q] >= 0 and not D.visible(state, params, q, seat):
            state[D.D_CARD + q] = R.randint(state, RNG, D.N_CARDS)


def hidden_seats(state: np.ndarray, params: np.ndarray, seat: int) -> list[int]:
    """Seats whose individual Deed ``seat`` may not see."""
    if not D.on(params):
        return []
    return [
        q
        for q in range(int(params[P_PLAYERS]))
        if state[D.D_CARD + q] >= 0 and not D.visible(state, params, q, seat)
    ]


def view_state(state: np.ndarray, params: np.ndarray, seat: int) -> np.ndarray:
    """A copy of ``state`` with what ``seat`` may not see blanked (hidden Deeds -> -1)."""
    s = state.copy()
    s[W.W_DECK + int(s[W.W_NEXT]) : W.W_END] = 0  # undealt Weather cards: face down
    for q in hidden_seats(state, params, seat):
        s[D.D_CARD + q] = -1
    return s
