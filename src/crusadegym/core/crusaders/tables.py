"""Crusaders: Thy Will Be Done (+ Divine Influence) game data as numpy tables.

Every table cites its source with the tag of ``shared/research/crusaders_base_rules.md``
and ``crusaders_published_facts.md``: [R] the Divine Influence rulebook, [C] a sourced
fact of the published game (player aid, BGA), [C1] one source, [P] the designer's
prototype, [I] our inference, [U] unknown. Everything tagged [I]/[P]/[U] is
**stand-in data** and lives in ONE table per kind below, so the real numbers can be
dropped in without touching a kernel. Kernels look these tables up; they never branch
on a name.

Stand-in tables (one per unknown kind): ``MAP_*`` (hex map, adjacency, flags, bonus
spaces, start regions), ``BUILDING_BONUS``/``CASTLE_KNIGHT``/``BASE_COST``
(building costs and per-level bonuses), ``TRACK_*`` (strength tracks),
``WEDGE_SECOND`` (upgraded wedge sides), ``BONUS_TILES`` (the 30 bonus tiles),
``INF_TILES`` (the 43 influence tiles), ``TIE_SHARE_*`` (backs of the award tiles),
``VAULT_POINTS``, ``SARACEN_REWARD``, ``TROOP_LEVEL`` VI/VII.
"""

from __future__ import annotations

import numpy as np

STAND_IN_NOTE = (
    "Crusaders data marked [I]/[P]/[U] (the hex map and its adjacency, flags, bonus and "
    "start spaces, building costs and per-level bonuses, strength-track values, upgraded "
    "wedge sides, the 30 bonus tiles, the 43 influence tiles, tie splits, Vault points, "
    "Saracen rewards, troop VI/VII levels) are stand-ins, not the published game."
)

# ------------------------------------------------------------------ actions [C]
TRAVEL, MUSTER, CRUSADE, INFLUENCE, BUILD = 0, 1, 2, 3, 4
N_ACTION_TYPES = 5
ACTION_NAMES = ("travel", "muster", "crusade", "influence", "build")
ACTION_LETTERS = "TMCIB"

# ------------------------------------------------------------------ the wheel
N_WEDGES = 6
# Basic sides [C]: Travel, Travel, Muster, Crusade, Influence, Build.
WEDGE_FIRST = np.array([TRAVEL, TRAVEL, MUSTER, CRUSADE, INFLUENCE, BUILD], np.int64)
# Upgraded sides' second action [U]: stand-in. Travel/Build is the rulebook's example B-1
# [R]; Crusade/Build is shown in a review [C1]; the other pairs are [I].
WEDGE_SECOND = np.array([BUILD, INFLUENCE, CRUSADE, BUILD, MUSTER, INFLUENCE], np.int64)
START_TOKENS_PER_WEDGE = 2  # [C]
BASE_TOKENS = START_TOKENS_PER_WEDGE * N_WEDGES  # 12 [C]
MAX_X = 20  # largest value a wedge can hold (<= 13 + 1 + 3 Chapels + giant); SPLIT ids

# ------------------------------------------------------------------ the map [U] stand-in
# A 7 x 5 offset hex grid (odd columns shifted down half a hex), regions named a1..g5
# (column letter, row number). The 2-player side uses columns b..f only [C: a smaller
# side exists; its shape is U].
MAP_COLS, MAP_ROWS = 7, 5
N_REGIONS = MAP_COLS * MAP_ROWS
REGION_NAMES = tuple(f"{'abcdefg'[r % MAP_COLS]}{r // MAP_COLS + 1}" for r in range(N_REGIONS))


def _hex_neighbours() -> np.ndarray:
    """ADJ[r, k] = the k-th neighbour of region r on the full grid, or -1."""
    out = np.full((N_REGIONS, 6), -1, np.int64)
    for r in range(N_REGIONS):
        row, col = divmod(r, MAP_COLS)
        if col % 2 == 0:
            deltas = ((-1, 0), (1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
        else:
            deltas = ((-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1))
        k = 0
        for dr, dc in deltas:
            rr, cc = row + dr, col + dc
            if 0 <= rr < MAP_ROWS and 0 <= cc < MAP_COLS:
                out[r, k] = rr * MAP_COLS + cc
                k += 1
    return out


MAP_ADJ = _hex_neighbours()  # [U] stand-in adjacency


def _regions(names: str) -> np.ndarray:
    mask = np.zeros(N_REGIONS, np.int64)
    for n in names.split():
        mask[REGION_NAMES.index(n)] = 1
    return mask


MAP_SIDE_2P = _regions(" ".join(n for n in REGION_NAMES if n[0] in "bcdef"))  # [U]
MAP_FLAGS = _regions("a1 a3 a5 b2 b4 c1 c5 d1 d5 e1 e5 f2 f4 g1 g3 g5")  # [U] enemy spaces
MAP_BONUS = _regions("a2 a4 b1 b3 b5 c2 e4 f1 f3 f5 g2 g4")  # [U] bonus-tile outlines
MAP_START = _regions("c3 d2 d4 e3")  # [U] starting regions (knight icon) around d3

# ------------------------------------------------------------------ enemies
PRUSSIAN, SLAV, SARACEN = 0, 1, 2
N_ENEMY_TYPES = 3
ENEMY_NAMES = ("prussian", "slav", "saracen")
ENEMY_LETTERS = "PSA"
ENEMY_COUNTS = (11, 11, 10)  # [P] prototype split of the 32 tokens [C]
N_ENEMY_TOKENS = sum(ENEMY_COUNTS)
ENEMY_TYPE = np.array(
    [t for t, n in enumerate(ENEMY_COUNTS) for _ in range(n)], np.int64
)  # token id -> type
SARACEN_STRENGTH = 6  # [C] "Saracens: always strength 6"
SARACEN_FALLBACK_INFLUENCE = 3  # [C] "otherwise gain 3 influence"
REWARD_TROOP = -1
# What each Saracen token shows [C: a building or a troop; which, U]: building type, or -1.
_SARACEN_SHOWS = (-1, 0, 1, 2, 3, -1, 0, 1, 2, 3)  # [I] stand-in
SARACEN_REWARD = np.full(N_ENEMY_TOKENS, REWARD_TROOP, np.int64)
SARACEN_REWARD[ENEMY_COUNTS[0] + ENEMY_COUNTS[1] :] = _SARACEN_SHOWS
# Strength tracks [U] stand-in, indexed by defeats so far; the base tracks slow down at
# the top [C: designer], the expansion's replacement tracks do not [C, values U].
TRACK_LEN = 12
TRACK_BASE = np.array(
    [[4, 5, 6, 7, 8, 9, 10, 10, 11, 11, 12, 12], [3, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 11]],
    np.int64,
)
TRACK_EXPANSION = np.array(
    [[4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]],
    np.int64,
)
MAX_STRENGTH = 15

# ------------------------------------------------------------------ troops
# Troops cost and score their level [C]: 3..7; VI and VII are the expansion's tiles [R],
# their levels 8 and 9 are [I].
TROOP_LEVEL = np.array([3, 4, 5, 6, 7, 8, 9], np.int64)
BASE_TROOPS, EXPANSION_TROOPS = 5, 7
TROOP_CRUSADE_BONUS = 1  # [C] a mustered troop shows a Crusade icon

# ------------------------------------------------------------------ buildings
CASTLE, CHURCH, FARM, BANK, KEEP, CHAPEL, MILL, VAULT = 0, 1, 2, 3, 4, 5, 6, 7
N_BASE_TYPES, N_BUILDING_TYPES, N_LEVELS = 4, 8, 4
BUILDING_NAMES = ("castle", "church", "farm", "bank", "keep", "chapel", "mill", "vault")
BUILDING_LETTERS = ("Ca", "Ch", "Fa", "Ba", "Ke", "Cp", "Mi", "Va")
LEVEL_IV = 3
BASE_COST = np.array([3, 4, 5, 6], np.int64)  # [I] hypothesis H1 (per level, every row)
EXP_COST = np.array([5, 6, 7, 8], np.int64)  # [R] "5 / 6 / 7 / 8"
EXP_PAIRED_COST = np.array([3, 4, 5, 6], np.int64)  # [R] "reduced to 3 / 4 / 5 / 6"
EXP_PAIR = np.array([-1, -1, -1, -1, CASTLE, CHURCH, FARM, BANK], np.int64)  # [R]
DRAGON_DISCOUNT = 1  # [R] "-1 [gold hexagon]"
# Action bonus uncovered by each base building of level I-III [U] stand-in (the Bank's
# Build bonus is [C1]; the rulebook names churches, farms and banks as Influence sources
# [R]); -1 = none. Level IV uncovers end-game scoring instead [C].
BUILDING_BONUS = np.array(
    [
        [CRUSADE, TRAVEL, CRUSADE],  # Castle
        [INFLUENCE, INFLUENCE, INFLUENCE],  # Church
        [MUSTER, INFLUENCE, MUSTER],  # Farm
        [BUILD, INFLUENCE, BUILD],  # Bank
    ],
    np.int64,
)
CASTLE_KNIGHT = np.array([1, 0, 1, 0], np.int64)  # [I] which Castle levels free a knight
SPARE_KNIGHTS = 2  # [C]
# End-game scoring [C] (level IV) and [R] (Vaults, Keep/Chapel IV); values of Vault I-III [I]
CASTLE_IV_PER_SET = 4
CHURCH_IV_POINTS = 6
BANK_IV_PER_LEVEL4 = 4
CHAPEL_IV_PER_WEDGE = 2
CHAPEL_IV_MIN_TOKENS = 2
VAULT_POINTS = np.array([1, 1, 2], np.int64)  # [I] "score 1 or 2" (review)

# ------------------------------------------------------------------ knights
N_KNIGHTS = 4  # slot 0 starts on the map, 1-2 are the castle knights, 3 the black knight
KNIGHT_AWAY = -1  # not on the map (on the player board / not owned)

# ------------------------------------------------------------------ bonus tiles [U]
# 30 tiles [C], effects [U]: stand-in, each a discount on building one base type in
# its region (the rulebook: "no build bonus tiles apply to the new buildings" [R]).
N_BONUS_TILES = 30
BONUS_TILES = np.array(
    [[i % N_BASE_TYPES, 2 if i >= 24 else 1] for i in range(N_BONUS_TILES)], np.int64
)  # (building type, discount)

# ------------------------------------------------------------------ influence tiles [R]/[U]
# 43 tiles [R]: 12 immediate (cost 3-5: upgrade or distribute), 24 one-time x1 (cost 3-5,
# +1 to a later action of a type), 5 permanent (cost 6, one per action [C1]), 2 end-game
# (cost 7). Which costs, levels and action types each tile carries is [U]: stand-in.
TILE_UPGRADE, TILE_DISTRIBUTE, TILE_ONCE, TILE_PERMANENT, TILE_ENDGAME = 0, 1, 2, 3, 4
TILE_KIND_NAMES = ("upgrade", "distribute", "once", "permanent", "endgame")


def _influence_tiles() -> np.ndarray:
    rows = []
    for i in range(12):
        rows.append((TILE_UPGRADE if i % 2 == 0 else TILE_DISTRIBUTE, 3 + i % 3, -1))
    for i in range(24):
        rows.append((TILE_ONCE, 3 + i % 3, i % N_ACTION_TYPES))
    for a in range(N_ACTION_TYPES):
        rows.append((TILE_PERMANENT, 6, a))
    rows += [(TILE_ENDGAME, 7, -1), (TILE_ENDGAME, 7, -1)]
    out = np.zeros((len(rows), 4), np.int64)
    for i, (kind, cost, action) in enumerate(rows):
        out[i] = (kind, cost, action, min(cost - 2, 4))  # level I-IV [I] = cost - 2, max IV
    return out


INF_TILES = _influence_tiles()  # columns: kind, cost, action type, level
N_INF_TILES = INF_TILES.shape[0]
assert N_INF_TILES == 43
COATS_OF_ARMS = 16  # [R] per player
# Free Travel steps (out of your own Coat-of-Arms region with no enemy, cost 0 [R]) per
# Travel action. Paid steps are bounded by the points alone; free steps could loop, so
# they are bounded by the board: each knight's cheapest route leaves each of your
# Coat-of-Arms regions at most once, so no reachable placement of the knights is lost.
FREE_TRAVEL_STEPS = N_KNIGHTS * min(COATS_OF_ARMS, N_REGIONS - 1)

# ------------------------------------------------------------------ majorities
MAJ_FIRST, MAJ_SECOND = 5, 2  # [C]
# Backs of the award tiles [U]: points each of n players tied for 1st / for 2nd get.
TIE_SHARE_FIRST = np.array([0, 5, 3, 2, 1], np.int64)  # [I] (5+2) // n
TIE_SHARE_SECOND = np.array([0, 2, 1, 0, 0], np.int64)  # [I] 2 // n

# ------------------------------------------------------------------ supply
SUPPLY_BASE, SUPPLY_PER_PLAYER = 20, 60  # [C] 140 / 200 / 260

# ------------------------------------------------------------------ Knight Orders
# The ten base orders [C] (player aid) and the four expansion orders [R]. Setup steps are
# choices the player makes on the wheel after keeping the order; sowing powers bend the
# mancala; action modifiers add to one action's value.
SS_NONE, SS_ADD, SS_REMOVE, SS_UPGRADE, SS_ONE, SS_GIANT = 0, 1, 2, 3, 4, 5
SETUP_STEP_NAMES = ("-", "add a token", "remove a token", "upgrade", "leave 1 token", "giant")
SOW_NORMAL, SOW_CCW, SOW_FROM_SELF, SOW_SKIP, SOW_DOUBLE = 0, 1, 2, 3, 4
MAX_SETUP_STEPS = 4
ORDER_NAMES = (
    "alcantara",
    "aviz",
    "calatrava",
    "holy_sepulchre",
    "hospitaller",
    "montesa",
    "santiago",
    "st_lazarus",
    "templar",
    "teutonic",
    "female_band",
    "livonian",
    "dragon",
    "brandenburg",
)
N_BASE_ORDERS, N_ORDERS = 10, 14
(
    ALCANTARA,
    AVIZ,
    CALATRAVA,
    HOLY_SEPULCHRE,
    HOSPITALLER,
    MONTESA,
    SANTIAGO,
    ST_LAZARUS,
    TEMPLAR,
    TEUTONIC,
    FEMALE_BAND,
    LIVONIAN,
    DRAGON,
    BRANDENBURG,
) = range(N_ORDERS)


def _order_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    setup = np.zeros((N_ORDERS, MAX_SETUP_STEPS), np.int64)
    sow = np.zeros(N_ORDERS, np.int64)
    mods = np.zeros((N_ORDERS, N_ACTION_TYPES), np.int64)
    setup[ALCANTARA, :2] = (SS_ADD, SS_UPGRADE)  # [C] 13th token; upgrade 1 wedge
    setup[AVIZ, 0] = SS_ADD  # [C] 13th token
    sow[AVIZ] = SOW_FROM_SELF  # [C] may start sowing on the wedge just emptied
    mods[CALATRAVA, :] = 1  # [C] 6 tokens, 1 per wedge (init); +1 to every action
    mods[HOLY_SEPULCHRE, TRAVEL] = -1  # [C] +1 token on each Travel wedge (init); Travel -1
    setup[HOSPITALLER, 0] = SS_REMOVE  # [C] 11 tokens
    sow[HOSPITALLER] = SOW_SKIP  # [C] may skip 1 wedge when sowing, each turn
    mods[MONTESA, TRAVEL] = 1  # [C] black knight also starts (init); +1 Travel
    setup[SANTIAGO, 0] = SS_UPGRADE  # [C] upgrade 1 wedge
    sow[SANTIAGO] = SOW_FROM_SELF  # [C] (the aid gives Aviz's power)
    setup[ST_LAZARUS, :4] = (SS_REMOVE, SS_UPGRADE, SS_UPGRADE, SS_UPGRADE)  # [C]
    setup[TEMPLAR, :2] = (SS_ONE, SS_ONE)  # [C] 10 tokens; 2 wedges start with 1
    sow[TEMPLAR] = SOW_DOUBLE  # [C] once per turn may drop 2 tokens on one wedge
    sow[TEUTONIC] = SOW_CCW  # [C] may sow counter-clockwise
    setup[FEMALE_BAND, 0] = SS_GIANT  # [R] giant token instead of 2 tokens
    return setup, sow, mods


ORDER_SETUP, ORDER_SOW, ORDER_MOD = _order_table()
# One-token-per-wedge (Calatrava), +1 on Travel wedges (Holy Sepulchre), black knight
# (Montesa), extra distribute after an expansion building (Livonian), cheaper expansion
# buildings (Dragon), Influence one region away (Brandenburg) [C]/[R]: flags per order.
ORDER_ONE_PER_WEDGE = np.array([o == CALATRAVA for o in range(N_ORDERS)], np.int64)
ORDER_TRAVEL_TOKEN = np.array([o == HOLY_SEPULCHRE for o in range(N_ORDERS)], np.int64)
ORDER_BLACK_KNIGHT = np.array([o == MONTESA for o in range(N_ORDERS)], np.int64)
ORDER_LIVONIAN = np.array([o == LIVONIAN for o in range(N_ORDERS)], np.int64)
ORDER_DRAGON = np.array([o == DRAGON for o in range(N_ORDERS)], np.int64)
ORDER_REACH = np.array([1 if o == BRANDENBURG else 0 for o in range(N_ORDERS)], np.int64)
GIANT_VALUE = 2  # [R] "counts as 2 tokens when resolving actions"
