"""The Crusaders turn as a sequence of sub-decisions: ``legal_mask`` and ``step``.

A turn [C] is one of: resolve a wedge (its one or two actions, then sow), upgrade a
wedge (then optionally distribute one wedge), or skip turn & distribute. After the
sowing come the Chapels' tokens [R], then any extra distributions (influence tiles,
Livonian Brothers) [R "Distribute"]. The phase in the state says which decision is
asked; phases without a choice are passed automatically. The rule families live in
``travel``, ``muster``, ``crusade``, ``influence``, ``build``, ``wheel`` and ``scoring``.
"""

from __future__ import annotations

from ..jit import jit
from . import tables as T
from .actions import (
    BOOST,
    BTYPE0,
    DONE,
    FIRST0,
    MILL0,
    MOVE0,
    ORDER0,
    REGION0,
    RESOLVE0,
    SARACEN0,
    SOW0,
    SOWC_NORMAL,
    SPLIT0,
    UPGRADE0,
    WEDGE0,
)
from .board import action_bonus, active, base, gain, n_players, next_level
from .build import (
    FOLLOW_MILL,
    FOLLOW_VAULT,
    any_build,
    any_mill,
    any_site,
    can_build,
    mill_ok,
    place_building,
    uncover,
)
from .config import (
    DEAL_FREE,
    P_EXPANSION,
    P_MAX_TURNS,
    P_ORDERS,
    P_SHARED_START,
    P_SKIP,
    P_SPLIT,
    P_UPGRADES,
    SKIP_ALWAYS,
    SPLIT_ONE_EACH,
)
from .crusade import any_crusade, can_crusade, defeat, saracen_ok, saracen_reward
from .influence import any_collect, can_collect, collect
from .layout import (
    ACT,
    BOOSTED,
    BTYPE,
    BUILT_EXP,
    CTX_WEDGE,
    CUR,
    ENDING,
    MILL_LEVEL,
    MOVES_LEFT,
    OVER,
    PENDING_DIST,
    PH_BOOST,
    PH_BUILD_SITE,
    PH_BUILD_TYPE,
    PH_CRUSADE,
    PH_DIST,
    PH_FIRST,
    PH_INFLUENCE,
    PH_MILL,
    PH_ORDER,
    PH_OVER,
    PH_PLACE,
    PH_SARACEN,
    PH_SETUP,
    PH_SOW,
    PH_SPLIT,
    PH_TILE_UPGRADE,
    PH_TRAVEL,
    PH_TURN,
    PH_VAULT,
    PHASE,
    PL_CHAPELQ,
    PL_DEALT,
    PL_GIANT,
    PL_KNIGHT,
    PL_ONCE,
    PL_ORDER,
    PL_TOK,
    PL_TOKTOTAL,
    PL_UP,
    PL_WHEEL,
    POWER_USED,
    Q_ACT0,
    Q_ACT1,
    Q_VAL0,
    Q_VAL1,
    R_ENEMY,
    SAR_REGION,
    SAR_TOKEN,
    SETUP_SEAT,
    SETUP_STEP,
    SOWING_DIST,
    STEP,
    STRENGTH,
    TRAVEL_LEFT,
    TRUNC,
    TURN,
    USED_WEDGE,
)
from .muster import muster
from .scoring import score_game, winner
from .setup import init, n_orders_in_play  # noqa: F401  (init is a kernel of the SPEC)
from .travel import any_move, can_move, move
from .wheel import all_upgraded, n_sow_choices, sow, sow_code_legal, upgrade, wedge_value


# ============================================================== setup decisions
@jit
def order_ok(state, params, p, o):
    """May seat p keep order o? One of its two dealt tiles [C], or any (Free choice)."""
    if o >= n_orders_in_play(params):
        return False
    if params[P_ORDERS] == DEAL_FREE:
        return True
    b = base(p)
    return state[b + PL_DEALT] == o or state[b + PL_DEALT + 1] == o


@jit
def setup_step_ok(state, p, kind, i):
    """Is wedge position i a legal target of the order's setup step ``kind`` [C]/[R]?"""
    b = base(p)
    tok = state[b + PL_TOK + i]
    if kind == T.SS_ADD:
        return True
    if kind == T.SS_REMOVE:
        return tok >= 1 and state[b + PL_GIANT] != i
    if kind == T.SS_UPGRADE:
        return state[b + PL_UP + i] == 0
    if kind == T.SS_ONE:
        return tok == T.START_TOKENS_PER_WEDGE
    return tok == T.START_TOKENS_PER_WEDGE and state[b + PL_GIANT] < 0  # SS_GIANT


@jit
def current_setup_kind(state, p):
    o = state[base(p) + PL_ORDER]
    s = state[SETUP_STEP]
    if o < 0 or s >= T.MAX_SETUP_STEPS:
        return T.SS_NONE
    return T.ORDER_SETUP[o, s]


@jit
def apply_order(state, p, o):
    """Keep order o and apply its fixed setup changes [C]."""
    b = base(p)
    state[b + PL_ORDER] = o
    if T.ORDER_ONE_PER_WEDGE[o]:  # Calatrava: only 6 tokens, 1 per wedge
        for i in range(T.N_WEDGES):
            state[b + PL_TOK + i] = 1
        state[b + PL_TOKTOTAL] = T.N_WEDGES
    if T.ORDER_TRAVEL_TOKEN[o]:  # Holy Sepulchre: +1 token on each Travel wedge
        for i in range(T.N_WEDGES):
            if T.WEDGE_FIRST[state[b + PL_WHEEL + i]] == T.TRAVEL:
                state[b + PL_TOK + i] += 1
                state[b + PL_TOKTOTAL] += 1
    state[SETUP_STEP] = 0


@jit
def advance_setup(state, params):
    """Ask the next setup step of the current seat, or move to the next seat / placement."""
    p = state[CUR]
    while True:
        kind = current_setup_kind(state, p)
        if kind == T.SS_NONE:
            break
        for i in range(T.N_WEDGES):
            if setup_step_ok(state, p, kind, i):
                state[PHASE] = PH_SETUP
                return
        state[SETUP_STEP] += 1
    players = n_players(params)
    if state[SETUP_SEAT] + 1 < players:
        state[SETUP_SEAT] += 1
        state[CUR] = state[SETUP_SEAT]
        state[PHASE] = PH_ORDER
        return
    state[SETUP_SEAT] = players - 1  # knights are placed in reverse turn order [C]
    state[CUR] = players - 1
    state[PHASE] = PH_PLACE


@jit
def do_setup_step(state, p, i):
    b = base(p)
    kind = current_setup_kind(state, p)
    if kind == T.SS_ADD:
        state[b + PL_TOK + i] += 1
        state[b + PL_TOKTOTAL] += 1
    elif kind == T.SS_REMOVE or kind == T.SS_ONE:
        state[b + PL_TOK + i] -= 1
        state[b + PL_TOKTOTAL] -= 1
    elif kind == T.SS_UPGRADE:
        upgrade(state, p, i)
    else:  # SS_GIANT: the giant token replaces the wedge's 2 tokens [R]
        state[b + PL_TOK + i] = 1
        state[b + PL_TOKTOTAL] -= 1
        state[b + PL_GIANT] = i
    state[SETUP_STEP] += 1


@jit
def start_ok(state, params, r):
    """A starting region [C], one player per region unless ``shared_start`` [C]/[U]."""
    if not T.MAP_START[r] or not active(params, r):
        return False
    if params[P_SHARED_START]:
        return True
    for q in range(n_players(params)):
        if state[base(q) + PL_KNIGHT] == r:
            return False
    return True


@jit
def place_knight(state, params, r):
    p = state[CUR]
    b = base(p)
    state[b + PL_KNIGHT] = r
    o = state[b + PL_ORDER]
    if o >= 0 and T.ORDER_BLACK_KNIGHT[o]:  # Montesa's black knight starts with it [C]
        state[b + PL_KNIGHT + T.N_KNIGHTS - 1] = r
    if state[SETUP_SEAT] > 0:
        state[SETUP_SEAT] -= 1
        state[CUR] = state[SETUP_SEAT]
        return
    state[CUR] = 0
    begin_turn(state)


# ============================================================== turn flow
@jit
def begin_turn(state):
    state[PHASE] = PH_TURN
    state[POWER_USED] = 0
    state[BUILT_EXP] = 0
    state[USED_WEDGE] = -1
    state[CTX_WEDGE] = -1
    state[PENDING_DIST] = 0
    state[SOWING_DIST] = 0


@jit
def resolve(state, params, p, pos):
    """Option A: resolve the wedge at pos with X = its value [C]."""
    state[CTX_WEDGE] = pos
    state[USED_WEDGE] = pos
    x = wedge_value(state, p, pos)
    first = T.WEDGE_FIRST[state[base(p) + PL_WHEEL + pos]]
    if state[base(p) + PL_UP + pos]:
        state[Q_VAL0] = x  # split asked next
        state[PHASE] = PH_SPLIT
        return
    state[Q_ACT0] = first
    state[Q_VAL0] = x
    state[Q_ACT1] = -1
    next_action(state, params)


@jit
def split_ok(state, params, k):
    x = state[Q_VAL0]
    if k > x:
        return False
    if params[P_SPLIT] == SPLIT_ONE_EACH and x >= 2:
        return 1 <= k <= x - 1
    return True


@jit
def do_split(state, params, k):
    """Split an upgraded wedge's X between its two actions [C]; an action given 0 is not
    resolved [I]."""
    p = state[CUR]
    pos = state[CTX_WEDGE]
    w = state[base(p) + PL_WHEEL + pos]
    x = state[Q_VAL0]
    a, b2 = k, x - k
    state[Q_ACT0], state[Q_VAL0] = T.WEDGE_FIRST[w], a
    state[Q_ACT1], state[Q_VAL1] = T.WEDGE_SECOND[w], b2
    if a == 0:
        state[Q_ACT0], state[Q_VAL0] = state[Q_ACT1], b2
        state[Q_ACT1] = -1
    elif b2 == 0:
        state[Q_ACT1] = -1
    if state[Q_ACT1] >= 0:
        state[PHASE] = PH_FIRST  # "resolve the two actions in either order" [C]
        return
    next_action(state, params)


@jit
def next_action(state, params):
    """Start the queued actions in turn until one asks a decision; sow when none is left.

    A loop, not recursion: numba's cache cannot hold mutually recursive kernels.
    """
    p = state[CUR]
    while state[Q_ACT0] >= 0:
        a, v = state[Q_ACT0], state[Q_VAL0]
        state[Q_ACT0], state[Q_VAL0] = state[Q_ACT1], state[Q_VAL1]
        state[Q_ACT1] = -1
        state[ACT] = a
        state[STRENGTH] = v + action_bonus(state, params, p, a)
        state[BOOSTED] = 0
        if params[P_EXPANSION] and state[base(p) + PL_ONCE + a] > 0:
            state[PHASE] = PH_BOOST  # one-time tiles: "+1 bonus to that action" [R]
            return
        if run_action(state, params):
            return
    after_actions(state, params)


@jit
def run_action(state, params):
    """Resolve the current action with its strength; True when it asks a decision."""
    p = state[CUR]
    a = state[ACT]
    s = state[STRENGTH]
    if a == T.TRAVEL:
        state[TRAVEL_LEFT] = s
        state[MOVES_LEFT] = T.FREE_TRAVEL_STEPS
        if any_move(state, params, p):
            state[PHASE] = PH_TRAVEL
            return True
    elif a == T.MUSTER:
        muster(state, params, p, s)
    elif a == T.CRUSADE:
        if any_crusade(state, params, p):
            state[PHASE] = PH_CRUSADE
            return True
    elif a == T.INFLUENCE:
        if params[P_EXPANSION]:
            if any_collect(state, params, p):
                state[PHASE] = PH_INFLUENCE
                return True
        else:
            gain(state, p, s)  # base game: "gain X + influence bonuses" [C]
    elif any_build(state, params, p, s):
        state[PHASE] = PH_BUILD_TYPE
        return True
    return False


@jit
def follow_up(state, params, code):
    """After a building: a built Mill removes one [R]; a Vault flips a wedge [R]."""
    p = state[CUR]
    if code == FOLLOW_MILL and any_mill(state, p, state[MILL_LEVEL]):
        state[PHASE] = PH_MILL
        return
    if code == FOLLOW_VAULT and not all_upgraded(state, p):
        state[PHASE] = PH_VAULT
        return
    next_action(state, params)


@jit
def after_actions(state, params):
    """Sow the resolved wedge [C], asking the order power's choice when it has one."""
    p = state[CUR]
    state[SOWING_DIST] = 0
    start_sowing(state, params, p, state[CTX_WEDGE])


@jit
def start_sowing(state, params, p, pos):
    state[CTX_WEDGE] = pos
    if n_sow_choices(state, p, pos) > 1:
        state[PHASE] = PH_SOW
        return
    sow(state, p, pos, SOWC_NORMAL)
    after_sowing(state, params)


@jit
def after_sowing(state, params):
    if state[SOWING_DIST]:
        next_distribution(state, params)
    else:
        end_of_turn_effects(state, params)


@jit
def end_of_turn_effects(state, params):
    """Chapel tokens go onto the wedge used, after the sowing [R]; the Livonian Brothers
    may distribute after a turn with an expansion building [R]."""
    p = state[CUR]
    b = base(p)
    q = state[b + PL_CHAPELQ]
    if q > 0 and state[USED_WEDGE] >= 0:
        state[b + PL_TOK + state[USED_WEDGE]] += q
        state[b + PL_TOKTOTAL] += q
        state[b + PL_CHAPELQ] = 0
    o = state[b + PL_ORDER]
    if state[BUILT_EXP] and o >= 0 and T.ORDER_LIVONIAN[o]:
        state[PENDING_DIST] += 1
    next_distribution(state, params)


@jit
def next_distribution(state, params):
    """Offer the next extra distribution, or end the turn [R "Distribute"].

    "You may use Knight Order abilities on this distribution" [R]: each distribution may
    use the order's once-per-turn sowing power (Hospitaller skip, Templar double) anew,
    even when the turn's own sowing used it.
    """
    if state[PENDING_DIST] > 0:
        state[PENDING_DIST] -= 1
        state[POWER_USED] = 0
        state[PHASE] = PH_DIST
        return
    end_turn(state, params)


@jit
def end_turn(state, params):
    """Pass to the left; once the supply ran out, the round is finished [C]."""
    players = n_players(params)
    state[TURN] += 1
    nxt = (state[CUR] + 1) % players
    if state[ENDING] and nxt == 0:
        finish(state, params, 0)
        return
    if state[TURN] >= params[P_MAX_TURNS]:
        finish(state, params, 1)
        return
    state[CUR] = nxt
    begin_turn(state)


@jit
def finish(state, params, truncated):
    score_game(state, params)
    state[OVER] = 1
    state[TRUNC] = truncated
    state[PHASE] = PH_OVER


# ============================================================== legal mask
@jit
def legal_mask(state, params, out):
    """Legal actions of the seat to move (all zero once the game is over)."""
    out[:] = 0
    if state[OVER]:
        return 0
    p = state[CUR]
    b = base(p)
    ph = state[PHASE]
    if ph == PH_ORDER:
        for o in range(T.N_ORDERS):
            if order_ok(state, params, p, o):
                out[ORDER0 + o] = 1
    elif ph == PH_SETUP:
        kind = current_setup_kind(state, p)
        for i in range(T.N_WEDGES):
            if setup_step_ok(state, p, kind, i):
                out[WEDGE0 + i] = 1
    elif ph == PH_PLACE:
        for r in range(T.N_REGIONS):
            if start_ok(state, params, r):
                out[REGION0 + r] = 1
    elif ph == PH_TURN:
        skip_ok = params[P_SKIP] == SKIP_ALWAYS or all_upgraded(state, p)
        for i in range(T.N_WEDGES):
            if wedge_value(state, p, i) >= 1:
                out[RESOLVE0 + i] = 1
                if skip_ok:
                    out[WEDGE0 + i] = 1
            if params[P_UPGRADES] and state[b + PL_UP + i] == 0:
                out[UPGRADE0 + i] = 1
    elif ph == PH_SPLIT:
        for k in range(T.MAX_X + 1):
            if split_ok(state, params, k):
                out[SPLIT0 + k] = 1
    elif ph == PH_FIRST:
        out[FIRST0] = 1
        out[FIRST0 + 1] = 1
    elif ph == PH_BOOST:
        out[BOOST] = 1
        out[DONE] = 1
    elif ph == PH_TRAVEL:
        out[DONE] = 1
        for k in range(T.N_KNIGHTS):
            if state[b + PL_KNIGHT + k] < 0:
                continue
            for r in range(T.N_REGIONS):
                if can_move(state, params, p, k, r):
                    out[MOVE0 + T.N_KNIGHTS * r + k] = 1
    elif ph == PH_CRUSADE:
        out[DONE] = 1
        for r in range(T.N_REGIONS):
            if can_crusade(state, params, p, r):
                out[REGION0 + r] = 1
    elif ph == PH_SARACEN:
        r = state[SAR_REGION]
        e = state[SAR_TOKEN]
        for j in range(3):
            if saracen_ok(state, params, p, r, e, j):
                out[SARACEN0 + j] = 1
    elif ph == PH_INFLUENCE:
        out[DONE] = 1
        for r in range(T.N_REGIONS):
            if can_collect(state, params, p, r):
                out[REGION0 + r] = 1
    elif ph == PH_TILE_UPGRADE or ph == PH_VAULT:
        out[DONE] = 1
        for i in range(T.N_WEDGES):
            if state[b + PL_UP + i] == 0:
                out[WEDGE0 + i] = 1
    elif ph == PH_BUILD_TYPE:
        out[DONE] = 1
        for t in range(T.N_BUILDING_TYPES):
            if any_site(state, params, p, t, state[STRENGTH]):
                out[BTYPE0 + t] = 1
    elif ph == PH_BUILD_SITE:
        for r in range(T.N_REGIONS):
            if can_build(state, params, p, state[BTYPE], r, state[STRENGTH]):
                out[REGION0 + r] = 1
    elif ph == PH_MILL:
        out[DONE] = 1
        for t in range(T.N_BUILDING_TYPES):
            for lv in range(T.N_LEVELS):
                if mill_ok(state, p, t, lv, state[MILL_LEVEL]):
                    out[MILL0 + T.N_LEVELS * t + lv] = 1
    elif ph == PH_SOW:
        for c in range(3 + 2 * T.N_WEDGES):
            if sow_code_legal(state, p, state[CTX_WEDGE], c):
                out[SOW0 + c] = 1
    elif ph == PH_DIST:
        out[DONE] = 1
        for i in range(T.N_WEDGES):
            if state[b + PL_TOK + i] >= 1:
                out[WEDGE0 + i] = 1
    n = 0
    for a in range(out.shape[0]):
        n += out[a]
    return n


# ============================================================== step
@jit
def step(state, params, action, rewards):
    """Apply one (legal) action; ``rewards`` receives the final result when it ends."""
    rewards[:] = 0.0
    state[STEP] += 1
    p = state[CUR]
    b = base(p)
    ph = state[PHASE]
    a = action
    if ph == PH_ORDER:
        apply_order(state, p, a - ORDER0)
        advance_setup(state, params)
    elif ph == PH_SETUP:
        do_setup_step(state, p, a - WEDGE0)
        advance_setup(state, params)
    elif ph == PH_PLACE:
        place_knight(state, params, a - REGION0)
    elif ph == PH_TURN:
        if a < UPGRADE0:
            resolve(state, params, p, a - RESOLVE0)
        elif a < WEDGE0:
            upgrade(state, p, a - UPGRADE0)  # option B, then an optional distribution [C]
            state[PENDING_DIST] = 1
            next_distribution(state, params)
        else:
            state[SOWING_DIST] = 1  # option C: skip turn & distribute [C]
            start_sowing(state, params, p, a - WEDGE0)
    elif ph == PH_SPLIT:
        do_split(state, params, a - SPLIT0)
    elif ph == PH_FIRST:
        if a - FIRST0 == 1:
            state[Q_ACT0], state[Q_ACT1] = state[Q_ACT1], state[Q_ACT0]
            state[Q_VAL0], state[Q_VAL1] = state[Q_VAL1], state[Q_VAL0]
        next_action(state, params)
    elif ph == PH_BOOST:
        if a == BOOST:
            state[b + PL_ONCE + state[ACT]] -= 1
            state[STRENGTH] += 1
            state[BOOSTED] += 1
            if state[b + PL_ONCE + state[ACT]] > 0:
                return
        if not run_action(state, params):
            next_action(state, params)
    elif ph == PH_TRAVEL:
        if a == DONE:
            next_action(state, params)
        else:
            r, k = divmod(a - MOVE0, T.N_KNIGHTS)
            move(state, p, k, r)
            if not any_move(state, params, p):
                next_action(state, params)
    elif ph == PH_CRUSADE:
        if a == DONE:
            next_action(state, params)
        else:
            r = a - REGION0
            e = state[R_ENEMY + r]
            if defeat(state, params, p, r):
                state[SAR_REGION] = r
                state[SAR_TOKEN] = e
                state[PHASE] = PH_SARACEN
            else:
                next_action(state, params)
    elif ph == PH_SARACEN:
        saracen_reward(state, params, p, state[SAR_REGION], state[SAR_TOKEN], a - SARACEN0)
        state[SAR_REGION] = -1
        state[SAR_TOKEN] = -1
        next_action(state, params)
    elif ph == PH_INFLUENCE:
        if a == DONE:
            next_action(state, params)
        else:
            kind = collect(state, params, p, a - REGION0)
            if kind == T.TILE_UPGRADE and not all_upgraded(state, p):
                state[PHASE] = PH_TILE_UPGRADE
            else:
                next_action(state, params)
    elif ph == PH_TILE_UPGRADE or ph == PH_VAULT:
        if a != DONE:
            upgrade(state, p, a - WEDGE0)  # no tokens are distributed [R]
        next_action(state, params)
    elif ph == PH_BUILD_TYPE:
        if a == DONE:
            next_action(state, params)
        else:
            state[BTYPE] = a - BTYPE0
            state[PHASE] = PH_BUILD_SITE
    elif ph == PH_BUILD_SITE:
        r = a - REGION0
        t = state[BTYPE]
        state[MILL_LEVEL] = next_level(state, p, t)
        state[SAR_REGION] = r
        follow_up(state, params, place_building(state, params, p, t, r))
    elif ph == PH_MILL:
        if a == DONE:
            next_action(state, params)
        else:
            t, lv = divmod(a - MILL0, T.N_LEVELS)
            follow_up(state, params, uncover(state, params, p, t, lv, state[SAR_REGION], False))
    elif ph == PH_SOW:
        sow(state, p, state[CTX_WEDGE], a - SOW0)
        after_sowing(state, params)
    elif ph == PH_DIST:
        if a == DONE:
            next_distribution(state, params)
        else:
            state[SOWING_DIST] = 1
            start_sowing(state, params, p, a - WEDGE0)
    if state[OVER]:
        returns(state, params, rewards)


# ============================================================== queries
@jit
def current_player(state, params):
    return -1 if state[OVER] != 0 else state[CUR]


@jit
def is_terminal(state, params):
    return state[OVER] != 0


@jit
def is_truncated(state, params):
    return state[TRUNC] != 0


@jit
def returns(state, params, out):
    """Final reward per seat: the winner +1, the others -1 (zeros while running)."""
    out[:] = 0.0
    if state[OVER] == 0:
        return
    w = winner(state, params)
    for p in range(n_players(params)):
        out[p] = 1.0 if p == w else -1.0
