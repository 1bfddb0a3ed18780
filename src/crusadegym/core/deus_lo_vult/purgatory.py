"""Wounds, deaths and the Purgatory [R "Purgatory"].

"Crusader and Saracen units have 2 life points. When a unit is wounded, flip it to
its weak side. If it is wounded again, it dies and goes to the Purgatory." Slot 1
takes the newest soul and pushes the others along; one pushed off slot 9 goes back
to its reserve (a Saracen to the bag). Refugees have no weak side and are removed.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .layout import (
    BOARD,
    GROUND,
    LOC_OFF,
    LOC_PURGATORY,
    LOC_RESERVE,
    PURG,
    TOK_COINS,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
)
from .pieces import is_city_token, is_crusader, is_saracen

STRONG, WEAK = 0, 1
LETHAL = 2  # damage that kills a unit on its strong side ("double damage")


@jit
def purgatory_push(state, t):
    """Put a dead unit in slot 1; the unit pushed off slot 9 returns to reserve [R]."""
    last = state[PURG + T.PURGATORY_SLOTS - 1]
    if last >= 0:
        state[TOK_LOC + last] = LOC_RESERVE
    for i in range(T.PURGATORY_SLOTS - 1, 0, -1):
        state[PURG + i] = state[PURG + i - 1]
    state[PURG] = t
    state[TOK_LOC + t] = LOC_PURGATORY
    state[TOK_SIDE + t] = STRONG
    state[TOK_MOVED + t] = 0


@jit
def remove_from_board(state, t):
    """Lift a token off its cell; a Crusader drops the coins it carried there [R]."""
    c = state[TOK_LOC + t]
    state[BOARD + c] = -1
    if is_crusader(t):
        state[GROUND + c] += state[TOK_COINS + t]
        state[TOK_COINS + t] = 0


@jit
def kill(state, t):
    """A unit dies: Crusaders and Saracens go to Purgatory, Refugees are discarded."""
    remove_from_board(state, t)
    if not is_crusader(t) and not is_saracen(t):  # Refugees (and Amenities) leave play
        state[TOK_LOC + t] = LOC_OFF
        state[TOK_MOVED + t] = 0
    else:
        purgatory_push(state, t)


@jit
def damage(state, t, n):
    """Two life points: one wound flips to the weak side, the next kills [R "Purgatory"]."""
    if n <= 0 or is_city_token(t) and state[TOK_SIDE + t] == STRONG:
        return
    if n >= LETHAL or state[TOK_SIDE + t] == WEAK:
        kill(state, t)
    else:
        state[TOK_SIDE + t] = WEAK
