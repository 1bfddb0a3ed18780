"""Campaign options [R Part 2 "Campaign Mode", "Game Elements"] and their params.

:class:`CampaignConfig` is a :class:`~..config.DuelConfig` (every Duel option still
applies to each Battle) plus one switch per rule module; :func:`preset_config` builds
one from a Conventional Preset by name. :func:`make_params` appends each module's
params block (``layout.PB_*``) to the Duel's, with ``P_CAMPAIGN`` = 1.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ..config import P_CAMPAIGN, DuelConfig
from ..config import make_params as make_duel_params
from . import tables as CT
from .layout import N_CAMPAIGN_PARAMS, PB_BATTLE, PB_DEEDS, PB_FIELD, PB_RIVER, PB_UNITS, PB_WEATHER

# Params slots, module by module (offsets inside each module's block).
# battle.py / gauntlets.py
P_BATTLES = PB_BATTLE + 0
P_GLORY_TARGET = PB_BATTLE + 1
P_MAX_BATTLES = PB_BATTLE + 2
P_JERUSALEM = PB_BATTLE + 3
P_COINS_PER_GLORY = PB_BATTLE + 4
P_GAUNTLET = PB_BATTLE + 5
P_REFUGEE_EXCHANGE = PB_BATTLE + 6
P_PENANCE = PB_BATTLE + 7
P_TWO_COINS = PB_BATTLE + 8
P_REFUGEE_GLORY = PB_BATTLE + 9  # Refugees Welcome! gives Glory (off: the exchange only)
# weather.py
P_WEATHER = PB_WEATHER + 0
P_RAIN_SAND = PB_WEATHER + 1
P_WEATHER_DEAL = PB_WEATHER + 2  # index in tables.WEATHER_DEALS
# river.py / field.py: one on/off slot per amenity, in AMENITY_NAMES order
P_AMENITY = PB_RIVER + 0  # [len(AMENITY_NAMES)] (spans into the FIELD block's start)
P_GRAVE_RESTORE = PB_RIVER + 12  # index in tables.GRAVE_RESTORES (gravediggers.py)
P_FIELD_OPTS = PB_FIELD + 0  # free slots for field.py options
P_FIELD_REVEAL = P_FIELD_OPTS + 0  # index in tables.FIELD_REVEALS (field.py)
# units.py
P_WAR_ENGINES = PB_UNITS + 0
P_HERO = PB_UNITS + 1  # [4] hero index per seat, -1 none
P_FACTION = PB_UNITS + 5  # [4] faction index per seat, -1 none
P_OLIVIER_PASSES = PB_UNITS + 9  # index in tables.OLIVIER_PASSES
# deeds.py
P_DEEDS = PB_DEEDS + 0
P_DEEDS_VISIBLE = PB_DEEDS + 1
P_DEED_SWAP_PRICE = PB_DEEDS + 2  # coins to drop a Deed and draw another
P_COMMON_DEED = PB_DEEDS + 3  # a common Quest each Battle

assert P_AMENITY + len(CT.AMENITY_NAMES) <= P_GRAVE_RESTORE < PB_FIELD
GAUNTLET_NONE, GAUNTLET_REFUGEES, GAUNTLET_HOLIER, GAUNTLET_FONS = range(len(CT.GAUNTLETS))
WEATHER_OFF, WEATHER_ACTIVE, WEATHER_PASSIVE = range(len(CT.WEATHER_MODES))
COINS_PER_GLORY = 5  # [R] "5 coins = 1 Glory Point"


def amenity_slot(name: str) -> int:
    """The params slot that switches amenity ``name`` on."""
    return P_AMENITY + CT.AMENITY_NAMES.index(name)


@dataclass(frozen=True)
class CampaignConfig(DuelConfig):
    """A Campaign [R Part 2]: Battle after Battle, each a Duel game under ``DuelConfig``.

    battles: Battles to play [R "a certain number of Battles"]; 0 = play until someone
    reaches ``glory_target`` Glory [R "until a certain number of Glory points"], at most
    ``max_battles``. jerusalem: all 12 City Quarters at once, one round per Battle [R
    "All 12 City Quarters (Jerusalem mode)"]. gauntlet: one of ``tables.GAUNTLETS``;
    refugee_exchange, penance, two_coins: their optional rules [R "Gauntlet Runs"].
    weather: "off", "active" or "passive"; rain_sand adds Rain and Sand Storm [R
    "Weather Mode"]; weather_deal: "round" (a passive card per round of turns) or "turn"
    (one per turn, the Player Turn Memo).
    amenities: names from ``tables.AMENITY_NAMES`` [R "Field / River
    Amenities"]. war_engines [R "War Engines"]. heroes / factions: one per seat, "" for
    none [R "Heroes"]. field_reveal: when a Field Amenity under a City Quarter comes
    out, ``tables.FIELD_REVEALS`` (field.py). deeds, deeds_visible [R "Decks of
    Deeds"]; deed_swap_price: 1 [R "Quest Overall Rules"] or 3 [R "How to Play"] coins to
    drop a Deed for another; common_deed: a common Quest each Battle [R "Steps of
    Starting the Battle"]; refugee_glory: False plays Refugees Welcome! as the coin
    exchange only [R "only without Glory Points if you have the Deck of Deed"]. preset:
    the name the config was built from (``preset_config``), for the record.
    gravediggers_restore: the Unit the Gravediggers save comes back as it was before the
    fatal blow ("before") or on its weak side ("weak"): ``tables.GRAVE_RESTORES``
    (gravediggers.py). olivier_passes: when Olivier, wounded intentionally, passes to
    the Templars: "end_of_turn" (he adjoins Templar units for the rest of that turn) or
    "at_once" (``tables.OLIVIER_PASSES``, units.py).
    """

    deployment: str = "campaign"  # [R] "Campaign: no pre-deployed Units in Camps"
    rounds: int = 1  # one round per Battle with the Jerusalem setup
    max_turns: int = 3000  # a Battle's cap: 3x its 99th percentile (docs/rules/deus_lo_vult.md)
    preset: str = "plain"
    battles: int = 3
    glory_target: int = 0
    max_battles: int = 6
    jerusalem: bool = True
    gauntlet: str = "none"
    refugee_exchange: bool = False
    penance: bool = False
    two_coins: bool = False
    weather: str = "off"
    rain_sand: bool = False
    weather_deal: str = "round"
    amenities: tuple = ()
    field_reveal: str = "vacated"
    gravediggers_restore: str = "before"
    war_engines: bool = False
    heroes: tuple = ()
    factions: tuple = ()
    olivier_passes: str = "end_of_turn"
    deeds: bool = False
    deeds_visible: bool = False
    refugee_glory: bool = True
    deed_swap_price: int = 1
    common_deed: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("amenities", "heroes", "factions"):  # JSON gives lists back
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))

        def choice(name: str, allowed: tuple) -> None:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")

        def integer(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")

        choice("preset", tuple(CT.PRESETS) + ("custom",))
        integer("battles", 0, 50)
        integer("glory_target", 0, 1000)
        integer("max_battles", 1, 50)
        if self.battles == 0 and self.glory_target == 0:
            raise ValueError("battles=0 plays to a Glory target: set glory_target >= 1")
        if self.jerusalem and self.rounds != 1:
            raise ValueError("jerusalem=True deals all 12 City Quarters at once: rounds must be 1")
        choice("gauntlet", CT.GAUNTLETS)
        choice("weather", CT.WEATHER_MODES)
        choice("field_reveal", CT.FIELD_REVEALS)
        choice("gravediggers_restore", CT.GRAVE_RESTORES)
        choice("olivier_passes", CT.OLIVIER_PASSES)
        choice("weather_deal", CT.WEATHER_DEALS)
        if self.rain_sand and self.weather != "passive":
            raise ValueError(
                "rain_sand deals Rain and Sand Storm cards: it needs weather='passive'"
            )
        for flag in (
            "jerusalem",
            "refugee_exchange",
            "penance",
            "two_coins",
            "rain_sand",
            "war_engines",
            "deeds",
            "deeds_visible",
            "refugee_glory",
            "common_deed",
        ):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be a bool, got {getattr(self, flag)!r}")
        if not isinstance(self.amenities, tuple) or any(
            a not in CT.AMENITY_NAMES for a in self.amenities
        ):
            raise ValueError(
                f"amenities must be names from {CT.AMENITY_NAMES}, got {self.amenities!r}"
            )
        if len(set(self.amenities)) != len(self.amenities):
            raise ValueError(f"amenities lists a name twice: {self.amenities!r}")
        if self.penance and self.gauntlet != "holier_than_thou":
            raise ValueError("penance is the optional mode of gauntlet='holier_than_thou'")
        if self.deed_swap_price not in (1, 3) or isinstance(self.deed_swap_price, bool):
            raise ValueError(
                "deed_swap_price must be 1 (Quest Overall Rules) or 3 (How to Play), "
                f"got {self.deed_swap_price!r}"
            )
        if not self.refugee_glory and not (self.deeds and self.refugee_exchange):
            raise ValueError(
                "refugee_glory=False plays the coin exchange without Glory: it needs "
                "refugee_exchange=True and deeds=True"
            )
        if self.refugee_exchange and self.gauntlet != "refugees_welcome":
            raise ValueError("refugee_exchange is an option of gauntlet='refugees_welcome'")
        for name, allowed in (("heroes", CT.HERO_NAMES), ("factions", CT.FACTIONS)):
            v = getattr(self, name)
            if not isinstance(v, tuple) or len(v) not in (0, self.players):
                raise ValueError(f"{name} must list one entry per seat ({self.players}), got {v!r}")
            if any(x != CT.NO_HERO and x not in allowed for x in v):
                raise ValueError(f"{name} entries must be '' or one of {allowed}, got {v!r}")
        self._check_heroes()

    def _check_heroes(self) -> None:
        """[R "Heroes"] "pick up the Hero of their Army only"; Philippe IV "Can be played
        only if another Player has Jacques de Molay in the game" (units.py)."""
        armies = {h[0]: h[1] for h in CT.HEROES}
        for seat, hero in enumerate(self.heroes):
            if hero == CT.NO_HERO:
                continue
            army = self.factions[seat] if seat < len(self.factions) else CT.NO_HERO
            if army != armies[hero]:
                raise ValueError(
                    f"seat {seat}'s hero {hero} belongs to the {armies[hero]} army: set "
                    f"factions[{seat}]={armies[hero]!r} (got {army!r})"
                )
            if hero == "philippe_iv" and "jacques_de_molay" not in self.heroes:
                raise ValueError(
                    "philippe_iv can be played only if another seat has jacques_de_molay"
                )


def _from_options(cls: type, options: dict[str, Any]) -> CampaignConfig:
    """``make_game``'s way in (``protocol.config_from_dict``): ``preset=<name>`` builds the
    preset's contents, the other options overriding them (see :func:`preset_config`)."""
    if options.get("preset") in CT.PRESETS:
        rest = {k: v for k, v in options.items() if k != "preset"}
        return preset_config(options["preset"], **rest)
    return cls(**options)


def preset_config(preset: str = "plain", **options: Any) -> CampaignConfig:
    """A :class:`CampaignConfig` from a Conventional Preset by name, plus overrides."""
    if preset not in CT.PRESETS:
        raise ValueError(f"unknown preset {preset!r}; presets: {', '.join(CT.PRESETS)}")
    merged = dict(CT.PRESETS[preset])
    merged.update(options)
    names = {f.name for f in fields(CampaignConfig)}
    unknown = sorted(set(merged) - names)
    if unknown:
        raise ValueError(f"unknown campaign option(s) {unknown}; options: {sorted(names)}")
    return CampaignConfig(preset=preset, **merged)


PARAMS_DTYPE = np.int32
"""A Campaign's params dtype. The Duel's are ``int64``: the dtype tells the compiler which
game a kernel is compiled for, so Duel kernels never contain Campaign code
(:mod:`.hookpoints`). Every value fits (counts, cell and option indices)."""


def make_params(cfg: CampaignConfig) -> np.ndarray:
    """The Duel's params with ``P_CAMPAIGN`` = 1, then every module's params block, as
    :data:`PARAMS_DTYPE`."""
    p = np.zeros(N_CAMPAIGN_PARAMS, PARAMS_DTYPE)
    p[: P_CAMPAIGN + 1] = make_duel_params(cfg)
    p[P_CAMPAIGN] = 1
    p[P_BATTLES] = cfg.battles
    p[P_GLORY_TARGET] = cfg.glory_target
    p[P_MAX_BATTLES] = cfg.max_battles if cfg.battles == 0 else cfg.battles
    p[P_JERUSALEM] = int(cfg.jerusalem)
    p[P_COINS_PER_GLORY] = COINS_PER_GLORY
    p[P_GAUNTLET] = CT.GAUNTLETS.index(cfg.gauntlet)
    p[P_REFUGEE_EXCHANGE] = int(cfg.refugee_exchange)
    p[P_PENANCE] = int(cfg.penance)
    p[P_TWO_COINS] = int(cfg.two_coins)
    p[P_WEATHER] = CT.WEATHER_MODES.index(cfg.weather)
    p[P_RAIN_SAND] = int(cfg.rain_sand)
    p[P_WEATHER_DEAL] = CT.WEATHER_DEALS.index(cfg.weather_deal)
    for name in cfg.amenities:
        p[amenity_slot(name)] = 1
    p[P_FIELD_REVEAL] = CT.FIELD_REVEALS.index(cfg.field_reveal)
    p[P_GRAVE_RESTORE] = CT.GRAVE_RESTORES.index(cfg.gravediggers_restore)
    p[P_WAR_ENGINES] = int(cfg.war_engines)
    p[P_OLIVIER_PASSES] = CT.OLIVIER_PASSES.index(cfg.olivier_passes)
    for seat in range(4):
        hero = cfg.heroes[seat] if seat < len(cfg.heroes) else CT.NO_HERO
        faction = cfg.factions[seat] if seat < len(cfg.factions) else CT.NO_HERO
        p[P_HERO + seat] = CT.HERO_NAMES.index(hero) if hero else -1
        p[P_FACTION + seat] = CT.FACTIONS.index(faction) if faction else -1
    p[P_DEEDS] = int(cfg.deeds)
    p[P_DEEDS_VISIBLE] = int(cfg.deeds_visible)
    p[P_REFUGEE_GLORY] = int(cfg.refugee_glory)
    p[P_DEED_SWAP_PRICE] = cfg.deed_swap_price
    p[P_COMMON_DEED] = int(cfg.common_deed)
    return p


CampaignConfig.from_options = classmethod(_from_options)
