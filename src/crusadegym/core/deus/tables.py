"""Deus game data as numpy tables, built from readable literals.

Tags (as in ``shared/research/deus_data.md``): [R] the rulebook (``rulebooks/deus.txt``),
[C] a sourced fact (card text from the rulebook's card figures or a review), [I] an
inference (e.g. a name-to-text pairing), [P] a **stand-in** proposal. The 96-card deck and
the 14 continent-tile faces are mostly stand-ins: they live only here, in ONE table each
(:data:`CARD_DESIGNS`, :data:`TILE_FACES`), so the real list drops in by replacing a table
-- kernels look rows up and never branch on a card's name.

Board geometry [I]: every region is a cell of a hex grid (axial coordinates); a continent
tile is a 7-cell "flower" (centre + 6 ring cells) [C]; tiles sit on the super-lattice
spanned by (2, 1) and (-1, 3). Region ``r = 7 * tile_slot + position`` (position 0 is the
centre, 1..6 the ring).
"""

from __future__ import annotations

import numpy as np

STAND_IN_NOTE = (
    "Deus component data: most of the 96 building cards (names, costs, effects) and all 14 "
    "continent-tile faces are stand-ins built from effect templates (shared/research/"
    "deus_data.md), not the published game; results on it are not results for Deus itself."
)

# ------------------------------------------------------------------ players, pieces [R]
MAX_PLAYERS = 4
N_TYPES = 5  # wooden building types, also card colours 0..4 [R setup 4]
CIVIL, SCIENTIFIC, MARITIME, MILITARY, PRODUCTION = 0, 1, 2, 3, 4
TEMPLE = 5  # the purple card colour (temples are neutral pieces) [R]
N_COLOURS = 6
TYPE_NAMES = ("civil", "scientific", "maritime", "military", "production")
COLOUR_NAMES = TYPE_NAMES + ("temple",)
GOD_NAMES = ("vesta", "minerva", "neptune", "mars", "ceres", "jupiter")  # by colour [R B.3]
PIECES_PER_TYPE = 5  # [R setup 4] 25 pieces, 5 per type
START_ON_BOARD = 2  # [R setup 4] two of each type on the player board
START_GOLD = 5  # [R setup 5]
START_VP = 5  # [R setup 5]
HAND_START = 5  # [R setup 6] / refill target [R B.4]
HAND_LIMIT = 10  # [R B.4]
GOLD_PER_RESOURCE = 4  # [R A.3] each resource may be replaced by 4 gold
ESCAPE_VP = 3  # [R A.4] building in an empty edge region when blocked
TEMPLE_VP_CAP = 12  # [R A temples 3]
MAJORITY_VP = 2  # [R scoring 3]
FIRST_SPACING = 3  # [R A.4 "separated by at least two empty regions"] hex distance >= 3

# ------------------------------------------------------------------ terrain, resources [C]
FIELD, FOREST, SWAMP, MOUNTAIN, SEA, VILLAGE = 0, 1, 2, 3, 4, 5
N_TERRAINS = 6
TERRAIN_NAMES = ("field", "forest", "swamp", "mountain", "sea", "village")
TERRAIN_CHARS = "FWSMsV"  # notation: Field, Wood(forest), Swamp, Mountain, sea, Village
N_RESOURCES = 4  # resource r is produced by terrain r [C]: field->wheat, forest->wood, ...
RESOURCE_NAMES = ("wheat", "wood", "clay", "stone")
RESOURCE_PER_PLAYER = 5  # [R setup 3] general supply: 5 of each per player

# ------------------------------------------------------------------ board geometry [I]
TILES_BY_PLAYERS = {2: 4, 3: 6, 4: 7}  # [R setup 1]
N_TILE_SLOTS = 7
N_PHYSICAL_TILES = 7  # [C] 7 double-sided tiles
REGIONS_PER_TILE = 7
N_REGIONS = N_TILE_SLOTS * REGIONS_PER_TILE
# Tile slot centres: the centre tile then its 6 neighbours going round; 2 players use the
# compact cluster of slots 0-3, 3 players 0-5, 4 players all 7 [I: free arrangement is
# allowed by the rulebook, the printed layouts are unknown].
TILE_CENTRES = ((0, 0), (2, 1), (-1, 3), (-3, 2), (-2, -1), (1, -3), (3, -2))
HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # ring order, clockwise

# Stand-in tile faces [P]: terrain of (centre, ring 1..6) for the 14 faces; physical tile i
# has faces 2i and 2i+1. [C]: each face holds 2 seas, 1 village, 1 field, forest, swamp
# and mountain, arranged differently on each face; the positions are unknown [U].
TILE_FACES = np.array(
    [
        [5, 0, 4, 1, 2, 4, 3],
        [0, 5, 1, 4, 2, 3, 4],
        [4, 1, 5, 2, 0, 3, 4],
        [1, 4, 0, 5, 3, 4, 2],
        [2, 3, 4, 0, 5, 1, 4],
        [3, 4, 2, 1, 0, 5, 4],
        [4, 0, 3, 4, 1, 2, 5],
        [5, 4, 1, 0, 4, 2, 3],
        [0, 4, 5, 3, 1, 4, 2],
        [1, 2, 4, 5, 4, 0, 3],
        [4, 3, 0, 2, 5, 4, 1],
        [2, 4, 3, 1, 4, 5, 0],
        [3, 5, 4, 2, 0, 1, 4],
        [0, 1, 4, 3, 5, 2, 4],
    ],
    np.int64,
)
TILE_FACES_PROVENANCE = "P"


def _axial() -> np.ndarray:
    out = np.zeros((N_REGIONS, 2), np.int64)
    for slot, (q, r) in enumerate(TILE_CENTRES):
        out[slot * 7] = (q, r)
        for k, (dq, dr) in enumerate(HEX_DIRS):
            out[slot * 7 + 1 + k] = (q + dq, r + dr)
    return out


AXIAL = _axial()


def _neighbours() -> np.ndarray:
    """NEIGH[r, k] = the region next to r in hex direction k, or -1 (off every layout)."""
    where = {(int(q), int(r)): i for i, (q, r) in enumerate(AXIAL)}
    out = np.full((N_REGIONS, 6), -1, np.int64)
    for i, (q, r) in enumerate(AXIAL):
        for k, (dq, dr) in enumerate(HEX_DIRS):
            out[i, k] = where.get((int(q + dq), int(r + dr)), -1)
    return out


NEIGH = _neighbours()


def _distances() -> np.ndarray:
    dq = AXIAL[:, None, 0] - AXIAL[None, :, 0]
    dr = AXIAL[:, None, 1] - AXIAL[None, :, 1]
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


HEX_DIST = _distances()


def edge_regions(n_tiles: int) -> np.ndarray:
    """1 for each on-board region with fewer than 6 on-board neighbours [I "edge"]."""
    on = np.arange(N_REGIONS) < n_tiles * REGIONS_PER_TILE
    out = np.zeros(N_REGIONS, np.int64)
    for i in range(n_tiles * REGIONS_PER_TILE):
        n = sum(1 for j in NEIGH[i] if j >= 0 and on[j])
        out[i] = int(n < 6)
    return out


# ------------------------------------------------------------------ card effects
# Templates from research §10.5 [I]; a card row names one and its magnitudes (a, b, c).
E_NONE = 0
E_GOLD = 1  # gain a gold
E_VP = 2  # gain a VP
E_GOLD_PER_TERRAIN = 3  # a gold per region of terrain b you occupy
E_VP_PER_TERRAIN = 4  # a VP per region of terrain b you occupy
E_GOLD_PER_CITY = 5  # a gold per region holding >= b of your buildings
E_VP_PER_CITY = 6  # a VP per region holding >= b buildings
E_VP_PER_CITY_PAIR = 7  # a VP per pair of regions holding >= b buildings (Forum)
E_RES_PER_PRODUCER = 8  # a of terrain b's resource per production building on terrain b
E_PRODUCE_ALL = 9  # every production building produces a of its region's resource
E_PRODUCE_ONE = 10  # one production building of your choice produces a (choice)
E_DRAW = 11  # draw a cards (hand limit 10)
E_DRAW_PER_CITY = 12  # draw a per region holding >= b buildings (School)
E_PIECES = 13  # gain a pieces of your choice to the player board (choice)
E_PIECES_PER_CITY = 14  # a pieces per region holding >= b buildings (Workshop, choice)
E_BUY = 15  # buy up to a resources of your choice for b gold each (choice)
E_SELL_GOLD = 16  # sell up to a resources of any kind for b gold each (choice)
E_SELL_VP = 17  # sell up to a of resource c for b VP each (choice)
E_GOLD_PER_VILLAGE = 18  # a gold per village next to at least one of your armies (Ballista)
E_STEAL_VILLAGE = 19  # take a VP from one village next to one of your armies (choice)
E_MOVE_ARMIES = 20  # up to a moves of one army by one region (choice)
E_STEAL_VP = 21  # a VP from each rival with a region next to one of your armies
E_STEAL_GOLD = 22  # a gold from each rival with a region next to one of your armies
E_GOLD_PER_TYPE = 23  # a gold per building of type b you have on the map
E_VP_PER_TYPE = 24  # a VP per building of type b you have on the map
# temple cards: end-of-game VP, capped at 12 [R]
T_END_PER_CITY = 30  # a VP per region holding >= b buildings
T_END_PER_TERRAIN = 31  # a VP per region of terrain b you occupy
T_END_PER_BUILDING_ON = 32  # a VP per building of yours on terrain b
T_END_PER_TYPE = 33  # a VP per building of type b on the map
CHOICE_EFFECTS = (
    E_PRODUCE_ONE,
    E_PIECES,
    E_PIECES_PER_CITY,
    E_BUY,
    E_SELL_GOLD,
    E_SELL_VP,
    E_STEAL_VILLAGE,
    E_MOVE_ARMIES,
)

# ------------------------------------------------------------------ the deck
# ONE row per card design: (name, colour, cost (wheat, wood, clay, stone, gold), effect,
# a, b, c, copies, provenance). Provenance: "C" text sourced (rulebook figure), "I" text
# sourced but its pairing with name/colour inferred, "R" effect from a review, "P"
# stand-in; "/cost-P" marks an unknown (stand-in) cost. 16 cards per colour, 96 in all [R].
# Temple costs are the rule (1 of each resource) [R].
_T = (1, 1, 1, 1, 0)
CARD_DESIGNS = (
    # --- civil (brown, Vesta): half reward city size, half terrain [C research §6]
    ("Villa (field)", CIVIL, (0, 0, 0, 0, 2), E_GOLD_PER_TERRAIN, 3, FIELD, 0, 2, "P"),
    ("Villa (forest)", CIVIL, (0, 1, 0, 0, 0), E_GOLD_PER_TERRAIN, 3, FOREST, 0, 2, "I"),
    ("Villa (swamp)", CIVIL, (0, 0, 1, 0, 0), E_GOLD_PER_TERRAIN, 3, SWAMP, 0, 2, "P"),
    ("Villa (mountain)", CIVIL, (0, 0, 0, 1, 0), E_GOLD_PER_TERRAIN, 3, MOUNTAIN, 0, 2, "I/cost-P"),
    ("Forum", CIVIL, (1, 0, 0, 1, 0), E_VP_PER_CITY_PAIR, 1, 2, 0, 1, "I/cost-P"),
    ("Shrine", CIVIL, (1, 0, 0, 0, 0), E_VP, 1, 0, 0, 1, "C/cost-P"),
    ("Theatre", CIVIL, (0, 1, 1, 0, 0), E_VP_PER_CITY, 1, 2, 0, 1, "P"),
    ("Colosseum", CIVIL, (0, 0, 1, 1, 1), E_VP_PER_CITY, 2, 3, 0, 1, "P"),
    ("Market", CIVIL, (1, 1, 0, 0, 0), E_GOLD_PER_CITY, 2, 2, 0, 1, "P"),
    ("Granary", CIVIL, (0, 1, 0, 0, 0), E_VP_PER_TERRAIN, 1, FIELD, 0, 1, "P"),
    ("Lumber Hall", CIVIL, (0, 0, 0, 1, 0), E_VP_PER_TERRAIN, 1, FOREST, 0, 1, "P"),
    ("Quarry Hall", CIVIL, (1, 0, 0, 0, 0), E_VP_PER_TERRAIN, 1, MOUNTAIN, 0, 1, "P"),
    # --- scientific (yellow, Minerva): draw cards, gain pieces [C research §6]
    ("School", SCIENTIFIC, (0, 1, 0, 0, 0), E_DRAW_PER_CITY, 1, 2, 0, 1, "C/cost-P"),
    ("Workshop", SCIENTIFIC, (0, 0, 0, 1, 0), E_PIECES_PER_CITY, 1, 2, 0, 1, "I/cost-P"),
    ("Library", SCIENTIFIC, (1, 0, 0, 0, 0), E_DRAW, 2, 0, 0, 4, "P"),
    ("Scriptorium", SCIENTIFIC, (0, 0, 1, 0, 0), E_DRAW, 1, 0, 0, 2, "P"),
    ("Academy", SCIENTIFIC, (1, 0, 0, 1, 0), E_DRAW, 3, 0, 0, 1, "P"),
    ("Foundry", SCIENTIFIC, (0, 1, 0, 0, 0), E_PIECES, 1, 0, 0, 2, "P"),
    ("Arsenal", SCIENTIFIC, (0, 1, 0, 1, 0), E_PIECES, 2, 0, 0, 1, "P"),
    ("Observatory", SCIENTIFIC, (0, 0, 1, 1, 0), E_GOLD_PER_TYPE, 2, SCIENTIFIC, 0, 1, "P"),
    ("University", SCIENTIFIC, (1, 0, 1, 0, 0), E_DRAW_PER_CITY, 1, 3, 0, 1, "P"),
    ("Guild Hall", SCIENTIFIC, (1, 1, 0, 0, 0), E_PIECES_PER_CITY, 1, 3, 0, 1, "P"),
    ("Archive", SCIENTIFIC, (0, 0, 0, 0, 3), E_VP_PER_TYPE, 1, SCIENTIFIC, 0, 1, "P"),
    # --- maritime (blue, Neptune): trade with the supply [C research §6]
    ("Galley", MARITIME, (0, 1, 0, 0, 0), E_BUY, 3, 1, 0, 2, "I/cost-P"),
    ("Merchantman", MARITIME, (0, 1, 0, 0, 0), E_SELL_GOLD, 3, 3, 0, 4, "P"),
    ("Harbour", MARITIME, (1, 0, 0, 0, 0), E_GOLD_PER_TYPE, 2, MARITIME, 0, 4, "P"),
    ("Clay Trader", MARITIME, (0, 1, 0, 0, 0), E_SELL_VP, 6, 1, SWAMP, 2, "R/cost-P"),
    ("Grain Trader", MARITIME, (0, 1, 0, 0, 0), E_SELL_VP, 6, 1, FIELD, 2, "P"),
    ("Trireme", MARITIME, (0, 1, 0, 1, 0), E_GOLD_PER_TYPE, 3, MARITIME, 0, 2, "P"),
    # --- military (red, Mars): move armies, steal [C research §6]
    ("Siege Tower", MILITARY, (0, 1, 0, 1, 0), E_STEAL_VILLAGE, 2, 0, 0, 1, "C/cost-P"),
    ("Ballista", MILITARY, (0, 1, 0, 0, 0), E_GOLD_PER_VILLAGE, 4, 0, 0, 1, "I/cost-P"),
    ("Legion", MILITARY, (1, 0, 0, 0, 0), E_MOVE_ARMIES, 1, 0, 0, 1, "R/cost-P"),
    ("Cohort", MILITARY, (1, 0, 0, 1, 0), E_MOVE_ARMIES, 2, 0, 0, 1, "P"),
    ("Cavalry", MILITARY, (1, 1, 0, 0, 0), E_MOVE_ARMIES, 3, 0, 0, 1, "P"),
    ("War Elephants", MILITARY, (1, 0, 0, 1, 2), E_MOVE_ARMIES, 4, 0, 0, 1, "R/cost-P"),
    ("Raiders", MILITARY, (0, 0, 0, 1, 0), E_STEAL_GOLD, 2, 0, 0, 1, "P"),
    ("Pillagers", MILITARY, (0, 0, 1, 1, 0), E_STEAL_GOLD, 3, 0, 0, 1, "P"),
    ("Plunderers", MILITARY, (1, 0, 1, 1, 0), E_STEAL_GOLD, 4, 0, 0, 1, "P"),
    ("Marauders", MILITARY, (0, 0, 0, 1, 1), E_STEAL_VP, 1, 0, 0, 1, "P"),
    ("Conquerors", MILITARY, (1, 0, 0, 1, 1), E_STEAL_VP, 2, 0, 0, 1, "P"),
    ("Catapult", MILITARY, (0, 1, 0, 1, 1), E_STEAL_VILLAGE, 3, 0, 0, 1, "P"),
    ("Trebuchet", MILITARY, (0, 1, 1, 1, 0), E_GOLD_PER_VILLAGE, 6, 0, 0, 1, "P"),
    ("Barracks", MILITARY, (0, 0, 0, 1, 0), E_GOLD_PER_TYPE, 2, MILITARY, 0, 1, "P"),
    ("Fortress", MILITARY, (0, 0, 1, 2, 0), E_VP_PER_TYPE, 1, MILITARY, 0, 1, "P"),
    ("Outpost", MILITARY, (0, 1, 0, 0, 0), E_GOLD, 3, 0, 0, 1, "P"),
    # --- production (green, Ceres): a producer builds on the resource of its region [C]
    (
        "Small Production Building",
        PRODUCTION,
        (0, 1, 0, 0, 0),
        E_PRODUCE_ONE,
        1,
        0,
        0,
        4,
        "C/cost-P",
    ),
    ("Farmstead", PRODUCTION, (1, 0, 0, 0, 0), E_PRODUCE_ALL, 1, 0, 0, 1, "P"),
    ("Estate", PRODUCTION, (1, 1, 0, 0, 0), E_PRODUCE_ALL, 2, 0, 0, 1, "P"),
    ("Storehouse", PRODUCTION, (0, 0, 1, 0, 0), E_GOLD_PER_TYPE, 2, PRODUCTION, 0, 1, "P"),
    ("Brickworks", PRODUCTION, (0, 1, 1, 0, 0), E_VP_PER_TYPE, 1, PRODUCTION, 0, 1, "R/cost-P"),
    ("Mill", PRODUCTION, (0, 1, 0, 0, 0), E_RES_PER_PRODUCER, 2, FIELD, 0, 2, "P"),
    ("Sawmill", PRODUCTION, (1, 0, 0, 0, 0), E_RES_PER_PRODUCER, 2, FOREST, 0, 2, "P"),
    ("Cooperative", PRODUCTION, (1, 0, 0, 0, 0), E_RES_PER_PRODUCER, 2, SWAMP, 0, 2, "I/cost-P"),
    ("Mine", PRODUCTION, (0, 1, 0, 0, 0), E_RES_PER_PRODUCER, 2, MOUNTAIN, 0, 2, "R/cost-P"),
    # --- temples (purple, Jupiter): end-game VP, max 12 each [R]; cost is the rule [R]
    ("Temple of Regions", TEMPLE, _T, T_END_PER_CITY, 1, 1, 0, 1, "C"),
    ("Temple of Fields", TEMPLE, _T, T_END_PER_TERRAIN, 4, FIELD, 0, 1, "I"),
    ("Temple of Mountains", TEMPLE, _T, T_END_PER_TERRAIN, 4, MOUNTAIN, 0, 1, "I"),
    ("Temple of Forests", TEMPLE, _T, T_END_PER_TERRAIN, 4, FOREST, 0, 1, "P"),
    ("Temple of Swamps", TEMPLE, _T, T_END_PER_TERRAIN, 4, SWAMP, 0, 1, "P"),
    ("Temple of Cities", TEMPLE, _T, T_END_PER_CITY, 2, 2, 0, 1, "R"),
    ("Temple of Towns", TEMPLE, _T, T_END_PER_CITY, 3, 3, 0, 1, "P"),
    ("Temple of the Woods", TEMPLE, _T, T_END_PER_BUILDING_ON, 3, FOREST, 0, 1, "R"),
    ("Temple of the Plains", TEMPLE, _T, T_END_PER_BUILDING_ON, 3, FIELD, 0, 1, "P"),
    ("Temple of the Marsh", TEMPLE, _T, T_END_PER_BUILDING_ON, 3, SWAMP, 0, 1, "P"),
    ("Temple of the Peaks", TEMPLE, _T, T_END_PER_BUILDING_ON, 3, MOUNTAIN, 0, 1, "P"),
    ("Temple of Vesta", TEMPLE, _T, T_END_PER_TYPE, 3, CIVIL, 0, 1, "P"),
    ("Temple of Minerva", TEMPLE, _T, T_END_PER_TYPE, 3, SCIENTIFIC, 0, 1, "P"),
    ("Temple of Neptune", TEMPLE, _T, T_END_PER_TYPE, 3, MARITIME, 0, 1, "P"),
    ("Temple of Mars", TEMPLE, _T, T_END_PER_TYPE, 3, MILITARY, 0, 1, "P"),
    ("Temple of Ceres", TEMPLE, _T, T_END_PER_TYPE, 3, PRODUCTION, 0, 1, "P"),
)

N_DESIGNS = len(CARD_DESIGNS)
DESIGN_NAMES = tuple(row[0] for row in CARD_DESIGNS)
DESIGN_COLOUR = np.array([row[1] for row in CARD_DESIGNS], np.int64)
DESIGN_COST = np.array([row[2] for row in CARD_DESIGNS], np.int64)  # [D, 5]
DESIGN_EFFECT = np.array([row[3] for row in CARD_DESIGNS], np.int64)
DESIGN_A = np.array([row[4] for row in CARD_DESIGNS], np.int64)
DESIGN_B = np.array([row[5] for row in CARD_DESIGNS], np.int64)
DESIGN_C = np.array([row[6] for row in CARD_DESIGNS], np.int64)
DESIGN_COPIES = np.array([row[7] for row in CARD_DESIGNS], np.int64)
DESIGN_PROVENANCE = tuple(row[8] for row in CARD_DESIGNS)
CARD_DESIGN = np.repeat(np.arange(N_DESIGNS), DESIGN_COPIES).astype(np.int64)  # card -> design
N_CARDS = int(CARD_DESIGN.shape[0])
CARDS_PER_COLOUR = 16
COLUMN_CAP = CARDS_PER_COLOUR  # a column can hold at most every card of its colour
MAX_COPIES = int(DESIGN_COPIES.max())


def _check_tables() -> None:
    """The table shape the rulebook fixes: 96 cards, 16 per colour; valid tile faces."""
    assert N_CARDS == 96, N_CARDS
    for colour in range(N_COLOURS):
        n = int(DESIGN_COPIES[DESIGN_COLOUR == colour].sum())
        assert n == CARDS_PER_COLOUR, (COLOUR_NAMES[colour], n)
    assert np.all(DESIGN_COST[DESIGN_COLOUR == TEMPLE] == np.array(_T))
    assert len(set(DESIGN_NAMES)) == N_DESIGNS
    for face in TILE_FACES:
        assert sorted(face.tolist()) == [0, 1, 2, 3, 4, 4, 5], face
    assert TILE_FACES.shape == (2 * N_PHYSICAL_TILES, REGIONS_PER_TILE)


_check_tables()
