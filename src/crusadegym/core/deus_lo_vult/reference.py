"""Slow, plain-Python versions of the hardest kernels, used only by tests.

Written from the rulebook sentences with sets and dicts instead of arrays, so that
the compiled kernels in ``rules.py`` can be cross-checked on many random positions:
bands, move destinations, stampede detection, combat resolution and the full legal
action set (stage 1 and stage 2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import actions as A
from . import layout as L
from . import tables as T
from .config import (
    P_CAMP_CENTRE,
    P_CAMP_OWNER,
    P_CHIVALROUS,
    P_DBL_ADJ,
    P_DBL_SHIELD,
    P_DEPLOY,
    P_PLAYERS,
    P_ROBBING,
)

# The rulebook's Combat Results Table, row by row (attacker, defenders, outcome).
RULEBOOK_CRT = [
    ("S", ["Sh"], (0, 0)),
    ("S", ["H", "A", "D"], (0, 1)),
    ("S", ["S", "X"], (1, 1)),
    ("A", ["Sh"], (0, 0)),
    ("A", ["H", "A", "D", "S"], (0, 1)),
]


def ref_combat(att: str, dfd: str, charge: bool = False, dbl_wounds_shield: bool = False):
    """Outcome (attacker damage, defender damage) per the rulebook table + our readings."""
    if att == "S" and dfd == "Sh" and charge:
        return (0, 1)  # "Skull (melee) + Charge (broken shield) | Shield | 0 | 1"
    base = "S" if att == "X" else ("A" if att == "D" else att)  # X like skull; D like arrow
    target = "S" if (dfd == "X" and base == "A") else dfd
    for a, defenders, outcome in RULEBOOK_CRT:
        if a == base and target in defenders:
            if att == "D":
                if dfd == "Sh":
                    return (0, 1) if dbl_wounds_shield else (0, 0)
                return (0, 2 * outcome[1])
            return outcome
    raise ValueError(f"no table row for {att} vs {dfd}")


@dataclass
class Tok:
    id: int
    owner: int  # 0-3 seat, 4 Saracen, 5 City Quarter
    kind: int
    side: int
    face: int
    coins: int
    moved: int

    @property
    def crusader(self) -> bool:
        return self.owner < 4

    @property
    def saracen(self) -> bool:
        return self.owner == 4

    @property
    def quarter(self) -> bool:
        return self.owner == 5 and self.side == 0

    @property
    def refugee(self) -> bool:
        return self.owner == 5 and self.side == 1

    def icon(self, absdir: int) -> str:
        return T.ICON_CODES[T.KIND_EDGES[self.kind, self.side, (absdir - self.face) % 4]]

    def capacity_left(self) -> int:
        return int(T.KIND_CAPACITY[self.kind, self.side]) - self.coins if self.crusader else 0


class View:
    """A dict-based view of one state: cell -> token."""

    def __init__(self, state: np.ndarray, params: np.ndarray):
        self.state, self.params = state, params
        self.cells: dict[int, Tok] = {}
        for c in range(T.N_CELLS):
            t = int(state[L.BOARD + c])
            if t >= 0:
                self.cells[c] = Tok(
                    t,
                    int(T.TOKEN_OWNER[t]),
                    int(T.TOKEN_KIND[t]),
                    int(state[L.TOK_SIDE + t]),
                    int(state[L.TOK_FACE + t]),
                    int(state[L.TOK_COINS + t]),
                    int(state[L.TOK_MOVED + t]),
                )
        self.seat = int(state[L.CUR])
        self.phase = int(state[L.PHASE])
        self.players = int(params[P_PLAYERS])
        self.centres = {int(params[P_CAMP_CENTRE + p]) for p in range(self.players)}

    def camp_of(self, c: int) -> int:
        return int(self.params[P_CAMP_OWNER + c])

    @staticmethod
    def neighbours(c: int):
        r, col = divmod(c, T.SIZE)
        for d, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, col + dc
            if 0 <= rr < T.SIZE and 0 <= cc < T.SIZE:
                yield d, rr * T.SIZE + cc

    @staticmethod
    def toward(c: int, d: int, steps: int = 1) -> int:
        r, col = divmod(c, T.SIZE)
        rr, cc = r + steps * int(T.DR[d]), col + steps * int(T.DC[d])
        return rr * T.SIZE + cc if 0 <= rr < T.SIZE and 0 <= cc < T.SIZE else -1


def _friend(tok: Tok | None, seat: int, saracen: bool) -> bool:
    if tok is None:
        return False
    if tok.refugee:
        return True
    if saracen:
        return tok.saracen or tok.owner == 5
    return tok.crusader and tok.owner == seat


def ref_band(v: View, cell: int, seat: int, saracen: bool) -> set[int]:
    """The band (connected friendly units) containing cell, or empty."""
    if not _friend(v.cells.get(cell), seat, saracen):
        return set()
    band, frontier = {cell}, [cell]
    while frontier:
        c = frontier.pop()
        for _, n in v.neighbours(c):
            if n not in band and _friend(v.cells.get(n), seat, saracen):
                band.add(n)
                frontier.append(n)
    return band


def ref_stampede(cells: dict[int, Tok], dst: int) -> set[int]:
    """Cells trampled after a placement on dst: a T of friends around a Crusader/Refugee."""
    out = set()
    for c in [dst] + [n for _, n in View.neighbours(dst)]:
        tok = cells.get(c)
        if tok is None or not (tok.crusader or tok.refugee):
            continue
        around = [cells.get(n) for _, n in View.neighbours(c)]
        if tok.crusader:
            friends = sum(
                1 for x in around if x and (x.refugee or (x.crusader and x.owner == tok.owner))
            )
            if friends >= 3:
                out.add(c)
        else:
            friends = sum(1 for x in around if x and (x.refugee or x.crusader))
            if friends >= 3 and any(x and x.crusader for x in around):
                out.add(c)
    return out


def ref_move_targets(v: View, cell: int, seat: int, saracen: bool) -> set[int]:
    band = ref_band(v, cell, seat, saracen)
    if len(band) < 2:
        return set()
    others = band - {cell}
    out = set()
    for e in range(T.N_CELLS):
        if e in v.cells or e in v.centres:
            continue
        if not any(n in others for _, n in v.neighbours(e)):
            continue
        if not saracen and int(v.params[P_CHIVALROUS]) == 1:
            after = dict(v.cells)
            after[e] = after.pop(cell)
            if ref_stampede(after, e):
                continue
        out.add(e)
    return out


def _strike_target(v: View, cell: int, d: int):
    tok = v.cells[cell]
    icon = tok.icon(d)
    if icon not in ("S", "A", "D", "X"):
        return None, icon
    n1 = v.toward(cell, d)
    if n1 < 0:
        return None, icon
    if icon in ("S", "X"):
        return (n1 if n1 in v.cells else None), icon
    if n1 in v.cells:
        adj = icon == "D" and tok.owner == 5 and int(v.params[P_DBL_ADJ]) == 1
        return (n1 if adj else None), icon
    n2 = v.toward(cell, d, 2)
    return (n2 if n2 >= 0 and n2 in v.cells else None), icon


def ref_strike_ok(v: View, cell: int, d: int) -> bool:
    tok = v.cells[cell]
    tc, icon = _strike_target(v, cell, d)
    if tc is None:
        return False
    tgt = v.cells[tc]
    back = tgt.icon((d + 2) % 4)
    if tok.crusader:
        if v.phase != L.PH_ARMY or tok.owner != v.seat:
            return False
        if tgt.saracen:
            return True
        if tgt.quarter:
            return icon == "S" and back in ("C", "S") and tgt.coins > 0 and tok.capacity_left() > 0
        if tgt.refugee:
            return v.camp_of(tc) in (-1, v.seat)
        robbing = int(v.params[P_ROBBING]) == 1
        return (
            tgt.crusader
            and tgt.owner != v.seat
            and icon == "S"
            and (back == "H" or (back == "S" and robbing))
            and tgt.coins > 0
            and tok.capacity_left() > 0
        )
    if tok.saracen or (tok.quarter and icon in ("A", "D")):
        return tgt.crusader
    return False


def _army_points(state: np.ndarray, seat: int) -> int:
    total = 0
    for t in range(seat * T.ARMY_SIZE, (seat + 1) * T.ARMY_SIZE):
        loc = int(state[L.TOK_LOC + t])
        if loc >= 0 or loc == L.LOC_PURGATORY:
            total += int(T.KIND_COST[T.TOKEN_KIND[t]])
    return total


def _deployable(v: View, cell: int, kind: int) -> bool:
    st = v.state
    if cell in v.cells or cell in v.centres or v.camp_of(cell) != v.seat:
        return False
    cost = int(T.KIND_COST[kind])
    if _army_points(st, v.seat) + cost > T.ARMY_POINT_CAP:
        return False
    if v.phase == L.PH_DEPLOY and int(v.params[P_DEPLOY]) == 1 and cost > int(st[L.QUOTA]):
        return False
    reserve = [
        t
        for t in range(v.seat * T.ARMY_SIZE, (v.seat + 1) * T.ARMY_SIZE)
        if T.TOKEN_KIND[t] == kind and st[L.TOK_LOC + t] == L.LOC_RESERVE
    ]
    if not reserve:
        return False
    if int(v.params[P_CHIVALROUS]) == 1:
        after = dict(v.cells)
        after[cell] = Tok(reserve[0], v.seat, kind, 0, 0, 0, 0)
        if ref_stampede(after, cell):
            return False
    return True


def ref_options(v: View, cell: int) -> set[int]:
    """Stage-2 action ids available to a selection on cell."""
    out: set[int] = set()
    army = v.phase == L.PH_ARMY
    tok = v.cells.get(cell)
    if tok is None:
        if army or v.phase == L.PH_DEPLOY:
            out |= {A.DEPLOY0 + k for k in range(T.N_CRUSADER_KINDS) if _deployable(v, cell, k)}
        return out
    if v.phase == L.PH_DEPLOY:
        return out
    if tok.crusader:
        if not army or tok.owner != v.seat:
            return out
        own_camp = v.camp_of(cell) == v.seat
        if tok.side == 0:
            out.add(A.WEAKEN)
        if own_camp and tok.coins == 0:
            out.add(A.WITHDRAW)
        if own_camp and tok.side == 1 and tok.coins <= T.KIND_CAPACITY[tok.kind, 0]:
            out.add(A.HEAL)
        for d, n in v.neighbours(cell):
            other = v.cells.get(n)
            if tok.coins > 0:
                if (
                    n == int(v.params[P_CAMP_CENTRE + v.seat])
                    or (
                        other
                        and other.crusader
                        and other.owner == v.seat
                        and other.capacity_left() > 0
                    )
                    or (other is None and n not in v.centres)
                ):
                    out.add(A.GIVE0 + d)
            if tok.capacity_left() > 0 and other is None and v.state[L.GROUND + n] > 0:
                out.add(A.TAKE0 + d)
        out |= {A.STRIKE0 + d for d in range(4) if ref_strike_ok(v, cell, d)}
        out |= ref_move_targets(v, cell, v.seat, False)
        return out
    if tok.saracen:
        sar = {int(c): int(d) for c, d in zip(T.SARACEN_CELLS, T.SARACEN_DIRS, strict=True)}
        if cell in sar and tok.side == 1:
            out.add(A.HEAL)
        if cell in sar and tok.face != sar[cell]:
            out.add(A.REALIGN)
        out |= {A.STRIKE0 + d for d in range(4) if ref_strike_ok(v, cell, d)}
        out |= ref_move_targets(v, cell, v.seat, True)
        return out
    if tok.quarter:
        return {A.STRIKE0 + d for d in range(4) if ref_strike_ok(v, cell, d)}
    if v.camp_of(cell) >= 0:  # a Refugee in a camp stays
        return out
    if army:
        out |= ref_move_targets(v, cell, v.seat, False)
    return out | ref_move_targets(v, cell, v.seat, True)


def ref_legal_actions(state: np.ndarray, params: np.ndarray) -> set[int]:
    """The full legal action set of the seat to move."""
    if state[L.OVER]:
        return set()
    v = View(state, params)
    if v.phase == L.PH_PICK:
        bag = {
            int(T.TOKEN_KIND[t])
            for t in range(T.SARACEN_TOKEN0, T.QUARTER_TOKEN0)
            if state[L.TOK_LOC + t] == L.LOC_RESERVE
        }
        return {A.PICK0 + k - T.KIND_SARACEN0 for k in bag}
    if state[L.SEL] >= 0:
        return ref_options(v, int(state[L.SEL]))
    out = {c for c in range(T.N_CELLS) if ref_options(v, c)}
    if v.phase in (L.PH_ARMY, L.PH_SARACEN):
        out.add(A.END_TURN)
    return out


def ref_combat_icons(att_icon: int, def_icon: int, charge: bool, params: np.ndarray):
    """ref_combat on icon ids, with the double-arrow option read from params."""
    return ref_combat(
        T.ICON_CODES[att_icon], T.ICON_CODES[def_icon], charge, int(params[P_DBL_SHIELD]) == 1
    )
