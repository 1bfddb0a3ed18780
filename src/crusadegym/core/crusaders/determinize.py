"""Hidden information: the Knight Order tiles dealt and not kept [C "dealt 2, keep 1"].

A seat sees its own dealt pair and every kept order; it never sees a rival's dealt
tiles. :func:`determinize` resamples them for one seat, consistently with its view:
the unseen tiles (every order in play but the seat's own pair and the kept orders) are
shuffled with the state's RNG and dealt again to the rivals, a rival who already chose
keeping its public order. The seat's observation is unchanged (``observe`` shows only
its own pair), and so is every later move: an unkept tile never affects play.
"""

from __future__ import annotations

import numpy as np

from .. import rng
from ..jit import ajit
from .board import base, n_players
from .config import DEAL_TWO, P_ORDERS
from .layout import PL_DEALT, PL_ORDER, RNG
from .setup import n_orders_in_play


@ajit
def determinize(state, params, seat):
    """Resample the rivals' dealt order tiles that ``seat`` cannot see (in place)."""
    if params[P_ORDERS] != DEAL_TWO:
        return
    players = n_players(params)
    n = n_orders_in_play(params)
    seen = np.zeros(n, np.int64)
    for j in range(2):
        seen[state[base(seat) + PL_DEALT + j]] = 1
    for q in range(players):
        if q != seat and state[base(q) + PL_ORDER] >= 0:
            seen[state[base(q) + PL_ORDER]] = 1
    pool = np.zeros(n, np.int64)
    m = 0
    for o in range(n):
        if not seen[o]:
            pool[m] = o
            m += 1
    rng.shuffle(state, RNG, pool, m)
    k = 0
    for q in range(players):
        if q == seat:
            continue
        b = base(q)
        kept = state[b + PL_ORDER]
        if kept >= 0:
            state[b + PL_DEALT] = kept
            state[b + PL_DEALT + 1] = pool[k]
            k += 1
        else:
            state[b + PL_DEALT] = pool[k]
            state[b + PL_DEALT + 1] = pool[k + 1]
            k += 2
