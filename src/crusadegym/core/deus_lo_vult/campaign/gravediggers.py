"""The Gravediggers River Amenity [R Part 2 "Gravediggers"], a reaction window.

[R] "It is a River Amenity token that allows using the armaments of deceased Units. When
sending your killed Unit to Purgatory, flip the Gravediggers "used" side up to instantly
replace this Unit with any other one of your Units in play ... This action will cost
you one Move and one Coin. Flip the Gravediggers back "ready" side up after sending any
Unit to Purgatory."

Our reading, in the order the engine applies it:

* After each action (``game.step``) the deaths it caused are queued, oldest first, with
  each Unit's cell, side and coins from before the action (:func:`after_step`). The
  action has fully resolved by then: what the death set off (Fons Honorum kill counts,
  Barbarossa's retreat, Jacques de Molay's date, Deeds) stays -- the bury only changes
  which body lies in Purgatory.
* Each queued death in turn (:func:`process`): a used Gravediggers flips back ready and
  that death opens nothing (the flip comes "after sending" it); a ready one opens a
  window if the dead Unit is a Crusader of seat q (never a Saracen or a Refugee), its
  cell is still empty and not in a rival's Camp, q has a secured coin and another
  Crusader on the board, and -- in q's own turn -- an Action Point. No window in an
  action that ends the round or the Battle (the board is cleared), nor outside the army
  and Saracen phases.
* The window makes q the current player (``CUR``; the seat whose turn it is waits in
  ``G_TURN``); the legal actions are "bury <cell>" (the Duel's ``CELL(c)`` id of one of
  q's Crusaders on the board) and "gravediggers pass" (``A_GD_PASS``).
* Bury: one Coin (``battle.pay_coins``), one Move (an Action Point at once in q's own
  turn, else owed and taken at the start of q's next turn: ``G_DEBT``); the buried Unit
  dies as any Unit (its coins dropped on its cell) and takes the dead Unit's Purgatory
  slot; the dead Unit comes back on its cell as it was before the action (option
  ``gravediggers_restore="weak"``: on its weak side) with the coins it dropped there;
  the Gravediggers flip used. The bury itself does not flip them back.

State: slots from ``CB_RIVER + 20`` of the River block (``river.py`` owns 0..19);
params: ``config.amenity_slot("gravediggers")``, ``config.P_GRAVE_RESTORE``.
"""

from __future__ import annotations

from ...jit import jit
from .. import tables as T
from ..config import P_PLAYERS
from ..layout import (
    AP,
    BOARD,
    CUR,
    GROUND,
    LOC_PURGATORY,
    OVER,
    PH_ARMY,
    PH_SARACEN,
    PHASE,
    PURG,
    ROUND,
    SCORE,
    TOK_COINS,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
)
from ..pieces import TOKEN_OWNER, camp_owner, is_crusader
from ..purgatory import STRONG, WEAK, remove_from_board
from .battle import C_BATTLE, pay_coins
from .config import P_GRAVE_RESTORE, amenity_slot
from .layout import A_RIVER, CB_RIVER, CB_RIVER_SIZE, OS_RIVER_SIZE

P_GRAVE = amenity_slot("gravediggers")
RESTORE_WEAK = 1  # tables.GRAVE_RESTORES.index("weak")
READY, USED = 0, 1  # as every River token [R "a "ready" and a "used" side"]
MOVE_PRICE = 1  # [R] "one Move"
COIN_PRICE = 1  # [R] "and one Coin"
NC = T.N_CELLS
OBS_AT = 17  # the offset river.observe gives gravediggers.observe in its scalars

# state slots (the River block after river.py's)
G_SIDE = CB_RIVER + 20  # READY / USED
G_SEAT = CB_RIVER + 21  # seat + 1 of the open window, 0 none
G_TURN = CB_RIVER + 22  # seat + 1 whose turn it is while a window is open, 0 none
G_DEBT = CB_RIVER + 23  # [4] Moves owed for a bury in another seat's turn
G_N = CB_RIVER + 27  # deaths queued; the first is the open window's
QUEUE = 8  # deaths of one action queued at most (Purgatory holds 9)
ENTRY = 4  # token, cell, side, coins (from before the action)
G_QUEUE = CB_RIVER + 28  # [QUEUE * ENTRY]
G_END = G_QUEUE + QUEUE * ENTRY
assert G_END <= CB_RIVER + CB_RIVER_SIZE

A_GD_PASS = A_RIVER + 12  # "gravediggers pass"; "bury <cell>" is the Duel's CELL(c) id
ACTION_NAMES = {A_GD_PASS: "gravediggers pass"}
BURY_WORD = "bury"  # game.action_to_str names CELL(c) "bury <cell>" while a window is open

FIELDS: dict[str, tuple[int, int]] = {
    "gravediggers": (G_SIDE, 1),
    "gd_pending": (G_SEAT, 1),
    "gd_turn": (G_TURN, 1),
    "gd_debt": (G_DEBT, 4),
    "gd_deaths": (G_N, 1),
    "gd_queue": (G_QUEUE, QUEUE * ENTRY),
}
"""Notation fields (``river.FIELDS`` includes them): the side, the open window's seat + 1,
the waiting turn's seat + 1, Moves owed, and the queued deaths (token, cell, side, coins
each)."""


@jit
def on(params):
    return params[P_GRAVE] != 0


@jit
def pending(state, params):
    """Is a Gravediggers window open (its seat is the current player)?"""
    return params[P_GRAVE] != 0 and state[G_SEAT] != 0


# ------------------------------------------------------------------ Battle, turns
@jit
def start_battle(state):
    """A new Battle: Gravediggers ready, no window, nothing owed."""
    state[G_SIDE] = READY
    state[G_SEAT] = 0
    state[G_TURN] = 0
    state[G_N] = 0
    for p in range(4):
        state[G_DEBT + p] = 0
    for i in range(QUEUE * ENTRY):
        state[G_QUEUE + i] = 0


@jit
def begin_turn(state, p):
    """The Move owed for a bury in another seat's turn is taken now."""
    state[AP] -= state[G_DEBT + p]
    state[G_DEBT + p] = 0


# ------------------------------------------------------------------ the window
@jit
def own_units(state, q):
    """Seat q's Crusaders on the board ("your Units in play")."""
    n = 0
    for c in range(NC):
        u = state[BOARD + c]
        if u >= 0 and is_crusader(u) and TOKEN_OWNER[u] == q:
            n += 1
    return n


@jit
def purgatory_slot(state, t):
    for i in range(T.PURGATORY_SLOTS):
        if state[PURG + i] == t:
            return i
    return -1


@jit
def may_open(state, params, turn):
    """May the first queued death open a window (see the module docstring)?"""
    t = state[G_QUEUE]
    c = state[G_QUEUE + 1]
    if not is_crusader(t) or state[TOK_LOC + t] != LOC_PURGATORY or c < 0:
        return False
    q = TOKEN_OWNER[t]
    if q >= params[P_PLAYERS] or state[BOARD + c] >= 0:
        return False
    o = camp_owner(params, c)
    if o >= 0 and o != q:
        return False
    if state[SCORE + q] < COIN_PRICE or own_units(state, q) == 0:
        return False
    return q != turn or state[AP] >= MOVE_PRICE


@jit
def pop(state):
    n = state[G_N]
    for i in range((n - 1) * ENTRY):
        state[G_QUEUE + i] = state[G_QUEUE + ENTRY + i]
    for i in range((n - 1) * ENTRY, n * ENTRY):
        state[G_QUEUE + i] = 0
    state[G_N] = n - 1


@jit
def process(state, params, open_ok):
    """Work through the queued deaths until one opens a window; when none is left, play
    goes back to the seat whose turn it is."""
    turn = state[G_TURN] - 1 if state[G_TURN] > 0 else state[CUR]
    phase = state[PHASE]
    open_ok = open_ok and (phase == PH_ARMY or phase == PH_SARACEN)
    while state[G_N] > 0:
        if state[G_SIDE] == USED:  # "back "ready" side up after sending any Unit"
            state[G_SIDE] = READY
        elif open_ok and may_open(state, params, turn):
            q = TOKEN_OWNER[state[G_QUEUE]]
            state[G_SEAT] = q + 1
            state[G_TURN] = turn + 1
            state[CUR] = q
            return
        pop(state)
    state[G_SEAT] = 0
    if state[G_TURN] > 0:
        state[CUR] = state[G_TURN] - 1
        state[G_TURN] = 0


@jit
def after_step(state, params, before):
    """Queue the deaths of the action that turned ``before`` into ``state`` (oldest
    first) and open the first window they allow."""
    n = 0
    for i in range(T.PURGATORY_SLOTS - 1, -1, -1):
        t = state[PURG + i]
        if t < 0 or before[TOK_LOC + t] == LOC_PURGATORY or n >= QUEUE:
            continue
        o = G_QUEUE + n * ENTRY
        state[o] = t
        state[o + 1] = before[TOK_LOC + t]
        state[o + 2] = before[TOK_SIDE + t]
        state[o + 3] = before[TOK_COINS + t]
        n += 1
    if n == 0:
        return
    state[G_N] = n
    same_round = state[ROUND] == before[ROUND] and state[C_BATTLE] == before[C_BATTLE]
    process(state, params, same_round and state[OVER] == 0)


@jit
def reaction_mask(state, params, out):
    """The open window's actions: bury one of the seat's Crusaders on the board, or pass."""
    q = state[G_SEAT] - 1
    n = 0
    for c in range(NC):
        u = state[BOARD + c]
        if u >= 0 and is_crusader(u) and TOKEN_OWNER[u] == q:
            out[c] = 1
            n += 1
    out[A_GD_PASS] = 1
    return n + 1


@jit
def react(state, params, a):
    """The window's seat buries the Unit on cell a instead of the dead one, or passes
    (``A_GD_PASS``). Returns True when play is back with the seat whose turn it is and
    that seat has no Action Point left (the caller ends the turn)."""
    q = state[G_SEAT] - 1
    turn = state[G_TURN] - 1
    if a != A_GD_PASS:
        t = state[G_QUEUE]
        c = state[G_QUEUE + 1]
        u = state[BOARD + a]
        pay_coins(state, q, COIN_PRICE)
        if q == turn:
            state[AP] -= MOVE_PRICE
        else:
            state[G_DEBT + q] += MOVE_PRICE
        remove_from_board(state, u)  # dies as any Unit: its coins drop on its cell
        state[PURG + purgatory_slot(state, t)] = u
        state[TOK_LOC + u] = LOC_PURGATORY
        state[TOK_SIDE + u] = STRONG
        state[TOK_MOVED + u] = 0
        state[BOARD + c] = t  # the dead Unit is back, as it was before the blow
        state[TOK_LOC + t] = c
        state[TOK_SIDE + t] = (
            WEAK if params[P_GRAVE_RESTORE] == RESTORE_WEAK else state[G_QUEUE + 2]
        )
        back = min(state[G_QUEUE + 3], state[GROUND + c])
        state[GROUND + c] -= back
        state[TOK_COINS + t] = back
        state[TOK_MOVED + t] = 0
        state[G_SIDE] = USED
    pop(state)
    process(state, params, True)
    if state[G_SEAT] != 0:
        return False
    return state[AP] <= 0 and (state[PHASE] == PH_ARMY or state[PHASE] == PH_SARACEN)


# ------------------------------------------------------------------ observation, checks
@jit
def observe(state, params, player, out, o):
    """Public: the side [o], the open window's seat one-hot by relative seat [o+1+r], the
    viewer's own Moves owed [o+5] (0/1)."""
    players = params[P_PLAYERS]
    out[o] = state[G_SIDE]
    q = state[G_SEAT] - 1
    if q >= 0:
        out[o + 1 + (q - player + players) % players] = 1.0
    out[o + 5] = min(state[G_DEBT + player], 1)


N_OBS = 6
assert OBS_AT + N_OBS <= OS_RIVER_SIZE


def check(state, params) -> list[str]:
    """Gravediggers invariants: side 0/1, a window only with the amenity, its seat the
    current player with its dead Unit first in the queue, nothing negative."""
    errors: list[str] = []
    players = int(params[P_PLAYERS])
    if state[G_SIDE] not in (READY, USED):
        errors.append(f"gravediggers side {int(state[G_SIDE])}")
    seat, turn, n = int(state[G_SEAT]), int(state[G_TURN]), int(state[G_N])
    if params[P_GRAVE] == 0 and (seat or turn or n or state[G_SIDE]):
        errors.append("a Gravediggers window or side without the Gravediggers")
    if not 0 <= n <= QUEUE or any(state[G_DEBT + p] < 0 for p in range(4)):
        errors.append(f"gravediggers queue {n} / debt negative")
    if seat == 0:
        if turn != 0 or n != 0:
            errors.append(f"no Gravediggers window but turn={turn} deaths={n}")
        return errors
    t, c = int(state[G_QUEUE]), int(state[G_QUEUE + 1])
    if not 1 <= seat <= players or not 1 <= turn <= players:
        errors.append(f"gravediggers window seat {seat - 1} / turn {turn - 1} invalid")
    elif int(state[CUR]) != seat - 1:
        errors.append(f"gravediggers window of seat {seat - 1} but seat {int(state[CUR])} plays")
    if n < 1 or not is_crusader(t) or TOKEN_OWNER[t] != seat - 1:
        errors.append(f"gravediggers window of seat {seat - 1} on token {t}")
    elif state[TOK_LOC + t] != LOC_PURGATORY or not 0 <= c < NC or state[BOARD + c] >= 0:
        errors.append(f"gravediggers: token {t} not in Purgatory or its cell {c} taken")
    return errors
