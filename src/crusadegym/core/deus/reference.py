"""Slow, plain-Python versions of the hardest Deus kernels, for differential tests only.

Written from the rulebook, not from the kernels: legal placement regions of a building
[R A.4], barbarian-village attacks [R "Attacking a Barbarian Village"], and the final
score [R "End of Game and Scoring"]. Each reads a state array and returns plain values.
The whole step (setup, legal actions, every action, scoring) has its own plain-Python
reference, ``reference_game.py``, compared slot for slot with the engine by
``differential.py``; these three stay as a second, independent reading of the rules.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .config import (
    ESCAPE_ALWAYS,
    P_EDGE,
    P_ESCAPE,
    P_ON_BOARD,
    P_PLAYERS,
    P_SPACING,
    SPACING_STRICT,
)


def _on(params, r) -> bool:
    return r >= 0 and bool(params[P_ON_BOARD + r])


def _neighbours(params, r) -> list[int]:
    return [int(n) for n in T.NEIGH[r] if _on(params, int(n))]


def placement_regions(state, params, seat: int, ptype: int) -> dict[int, bool]:
    """{region: costs 3 VP} for every legal placement of a ``ptype`` piece by ``seat``."""
    owner = [int(state[L.OWNER + r]) for r in range(T.N_REGIONS)]
    terrain = [int(state[L.TERRAIN + r]) for r in range(T.N_REGIONS)]
    pieces = [int(state[L.PIECES + r]) for r in range(T.N_REGIONS)]
    players = int(params[P_PLAYERS])
    board = [r for r in range(T.N_REGIONS) if _on(params, r)]
    edge = {r for r in board if params[P_EDGE + r]}

    def fits(r):  # ships at sea, the rest on land, never a village
        if terrain[r] == T.VILLAGE:
            return False
        return (terrain[r] == T.SEA) == (ptype == T.MARITIME)

    def hex_distance(a, b):
        (q1, r1), (q2, r2) = T.AXIAL[a], T.AXIAL[b]
        return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2

    firsts = [
        int(state[L.player(q) + L.FIRST])
        for q in range(players)
        if q != seat and state[L.player(q) + L.FIRST] >= 0
    ]
    normal = set()
    if state[L.player(seat) + L.FIRST] < 0:
        empty_edges = [r for r in edge if owner[r] < 0 and fits(r)]
        spaced = [r for r in empty_edges if all(hex_distance(r, f) >= 3 for f in firsts)]
        if spaced or params[P_SPACING] == SPACING_STRICT:
            normal = set(spaced)
        else:
            normal = set(empty_edges)
    else:
        for r in board:
            if not fits(r):
                continue
            if owner[r] == seat and not pieces[r] >> ptype & 1:
                normal.add(r)
            elif owner[r] < 0 and any(owner[n] == seat for n in _neighbours(params, r)):
                normal.add(r)
    out = {r: False for r in normal}
    vp = int(state[L.player(seat) + L.VP])
    if (params[P_ESCAPE] == ESCAPE_ALWAYS or not normal) and vp >= T.ESCAPE_VP:
        for r in edge:
            if owner[r] < 0 and fits(r) and r not in out:
                out[r] = True
    return out


def attack(state, params) -> tuple[np.ndarray, list[int]]:
    """(VP per seat after every due attack, villages attacked) -- on a copy of the state."""
    players = int(params[P_PLAYERS])
    vp = np.array([int(state[L.player(p) + L.VP]) for p in range(players)])
    hit = []
    for v in range(T.N_REGIONS):
        if not _on(params, v) or state[L.TERRAIN + v] != T.VILLAGE or state[L.ATTACKED + v]:
            continue
        around = _neighbours(params, v)
        if any(state[L.OWNER + n] < 0 for n in around):
            continue
        armies = [0] * players
        builds = [0] * players
        for n in around:
            o = int(state[L.OWNER + n])
            armies[o] += int(state[L.PIECES + n] >> T.MILITARY & 1)
            builds[o] += bin(int(state[L.PIECES + n])).count("1")
        if sum(armies) == 0:
            continue
        most = max(armies)
        tied = [p for p in range(players) if armies[p] == most]
        most_b = max(builds[p] for p in tied)
        tied = [p for p in tied if builds[p] == most_b]
        for p in tied:
            vp[p] += int(state[L.VILLAGE_VP + v]) // len(tied)
        hit.append(v)
    return vp, hit


def final_scores(state, params) -> list[int]:
    """Each seat's final score: VP + temples (max 12 each) + 2 per majority."""
    players = int(params[P_PLAYERS])
    board = [r for r in range(T.N_REGIONS) if _on(params, r)]

    def mine(p):
        return [r for r in board if state[L.OWNER + r] == p]

    def nbuild(r):
        return bin(int(state[L.PIECES + r])).count("1")

    scores = []
    for p in range(players):
        s = int(state[L.player(p) + L.VP])
        n = int(state[L.col_n(p, T.TEMPLE)])
        for c in state[L.col(p, T.TEMPLE) : L.col(p, T.TEMPLE) + n]:
            d = int(T.CARD_DESIGN[c])
            e, a, b = int(T.DESIGN_EFFECT[d]), int(T.DESIGN_A[d]), int(T.DESIGN_B[d])
            if e == T.T_END_PER_CITY:
                v = a * sum(1 for r in mine(p) if nbuild(r) >= b)
            elif e == T.T_END_PER_TERRAIN:
                v = a * sum(1 for r in mine(p) if state[L.TERRAIN + r] == b)
            elif e == T.T_END_PER_BUILDING_ON:
                v = a * sum(nbuild(r) for r in mine(p) if state[L.TERRAIN + r] == b)
            else:
                v = a * sum(1 for r in mine(p) if state[L.PIECES + r] >> b & 1)
            s += min(v, T.TEMPLE_VP_CAP)
        scores.append(s)
    for slot in [L.RES + k for k in range(T.N_RESOURCES)] + [L.GOLD]:
        have = [int(state[L.player(p) + slot]) for p in range(players)]
        if max(have) >= 1:
            for p in range(players):
                if have[p] == max(have):
                    scores[p] += T.MAJORITY_VP
    return scores
