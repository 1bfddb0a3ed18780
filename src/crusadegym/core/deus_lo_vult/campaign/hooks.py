"""The points where Campaign rule modules act inside the Duel kernels.

The Duel modules call these through :mod:`.hookpoints` (``H.<hook>``), which compiles
them only for Campaign params; every call site is also guarded by
``params[P_CAMPAIGN] != 0``, so a Duel never reaches this module. A new hook needs its
Duel verdict in ``hookpoints.DUEL_VERDICTS``.

Each hook below starts neutral (the Duel's own verdict) and calls, in a fixed order, the
modules that take part in it; a module adds its call here when it implements the hook.
Hook modules import only low-level Duel modules (see the package docstring), so this
file never imports ``combat``, ``choices``, ``setup``, ``turns`` or ``scoring``.

=======================  ==========================================================
hook                     called from
=======================  ==========================================================
``begin_turn``           ``setup.begin_turn``, after the seat's 7 Action Points
``end_turn``             ``turns.end_turn``, after rival camps are cleared, before
                         the turn passes (a module may end the game: ``OVER``)
``classify``             ``combat.classify_strike``: may change the STRIKE_* code
``combat``               ``combat.do_strike``: may change (attacker, defender) damage
``after_strike``         ``combat.do_strike``, after the strike is applied
``steal_wounds``         ``combat.do_strike``: does a theft over a Skull edge wound
                         the robber
``may_move``             ``choices.crusader_options``: may a Crusader move at all
``may_place``            ``choices.deploy_ok`` and HEAL: may a unit be spawned or
                         healed on camp cell c
``after_move``           ``turns.do_move``, after the move and its Stampede
``round_transition``     ``turns.round_transition``, after the new quarters are dealt
``deal_quarters``        ``setup.deal_quarters``: True if a module dealt them
``may_carry``            ``choices.unit_options``: may seat p move a Refugee / Field
                         Amenity with a band this action
``may_give``             ``choices.crusader_options``: may a Crusader GIVE toward nb
``extra_moves``          ``choices.crusader_options``, after the band moves: more
                         destinations for seat p's Crusader on c
``ranged_target``        ``combat.strike_target``: the cell an arrow from c toward d
                         hits (the Duel's 2 clear steps unless a module says more)
``after_weaken``         ``turns.apply_unit_action``, after seat p weakened its unit t
``capacity``             ``carry.capacity`` (so ``free_capacity``, TAKE, GIVE, pick-up,
                         plunder/steal verdicts, HEAL, invariants): the coins a
                         Crusader can carry on a side
``adjoined_stale``       ``invariant_kernel.violation``: a Campaign invariant
=======================  ==========================================================
"""

from __future__ import annotations

from ...jit import jit
from . import battle, deeds, field, gauntlets, river, units, weather
from .field import any_on as field_on


@jit
def begin_turn(state, params, p):
    """Start of seat p's turn [R "Player Turn Memo Card": "Start of the turn"]."""
    if weather.on(params):
        weather.begin_turn(state, params, p)
    if river.any_on(params):
        river.begin_turn(state, params, p)
    if field_on(params):
        field.begin_turn(state, params, p)
    if units.any_on(params):
        units.begin_turn(state, params, p)
    if deeds.on(params):
        deeds.begin_turn(state, params, p)


@jit
def end_turn(state, params, p):
    """End of seat p's turn [R "Player Turn Memo Card": "End of the turn"]."""
    if river.any_on(params):
        river.end_turn(state, params, p)
    if field_on(params):
        field.end_turn(state, params, p)
    if units.any_on(params):
        units.end_turn(state, params, p)
    if deeds.on(params):
        deeds.end_turn(state, params, p)


@jit
def classify(state, params, c, d, p, army_ok, code):
    """The STRIKE_* code of a strike from c toward d for seat p, after the modules."""
    if weather.on(params):
        code = weather.classify(state, params, c, d, code)
    if river.any_on(params):
        code = river.classify(state, params, c, d, p, army_ok, code)
    if field_on(params):
        code = field.classify(state, params, c, d, p, army_ok, code)
    if units.any_on(params):
        code = units.classify(state, params, c, d, p, army_ok, code)
    return code


@jit
def combat(state, params, t, u, icon, def_icon, charge, da, dd):
    """(damage to attacker t, damage to defender u) after the modules."""
    if river.any_on(params):
        da = river.combat(state, params, u, da)
    if field_on(params):
        da, dd = field.combat(state, params, t, u, icon, def_icon, charge, da, dd)
    if units.any_on(params):
        da, dd = units.combat(state, params, t, u, icon, def_icon, charge, da, dd)
    if deeds.on(params):
        da, dd = deeds.combat(state, params, t, u, icon, def_icon, da, dd)
    return da, dd


@jit
def steal_wounds(state, params, t, u):
    """Does robbing u over its Skull edge wound the robber t (the Duel's robbing rule)?"""
    if river.any_on(params) and not river.steal_wounds(state, params, u):
        return False
    if units.any_on(params) and not units.steal_wounds(state, params, t, u):
        return False
    return True


@jit
def after_strike(state, params, c, tc, p, code, t, u):
    """A strike from c at tc (STRIKE_* ``code``) by token t on token u has been applied."""
    if river.any_on(params):
        river.after_strike(state, params)
    if field_on(params):
        field.after_strike(state, params, c, tc, p, code, t, u)
    if units.any_on(params):
        units.after_strike(state, params, c, tc, p, code, t, u)
    if gauntlets.on(params):
        gauntlets.after_strike(state, params, c, tc, t, u)
    if deeds.on(params):
        deeds.after_strike(state, params, c, tc, p, code, t, u)


@jit
def may_move(state, params, t, p):
    """May seat p's unit t move this action?"""
    if weather.on(params) and not weather.may_move(state, params, t):
        return False
    if units.any_on(params) and not units.may_move(state, params, t, p):
        return False
    return True


@jit
def may_place(state, params, c, p):
    """May seat p spawn (deploy) or heal a unit on its camp cell c?"""
    if field_on(params) and not field.may_place(state, params, c, p):
        return False
    if units.any_on(params) and not units.may_place(state, params, c, p):
        return False
    return True


@jit
def after_move(state, params, t, e):
    """Token t has moved to e (its Stampede resolved; t may have been trampled)."""
    if river.any_on(params):
        river.after_move(state, params)
    if field_on(params):
        field.after_move(state, params, t, e)
    if units.any_on(params):
        units.after_move(state, params, t, e)
    if deeds.on(params):
        deeds.after_move(state, params, t, e)


@jit
def round_transition(state, params):
    """A new round of the Battle has been set up (quarters dealt, Saracens not yet)."""
    if field_on(params):
        field.round_transition(state, params)


@jit
def deal_quarters(state, params):
    """Deal the City Quarters instead of the Duel; return True if a module did."""
    return battle.deal_jerusalem(state, params)


@jit
def may_give(state, params, c, nb, p):
    """May seat p's Crusader on c GIVE a coin toward nb (the Duel allows it)?"""
    if field_on(params) and not field.may_give(state, params, c, nb, p):
        return False
    return True


@jit
def extra_moves(state, params, c, out, first_only):
    """Mark destinations of the Crusader on c beyond its band moves; return how many
    (with ``first_only``: 1 if there is any, ``out`` untouched)."""
    n = 0
    if units.any_on(params):
        n += units.lone_moves(state, params, c, out, first_only)
    return n


@jit
def may_carry(state, params, t, p):
    """May seat p move the Refugee or Field Amenity t with a band this action?"""
    if field_on(params) and not field.may_carry(state, params, t, p):
        return False
    return True


@jit
def ranged_target(state, params, c, d):
    """The cell the arrow of the token on c toward d hits (its first neighbour is empty):
    the first token within the reach (Duel: exactly 2 clear steps), or -1."""
    reach = units.DUEL_REACH
    if units.any_on(params):
        reach = units.ranged_reach(state, params, c)
    return units.far_target(state, c, d, reach)


@jit
def capacity(state, params, t, side, cap):
    """How many coins Crusader t can carry on ``side`` (the Duel's table says ``cap``)."""
    if deeds.on(params):
        cap = deeds.capacity(state, params, t, cap)
    if units.any_on(params):
        cap = units.capacity(state, params, t, cap)
    return cap


@jit
def after_weaken(state, params, t, p):
    """Seat p has weakened its own unit t (WEAKEN: "tapped intentionally")."""
    if units.any_on(params):
        units.after_weaken(state, params, t, p)


@jit
def adjoined_stale(state, params):
    """A Campaign invariant for ``invariant_kernel.violation``: the stored adjoined set
    is not the one the position gives."""
    if units.any_on(params):
        return units.adjoined_stale(state, params)
    return False
