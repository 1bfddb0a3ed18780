"""Campaign data tables [R Part 2]: modules, amenities, factions, heroes, presets.

Every row cites the rulebook section it comes from; the few values the rulebook does
not give are marked STAND-IN [P] here and in ``docs/rules/deus_lo_vult.md``.
"""

from __future__ import annotations

GAUNTLETS = ("none", "refugees_welcome", "holier_than_thou", "fons_honorum")  # [R "Gauntlet Runs"]
WEATHER_MODES = ("off", "active", "passive")  # [R "Weather Mode": "two ways to play it"]

# Amenities [R "Field Amenities", "River Amenities" and each amenity's section]:
# (name, kind "river"/"field", Divine Will card it brings or "", City Quarter it starts
# under for Field Amenities or "").
AMENITIES = (
    ("latrine", "river", "cholera", ""),
    ("pillory", "river", "bacchanalia", ""),
    ("surgeon", "river", "", ""),
    ("gravediggers", "river", "", ""),
    ("salutificatio", "river", "salutificatio", ""),  # the Donkey starts on the River
    ("cat", "field", "rats", "Residential"),
    ("dog", "field", "", "Market"),
    ("gallows", "field", "", "Court"),
    ("disgusting_man", "field", "", "Bathhouse"),
    ("engineer", "field", "", "Tavern"),
    ("hidden_stash", "field", "capitularius", "Garden"),
    ("flagellant", "field", "", ""),  # placed next to a stranded Pilgrim [R "Flagellant"]
)
AMENITY_NAMES = tuple(a[0] for a in AMENITIES)
# When a Field Amenity under a City Quarter comes out (field.py; the rulebook is silent):
# once the quarter's cell is empty, or at once beside it when the quarter flips.
FIELD_REVEALS = ("vacated", "flipped")
# How the Gravediggers restore the killed Unit (gravediggers.py; the rulebook is silent): as it
# was before the fatal blow, or on its weak side.
GRAVE_RESTORES = ("before", "weak")
# When Olivier, wounded intentionally, passes to the Templars (units.py): at the end of
# that turn (so his "adjoin the Templar units ... when tapped intentionally" has a turn to
# act) or at once (then it never acts: he is a Templar unit from that moment)
OLIVIER_PASSES = ("end_of_turn", "at_once")
RIVER_AMENITIES = tuple(a[0] for a in AMENITIES if a[1] == "river")
FIELD_AMENITIES = tuple(a[0] for a in AMENITIES if a[1] == "field")

# Armies and their Heroes [R "Heroes"]: (hero, army, base token kind, has a game rule).
# The base kind gives the Hero's edges (the rulebook prints none: STAND-IN [P]).
FACTIONS = (
    "regnum_francorum",
    "imperium_angevinium",
    "sacrum_imperium_romanum",
    "corona_castelae",
    "popular_crusade",
    "inshallah",
    "knights_templar",
    "outremer",
)
HEROES = (
    ("louis_ix", "regnum_francorum", "hero_knight", True),
    ("philippe_iv", "regnum_francorum", "hero_knight", True),
    ("richard_lionheart", "imperium_angevinium", "hero_knight", True),
    ("eleanor_of_aquitaine", "imperium_angevinium", "hero_knight", True),
    ("friedrich_barbarossa", "sacrum_imperium_romanum", "hero_cavalry", True),
    ("leopold_v", "sacrum_imperium_romanum", "hero_knight", True),
    ("el_cid", "corona_castelae", "hero_cavalry", True),
    ("olivier_lo_templier", "corona_castelae", "hero_knight", True),
    ("pierre_l_ermite", "popular_crusade", "hero_knight", False),
    ("saladin", "inshallah", "hero_knight", False),
    ("jacques_de_molay", "knights_templar", "hero_knight", False),
    ("baldwin_iv", "outremer", "hero_knight", True),
)
HERO_NAMES = tuple(h[0] for h in HEROES)
NO_HERO = ""

# Conventional Presets/Builds [R "Conventional Presets/Builds"], RA = River, FA = Field.
# "plain" (no module) and "jerusalem" are ours: a Campaign of Duel Battles.
PRESETS: dict[str, dict] = {
    "plain": {},
    "matrimonial": {
        "amenities": ("latrine", "pillory", "salutificatio", "flagellant"),
    },
    "kyivan": {
        "amenities": ("latrine", "surgeon", "salutificatio"),
        "weather": "passive",
    },
    "second_crusade": {
        "amenities": ("latrine", "pillory", "gravediggers", "flagellant", "disgusting_man"),
    },
    "kerfuffle": {
        "amenities": ("latrine", "pillory", "cat", "dog", "hidden_stash"),
        "gauntlet": "holier_than_thou",
        "penance": True,
    },
    "seventh_crusade": {
        "amenities": ("latrine", "pillory", "gallows", "hidden_stash"),
        "gauntlet": "holier_than_thou",
        "penance": True,
    },
}

# ---------------------------------------------------------------- Weather Mode [R]
# Cards [R "Weather Mode"]: Heat (Calor), Cold (Frigus), Rain (Pluvia), Sand Storm
# (Procella). Card 0 is "no card in force".
WEATHER_CARDS = ("none", "heat", "cold", "rain", "sand")
# Copies in the passive deck [R "choose 4 cards of the Heat (Calor) and 4 cards of the
# Cold (Frigus)"]; Rain and Sand Storm counts are not printed: STAND-IN [P] 4 each.
WEATHER_DECK = (("heat", 4), ("cold", 4), ("rain", 4), ("sand", 4))
WEATHER_DEALS = ("round", "turn")  # our option: when the passive deck deals (see weather.py)
# Who a card hurts [R "Heat hurts all Knights on red cells. Cold hurts all Pilgrims on
# blue cells"]. Our reading: "Knights" are the Gold units (Foot Knights, Cavalry [R "The
# Gold units ... 2 Foot Knights, 2 Cavalry"]) and the Hero tokens that play on their
# edges; "Pilgrims" the Crusader Pilgrims (Saracens are neither).
WEATHER_KNIGHT_KINDS = ("foot_knight", "cavalry", "hero_knight", "hero_cavalry")
WEATHER_PILGRIM_KINDS = ("pilgrim",)
# Rain "disables the War Machines" [R]: the four War Engines. Sand Storm "makes Archers
# unable to shoot" [R]: our reading, every archer kind, the Saracen ones too (the storm
# blinds whoever stands in it), and only their shots (arrow / double-arrow edges).
WEATHER_ENGINE_KINDS = ("trebuchet", "siege_tower", "greek_fire", "catapult")
WEATHER_ARCHER_KINDS = ("archer", "saracen_archer", "nubian_archer")


def _weather_colours() -> tuple:
    """STAND-IN [P] board colours for Weather: 'r' red, 'b' blue, '.' neither.

    The rulebook names red and blue cells but prints no board; the board photo
    (shared/research/deus_lo_vult_components.md §2.1) shows an orange/blue checker
    (orange where row + col is even, 0-based) with green Saracen / centre / quarter
    cells. Our reading: the orange cells are the "red" ones; green cells have no
    weather colour; camp cells neither (the Camp Boards are laid over them).
    """
    from ..tables import CAMP_TOPLEFT, QUARTER_SLOTS, SARACEN_CELLS, SIZE

    green = set(int(c) for c in SARACEN_CELLS) | set(int(c) for c in QUARTER_SLOTS)
    camp = {SIZE * (r0 + r) + c0 + c for r0, c0 in CAMP_TOPLEFT for r in range(3) for c in range(3)}
    rows = []
    for r in range(SIZE):
        row = ""
        for c in range(SIZE):
            cell = SIZE * r + c
            row += "." if cell in green or cell in camp else ("r" if (r + c) % 2 == 0 else "b")
        rows.append(row)
    return tuple(rows)


WEATHER_CELL_COLOURS = _weather_colours()  # STAND-IN [P]: one string per board row
