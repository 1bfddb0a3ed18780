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
*adjoined*: seat p commands them. The Duel kernels ask :func:`controller` (through the
``controller`` hook) wherever the Duel asks "is this Crusader the seat's own": band
membership, which units the seat may select, strikes, plunder and theft, GIVE, and who
is a friend for the Stampede. What stays with the unit's owner: its camp (rival camps,
WITHDRAW, HEAL), WEAKEN, its coins' score, and the Campaign modules' own per-unit actions.

The adjoined set is computed once per action, after every step, by
:func:`units.update_adjoined` (and after a position is read from notation): a
Stampede or a strike inside an action sees the set the action began with. This module
holds only the state slots and the reader (it imports no hook module, so ``battle``
may credit kills to the commanding seat).
"""

from __future__ import annotations

from ...jit import jit
from .. import tables as T
from ..pieces import TOKEN_OWNER
from .layout import CB_UNITS

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
    """The seat that commands Crusader t in this action: its owner, unless adjoined."""
    if state[K_COMMANDER] != 0 and is_adjoined(state, t):
        return state[K_COMMANDER] - 1
    return TOKEN_OWNER[t]


@jit
def clear(state):
    state[K_COMMANDER] = 0
    for w in range(N_WORDS):
        state[K_ADJOINED + w] = 0


@jit
def adjoin(state, t):
    state[K_ADJOINED + t // BITS] |= 1 << (t % BITS)
