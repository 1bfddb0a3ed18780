"""Who commands a unit this action: Eleanor's and Olivier's adjoined units [R Part 2
"Heroes"].

[R "Eleanor of Aquitaine"] "Being tapped intentionally, Eleanor changes her colors to
French ones and becomes able to adjoin French units to her band and use them just like
her own during her turn." [R "Olivier lo Templier"] "can adjoin the Templar units to his
band the same way Queen Elanor adjoins the French units - when tapped intentionally."

Our reading (docs/rules/deus_lo_vult.md, Heroes): in seat p's army phase, with p's
Eleanor (Olivier) on the board on her weak side after p weakened her (``units.U_TAPPED``),
the Crusaders of the Regnum Francorum (Knights Templar) seat that are connected to her
through orthogonally adjacent units of p, of that seat, Refugees or Field Amenities are
*adjoined*: seat p commands them. The Duel kernels ask :func:`controller` wherever the
Duel asks "is this Crusader the seat's own": which units the seat may select, strikes,
plunder and theft, the seat's Saracens' targets, GIVE, and who is a friend for the
Stampede; the band labels add the adjoined units with :func:`add_commanded`. No hook:
the Campaign slots lie past the end of a Duel state, so the length of the state says
whether there are any (a Duel pays one comparison). What stays with the unit's owner:
its camp (rival camps, WITHDRAW, HEAL), WEAKEN, its coins' score, and the Campaign
modules' own per-unit actions.

The adjoined set is computed once per action, after every step, by
:func:`units.update_adjoined` (and after a position is read from notation): a
Stampede or a strike inside an action sees the set the action began with. This module
holds only the state slots and their readers (it imports only ``tables`` and the
layouts, so the Duel's low-level modules and ``battle`` may import it).
"""

from __future__ import annotations

from ...jit import jit
from .. import tables as T
from ..layout import TOK_LOC
from .layout import CB_UNITS

TOKEN_OWNER = T.TOKEN_OWNER
BITS = 30  # tokens per word of the adjoined set (Campaign state is int32: no sign bit)
N_WORDS = (T.N_TOKENS + BITS - 1) // BITS
# The adjoin slots sit at the end of the units block (units.py owns CB_UNITS..U_END).
K_COMMANDER = CB_UNITS + 64  # seat + 1 commanding the adjoined units this action, 0 none
K_ADJOINED = CB_UNITS + 65  # [N_WORDS] bit t % BITS of word t // BITS: t is adjoined
K_END = K_ADJOINED + N_WORDS

# Derived slots: not notation fields; ``campaign/notation.py`` recomputes them on read.


@jit
def commander(state):
    """The seat commanding adjoined units this action, or -1."""
    return state[K_COMMANDER] - 1


@jit
def is_adjoined(state, t):
    return ((state[K_ADJOINED + t // BITS] >> (t % BITS)) & 1) != 0


@jit
def controller(state, t):
    """The seat that commands Crusader t in this action: its owner, unless adjoined. A
    Duel state ends before the Campaign blocks (``layout.py``), so for a Duel this is
    ``TOKEN_OWNER[t]`` after one length check. Not called per cell by the band labels
    (the Duel's hottest loop): they read ``TOKEN_OWNER`` and :func:`add_commanded`
    adds the adjoined units after (a call in that loop halves the Duel's speed)."""
    if state.shape[0] > K_COMMANDER and state[K_COMMANDER] != 0 and is_adjoined(state, t):
        return state[K_COMMANDER] - 1
    return TOKEN_OWNER[t]


@jit
def commands(state, p):
    """Does seat p command adjoined units this action (never in a Duel)?"""
    return state.shape[0] > K_COMMANDER and state[K_COMMANDER] == p + 1


@jit
def add_commanded(state, kinds, bit):
    """Set ``bit`` in ``kinds[c]`` for the cell c of every adjoined unit on the board:
    band labels (``bands.fill_kinds``) count them as the commander's."""
    for t in range(T.N_TOKENS):
        if is_adjoined(state, t):
            c = state[TOK_LOC + t]
            if c >= 0:
                kinds[c] |= bit


@jit
def clear(state):
    state[K_COMMANDER] = 0
    for w in range(N_WORDS):
        state[K_ADJOINED + w] = 0


@jit
def adjoin(state, t):
    state[K_ADJOINED + t // BITS] |= 1 << (t % BITS)
