"""The action wheel: wedge values, sowing (mancala) and the orders' sowing powers [C].

"Pick up all tokens from that wedge. Sow them one at a time clockwise, starting with
the wedge directly after it" [C]; past the sixth token the sowing goes on around the
wheel, the emptied wedge included [I]. The giant token (Female Order of the Band)
is one token when sown, sown first [I], and counts 2 when resolving [R].
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .actions import SOWC_CCW, SOWC_DOUBLE1, SOWC_FROM_SELF, SOWC_NORMAL, SOWC_SKIP1
from .board import base
from .layout import PL_GIANT, PL_ORDER, PL_TOK, PL_UP, PL_WHEEL, POWER_USED


@jit
def wedge_value(state, p, pos):
    """X of the wedge at position pos: its tokens, the giant counting 2 [R]."""
    b = base(p)
    v = state[b + PL_TOK + pos]
    if state[b + PL_GIANT] == pos:
        v += T.GIANT_VALUE - 1
    return v


@jit
def sow_power(state, p):
    """The sowing power of seat p's order (``tables.SOW_*``)."""
    o = state[base(p) + PL_ORDER]
    return T.ORDER_SOW[o] if o >= 0 else T.SOW_NORMAL


@jit
def sow_code_legal(state, p, pos, code):
    """May seat p sow the wedge at pos with sowing code ``code``? [C] order powers."""
    n = state[base(p) + PL_TOK + pos]
    if n <= 0:
        return False
    if code == SOWC_NORMAL:
        return True
    power = sow_power(state, p)
    if code == SOWC_CCW:
        return power == T.SOW_CCW
    if code == SOWC_FROM_SELF:
        return power == T.SOW_FROM_SELF
    if state[POWER_USED] != 0:  # skip and double: "once per turn" [C]
        return False
    if code < SOWC_DOUBLE1:
        k = code - SOWC_SKIP1 + 1
        return power == T.SOW_SKIP and k <= n
    k = code - SOWC_DOUBLE1 + 1
    return power == T.SOW_DOUBLE and k <= n - 1


@jit
def n_sow_choices(state, p, pos):
    """How many sowing codes are legal (1 = just the normal sowing)."""
    c = 0
    for code in range(3 + 2 * T.N_WEDGES):
        if sow_code_legal(state, p, pos, code):
            c += 1
    return c


@jit
def sow(state, p, pos, code):
    """Pick up the tokens of the wedge at pos and sow them [C] (code: the order power used)."""
    b = base(p)
    n = state[b + PL_TOK + pos]
    state[b + PL_TOK + pos] = 0
    giant_here = state[b + PL_GIANT] == pos
    step = -1 if code == SOWC_CCW else 1
    i = pos - step if code == SOWC_FROM_SELF else pos
    skip_at = code - SOWC_SKIP1 + 1 if SOWC_SKIP1 <= code < SOWC_DOUBLE1 else -1
    double_at = code - SOWC_DOUBLE1 + 1 if code >= SOWC_DOUBLE1 else -1
    if skip_at > 0 or double_at > 0:
        state[POWER_USED] = 1
    visits = 0
    drops = 0
    while n > 0:
        i = (i + step) % T.N_WEDGES
        visits += 1
        if visits == skip_at:
            continue
        drops += 1
        d = 2 if drops == double_at and n >= 2 else 1
        state[b + PL_TOK + i] += d
        n -= d
        if giant_here and drops == 1:
            state[b + PL_GIANT] = i


@jit
def upgrade(state, p, pos):
    """Flip a wedge to its upgraded side; its tokens stay on it [C1]."""
    state[base(p) + PL_UP + pos] = 1


@jit
def all_upgraded(state, p):
    b = base(p)
    for i in range(T.N_WEDGES):
        if state[b + PL_UP + i] == 0:
            return False
    return True


@jit
def wedge_actions(state, p, pos):
    """The (first, second) actions of the wedge at pos; second is -1 on the basic side."""
    b = base(p)
    w = state[b + PL_WHEEL + pos]
    second = T.WEDGE_SECOND[w] if state[b + PL_UP + pos] else -1
    return T.WEDGE_FIRST[w], second
