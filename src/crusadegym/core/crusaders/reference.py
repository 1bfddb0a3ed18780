"""Slow, plain-Python versions of the trickiest kernels, for differential tests only.

Written from the rule text, not from the kernels: sowing with every order power
[C], the majority awards with their tie rules [C]/[R], and the cost of a building site
[C]/[R]. ``tests/test_crusaders_reference.py`` compares them with the compiled code
over many random positions. The reference of the whole game (setup, legal actions and
every step) is ``reference_game.py``, which uses :func:`sow_ref` and :func:`majority_ref`.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T


def sow_ref(tokens: list[int], giant: int, pos: int, mode: str, k: int = 0) -> tuple[list, int]:
    """Tokens and giant position after sowing wedge ``pos``.

    mode: "cw", "ccw" (Teutonic), "self" (Aviz/Santiago: first token on the emptied
    wedge), "skip" (Hospitaller: pass the k-th wedge reached), "double" (Templar: the
    k-th drop is 2 tokens).
    """
    tokens = list(tokens)
    hand = tokens[pos]
    tokens[pos] = 0
    carries_giant = giant == pos
    order = []  # the wedges in the order the sowing reaches them
    direction = -1 if mode == "ccw" else 1
    start = pos if mode == "self" else (pos + direction) % T.N_WEDGES
    for j in range(4 * T.N_WEDGES):
        order.append((start + direction * j) % T.N_WEDGES)
    reached = 0
    drops = 0
    for w in order:
        if hand == 0:
            break
        reached += 1
        if mode == "skip" and reached == k:
            continue
        drops += 1
        n = 2 if (mode == "double" and drops == k and hand >= 2) else 1
        tokens[w] += n
        hand -= n
        if carries_giant and drops == 1:
            giant = w
    return tokens, giant


def majority_ref(counts: list[int]) -> list[int]:
    """Award points per seat: 5 / 2, at least 1 to qualify; a tie for 1st shares the
    tile's back and leaves 2nd unawarded; a tie for 2nd shares its back [C]/[R]."""
    out = [0] * len(counts)
    ranked = sorted({c for c in counts if c >= 1}, reverse=True)
    if not ranked:
        return out
    first = [p for p, c in enumerate(counts) if c == ranked[0]]
    if len(first) > 1:
        for p in first:
            out[p] = int(T.TIE_SHARE_FIRST[len(first)])
        return out
    out[first[0]] = T.MAJ_FIRST
    if len(ranked) > 1:
        second = [p for p, c in enumerate(counts) if c == ranked[1]]
        share = T.MAJ_SECOND if len(second) == 1 else int(T.TIE_SHARE_SECOND[len(second)])
        for p in second:
            out[p] = share
    return out


def build_cost_ref(state: np.ndarray, params: np.ndarray, p: int, t: int, r: int) -> int | None:
    """Cost for seat p to build type t in region r, or None when not allowed."""
    from .config import P_ACTIVE, P_EXPANSION

    b = L.pl(p)
    if t >= T.N_BASE_TYPES and not params[P_EXPANSION]:
        return None
    mask = int(state[b + L.PL_BOARD + t])
    levels = [lv for lv in range(T.N_LEVELS) if mask >> lv & 1]
    knights = set(int(x) for x in state[b + L.PL_KNIGHT : b + L.PL_KNIGHT + T.N_KNIGHTS])
    if not levels or not params[P_ACTIVE + r] or r not in knights:
        return None
    if state[L.R_ENEMY + r] >= 0:
        return None
    lv = levels[0]
    here = [int(c) for c in (state[L.R_BLD_A + r], state[L.R_BLD_B + r]) if c >= 0]
    if t < T.N_BASE_TYPES:
        if here:
            return None
        tile = int(state[L.R_BONUS + r])
        discount = int(T.BONUS_TILES[tile, 1]) if tile >= 0 and T.BONUS_TILES[tile, 0] == t else 0
        return max(int(T.BASE_COST[lv]) - discount, 0)
    dragon = int(state[b + L.PL_ORDER]) == T.DRAGON
    if not here:
        return int(T.EXP_COST[lv]) - (1 if dragon else 0)
    if len(here) > 1:
        return None
    if (here[0] // 4) % 8 == T.EXP_PAIR[t]:
        return int(T.EXP_PAIRED_COST[lv])
    return int(T.EXP_COST[lv]) - 1 if dragon else None


def travel_moves_ref(state: np.ndarray, params: np.ndarray, p: int) -> set[tuple[int, int]]:
    """(knight, region) steps legal with the travel points left [C]/[R "Travel"]."""
    from .config import P_ADJ

    b = L.pl(p)
    out = set()
    for k in range(T.N_KNIGHTS):
        src = int(state[b + L.PL_KNIGHT + k])
        if src < 0:
            continue
        cost = 2 if state[L.R_ENEMY + src] >= 0 else 1
        if state[L.R_COAT + src] == p:
            cost -= 1
        if cost > state[L.TRAVEL_LEFT] or (cost == 0 and state[L.MOVES_LEFT] <= 0):
            continue  # free steps: a budget of FREE_TRAVEL_STEPS per Travel
        for q in params[P_ADJ + 6 * src : P_ADJ + 6 * src + 6]:
            if q >= 0:
                out.add((k, int(q)))
    return out


def crusade_targets_ref(state: np.ndarray, params: np.ndarray, p: int) -> set[int]:
    """Regions with a knight of p and an enemy of strength <= the action's strength [C]."""
    from .config import P_EXPANSION

    b = L.pl(p)
    tracks = T.TRACK_EXPANSION if params[P_EXPANSION] else T.TRACK_BASE
    out = set()
    for k in range(T.N_KNIGHTS):
        r = int(state[b + L.PL_KNIGHT + k])
        e = int(state[L.R_ENEMY + r]) if r >= 0 else -1
        if e < 0:
            continue
        kind = int(T.ENEMY_TYPE[e])
        if kind == T.SARACEN:
            strength = T.SARACEN_STRENGTH
        else:
            strength = int(tracks[kind, min(int(state[L.TRACK + kind]), T.TRACK_LEN - 1)])
        if strength <= state[L.STRENGTH]:
            out.add(r)
    return out
