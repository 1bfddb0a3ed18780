"""Muster [C] and the Keep's free troops [R].

"Muster: costs the level of your lowest unmustered troop. Troops are numbered 3-7.
Gain influence equal to the troop's level and flip it" [C]. The expansion adds troop
tiles VI and VII [R]. One troop per action unless ``muster_many`` [U].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .board import base, gain, n_troops
from .config import P_MUSTER_MANY
from .layout import PL_TROOPS


@jit
def next_troop_level(state, params, p):
    """Level (= cost = influence) of seat p's lowest face-down troop, or -1 if none."""
    m = state[base(p) + PL_TROOPS]
    if m >= n_troops(params):
        return -1
    return T.TROOP_LEVEL[m]


@jit
def muster(state, params, p, strength):
    """Flip troops while the strength pays for the next one [C]; returns troops flipped."""
    flipped = 0
    while True:
        lv = next_troop_level(state, params, p)
        if lv < 0 or strength < lv:
            break
        strength -= lv
        state[base(p) + PL_TROOPS] += 1
        gain(state, p, lv)
        flipped += 1
        if not params[P_MUSTER_MANY]:
            break
    return flipped


@jit
def free_troop(state, params, p):
    """Keep I-III: take the next troop for free, without its influence [R]."""
    if next_troop_level(state, params, p) >= 0:
        state[base(p) + PL_TROOPS] += 1
