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


@jit
def unit_extras(state, params, c, out, first_only):
    """Mark the Campaign actions of the selection on cell c in ``out``; return the count."""
    return 0


@jit
def apply_unit_extra(state, params, c, a):
    """The selection on c does Campaign action a."""
    return False


@jit
def turn_extras(state, params, out):
    """Mark the Campaign actions open in stage 1 (no selection); return the count."""
    return 0


@jit
def apply_turn_extra(state, params, a):
    """Apply the stage-1 Campaign action a."""
    return False


ACTION_NAMES: dict[int, str] = {}
"""Campaign action id -> its text in ``action_to_str``/``parse_action`` (each module
adds its ids: ``"clean latrine"``, ``"deploy trebuchet"``, ...). Names are unique."""
