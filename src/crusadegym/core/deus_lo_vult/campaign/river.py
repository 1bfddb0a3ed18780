"""River Amenities [R Part 2 "River Amenities" and each one's section]: Latrine and
Cholera, Surgeon, Salutificatio and the Donkey (Pillory/Bacchanalia and Gravediggers:
see ``docs/rules/deus_lo_vult.md``, "River Amenities", for what is not built yet).

[R] "These Amenities are accessible for all players ... they have a "ready" and a
"used" side. Active Player spends an extra coin or a move to rearm the used Amenity":
each River token's side is one state slot shared by all seats; each price is an action
(a Move = one Action Point, a Coin = one of the seat's secured coins ``SCORE[p]``).

* Latrine [R "Latrine"]: at the end of a turn with any own unit on a Camp Tent cell
  the Latrine is used (clean -> filthy, free); a filthy one must be cleaned first:
  "clean latrine move" / "clean latrine coin" during the turn, or free with a Pilgrim in
  the Camp (done at the end of the turn). Otherwise the seat gets Cholera [R "Cholera"]:
  its Crusaders make no strike (attack, plunder, steal) until it is expelled ("an empty
  Camp and a clean Latrine by the end of your Turn"). Our readings: "units" are the
  seat's Crusaders (Refugees and Amenities are not units); Camp Tents are the 8 camp
  cells around the centre; the Latrine left filthy by one seat is the next seat's
  problem [R "If someone has used it before, you have to clean it first"].
* Surgeon [R "Surgeon"]: "surgeon heal" on one's own weak Crusader anywhere on the
  board (one Move), the Surgeon flips to used; "rearm surgeon" (one Coin + one Move).
* Salutificatio [R "Salutificatio"]: each Refugee the seat's move puts into another
  seat's Camp lets it put one Coin on its card ("salutificatio coin", optional); a coin
  there is discarded to summon the Donkey [R "Donkey"] next to one of the seat's
  stranded Crusaders ("summon donkey n/e/s/w": on that empty neighbour cell). Stranded
  (our reading): on the board, outside any Camp, with no band member beside it. The
  Donkey is a Field Amenity token (moves with any band, cannot be struck or trampled:
  ``bands``/``combat``) and returns to the River (``LOC_OFF``) as soon as no Crusader
  is beside it.

State: ``layout.CB_RIVER``; params: ``config.amenity_slot``; actions: ``layout.A_RIVER``.
"""

from __future__ import annotations

from ...jit import jit
from .. import tables as T
from ..bands import band_member
from ..config import P_PLAYERS
from ..layout import (
    AP,
    BOARD,
    CUR,
    LOC_OFF,
    PH_ARMY,
    PH_SARACEN,
    PHASE,
    SCORE,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
)
from ..pieces import (
    NEIGH,
    TOKEN_KIND,
    TOKEN_OWNER,
    camp_owner,
    is_camp_centre,
    is_crusader,
    is_refugee,
    place_token,
)
from .config import amenity_slot
from .layout import A_RIVER, CB_RIVER, CB_RIVER_SIZE

P_LATRINE = amenity_slot("latrine")
P_SURGEON = amenity_slot("surgeon")
P_SALUT = amenity_slot("salutificatio")

READY, USED = 0, 1  # a River token's sides [R "a "ready" and a "used" side"]
CLEAN, FILTHY = 0, 1  # the Latrine's [R "flip the clean Latrine filthy side up"]
MOVE_PRICE = 1  # [R] "one Move"
COIN_PRICE = 1  # [R] "one Coin"
PILGRIM = T.KIND_NAMES.index("pilgrim")
DONKEY = T.AMENITY_TOKEN0 + [a[0] for a in T.AMENITY_KINDS].index("donkey")

# state slots (offsets in the RIVER block)
R_LATRINE = CB_RIVER + 0  # CLEAN / FILTHY
R_CHOLERA = CB_RIVER + 1  # [4] the Cholera card next to a seat
R_SURGEON = CB_RIVER + 5  # READY / USED
R_SALUT = CB_RIVER + 6  # [4] coins on each seat's Salutificatio card
R_SALUT_DUE = CB_RIVER + 10  # [4] Refugees delivered this turn, not yet rewarded
R_RIVAL_REFUGEES = CB_RIVER + 14  # Refugees in the mover's rivals' Camps (last count)
R_END = CB_RIVER + 15
assert R_END <= CB_RIVER + CB_RIVER_SIZE

# actions
A_CLEAN_MOVE = A_RIVER + 0
A_CLEAN_COIN = A_RIVER + 1
A_SURGEON_REARM = A_RIVER + 2
A_SURGEON_HEAL = A_RIVER + 3
A_SALUT_COIN = A_RIVER + 4
A_DONKEY0 = A_RIVER + 5  # + direction N E S W
ACTION_NAMES = {
    A_CLEAN_MOVE: "clean latrine move",
    A_CLEAN_COIN: "clean latrine coin",
    A_SURGEON_REARM: "rearm surgeon",
    A_SURGEON_HEAL: "surgeon heal",
    A_SALUT_COIN: "salutificatio coin",
}
for _d in range(4):
    ACTION_NAMES[A_DONKEY0 + _d] = "summon donkey " + T.DIR_NAMES[_d].lower()

FIELDS: dict[str, tuple[int, int]] = {
    "latrine": (R_LATRINE, 1),
    "cholera": (R_CHOLERA, 4),
    "surgeon": (R_SURGEON, 1),
    "salut": (R_SALUT, 4),
    "salut_due": (R_SALUT_DUE, 4),
    "rival_refugees": (R_RIVAL_REFUGEES, 1),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""


# ------------------------------------------------------------------ queries
@jit
def any_on(params):
    """Any River Amenity of this module is played."""
    return params[P_LATRINE] != 0 or params[P_SURGEON] != 0 or params[P_SALUT] != 0


@jit
def camp_counts(state, params, p):
    """(own Crusaders on p's Camp Tent cells, of them Pilgrims)."""
    units = 0
    pilgrims = 0
    for c in range(T.N_CELLS):
        t = state[BOARD + c]
        if t < 0 or camp_owner(params, c) != p or is_camp_centre(params, c):
            continue
        if is_crusader(t) and TOKEN_OWNER[t] == p:
            units += 1
            if TOKEN_KIND[t] == PILGRIM:
                pilgrims += 1
    return units, pilgrims


@jit
def has_cholera(state, params, p):
    """Seat p's units "won't attack until the Cholera is expelled" [R "Cholera"]."""
    return params[P_LATRINE] != 0 and state[R_CHOLERA + p] != 0


@jit
def rival_camp_refugees(state, params, p):
    n = 0
    for c in range(T.N_CELLS):
        t = state[BOARD + c]
        o = camp_owner(params, c)
        if t >= 0 and o >= 0 and o != p and is_refugee(state, t):
            n += 1
    return n


@jit
def stranded(state, params, c, p):
    """Seat p's Crusader on c, outside any Camp, with no band member beside it."""
    t = state[BOARD + c]
    if t < 0 or not is_crusader(t) or TOKEN_OWNER[t] != p or camp_owner(params, c) >= 0:
        return False
    for d in range(4):
        n = NEIGH[c, d]
        if n >= 0 and band_member(state, state[BOARD + n], p, False):
            return False
    return True


@jit
def can_pay(state, p, ap, coins):
    return state[AP] >= ap and state[SCORE + p] >= coins


@jit
def pay(state, p, ap, coins):
    state[AP] -= ap
    state[SCORE + p] -= coins


# ------------------------------------------------------------------ hooks
@jit
def start_battle(state, params):
    """Each Battle starts with a clean Latrine, a ready Surgeon, no Cholera, the Donkey
    on the River; coins on Salutificatio cards stay (our reading: tokens of
    friendship are kept for the Campaign)."""
    state[R_LATRINE] = CLEAN
    state[R_SURGEON] = READY
    for p in range(4):
        state[R_CHOLERA + p] = 0
        state[R_SALUT_DUE + p] = 0
    state[R_RIVAL_REFUGEES] = 0


@jit
def begin_turn(state, params, p):
    if params[P_SALUT] != 0:
        state[R_SALUT_DUE + p] = 0
        state[R_RIVAL_REFUGEES] = rival_camp_refugees(state, params, p)


@jit
def end_turn(state, params, p):
    """Latrine and Cholera at the end of seat p's turn [R "Latrine", "Cholera"]."""
    if params[P_LATRINE] != 0:
        units, pilgrims = camp_counts(state, params, p)
        if units > 0:
            if state[R_LATRINE] == CLEAN or pilgrims > 0:  # a Pilgrim cleans for free
                state[R_LATRINE] = FILTHY
            else:
                state[R_CHOLERA + p] = 1
        elif state[R_LATRINE] == CLEAN:
            state[R_CHOLERA + p] = 0
    if params[P_SALUT] != 0:
        state[R_SALUT_DUE + p] = 0
        donkey_check(state)


@jit
def classify(state, params, c, p, army_ok, code):
    """Hook: no strike by a seat's Crusader while it has Cholera."""
    if code == 0 or not army_ok:
        return code
    t = state[BOARD + c]
    if is_crusader(t) and TOKEN_OWNER[t] == p and has_cholera(state, params, p):
        return 0
    return code


@jit
def after_move(state, params):
    """Hook: Refugees put into rivals' Camps (Salutificatio); the Donkey's leash."""
    if params[P_SALUT] == 0:
        return
    p = state[CUR]
    n = rival_camp_refugees(state, params, p)
    if n > state[R_RIVAL_REFUGEES]:
        state[R_SALUT_DUE + p] += n - state[R_RIVAL_REFUGEES]
    state[R_RIVAL_REFUGEES] = n
    donkey_check(state)


@jit
def after_strike(state, params):
    if params[P_SALUT] != 0:
        donkey_check(state)


@jit
def donkey_check(state):
    """The Donkey "returns to River after being disconnected from Units" [R "Donkey"]."""
    c = state[TOK_LOC + DONKEY]
    if c < 0:
        return
    for d in range(4):
        n = NEIGH[c, d]
        if n >= 0 and state[BOARD + n] >= 0 and is_crusader(state[BOARD + n]):
            return
    state[BOARD + c] = -1
    state[TOK_LOC + DONKEY] = LOC_OFF
    state[TOK_MOVED + DONKEY] = 0


# ------------------------------------------------------------------ actions
@jit
def turn_extras(state, params, out):
    """Stage 1: clean the Latrine, rearm the Surgeon, a coin on Salutificatio."""
    phase = state[PHASE]
    if phase != PH_ARMY and phase != PH_SARACEN:
        return 0
    p = state[CUR]
    n = 0
    if params[P_LATRINE] != 0 and state[R_LATRINE] == FILTHY:
        if can_pay(state, p, MOVE_PRICE, 0):
            out[A_CLEAN_MOVE] = 1
            n += 1
        if can_pay(state, p, 0, COIN_PRICE):
            out[A_CLEAN_COIN] = 1
            n += 1
    if params[P_SURGEON] != 0 and state[R_SURGEON] == USED:
        if can_pay(state, p, MOVE_PRICE, COIN_PRICE):
            out[A_SURGEON_REARM] = 1
            n += 1
    if params[P_SALUT] != 0 and state[R_SALUT_DUE + p] > 0 and can_pay(state, p, 0, COIN_PRICE):
        out[A_SALUT_COIN] = 1
        n += 1
    return n


@jit
def apply_turn_extra(state, params, a):
    p = state[CUR]
    if a == A_CLEAN_MOVE:
        pay(state, p, MOVE_PRICE, 0)
        state[R_LATRINE] = CLEAN
    elif a == A_CLEAN_COIN:
        pay(state, p, 0, COIN_PRICE)
        state[R_LATRINE] = CLEAN
    elif a == A_SURGEON_REARM:
        pay(state, p, MOVE_PRICE, COIN_PRICE)
        state[R_SURGEON] = READY
    elif a == A_SALUT_COIN:
        pay(state, p, 0, COIN_PRICE)
        state[R_SALUT + p] += 1
        state[R_SALUT_DUE + p] -= 1


@jit
def unit_extras(state, params, c, out, first_only):
    """Stage 2 on cell c: the Surgeon's heal, the Donkey's summons (army phase)."""
    if state[PHASE] != PH_ARMY:
        return 0
    p = state[CUR]
    t = state[BOARD + c]
    if t < 0 or not is_crusader(t) or TOKEN_OWNER[t] != p:
        return 0
    n = 0
    if params[P_SURGEON] != 0 and state[R_SURGEON] == READY and state[TOK_SIDE + t] == 1:
        if can_pay(state, p, MOVE_PRICE, 0):
            out[A_SURGEON_HEAL] = 1
            n += 1
            if first_only:
                return n
    if params[P_SALUT] != 0 and state[R_SALUT + p] > 0 and state[TOK_LOC + DONKEY] < 0:
        if stranded(state, params, c, p):
            for d in range(4):
                e = NEIGH[c, d]
                if e >= 0 and state[BOARD + e] < 0:
                    out[A_DONKEY0 + d] = 1
                    n += 1
    return n


@jit
def apply_unit_extra(state, params, c, a):
    p = state[CUR]
    t = state[BOARD + c]
    if a == A_SURGEON_HEAL:
        pay(state, p, MOVE_PRICE, 0)
        state[TOK_SIDE + t] = 0
        state[R_SURGEON] = USED
    elif A_DONKEY0 <= a < A_DONKEY0 + 4:
        state[R_SALUT + p] -= 1
        place_token(state, DONKEY, NEIGH[c, a - A_DONKEY0], 0)


@jit
def observe(state, params, player, out, o):
    """Scalars (``layout.OS_RIVER``): Latrine filthy, Surgeon used, Donkey on the board,
    then per relative seat: Cholera, coins on Salutificatio (/ 5), own Refugees due."""
    players = params[P_PLAYERS]
    out[o + 0] = state[R_LATRINE]
    out[o + 1] = state[R_SURGEON]
    out[o + 2] = 1.0 if state[TOK_LOC + DONKEY] >= 0 else 0.0
    out[o + 3] = min(state[R_SALUT_DUE + player], 1)
    for q in range(players):
        r = (q - player + players) % players
        out[o + 4 + r] = state[R_CHOLERA + q]
        out[o + 8 + r] = min(state[R_SALUT + q] / 5.0, 1.0)
