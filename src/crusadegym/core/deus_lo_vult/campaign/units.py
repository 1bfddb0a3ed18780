"""War Engines, the Engineer and Heroes [R Part 2 "War Engines", "Engineer", "Heroes"].

Hook level (imports only low-level Duel modules and sibling hook modules); the actions
that deploy a unit or need ``choices``/``turns`` live in ``units_actions.py``.

War Engines (``war_engines``) [R "War Engines"]: each seat's four engine tokens
(Trebuchet, Siege Tower, Greek Fire, Catapult) go to its reserve at every Battle's
start and are deployed like any unit ("deploy trebuchet", 3 Army Points [R "All War
Engines cost 3 Army Points"]); they die to Purgatory like the other units (the Duel's
``kill``). Their edges are STAND-IN (``..tables.CAMPAIGN_UNIT_KINDS``).

* Trebuchet: "an enormous Archer Unit, whose single shot crushes and instantly kills
  any Unit" -- its ranged hit does lethal damage whatever edge it meets (our reading:
  shields too, "crushes"). Deck of Deeds upgrades: not built (docs).
* Siege Tower: "allows adjoined Band to rob the Quarter over its Shield edge as if it
  was a Skull edge" -- a Crusader in the tower's band (same band, ``field.band_reaches``)
  may plunder a City Quarter by striking its Shield edge with a skull (our reading: no
  strike back, the tower "protects assailants"); "grants all Archers in the same Band a
  double effective range": an Archer's arrow flies up to ``TOWER_REACH`` = 4 clear steps
  and hits the first token at 2..4 steps (the Duel's exact 2 doubled: our reading).
* Greek Fire: "two uses; it flips on the first one and goes to the Purgatory on the
  second. Upon use, it damages every orthogonally adjacent Unit" -- the action "greek
  fire" (one Move) wounds every Crusader and Saracen next to it (own ones too; City
  Quarters, Refugees and Amenities are not Units).
* Catapult: "Projectiles ignore shields when attacking" -- its ranged hit on a Shield
  edge resolves as on a Heart edge.

Engineer [R "Engineer"] (with the ``engineer`` Field Amenity on; ``field.py`` places it):
Siege Engines move only when the sober Engineer is joined to their band or stands in
their seat's Camp; a drunk Engineer (token flipped, side 1) makes every engine useless
(no move, no strike, no Greek Fire). He gets drunk when a Baccatio card comes into play:
river.py does not build Bacchanalia yet, so :func:`baccatio_check` reads its two
triggers locally (Pillory on; [R "Local Bacchanalia" / "Total Bacchanalia"]). "sober
engineer coin" / "sober engineer move" flip him back (the seat must hold him).

Heroes [R "Heroes"]: ``heroes``/``factions`` per seat (config validates "the Hero of their
Army only"); the Hero is the seat's ``hero_knight`` or ``hero_cavalry`` token (its base
kind, ``tables.HEROES``; STAND-IN edges), put in reserve at every Battle's start. Which
token plays which Hero is ``U_TOKEN_HERO``. Each Hero's rule: see the functions below
and docs/rules/deus_lo_vult.md "War Engines and Heroes".

State: ``layout.CB_UNITS``; params: ``config.P_WAR_ENGINES``, ``P_HERO``, ``P_FACTION``;
actions: ``layout.A_UNITS``.
"""

from __future__ import annotations

import numpy as np

from ...jit import ajit, jit
from .. import tables as T
from ..bands import LAST_ACTION_POINT, chivalrous, open_destination, stampede_scan
from ..carry import free_capacity
from ..config import P_CAMP_OWNER, P_PLAYERS
from ..layout import (
    AP,
    BOARD,
    CUR,
    GROUND,
    LOC_OFF,
    LOC_PURGATORY,
    LOC_RESERVE,
    PH_ARMY,
    PHASE,
    PURG,
    SCORE,
    TOK_COINS,
    TOK_FACE,
    TOK_LOC,
    TOK_SIDE,
    TURN,
)
from ..pieces import (
    NEIGH,
    TOKEN_KIND,
    TOKEN_OWNER,
    campaign_units,
    is_amenity,
    is_crusader,
    is_quarter,
    is_refugee,
    is_saracen,
    place_token,
)
from ..purgatory import LETHAL, STRONG, damage, kill, remove_from_board
from . import adjoin, field, river
from . import battle as B
from . import tables as CT
from .config import P_FACTION, P_HERO, P_OLIVIER_PASSES, P_WAR_ENGINES, amenity_slot
from .layout import A_UNITS, CB_UNITS

NC = T.N_CELLS
KC0 = T.KIND_CAMPAIGN0
TREBUCHET = T.KIND_NAMES.index("trebuchet")
SIEGE_TOWER = T.KIND_NAMES.index("siege_tower")
GREEK_FIRE = T.KIND_NAMES.index("greek_fire")
CATAPULT = T.KIND_NAMES.index("catapult")
HERO_KNIGHT = T.KIND_NAMES.index("hero_knight")
HERO_CAVALRY = T.KIND_NAMES.index("hero_cavalry")
ARCHER = T.KIND_NAMES.index("archer")
PILGRIM = T.KIND_NAMES.index("pilgrim")
ENGINE_KINDS = np.array([TREBUCHET, SIEGE_TOWER, GREEK_FIRE, CATAPULT], np.int64)
# "Knights" for the Bacchanalia triggers: as weather.py reads them [R "Heat hurts all Knights"]
KNIGHT_KIND = np.zeros(T.N_KINDS, np.int64)
for _name in CT.WEATHER_KNIGHT_KINDS:
    KNIGHT_KIND[T.KIND_NAMES.index(_name)] = 1
ENGINE_KIND = np.zeros(T.N_KINDS, np.int64)
ENGINE_KIND[ENGINE_KINDS] = 1
ICON_S, ICON_SH, ICON_H = T.ICON_S, T.ICON_SH, T.ICON_H
RANGED_ICON = T.RANGED_ICON
CRT = T.CRT
DUEL_REACH = 2  # [R] arrows hit "two clear steps" away
TOWER_REACH = 2 * DUEL_REACH  # [R "double effective range"]
ENGINEER_TOKEN = T.AMENITY_TOKEN0 + field.ENGINEER
DISGUSTING_MAN_TOKEN = T.AMENITY_TOKEN0 + field.DISGUSTING_MAN
SOBER, DRUNK = 0, 1  # the Engineer's sides [R "flips the "drunk" side up"]
P_ENGINEER = amenity_slot("engineer")
P_PILLORY = amenity_slot("pillory")
NO = -1
# combat.py's STRIKE_* codes (hook modules may not import combat; units_actions.py
# asserts that these agree)
STRIKE_NONE, STRIKE_COMBAT, STRIKE_PLUNDER, STRIKE_STEAL = 0, 1, 2, 3

# Heroes (index in tables.HERO_NAMES) and armies (index in tables.FACTIONS)
HERO_INDEX = {name: i for i, name in enumerate(CT.HERO_NAMES)}
LOUIS = HERO_INDEX["louis_ix"]
PHILIPPE = HERO_INDEX["philippe_iv"]
RICHARD = HERO_INDEX["richard_lionheart"]
ELEANOR = HERO_INDEX["eleanor_of_aquitaine"]
BARBAROSSA = HERO_INDEX["friedrich_barbarossa"]
LEOPOLD = HERO_INDEX["leopold_v"]
EL_CID = HERO_INDEX["el_cid"]
OLIVIER = HERO_INDEX["olivier_lo_templier"]
MOLAY = HERO_INDEX["jacques_de_molay"]
BALDWIN = HERO_INDEX["baldwin_iv"]
FRANCORUM = CT.FACTIONS.index("regnum_francorum")
ANGEVIN = CT.FACTIONS.index("imperium_angevinium")
TEMPLAR = CT.FACTIONS.index("knights_templar")
# [R "Eleanor" / "Olivier"] who adjoins which Army's units when tapped (adjoin.py)
ADJOIN_HEROES = np.array([ELEANOR, OLIVIER], np.int64)
ADJOIN_ARMIES = np.array([FRANCORUM, TEMPLAR], np.int64)
TAPPED_ELEANOR = 0  # her index in ADJOIN_HEROES (her U_TAPPED slot)
HERO_ARMY = np.array([CT.FACTIONS.index(h[1]) for h in CT.HEROES], np.int64)
HERO_KIND = np.array([T.KIND_NAMES.index(h[2]) for h in CT.HEROES], np.int64)
PASSES_AT_ONCE = CT.OLIVIER_PASSES.index("at_once")
RANSOM_PRICE = 1  # [R Louis IX] "one unit per turn for one Coin price"
CAPTIVE_PRICE = 1  # [R Leopold V] "returned to the main Army for One Coin price"
RICHARD_PRICE = 2  # [R] "If the prisoner is Richard the Lionheart ... Two Coins"
SOBER_PRICE = 1  # [R Engineer] "One Coin or One Move"

# ------------------------------------------------------------------ state slots
U_TOKEN_HERO = CB_UNITS + 0  # [24] per Campaign unit token: hero index + 1, 0 none
U_RANSOMED = CB_UNITS + 24  # [4] Louis IX ransomed a unit this turn
U_BALDWIN_USED = CB_UNITS + 28  # [4] Baldwin IV's touch used this Battle
U_MOLAY_DEAD = CB_UNITS + 32  # turn (+1) on which Jacques de Molay was seen dead, 0 alive
U_CAPTIVE = CB_UNITS + 33  # [4] per captor seat: captive token + 1, 0 none
U_CID_DEAD = CB_UNITS + 37  # [4] El Cid (of this seat) is dead on the board
U_ACTED = CB_UNITS + 41  # [4] Barbarossa (of this seat) has acted this turn
U_ON_BOARD = CB_UNITS + 45  # [4] Barbarossa of this seat was on the board (death check)
U_TAPPED = CB_UNITS + 49  # [2] per ADJOIN_HEROES entry: tapped intentionally, still weak
U_OLIVIER_PASSING = CB_UNITS + 51  # Olivier passes to the Templars at this turn's end
U_END = CB_UNITS + 52
assert U_END <= adjoin.K_COMMANDER
N_CUNITS = T.N_TOKENS - T.CAMPAIGN_UNIT0 - T.N_AMENITY_KINDS  # 24

FIELDS: dict[str, tuple[int, int]] = {
    "hero_tokens": (U_TOKEN_HERO, N_CUNITS),
    "ransomed": (U_RANSOMED, 4),
    "baldwin_used": (U_BALDWIN_USED, 4),
    "molay_dead": (U_MOLAY_DEAD, 1),
    "captive": (U_CAPTIVE, 4),
    "cid_dead": (U_CID_DEAD, 4),
    "hero_acted": (U_ACTED, 4),
    "hero_seen": (U_ON_BOARD, 4),
    "tapped": (U_TAPPED, 2),
    "olivier_passing": (U_OLIVIER_PASSING, 1),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""

# ------------------------------------------------------------------ action ids
A_DEPLOY0 = A_UNITS + 0  # [6] deploy a Campaign kind on the selected camp cell
A_GREEK_FIRE = A_UNITS + 6
A_SOBER_COIN = A_UNITS + 7
A_SOBER_MOVE = A_UNITS + 8
A_RANSOM = A_UNITS + 9  # Louis IX (stage 1)
A_DRIVE = A_UNITS + 10  # Richard drives the Refugees from his tents
A_TOUCH0 = A_UNITS + 11  # [4] Baldwin IV touches the token toward d
A_CAPTURE0 = A_UNITS + 15  # [4] Leopold V (wounded side) takes the token toward d captive
A_REDEEM = A_UNITS + 19  # redeem one's token from a Leopold (stage 1)
A_UNITS_USED = 20
ACTION_NAMES: dict[int, str] = {
    **{A_DEPLOY0 + i: f"deploy {T.KIND_NAMES[KC0 + i]}" for i in range(T.N_CAMPAIGN_UNIT_KINDS)},
    A_GREEK_FIRE: "greek fire",
    A_SOBER_COIN: "sober engineer coin",
    A_SOBER_MOVE: "sober engineer move",
    A_RANSOM: "ransom",
    A_DRIVE: "drive refugees",
    **{A_TOUCH0 + d: f"touch {T.DIR_NAMES[d].lower()}" for d in range(4)},
    **{A_CAPTURE0 + d: f"capture {T.DIR_NAMES[d].lower()}" for d in range(4)},
    A_REDEEM: "redeem captive",
}


# ------------------------------------------------------------------ switches / lookups
@jit
def any_on(params):
    """War Engines or any Hero in this Campaign."""
    if params[P_WAR_ENGINES] != 0:
        return True
    for p in range(4):
        if params[P_HERO + p] >= 0:
            return True
    return False


@jit
def engineer_on(params):
    return params[P_ENGINEER] != 0 and params[P_WAR_ENGINES] != 0


@jit
def is_engine(t):
    return t >= 0 and ENGINE_KIND[TOKEN_KIND[t]] == 1


@jit
def hero_of(state, t):
    """The Hero index token t plays, or -1."""
    if t < T.CAMPAIGN_UNIT0 or t >= T.AMENITY_TOKEN0:
        return NO
    return state[U_TOKEN_HERO + t - T.CAMPAIGN_UNIT0] - 1


@jit
def hero_token(state, h):
    """The token currently playing Hero h, or -1."""
    for i in range(N_CUNITS):
        if state[U_TOKEN_HERO + i] == h + 1:
            return T.CAMPAIGN_UNIT0 + i
    return NO


@jit
def seat_of_faction(params, f, exclude):
    """The first seat (in seat order) whose Army is faction f, other than ``exclude``."""
    for p in range(params[P_PLAYERS]):
        if p != exclude and params[P_FACTION + p] == f:
            return p
    return NO


@jit
def spare_token(state, p, kind):
    """Seat p's token of Campaign ``kind`` if it plays no Hero and is out of play."""
    t = campaign_units(p) + kind - KC0
    if state[U_TOKEN_HERO + t - T.CAMPAIGN_UNIT0] == 0 and state[TOK_LOC + t] == LOC_OFF:
        return t
    return NO


# ------------------------------------------------------------------ Battle start
@jit
def start_battle(state, params):
    """[R "War Engines" / "Heroes"]: each seat's engines and Hero token into reserve."""
    players = params[P_PLAYERS]
    for i in range(N_CUNITS):
        t = T.CAMPAIGN_UNIT0 + i
        if state[TOK_LOC + t] >= 0:
            state[BOARD + state[TOK_LOC + t]] = -1
        state[TOK_LOC + t] = LOC_OFF
        state[TOK_SIDE + t] = 0
        state[TOK_COINS + t] = 0
        state[U_TOKEN_HERO + i] = 0
    for k in range(U_RANSOMED, U_END):
        state[k] = 0
    for p in range(players):
        u0 = campaign_units(p)
        if params[P_WAR_ENGINES] != 0:
            for e in range(len(ENGINE_KINDS)):
                state[TOK_LOC + u0 + ENGINE_KINDS[e] - KC0] = LOC_RESERVE
        h = params[P_HERO + p]
        if h >= 0:
            t = u0 + HERO_KIND[h] - KC0
            state[TOK_LOC + t] = LOC_RESERVE
            state[U_TOKEN_HERO + t - T.CAMPAIGN_UNIT0] = h + 1


# ------------------------------------------------------------------ the Engineer
@jit
def engineer_sober(state):
    return state[TOK_SIDE + ENGINEER_TOKEN] == SOBER


@jit
def engine_may_move(state, params, t, p):
    """[R "Engineer"] "you can only make Moves with your Siege Engines when you have the
    sober Engineer connected to the same Band or settled in your Camp"."""
    if not engineer_on(params) or not is_engine(t):
        return True
    if not engineer_sober(state):
        return False
    ec = state[TOK_LOC + ENGINEER_TOKEN]
    if ec < 0:
        return False
    if params[P_CAMP_OWNER + ec] == p:
        return True
    return field.band_reaches(state, state[TOK_LOC + t], p, ec)


@jit
def engine_useless(state, params, t):
    """A drunk Engineer renders "all Siege Engines useless" [R "Engineer"]."""
    return engineer_on(params) and is_engine(t) and not engineer_sober(state)


@jit
def baccatio_check(state, params, p):
    """Minimal local reading of when a Baccatio card comes into play at the end of seat
    p's turn [R "The Pillory": Local Bacchanalia -- "a Pilgrim Unit and no Knight Units
    in a Camp"; Total -- "a Coin at an empty cell on the game board (not in Camp)"]:
    the Engineer then gets drunk [R "every time the Baccatio card comes to play"]."""
    if not engineer_on(params) or params[P_PILLORY] == 0:
        return
    pilgrims, knights, loose = 0, 0, 0
    for c in range(NC):
        u = state[BOARD + c]
        o = params[P_CAMP_OWNER + c]
        if u < 0:
            if o < 0 and state[GROUND + c] > 0:
                loose += 1
            continue
        if o == p and is_crusader(u) and TOKEN_OWNER[u] == p:
            if TOKEN_KIND[u] == PILGRIM:
                pilgrims += 1
            if KNIGHT_KIND[TOKEN_KIND[u]] == 1:
                knights += 1
    if (pilgrims > 0 and knights == 0) or loose > 0:
        state[TOK_SIDE + ENGINEER_TOKEN] = DRUNK


# ------------------------------------------------------------------ strikes
@jit
def ranged_reach(state, params, c):
    """How far the arrows of the token on c fly: doubled for an Archer whose band holds
    its seat's Siege Tower [R "grants all Archers in the same Band a double effective
    range"]."""
    t = state[BOARD + c]
    if params[P_WAR_ENGINES] == 0 or t < 0 or not is_crusader(t) or TOKEN_KIND[t] != ARCHER:
        return DUEL_REACH
    p = TOKEN_OWNER[t]
    tower = campaign_units(p) + SIEGE_TOWER - KC0
    tc = state[TOK_LOC + tower]
    if tc < 0 or engine_useless(state, params, tower):
        return DUEL_REACH
    if field.band_reaches(state, c, p, tc):
        return TOWER_REACH
    return DUEL_REACH


@jit
def far_target(state, c, d, reach):
    """The first token 2..reach clear straight steps from c toward d, or -1."""
    n = NEIGH[c, d]
    for _ in range(1, reach):
        if n < 0:
            return -1
        n = NEIGH[n, d]
        if n < 0:
            return -1
        if state[BOARD + n] >= 0:
            return n
    return -1


@jit
def in_tower_band(state, params, c, p):
    """Does the band of seat p's Crusader on c hold p's usable Siege Tower?"""
    tower = campaign_units(p) + SIEGE_TOWER - KC0
    tc = state[TOK_LOC + tower]
    if tc < 0 or engine_useless(state, params, tower):
        return False
    return field.band_reaches(state, c, p, tc)


@jit
def classify(state, params, c, d, p, army_ok, code):
    """Strike verdicts changed by War Engines and Heroes (``hooks.classify``). The new
    verdicts are all skull strikes, so they look at the adjacent cell only."""
    t = state[BOARD + c]
    if not is_crusader(t) or TOKEN_OWNER[t] != p or not army_ok:
        return code
    if engine_useless(state, params, t):
        return STRIKE_NONE
    h = hero_of(state, t)
    if h == EL_CID and state[U_CID_DEAD + p] != 0:
        return STRIKE_NONE  # [R] "he cannot fight"
    icon = _edge(state, t, d)
    tc = NEIGH[c, d]
    if icon != ICON_S or tc < 0 or state[BOARD + tc] < 0:
        return code
    u = state[BOARD + tc]
    def_icon = _edge(state, u, (d + 2) % 4)
    free = free_capacity(state, params, t)
    if code == STRIKE_NONE and params[P_WAR_ENGINES] != 0 and is_quarter(state, u):
        if icon == ICON_S and def_icon == ICON_SH and state[TOK_COINS + u] > 0 and free > 0:
            if in_tower_band(state, params, c, p):
                return STRIKE_PLUNDER  # over the Shield edge [R "Siege Tower"]
    if h == PHILIPPE and code == STRIKE_NONE and is_crusader(u) and icon == ICON_S:
        o = TOKEN_OWNER[u]
        if o != p and params[P_FACTION + o] == TEMPLAR:
            if state[TOK_COINS + u] > 0 and free > 0 and (def_icon == ICON_H or def_icon == ICON_S):
                return STRIKE_STEAL  # through heart and skull [R "Philippe IV"]
            return STRIKE_COMBAT  # "kill Templars"
    return code


@jit
def steal_wounds(state, params, t, u):
    """Philippe IV takes Templar coins "through both heart and skull side" [R]: robbing
    a Templar unit over its Skull edge does not wound him (our reading)."""
    if hero_of(state, t) == PHILIPPE and is_crusader(u):
        return params[P_FACTION + TOKEN_OWNER[u]] != TEMPLAR
    return True


@jit
def _edge(state, t, absdir):
    rel = (absdir - state[TOK_FACE + t] + 4) % 4
    return T.KIND_EDGES[TOKEN_KIND[t], state[TOK_SIDE + t], rel]


@jit
def combat(state, params, t, u, icon, def_icon, charge, da, dd):
    """Damage changed by the engines and Heroes (``hooks.combat``)."""
    k = TOKEN_KIND[t]
    if is_crusader(t) and RANGED_ICON[icon] == 1:
        if k == TREBUCHET:
            dd = LETHAL  # [R] "single shot crushes and instantly kills any Unit"
        elif k == CATAPULT and def_icon == ICON_SH:
            da, dd = CRT[icon, ICON_H, 0], CRT[icon, ICON_H, 1]  # "ignore shields"
    if hero_of(state, u) == RICHARD and RANGED_ICON[icon] == 1 and dd > 0:
        dd = LETHAL  # [R] "Any ranged unit would kill Richard with a single shot"
    if hero_of(state, t) == BARBAROSSA and not charge and state[U_ACTED + TOKEN_OWNER[t]] == 0:
        if icon == ICON_S and def_icon == ICON_SH:  # [R] "Charge ability on a first move"
            da, dd = T.CHARGE_VS_SHIELD[0], T.CHARGE_VS_SHIELD[1]
    return da, dd


# ------------------------------------------------------------------ after events
@jit
def mark_acted(state, t):
    """Barbarossa (token t) has acted this turn, and was on the board for it."""
    if t >= 0 and hero_of(state, t) == BARBAROSSA:
        state[U_ACTED + TOKEN_OWNER[t]] = 1
        mark_seen(state, t)


@jit
def mark_seen(state, t):
    """Barbarossa (token t) was on the board: a later Purgatory is his death."""
    if t >= 0 and hero_of(state, t) == BARBAROSSA:
        state[U_ON_BOARD + TOKEN_OWNER[t]] = 1


@jit
def after_strike(state, params, c, tc, p, code, t, u):
    mark_acted(state, t)
    if u < 0:
        heroes_check(state, params)
        return
    mark_seen(state, u)
    h = hero_of(state, u)
    if h == EL_CID:
        cid_wounded(state, params, u, tc)
    elif h == ELEANOR and p != TOKEN_OWNER[u] and state[TOK_LOC + u] >= 0:
        if state[TOK_SIDE + u] == 1:  # [R] "When wounded by another Player, moves ..."
            defect(state, params, u, FRANCORUM)
    heroes_check(state, params)


@jit
def after_move(state, params, t, e):
    mark_acted(state, t)
    if hero_of(state, t) == RICHARD and state[TOK_LOC + t] == e:
        for d in range(4):  # [R] "can't end his moves next to a city (... wound and die)"
            n = NEIGH[e, d]
            if n >= 0 and state[BOARD + n] >= 0 and is_quarter(state, state[BOARD + n]):
                kill(state, t)
                break
    if hero_of(state, t) == EL_CID and state[U_CID_DEAD + TOKEN_OWNER[t]] != 0:
        drop_coins(state, t)
    heroes_check(state, params)


@jit
def drop_coins(state, t):
    """Coins of token t fall on its cell (El Cid's "cold dead hands")."""
    c = state[TOK_LOC + t]
    if c >= 0 and state[TOK_COINS + t] > 0:
        state[GROUND + c] += state[TOK_COINS + t]
        state[TOK_COINS + t] = 0


@jit
def cid_wounded(state, params, u, tc):
    """[R "El Cid"] "considered dead when wounded ... won't leave the board even in death.
    He can't be killed and sent to the Purgatorium": back on his cell, weak side, dead."""
    p = TOKEN_OWNER[u]
    if state[TOK_LOC + u] == LOC_PURGATORY:
        for i in range(T.PURGATORY_SLOTS):
            if state[PURG + i] == u:
                for j in range(i, T.PURGATORY_SLOTS - 1):
                    state[PURG + j] = state[PURG + j + 1]
                state[PURG + T.PURGATORY_SLOTS - 1] = -1
                break
        if state[BOARD + tc] < 0:
            side = 1
            face = state[TOK_FACE + u]
            place_token(state, u, tc, face)
            state[TOK_SIDE + u] = side
        else:
            state[TOK_LOC + u] = LOC_RESERVE
        state[U_CID_DEAD + p] = 1
    elif state[TOK_LOC + u] >= 0 and state[TOK_SIDE + u] == 1:
        state[U_CID_DEAD + p] = 1
        drop_coins(state, u)


@jit
def defect(state, params, t, faction):
    """Hero token t changes sides [R "Eleanor" / "Olivier"]: to the seat of ``faction``,
    else "the Army on the left" (the next seat in play order: our reading). Our reading
    of the physical swap: the receiving seat's spare token of the same kind takes her
    place (same cell, side, facing, coins); with none spare she leaves play."""
    p = TOKEN_OWNER[t]
    q = seat_of_faction(params, faction, p)
    if q < 0:
        q = (p + 1) % params[P_PLAYERS]
    if q == p:
        return
    h = hero_of(state, t)
    if h == ELEANOR:
        state[U_TAPPED + TAPPED_ELEANOR] = 0  # wounded by another seat: not tapped by hers
    n = spare_token(state, q, TOKEN_KIND[t])
    c = state[TOK_LOC + t]
    side, face, coins = state[TOK_SIDE + t], state[TOK_FACE + t], state[TOK_COINS + t]
    state[U_TOKEN_HERO + t - T.CAMPAIGN_UNIT0] = 0
    state[TOK_COINS + t] = 0
    state[BOARD + c] = -1
    state[TOK_LOC + t] = LOC_OFF
    state[TOK_SIDE + t] = 0
    if n < 0:
        state[GROUND + c] += coins
        return
    place_token(state, n, c, face)
    state[TOK_SIDE + n] = side
    state[TOK_COINS + n] = coins
    state[U_TOKEN_HERO + n - T.CAMPAIGN_UNIT0] = h + 1


@jit
def after_weaken(state, params, t, p):
    """A seat weakened its own unit t [R "Heroes": "tapped intentionally"]."""
    h = hero_of(state, t)
    for i in range(len(ADJOIN_HEROES)):
        if h == ADJOIN_HEROES[i]:
            state[U_TAPPED + i] = 1
    if h == OLIVIER:  # [R] "When wounded intentionally, he passes to the Templar faction"
        if params[P_OLIVIER_PASSES] == PASSES_AT_ONCE:
            defect(state, params, t, TEMPLAR)
        else:
            state[U_OLIVIER_PASSING] = 1
    if h == EL_CID:
        state[U_CID_DEAD + p] = 1
        drop_coins(state, t)


@jit
def heroes_check(state, params):
    """Deaths that trigger Hero rules: Barbarossa's army retreats [R "Whenever he is
    killed, all Sacrum Imperium Romanum units on board must immediately retreat to their
    camp dropping the loot"]; Jacques de Molay's death is dated for Philippe IV."""
    b = hero_token(state, BARBAROSSA)
    if b >= 0:
        p = TOKEN_OWNER[b]
        if state[TOK_LOC + b] >= 0:
            state[U_ON_BOARD + p] = 1
        elif state[U_ON_BOARD + p] != 0:
            state[U_ON_BOARD + p] = 0
            if state[TOK_LOC + b] == LOC_PURGATORY:
                retreat(state, params, p)
    m = hero_token(state, MOLAY)
    if m >= 0 and state[U_MOLAY_DEAD] == 0 and state[TOK_LOC + m] == LOC_PURGATORY:
        state[U_MOLAY_DEAD] = state[TURN] + 1


@jit
def retreat(state, params, p):
    """Seat p's units on the board go back to its camp (reserve), dropping their coins
    where they stood (our reading of "retreat to their camp dropping the loot")."""
    for c in range(NC):
        u = state[BOARD + c]
        if u >= 0 and is_crusader(u) and TOKEN_OWNER[u] == p:
            remove_from_board(state, u)
            state[TOK_LOC + u] = LOC_RESERVE
            state[TOK_SIDE + u] = 0


@jit
def begin_turn(state, params, p):
    state[U_RANSOMED + p] = 0
    for s in range(4):
        state[U_ACTED + s] = 0
    heroes_check(state, params)
    # [R "Philippe IV"] "Dies ... on the next game turn after the death of Jacques de Molay"
    if state[U_MOLAY_DEAD] != 0 and state[TURN] >= state[U_MOLAY_DEAD]:
        ph = hero_token(state, PHILIPPE)
        if ph >= 0 and state[TOK_LOC + ph] != LOC_OFF and state[TOK_LOC + ph] != LOC_PURGATORY:
            if state[TOK_LOC + ph] >= 0:
                kill(state, ph)
            else:
                state[TOK_LOC + ph] = LOC_OFF
    cid = hero_token(state, EL_CID)
    if cid >= 0 and state[TOK_LOC + cid] < 0:
        state[U_CID_DEAD + TOKEN_OWNER[cid]] = 0  # withdrawn "to the citadel to revive"


@jit
def end_turn(state, params, p):
    if state[U_OLIVIER_PASSING] != 0:  # olivier_passes="end_of_turn"
        state[U_OLIVIER_PASSING] = 0
        o = hero_token(state, OLIVIER)
        if o >= 0 and state[TOK_LOC + o] >= 0:
            defect(state, params, o, TEMPLAR)
    baccatio_check(state, params, p)
    heroes_check(state, params)
    cid = hero_token(state, EL_CID)
    if cid >= 0 and state[U_CID_DEAD + TOKEN_OWNER[cid]] != 0:
        drop_coins(state, cid)  # [R] "unable to take or carry Coins in his cold dead hands"
    # [R "Louis IX"] "Dies of amebiasis (if anyone leaves the Latrine dirty at the end of
    # the turn)": river.py's Latrine, read after river's end-of-turn hook.
    lo = hero_token(state, LOUIS)
    if lo >= 0 and params[river.P_LATRINE] != 0 and state[river.R_LATRINE] == river.FILTHY:
        if state[TOK_LOC + lo] >= 0:
            kill(state, lo)
        elif state[TOK_LOC + lo] == LOC_RESERVE:
            state[TOK_LOC + lo] = LOC_OFF


@jit
def may_move(state, params, t, p):
    if engine_useless(state, params, t):
        return False
    return engine_may_move(state, params, t, p)


@jit
def capacity(state, params, t, cap):
    """A dead El Cid carries nothing [R "El Cid": "he's unable to take or carry Coins in
    his cold dead hands"]: capacity 0, so he is never offered TAKE, steal or a GIVE."""
    if hero_of(state, t) == EL_CID and state[U_CID_DEAD + TOKEN_OWNER[t]] != 0:
        return 0
    return cap


@ajit
def lone_moves(state, params, c, out, first_only):
    """[R "Barbarossa"] "Can move as a single unit while being wounded": on his wounded
    side he may also step alone to an orthogonally adjacent empty cell (our reading),
    under the band moves' restrictions (``bands.add_moves``): not a camp centre, not a
    rival camp with the last Action Point, no trampling with the chivalrous Stampede."""
    t = state[BOARD + c]
    if hero_of(state, t) != BARBAROSSA or state[TOK_SIDE + t] != 1:
        return 0
    polite = chivalrous(params)
    before = np.empty(NC, np.int64)
    if polite:
        stampede_scan(state, params, before)
    last_point = state[AP] <= LAST_ACTION_POINT
    n = 0
    for d in range(4):
        e = NEIGH[c, d]
        if not open_destination(state, params, c, e, t, out, first_only, last_point,
                                polite, before):  # fmt: skip
            continue
        if first_only:
            return 1
        out[e] = 1
        n += 1
    return n


@jit
def may_place(state, params, c, p):
    """HEAL on c: a dead El Cid "cannot be cured after the injury" [R]."""
    t = state[BOARD + c]
    if t >= 0 and hero_of(state, t) == EL_CID and state[U_CID_DEAD + TOKEN_OWNER[t]] != 0:
        return False
    return True


# ------------------------------------------------------------------ unit actions
@jit
def unit_extras(state, params, c, out, first_only):
    """Stage-2 actions of the selection on c (not deployment: ``units_actions``)."""
    t = state[BOARD + c]
    if t < 0 or not is_crusader(t):
        return 0
    p = TOKEN_OWNER[t]
    if p != state_cur(state) or state[AP] < 1:
        return 0
    n = 0
    if TOKEN_KIND[t] == GREEK_FIRE and not engine_useless(state, params, t):
        out[A_GREEK_FIRE] = 1
        n += 1
    h = hero_of(state, t)
    if h == RICHARD and params[P_CAMP_OWNER + c] == p and refugees_in_camp(state, params, p) > 0:
        out[A_DRIVE] = 1
        n += 1
    if h == BALDWIN and state[U_BALDWIN_USED + p] == 0:
        for d in range(4):
            nb = NEIGH[c, d]
            if nb >= 0 and touchable(state, state[BOARD + nb], p):
                out[A_TOUCH0 + d] = 1
                n += 1
    if h == LEOPOLD and state[TOK_SIDE + t] == 1 and state[U_CAPTIVE + p] == 0:
        for d in range(4):
            nb = NEIGH[c, d]
            if nb >= 0 and capturable(state, params, state[BOARD + nb], p):
                out[A_CAPTURE0 + d] = 1
                n += 1
    return n


@jit
def state_cur(state):
    return state[CUR]


@jit
def touchable(state, u, p):
    """An opponent's Unit Baldwin IV may touch [R "the token of any opponent"]."""
    return u >= 0 and is_crusader(u) and TOKEN_OWNER[u] != p


@jit
def capturable(state, params, u, p):
    """An Angevin token [R "one Anjouan (The Imperium Angevinium) token"]."""
    return (
        u >= 0
        and is_crusader(u)
        and TOKEN_OWNER[u] != p
        and params[P_FACTION + TOKEN_OWNER[u]] == ANGEVIN
    )


@jit
def refugees_in_camp(state, params, p):
    n = 0
    for c in range(NC):
        u = state[BOARD + c]
        if u >= 0 and params[P_CAMP_OWNER + c] == p and is_refugee(state, u):
            n += 1
    return n


@jit
def apply_unit_extra(state, params, c, a):
    """The selection on c does action a (one Move each)."""
    t = state[BOARD + c]
    p = TOKEN_OWNER[t]
    state[AP] -= 1
    if a == A_GREEK_FIRE:
        greek_fire(state, t)
    elif a == A_DRIVE:
        for e in range(NC):  # [R "Richard can drive the Refugees away from his tents"]
            u = state[BOARD + e]
            if u >= 0 and params[P_CAMP_OWNER + e] == p and is_refugee(state, u):
                kill(state, u)
    elif A_TOUCH0 <= a < A_TOUCH0 + 4:
        baldwin_touch(state, NEIGH[c, a - A_TOUCH0], p)
    elif A_CAPTURE0 <= a < A_CAPTURE0 + 4:
        u = state[BOARD + NEIGH[c, a - A_CAPTURE0]]
        remove_from_board(state, u)
        state[TOK_LOC + u] = LOC_OFF
        state[TOK_SIDE + u] = 0
        state[U_CAPTIVE + p] = u + 1
    mark_acted(state, t)
    heroes_check(state, params)


@jit
def greek_fire(state, t):
    """[R "Greek Fire"] damage every orthogonally adjacent Unit, then flip / Purgatory."""
    c = state[TOK_LOC + t]
    for d in range(4):
        n = NEIGH[c, d]
        if n >= 0:
            u = state[BOARD + n]
            if u >= 0 and (is_crusader(u) or is_saracen(u)):
                damage(state, u, 1)
    if state[TOK_SIDE + t] == 0:
        state[TOK_SIDE + t] = 1
    else:
        kill(state, t)


@jit
def baldwin_touch(state, e, p):
    """[R "Baldwin IV"] "turns this Unit into a disgusting man": the Unit leaves the board
    for Purgatory (our reading) and the Disgusting Man token takes its cell when it is
    not in play (on the board or hidden under a quarter)."""
    u = state[BOARD + e]
    kill(state, u)
    dm = DISGUSTING_MAN_TOKEN
    if state[TOK_LOC + dm] == LOC_OFF and state[field.F_UNDER + field.DISGUSTING_MAN] < 0:
        place_token(state, dm, e, T.N)
        state[field.F_CELL + field.DISGUSTING_MAN] = e
    state[U_BALDWIN_USED + p] = 1


# ------------------------------------------------------------------ turn actions
@jit
def turn_extras(state, params, out):
    """Stage 1: sober the Engineer, Louis IX's ransom, redeem a captive."""
    p = state_cur(state)
    n = 0
    if (
        engineer_on(params)
        and not engineer_sober(state)
        and field.holds(state, params, p, field.ENGINEER)
    ):
        if state[SCORE + p] >= SOBER_PRICE:
            out[A_SOBER_COIN] = 1
            n += 1
        if state[AP] >= 1:
            out[A_SOBER_MOVE] = 1
            n += 1
    if ransom_target(state, p) >= 0 and state[SCORE + p] >= RANSOM_PRICE:
        out[A_RANSOM] = 1
        n += 1
    q = captor_of(state, p)
    if q >= 0 and state[SCORE + p] >= captive_price(state):
        out[A_REDEEM] = 1
        n += 1
    return n


@jit
def ransom_target(state, p):
    """Louis IX's seat may ransom its newest unit in Purgatory, once a turn [R "He can
    ransom Units from Purgatory - one unit per turn for one Coin price"]; Louis must be
    in play (on the board or in reserve: our reading)."""
    lo = hero_token(state, LOUIS)
    if lo < 0 or TOKEN_OWNER[lo] != p or state[U_RANSOMED + p] != 0:
        return NO
    if state[TOK_LOC + lo] != LOC_RESERVE and state[TOK_LOC + lo] < 0:
        return NO
    for i in range(T.PURGATORY_SLOTS):
        u = state[PURG + i]
        if u >= 0 and is_crusader(u) and TOKEN_OWNER[u] == p:
            return u
    return NO


@jit
def captor_of(state, p):
    """The seat holding one of p's tokens captive, or -1."""
    for q in range(4):
        u = state[U_CAPTIVE + q] - 1
        if u >= 0 and TOKEN_OWNER[u] == p:
            return q
    return NO


@jit
def captive_price(state):
    r = hero_token(state, RICHARD)
    for q in range(4):
        if r >= 0 and state[U_CAPTIVE + q] == r + 1:
            return RICHARD_PRICE
    return CAPTIVE_PRICE


@jit
def apply_turn_extra(state, params, a):
    p = state_cur(state)
    if a == A_SOBER_COIN:
        B.pay_coins(state, p, SOBER_PRICE)
        state[TOK_SIDE + ENGINEER_TOKEN] = SOBER
    elif a == A_SOBER_MOVE:
        state[AP] -= 1
        state[TOK_SIDE + ENGINEER_TOKEN] = SOBER
    elif a == A_RANSOM:
        u = ransom_target(state, p)
        for i in range(T.PURGATORY_SLOTS):
            if state[PURG + i] == u:
                for j in range(i, T.PURGATORY_SLOTS - 1):
                    state[PURG + j] = state[PURG + j + 1]
                state[PURG + T.PURGATORY_SLOTS - 1] = -1
                break
        state[TOK_LOC + u] = LOC_RESERVE
        B.pay_coins(state, p, RANSOM_PRICE)
        state[U_RANSOMED + p] = 1
    elif a == A_REDEEM:
        q = captor_of(state, p)
        price = captive_price(state)
        u = state[U_CAPTIVE + q] - 1
        state[TOK_LOC + u] = LOC_RESERVE
        state[U_CAPTIVE + q] = 0
        state[SCORE + p] -= price
        state[SCORE + q] += price  # the ransom goes to Leopold's seat (our reading)


# ------------------------------------------------------------------ observation
@jit
def observe(state, params, player, out, o):
    """Scalars (``layout.OS_UNITS``), per relative seat r: [r] Hero on the board,
    [4 + r] Hero dead this Battle, [8 + r] Baldwin's touch used, [12 + r] holds a
    captive, [16 + r] El Cid dead; [20] Engineer drunk; [21] this seat commands
    adjoined units now, [22] another seat does (``adjoin.py``). All public."""
    players = params[P_PLAYERS]
    for p in range(players):
        r = (p - player + players) % players
        h = params[P_HERO + p]
        if h >= 0:
            t = hero_token(state, h)
            if t >= 0 and state[TOK_LOC + t] >= 0:
                out[o + r] = 1.0
            if t < 0 or state[TOK_LOC + t] == LOC_PURGATORY or state[TOK_LOC + t] == LOC_OFF:
                out[o + 4 + r] = 1.0
        out[o + 8 + r] = 1.0 if state[U_BALDWIN_USED + p] != 0 else 0.0
        out[o + 12 + r] = 1.0 if state[U_CAPTIVE + p] != 0 else 0.0
        out[o + 16 + r] = 1.0 if state[U_CID_DEAD + p] != 0 else 0.0
    if engineer_on(params):
        out[o + 20] = 0.0 if engineer_sober(state) else 1.0
    s = adjoin.commander(state)
    if s >= 0:
        out[o + 21 + (0 if s == player else 1)] = 1.0


# ------------------------------------------------------------------ adjoined units
@jit
def update_adjoined(state, params):
    """Recompute who commands the adjoined units for the next action (``adjoin.py``)
    [R "Eleanor": "Being tapped intentionally ... adjoin French units to her band and
    use them just like her own during her turn"; "Olivier": "the same way ... - when
    tapped intentionally"]. A tapped Hero healed (strong again) or off the board is no
    longer tapped."""
    adjoin.clear(state)
    p = state[CUR]
    for i in range(len(ADJOIN_HEROES)):
        t = hero_token(state, ADJOIN_HEROES[i])
        if t < 0 or state[TOK_LOC + t] < 0 or state[TOK_SIDE + t] == STRONG:
            state[U_TAPPED + i] = 0
            continue
        if state[U_TAPPED + i] == 0 or TOKEN_OWNER[t] != p or state[PHASE] != PH_ARMY:
            continue
        q = seat_of_faction(params, ADJOIN_ARMIES[i], p)
        if q >= 0 and params[P_FACTION + p] != ADJOIN_ARMIES[i]:
            adjoin_band(state, t, p, q)


@ajit
def adjoin_band(state, hero, p, q):
    """Seat p commands seat q's Crusaders connected to ``hero`` through orthogonally
    adjacent Crusaders of p or q, Refugees and Field Amenities (her band, French units
    joined to it)."""
    queue = np.empty(NC, np.int64)
    seen = np.zeros(NC, np.uint8)
    c0 = state[TOK_LOC + hero]
    queue[0] = c0
    seen[c0] = 1
    head, top = 0, 1
    found = False
    while head < top:
        c = queue[head]
        head += 1
        for d in range(4):
            n = NEIGH[c, d]
            if n < 0 or seen[n] != 0:
                continue
            v = state[BOARD + n]
            if v < 0:
                continue
            if is_crusader(v):
                if TOKEN_OWNER[v] == q:
                    adjoin.adjoin(state, v)
                    found = True
                elif TOKEN_OWNER[v] != p:
                    continue
            elif not (is_refugee(state, v) or is_amenity(v)):
                continue
            seen[n] = 1
            queue[top] = n
            top += 1
    if found:
        state[adjoin.K_COMMANDER] = p + 1


@ajit
def adjoined_stale(state, params):
    """Does the stored adjoined set differ from the one the position gives (a compiled
    invariant, ``invariants.check_adjoined``)?"""
    again = state.copy()
    update_adjoined(again, params)
    for k in range(adjoin.K_COMMANDER, adjoin.K_END):
        if again[k] != state[k]:
            return True
    return False
