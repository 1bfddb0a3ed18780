"""End of game: majorities, end-game points, the winner [C]/[R "Scoring"].

"Enemy majorities: most tokens of an enemy = 5 influence, second = 2 (at least 1 token
needed). Ties use the back of the award tile; a tie for first means no second place is
awarded" [C]. The expansion adds the same award for influence tiles collected [R], and
"the end game points conferred by 7-cost Influence tiles and level I-III Vaults in
addition to level IV buildings" [R]. "The player with the most Influence points is the
winner. In case of a tie, the tied player earlier in turn order is the winner" [R].
"""

from __future__ import annotations

import numpy as np

from ..jit import ajit, jit
from . import tables as T
from .board import base, bld_level, bld_owner, has_level, n_players
from .config import P_EXPANSION
from .layout import (
    MAX_PLAYERS,
    PL_CAPT,
    PL_KNIGHT,
    PL_NEND,
    PL_NTILES,
    PL_SCORE,
    PL_TOK,
    PL_TROOPS,
    PL_UP,
    R_BLD_A,
    R_BLD_B,
)


@jit
def majority(counts, players, out):
    """Add the 5 / 2 majority award for ``counts`` (one per seat) to ``out`` [C]."""
    best = 0
    for p in range(players):
        best = max(best, counts[p])
    if best < 1:
        return
    n1 = 0
    for p in range(players):
        if counts[p] == best:
            n1 += 1
    if n1 > 1:
        for p in range(players):
            if counts[p] == best:
                out[p] += T.TIE_SHARE_FIRST[n1]
        return
    second = 0
    for p in range(players):
        if counts[p] < best:
            second = max(second, counts[p])
    n2 = 0
    for p in range(players):
        if counts[p] == best:
            out[p] += T.MAJ_FIRST
        elif second >= 1 and counts[p] == second:
            n2 += 1
    for p in range(players):
        if second >= 1 and counts[p] == second and counts[p] < best:
            out[p] += T.MAJ_SECOND if n2 == 1 else T.TIE_SHARE_SECOND[n2]


@jit
def level4_on_map(state, p):
    """Seat p's level IV buildings on the map (for the Bank IV) [C]."""
    n = 0
    for r in range(T.N_REGIONS):
        for off in (R_BLD_A, R_BLD_B):
            c = state[off + r]
            if c >= 0 and bld_owner(c) == p and bld_level(c) == T.LEVEL_IV:
                n += 1
    return n


@ajit
def endgame_points(state, params, p):
    """Level IV buildings [C]/[R], Vaults I-III [R], 7-cost tiles [R] of seat p."""
    b = base(p)
    pts = 0
    gone = np.zeros(T.N_BUILDING_TYPES, np.int64)
    for t in range(T.N_BUILDING_TYPES):
        gone[t] = 0 if has_level(state, p, t, T.LEVEL_IV) else 1
    capt = state[b + PL_CAPT : b + PL_CAPT + T.N_ENEMY_TYPES]
    troops = state[b + PL_TROOPS]
    if gone[T.CASTLE]:
        pts += T.CASTLE_IV_PER_SET * min(capt[0], min(capt[1], capt[2]))
    if gone[T.CHURCH]:
        pts += T.CHURCH_IV_POINTS
    if gone[T.FARM]:
        knights = 0
        for k in range(T.N_KNIGHTS):
            if state[b + PL_KNIGHT + k] >= 0:
                knights += 1
        pts += knights + troops
    if gone[T.BANK]:
        pts += T.BANK_IV_PER_LEVEL4 * level4_on_map(state, p)
    if params[P_EXPANSION]:
        if gone[T.KEEP]:
            pts += troops
        if gone[T.CHAPEL]:  # action tokens, the giant one of them: the giant counts 2 only
            for i in range(T.N_WEDGES):  # "when resolving actions" [R "Female Order ..."]
                if state[b + PL_TOK + i] >= T.CHAPEL_IV_MIN_TOKENS:
                    pts += T.CHAPEL_IV_PER_WEDGE
        if gone[T.VAULT]:
            for i in range(T.N_WEDGES):
                pts += state[b + PL_UP + i]
        for lv in range(T.N_LEVELS - 1):
            if not has_level(state, p, T.VAULT, lv):
                pts += T.VAULT_POINTS[lv]
        pts += state[b + PL_NEND] * state[b + PL_NTILES]
    return pts


@ajit
def final_points(state, params, out):
    """End-of-game points per seat (added to the scores when the game ends)."""
    players = n_players(params)
    out[:] = 0
    counts = np.zeros(MAX_PLAYERS, np.int64)
    for kind in range(T.N_ENEMY_TYPES):
        for p in range(players):
            counts[p] = state[base(p) + PL_CAPT + kind]
        majority(counts, players, out)
    if params[P_EXPANSION]:
        for p in range(players):
            counts[p] = state[base(p) + PL_NTILES]
        majority(counts, players, out)
    for p in range(players):
        out[p] += endgame_points(state, params, p)


@ajit
def score_game(state, params):
    """Add the end-of-game points to every seat's influence."""
    pts = np.zeros(MAX_PLAYERS, np.int64)
    final_points(state, params, pts)
    for p in range(n_players(params)):
        state[base(p) + PL_SCORE] += pts[p]


@jit
def winner(state, params):
    """Most influence; a tie goes to the player earlier in turn order [R]."""
    best, who = -1, 0
    for p in range(n_players(params)):
        s = state[base(p) + PL_SCORE]
        if s > best:
            best, who = s, p
    return who
