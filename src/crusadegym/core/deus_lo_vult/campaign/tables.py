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
