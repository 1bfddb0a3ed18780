"""Decks of Deeds [R Part 2 "Decks of Deeds", "Steps of Starting the Battle"]: quest,
reward, scourge, value.

The rulebook describes the card anatomy ("The task/quest itself; The number of Glory
Points (from 1 to 3) ...; An upgrade to the Army Unit of a specific kind as a bonus
Reward; A scourge that awaits the Player who failed") but not the cards (the printed
deck is a separate add-on). The deck below (:data:`DECK`) is a **STAND-IN** of ten
cards -- three Epic (3 Glory), three Mediocre (2), four Feeble (1) -- each a quest over
counters this module keeps per seat and Battle, a reward for one Unit class and a
scourge. Every reward and scourge acts in the rules through the hooks:

* ``armour`` (reward): units of the class take one damage less from arrows (A, D);
* ``veteran`` (reward): a skull (melee) strike by a unit of the class that would wound
  kills instead;
* ``porter`` (reward, "carrying capacities"): units of the class carry one coin more, on
  either side (hook ``capacity``);
* ``swift`` (reward, "movements"): the seat's first move of a unit of the class in each
  of its turns costs no Action Point (hook ``after_move`` gives the point back). Our
  STAND-IN reading: a unit moves by hopping along its band, so "one extra cell" has no
  meaning here; a free move is the engine's unit of movement;
* ``looter`` (reward, "plundering capacities"): a plunder strike by a unit of the class
  takes a second coin when the City Quarter has one and the unit can carry it;
* ``frail`` (scourge): a unit of the class that would be wounded dies instead;
* ``fine`` (scourge): pay the card's value in secured coins at the next Battle's start
  (as many as the seat has);
* ``slow`` (scourge): one Action Point less on the seat's first turn of the next Battle.

Flow [R "Quest Overall Rules"]: every seat draws a card at each Battle's start (draws
are with replacement: "each of you can have the same Quests"); a quest met by the end
of a turn (or of the Battle) is completed: its Glory counts for this Battle, its reward
acts from the next Battle on, cumulatively, to the end of the Crusade ("The rewards
and penalties always affect the next Battle"; a reward already held is not doubled);
the seat may then take another card (free action "take deed"). "Anytime ... on his/her
turn, the Player can drop the Quest for 1 coin price and pick another one" ("swap deed",
price ``deed_swap_price``: 1, or 3 [R "How to Play": "spending 3 coins"]). A card not
completed when the Battle ends has failed: its scourge acts in the next Battle, and the
card is kept to try again (it is now public) unless the seat discards it (free action
"discard failed deed", drawing a new one) -- our reading of "After that Battle, they can
choose to discard this Deed Card or to try to complete it again". The common Quest
[R "Randomly choose the common Quest (you can't drop it)"]: one public card per Battle
(option ``common_deed``); the first seat to meet it earns its Glory and reward; no one is
scourged by it (our reading). Hidden cards [R "You can decide to play with showing Deeds
to each other, or hide them till the end of the Battle"]: ``deeds_visible``; a hidden
card is seen only by its holder (``observe``, ``determinize.py``, ``render_view``).

State: ``layout.CB_DEEDS``; params: ``P_DEEDS`` ...; actions: ``layout.A_DEEDS``.
"""

from __future__ import annotations

import numpy as np

from ... import rng as R
from ...jit import ajit, jit
from .. import tables as T
from ..carry import free_capacity
from ..coins import plunder
from ..config import P_PLAYERS
from ..layout import AP, CUR, PH_ARMY, PH_SARACEN, PHASE, RNG, SCORE, TOK_COINS
from ..pieces import TOKEN_KIND, TOKEN_OWNER, is_crusader, is_quarter
from . import battle as B
from .config import P_COMMON_DEED, P_DEED_SWAP_PRICE, P_DEEDS, P_DEEDS_VISIBLE
from .layout import A_DEEDS, CB_DEEDS

# ------------------------------------------------------------------ the deck (STAND-IN)
COUNTERS = ("saracen_kills", "crusader_kills", "plunders", "steals", "secured", "refugees")
REWARDS = ("armour", "veteran", "porter", "swift", "looter")
SCOURGES = ("frail", "fine", "slow")
CLASS_NAMES = {"epic": 3, "mediocre": 2, "feeble": 1}
# (name, class, unit class (Duel kind), quest counter, quest threshold, reward, scourge)
DECK = (
    ("Scourge of the Infidel", "epic", "foot_knight", "saracen_kills", 4, "veteran", "frail"),
    ("Treasurer of the Host", "epic", "pavesier", "secured", 8, "porter", "fine"),
    ("Shepherd of the Lost", "epic", "pilgrim", "refugees", 3, "armour", "slow"),
    ("Sack of the Bazaar", "mediocre", "footman", "plunders", 4, "veteran", "frail"),
    ("Knightly Robbery", "mediocre", "cavalry", "steals", 2, "swift", "fine"),
    ("Blood Feud", "mediocre", "archer", "crusader_kills", 2, "veteran", "frail"),
    ("First Blood", "feeble", "archer", "saracen_kills", 1, "armour", "frail"),
    ("Pocket Money", "feeble", "pilgrim", "plunders", 2, "looter", "fine"),
    ("Good Samaritan", "feeble", "footman", "refugees", 1, "armour", "slow"),
    ("Petty Thief", "feeble", "pavesier", "steals", 1, "veteran", "fine"),
)
"""STAND-IN deck [P]: the rulebook prints no card; every field is ours (docs)."""
N_CARDS = len(DECK)
_KIND = {T.KIND_NAMES[k]: k for k in range(T.N_CRUSADER_KINDS)}
CARD_VALUE = np.array([CLASS_NAMES[r[1]] for r in DECK], np.int64)
CARD_KIND = np.array([_KIND[r[2]] for r in DECK], np.int64)
CARD_COUNTER = np.array([COUNTERS.index(r[3]) for r in DECK], np.int64)
CARD_NEED = np.array([r[4] for r in DECK], np.int64)
CARD_REWARD = np.array([REWARDS.index(r[5]) for r in DECK], np.int64)
CARD_SCOURGE = np.array([SCOURGES.index(r[6]) for r in DECK], np.int64)
assert N_CARDS <= 30  # bitmasks in int32 slots
(K_SARACEN_KILLS, K_CRUSADER_KILLS, K_PLUNDERS, K_STEALS, K_SECURED, K_REFUGEES) = range(
    len(COUNTERS)
)
R_ARMOUR, R_VETERAN, R_PORTER, R_SWIFT, R_LOOTER = range(len(REWARDS))
S_FRAIL, S_FINE, S_SLOW = range(len(SCOURGES))
ICON_SKULL, ICON_ARROW, ICON_DOUBLE = 0, 1, 2  # tables.ICON_CODES S, A, D
STRIKE_PLUNDER, STRIKE_STEAL = 2, 3  # combat.STRIKE_* (hook modules may not import it)
NONE = -1
N_COUNTERS = len(COUNTERS)

# ------------------------------------------------------------------ state (CB_DEEDS)
D_CARD = CB_DEEDS + 0  # [4] the seat's individual Deed card, -1 none
D_PUBLIC = CB_DEEDS + 4  # [4] 1: that card is known to all (a failed card tried again)
D_REWARDS = CB_DEEDS + 8  # [4] bitmask of cards whose reward the seat's units have
D_PENDING = CB_DEEDS + 12  # [4] bitmask of cards completed this Battle (reward next)
D_SCOURGE = CB_DEEDS + 16  # [4] bitmask of cards whose scourge acts this Battle
D_COMMON = CB_DEEDS + 20  # the common Quest card, -1 none
D_COMMON_DONE = CB_DEEDS + 21  # the seat that completed it, -1 none
D_FREE = CB_DEEDS + 22  # [4] 1: completed a Deed, may take another
D_GLORY = CB_DEEDS + 26  # [4] Glory from Deeds this Battle
D_START = CB_DEEDS + 30  # [4] SCORE at the Battle's start ("secured" counts from it)
D_COUNT = CB_DEEDS + 34  # [4 x N_COUNTERS] per seat: this Battle's counters
D_SLOW = D_COUNT + 4 * N_COUNTERS  # [4] 1 until the slow scourge has cost its AP
D_SWIFT = D_SLOW + 4  # bit p: seat p used its free (swift) move this turn
D_END = D_SWIFT + 1
assert D_END <= CB_DEEDS + 64

FIELDS: dict[str, tuple[int, int]] = {
    "deed": (D_CARD, 4),
    "deed_public": (D_PUBLIC, 4),
    "deed_rewards": (D_REWARDS, 4),
    "deed_pending": (D_PENDING, 4),
    "deed_scourge": (D_SCOURGE, 4),
    "deed_common": (D_COMMON, 1),
    "deed_common_done": (D_COMMON_DONE, 1),
    "deed_free": (D_FREE, 4),
    "deed_glory": (D_GLORY, 4),
    "deed_start": (D_START, 4),
    "deed_count": (D_COUNT, 4 * N_COUNTERS),
    "deed_slow": (D_SLOW, 4),
    "deed_swift_used": (D_SWIFT, 1),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""

# ------------------------------------------------------------------ actions
A_SWAP = A_DEEDS + 0
A_DISCARD_FAILED = A_DEEDS + 1
A_TAKE = A_DEEDS + 2
ACTION_NAMES = {A_SWAP: "swap deed", A_DISCARD_FAILED: "discard failed deed", A_TAKE: "take deed"}


@jit
def on(params):
    return params[P_DEEDS] != 0


@jit
def visible(state, params, q, seat):
    """May ``seat`` see seat q's individual card?"""
    return q == seat or params[P_DEEDS_VISIBLE] != 0 or state[D_PUBLIC + q] != 0


# ------------------------------------------------------------------ counters and quests
@jit
def counter(state, params, p, k):
    """Seat p's quest counter k this Battle."""
    if k == K_SECURED:
        return max(state[SCORE + p] - state[D_START + p], 0)
    if k == K_REFUGEES:
        return B.refugees_in_camp(state, params, p)
    return state[D_COUNT + p * N_COUNTERS + k]


@jit
def met(state, params, p, card):
    return counter(state, params, p, CARD_COUNTER[card]) >= CARD_NEED[card]


@jit
def complete(state, p, card):
    state[D_GLORY + p] += CARD_VALUE[card]
    state[D_PENDING + p] |= 1 << card


@jit
def check_quests(state, params):
    """Complete every quest that is met (individual cards, then the common Quest, seats
    from the one to move onward)."""
    players = params[P_PLAYERS]
    for i in range(players):
        p = (state[CUR] + i) % players
        card = state[D_CARD + p]
        if card >= 0 and met(state, params, p, card):
            complete(state, p, card)
            state[D_CARD + p] = NONE
            state[D_PUBLIC + p] = 0
            state[D_FREE + p] = 1
    card = state[D_COMMON]
    if card >= 0 and state[D_COMMON_DONE] < 0:
        for i in range(players):
            p = (state[CUR] + i) % players
            if met(state, params, p, card):
                complete(state, p, card)
                state[D_COMMON_DONE] = p
                break


@jit
def draw(state):
    return R.randint(state, RNG, N_CARDS)


# ------------------------------------------------------------------ Campaign / Battle
@jit
def new_campaign(state):
    for p in range(4):
        state[D_CARD + p] = NONE
    state[D_COMMON] = NONE
    state[D_COMMON_DONE] = NONE


@jit
def start_battle(state, params):
    """[R "Steps of Starting the Battle"]: the individual Quest (a failed card is kept
    to try again), the common Quest; this Battle's scourges act (fine, slow)."""
    state[D_SWIFT] = 0
    players = params[P_PLAYERS]
    for p in range(players):
        for k in range(N_COUNTERS):
            state[D_COUNT + p * N_COUNTERS + k] = 0
        state[D_FREE + p] = 0
        state[D_GLORY + p] = 0
        state[D_SLOW + p] = 0
        if state[D_CARD + p] < 0:
            state[D_CARD + p] = draw(state)
            state[D_PUBLIC + p] = 0
        for card in range(N_CARDS):
            if state[D_SCOURGE + p] & (1 << card):
                if CARD_SCOURGE[card] == S_FINE:
                    B.pay_coins(state, p, min(CARD_VALUE[card], state[SCORE + p]))
                elif CARD_SCOURGE[card] == S_SLOW:
                    state[D_SLOW + p] = 1
        state[D_START + p] = state[SCORE + p]
    state[D_COMMON_DONE] = NONE
    state[D_COMMON] = draw(state) if params[P_COMMON_DEED] != 0 else NONE


@jit
def score(state, params, glory):
    """The Battle ended [R "The Quest should be finished before the Battle ends"]:
    last completions; Glory into ``glory``; rewards won now act from the next Battle;
    a card still held failed: its scourge acts next Battle, the card is shown."""
    check_quests(state, params)
    players = params[P_PLAYERS]
    for p in range(players):
        glory[p] = state[D_GLORY + p]
        state[D_REWARDS + p] |= state[D_PENDING + p]
        state[D_PENDING + p] = 0
        state[D_SCOURGE + p] = 0
        card = state[D_CARD + p]
        if card >= 0:
            state[D_SCOURGE + p] = 1 << card
            state[D_PUBLIC + p] = 1


# ------------------------------------------------------------------ hooks
@jit
def has(mask, card):
    return (mask >> card) & 1 == 1


@jit
def adjust(state, a, b, icon, dmg):
    """Damage ``dmg`` dealt by token a's ``icon`` to token b, after rewards/scourges."""
    if dmg <= 0:
        return dmg
    if is_crusader(b):
        q = TOKEN_OWNER[b]
        for card in range(N_CARDS):
            if CARD_KIND[card] != TOKEN_KIND[b]:
                continue
            if (
                CARD_REWARD[card] == R_ARMOUR
                and has(state[D_REWARDS + q], card)
                and (icon == ICON_ARROW or icon == ICON_DOUBLE)
            ):
                return dmg - 1
    lethal = False
    if is_crusader(a) and icon == ICON_SKULL and dmg == 1:
        q = TOKEN_OWNER[a]
        for card in range(N_CARDS):
            if (
                CARD_KIND[card] == TOKEN_KIND[a]
                and CARD_REWARD[card] == R_VETERAN
                and has(state[D_REWARDS + q], card)
            ):
                lethal = True
    if is_crusader(b) and dmg == 1:
        q = TOKEN_OWNER[b]
        for card in range(N_CARDS):
            if (
                CARD_KIND[card] == TOKEN_KIND[b]
                and CARD_SCOURGE[card] == S_FRAIL
                and has(state[D_SCOURGE + q], card)
            ):
                lethal = True
    return 2 if lethal else dmg


@jit
def rewarded(state, t, reward):
    """How many held cards give token t's class ``reward`` (cumulative [R "Rewards are
    cumulative"])."""
    n = 0
    if is_crusader(t):
        q = TOKEN_OWNER[t]
        for card in range(N_CARDS):
            if (
                CARD_KIND[card] == TOKEN_KIND[t]
                and CARD_REWARD[card] == reward
                and has(state[D_REWARDS + q], card)
            ):
                n += 1
    return n


@jit
def capacity(state, params, t, cap):
    """``porter``: one coin more per card held for the unit's class."""
    return cap + rewarded(state, t, R_PORTER)


@jit
def after_move(state, params, t, e):
    """``swift``: the seat's first move of a unit of the class this turn is free (the
    Action Point the move is about to cost is given back first)."""
    p = state[CUR]
    if state[PHASE] != PH_ARMY or not is_crusader(t) or TOKEN_OWNER[t] != p:
        return
    if (state[D_SWIFT] >> p) & 1 == 0 and rewarded(state, t, R_SWIFT) > 0:
        state[D_SWIFT] |= 1 << p
        state[AP] += 1


@jit
def combat(state, params, t, u, icon, def_icon, da, dd):
    """(damage to attacker t, to defender u) with the Deeds' upgrades and scourges."""
    return adjust(state, u, t, def_icon, da), adjust(state, t, u, icon, dd)


@ajit
def after_strike(state, params, c, tc, p, code, t, u):
    """Count kills, plunders and steals for the quests."""
    credit = np.empty(2, np.int64)
    B.strike_credits(state, c, tc, t, u, credit)
    if credit[0] >= 0:
        state[D_COUNT + credit[0] * N_COUNTERS + K_SARACEN_KILLS] += 1
    if credit[1] >= 0:
        state[D_COUNT + credit[1] * N_COUNTERS + K_CRUSADER_KILLS] += 1
    if code == STRIKE_PLUNDER:
        state[D_COUNT + p * N_COUNTERS + K_PLUNDERS] += 1
    elif code == STRIKE_STEAL:
        state[D_COUNT + p * N_COUNTERS + K_STEALS] += 1
    if code == STRIKE_PLUNDER and t >= 0 and u >= 0 and rewarded(state, t, R_LOOTER) > 0:
        if is_quarter(state, u) and state[TOK_COINS + u] > 0:
            if free_capacity(state, params, t) > 0:
                plunder(state, t, u, p)  # ``looter``: a second coin


@jit
def begin_turn(state, params, p):
    """The slow scourge: one Action Point less on the seat's first turn; the seat's
    swift move is free again."""
    state[D_SWIFT] &= ~(1 << p)
    if state[D_SLOW + p] != 0:
        state[D_SLOW + p] = 0
        state[AP] -= 1


@jit
def end_turn(state, params, p):
    check_quests(state, params)


# ------------------------------------------------------------------ actions
@jit
def turn_options(state, params, out):
    """Stage-1 Deed actions of the seat to move, anywhere in its own turn: the army
    phase and the Saracen phase ("Anytime during the game but on his/her turn" [R
    "Quest Overall Rules"]); not while Saracens are picked or units pre-deployed."""
    if state[PHASE] != PH_ARMY and state[PHASE] != PH_SARACEN:
        return 0
    p = state[CUR]
    n = 0
    if state[D_CARD + p] >= 0 and state[SCORE + p] >= params[P_DEED_SWAP_PRICE]:
        out[A_SWAP] = 1
        n += 1
    if state[D_CARD + p] >= 0 and state[D_PUBLIC + p] != 0:
        out[A_DISCARD_FAILED] = 1
        n += 1
    if state[D_CARD + p] < 0 and state[D_FREE + p] != 0:
        out[A_TAKE] = 1
        n += 1
    return n


@jit
def apply_turn(state, params, a):
    p = state[CUR]
    if a == A_SWAP:
        B.pay_coins(state, p, params[P_DEED_SWAP_PRICE])
    elif a == A_TAKE:
        state[D_FREE + p] = 0
    state[D_CARD + p] = draw(state)
    state[D_PUBLIC + p] = 0
    return False


# ------------------------------------------------------------------ observation
@jit
def observe(state, params, player, out, o):
    """Scalars at o (``layout.OS_DEEDS``), per relative seat r: [r] its card (id+1)/N+1
    if ``player`` may see it, else 0; [4+r] holds a card; [8] common card; [9] common
    done; [10+r] rewards held / N; [14+r] under a scourge; [18+r] may take another."""
    players = params[P_PLAYERS]
    scale = N_CARDS + 1.0
    for p in range(players):
        r = (p - player + players) % players
        card = state[D_CARD + p]
        if card >= 0:
            out[o + 4 + r] = 1.0
            if visible(state, params, p, player):
                out[o + r] = (card + 1) / scale
        n = 0
        for k in range(N_CARDS):
            n += (state[D_REWARDS + p] >> k) & 1
        out[o + 10 + r] = n / N_CARDS
        out[o + 14 + r] = 1.0 if state[D_SCOURGE + p] != 0 else 0.0
        out[o + 18 + r] = 1.0 if state[D_FREE + p] != 0 else 0.0
    if state[D_COMMON] >= 0:
        out[o + 8] = (state[D_COMMON] + 1) / scale
    out[o + 9] = 1.0 if state[D_COMMON_DONE] >= 0 else 0.0


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """The Deeds slots' invariants (plain Python, for ``invariants.check_campaign``)."""
    if params[P_DEEDS] == 0:
        return []
    errors = []
    players = int(params[P_PLAYERS])
    full = (1 << N_CARDS) - 1
    for p in range(players):
        if not -1 <= state[D_CARD + p] < N_CARDS:
            errors.append(f"seat {p} holds Deed {int(state[D_CARD + p])} (deck of {N_CARDS})")
        if state[D_PUBLIC + p] and state[D_CARD + p] < 0:
            errors.append(f"seat {p}: a public Deed but no card")
        for name, off in (("rewards", D_REWARDS), ("pending", D_PENDING), ("scourge", D_SCOURGE)):
            if state[off + p] & ~full:
                errors.append(f"seat {p}: Deed {name} mask {int(state[off + p])} out of the deck")
        if state[D_SCOURGE + p] & (state[D_SCOURGE + p] - 1):
            errors.append(f"seat {p}: more than one scourge at once")
        if state[D_GLORY + p] < 0:
            errors.append(f"seat {p}: negative Deed Glory")
    if state[D_SWIFT] & ~((1 << players) - 1):
        errors.append(f"swift-move mask {int(state[D_SWIFT])} names an absent seat")
    if not -1 <= state[D_COMMON] < N_CARDS or not -1 <= state[D_COMMON_DONE] < players:
        errors.append("common Quest slots out of range")
    return errors
