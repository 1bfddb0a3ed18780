"""Weather Mode [R Part 2 "Weather Mode"]: Heat (Calor), Cold (Frigus), Rain (Pluvia),
Sand Storm (Procella); active (cards in hand) and passive (dealt from a deck).

* [R] "Heat hurts all Knights on red cells. Cold hurts all Pilgrims on blue cells":
  :func:`apply_card` wounds (one damage, ``purgatory.damage``) every such unit of every
  seat; Knights / Pilgrims and the red / blue cells are ``tables.WEATHER_*`` (the cell
  colours are STAND-IN [P]).
* Active [R "give each player 1 x Heat and 1 x Cold cards when a Battle starts ... at
  the end of turn, inflicting damage ... immediately"]: the stage-1 actions "play heat"
  / "play cold" (:func:`play_options`, :func:`play_card`) hurt at once and end the turn
  (our reading of "at the end of turn": playing the card is the turn's last act; it
  costs no Action Point, the ones left are forfeited).
* Passive [R "mixed to be randomly dealt with every round" / "at the beginning of every
  round"; the Player Turn Memo: "Start of the turn: Take a weather card"]: the deck
  (4 Heat + 4 Cold, + Rain and Sand Storm with ``rain_sand``) is shuffled at each
  Battle's start from the state's RNG and one card is dealt at the start of each round
  of turns (``weather_deal="round"``, default: the section's wording) or of each turn
  (``"turn"``: the Memo's). A dealt Heat/Cold hurts the units standing on its cells at
  that moment: they ended their last move there and start their next one there, so the
  section's "end their moves" and "start their moves" agree at the deal. The card then
  stays in force until the next deal (Rain / Sand Storm "till the end of the Pluvia
  turn"). An exhausted deck is reshuffled whole (the rulebook is silent).
* Rain: War Engines neither move nor strike (:func:`engines_grounded`); Sand Storm:
  archers do not shoot but move (:func:`archers_blinded`); both through ``hooks``.

Hidden information: the undealt deck order; :func:`determinize` reshuffles it.
State: ``layout.CB_WEATHER``; params: ``config.P_WEATHER*``; actions: ``layout.A_WEATHER``.
"""

from __future__ import annotations

import numpy as np

from ... import rng as R
from ...jit import jit
from .. import tables as T
from ..config import P_PLAYERS
from ..layout import AP, BOARD, CUR, PH_ARMY, PH_SARACEN, PHASE, RNG, ROUND_START
from ..pieces import edge_icon
from ..purgatory import damage
from . import tables as CT
from .config import P_RAIN_SAND, P_WEATHER, P_WEATHER_DEAL, WEATHER_ACTIVE, WEATHER_PASSIVE
from .layout import A_WEATHER, CB_WEATHER, CB_WEATHER_SIZE

# cards
CARD_NONE, CARD_HEAT, CARD_COLD, CARD_RAIN, CARD_SAND = range(len(CT.WEATHER_CARDS))
DEAL_ROUND, DEAL_TURN = range(len(CT.WEATHER_DEALS))
HAND_CARDS = (CARD_HEAT, CARD_COLD)  # the active variant's hand [R "1 x Heat and 1 x Cold"]
N_HAND = len(HAND_CARDS)
DECK_MAX = sum(n for _, n in CT.WEATHER_DECK)

# state slots (offsets in the WEATHER block)
W_CARD = CB_WEATHER + 0  # the card in force (CARD_*), 0 none
W_NEXT = CB_WEATHER + 1  # deck cursor: cards dealt since the last shuffle
W_SIZE = CB_WEATHER + 2  # cards in the deck this Battle
W_DEALS = CB_WEATHER + 3  # cards dealt this Battle (for the record / observation)
W_HAND = CB_WEATHER + 4  # [4 seats x 2] Heat, Cold cards still in hand (active)
W_DECK = W_HAND + 4 * N_HAND  # [DECK_MAX] deck order (HIDDEN beyond W_NEXT)
W_END = W_DECK + DECK_MAX
assert W_END <= CB_WEATHER + CB_WEATHER_SIZE

# actions (stage 1)
A_PLAY_HEAT = A_WEATHER + 0
A_PLAY_COLD = A_WEATHER + 1
ACTION_NAMES = {A_PLAY_HEAT: "play heat", A_PLAY_COLD: "play cold"}

FIELDS: dict[str, tuple[int, int]] = {
    "weather_card": (W_CARD, 1),
    "weather_next": (W_NEXT, 1),
    "weather_size": (W_SIZE, 1),
    "weather_deals": (W_DEALS, 1),
    "weather_hand": (W_HAND, 4 * N_HAND),
    "weather_deck": (W_DECK, DECK_MAX),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""


def _kind_flags(names: tuple) -> np.ndarray:
    out = np.zeros(T.N_KINDS, np.int64)
    for name in names:
        out[T.KIND_NAMES.index(name)] = 1
    return out


def _victims() -> np.ndarray:
    out = np.zeros((len(CT.WEATHER_CARDS), T.N_KINDS), np.int64)
    out[CARD_HEAT] = _kind_flags(CT.WEATHER_KNIGHT_KINDS)
    out[CARD_COLD] = _kind_flags(CT.WEATHER_PILGRIM_KINDS)
    return out


COLOUR_NONE, COLOUR_RED, COLOUR_BLUE = 0, 1, 2
CELL_COLOUR = np.array(
    [".rb".index(ch) for row in CT.WEATHER_CELL_COLOURS for ch in row], np.int64
)  # STAND-IN [P] (tables.WEATHER_CELL_COLOURS)
CARD_COLOUR = np.array([COLOUR_NONE, COLOUR_RED, COLOUR_BLUE, COLOUR_NONE, COLOUR_NONE], np.int64)
VICTIM = _victims()  # VICTIM[card, kind]: the card hurts this kind on its colour
ENGINE_KIND = _kind_flags(CT.WEATHER_ENGINE_KINDS)
KNIGHT_KIND = _kind_flags(CT.WEATHER_KNIGHT_KINDS)  # also the River's "Knights" (Baccatio)
ARCHER_KIND = _kind_flags(CT.WEATHER_ARCHER_KINDS)


def _deck(rain_sand: bool) -> np.ndarray:
    cards = []
    for name, n in CT.WEATHER_DECK:
        if rain_sand or name in ("heat", "cold"):
            cards += [CT.WEATHER_CARDS.index(name)] * n
    return np.array(cards + [CARD_NONE] * (DECK_MAX - len(cards)), np.int64)


DECK_BASIC = _deck(False)  # [R "4 cards of the Heat (Calor) and 4 cards of the Cold"]
DECK_FULL = _deck(True)  # + Rain and Sand Storm [R "All Heat, Sand, Rain and Cold cards"]
N_BASIC = int((DECK_BASIC > 0).sum())
N_FULL = int((DECK_FULL > 0).sum())


# ------------------------------------------------------------------ effects
@jit
def apply_card(state, card):
    """Heat / Cold: one wound to every unit the card hurts on a cell of its colour [R]."""
    colour = CARD_COLOUR[card]
    if colour == COLOUR_NONE:
        return
    for c in range(T.N_CELLS):
        t = state[BOARD + c]
        if t >= 0 and CELL_COLOUR[c] == colour and VICTIM[card, T.TOKEN_KIND[t]] == 1:
            damage(state, t, 1)


@jit
def engines_grounded(state, params):
    """Rain is in force: "War Machines ... can't move and shoot" [R "Weather Mode"]."""
    return params[P_WEATHER] == WEATHER_PASSIVE and state[W_CARD] == CARD_RAIN


@jit
def archers_blinded(state, params):
    """A Sand Storm is in force: "Archers unable to shoot" [R "Weather Mode"]."""
    return params[P_WEATHER] == WEATHER_PASSIVE and state[W_CARD] == CARD_SAND


@jit
def may_move(state, params, t):
    """Hook: a War Engine does not move in the Rain."""
    return not (ENGINE_KIND[T.TOKEN_KIND[t]] == 1 and engines_grounded(state, params))


@jit
def classify(state, params, c, d, code):
    """Hook: no strike by a War Engine in the Rain, no shot by an archer in a Sand Storm
    (its melee edges still strike)."""
    if code == 0:
        return code
    t = state[BOARD + c]
    kind = T.TOKEN_KIND[t]
    if ENGINE_KIND[kind] == 1 and engines_grounded(state, params):
        return 0
    if ARCHER_KIND[kind] == 1 and archers_blinded(state, params):
        if T.RANGED_ICON[edge_icon(state, t, d)] == 1:
            return 0
    return code


# ------------------------------------------------------------------ the deck
@jit
def shuffle_deck(state, params):
    """A fresh deck, shuffled from the state's RNG [R "mix them"]."""
    n = N_FULL if params[P_RAIN_SAND] != 0 else N_BASIC
    src = DECK_FULL if params[P_RAIN_SAND] != 0 else DECK_BASIC
    for i in range(DECK_MAX):
        state[W_DECK + i] = src[i]
    state[W_SIZE] = n
    state[W_NEXT] = 0
    R.shuffle(state, RNG, state[W_DECK : W_DECK + n], n)


@jit
def deal(state, params):
    """Deal the next card and play its effect [R "Take a weather card and play its
    effect"]; an exhausted deck is reshuffled first."""
    if state[W_NEXT] >= state[W_SIZE]:
        shuffle_deck(state, params)
    card = state[W_DECK + state[W_NEXT]]
    state[W_NEXT] += 1
    state[W_DEALS] += 1
    state[W_CARD] = card
    apply_card(state, card)


@jit
def start_battle(state, params):
    """A Battle starts: hands dealt (active) or the deck mixed (passive) [R "Steps of
    Starting the Battle": "Decide if you play with the Weather ... mix them"]."""
    state[CB_WEATHER : CB_WEATHER + CB_WEATHER_SIZE] = 0
    mode = params[P_WEATHER]
    if mode == WEATHER_ACTIVE:
        for p in range(params[P_PLAYERS]):
            for k in range(N_HAND):
                state[W_HAND + N_HAND * p + k] = 1
    elif mode == WEATHER_PASSIVE:
        shuffle_deck(state, params)


@jit
def begin_turn(state, params, p):
    """Hook: the passive deck deals at the start of a round of turns (the seat that
    opens the round begins) or of every turn (``weather_deal="turn"``)."""
    if params[P_WEATHER] != WEATHER_PASSIVE:
        return
    if params[P_WEATHER_DEAL] == DEAL_TURN or p == state[ROUND_START] or state[W_DEALS] == 0:
        deal(state, params)


# ------------------------------------------------------------------ active: actions
@jit
def play_options(state, params, out):
    """Stage 1: "play heat" / "play cold" while the seat holds the card (active)."""
    if params[P_WEATHER] != WEATHER_ACTIVE:
        return 0
    phase = state[PHASE]
    if phase != PH_ARMY and phase != PH_SARACEN:
        return 0
    p = state[CUR]
    n = 0
    for k in range(N_HAND):
        if state[W_HAND + N_HAND * p + k] > 0:
            out[A_WEATHER + k] = 1
            n += 1
    return n


@jit
def play_card(state, params, a):
    """Play a hand card: damage at once, then the turn ends (``AP`` = 0)."""
    p = state[CUR]
    k = a - A_WEATHER
    state[W_HAND + N_HAND * p + k] -= 1
    state[W_CARD] = HAND_CARDS[k]
    state[W_DEALS] += 1
    apply_card(state, HAND_CARDS[k])
    state[AP] = 0


# ------------------------------------------------------------------ hidden information
@jit
def determinize(state, params, seat):
    """Resample what ``seat`` cannot see: the order of the undealt passive cards.

    The cards already dealt (``W_DECK[:W_NEXT]``) are public; the rest are reshuffled
    among themselves from the state's RNG. Hands (active) are public [R: given openly].
    """
    if params[P_WEATHER] != WEATHER_PASSIVE:
        return
    lo = state[W_NEXT]
    n = state[W_SIZE] - lo
    if n > 1:
        R.shuffle(state, RNG, state[W_DECK + lo : W_DECK + lo + n], n)


@jit
def observe(state, params, player, out, o):
    """Scalars (``layout.OS_WEATHER``): the card in force one-hot (4), the seat's own
    Heat / Cold in hand, its rivals' (mean), the share of the deck left. Public only."""
    card = state[W_CARD]
    if card > 0:
        out[o + card - 1] = 1.0
    players = params[P_PLAYERS]
    for k in range(N_HAND):
        out[o + 4 + k] = min(state[W_HAND + N_HAND * player + k], 1)
    rivals = 0
    for q in range(players):
        if q != player:
            for k in range(N_HAND):
                rivals += state[W_HAND + N_HAND * q + k]
    if players > 1:
        out[o + 6] = min(rivals / (N_HAND * (players - 1)), 1.0)
    if state[W_SIZE] > 0:
        out[o + 7] = (state[W_SIZE] - state[W_NEXT]) / state[W_SIZE]


@jit
def on(params):
    """Weather Mode is played (active or passive)."""
    return params[P_WEATHER] != 0


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Weather invariants (for ``invariants.check_campaign``): the deck holds exactly its
    cards, the cursor is inside it, hands hold at most one card of each kind."""
    errors: list[str] = []
    mode = int(params[P_WEATHER])
    card = int(state[W_CARD])
    if not 0 <= card < len(CT.WEATHER_CARDS):
        errors.append(f"weather card {card} unknown")
    if mode == WEATHER_PASSIVE:
        src = DECK_FULL if params[P_RAIN_SAND] != 0 else DECK_BASIC
        size = int(state[W_SIZE])
        if size != int((src > 0).sum()):
            errors.append(f"weather deck size {size}")
        if not 0 <= int(state[W_NEXT]) <= size:
            errors.append(f"weather deck cursor {int(state[W_NEXT])} outside [0, {size}]")
        deck = np.sort(state[W_DECK : W_DECK + DECK_MAX])
        if not np.array_equal(deck, np.sort(src)):
            errors.append("weather deck does not hold its cards")
        if card in (CARD_RAIN, CARD_SAND) and params[P_RAIN_SAND] == 0:
            errors.append("Rain / Sand Storm in force without rain_sand")
    hands = state[W_HAND : W_HAND + 4 * N_HAND]
    if hands.min() < 0 or hands.max() > (1 if mode == WEATHER_ACTIVE else 0):
        errors.append(f"weather hands {hands.tolist()} out of range")
    return errors
