"""The Campaign's own actions (ids from ``layout.A_BATTLE`` on), module by module.

Two kinds, both in the Duel's "select then act" scheme (``..actions``):

* **unit actions**, offered in stage 2 for the selected cell c (a unit, or an empty
  camp cell to deploy on): :func:`unit_extras` marks them, :func:`apply_unit_extra`
  applies one (paying its Action Point or coin itself);
* **turn actions**, offered in stage 1 next to the cell selections and END_TURN
  (clean the Latrine, summon the Donkey, play a Weather card, ...):
  :func:`turn_extras` / :func:`apply_turn_extra`.

Each module owns one id range (``layout.A_*``) and adds its calls below when it has
actions. ``apply_*`` return True when the action secured the Battle's last coin.
This is above the Duel kernels: it may import ``choices``/``turns``.
"""

from __future__ import annotations

from ...jit import jit
from ..tables import N_CELLS
from . import deeds, field, field_actions, gauntlets, river, units, units_actions, weather
from .layout import (
    A_BATTLE,
    A_BATTLE_SIZE,
    A_DEEDS,
    A_DEEDS_SIZE,
    A_FIELD,
    A_FIELD_SIZE,
    A_RIVER,
    A_RIVER_SIZE,
    A_UNITS,
    A_UNITS_SIZE,
    A_WEATHER,
    A_WEATHER_SIZE,
)


@jit
def unit_extras(state, params, c, out, first_only):
    """Mark the Campaign actions of the selection on cell c in ``out``; return the count."""
    n = 0
    if field.any_on(params):
        n += field_actions.unit_extras(state, params, c, out, first_only)
    if river.any_on(params):
        n += river.unit_extras(state, params, c, out, first_only)
    if units.any_on(params) and not (first_only and n > 0):
        n += units_actions.unit_extras(state, params, c, out, first_only)
    if gauntlets.on(params) and not (first_only and n > 0):
        n += gauntlets.unit_options(state, params, c, out, first_only)
    return n


@jit
def stage1_selections(state, params, out):
    """Mark in ``out`` each cell c not yet selectable (``out[c] == 0``) whose selection
    has Campaign actions (stage 1: a cell whose only follow-ups are Campaign actions);
    return how many. Same verdicts as :func:`unit_extras` with ``first_only`` on every
    cell; the "module on" checks run once, not once per cell. The probes also mark
    Campaign action ids: the caller clears ``out`` from ``A_BATTLE`` on afterwards."""
    field_on = field.any_on(params)
    river_on = river.any_on(params)
    units_on = units.any_on(params)
    gauntlet_on = gauntlets.on(params)
    if not (field_on or river_on or units_on or gauntlet_on):
        return 0
    n = 0
    for c in range(N_CELLS):
        if out[c] != 0:
            continue
        k = 0
        if field_on:
            k += field_actions.unit_extras(state, params, c, out, True)
        if river_on and k == 0:
            k += river.unit_extras(state, params, c, out, True)
        if units_on and k == 0:
            k += units_actions.unit_extras(state, params, c, out, True)
        if gauntlet_on and k == 0:
            k += gauntlets.unit_options(state, params, c, out, True)
        if k > 0:
            out[c] = 1
            n += 1
    return n


@jit
def apply_unit_extra(state, params, c, a):
    """The selection on c does Campaign action a."""
    if A_FIELD <= a < A_FIELD + A_FIELD_SIZE:
        field_actions.apply_unit_extra(state, params, c, a)
    if A_RIVER <= a < A_RIVER + A_RIVER_SIZE:
        river.apply_unit_extra(state, params, c, a)
    elif A_UNITS <= a < A_UNITS + A_UNITS_SIZE:
        units_actions.apply_unit_extra(state, params, c, a)
    elif A_BATTLE <= a < A_BATTLE + A_BATTLE_SIZE:
        return gauntlets.apply_unit(state, params, c, a)
    return False


@jit
def turn_extras(state, params, out):
    """Mark the Campaign actions open in stage 1 (no selection); return the count."""
    n = 0
    if field.any_on(params):
        n += field_actions.turn_extras(state, params, out)
    if weather.on(params):
        n += weather.play_options(state, params, out)
    if river.any_on(params):
        n += river.turn_extras(state, params, out)
    if units.any_on(params):
        n += units.turn_extras(state, params, out)
    if gauntlets.on(params):
        n += gauntlets.turn_options(state, params, out)
    if deeds.on(params):
        n += deeds.turn_options(state, params, out)
    return n


@jit
def apply_turn_extra(state, params, a):
    """Apply the stage-1 Campaign action a."""
    if A_FIELD <= a < A_FIELD + A_FIELD_SIZE:
        field_actions.apply_turn_extra(state, params, a)
    if A_WEATHER <= a < A_WEATHER + A_WEATHER_SIZE:
        weather.play_card(state, params, a)
    elif A_RIVER <= a < A_RIVER + A_RIVER_SIZE:
        river.apply_turn_extra(state, params, a)
    elif A_UNITS <= a < A_UNITS + A_UNITS_SIZE:
        units.apply_turn_extra(state, params, a)
    elif A_BATTLE <= a < A_BATTLE + A_BATTLE_SIZE:
        gauntlets.apply_turn(state, params, a)
    elif A_DEEDS <= a < A_DEEDS + A_DEEDS_SIZE:
        deeds.apply_turn(state, params, a)
    return False


ACTION_NAMES: dict[int, str] = {
    **field_actions.ACTION_NAMES,
    **weather.ACTION_NAMES,
    **river.ACTION_NAMES,
    **units.ACTION_NAMES,
    **gauntlets.ACTION_NAMES,
    **deeds.ACTION_NAMES,
}
"""Campaign action id -> its text in ``action_to_str``/``parse_action`` (each module
adds its ids: ``"clean latrine"``, ``"deploy trebuchet"``, ...). Names are unique."""
