"""The Campaign invariants of ``invariants.check_campaign``, compiled for the soak.

:func:`violation` returns 0 for a sound Campaign state, else the code of the first
violated Campaign invariant (``VIOLATIONS[code]`` says which). Each check is one small
function mirroring one plain-Python checker (``battle``, ``field.check_field``,
``gauntlets.check``, ``deeds.check``, ``weather.check``, ``river.check``,
``gravediggers.check``, ``invariants.check_adjoined``); the Python ones stay the
readable statement. It reads the state only and never raises; it assumes the Duel's
checks (``..invariant_kernel``) passed first (token locations in range).

The Duel's compiled checker reaches it through :data:`campaign_violation`, a hook point
(``hookpoints.py``'s mechanism) that compiles this module for Campaign params and a
constant 0 for the Duel's. ``tests/test_invariant_kernels.py`` checks that every
single-slot corruption of a reachable Campaign state that the Python checkers flag is
flagged by the compiled checker too.

Numba's cache does not see a change here from the Duel's cached ``violation``: after
editing this module, clear the ``__pycache__`` ``*.nbi`` / ``*.nbc`` files (or use a
fresh ``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

from ...jit import ajit, jit
from .. import tables as T
from ..config import P_CAMPAIGN, P_PLAYERS
from ..layout import BOARD, CUR, LOC_OFF, LOC_PURGATORY, TOK_LOC
from ..pieces import TOKEN_OWNER, is_crusader
from . import adjoin, deeds, field, gauntlets, river, units, weather
from . import gravediggers as GD
from . import hookpoints as H
from .battle import C_BATTLE, C_CARRY, C_GLORY, C_OVER
from .config import (
    GAUNTLET_HOLIER,
    P_DEEDS,
    P_GAUNTLET,
    P_MAX_BATTLES,
    P_RAIN_SAND,
    P_WEATHER,
    WEATHER_ACTIVE,
    WEATHER_PASSIVE,
)

VIOLATIONS = (
    "sound",
    "Campaign: the adjoined units are not the ones the position gives (campaign/adjoin.py)",
    "Campaign: Battle counter, Glory or carried coins out of range",
    "Campaign: a Field Amenity in play that is not switched on, or hidden and in play",
    "Campaign: the Rati card beside an absent seat",
    "Campaign: Gauntlet tallies, Capitularius or indulgence coins out of range",
    "Campaign: Deeds slots out of range",
    "Campaign: the Weather card, deck or hands out of range",
    "Campaign: River tokens or cards out of range",
    "Campaign: the Gravediggers side, window or queue out of range",
)
(
    OK,
    BAD_ADJOINED,
    BAD_BATTLE,
    BAD_FIELD,
    BAD_RATS,
    BAD_GAUNTLET,
    BAD_DEEDS,
    BAD_WEATHER,
    BAD_RIVER,
    BAD_GRAVEDIGGERS,
) = range(len(VIOLATIONS))

N_SEATS = T.MAX_PLAYERS  # the Campaign blocks keep a slot per possible seat
NONE = -1  # "no seat / no card / not hidden" in the Campaign blocks
NO_WINDOW = 0  # gravediggers G_SEAT / G_TURN when no window is open (seat + 1)
BINARY_SIDES = 1  # a two-sided River token or card slot holds 0 or 1
ALL_DEEDS = (1 << deeds.N_CARDS) - 1  # the Deeds masks' bits: one per card of the deck
ALL_BACCATIO = river.LOCAL | river.TOTAL  # a Baccatio card's bits
N_WEATHER_CARDS = len(weather.CT.WEATHER_CARDS)
ENTRY_TOKEN, ENTRY_CELL = 0, 1  # a gravediggers queue entry: token, cell, side, coins


@jit
def _bad_battle(state, params):
    """``invariants.check_campaign``'s own slots: Battles finished within
    ``[0, P_MAX_BATTLES]``; Glory and the coins carried into the next Battle >= 0 for each
    seat; the Campaign not over before a Battle ended."""
    if state[C_BATTLE] < 0 or state[C_BATTLE] > params[P_MAX_BATTLES]:
        return True
    for p in range(params[P_PLAYERS]):
        if state[C_GLORY + p] < 0 or state[C_CARRY + p] < 0:
            return True
    return state[C_OVER] != 0 and state[C_BATTLE] == 0


@jit
def _bad_field(state, params):
    """``field.check_field``: a Field Amenity (the Donkey excepted, a River token) on the
    board or hidden only when switched on (the Disgusting Man also with Baldwin IV); a
    hidden one stays off the board and is hidden under a real cell."""
    for i in range(field.NA):
        loc = state[TOK_LOC + T.AMENITY_TOKEN0 + i]
        under = state[field.F_UNDER + i]
        switched = field.amenity_on(params, i) or (
            i == field.DISGUSTING_MAN and field.disgusting_man_on(params)
        )
        if not switched and i != field.DONKEY and (loc >= 0 or under >= 0):
            return True
        if under >= 0 and loc != LOC_OFF:
            return True
        if under >= T.N_CELLS:
            return True
    return False


@jit
def _bad_rats(state, params):
    """``field.check_field``: the Rati card lies next to a present seat's camp only."""
    for p in range(params[P_PLAYERS], N_SEATS):
        if state[field.F_RATS + p] != 0:
            return True
    return False


@jit
def _bad_gauntlet(state, params):
    """``gauntlets.check``: tallies, Capitularius and indulgence coins >= 0, the coins 0
    for absent seats; the Knights' holder and the tithe winner a seat or -1; coins on
    Capitularius cards only with the Holier Than Thou Gauntlet."""
    players = params[P_PLAYERS]
    capitularius = 0
    for p in range(N_SEATS):
        if state[gauntlets.G_COUNT + p] < 0:
            return True
        for off in (gauntlets.G_CAPIT, gauntlets.G_INDULGENCE):
            if state[off + p] < 0 or (p >= players and state[off + p] != 0):
                return True
        capitularius += state[gauntlets.G_CAPIT + p]
    for off in (gauntlets.G_KNIGHTS, gauntlets.G_TITHE_WINNER):
        if state[off] < NONE or state[off] >= players:
            return True
    return params[P_GAUNTLET] != GAUNTLET_HOLIER and capitularius != 0


@jit
def _bad_deeds(state, params):
    """``deeds.check`` (Deeds on): each seat's card one of the deck or -1, public only
    when held; reward / pending / scourge masks name cards of the deck, one scourge at a
    time; Deed Glory >= 0; the swift-move mask names present seats; the common Quest a
    card or -1 and its winner a seat or -1."""
    if params[P_DEEDS] == 0:
        return False
    players = params[P_PLAYERS]
    for p in range(players):
        card = state[deeds.D_CARD + p]
        if card < NONE or card >= deeds.N_CARDS:
            return True
        if state[deeds.D_PUBLIC + p] != 0 and card < 0:
            return True
        for off in (deeds.D_REWARDS, deeds.D_PENDING, deeds.D_SCOURGE):
            if state[off + p] & ~ALL_DEEDS:
                return True
        scourge = state[deeds.D_SCOURGE + p]
        if scourge & (scourge - 1):
            return True
        if state[deeds.D_GLORY + p] < 0:
            return True
    if state[deeds.D_SWIFT] & ~((1 << players) - 1):
        return True
    common, done = state[deeds.D_COMMON], state[deeds.D_COMMON_DONE]
    return not (NONE <= common < deeds.N_CARDS and NONE <= done < players)


@jit
def _count(state, start, n, value):
    """How many of ``state[start : start + n]`` equal ``value``."""
    k = 0
    for i in range(n):
        if state[start + i] == value:
            k += 1
    return k


@jit
def _bad_weather_deck(state, params):
    """``weather.check`` (passive Weather): the deck holds exactly its cards (Heat and
    Cold, plus Rain and Sand Storm with ``rain_sand``) in some order, its size is their
    number and the cursor lies inside it; Rain / Sand Storm only with ``rain_sand``."""
    src = weather.DECK_FULL if params[P_RAIN_SAND] != 0 else weather.DECK_BASIC
    size = 0
    for i in range(weather.DECK_MAX):
        if src[i] > 0:
            size += 1
    if state[weather.W_SIZE] != size:
        return True
    if state[weather.W_NEXT] < 0 or state[weather.W_NEXT] > size:
        return True
    for i in range(weather.DECK_MAX):  # same multiset: every card as often in both
        card = state[weather.W_DECK + i]
        wanted = 0
        for j in range(weather.DECK_MAX):
            if src[j] == card:
                wanted += 1
        if _count(state, weather.W_DECK, weather.DECK_MAX, card) != wanted:
            return True
    card = state[weather.W_CARD]
    return params[P_RAIN_SAND] == 0 and (card == weather.CARD_RAIN or card == weather.CARD_SAND)


@jit
def _bad_weather(state, params):
    """``weather.check``: the card in force is a known one; the passive deck
    (:func:`_bad_weather_deck`); each hand holds at most one Heat and one Cold card with
    active Weather, none otherwise."""
    mode = params[P_WEATHER]
    if state[weather.W_CARD] < 0 or state[weather.W_CARD] >= N_WEATHER_CARDS:
        return True
    if mode == WEATHER_PASSIVE and _bad_weather_deck(state, params):
        return True
    most = 1 if mode == WEATHER_ACTIVE else 0
    for i in range(N_SEATS * weather.N_HAND):
        if state[weather.W_HAND + i] < 0 or state[weather.W_HAND + i] > most:
            return True
    return False


@jit
def _bad_river(state, params):
    """``river.check``: the Latrine, Surgeon and Pillory on a side (0/1), Cholera cards
    0/1, Baccatio cards of the LOCAL / TOTAL bits and only with the Pillory,
    Salutificatio coins and dues >= 0, the Donkey on its cell and only with
    Salutificatio."""
    for slot in (river.R_LATRINE, river.R_SURGEON, river.R_PILLORY):
        if state[slot] < 0 or state[slot] > BINARY_SIDES:
            return True
    baccatio = 0
    for p in range(N_SEATS):
        if state[river.R_CHOLERA + p] < 0 or state[river.R_CHOLERA + p] > BINARY_SIDES:
            return True
        if state[river.R_BACCATIO + p] < 0 or state[river.R_BACCATIO + p] > ALL_BACCATIO:
            return True
        baccatio += state[river.R_BACCATIO + p]
        if state[river.R_SALUT + p] < 0 or state[river.R_SALUT_DUE + p] < 0:
            return True
    loc = state[TOK_LOC + river.DONKEY]
    if loc >= 0 and (params[river.P_SALUT] == 0 or state[BOARD + loc] != river.DONKEY):
        return True
    return params[river.P_PILLORY] == 0 and baccatio != 0


@jit
def _bad_gravediggers(state, params):
    """``gravediggers.check``: the side READY or USED; a window or a used side only with
    the Gravediggers; the queue within ``QUEUE`` and no debt negative; with no window, no
    turn and no queued death; with one, its seat and turn real seats, its seat the one
    to move, its dead Unit that seat's Crusader in Purgatory with its cell free."""
    players = params[P_PLAYERS]
    side = state[GD.G_SIDE]
    if side != GD.READY and side != GD.USED:
        return True
    seat, turn, n = state[GD.G_SEAT], state[GD.G_TURN], state[GD.G_N]
    if params[GD.P_GRAVE] == 0 and (seat != 0 or turn != 0 or n != 0 or side != 0):
        return True
    if n < 0 or n > GD.QUEUE:
        return True
    for p in range(N_SEATS):
        if state[GD.G_DEBT + p] < 0:
            return True
    if seat == NO_WINDOW:
        return turn != NO_WINDOW or n != 0
    if seat < 1 or seat > players or turn < 1 or turn > players:
        return True
    if state[CUR] != seat - 1:
        return True
    t, c = state[GD.G_QUEUE + ENTRY_TOKEN], state[GD.G_QUEUE + ENTRY_CELL]
    if n < 1 or t < 0 or t >= T.N_TOKENS or not is_crusader(t) or TOKEN_OWNER[t] != seat - 1:
        return True
    if state[TOK_LOC + t] != LOC_PURGATORY or c < 0 or c >= T.N_CELLS:
        return True
    return state[BOARD + c] >= 0


@ajit
def _bad_adjoined(state, params):
    """``invariants.check_adjoined``: the adjoined set (``adjoin.py``) is the one the
    position gives (``units.adjoined_stale`` recomputes it on a copy). Without War Engines
    and Heroes nobody can adjoin, so the set must be empty (no copy: the soak's cost)."""
    if units.any_on(params):
        return units.adjoined_stale(state, params)
    for k in range(adjoin.K_COMMANDER, adjoin.K_END):
        if state[k] != 0:
            return True
    return False


@ajit
def violation(state, params):
    """0 if the Campaign slots of ``state`` are sound, else the first violated one's code
    (run after the Duel's checks: token locations are in range)."""
    if _bad_battle(state, params):
        return BAD_BATTLE
    if _bad_field(state, params):
        return BAD_FIELD
    if _bad_rats(state, params):
        return BAD_RATS
    if _bad_gauntlet(state, params):
        return BAD_GAUNTLET
    if _bad_deeds(state, params):
        return BAD_DEEDS
    if _bad_weather(state, params):
        return BAD_WEATHER
    if _bad_river(state, params):
        return BAD_RIVER
    if _bad_gravediggers(state, params):
        return BAD_GRAVEDIGGERS
    if _bad_adjoined(state, params):
        return BAD_ADJOINED
    return OK


def _duel_verdict(state, params, *args):
    """A Duel has no Campaign slots: sound (raises if Campaign params lost their dtype)."""
    if params[P_CAMPAIGN] != 0:
        raise ValueError(H._WRONG_DTYPE)
    return OK


campaign_violation = H._dispatch("campaign_violation", violation, _duel_verdict)
""":func:`violation` for Campaign params, 0 for the Duel's (callable from compiled code)."""
