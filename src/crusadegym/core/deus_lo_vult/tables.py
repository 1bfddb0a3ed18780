"""Deus lo Vult game data as numpy tables, built from readable literals.

Every row cites its source with the tag used in
``shared/research/deus_lo_vult_components.md``: [R] the rulebook (Duel Rules 2.0),
[C] a sourced fact, [PH] read off product photos, [I] inferred, [P] a proposal.
Everything tagged [P] is **stand-in data** (the real numbers are not public); it lives
only in this module so the real values can be dropped in without touching a kernel.
Kernels look these tables up; they never branch on a unit's name.

Geometry conventions: ``cell = 12 * row + col`` with row 0 at the top (north);
directions ``N=0, E=1, S=2, W=3``; a token's edges are stored relative to its facing
as ``(front, right, back, left)`` = the clockwise cycle from the top of its artwork [PH].
"""

from __future__ import annotations

import numpy as np

STAND_IN_NOTE = (
    "Deus lo Vult component data marked [P] (unit edge layouts not read from photos, the "
    "Saracen roster, the City Quarter list, coin counts, edges and refugee sides, camp and "
    "Saracen facings) are stand-ins proposed in shared/research, not the published game."
)

# ---------------------------------------------------------------- board geometry [PH]/[P]
SIZE = 12
N_CELLS = SIZE * SIZE
N, E, S, W = 0, 1, 2, 3
DR = np.array([-1, 0, 1, 0], np.int64)
DC = np.array([0, 1, 0, -1], np.int64)
DIR_NAMES = "NESW"


def _cell(r: int, c: int) -> int:
    return SIZE * r + c


def _neighbours() -> np.ndarray:
    """NEIGH[c, d] = the cell one step from c in direction d, or -1 off the board."""
    out = np.full((N_CELLS, 4), -1, np.int64)
    for r in range(SIZE):
        for c in range(SIZE):
            for d in range(4):
                rr, cc = r + DR[d], c + DC[d]
                if 0 <= rr < SIZE and 0 <= cc < SIZE:
                    out[_cell(r, c), d] = _cell(rr, cc)
    return out


NEIGH = _neighbours()

# Corner camps, 3x3 blocks; the centre cell holds secured coins [PH][R "8 camp cells"].
CAMP_TOPLEFT = ((0, 0), (0, 9), (9, 9), (9, 0))  # [PH] corners NW, NE, SE, SW
CAMP_FACING = np.array(
    [S, W, N, E], np.int64
)  # [P] front edge points along the board edge, 90-degree symmetric
# Which corners the seats use [R: "2 players ... diagonally"; P for 3-4]: clockwise order.
SEAT_CORNERS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

# Green Saracen camp cells with the direction their "moons" show [PH cells, P directions]:
# the 4 central squares first (setup order [R]), facing out towards their quarter slot;
# the 8 edge cells face into the board.
SARACEN_CELLS = np.array(
    [
        _cell(5, 5),
        _cell(5, 6),
        _cell(6, 6),
        _cell(6, 5),
        _cell(0, 5),
        _cell(0, 6),
        _cell(5, 11),
        _cell(6, 11),
        _cell(11, 5),
        _cell(11, 6),
        _cell(5, 0),
        _cell(6, 0),
    ],
    np.int64,
)
SARACEN_DIRS = np.array([N, E, S, W, S, S, W, W, N, N, E, E], np.int64)
N_SARACEN_CELLS = 12

# City Quarter slots: green cells each touching one central square [PH]; the coin edge
# faces that central square [R "coin symbol facing central squares"].
QUARTER_SLOTS = np.array([_cell(4, 5), _cell(5, 7), _cell(7, 6), _cell(6, 4)], np.int64)
QUARTER_COIN_DIR = np.array([S, W, N, E], np.int64)

# ---------------------------------------------------------------- edge icons [R]/[PH]
ICON_S, ICON_A, ICON_D, ICON_X, ICON_SH, ICON_H, ICON_C = range(7)
N_ICONS = 7
ICON_CODES = ("S", "A", "D", "X", "Sh", "H", "C")
ICON_NAMES = ("skull", "arrow", "double-arrow", "cross/crescent", "shield", "heart", "coin")
_IC = {code: i for i, code in enumerate(ICON_CODES)}

# ---------------------------------------------------------------- unit kinds
# (name, notation letter, strong edges, weak edges, army points, per-army count,
#  carry capacity strong/weak, charge, source)
CRUSADER_KINDS = (
    (
        "pilgrim",
        "P",
        "S H H H",
        "Sh H H H",
        1,
        4,
        2,
        2,
        0,
        "R count/AP; C 'Fistfuls' carries 2; PH edges",
    ),
    (
        "footman",
        "F",
        "S H Sh H",
        "Sh H H H",
        2,
        4,
        1,
        2,
        0,
        "R; PH strong; I weak; P weak-side carries 2",
    ),
    ("archer", "A", "A A H H", "Sh Sh H H", 2, 4, 1, 1, 0, "R; PH both sides"),
    ("pavesier", "V", "Sh Sh Sh H", "Sh Sh Sh H", 2, 4, 1, 1, 0, "R; PH both sides"),
    ("foot_knight", "K", "S S Sh Sh", "Sh Sh H H", 3, 2, 1, 1, 0, "R; PH both sides"),
    ("cavalry", "C", "S H S H", "Sh H Sh H", 3, 2, 1, 1, 1, "R charge; PH both sides"),
)
SARACEN_KINDS = (  # [P] roster of 20 read from the Saracen punchboard photo (medium confidence)
    ("ghazi", "g", "S H H H", "Sh H H H", 0, 4, 0, 0, 0, "P"),
    ("saracen_footman", "f", "S H Sh H", "Sh H H H", 0, 4, 0, 0, 0, "P"),
    ("saracen_archer", "a", "A A H H", "Sh Sh H H", 0, 4, 0, 0, 0, "P"),
    ("mamluk", "m", "S S Sh Sh", "Sh Sh H H", 0, 2, 0, 0, 0, "P"),
    (
        "saracen_cavalry",
        "c",
        "S H S H",
        "Sh H Sh H",
        0,
        2,
        0,
        0,
        1,
        "P (charge assumed like Crusader cavalry)",
    ),
    ("nubian_archer", "n", "A S A S", "Sh H Sh H", 0, 2, 0, 0, 0, "P"),
    ("war_elephant", "e", "A S H S", "Sh Sh H Sh", 0, 1, 0, 0, 0, "P"),
    ("naffatun", "x", "Sh H Sh H", "H H H H", 0, 1, 0, 0, 0, "P (Greek fire not used in Duel [R])"),
)
# City Quarters [P]: (name, coins, edge cycle starting at the coin edge, clockwise).
# 36 coins in all [C]; one coin, one shield and two attack edges each [PH].
QUARTERS = (
    ("Residential", 2, "C S Sh S"),
    ("Garden", 2, "C A S Sh"),
    ("Tavern", 2, "C S Sh S"),
    ("Hospital", 2, "C Sh S Sh"),
    ("Bathhouse", 3, "C A S Sh"),
    ("Market", 3, "C S Sh S"),
    ("Madrasa", 3, "C A Sh S"),
    ("Armourers", 3, "C S Sh A"),
    ("Court", 4, "C A Sh A"),
    ("Caravanserai", 4, "C S Sh D"),
    ("Goldsmiths", 4, "C D Sh S"),
    ("Citadel Gate", 4, "C D Sh D"),
)
REFUGEE_EDGES = "H H H H"  # [P] the Refugee side's edges are not known; all vulnerable

# Campaign-only kinds [R Part 2], appended after the City Quarters so that every Duel
# kind, token id and action id keeps its number. Same columns as CRUSADER_KINDS.
# War Engines [R "War Engines"]: "All War Engines cost 3 Army Points"; their edges are not
# in the rulebook: STAND-IN [P] (a Trebuchet/Catapult shoots like an Archer, the Siege
# Tower is shields, Greek Fire a skull front). Heroes [R "Heroes"]: the rulebook gives no
# edges; a Hero token plays on the edges of its base class (STAND-IN [P]): a Foot Knight
# for most Heroes, Cavalry for the mounted ones (Barbarossa, El Cid).
CAMPAIGN_UNIT_KINDS = (
    ("trebuchet", "T", "A A Sh H", "A H H H", 3, 1, 0, 0, 0, "R cost; P edges, carries nothing"),
    ("siege_tower", "W", "Sh Sh Sh Sh", "Sh Sh H H", 3, 1, 0, 0, 0, "R cost; P edges"),
    ("greek_fire", "G", "S H H H", "S H H H", 3, 1, 0, 0, 0, "R cost, flips on first use; P"),
    ("catapult", "U", "A H Sh H", "A H H H", 3, 1, 0, 0, 0, "R cost; P edges"),
    ("hero_knight", "Y", "S S Sh Sh", "Sh Sh H H", 3, 1, 1, 1, 0, "P: Foot Knight edges/cost"),
    ("hero_cavalry", "Z", "S H S H", "Sh H Sh H", 3, 1, 1, 1, 1, "P: Cavalry edges/cost"),
)
# Field Amenities [R "Field Amenities", "Salutificatio"/"Donkey", "Flagellant"]: tokens that
# move like Units (with any band, as Refugees do) but are nobody's army. Edges are
# irrelevant (they never attack and cannot be attacked) and set to shields.
AMENITY_KINDS = (
    ("cat", "ct"),
    ("dog", "dg"),
    ("gallows", "gl"),
    ("disgusting_man", "dm"),
    ("engineer", "en"),
    ("hidden_stash", "hs"),
    ("flagellant", "fl"),
    ("donkey", "dk"),
)

N_CRUSADER_KINDS = len(CRUSADER_KINDS)
N_SARACEN_KINDS = len(SARACEN_KINDS)
N_QUARTERS = len(QUARTERS)
KIND_SARACEN0 = N_CRUSADER_KINDS
KIND_QUARTER0 = N_CRUSADER_KINDS + N_SARACEN_KINDS
KIND_CAMPAIGN0 = KIND_QUARTER0 + N_QUARTERS  # first Campaign-only unit kind
N_CAMPAIGN_UNIT_KINDS = len(CAMPAIGN_UNIT_KINDS)
KIND_AMENITY0 = KIND_CAMPAIGN0 + N_CAMPAIGN_UNIT_KINDS
N_AMENITY_KINDS = len(AMENITY_KINDS)
N_KINDS = KIND_AMENITY0 + N_AMENITY_KINDS


def _edges(text: str) -> list[int]:
    return [_IC[t] for t in text.split()]


def _kind_tables():
    edges = np.zeros((N_KINDS, 2, 4), np.int64)
    cost = np.zeros(N_KINDS, np.int64)
    count = np.zeros(N_KINDS, np.int64)
    capacity = np.zeros((N_KINDS, 2), np.int64)
    charge = np.zeros(N_KINDS, np.int64)
    coins = np.zeros(N_KINDS, np.int64)
    for k, row in enumerate(CRUSADER_KINDS + SARACEN_KINDS):
        _, _, strong, weak, ap, qty, cap_s, cap_w, chg, _src = row
        edges[k, 0], edges[k, 1] = _edges(strong), _edges(weak)
        cost[k], count[k], capacity[k] = ap, qty, (cap_s, cap_w)
        charge[k] = chg
    for q, (_, n_coins, cycle) in enumerate(QUARTERS):
        k = KIND_QUARTER0 + q
        edges[k, 0], edges[k, 1] = _edges(cycle), _edges(REFUGEE_EDGES)
        count[k], coins[k] = 1, n_coins
    for i, row in enumerate(CAMPAIGN_UNIT_KINDS):
        k = KIND_CAMPAIGN0 + i
        _, _, strong, weak, ap, qty, cap_s, cap_w, chg, _src = row
        edges[k, 0], edges[k, 1] = _edges(strong), _edges(weak)
        cost[k], count[k], capacity[k], charge[k] = ap, qty, (cap_s, cap_w), chg
    for i in range(N_AMENITY_KINDS):
        k = KIND_AMENITY0 + i
        edges[k, 0] = edges[k, 1] = _edges("Sh Sh Sh Sh")
        count[k] = 1
    return edges, cost, count, capacity, charge, coins


KIND_EDGES, KIND_COST, KIND_COUNT, KIND_CAPACITY, KIND_CHARGE, KIND_COINS = _kind_tables()
KIND_NAMES = (
    tuple(r[0] for r in CRUSADER_KINDS + SARACEN_KINDS)
    + tuple(q[0] for q in QUARTERS)
    + tuple(r[0] for r in CAMPAIGN_UNIT_KINDS)
    + tuple(a[0] for a in AMENITY_KINDS)
)
KIND_LETTERS = (
    tuple(r[1] for r in CRUSADER_KINDS + SARACEN_KINDS)
    + tuple(str(q) for q in range(N_QUARTERS))
    + tuple(r[1] for r in CAMPAIGN_UNIT_KINDS)
    + tuple(a[1] for a in AMENITY_KINDS)
)
TOTAL_COINS = int(KIND_COINS.sum())  # 36 [C]

# ---------------------------------------------------------------- tokens
# Token ids: 20 per seat (4 seats allocated; unused seats stay in reserve), then the
# 20 Saracens, then the 12 City Quarters (token id = quarter index + QUARTER_TOKEN0);
# then the Campaign-only tokens, which stay off the board (LOC_OFF) in every Duel:
# 6 per seat (4 War Engines, 2 Hero tokens), then the 8 Field Amenities.
MAX_PLAYERS = 4
OWNER_SARACEN, OWNER_QUARTER, OWNER_AMENITY = 4, 5, 6
ARMY_SIZE = int(KIND_COUNT[:N_CRUSADER_KINDS].sum())  # 20
N_SARACENS = int(KIND_COUNT[KIND_SARACEN0:KIND_QUARTER0].sum())  # 20
SARACEN_TOKEN0 = MAX_PLAYERS * ARMY_SIZE
QUARTER_TOKEN0 = SARACEN_TOKEN0 + N_SARACENS
CAMPAIGN_UNIT0 = QUARTER_TOKEN0 + N_QUARTERS  # 112
CAMPAIGN_ARMY_SIZE = N_CAMPAIGN_UNIT_KINDS  # 6 per seat
AMENITY_TOKEN0 = CAMPAIGN_UNIT0 + MAX_PLAYERS * CAMPAIGN_ARMY_SIZE  # 136
N_TOKENS = AMENITY_TOKEN0 + N_AMENITY_KINDS  # 144
N_DUEL_TOKENS = CAMPAIGN_UNIT0  # tokens a Duel ever uses


def _token_tables():
    kind = np.zeros(N_TOKENS, np.int64)
    owner = np.zeros(N_TOKENS, np.int64)
    t = 0
    for p in range(MAX_PLAYERS):
        for k in range(N_CRUSADER_KINDS):
            for _ in range(KIND_COUNT[k]):
                kind[t], owner[t] = k, p
                t += 1
    for k in range(KIND_SARACEN0, KIND_QUARTER0):
        for _ in range(KIND_COUNT[k]):
            kind[t], owner[t] = k, OWNER_SARACEN
            t += 1
    for q in range(N_QUARTERS):
        kind[t], owner[t] = KIND_QUARTER0 + q, OWNER_QUARTER
        t += 1
    for p in range(MAX_PLAYERS):
        for i in range(N_CAMPAIGN_UNIT_KINDS):
            kind[t], owner[t] = KIND_CAMPAIGN0 + i, p
            t += 1
    for i in range(N_AMENITY_KINDS):
        kind[t], owner[t] = KIND_AMENITY0 + i, OWNER_AMENITY
        t += 1
    assert t == N_TOKENS
    return kind, owner


TOKEN_KIND, TOKEN_OWNER = _token_tables()

# Kinds kept out of the Duel [R "Unit Types"]: "Catapults, Trebuchets, Siege Towers,
# Greek fire & Heroes are not used in Duel Mode". Their tokens stay off the board (out
# of the Saracen bag) in every Duel game; the Campaign can bring them back.
CAMPAIGN_ONLY_KINDS = ("naffatun",) + tuple(KIND_NAMES[KIND_CAMPAIGN0:])
KIND_IN_DUEL = np.array([0 if name in CAMPAIGN_ONLY_KINDS else 1 for name in KIND_NAMES], np.int64)
N_DUEL_SARACENS = int(
    sum(KIND_COUNT[k] for k in range(KIND_SARACEN0, KIND_QUARTER0) if KIND_IN_DUEL[k])
)

# ---------------------------------------------------------------- rule constants [R]
ACTION_POINTS = 7  # [R] "you spend 7 Action Points"
ARMY_POINT_CAP = 13  # [R] "cannot cost more than 13 Army Points"
PURGATORY_SLOTS = 9  # [R] "until the 9 purgatory slots are occupied"

# ---------------------------------------------------------------- Combat Results Table [R]
# CRT[attacker icon, defender icon] = (damage to attacker, damage to defender).
# Rows S and A are the rulebook table; D doubles A's damage [R "double damage"];
# X (spiritual) is not in the table: [P] it resolves like the skull row.
# Defender C (a quarter's coin edge) is never reached through the CRT (that is plunder).
_CRT_ROWS = {
    "S": {"S": (1, 1), "X": (1, 1), "Sh": (0, 0), "H": (0, 1), "A": (0, 1), "D": (0, 1)},
    "A": {"S": (0, 1), "X": (0, 1), "Sh": (0, 0), "H": (0, 1), "A": (0, 1), "D": (0, 1)},
    "D": {"S": (0, 2), "X": (0, 2), "Sh": (0, 0), "H": (0, 2), "A": (0, 2), "D": (0, 2)},
    "X": {"S": (1, 1), "X": (1, 1), "Sh": (0, 0), "H": (0, 1), "A": (0, 1), "D": (0, 1)},
}
CHARGE_VS_SHIELD = (0, 1)  # [R] "Skull (melee) + Charge | Shield | 0 | 1"
DOUBLE_ARROW_VS_SHIELD_WOUND = (0, 1)  # [R home rule] "breaks shields and inflicts 1 damage"


def _crt():
    out = np.zeros((N_ICONS, N_ICONS, 2), np.int64)
    for att, row in _CRT_ROWS.items():
        for dfd, res in row.items():
            out[_IC[att], _IC[dfd]] = res
    return out


CRT = _crt()
ATTACK_ICON = np.array([1, 1, 1, 1, 0, 0, 0], np.int64)  # S, A, D, X attack
RANGED_ICON = np.array([0, 1, 1, 0, 0, 0, 0], np.int64)  # A, D shoot two clear steps [R]
