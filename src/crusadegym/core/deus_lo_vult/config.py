"""Deus lo Vult Duel options: every home rule and open interpretation is a switch.

:class:`DuelConfig` is validated on construction and compiled by :func:`make_params`
into an int64 ``params`` array the kernels read (option slots, then per-cell
camp ownership and per-seat geometry derived from the player count).
See ``docs/rules/deus_lo_vult.md`` for the rule each option comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..turn_cap import turn_limit
from . import tables as T

DEPLOYMENTS = ("saracenic", "latin", "campaign")  # [R] "three different deployment styles"
SARACEN_PLACEMENTS = ("blind", "tactical")  # [R home rule "Placing"]
STAMPEDES = ("unforgiving", "chivalrous")  # [R home rule "Stampede"]
TIE_RULES = ("last_coin", "shared")  # [R] "last coin is the king" / "a tie remains a tie"
DOUBLE_ARROW_SHIELD = ("blocked", "wound")  # [R home rules on the double arrow]
COIN_FACING = ("centre", "out")  # [R] coin edge faces the centre; "out" is a variant [P]
SARACEN_TARGETS = ("rivals", "any")  # [R "Attack from the City"] "your opponents' Crusader units"
WEAKEN_COSTS = (
    "free",
    "action_point",
)  # [R] "won't cost an Action Point" / "at an action point cost"
SECURE_COINS = ("one", "all")  # [R "Move Coin" costs 1] / "moving the coins into it"
SARACEN_REPLENISH = ("purgatory", "fill")  # [R "End of the Round"] "to make up for those
# still in purgatory" / the older reading: every empty green camp refilled

# Compiled option values: the kernels compare params against these names, never bare ints.
DEPLOY_SARACENIC = DEPLOYMENTS.index("saracenic")
DEPLOY_LATIN = DEPLOYMENTS.index("latin")
DEPLOY_CAMPAIGN = DEPLOYMENTS.index("campaign")
PLACE_BLIND = SARACEN_PLACEMENTS.index("blind")
PLACE_TACTICAL = SARACEN_PLACEMENTS.index("tactical")
STAMPEDE_UNFORGIVING = STAMPEDES.index("unforgiving")
STAMPEDE_CHIVALROUS = STAMPEDES.index("chivalrous")
TIE_LAST_COIN = TIE_RULES.index("last_coin")
TIE_SHARED = TIE_RULES.index("shared")
DBL_SHIELD_BLOCKED = DOUBLE_ARROW_SHIELD.index("blocked")
DBL_SHIELD_WOUND = DOUBLE_ARROW_SHIELD.index("wound")
TARGETS_RIVALS = SARACEN_TARGETS.index("rivals")
TARGETS_ANY = SARACEN_TARGETS.index("any")
WEAKEN_FREE = WEAKEN_COSTS.index("free")
WEAKEN_PAID = WEAKEN_COSTS.index("action_point")
REPLENISH_PURGATORY = SARACEN_REPLENISH.index("purgatory")
REPLENISH_FILL = SARACEN_REPLENISH.index("fill")
SECURE_ONE = SECURE_COINS.index("one")
SECURE_ALL = SECURE_COINS.index("all")
OFF, ON = 0, 1  # boolean options (robbing, double_arrow_adjacent)
NO_SARACEN_CAP = 0  # saracen_cap value meaning "no preset limit" [R]

# params slots
P_PLAYERS, P_DEPLOY, P_PRE_UNITS, P_PRE_POINTS, P_SARACEN_PLACE = 0, 1, 2, 3, 4
P_STAMPEDE, P_ROBBING, P_TIE, P_DBL_ADJ, P_DBL_SHIELD = 5, 6, 7, 8, 9
P_MAX_TURNS, P_ROUNDS, P_SARACEN_TARGETS, P_WEAKEN_COST, P_SARACEN_CAP, P_SECURE = (
    10,
    11,
    12,
    13,
    14,
    15,
)
P_REPLENISH = 16  # saracen_replenish
P_CAMP_OWNER = 17  # [144] seat whose camp (ring or centre) holds the cell, else -1
P_CAMP_CENTRE = P_CAMP_OWNER + T.N_CELLS  # [4] cell of each seat's camp centre, -1 unused
P_SEAT_FACING = P_CAMP_CENTRE + 4  # [4] facing of each seat's tokens
P_SEAT_CORNER = P_SEAT_FACING + 4  # [4] which board corner each seat uses
P_QUARTER_FACING = P_SEAT_CORNER + 4  # [4] facing (coin edge) of the City Quarter on each slot
P_CAMPAIGN = P_QUARTER_FACING + 4  # 0 in every Duel: the Campaign rule modules are off
N_PARAMS = P_CAMPAIGN + 1  # a Campaign's params continue after these (campaign/config.py)


@dataclass(frozen=True)
class DuelConfig:
    """Rule options of a Deus lo Vult Duel (defaults: rulebook text, else our reading).

    players: 2-4 [R]. deployment: "saracenic" (``predeploy_units`` units each),
    "latin" (``predeploy_points`` Army Points each) or "campaign" (none) [R].
    saracen_placement: "blind" (random from the bag) or "tactical" (players pick in
    turn) [R]. stampede: "unforgiving" (trampled unit to Purgatory) or "chivalrous"
    (the move is not allowed) [R]. robbing: Crusaders may rob via the skull edge and
    are wounded doing so [R]. tie_rule: "last_coin" or "shared" [R].
    double_arrow_adjacent / double_arrow_vs_shield: the double-arrow home rules [R].
    coin_facing: the City Quarters' coin edge faces "centre" [R] or "out" [P].
    rounds: 1-3 (3 in the rulebook; fewer for fast tests and training).
    max_turns: turn cap per seat (``core/turn_cap.py``): a game still going after every
    seat has played this many turns ends truncated and is scored on coins [P].
    saracen_targets: Saracens and City Quarter towers attack "rivals" (the opponents of
    the seat playing them, [R "Attack from the City"]) or "any" Crusader.
    weaken_cost: weakening is "free" [R "Heal Unit"] or costs an "action_point" [R
    "Carrying and Stealing Coins"]. saracen_cap: 0 = "no preset limit" [R]; n = the
    home rule "12 Saracens top" with any n. secure_coins: a GIVE into the camp centre
    secures "one" coin (one Move Coin) or "all" the coins the unit carries.
    saracen_replenish: between rounds the Saracen camps get one new Saracen per Saracen
    "still in purgatory" [R "End of the Round"] ("purgatory"), or every empty green camp
    is refilled ("fill", the engine's reading before issue #38).
    """

    players: int = 2
    deployment: str = "latin"
    predeploy_units: int = 3
    predeploy_points: int = 5
    saracen_placement: str = "blind"
    stampede: str = "unforgiving"
    robbing: bool = False
    tie_rule: str = "last_coin"
    double_arrow_adjacent: bool = False
    double_arrow_vs_shield: str = "blocked"
    coin_facing: str = "centre"
    rounds: int = 3
    max_turns: int = 1900  # 3x the longest 99th percentile of natural length (docs/rules)
    saracen_targets: str = "rivals"
    weaken_cost: str = "free"
    saracen_cap: int = 0
    secure_coins: str = "one"
    saracen_replenish: str = "purgatory"

    def __post_init__(self) -> None:
        def choice(name: str, allowed: tuple) -> None:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")

        def integer(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
                raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {v!r}")

        integer("players", 2, 4)
        choice("deployment", DEPLOYMENTS)
        integer("predeploy_units", 1, 8)
        integer("predeploy_points", 1, T.ARMY_POINT_CAP)
        choice("saracen_placement", SARACEN_PLACEMENTS)
        choice("stampede", STAMPEDES)
        choice("tie_rule", TIE_RULES)
        choice("double_arrow_vs_shield", DOUBLE_ARROW_SHIELD)
        choice("coin_facing", COIN_FACING)
        integer("rounds", 1, 3)
        integer("max_turns", 1, 100_000)
        choice("saracen_targets", SARACEN_TARGETS)
        choice("weaken_cost", WEAKEN_COSTS)
        choice("secure_coins", SECURE_COINS)
        choice("saracen_replenish", SARACEN_REPLENISH)
        cap = self.saracen_cap
        if (
            isinstance(cap, bool)
            or not isinstance(cap, (int, np.integer))
            or not (cap == NO_SARACEN_CAP or T.N_SARACEN_CELLS <= cap <= T.N_DUEL_SARACENS)
        ):
            raise ValueError(
                f"saracen_cap must be 0 (no limit) or an integer in [{T.N_SARACEN_CELLS}, "
                f"{T.N_DUEL_SARACENS}] (setup fills all {T.N_SARACEN_CELLS} green cells), "
                f"got {cap!r}"
            )
        for flag in ("robbing", "double_arrow_adjacent"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be a bool, got {getattr(self, flag)!r}")


def make_params(cfg: DuelConfig) -> np.ndarray:
    """Compile a :class:`DuelConfig` into the int64 params array the kernels read."""
    p = np.zeros(N_PARAMS, np.int64)
    p[P_PLAYERS] = cfg.players
    p[P_DEPLOY] = DEPLOYMENTS.index(cfg.deployment)
    p[P_PRE_UNITS] = cfg.predeploy_units
    p[P_PRE_POINTS] = cfg.predeploy_points
    p[P_SARACEN_PLACE] = SARACEN_PLACEMENTS.index(cfg.saracen_placement)
    p[P_STAMPEDE] = STAMPEDES.index(cfg.stampede)
    p[P_ROBBING] = int(cfg.robbing)
    p[P_TIE] = TIE_RULES.index(cfg.tie_rule)
    p[P_DBL_ADJ] = int(cfg.double_arrow_adjacent)
    p[P_DBL_SHIELD] = DOUBLE_ARROW_SHIELD.index(cfg.double_arrow_vs_shield)
    p[P_MAX_TURNS] = turn_limit(cfg.max_turns, cfg.players)  # over all seats
    p[P_ROUNDS] = cfg.rounds
    p[P_SARACEN_TARGETS] = SARACEN_TARGETS.index(cfg.saracen_targets)
    p[P_WEAKEN_COST] = WEAKEN_COSTS.index(cfg.weaken_cost)
    p[P_SARACEN_CAP] = cfg.saracen_cap
    p[P_SECURE] = SECURE_COINS.index(cfg.secure_coins)
    p[P_REPLENISH] = SARACEN_REPLENISH.index(cfg.saracen_replenish)
    p[P_CAMP_OWNER : P_CAMP_OWNER + T.N_CELLS] = -1
    p[P_CAMP_CENTRE : P_CAMP_CENTRE + 4] = -1
    p[P_SEAT_CORNER : P_SEAT_CORNER + 4] = -1
    for seat, corner in enumerate(T.SEAT_CORNERS[cfg.players]):
        r0, c0 = T.CAMP_TOPLEFT[corner]
        for r in range(r0, r0 + 3):
            for c in range(c0, c0 + 3):
                p[P_CAMP_OWNER + T.SIZE * r + c] = seat
        p[P_CAMP_CENTRE + seat] = T.SIZE * (r0 + 1) + (c0 + 1)
        p[P_SEAT_FACING + seat] = T.CAMP_FACING[corner]
        p[P_SEAT_CORNER + seat] = corner
    flip = 2 if cfg.coin_facing == "out" else 0  # "out": the coin edge turned half round
    p[P_QUARTER_FACING : P_QUARTER_FACING + 4] = (T.QUARTER_COIN_DIR + flip) % 4
    return p
