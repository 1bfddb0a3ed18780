"""The Campaign hooks as the Duel kernels call them: compiled in for a Campaign only.

The Duel modules (``choices``, ``combat``, ``carry``, ``setup``, ``turns``) call
``H.<hook>(state, params, ...)`` behind ``params[P_CAMPAIGN] != 0``. That runtime guard
alone would still compile every Campaign module into every Duel kernel (four times the
Duel's cold compile time, and bigger hot loops). So ``H`` is this module: each name here
is a numba ``overload`` chosen by the *type* of ``params``:

* Campaign params (:data:`~.config.PARAMS_DTYPE`, made by :func:`.config.make_params`)
  compile the real hook of :mod:`.hooks`;
* any other params (the Duel's ``int64``) compile the hook's Duel verdict from
  :data:`DUEL_VERDICTS` -- a few instructions, no Campaign code. Reached with
  ``P_CAMPAIGN`` set (Campaign params converted to another dtype), it raises instead of
  playing a Campaign without its rules.

Every jitted function of :mod:`.hooks` must have an entry in :data:`DUEL_VERDICTS`; a
new hook without one fails at import. These names work only inside compiled code.
"""

from __future__ import annotations

import numba
from numba.core.registry import CPUDispatcher
from numba.extending import overload

from ..config import P_CAMPAIGN
from . import hooks
from .config import PARAMS_DTYPE
from .units import DUEL_REACH, far_target

_WRONG_DTYPE = "Campaign params must keep their dtype (campaign.config.PARAMS_DTYPE)"


def _nothing(state, params, *args):
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)


def _yes(state, params, *args):
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return True


def _no(state, params, *args):
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return False


def _none_found(state, params, *args):
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return 0


def _last(state, params, *args):
    """The Duel's own value, passed in as the last argument."""
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return args[-1]


def _last_two(state, params, *args):
    """The Duel's own pair (damage to attacker, damage to defender), the last arguments."""
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return args[-2], args[-1]


def _duel_arrow(state, params, *args):
    """The Duel's arrow from ``args`` = (c, d): the token two clear steps away [R]."""
    if params[P_CAMPAIGN] != 0:
        raise ValueError(_WRONG_DTYPE)
    return far_target(state, args[0], args[1], DUEL_REACH)


DUEL_VERDICTS = {
    "begin_turn": _nothing,
    "end_turn": _nothing,
    "classify": _last,
    "combat": _last_two,
    "steal_wounds": _yes,
    "after_strike": _nothing,
    "may_move": _yes,
    "may_place": _yes,
    "after_move": _nothing,
    "round_transition": _nothing,
    "deal_quarters": _no,
    "may_give": _yes,
    "extra_moves": _none_found,
    "may_carry": _yes,
    "ranged_target": _duel_arrow,
    "capacity": _last,
    "after_weaken": _nothing,
    "adjoined_stale": _no,
}
"""Each hook's Duel verdict (what the Duel does without the Campaign's modules)."""


def _hook_names() -> list[str]:
    return [
        name
        for name, f in vars(hooks).items()
        if isinstance(f, CPUDispatcher) and f.py_func.__module__ == hooks.__name__
    ]


def _dispatch(name: str, campaign_hook: CPUDispatcher, duel_verdict) -> object:
    """A function callable from compiled code that is ``campaign_hook`` for Campaign
    params and ``duel_verdict`` for any other params type."""

    def point(*args):
        raise TypeError(f"hookpoints.{name} is only callable from compiled kernels")

    point.__name__ = point.__qualname__ = name
    campaign_type = numba.from_dtype(PARAMS_DTYPE)

    def campaign(state, params, *args):
        return campaign_hook(state, params, *args)

    @overload(point, jit_options={"nogil": True})
    def _choose(state, params, *args):
        if getattr(params, "dtype", None) == campaign_type:
            return campaign
        return duel_verdict

    return point


_missing = sorted(set(_hook_names()) - set(DUEL_VERDICTS))
if _missing:
    raise ImportError(
        f"campaign hooks without a Duel verdict in hookpoints.DUEL_VERDICTS: {_missing}"
    )
for _name in _hook_names():
    globals()[_name] = _dispatch(_name, getattr(hooks, _name), DUEL_VERDICTS[_name])
