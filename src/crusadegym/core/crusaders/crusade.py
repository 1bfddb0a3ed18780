"""Crusade [C]: defeat an enemy in a region with your knight.

"X + crusade bonuses must be >= the enemy's strength. Prussians and Slavs: gain influence
equal to their strength, then advance that enemy's strength track 1 space. Keep the
token. Saracens: always strength 6. The token shows a building or a troop. You may
build that building in that region, or flip your next troop, and gain influence for
its level; otherwise gain 3 influence. Keep the token" [C]. One enemy per action [I].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .actions import SAR_BUILD, SAR_INFLUENCE, SAR_TROOP
from .board import base, enemy_strength, gain, knight_in, next_level, region_empty
from .build import place_building
from .layout import ELOC_CAPT0, ENEMY_LOC, PL_CAPT, PL_TROOPS, R_ENEMY, STRENGTH, TRACK
from .muster import next_troop_level


@jit
def can_crusade(state, params, p, r):
    e = state[R_ENEMY + r]
    if e < 0 or not knight_in(state, p, r):
        return False
    return enemy_strength(state, params, e) <= state[STRENGTH]


@jit
def any_crusade(state, params, p):
    for r in range(T.N_REGIONS):
        if can_crusade(state, params, p, r):
            return True
    return False


@jit
def defeat(state, params, p, r):
    """Defeat the enemy in r; returns True when it is a Saracen (a reward choice follows)."""
    e = state[R_ENEMY + r]
    kind = T.ENEMY_TYPE[e]
    strength = enemy_strength(state, params, e)
    state[R_ENEMY + r] = -1
    state[ENEMY_LOC + e] = ELOC_CAPT0 - p
    state[base(p) + PL_CAPT + kind] += 1
    if kind == T.SARACEN:
        return True
    gain(state, p, strength)
    state[TRACK + kind] += 1
    return False


@jit
def saracen_ok(state, params, p, r, e, choice):
    """Is Saracen reward ``choice`` possible for token e defeated in region r?"""
    shows = T.SARACEN_REWARD[e]
    if choice == SAR_INFLUENCE:
        return True
    if choice == SAR_TROOP:
        return shows == T.REWARD_TROOP and next_troop_level(state, params, p) >= 0
    return shows >= 0 and next_level(state, p, shows) >= 0 and region_empty(state, r)


@jit
def saracen_reward(state, params, p, r, e, choice):
    """Apply the chosen Saracen reward [C] (the building is free [I])."""
    if choice == SAR_BUILD:
        place_building(state, params, p, T.SARACEN_REWARD[e], r)
    elif choice == SAR_TROOP:
        lv = next_troop_level(state, params, p)
        state[base(p) + PL_TROOPS] += 1
        gain(state, p, lv)
    else:
        gain(state, p, T.SARACEN_FALLBACK_INFLUENCE)
