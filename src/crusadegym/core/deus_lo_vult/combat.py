"""Attacks and the Combat Results Table [R "Attack", "Attack from the City"].

What a ``STRIKE(d)`` from a cell would do (:func:`classify_strike`), the cell it hits
(:func:`strike_target`), and the table lookup (:func:`resolve_combat`). Plunder and
stealing are strikes too; their coin effects live in ``coins.py``.
"""

from __future__ import annotations

from ..jit import inline_jit, jit
from . import tables as T
from .campaign import hookpoints as H
from .campaign.adjoin import controller
from .carry import free_capacity
from .coins import plunder, steal
from .config import (
    DBL_SHIELD_WOUND,
    ON,
    P_CAMPAIGN,
    P_DBL_ADJ,
    P_DBL_SHIELD,
    P_ROBBING,
    P_SARACEN_TARGETS,
    TARGETS_ANY,
)
from .layout import BOARD, PH_ARMY, PHASE, TOK_COINS
from .pieces import (
    NEIGH,
    TOKEN_KIND,
    camp_owner,
    edge_icon,
    is_city_token,
    is_crusader,
    is_quarter,
    is_refugee,
    is_saracen,
)
from .purgatory import damage, kill

CRT = T.CRT
ATTACK_ICON = T.ATTACK_ICON
RANGED_ICON = T.RANGED_ICON
ICON_S, ICON_D, ICON_SH, ICON_H, ICON_C = T.ICON_S, T.ICON_D, T.ICON_SH, T.ICON_H, T.ICON_C

# strike classification codes
STRIKE_NONE, STRIKE_COMBAT, STRIKE_PLUNDER, STRIKE_STEAL, STRIKE_KILL_REFUGEE = 0, 1, 2, 3, 4


@jit
def resolve_combat(params, att_icon, def_icon, charge):
    """Combat Results Table lookup -> (damage to attacker, damage to defender).

    Charge: "Skull (melee) + Charge | Shield | 0 | 1". Double-arrow home rule
    ``double_arrow_vs_shield="wound"``: "Double arrow breaks shields and inflicts 1
    damage to the units attacked" -> 1 damage whatever edge it hits.
    """
    if att_icon == ICON_D and params[P_DBL_SHIELD] == DBL_SHIELD_WOUND:
        return T.DOUBLE_ARROW_VS_SHIELD_WOUND[0], T.DOUBLE_ARROW_VS_SHIELD_WOUND[1]
    if def_icon == ICON_SH and charge and att_icon == ICON_S:
        return T.CHARGE_VS_SHIELD[0], T.CHARGE_VS_SHIELD[1]
    return CRT[att_icon, def_icon, 0], CRT[att_icon, def_icon, 1]


@jit
def strike_target(state, params, c, d):
    """(target cell, attacker icon) of the edge of the token on c facing d, or (-1, icon).

    Skull/cross hit the adjacent cell; arrows and double arrows hit exactly two clear
    straight steps away [R]; a City Quarter's double arrow may hit the adjacent cell
    with the ``double_arrow_adjacent`` home rule.
    """
    t = state[BOARD + c]
    icon = edge_icon(state, t, d)
    if ATTACK_ICON[icon] == 0:
        return -1, icon
    n1 = NEIGH[c, d]
    if n1 < 0:
        return -1, icon
    if RANGED_ICON[icon] == 0:
        return (n1 if state[BOARD + n1] >= 0 else -1), icon
    if state[BOARD + n1] >= 0:
        if icon == ICON_D and params[P_DBL_ADJ] == ON and is_city_token(t):
            return n1, icon
        return -1, icon
    if params[P_CAMPAIGN] != 0:  # a Campaign module may lengthen the shot
        return H.ranged_target(state, params, c, d), icon
    n2 = NEIGH[n1, d]
    if n2 < 0 or state[BOARD + n2] < 0:
        return -1, icon
    return n2, icon


@jit
def saracen_may_target(state, params, u, p):
    """Saracens and towers played by seat p attack opponents' Crusaders [R "You can also
    attack your opponents' Crusader units"]; any Crusader with ``saracen_targets="any"``."""
    return is_crusader(u) and (
        params[P_SARACEN_TARGETS] == TARGETS_ANY or controller(state, u) != p
    )


@inline_jit
def saracen_target_near(state, params, c, p):
    """Could a Saracen-side strike from c (a Saracen or City Quarter played by seat p)
    hit anything in a Duel? Its target (see :func:`strike_target`) is the first token
    one or two straight steps away, and must be a Crusader it may attack
    (:func:`saracen_may_target`). A necessary condition for :func:`duel_strike` to
    return STRIKE_COMBAT, checked once before four direction checks."""
    for d in range(4):
        n1 = NEIGH[c, d]
        if n1 < 0:
            continue
        u = state[BOARD + n1]
        if u < 0:
            n2 = NEIGH[n1, d]
            if n2 < 0:
                continue
            u = state[BOARD + n2]
            if u < 0:
                continue
        if saracen_may_target(state, params, u, p):
            return True
    return False


@inline_jit
def classify_strike(state, params, c, d, p, army_ok):
    """What a STRIKE(d) from cell c would do for seat p (see :func:`duel_strike`); in a
    Campaign its rule modules may change the verdict (``campaign/hooks.py``)."""
    code = duel_strike(state, params, c, d, p, army_ok)
    if params[P_CAMPAIGN] != 0:
        code = H.classify(state, params, c, d, p, army_ok, code)
    return code


@jit
def duel_strike(state, params, c, d, p, army_ok):
    """What a STRIKE(d) from cell c would do for seat p: a STRIKE_* code (0 = illegal).

    Army side (own Crusader, only while the army phase lasts): vs a Saracen ->
    combat; vs a City Quarter's coin or skull edge with a skull -> plunder; vs a
    rival's heart edge with a skull -> steal (skull edge too with ``robbing``); vs a
    Refugee -> kill (not in a rival's camp). Saracen side: Saracens, and City Quarter
    towers with arrow edges, vs a rival Crusader -> combat. No Crusader vs Crusader
    and no Saracen vs Saracen attacks; Saracens cannot attack Refugees [R].
    """
    t = state[BOARD + c]
    tc, icon = strike_target(state, params, c, d)
    if tc < 0:
        return STRIKE_NONE
    u = state[BOARD + tc]
    def_icon = edge_icon(state, u, (d + 2) % 4)
    if is_crusader(t):
        if not army_ok or controller(state, t) != p:
            return STRIKE_NONE
        if is_saracen(u):
            return STRIKE_COMBAT
        if is_quarter(state, u):
            if icon == ICON_S and (def_icon == ICON_C or def_icon == ICON_S):
                if state[TOK_COINS + u] > 0 and free_capacity(state, params, t) > 0:
                    return STRIKE_PLUNDER
            return STRIKE_NONE
        if is_refugee(state, u):
            o = camp_owner(params, tc)
            if o >= 0 and o != p:
                return STRIKE_NONE
            return STRIKE_KILL_REFUGEE
        if is_crusader(u) and controller(state, u) != p and icon == ICON_S:
            if def_icon == ICON_H or (def_icon == ICON_S and params[P_ROBBING] == ON):
                if state[TOK_COINS + u] > 0 and free_capacity(state, params, t) > 0:
                    return STRIKE_STEAL
        return STRIKE_NONE
    if is_saracen(t) or is_quarter(state, t):
        if is_quarter(state, t) and RANGED_ICON[icon] == 0:
            return STRIKE_NONE
        if saracen_may_target(state, params, u, p):
            return STRIKE_COMBAT
    return STRIKE_NONE


@jit
def do_strike(state, params, c, d, p, may_charge):
    """Apply STRIKE(d) from c for seat p. ``may_charge``: the striker's previous action
    was its move [R "The charge ability can only be triggered following a movement"]."""
    t = state[BOARD + c]
    code = classify_strike(state, params, c, d, p, state[PHASE] == PH_ARMY)
    tc, icon = strike_target(state, params, c, d)
    u = state[BOARD + tc]
    def_icon = edge_icon(state, u, (d + 2) % 4)
    if code == STRIKE_COMBAT:
        # charge: not against City Quarters [R], which never defend in combat anyway
        charge = may_charge and T.KIND_CHARGE[TOKEN_KIND[t]] == 1 and not is_city_token(t)
        da, dd = resolve_combat(params, icon, def_icon, charge)
        if params[P_CAMPAIGN] != 0:
            da, dd = H.combat(state, params, t, u, icon, def_icon, charge, da, dd)
        damage(state, u, dd)
        damage(state, t, da)
    elif code == STRIKE_PLUNDER:
        plunder(state, t, u, p)
        if def_icon == ICON_S:  # the quarter's skull edge strikes back [R "The latter"]
            damage(state, t, 1)
    elif code == STRIKE_STEAL:
        steal(state, t, u)
        if def_icon == ICON_S:  # robbing home rule: "the robber will get wounded"
            if params[P_CAMPAIGN] == 0 or H.steal_wounds(state, params, t, u):
                damage(state, t, 1)
    elif code == STRIKE_KILL_REFUGEE:
        kill(state, u)
        if camp_owner(params, tc) == p:
            kill(state, t)  # the murderer goes straight to Purgatory [R]
    if params[P_CAMPAIGN] != 0:
        H.after_strike(state, params, c, tc, p, code, t, u)
