"""War Engine and Hero deployment [R Part 2 "War Engines": "All War Engines cost 3 Army
Points"; "Heroes"]: "deploy <kind>" on the selected empty camp cell for the Campaign
kinds, through the Duel's own checks (``choices.deploy_ok``: empty own camp cell, 13
Army Points, the unit in reserve, the Stampede) and placement (``turns.do_deploy``).
Imported only by ``extras.py`` (it needs ``choices``/``turns``).
"""

from __future__ import annotations

from ...jit import jit
from .. import combat
from .. import tables as T
from ..choices import deploy_ok
from ..layout import AP, BOARD, CUR, PH_ARMY, PH_DEPLOY, PHASE, TOK_MOVED
from ..turns import do_deploy
from . import units
from .units import A_DEPLOY0, A_UNITS_USED

assert (units.STRIKE_NONE, units.STRIKE_COMBAT, units.STRIKE_PLUNDER, units.STRIKE_STEAL) == (
    combat.STRIKE_NONE,
    combat.STRIKE_COMBAT,
    combat.STRIKE_PLUNDER,
    combat.STRIKE_STEAL,
)
KC0 = T.KIND_CAMPAIGN0
NK = T.N_CAMPAIGN_UNIT_KINDS


@jit
def deploy_extras(state, params, c, out, first_only):
    """Mark "deploy <Campaign kind>" for the empty camp cell c; return the count."""
    phase = state[PHASE]
    if phase != PH_ARMY and phase != PH_DEPLOY:
        return 0
    p = state[CUR]
    n = 0
    for i in range(NK):
        if deploy_ok(state, params, c, p, KC0 + i):
            out[A_DEPLOY0 + i] = 1
            n += 1
            if first_only:
                return n
    return n


@jit
def unit_extras(state, params, c, out, first_only):
    """Every War Engine / Hero action of the selection on c."""
    if state[BOARD + c] < 0:
        return deploy_extras(state, params, c, out, first_only)
    if state[PHASE] != PH_ARMY:
        return 0
    return units.unit_extras(state, params, c, out, first_only)


@jit
def apply_unit_extra(state, params, c, a):
    """Apply a War Engine / Hero unit action; a charge must follow its move directly."""
    for u in range(T.N_TOKENS):
        state[TOK_MOVED + u] = 0
    if A_DEPLOY0 <= a < A_DEPLOY0 + NK:
        do_deploy(state, params, c, state[CUR], KC0 + a - A_DEPLOY0)
        units.mark_seen(state, state[BOARD + c])
        if state[PHASE] != PH_DEPLOY:
            state[AP] -= 1
    elif a < A_DEPLOY0 + A_UNITS_USED:
        units.apply_unit_extra(state, params, c, a)
