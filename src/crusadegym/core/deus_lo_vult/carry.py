"""How many coins a Crusader can carry [R "Carrying and Stealing Coins"], with the
Campaign's ``capacity`` hook (``campaign/hooks.py``).

A module of its own, imported by ``coins``, ``combat``, ``choices``, the invariants and
the Campaign modules that read capacity: it binds the hooks at its end, after its own
functions exist, because the hook modules import it (numba reads ``H.capacity`` only
when it compiles :func:`capacity`). In a Duel (``params[P_CAMPAIGN] == 0``) it is the
Duel's table, ``tables.KIND_CAPACITY``.
"""

from __future__ import annotations

from ..jit import jit
from .config import P_CAMPAIGN
from .layout import TOK_COINS, TOK_SIDE
from .pieces import KIND_CAPACITY, TOKEN_KIND, is_crusader


@jit
def capacity(state, params, t, side):
    """How many coins Crusader t can carry on ``side`` (0 strong, 1 weak); in a Campaign
    its rule modules may change it (Deeds' carrying reward, a dead El Cid)."""
    if not is_crusader(t):
        return 0
    cap = KIND_CAPACITY[TOKEN_KIND[t], side]
    if params[P_CAMPAIGN] != 0:
        cap = H.capacity(state, params, t, side, cap)
    return cap


@jit
def free_capacity(state, params, t):
    """How many more coins Crusader t can carry on the side it shows."""
    if not is_crusader(t):
        return 0
    return capacity(state, params, t, state[TOK_SIDE + t]) - state[TOK_COINS + t]


from .campaign import hookpoints as H  # noqa: E402  (last: the hook modules import this module)
