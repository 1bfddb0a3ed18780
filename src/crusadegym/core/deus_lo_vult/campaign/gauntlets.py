"""Gauntlet Runs [R Part 2 "Gauntlet Runs"]: Refugees Welcome! (with the optional coin
exchange and its ransom), Holier Than Thou (Hidden Stash, Capitularius cards, the tithe
winner's indulgence, the two-coins tie rule, the Penance option) and Fons Honorum
(Saracen kills, 2/1 Glory, the Knights passing to the winner for the next Battle).

Hook-level: the Battle's end (:func:`score`) and start (:func:`start_battle`) are
called from ``flow.py``; kills are counted in :func:`after_strike`; the Holier Than
Thou actions (tithe a coin, flip the Stash, withdraw, indulgence) are here too (they
need nothing above the hook level). The Hidden Stash token itself (its start under the
Garden quarter, its reveal, its moving with bands) is ``field.py``'s.

State: ``battle.C_GAUNTLET0`` .. ``battle.C_BATTLE_END``; params: ``P_GAUNTLET``,
``P_REFUGEE_EXCHANGE``, ``P_PENANCE``, ``P_TWO_COINS``, ``P_REFUGEE_GLORY``; actions:
``layout.A_BATTLE`` .. ``+ 5``.
"""

from __future__ import annotations

import numpy as np

from ...jit import ajit, jit
from .. import tables as T
from ..carry import free_capacity
from ..config import P_PLAYERS
from ..layout import (
    AP,
    BOARD,
    CUR,
    LOC_OFF,
    LOC_RESERVE,
    PH_ARMY,
    PHASE,
    PURG,
    ROUND_LEFT,
    TOK_COINS,
    TOK_LOC,
    TOK_SIDE,
)
from ..pieces import KIND_COST, NEIGH, TOKEN_KIND, TOKEN_OWNER, is_crusader
from . import battle as B
from . import field
from .config import (
    GAUNTLET_FONS,
    GAUNTLET_HOLIER,
    GAUNTLET_NONE,
    GAUNTLET_REFUGEES,
    P_GAUNTLET,
    P_PENANCE,
    P_REFUGEE_EXCHANGE,
    P_REFUGEE_GLORY,
    P_TWO_COINS,
)
from .layout import A_BATTLE

# ------------------------------------------------------------------ state
G_COUNT = B.C_GAUNTLET0 + 0  # [4] this Battle's tally: kills (Fons) / last Refugee count
G_CAPIT = B.C_GAUNTLET0 + 4  # [4] coins on each seat's Capitularius card (Holier)
G_INDULGENCE = B.C_GAUNTLET0 + 8  # [4] indulgence coins (tithe winners, for later Battles)
G_KNIGHTS = B.C_GAUNTLET0 + 12  # seat holding every Knight this Battle (Fons), -1 none
G_TITHE_FIRST = B.C_GAUNTLET0 + 13  # seat that tithed the Battle's first coin, -1
G_TITHE_LAST = B.C_GAUNTLET0 + 14  # seat that tithed the Battle's last coin so far, -1
G_TITHE_WINNER = B.C_GAUNTLET0 + 15  # last Battle's tithe winner, -1
G_HELD = B.C_GAUNTLET0 + 16  # [4] Army Points held for ransom next Battle (exchange debt)
G_EXCHANGE = B.C_GAUNTLET0 + 20  # [4] coins each seat won (+) or lost (-) in the exchange
G_END = B.C_GAUNTLET0 + 24
assert G_END <= B.C_BATTLE_END

FIELDS: dict[str, tuple[int, int]] = {
    "g_count": (G_COUNT, 4),
    "capitularius": (G_CAPIT, 4),
    "indulgence": (G_INDULGENCE, 4),
    "knights": (G_KNIGHTS, 1),
    "tithe_first": (G_TITHE_FIRST, 1),
    "tithe_last": (G_TITHE_LAST, 1),
    "tithe_winner": (G_TITHE_WINNER, 1),
    "held": (G_HELD, 4),
    "exchange": (G_EXCHANGE, 4),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``); the
seat slots ``knights``/``tithe_*`` hold -1 for "none"."""

# ------------------------------------------------------------------ tables
# Glory by places [R]: Refugees Welcome! "First place - 3 ... Second - 2 ... Third - 1 ...
# The fourth Player on the run gets nothing"; Holier Than Thou gives no table: our
# reading counts it like Refugees Welcome! (docs). Fons Honorum: "first two Players ...
# get 2 Glory Points each, the second two - 1", i.e. the top half 2, the rest 1.
PLACES_REFUGEES = np.array([3, 2, 1, 0], np.int64)
FONS_TABLE = np.array([[2, 1, 0, 0], [2, 2, 1, 0], [2, 2, 1, 1]], np.int64)  # by players-2
KNIGHT_KINDS = np.array(
    [i for i, row in enumerate(T.CRUSADER_KINDS) if row[0] in ("foot_knight", "cavalry")],
    np.int64,
)
STASH_CAPITULARIUS, STASH_OPEN = 0, 1  # Hidden Stash sides [R "Stash side down"]
NONE = -1

# actions (A_BATTLE range)
A_TITHE = A_BATTLE + 0  # unit: pass one carried coin to the Hidden Stash
A_FLIP_STASH = A_BATTLE + 1  # unit: flip the adjoined Hidden Stash
A_WITHDRAW = A_BATTLE + 2  # unit: one coin back from the own Capitularius card
A_PENANCE = A_BATTLE + 3  # unit: one coin from the foremost sinner's card
A_INDULGENCE = A_BATTLE + 4  # turn: discard an indulgence coin, a unit leaves Purgatory
ACTION_NAMES = {
    A_TITHE: "tithe coin",
    A_FLIP_STASH: "flip stash",
    A_WITHDRAW: "withdraw tithe",
    A_PENANCE: "withdraw penance",
    A_INDULGENCE: "indulgence",
}


@jit
def on(params):
    return params[P_GAUNTLET] != GAUNTLET_NONE


# ------------------------------------------------------------------ Battle start / end
@jit
def new_campaign(state):
    """The seat slots start at "none"."""
    state[G_KNIGHTS] = NONE
    state[G_TITHE_FIRST] = NONE
    state[G_TITHE_LAST] = NONE
    state[G_TITHE_WINNER] = NONE


@jit
def start_battle(state, params):
    """A new Battle: tallies cleared; the Fons Honorum loser armies lose their Knights,
    and seats that could not pay the exchange have units held for ransom."""
    players = params[P_PLAYERS]
    for p in range(4):
        state[G_COUNT + p] = 0
        state[G_CAPIT + p] = 0
    state[G_TITHE_FIRST] = NONE
    state[G_TITHE_LAST] = NONE
    w = state[G_KNIGHTS]
    for p in range(players):
        if w >= 0 and p != w:
            remove_knights(state, p)
        if state[G_HELD + p] > 0:
            hold_for_ransom(state, p, state[G_HELD + p])
            state[G_HELD + p] = 0


@jit
def remove_knights(state, p):
    """[R "Fons Honorum"] "other Players will have none" (Knights) for the Battle."""
    for t in range(p * T.ARMY_SIZE, (p + 1) * T.ARMY_SIZE):
        for k in KNIGHT_KINDS:
            if TOKEN_KIND[t] == k and state[TOK_LOC + t] == LOC_RESERVE:
                state[TOK_LOC + t] = LOC_OFF


@jit
def hold_for_ransom(state, p, points):
    """[R "hold his Units for ransom (creditor's choice is limited by debt size measured
    in Army Points)"]: the creditor holds the debtor's units for the next Battle; our
    reading of the creditor's choice: the most valuable ones first, at most ``points``."""
    left = points
    for cost in range(3, 0, -1):
        for t in range(p * T.ARMY_SIZE, (p + 1) * T.ARMY_SIZE):
            if KIND_COST[TOKEN_KIND[t]] == cost and cost <= left:
                if state[TOK_LOC + t] == LOC_RESERVE:
                    state[TOK_LOC + t] = LOC_OFF
                    left -= cost


@jit
def tithe_key(state, params, p):
    """Holier Than Thou tally; with the two-coins rule the Battle's first and last tithed
    coins count double, to break ties [R "grants double points for the first and the
    last secured Coins, to resolve ties"] (coins x2 + the bonus keeps the order of
    unequal tallies)."""
    k = state[G_CAPIT + p]
    if params[P_TWO_COINS] == 0:
        return k
    k *= 4
    if state[G_TITHE_FIRST] == p:
        k += 1
    if state[G_TITHE_LAST] == p:
        k += 1
    return k


@ajit
def score(state, params, purse, glory):
    """The Battle ended: the Gauntlet Run's Glory into ``glory`` (per seat); the coin
    exchange applied to ``purse`` (each seat's coins for buying Glory)."""
    players = params[P_PLAYERS]
    g = params[P_GAUNTLET]
    counts = np.zeros(players, np.int64)
    pts = np.zeros(players, np.int64)
    glory[:] = 0
    if g == GAUNTLET_REFUGEES:
        for p in range(players):
            counts[p] = B.refugees_in_camp(state, params, p)
            state[G_COUNT + p] = counts[p]
        if params[P_REFUGEE_GLORY] != 0:
            B.place_points(counts, players, PLACES_REFUGEES, pts)
            glory[:players] = pts
        if params[P_REFUGEE_EXCHANGE] != 0:
            exchange(state, counts, players, purse)
    elif g == GAUNTLET_HOLIER:
        for p in range(players):
            counts[p] = tithe_key(state, params, p)
        B.place_points(counts, players, PLACES_REFUGEES, pts)
        glory[:players] = pts
        w = B.unique_best(counts, players)
        if w >= 0 and state[G_CAPIT + w] == 0:
            w = NONE
        state[G_TITHE_WINNER] = w
        if w >= 0:
            state[G_INDULGENCE + w] += state[G_CAPIT + w]
    elif g == GAUNTLET_FONS:
        for p in range(players):
            counts[p] = state[G_COUNT + p]
        B.place_points(counts, players, FONS_TABLE[players - 2], pts)
        glory[:players] = pts
        w = B.unique_best(counts, players)
        state[G_KNIGHTS] = w if w >= 0 and counts[w] > 0 else NONE


@ajit
def exchange(state, counts, players, purse):
    """[R "each Player gives one Coin to every other Player for every Refugee stationed
    in their Camps"]: between two seats the one with fewer Refugees pays the
    difference (A 4, B 5, C 3 -> B +3, A 0, C -3). Debts are paid from the coins held
    before the exchange (receipts come after); what a seat cannot pay is held as
    ransom in Army Points for the next Battle (:func:`hold_for_ransom`)."""
    got = np.zeros(players, np.int64)
    for q in range(players):
        owe = 0
        for p in range(players):
            if counts[p] > counts[q]:
                owe += counts[p] - counts[q]
        paid = min(owe, purse[q])
        state[G_HELD + q] = owe - paid
        left = paid
        for p in range(players):  # creditors paid in seat order
            if counts[p] > counts[q] and left > 0:
                x = min(counts[p] - counts[q], left)
                got[p] += x
                left -= x
        purse[q] -= paid
        state[G_EXCHANGE + q] = -paid
    for p in range(players):
        purse[p] += got[p]
        state[G_EXCHANGE + p] += got[p]


# ------------------------------------------------------------------ Fons Honorum kills
@ajit
def after_strike(state, params, c, tc, t, u):
    """Count Saracen kills per seat [R "Players must kill more Saracens than others"]."""
    if params[P_GAUNTLET] != GAUNTLET_FONS:
        return
    credit = np.empty(2, np.int64)
    B.strike_credits(state, c, tc, t, u, credit)
    if credit[0] >= 0:
        state[G_COUNT + credit[0]] += 1


# ------------------------------------------------------------------ Holier Than Thou
@jit
def stash_cell(state):
    return field.cell_of(state, field.HIDDEN_STASH)


@jit
def stash_side(state):
    return state[TOK_SIDE + T.AMENITY_TOKEN0 + field.HIDDEN_STASH]


@ajit
def sinner(state, params):
    """[R "Penance"] "A person with the highest number (no ties) of Units on the
    Purgatory track" is the foremost of sinners; -1 if tied (or the option is off)."""
    if params[P_PENANCE] == 0:
        return NONE
    players = params[P_PLAYERS]
    counts = np.zeros(players, np.int64)
    for p in range(players):
        counts[p] = B.purgatory_count(state, p)
    w = B.unique_best(counts, players)
    if w >= 0 and counts[w] == 0:
        return NONE
    return w


@jit
def next_to_stash(state, c):
    s = stash_cell(state)
    if s < 0:
        return False
    for d in range(4):
        if NEIGH[c, d] == s:
            return True
    return False


@jit
def unit_options(state, params, c, out, first_only):
    """Holier Than Thou actions of the selected Crusader on c [R "Holier Than Thou"]."""
    if params[P_GAUNTLET] != GAUNTLET_HOLIER or state[AP] < 1 or state[PHASE] != PH_ARMY:
        return 0
    t = state[BOARD + c]
    p = state[CUR]
    if t < 0 or not is_crusader(t) or TOKEN_OWNER[t] != p:
        return 0
    n = 0
    side = stash_side(state)
    # "pass the Coin to this Amenity (Capitularius side up)": a GIVE to the token
    if side == STASH_CAPITULARIUS and state[TOK_COINS + t] > 0 and next_to_stash(state, c):
        out[A_TITHE] = 1
        n += 1
        if first_only:
            return n
    if field.joined(state, c, field.HIDDEN_STASH):
        out[A_FLIP_STASH] = 1  # "adjoin his Band to this Amenity and flip it"
        n += 1
        if first_only:
            return n
        if side == STASH_OPEN and free_capacity(state, params, t) > 0:
            if state[G_CAPIT + p] > 0:
                out[A_WITHDRAW] = 1
                n += 1
            s = sinner(state, params)
            if s >= 0 and s != p and state[G_CAPIT + s] > 0:
                out[A_PENANCE] = 1
                n += 1
    return n


@jit
def apply_unit(state, params, c, a):
    """Apply a Holier Than Thou unit action; True if it secured the Battle's last coin
    [R "The last Coin could be secured either to Camp or to Stash to end the Battle"]."""
    t = state[BOARD + c]
    p = state[CUR]
    state[AP] -= 1  # "one Coin per Move"; a pass and a flip are one action each
    if a == A_TITHE:
        state[TOK_COINS + t] -= 1
        state[G_CAPIT + p] += 1
        state[ROUND_LEFT] -= 1
        state[B.C_COIN_BALANCE] += 1
        if state[G_TITHE_FIRST] < 0:
            state[G_TITHE_FIRST] = p
        state[G_TITHE_LAST] = p
        return state[ROUND_LEFT] == 0
    if a == A_FLIP_STASH:
        s = T.AMENITY_TOKEN0 + field.HIDDEN_STASH
        state[TOK_SIDE + s] = 1 - state[TOK_SIDE + s]
        return False
    src = p if a == A_WITHDRAW else sinner(state, params)
    state[G_CAPIT + src] -= 1
    state[TOK_COINS + t] += 1
    state[ROUND_LEFT] += 1
    state[B.C_COIN_BALANCE] -= 1
    return False


@jit
def turn_options(state, params, out):
    """The indulgence [R "use those collected Coins to save their Units from Purgatory
    during the next Battles (discard one Coin to resurrect your Unit)"]."""
    p = state[CUR]
    if state[PHASE] != PH_ARMY:
        return 0
    if state[G_INDULGENCE + p] > 0 and newest_in_purgatory(state, p) >= 0:
        out[A_INDULGENCE] = 1
        return 1
    return 0


@jit
def newest_in_purgatory(state, p):
    """The Purgatory slot of seat p's most recently killed unit, -1 none."""
    for i in range(T.PURGATORY_SLOTS):
        t = state[PURG + i]
        if t >= 0 and is_crusader(t) and TOKEN_OWNER[t] == p:
            return i
    return NONE


@jit
def apply_turn(state, params, a):
    """Discard one indulgence coin: seat's newest unit in Purgatory back to its reserve
    (our reading of "resurrect": it may be deployed again; no Action Point)."""
    p = state[CUR]
    i = newest_in_purgatory(state, p)
    t = state[PURG + i]
    for j in range(i, T.PURGATORY_SLOTS - 1):
        state[PURG + j] = state[PURG + j + 1]
    state[PURG + T.PURGATORY_SLOTS - 1] = -1
    state[TOK_LOC + t] = LOC_RESERVE
    state[G_INDULGENCE + p] -= 1
    return False


# ------------------------------------------------------------------ observation
@jit
def observe(state, params, player, out, o):
    """Scalars at o: per relative seat the tally (/10), Capitularius (/10), indulgence
    (/10), holds the Knights; then the Stash side and who is the foremost sinner."""
    players = params[P_PLAYERS]
    for p in range(players):
        r = (p - player + players) % players
        out[o + r] = min(state[G_COUNT + p] / 10.0, 1.0)
        out[o + 4 + r] = min(state[G_CAPIT + p] / 10.0, 1.0)
        out[o + 8 + r] = min(state[G_INDULGENCE + p] / 10.0, 1.0)
        out[o + 12 + r] = 1.0 if state[G_KNIGHTS] == p else 0.0
    if params[P_GAUNTLET] == GAUNTLET_HOLIER:
        out[o + 16] = float(stash_side(state))


N_OBS = 17  # scalars written by observe()


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """The Gauntlet slots' invariants (plain Python, for ``invariants.check_campaign``)."""
    errors = []
    players = int(params[P_PLAYERS])
    for name, off in (("tally", G_COUNT), ("capitularius", G_CAPIT), ("indulgence", G_INDULGENCE)):
        for p in range(4):
            if state[off + p] < 0:
                errors.append(f"gauntlet {name} of seat {p} is negative: {int(state[off + p])}")
            if p >= players and off != G_COUNT and state[off + p] != 0:
                errors.append(f"gauntlet {name} of absent seat {p} is {int(state[off + p])}")
    for name, off in (("knights", G_KNIGHTS), ("tithe_winner", G_TITHE_WINNER)):
        if not -1 <= state[off] < players:
            errors.append(f"gauntlet {name} seat {int(state[off])} out of range")
    if params[P_GAUNTLET] != GAUNTLET_HOLIER and int(state[G_CAPIT : G_CAPIT + 4].sum()):
        errors.append("coins on Capitularius cards without Holier Than Thou")
    return errors
