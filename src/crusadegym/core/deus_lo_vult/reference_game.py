"""A plain-Python reference of the whole Duel: setup, legal actions and every step.

Written from the rulebook sentences (Part 1, Duel Rules 2.0) and the readings in
``docs/rules/deus_lo_vult.md``, with dataclasses, sets and dicts, and no numba. It
shares only the data tables (``tables.py``), the compiled options (``params``) and the
RNG primitives (``core/rng.py``) with the engine, never a kernel, so the tests can run
both on the same actions and compare the decoded state after every step
(:func:`decode` turns an engine state into a :class:`Duel`).

Slow on purpose: about a thousand steps per second.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import rng as R
from . import actions as A
from . import layout as L
from . import tables as T
from .config import (
    DEPLOYMENTS,
    DOUBLE_ARROW_SHIELD,
    P_CAMP_CENTRE,
    P_CAMP_OWNER,
    P_DBL_ADJ,
    P_DBL_SHIELD,
    P_DEPLOY,
    P_MAX_TURNS,
    P_PLAYERS,
    P_PRE_POINTS,
    P_PRE_UNITS,
    P_QUARTER_FACING,
    P_REPLENISH,
    P_ROBBING,
    P_ROUNDS,
    P_SARACEN_CAP,
    P_SARACEN_PLACE,
    P_SARACEN_TARGETS,
    P_SEAT_FACING,
    P_SECURE,
    P_STAMPEDE,
    P_TIE,
    P_WEAKEN_COST,
    SARACEN_PLACEMENTS,
    SARACEN_REPLENISH,
    SARACEN_TARGETS,
    SECURE_COINS,
    STAMPEDES,
    TIE_RULES,
    WEAKEN_COSTS,
)

RESERVE, PURGATORY, OFF, STACK = L.LOC_RESERVE, L.LOC_PURGATORY, L.LOC_OFF, L.LOC_STACK
PICK, DEPLOY, ARMY, SARACEN, OVER = L.PH_PICK, L.PH_DEPLOY, L.PH_ARMY, L.PH_SARACEN, L.PH_OVER
CRUSADER, SARACEN_OWNER, QUARTER_OWNER = "crusader", T.OWNER_SARACEN, T.OWNER_QUARTER
MOON = {int(c): int(d) for c, d in zip(T.SARACEN_CELLS, T.SARACEN_DIRS, strict=True)}
GREEN = [int(c) for c in T.SARACEN_CELLS]  # setup order, centre first


@dataclass
class Token:
    """One token: where it is, which side is up, where its front edge points."""

    loc: int
    side: int = 0
    face: int = 0
    coins: int = 0
    may_charge: bool = False


@dataclass
class Duel:
    """Everything a Duel position holds, by name."""

    rng: list[int]
    seat: int = 0
    ap: int = 0
    phase: int = ARMY
    selected: int = -1
    round: int = 0
    turn: int = 0
    steps: int = 0
    round_left: int = 0
    last_plunder: int = -1
    setup_k: int = 0
    quota: int = 0
    over: bool = False
    truncated: bool = False
    qnext: int = 0
    round_start: int = 0
    setup_done: int = 0
    score: list[int] = field(default_factory=lambda: [0] * 4)
    qorder: list[int] = field(default_factory=list)
    purgatory: list[int] = field(default_factory=lambda: [-1] * T.PURGATORY_SLOTS)
    board: dict[int, int] = field(default_factory=dict)
    ground: dict[int, int] = field(default_factory=dict)
    tokens: list[Token] = field(default_factory=list)


def decode(state: np.ndarray) -> Duel:
    """The engine's flat state as a :class:`Duel` (the differential tests compare these)."""
    s = state.tolist()
    tokens = [
        Token(
            s[L.TOK_LOC + t],
            s[L.TOK_SIDE + t],
            s[L.TOK_FACE + t],
            s[L.TOK_COINS + t],
            bool(s[L.TOK_MOVED + t]),
        )
        for t in range(T.N_TOKENS)
    ]
    return Duel(
        rng=s[L.RNG : L.RNG + 2],
        seat=s[L.CUR],
        ap=s[L.AP],
        phase=s[L.PHASE],
        selected=s[L.SEL],
        round=s[L.ROUND],
        turn=s[L.TURN],
        steps=s[L.STEP],
        round_left=s[L.ROUND_LEFT],
        last_plunder=s[L.LAST_PLUNDER],
        setup_k=s[L.SETUP_K],
        quota=s[L.QUOTA],
        over=bool(s[L.OVER]),
        truncated=bool(s[L.TRUNC]),
        qnext=s[L.QNEXT],
        round_start=s[L.ROUND_START],
        setup_done=s[L.SETUP_DONE],
        score=s[L.SCORE : L.SCORE + 4],
        qorder=s[L.QORDER : L.QORDER + T.N_QUARTERS],
        purgatory=s[L.PURG : L.PURG + T.PURGATORY_SLOTS],
        board={c: s[L.BOARD + c] for c in range(T.N_CELLS) if s[L.BOARD + c] >= 0},
        ground={c: s[L.GROUND + c] for c in range(T.N_CELLS) if s[L.GROUND + c]},
        tokens=tokens,
    )


def differences(a: Duel, b: Duel) -> list[str]:
    """Readable field-by-field differences between two positions (empty if equal)."""
    out = []
    for name in Duel.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if name == "tokens":
            pairs = enumerate(zip(x, y, strict=True))
            out += [f"token {t}: {p} != {q}" for t, (p, q) in pairs if p != q]
        elif x != y:
            out.append(f"{name}: {x} != {y}")
    return out


def neighbours(c: int) -> list[tuple[int, int]]:
    """(direction, cell) of the orthogonal neighbours of cell c (N, E, S, W)."""
    r, col = divmod(c, T.SIZE)
    out = []
    for d, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
        if 0 <= r + dr < T.SIZE and 0 <= col + dc < T.SIZE:
            out.append((d, (r + dr) * T.SIZE + col + dc))
    return out


def toward(c: int, d: int) -> int:
    return dict(neighbours(c)).get(d, -1)


def owner(t: int) -> int:
    return int(T.TOKEN_OWNER[t])


def kind(t: int) -> int:
    return int(T.TOKEN_KIND[t])


def is_crusader(t: int) -> bool:
    return owner(t) < T.MAX_PLAYERS


def is_saracen(t: int) -> bool:
    return owner(t) == SARACEN_OWNER


class Reference:
    """The Duel rules for one config (``params`` from ``make_params``), in plain Python."""

    def __init__(self, params: np.ndarray):
        p = [int(x) for x in params]
        self.players = p[P_PLAYERS]
        self.deployment = DEPLOYMENTS[p[P_DEPLOY]]
        self.pre_units, self.pre_points = p[P_PRE_UNITS], p[P_PRE_POINTS]
        self.tactical = SARACEN_PLACEMENTS[p[P_SARACEN_PLACE]] == "tactical"
        self.chivalrous = STAMPEDES[p[P_STAMPEDE]] == "chivalrous"
        self.robbing = bool(p[P_ROBBING])
        self.last_coin_wins = TIE_RULES[p[P_TIE]] == "last_coin"
        self.double_adjacent = bool(p[P_DBL_ADJ])
        self.double_wounds = DOUBLE_ARROW_SHIELD[p[P_DBL_SHIELD]] == "wound"
        self.max_turns, self.rounds = p[P_MAX_TURNS], p[P_ROUNDS]
        self.any_target = SARACEN_TARGETS[p[P_SARACEN_TARGETS]] == "any"
        self.weaken_paid = WEAKEN_COSTS[p[P_WEAKEN_COST]] == "action_point"
        self.cap = p[P_SARACEN_CAP]
        self.secure_all = SECURE_COINS[p[P_SECURE]] == "all"
        self.refill_all = SARACEN_REPLENISH[p[P_REPLENISH]] == "fill"
        self.camp = [p[P_CAMP_OWNER + c] for c in range(T.N_CELLS)]
        self.centre = [p[P_CAMP_CENTRE + s] for s in range(self.players)]
        self.facing = [p[P_SEAT_FACING + s] for s in range(self.players)]
        self.quarter_facing = [p[P_QUARTER_FACING + k] for k in range(4)]

    # ------------------------------------------------------------ small queries
    def is_centre(self, c: int) -> bool:
        return c in self.centre

    def refugee(self, g: Duel, t: int) -> bool:
        return owner(t) == QUARTER_OWNER and g.tokens[t].side == 1

    def quarter(self, g: Duel, t: int) -> bool:
        return owner(t) == QUARTER_OWNER and g.tokens[t].side == 0

    def icon(self, g: Duel, t: int, absdir: int) -> int:
        tok = g.tokens[t]
        return int(T.KIND_EDGES[kind(t), tok.side, (absdir - tok.face) % 4])

    def room(self, g: Duel, t: int) -> int:
        if not is_crusader(t):
            return 0
        return int(T.KIND_CAPACITY[kind(t), g.tokens[t].side]) - g.tokens[t].coins

    def army_points(self, g: Duel, seat: int) -> int:
        return sum(
            int(T.KIND_COST[kind(t)])
            for t in range(seat * T.ARMY_SIZE, (seat + 1) * T.ARMY_SIZE)
            if g.tokens[t].loc >= 0 or g.tokens[t].loc == PURGATORY
        )

    def bag(self, g: Duel) -> list[int]:
        return [t for t in range(T.SARACEN_TOKEN0, T.QUARTER_TOKEN0) if g.tokens[t].loc == RESERVE]

    def rival_camp(self, t: int, c: int) -> bool:
        """Unfriendly units "cannot stay" in rival camps: other seats' camps for a
        Crusader, every Crusader camp for a Saracen."""
        if self.camp[c] < 0:
            return False
        return self.camp[c] != owner(t) if is_crusader(t) else is_saracen(t)

    # ------------------------------------------------------------ bands and stampede
    def friendly(self, g: Duel, t: int, seat: int, saracen: bool) -> bool:
        if self.refugee(g, t):
            return True
        if saracen:
            return is_saracen(t) or owner(t) == QUARTER_OWNER
        return is_crusader(t) and owner(t) == seat

    def band(self, g: Duel, cell: int, seat: int, saracen: bool) -> set[int]:
        if cell not in g.board or not self.friendly(g, g.board[cell], seat, saracen):
            return set()
        found, todo = {cell}, [cell]
        while todo:
            c = todo.pop()
            for _, n in neighbours(c):
                if n in g.board and n not in found and self.friendly(g, g.board[n], seat, saracen):
                    found.add(n)
                    todo.append(n)
        return found

    def faction(self, g: Duel, cell: int) -> int:
        """The seat a Refugee on cell is attached to; two factions: first from the mover."""
        seats = {owner(g.board[n]) for _, n in neighbours(cell) if is_crusader(g.board.get(n, -1))}
        for i in range(self.players):
            if (g.seat + i) % self.players in seats:
                return (g.seat + i) % self.players
        return -1

    def in_t(self, g: Duel, cell: int) -> bool:
        """Is the unit on cell "surrounded by 3 friendly units"?"""
        t = g.board[cell]
        if is_crusader(t):
            seat = owner(t)
        elif self.refugee(g, t):
            seat = self.faction(g, cell)
            if seat < 0:
                return False
        else:
            return False
        friends = 0
        for _, n in neighbours(cell):
            u = g.board.get(n, -1)
            if u >= 0 and is_crusader(u) and owner(u) == seat:
                friends += 1
            elif u >= 0 and self.refugee(g, u) and self.faction(g, n) == seat:
                friends += 1
        return friends >= 3

    def t_units(self, g: Duel) -> dict[int, int]:
        return {c: t for c, t in g.board.items() if self.in_t(g, c)}

    def new_t_units(self, g: Duel, before: dict[int, int]) -> list[int]:
        return sorted(c for c, t in self.t_units(g).items() if before.get(c) != t)

    def would_trample(
        self, g: Duel, src: int, dst: int, t: int, before: dict[int, int] | None = None
    ) -> bool:
        """Would placing t on dst (from src, or -1) trample anyone? ``before``: the
        units in a T on the board as it stands (computed when not given)."""
        before = self.t_units(g) if before is None else before
        board = dict(g.board)
        if src >= 0:
            del g.board[src]
        g.board[dst] = t
        hit = bool(self.new_t_units(g, before))
        g.board = board
        return hit

    def move_targets(self, g: Duel, cell: int, saracen: bool) -> set[int]:
        band = self.band(g, cell, g.seat, saracen)
        if len(band) < 2:
            return set()
        t = g.board[cell]
        before = self.t_units(g) if self.chivalrous else {}
        out = set()
        for m in band - {cell}:
            for _, e in neighbours(m):
                if e in g.board or self.is_centre(e):
                    continue
                if g.ap <= 1 and self.rival_camp(t, e):
                    continue  # the last point would leave it in a rival camp
                if self.chivalrous and self.would_trample(g, cell, e, t, before):
                    continue
                out.add(e)
        return out

    # ------------------------------------------------------------ strikes
    def target(self, g: Duel, cell: int, d: int) -> tuple[int, int]:
        t = g.board[cell]
        icon = self.icon(g, t, d)
        if icon not in (T.ICON_S, T.ICON_A, T.ICON_D, T.ICON_X):
            return -1, icon
        n1 = toward(cell, d)
        if n1 < 0:
            return -1, icon
        if icon in (T.ICON_S, T.ICON_X):
            return (n1 if n1 in g.board else -1), icon
        if n1 in g.board:
            tower = owner(t) == QUARTER_OWNER
            return (n1 if icon == T.ICON_D and tower and self.double_adjacent else -1), icon
        n2 = toward(n1, d)
        return (n2 if n2 >= 0 and n2 in g.board else -1), icon

    def strike_kind(self, g: Duel, cell: int, d: int) -> str:
        t = g.board[cell]
        tc, icon = self.target(g, cell, d)
        if tc < 0:
            return ""
        u = g.board[tc]
        back = self.icon(g, u, (d + 2) % 4)
        if is_crusader(t):
            if g.phase != ARMY or owner(t) != g.seat:
                return ""
            if is_saracen(u):
                return "combat"
            if self.quarter(g, u):
                edge_ok = icon == T.ICON_S and back in (T.ICON_C, T.ICON_S)
                return "plunder" if edge_ok and g.tokens[u].coins and self.room(g, t) else ""
            if self.refugee(g, u):
                return "" if self.camp[tc] not in (-1, g.seat) else "kill refugee"
            through = back == T.ICON_H or (back == T.ICON_S and self.robbing)
            if owner(u) != g.seat and icon == T.ICON_S and through:
                return "steal" if g.tokens[u].coins and self.room(g, t) else ""
            return ""
        shooter = is_saracen(t) or (self.quarter(g, t) and icon in (T.ICON_A, T.ICON_D))
        if shooter and is_crusader(u) and (self.any_target or owner(u) != g.seat):
            return "combat"
        return ""

    def combat(self, att: int, dfd: int, charge: bool) -> tuple[int, int]:
        if att == T.ICON_D and self.double_wounds:
            return 0, 1
        if att == T.ICON_S and dfd == T.ICON_SH and charge:
            return 0, 1
        return int(T.CRT[att, dfd, 0]), int(T.CRT[att, dfd, 1])

    # ------------------------------------------------------------ legal actions
    def deployable(self, g: Duel, cell: int, k: int, used: int | None = None) -> bool:
        if cell in g.board or self.is_centre(cell) or self.camp[cell] != g.seat:
            return False
        cost = int(T.KIND_COST[k])
        used = self.army_points(g, g.seat) if used is None else used
        if used + cost > T.ARMY_POINT_CAP:
            return False
        if g.phase == DEPLOY and self.deployment == "latin" and cost > g.quota:
            return False
        reserve = self.reserve_token(g, g.seat, k)
        if reserve < 0:
            return False
        return not (self.chivalrous and self.would_trample(g, -1, cell, reserve))

    def reserve_token(self, g: Duel, seat: int, k: int) -> int:
        for t in range(seat * T.ARMY_SIZE, (seat + 1) * T.ARMY_SIZE):
            if kind(t) == k and g.tokens[t].loc == RESERVE:
                return t
        return -1

    def may_spawn(self, g: Duel) -> bool:
        on_board = sum(1 for t in g.board.values() if is_saracen(t))
        under_cap = self.cap == 0 or on_board < self.cap
        return g.phase in (ARMY, SARACEN) and bool(self.bag(g)) and under_cap

    def options(self, g: Duel, cell: int) -> set[int]:
        """Stage-2 action ids of a selection on cell."""
        out: set[int] = set()
        army = g.phase == ARMY
        t = g.board.get(cell, -1)
        if t < 0:
            if (army or g.phase == DEPLOY) and self.camp[cell] == g.seat:
                used = self.army_points(g, g.seat)
                kinds = range(T.N_CRUSADER_KINDS)
                return {A.DEPLOY0 + k for k in kinds if self.deployable(g, cell, k, used)}
            if cell in MOON and self.may_spawn(g):
                if not self.tactical:
                    return {A.SPAWN}
                return {A.PICK0 + kind(u) - T.KIND_SARACEN0 for u in self.bag(g)}
            return out
        if g.phase == DEPLOY:
            return out
        strikes = {A.STRIKE0 + d for d in range(4) if self.strike_kind(g, cell, d)}
        if is_crusader(t):
            if not army or owner(t) != g.seat:
                return out
            tok = g.tokens[t]
            home = self.camp[cell] == g.seat
            if tok.side == 0:
                out.add(A.WEAKEN)
            if home and tok.coins == 0:
                out.add(A.WITHDRAW)
            if home and tok.side == 1 and tok.coins <= T.KIND_CAPACITY[kind(t), 0]:
                out.add(A.HEAL)
            for d, n in neighbours(cell):
                u = g.board.get(n, -1)
                if tok.coins:
                    mine = u >= 0 and is_crusader(u) and owner(u) == g.seat and self.room(g, u)
                    empty = u < 0 and not self.is_centre(n)
                    if n == self.centre[g.seat] or mine or empty:
                        out.add(A.GIVE0 + d)
                if self.room(g, t) and u < 0 and g.ground.get(n, 0):
                    out.add(A.TAKE0 + d)
            return out | strikes | self.move_targets(g, cell, False)
        if is_saracen(t):
            if cell in MOON and g.tokens[t].side == 1:
                out.add(A.HEAL)
            if cell in MOON and g.tokens[t].face != MOON[cell]:
                out.add(A.REALIGN)
            return out | strikes | self.move_targets(g, cell, True)
        if self.quarter(g, t):
            return strikes
        if self.camp[cell] >= 0:  # a Refugee inside a camp stays
            return out
        if army:
            out |= self.move_targets(g, cell, False)
        return out | self.move_targets(g, cell, True)

    def legal(self, g: Duel) -> set[int]:
        """Every legal action id of the seat to move."""
        if g.over:
            return set()
        if g.phase == PICK:
            return {A.PICK0 + kind(u) - T.KIND_SARACEN0 for u in self.bag(g)}
        if g.selected >= 0:
            return self.options(g, g.selected)
        out = set()
        for c in range(T.N_CELLS):
            t = g.board.get(c, -1)
            if t >= 0 and is_crusader(t) and (owner(t) != g.seat or g.phase != ARMY):
                continue
            if self.options(g, c):
                out.add(c)
        if g.phase in (ARMY, SARACEN):
            out.add(A.END_TURN)
        return out

    # ------------------------------------------------------------ setup
    def new_game(self, seed: int) -> Duel:
        """A new Duel [R "Set Up"]: shuffled quarters, Saracens, pre-deployment."""
        rng = np.zeros(2, np.int32)
        R.seed(rng, 0, np.int64(seed))
        tokens = []
        for t in range(T.N_TOKENS):
            loc = RESERVE if T.KIND_IN_DUEL[kind(t)] else OFF
            face = self.facing[owner(t)] if owner(t) < self.players else 0
            tokens.append(Token(STACK if owner(t) == QUARTER_OWNER else loc, face=face))
        order = np.arange(T.N_QUARTERS, dtype=np.int32)
        R.shuffle(rng, 0, order, T.N_QUARTERS)
        g = Duel(rng=[int(x) for x in rng], qorder=[int(q) for q in order], tokens=tokens)
        self.deal_quarters(g)
        self.place_saracens(g, T.N_SARACEN_CELLS)  # setup: every green cell
        return g

    def put(self, g: Duel, t: int, c: int, face: int) -> None:
        g.board[c] = t
        tok = g.tokens[t]
        tok.loc, tok.face, tok.side, tok.may_charge = c, face, 0, False

    def deal_quarters(self, g: Duel) -> None:
        g.round_left = 0
        for slot in range(4):
            t = T.QUARTER_TOKEN0 + g.qorder[g.qnext]
            g.qnext += 1
            self.put(g, t, int(T.QUARTER_SLOTS[slot]), self.quarter_facing[slot])
            g.tokens[t].coins = int(T.KIND_COINS[kind(t)])
            g.round_left += g.tokens[t].coins

    def empty_green(self, g: Duel) -> list[int]:
        return [k for k, c in enumerate(GREEN) if c not in g.board]

    def place_saracens(self, g: Duel, quota: int) -> None:
        """Up to ``quota`` Saracens on the empty green cells, centre first [R]."""
        free = self.empty_green(g)[:quota]
        if self.tactical:
            if free and self.bag(g):
                g.phase, g.setup_k, g.selected, g.seat = PICK, free[0], -1, g.round_start
                g.quota = quota
                return
        else:
            bag = np.array(self.bag(g), np.int64)
            rng = np.array(g.rng, np.int32)
            R.shuffle(rng, 0, bag, len(bag))
            g.rng = [int(x) for x in rng]
            for k, t in zip(free, bag, strict=False):
                self.put(g, int(t), GREEN[k], MOON[GREEN[k]])
        self.start_round_play(g)

    def quota(self) -> int:
        return self.pre_points if self.deployment == "latin" else self.pre_units

    def start_round_play(self, g: Duel) -> None:
        if self.deployment == "campaign":
            self.begin_turn(g, g.round_start)
            return
        g.phase, g.selected, g.seat, g.setup_done = DEPLOY, -1, g.round_start, 0
        g.quota = self.quota()
        self.advance_setup(g)

    def can_deploy(self, g: Duel, seat: int) -> bool:
        saved, g.seat = g.seat, seat
        ok = any(
            self.deployable(g, c, k)
            for c in range(T.N_CELLS)
            if self.camp[c] == seat
            for k in range(T.N_CRUSADER_KINDS)
        )
        g.seat = saved
        return ok

    def advance_setup(self, g: Duel) -> None:
        while g.quota <= 0 or not self.can_deploy(g, g.seat):
            g.setup_done += 1
            if g.setup_done >= self.players:
                self.begin_turn(g, g.round_start)
                return
            g.seat = (g.seat + 1) % self.players
            g.quota = self.quota()

    def begin_turn(self, g: Duel, seat: int) -> None:
        g.seat, g.ap, g.phase, g.selected = seat, T.ACTION_POINTS, ARMY, -1
        for tok in g.tokens:
            tok.may_charge = False

    # ------------------------------------------------------------ damage
    def push_purgatory(self, g: Duel, t: int) -> None:
        if g.purgatory[-1] >= 0:
            g.tokens[g.purgatory[-1]].loc = RESERVE
        g.purgatory = [t] + g.purgatory[:-1]
        tok = g.tokens[t]
        tok.loc, tok.side, tok.may_charge = PURGATORY, 0, False

    def kill(self, g: Duel, t: int) -> None:
        tok = g.tokens[t]
        del g.board[tok.loc]
        if is_crusader(t) and tok.coins:
            g.ground[tok.loc] = g.ground.get(tok.loc, 0) + tok.coins
            tok.coins = 0
        if owner(t) == QUARTER_OWNER:
            tok.loc, tok.may_charge = OFF, False
        else:
            self.push_purgatory(g, t)

    def wound(self, g: Duel, t: int, n: int) -> None:
        if n <= 0 or self.quarter(g, t):
            return
        if n >= 2 or g.tokens[t].side == 1:
            self.kill(g, t)
        else:
            g.tokens[t].side = 1

    def trample_new(self, g: Duel, before: dict[int, int]) -> None:
        for c in self.new_t_units(g, before):
            self.kill(g, g.board[c])

    # ------------------------------------------------------------ the step
    def step(self, g: Duel, a: int) -> list[float]:
        """Apply legal action a; returns this transition's rewards (the result at the end)."""
        g.steps += 1
        phase = g.phase
        if phase == PICK:
            t = min(u for u in self.bag(g) if kind(u) == T.KIND_SARACEN0 + a - A.PICK0)
            self.put(g, t, GREEN[g.setup_k], MOON[GREEN[g.setup_k]])
            free = [k for k in self.empty_green(g) if k > g.setup_k]
            g.setup_k = free[0] if free else T.N_SARACEN_CELLS
            g.quota -= 1
            if not free or not self.bag(g) or g.quota <= 0:
                self.start_round_play(g)
            else:
                g.seat = (g.seat + 1) % self.players
        elif g.selected < 0:
            if a == A.END_TURN:
                self.end_turn(g)
            else:
                g.selected = a
        else:
            c, g.selected = g.selected, -1
            if self.act(g, c, a):
                self.next_round(g)
            elif phase == DEPLOY:
                self.advance_setup(g)
            elif g.ap <= 0:
                self.end_turn(g)
        return self.result(g) if g.over else [0.0] * self.players

    def act(self, g: Duel, c: int, a: int) -> bool:
        """The selection on c does a; True when the round's last coin was secured."""
        seat = g.seat
        t = g.board.get(c, -1)
        charge = t >= 0 and g.tokens[t].may_charge
        for tok in g.tokens:
            tok.may_charge = False  # a charge must directly follow the move
        saracen_action, cost = False, 1
        if a < A.STRIKE0:  # a move: with the army band if it can, else a Saracen band
            saracen_action = is_saracen(t) or (
                not is_crusader(t) and (g.phase != ARMY or a not in self.move_targets(g, c, False))
            )
            before = self.t_units(g)
            del g.board[c]
            g.board[a] = t
            g.tokens[t].loc = a
            self.pick_up(g, t, a)
            self.trample_new(g, before)
            if g.tokens[t].loc == a:
                g.tokens[t].may_charge = True
        elif a < A.GIVE0:
            saracen_action = not is_crusader(t)
            self.strike(g, c, a - A.STRIKE0, charge)
        elif a < A.TAKE0:
            n = toward(c, a - A.GIVE0)
            if n == self.centre[seat]:
                k = g.tokens[t].coins if self.secure_all else 1
                g.tokens[t].coins -= k
                g.score[seat] += k
                g.round_left -= k
                return self.spend(g, cost, saracen_action) or g.round_left == 0
            g.tokens[t].coins -= 1
            if n in g.board:
                g.tokens[g.board[n]].coins += 1
            else:
                g.ground[n] = g.ground.get(n, 0) + 1
        elif a < A.WITHDRAW:
            n = toward(c, a - A.TAKE0)
            g.ground[n] -= 1
            if not g.ground[n]:
                del g.ground[n]
            g.tokens[t].coins += 1
        elif a == A.WITHDRAW:
            del g.board[c]
            g.tokens[t].loc, g.tokens[t].side = RESERVE, 0
        elif a == A.HEAL:
            saracen_action = is_saracen(t)
            g.tokens[t].side = 0
        elif a == A.REALIGN:
            saracen_action = True
            g.tokens[t].face = MOON[c]
        elif a == A.WEAKEN:
            cost = 1 if self.weaken_paid else 0
            g.tokens[t].side = 1
        elif a < A.PICK0:
            k = a - A.DEPLOY0
            u = self.reserve_token(g, seat, k)
            before = self.t_units(g)
            self.put(g, u, c, self.facing[seat])
            self.pick_up(g, u, c)
            self.trample_new(g, before)
            if g.phase == DEPLOY:
                g.quota -= int(T.KIND_COST[k]) if self.deployment == "latin" else 1
        else:  # a spawn on an empty green cell
            saracen_action = True
            bag = self.bag(g)
            if self.tactical:
                u = min(x for x in bag if kind(x) == T.KIND_SARACEN0 + a - A.PICK0)
            else:
                rng = np.array(g.rng, np.int32)
                u = bag[int(R.randint(rng, 0, len(bag)))]
                g.rng = [int(x) for x in rng]
            before = self.t_units(g)
            self.put(g, u, c, MOON[c])
            self.trample_new(g, before)
        return self.spend(g, cost, saracen_action)

    def spend(self, g: Duel, cost: int, saracen_action: bool) -> bool:
        if saracen_action:
            g.phase = SARACEN
        if g.phase != DEPLOY:
            g.ap -= cost
        return False

    def pick_up(self, g: Duel, t: int, c: int) -> None:
        if is_crusader(t) and g.ground.get(c, 0):
            k = min(g.ground[c], self.room(g, t))
            g.ground[c] -= k
            if not g.ground[c]:
                del g.ground[c]
            g.tokens[t].coins += k

    def strike(self, g: Duel, c: int, d: int, charge: bool) -> None:
        t = g.board[c]
        what = self.strike_kind(g, c, d)
        tc, icon = self.target(g, c, d)
        u = g.board[tc]
        back = self.icon(g, u, (d + 2) % 4)
        if what == "combat":
            can_charge = charge and bool(T.KIND_CHARGE[kind(t)]) and owner(t) != QUARTER_OWNER
            hurt_attacker, hurt_defender = self.combat(icon, back, can_charge)
            self.wound(g, u, hurt_defender)
            self.wound(g, t, hurt_attacker)
        elif what in ("plunder", "steal"):
            g.tokens[u].coins -= 1
            g.tokens[t].coins += 1
            if what == "plunder":
                g.last_plunder = g.seat
                if g.tokens[u].coins == 0:
                    g.tokens[u].side = 1  # the empty quarter becomes a Refugee
            if back == T.ICON_S:
                self.wound(g, t, 1)
        elif what == "kill refugee":
            self.kill(g, u)
            if self.camp[tc] == g.seat:
                self.kill(g, t)

    def end_turn(self, g: Duel) -> None:
        """Units of the mover in rival camps and Saracens in any camp go to Purgatory."""
        for c in sorted(g.board):
            t = g.board.get(c, -1)
            if t < 0 or self.camp[c] < 0:
                continue
            if is_saracen(t) or (is_crusader(t) and owner(t) == g.seat and self.camp[c] != g.seat):
                self.kill(g, t)
        g.turn += 1
        if g.turn >= self.max_turns:
            self.finish(g, truncated=True)
            return
        self.begin_turn(g, (g.seat + 1) % self.players)

    def next_round(self, g: Duel) -> None:
        """[R "End of the Round"]: the transition list, then the next round's setup."""
        g.round += 1
        g.turn += 1
        if g.round >= self.rounds:
            self.finish(g, truncated=False)
            return
        # "Saracen camps are replenished to make up for those still in purgatory"
        dead = sum(1 for t, tok in enumerate(g.tokens) if is_saracen(t) and tok.loc == PURGATORY)
        replenish = T.N_SARACEN_CELLS if self.refill_all else dead
        survivors = sorted(t for t in g.board.values() if is_saracen(t))
        for t in g.board.values():
            tok = g.tokens[t]
            tok.may_charge = False
            if owner(t) == QUARTER_OWNER:
                tok.loc = OFF
            elif is_crusader(t):
                tok.loc, tok.side, tok.coins = RESERVE, 0, 0
        for tok in g.tokens:
            tok.may_charge = False
        g.board, g.ground = {}, {}
        for i, t in enumerate(survivors):
            if i < T.N_SARACEN_CELLS:
                side = g.tokens[t].side
                self.put(g, t, GREEN[i], MOON[GREEN[i]])
                g.tokens[t].side = side
            else:
                g.tokens[t].loc, g.tokens[t].side = RESERVE, 0
        self.deal_quarters(g)
        if g.turn >= self.max_turns:
            self.finish(g, truncated=True)
            return
        g.round_start = (g.seat + 1) % self.players
        self.place_saracens(g, replenish)

    def finish(self, g: Duel, truncated: bool) -> None:
        g.over, g.truncated, g.phase, g.selected = True, truncated, OVER, -1

    def result(self, g: Duel) -> list[float]:
        """Most coins wins; ties by the tie rule; everyone tied: 0 for all."""
        scores = g.score[: self.players]
        best = max(scores)
        won = [s == best for s in scores]
        if sum(won) > 1 and self.last_coin_wins and g.last_plunder >= 0 and won[g.last_plunder]:
            won = [p == g.last_plunder for p in range(self.players)]
        if all(won):
            return [0.0] * self.players
        return [1.0 if w else -1.0 for w in won]
