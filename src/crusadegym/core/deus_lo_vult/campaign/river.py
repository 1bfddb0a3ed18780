"""River Amenities [R Part 2 "River Amenities" and each one's section]: Latrine and
Cholera, Pillory and Bacchanalia, Surgeon, Salutificatio and the Donkey; the
Gravediggers' reaction window is ``gravediggers.py`` (wired in here: switch, Battle
start, turn start, fields, observation, checks).

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
* Pillory and Bacchanalia [R "The Pillory (with Bacchanalia card)"]: at the end of
  seat p's turn, Local Bacchanalia if its Camp Tents hold a Pilgrim and no Knight (the
  card goes when a Knight or no Pilgrim is there at the end of a later turn); Total
  Bacchanalia if a coin lies on an empty cell outside the Camps: those coins go to the
  bank and every seat with no Knight in its Camp gets a Baccatio card "until their
  next Turn" (our reading: the round's last coin stays on the board -- a round ends only
  with its last coin secured). A seat holding a Baccatio card (:func:`baccatio_active`)
  is drunk: its Crusaders "cannot retaliate" (an attack on them does the attacker no
  damage) and can be robbed over their Skull edge as if it were a Heart (no wound to the
  robber). "use pillory" (ready: free; used: "pillory coin" one Coin or "pillory moves"
  two Moves) discards the seat's card. Knights: ``tables.WEATHER_KNIGHT_KINDS``.
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
from ..carry import free_capacity
from ..config import P_PLAYERS
from ..layout import (
    AP,
    BOARD,
    CUR,
    GROUND,
    LOC_OFF,
    PH_ARMY,
    PH_SARACEN,
    PHASE,
    ROUND_LEFT,
    SCORE,
    TOK_COINS,
    TOK_LOC,
    TOK_MOVED,
    TOK_SIDE,
)
from ..pieces import (
    NEIGH,
    TOKEN_KIND,
    TOKEN_OWNER,
    camp_owner,
    edge_icon,
    is_camp_centre,
    is_crusader,
    is_refugee,
    place_token,
)
from . import gravediggers as GD
from .adjoin import controller
from .battle import C_COIN_BALANCE, pay_coins
from .config import amenity_slot
from .layout import A_RIVER, CB_RIVER, CB_RIVER_SIZE
from .weather import KNIGHT_KIND

P_LATRINE = amenity_slot("latrine")
P_SURGEON = amenity_slot("surgeon")
P_SALUT = amenity_slot("salutificatio")
P_PILLORY = amenity_slot("pillory")

STRIKE_STEAL = 3  # combat.STRIKE_STEAL (combat.py imports the hooks: not importable here)
READY, USED = 0, 1  # a River token's sides [R "a "ready" and a "used" side"]
CLEAN, FILTHY = 0, 1  # the Latrine's [R "flip the clean Latrine filthy side up"]
MOVE_PRICE = 1  # [R] "one Move"
PILLORY_MOVES = 2  # [R "The Pillory"] "One Coin or Two Moves"
LOCAL, TOTAL = 1, 2  # Baccatio card bits [R "two types of Bacchanalia"]
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
R_PILLORY = CB_RIVER + 15  # READY / USED
R_BACCATIO = CB_RIVER + 16  # [4] Baccatio card next to a seat: LOCAL | TOTAL bits
R_END = CB_RIVER + 20
assert R_END <= GD.G_SIDE and GD.G_END <= CB_RIVER + CB_RIVER_SIZE

# actions
A_CLEAN_MOVE = A_RIVER + 0
A_CLEAN_COIN = A_RIVER + 1
A_SURGEON_REARM = A_RIVER + 2
A_SURGEON_HEAL = A_RIVER + 3
A_SALUT_COIN = A_RIVER + 4
A_DONKEY0 = A_RIVER + 5  # + direction N E S W
A_PILLORY = A_RIVER + 9
A_PILLORY_COIN = A_RIVER + 10
A_PILLORY_MOVES = A_RIVER + 11
ACTION_NAMES = {
    A_CLEAN_MOVE: "clean latrine move",
    A_CLEAN_COIN: "clean latrine coin",
    A_SURGEON_REARM: "rearm surgeon",
    A_SURGEON_HEAL: "surgeon heal",
    A_SALUT_COIN: "salutificatio coin",
    A_PILLORY: "use pillory",
    A_PILLORY_COIN: "pillory coin",
    A_PILLORY_MOVES: "pillory moves",
}
ACTION_NAMES.update(GD.ACTION_NAMES)
for _d in range(4):
    ACTION_NAMES[A_DONKEY0 + _d] = "summon donkey " + T.DIR_NAMES[_d].lower()

FIELDS: dict[str, tuple[int, int]] = {
    "latrine": (R_LATRINE, 1),
    "cholera": (R_CHOLERA, 4),
    "surgeon": (R_SURGEON, 1),
    "salut": (R_SALUT, 4),
    "salut_due": (R_SALUT_DUE, 4),
    "rival_refugees": (R_RIVAL_REFUGEES, 1),
    "pillory": (R_PILLORY, 1),
    "baccatio": (R_BACCATIO, 4),
    **GD.FIELDS,
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``)."""


# ------------------------------------------------------------------ queries
@jit
def any_on(params):
    """Any River Amenity of this module is played."""
    return (
        params[P_LATRINE] != 0
        or params[P_SURGEON] != 0
        or params[P_SALUT] != 0
        or params[P_PILLORY] != 0
        or params[GD.P_GRAVE] != 0
    )


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
def camp_knights(state, params, p):
    """Seat p's Knights on its Camp Tent cells (the Baccatio "supervising Knight")."""
    n = 0
    for c in range(T.N_CELLS):
        t = state[BOARD + c]
        if t < 0 or camp_owner(params, c) != p or is_camp_centre(params, c):
            continue
        if is_crusader(t) and TOKEN_OWNER[t] == p and KNIGHT_KIND[TOKEN_KIND[t]] == 1:
            n += 1
    return n


@jit
def baccatio_active(state, params, seat):
    """Is a Baccatio card next to ``seat``'s Camp [R "The Pillory"]? (Its units are drunk;
    the Engineer's drunkenness in ``units.py`` may read this.) [R "there can't be
    Baccatio effect, in case there is no Pillory in the River"]."""
    return params[P_PILLORY] != 0 and state[R_BACCATIO + seat] != 0


@jit
def drunk(state, params, u):
    """Token u is a Crusader of a seat holding a Baccatio card."""
    return is_crusader(u) and baccatio_active(state, params, TOKEN_OWNER[u])


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
        if n < 0:
            continue
        v = state[BOARD + n]
        if band_member(state, v, p, False) or (is_crusader(v) and controller(state, v) == p):
            return False  # (an adjoined unit beside it: adjoin.py)
    return True


@jit
def can_pay(state, p, ap, coins):
    return state[AP] >= ap and state[SCORE + p] >= coins


@jit
def pay(state, p, ap, coins):
    """A price: ``ap`` Moves (Action Points) and ``coins`` secured coins (``battle``)."""
    state[AP] -= ap
    if coins > 0:
        pay_coins(state, p, coins)


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
    state[R_PILLORY] = READY
    for p in range(4):
        state[R_BACCATIO + p] = 0
    GD.start_battle(state)


@jit
def begin_turn(state, params, p):
    if params[P_PILLORY] != 0:  # Total Bacchanalia lasts "until their next Turn"
        state[R_BACCATIO + p] &= ~TOTAL
    if params[P_SALUT] != 0:
        state[R_SALUT_DUE + p] = 0
        state[R_RIVAL_REFUGEES] = rival_camp_refugees(state, params, p)
    if GD.on(params):
        GD.begin_turn(state, p)


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
    if params[P_PILLORY] != 0:
        bacchanalia(state, params, p)


@jit
def bacchanalia(state, params, p):
    """Local and Total Bacchanalia at the end of seat p's turn [R "The Pillory"]."""
    _, pilgrims = camp_counts(state, params, p)
    if pilgrims > 0 and camp_knights(state, params, p) == 0:
        state[R_BACCATIO + p] |= LOCAL
    else:
        state[R_BACCATIO + p] &= ~LOCAL
    lost = 0
    for c in range(T.N_CELLS):
        n = state[GROUND + c]
        if n <= 0 or state[BOARD + c] >= 0 or camp_owner(params, c) >= 0:
            continue
        n = min(n, state[ROUND_LEFT] - 1)  # the round's last coin stays (our reading)
        if n > 0:
            state[GROUND + c] -= n
            state[ROUND_LEFT] -= n
            state[C_COIN_BALANCE] += n  # "returned to a game bank"
            lost += n
    if lost > 0:
        for q in range(params[P_PLAYERS]):
            if camp_knights(state, params, q) == 0:
                state[R_BACCATIO + q] |= TOTAL


@jit
def classify(state, params, c, d, p, army_ok, code):
    """Hook: no strike by a seat's Crusader while it has Cholera; a drunk rival's
    Crusader can be robbed over its Skull edge as over a Heart [R "The Pillory"]."""
    if not army_ok:
        return code
    t = state[BOARD + c]
    if not is_crusader(t) or TOKEN_OWNER[t] != p:
        return code
    if has_cholera(state, params, p):
        return 0
    if code == 0 and params[P_PILLORY] != 0:
        n = NEIGH[c, d]
        if n >= 0 and edge_icon(state, t, d) == T.ICON_S:
            u = state[BOARD + n]
            if u >= 0 and TOKEN_OWNER[u] != p and drunk(state, params, u):
                if edge_icon(state, u, (d + 2) % 4) == T.ICON_S:
                    if state[TOK_COINS + u] > 0 and free_capacity(state, params, t) > 0:
                        return STRIKE_STEAL
    return code


@jit
def combat(state, params, u, da):
    """Hook: drunk units "cannot retaliate": an attack on one does the attacker no harm."""
    if drunk(state, params, u):
        return 0
    return da


@jit
def steal_wounds(state, params, u):
    """Hook: does robbing u over its Skull edge wound the robber? Not when u is drunk
    ("as quickly as if it was a Heart edge")."""
    return not drunk(state, params, u)


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
    if baccatio_active(state, params, p):
        if state[R_PILLORY] == READY:
            out[A_PILLORY] = 1
            n += 1
        else:
            if can_pay(state, p, 0, COIN_PRICE):
                out[A_PILLORY_COIN] = 1
                n += 1
            if can_pay(state, p, PILLORY_MOVES, 0):
                out[A_PILLORY_MOVES] = 1
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
    elif a == A_PILLORY or a == A_PILLORY_COIN or a == A_PILLORY_MOVES:
        if a == A_PILLORY_COIN:
            pay(state, p, 0, COIN_PRICE)
        elif a == A_PILLORY_MOVES:
            pay(state, p, PILLORY_MOVES, 0)
        state[R_PILLORY] = USED  # [R] "To use it means to flip it the active side up"
        state[R_BACCATIO + p] = 0  # "the Bacchanalia comes to an end"


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
    own Refugees due, then per relative seat: Cholera [4 + r], coins on Salutificatio / 5
    [8 + r]; Pillory used [12]; a Baccatio card per relative seat [13 + r]; the
    Gravediggers from [17] (``gravediggers.observe``)."""
    players = params[P_PLAYERS]
    out[o + 0] = state[R_LATRINE]
    out[o + 1] = state[R_SURGEON]
    out[o + 2] = 1.0 if state[TOK_LOC + DONKEY] >= 0 else 0.0
    out[o + 3] = min(state[R_SALUT_DUE + player], 1)
    for q in range(players):
        r = (q - player + players) % players
        out[o + 4 + r] = state[R_CHOLERA + q]
        out[o + 8 + r] = min(state[R_SALUT + q] / 5.0, 1.0)
        out[o + 13 + r] = 1.0 if state[R_BACCATIO + q] != 0 else 0.0
    out[o + 12] = state[R_PILLORY]
    GD.observe(state, params, player, out, o + GD.OBS_AT)


def check(state, params) -> list[str]:
    """River invariants (for ``invariants.check_campaign``): two-sided tokens on a side,
    cards 0/1, no negative coins on Salutificatio, the Donkey only with Salutificatio."""
    errors: list[str] = []
    for name, slot in (("latrine", R_LATRINE), ("surgeon", R_SURGEON), ("pillory", R_PILLORY)):
        if state[slot] not in (0, 1):
            errors.append(f"{name} side {int(state[slot])}")
    for p in range(4):
        if state[R_CHOLERA + p] not in (0, 1):
            errors.append(f"cholera[{p}] = {int(state[R_CHOLERA + p])}")
        if not 0 <= state[R_BACCATIO + p] <= LOCAL | TOTAL:
            errors.append(f"baccatio[{p}] = {int(state[R_BACCATIO + p])}")
        if state[R_SALUT + p] < 0 or state[R_SALUT_DUE + p] < 0:
            errors.append(f"salutificatio[{p}] negative")
    loc = int(state[TOK_LOC + DONKEY])
    if loc >= 0 and (params[P_SALUT] == 0 or state[BOARD + loc] != DONKEY):
        errors.append(f"Donkey on cell {loc} without Salutificatio or off its cell")
    if params[P_PILLORY] == 0 and any(state[R_BACCATIO + p] for p in range(4)):
        errors.append("a Baccatio card without the Pillory")
    return errors + GD.check(state, params)
