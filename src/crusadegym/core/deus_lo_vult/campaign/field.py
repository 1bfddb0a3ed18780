"""Field Amenities [R Part 2 "Field Amenities" and each one's section]: their start
under the City Quarters, Cat and Rats, Dog, Gallows, Disgusting Man, Flagellant cortege.

The generic mechanism (every Field Amenity; other modules use :func:`holds`):

* **Start under a City Quarter** [R "Field Amenity are placed directly on the game board
  during the setup, underneath one of the City Quarters"; the pairings are
  ``tables.AMENITIES``]. When a switched-on amenity's quarter is dealt (all 12 at the
  Battle's start with the Jerusalem setup, else when its quarter comes up in a round),
  the amenity lies hidden under that quarter's cell (``F_UNDER``; its token ``LOC_OFF``).
  The Hidden Stash also starts there when the Holier Than Thou Gauntlet is played [R
  "During the setup, put the Hidden Stash Amenity token under the Garden City Quarter"].
* **Revealed** (our reading; the rulebook does not say when a token under a quarter comes
  out; option ``field_reveal``): ``"vacated"`` (default) -- it is put on the cell as
  soon as the cell is empty, i.e. the quarter was emptied, flipped to a Refugee, and
  the Refugee moved away or was killed (or the round ended and Refugees were
  discarded); ``"flipped"`` -- at once when the quarter flips to its Refugee side, on
  the first free neighbouring cell (N, E, S, W; not a green cell, a camp centre),
  or on the cell itself once it is empty.
* **Movement**: amenity tokens move like Units with any band (``bands.band_member``);
  unlike Refugees they may leave a camp (``hooks.may_carry``).
* **Use** [R "players must have them adjoined to their Bands or stationed in Camp to
  use"]: :func:`holds`.
* **Round transition** (several rounds per Battle only): an amenity that was on the board
  stays on its cell (our reading: it is nobody's unit, so it neither goes to a reserve
  nor is discarded); if that cell is now a green cell, a quarter slot or taken, on the
  nearest free cell. Amenities under a quarter of the ended round come out there.
  At the next Battle's start every amenity goes back under its quarter [R "during the
  setup"].

State: ``layout.CB_FIELD`` (scalars below, then one flag word per token at
``CB_FIELD + 64``); params: ``P_FIELD_OPTS``; actions: ``layout.A_FIELD``
(``field_actions.py``).
"""

from __future__ import annotations

import numpy as np

from ...jit import ajit, jit
from .. import tables as T
from ..carry import free_capacity
from ..config import DBL_SHIELD_WOUND, P_CAMP_CENTRE, P_CAMP_OWNER, P_DBL_SHIELD, P_PLAYERS
from ..layout import BOARD, GROUND, LOC_OFF, TOK_COINS, TOK_LOC, TOK_SIDE
from ..pieces import (
    NEIGH,
    TOKEN_OWNER,
    edge_icon,
    is_amenity,
    is_camp_centre,
    is_crusader,
    is_green_cell,
    is_refugee,
    place_token,
)
from ..purgatory import kill
from . import tables as CT
from .config import GAUNTLET_HOLIER, P_AMENITY, P_FIELD_REVEAL, P_GAUNTLET, P_HERO
from .layout import CB_FIELD

NA = T.N_AMENITY_KINDS
# the Duel's STRIKE_* codes (combat.py; the hook modules may not import it)
STRIKE_NONE, STRIKE_STEAL = 0, 3
NC = T.N_CELLS

# ------------------------------------------------------------------ params (P_FIELD_OPTS)
REVEAL_VACATED, REVEAL_FLIPPED = (CT.FIELD_REVEALS.index(x) for x in ("vacated", "flipped"))

# ------------------------------------------------------------------ state (CB_FIELD)
F_UNDER = CB_FIELD + 0  # [8] per amenity kind: the cell it lies hidden under, -1 none
F_CELL = CB_FIELD + 8  # [8] per amenity kind: its cell when last seen on the board, -1
F_RATS = CB_FIELD + 16  # [4] per seat: 1 while the Rati card lies next to its camp
F_FLAGS = CB_FIELD + 64  # [N_TOKENS] one flag word per token
FLAG_CORTEGE = 1  # a Pilgrim that belongs to the Flagellant Cortege
NOWHERE = -1

FIELDS: dict[str, tuple[int, int]] = {
    "field_under": (F_UNDER, NA),
    "field_cell": (F_CELL, NA),
    "rats": (F_RATS, 4),
    "field_flags": (F_FLAGS, T.N_TOKENS),
}
"""Notation fields ``name -> (state offset, length)`` (``campaign/notation.py``).
``field_under``/``field_cell`` hold -1 for "none", so a started Campaign always prints
them (a position written by hand should give ``field_under=-1,...`` when it wants no
hidden amenity)."""

# ------------------------------------------------------------------ tables
AMENITY_INDEX = {name: i for i, (name, _code) in enumerate(T.AMENITY_KINDS)}
CAT = AMENITY_INDEX["cat"]
DOG = AMENITY_INDEX["dog"]
GALLOWS = AMENITY_INDEX["gallows"]
DISGUSTING_MAN = AMENITY_INDEX["disgusting_man"]
ENGINEER = AMENITY_INDEX["engineer"]
HIDDEN_STASH = AMENITY_INDEX["hidden_stash"]
FLAGELLANT = AMENITY_INDEX["flagellant"]
DONKEY = AMENITY_INDEX["donkey"]

# Amenity token sides (TOK_SIDE of the amenity token; 0 is the side it starts on).
DOG_DEFENSIVE, DOG_OFFENSIVE = 0, 1  # [R "Dog": "two sides"]
GALLOWS_READY, GALLOWS_HANGED = 0, 1  # [R "Gallows": "hanged thief" / "ready side up"]


def _amenity_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per amenity kind: its on/off params slot (-1: no switch of its own) and the City
    Quarter (index in ``tables.QUARTERS``) it starts under (-1: none)."""
    quarter_names = [q[0] for q in T.QUARTERS]
    switch = np.full(NA, -1, np.int64)
    quarter = np.full(NA, -1, np.int64)
    for name, kind, _card, start in CT.AMENITIES:
        if kind != "field":
            continue
        i = AMENITY_INDEX[name]
        switch[i] = P_AMENITY + CT.AMENITY_NAMES.index(name)
        if start:
            quarter[i] = quarter_names.index(start)
    return switch, quarter


AMENITY_SWITCH, AMENITY_QUARTER = _amenity_tables()


def amenity_token(name: str) -> int:
    """The token id of Field Amenity ``name`` (``tables.AMENITY_KINDS``)."""
    return T.AMENITY_TOKEN0 + AMENITY_INDEX[name]


# ------------------------------------------------------------------ switches
@jit
def amenity_on(params, i):
    """Is Field Amenity kind i in this Campaign? The Hidden Stash also comes with the
    Holier Than Thou Gauntlet [R "put the Hidden Stash Amenity token under the Garden"]."""
    if i == HIDDEN_STASH and params[P_GAUNTLET] == GAUNTLET_HOLIER:
        return True
    s = AMENITY_SWITCH[i]
    return s >= 0 and params[s] != 0


BALDWIN_IV = CT.HERO_NAMES.index("baldwin_iv")


@jit
def baldwin_in_play(params):
    """A seat plays Baldwin IV, whose touch brings a Disgusting Man into play [R "Heroes":
    "turns this Unit into a disgusting man"] (``units.py``) even without the amenity."""
    for p in range(4):
        if params[P_HERO + p] == BALDWIN_IV:
            return True
    return False


@jit
def disgusting_man_on(params):
    """Does a Disgusting Man token on the board act (the amenity, or Baldwin IV's)?"""
    return amenity_on(params, DISGUSTING_MAN) or baldwin_in_play(params)


@jit
def any_on(params):
    for i in range(NA):
        if amenity_on(params, i):
            return True
    return baldwin_in_play(params)


# ------------------------------------------------------------------ where a token is
@jit
def cell_of(state, i):
    """The cell of Field Amenity kind i, or -1 (hidden, off the board)."""
    loc = state[TOK_LOC + T.AMENITY_TOKEN0 + i]
    return loc if loc >= 0 else NOWHERE


@jit
def in_camp_of(params, c):
    """The seat whose camp (ring or centre) holds cell c, else -1."""
    if c < 0:
        return -1
    return params[P_CAMP_OWNER + c]


@ajit
def band_reaches(state, c0, seat, target_cell):
    """Is there a chain of seat's band members (its Crusaders, Refugees, amenities)
    from c0 that reaches ``target_cell`` (target_cell -1: reaches any Crusader of seat)?
    c0's token itself counts as a member."""
    seen = np.zeros(NC, np.uint8)
    stack = np.empty(NC, np.int64)
    top = 0
    stack[top] = c0
    top += 1
    seen[c0] = 1
    while top > 0:
        top -= 1
        c = stack[top]
        for d in range(4):
            n = NEIGH[c, d]
            if n < 0 or seen[n]:
                continue
            u = state[BOARD + n]
            if u < 0:
                continue
            own = is_crusader(u) and TOKEN_OWNER[u] == seat
            if target_cell < 0 and own:
                return True
            if n == target_cell:
                return True
            if own or is_refugee(state, u) or is_amenity(u):
                seen[n] = 1
                stack[top] = n
                top += 1
    return False


@jit
def holds(state, params, seat, i):
    """May ``seat`` use Field Amenity kind i [R "Field Amenities": "players must have
    them adjoined to their Bands or stationed in Camp to use"]? True if the amenity is
    on the board and either stands in seat's camp or is joined (orthogonally, possibly
    through other Refugees/amenities of the band) to one of seat's Crusaders."""
    c = cell_of(state, i)
    if c < 0:
        return False
    if in_camp_of(params, c) == seat:
        return True
    return band_reaches(state, c, seat, -1)


@jit
def joined(state, c, i):
    """Is the unit on cell c joined to Field Amenity kind i through its own band
    (its owner's Crusaders, Refugees, amenities)?"""
    a = cell_of(state, i)
    if a < 0 or state[BOARD + c] < 0:
        return False
    u = state[BOARD + c]
    if not is_crusader(u):
        return False
    return band_reaches(state, c, TOKEN_OWNER[u], a)


# ------------------------------------------------------------------ placement
@jit
def free_cell(state, params, c):
    """May a Field Amenity be put on cell c: empty, not a camp centre, not green?"""
    return state[BOARD + c] < 0 and not is_camp_centre(params, c) and not is_green_cell(c)


@ajit
def settle_cell(state, params, c):
    """c itself if a Field Amenity may be put there (empty, not a green Saracen cell,
    not a camp centre), else the nearest such cell (breadth first, N E S W), or -1."""
    seen = np.zeros(NC, np.uint8)
    queue = np.empty(NC, np.int64)
    head, top = 0, 1
    queue[0] = c
    seen[c] = 1
    while head < top:
        x = queue[head]
        head += 1
        if free_cell(state, params, x):
            return x
        for d in range(4):
            n = NEIGH[x, d]
            if n >= 0 and not seen[n]:
                seen[n] = 1
                queue[top] = n
                top += 1
    return NOWHERE


@jit
def put(state, params, i, c):
    """Put Field Amenity kind i on the board at (or nearest to) cell c."""
    t = T.AMENITY_TOKEN0 + i
    e = settle_cell(state, params, c)
    if e < 0:
        return
    side = state[TOK_SIDE + t]
    place_token(state, t, e, T.N)
    state[TOK_SIDE + t] = side
    state[F_UNDER + i] = NOWHERE
    state[F_CELL + i] = e


@jit
def hide_under_dealt(state, params):
    """Every switched-on amenity whose City Quarter is on the board (just dealt) and
    which is not in play yet goes under it [R "underneath one of the City Quarters"]."""
    for i in range(NA):
        q = AMENITY_QUARTER[i]
        if q < 0 or not amenity_on(params, i):
            continue
        t = T.AMENITY_TOKEN0 + i
        if state[TOK_LOC + t] >= 0 or state[F_UNDER + i] >= 0:
            continue
        qc = state[TOK_LOC + T.QUARTER_TOKEN0 + q]
        if qc >= 0 and state[TOK_SIDE + T.QUARTER_TOKEN0 + q] == 0 and state[F_CELL + i] < 0:
            state[F_UNDER + i] = qc


@jit
def start_battle(state, params):
    """A Battle's set-up: every Field Amenity off the board, strong side up, then under
    its quarter if that quarter was dealt; the Rati cards and the cortege cleared."""
    for i in range(NA):
        t = T.AMENITY_TOKEN0 + i
        if state[TOK_LOC + t] >= 0:
            state[BOARD + state[TOK_LOC + t]] = -1
        state[TOK_LOC + t] = LOC_OFF
        state[TOK_SIDE + t] = 0
        state[F_UNDER + i] = NOWHERE
        state[F_CELL + i] = NOWHERE
    for p in range(4):
        state[F_RATS + p] = 0
    for t in range(T.N_TOKENS):
        state[F_FLAGS + t] = 0
    hide_under_dealt(state, params)


@jit
def reveal(state, params):
    """Bring hidden amenities out when the ``field_reveal`` reading says so; remember
    where every amenity on the board stands (``F_CELL``)."""
    flipped = params[P_FIELD_REVEAL] == REVEAL_FLIPPED
    for i in range(NA):
        c = state[F_UNDER + i]
        if c >= 0:
            u = state[BOARD + c]
            if u < 0:
                put(state, params, i, c)
            elif flipped and is_refugee(state, u):
                for d in range(4):
                    n = NEIGH[c, d]
                    if n >= 0 and free_cell(state, params, n):
                        put(state, params, i, n)
                        break
        loc = state[TOK_LOC + T.AMENITY_TOKEN0 + i]
        if loc >= 0:
            state[F_CELL + i] = loc
        elif state[F_UNDER + i] < 0:
            state[F_CELL + i] = NOWHERE


@jit
def round_transition(state, params):
    """A new round (several rounds per Battle): amenities that were on the board come
    back at their cell (or the nearest free one), those still under a quarter of the
    ended round come out there; the new quarters get theirs."""
    for i in range(NA):
        c = state[F_CELL + i]
        if i == FLAGELLANT:  # its followers went back to the reserve: the cortege ends
            state[F_CELL + i] = NOWHERE
            continue
        if c < 0:
            c = state[F_UNDER + i]  # its Refugee was discarded with the round
        if c >= 0 and state[TOK_LOC + T.AMENITY_TOKEN0 + i] < 0:
            state[F_UNDER + i] = NOWHERE
            put(state, params, i, c)
    hide_under_dealt(state, params)


# ------------------------------------------------------------------ Cats & Rats
@jit
def unsecured_coins(state, params, p):
    """Coins lying in seat p's Camp Tents [R "Cats & Rats": "unsecured Coins in their
    tents"]: our reading, coins on the camp's 8 tent cells, loose or carried by a unit
    standing there (the centre cell holds secured coins)."""
    n = 0
    centre = params[P_CAMP_CENTRE + p]
    for c in range(NC):
        if params[P_CAMP_OWNER + c] != p or c == centre:
            continue
        n += state[GROUND + c]
        u = state[BOARD + c]
        if u >= 0 and is_crusader(u):
            n += state[TOK_COINS + u]
    return n


@jit
def cat_in_camp(state, params, p):
    return in_camp_of(params, cell_of(state, CAT)) == p


@jit
def rats(state, params, p):
    """Is seat p's camp rat-infested right now [R "Cats & Rats"]? The Rati card lies
    there (put at p's end of turn) and neither cure has happened since: "take the Coins
    off the Camp" or "bring a Cat to the Camp"."""
    if p < 0 or p >= 4 or state[F_RATS + p] == 0:
        return False
    return unsecured_coins(state, params, p) > 0 and not cat_in_camp(state, params, p)


@jit
def rats_end_turn(state, params, p):
    """[R] "When Players end their Turn having unsecured Coins in their tents, they must
    put the Rati Divine Will card next to their Camp"; the card goes when it is cured."""
    infested = unsecured_coins(state, params, p) > 0 and not cat_in_camp(state, params, p)
    state[F_RATS + p] = 1 if infested else 0


@jit
def useless_shield(state, params, u):
    """Does Crusader u's Shield edge count as a Heart [R "rendering your Shield edges
    useless and vulnerable to attack"]?"""
    return is_crusader(u) and amenity_on(params, CAT) and rats(state, params, TOKEN_OWNER[u])


# ------------------------------------------------------------------ Dog, Gallows
@jit
def dog_side_joined(state, c):
    """The side of the Dog joined to the band of the Crusader on cell c, or -1."""
    if cell_of(state, DOG) < 0 or not joined(state, c, DOG):
        return -1
    return state[TOK_SIDE + T.AMENITY_TOKEN0 + DOG]


@jit
def quadrant(c):
    """The board quadrant of cell c (0 NW, 1 NE, 2 SW, 3 SE) [R "any quadrant"]."""
    half = T.SIZE // 2
    return 2 * ((c // T.SIZE) // half) + (c % T.SIZE) // half


@jit
def gallows_covers(state, c):
    """Is cell c in the quadrant where the Gallows stands [R "Gallows"]?"""
    g = cell_of(state, GALLOWS)
    return g >= 0 and quadrant(g) == quadrant(c)


@jit
def gallows_hanged(state):
    """A hanged thief is on the Gallows: "no one can steal until his body is buried"."""
    return cell_of(state, GALLOWS) >= 0 and state[TOK_SIDE + T.AMENITY_TOKEN0 + GALLOWS] == 1


# ------------------------------------------------------------------ Flagellant cortege
PILGRIM_KIND = T.KIND_NAMES.index("pilgrim")


@jit
def in_cortege(state, t):
    """Is token t a follower of the Flagellant [R "these Units become a Flagellant
    Cortege"]?"""
    return t >= 0 and (state[F_FLAGS + t] & FLAG_CORTEGE) != 0


@jit
def alone(state, params, c, p):
    """Does seat p's unit on c stand "alone, without Band" [R "Flagellant"]: no band
    member of p (its Crusaders, Refugees, amenities) orthogonally next to it? Our
    reading: a Pilgrim in a camp is never stranded."""
    if in_camp_of(params, c) >= 0:
        return False
    for d in range(4):
        n = NEIGH[c, d]
        if n < 0:
            continue
        u = state[BOARD + n]
        if u < 0:
            continue
        if (is_crusader(u) and TOKEN_OWNER[u] == p) or is_refugee(state, u) or is_amenity(u):
            return False
    return True


@jit
def cortege_sweep(state, params):
    """Followers leave only by death; every Pilgrim the Cortege adjoins joins it [R "When
    Flagellant Cortege adjoins any Pilgrim, this Pilgrim becomes part of the Cortege"];
    the Flagellant leaves the board when all followers are dead [R "Take the Flagellant
    off the board if all his followers got murdered"]."""
    flag = T.AMENITY_TOKEN0 + FLAGELLANT
    followers = 0
    for t in range(T.N_TOKENS):
        if state[F_FLAGS + t] & FLAG_CORTEGE:
            if state[TOK_LOC + t] < 0:
                state[F_FLAGS + t] &= ~FLAG_CORTEGE
            else:
                followers += 1
    if state[TOK_LOC + flag] < 0:
        return
    grew = True
    while grew:
        grew = False
        for c in range(NC):
            u = state[BOARD + c]
            if u < 0 or not (u == flag or in_cortege(state, u)):
                continue
            for d in range(4):
                n = NEIGH[c, d]
                if n < 0:
                    continue
                v = state[BOARD + n]
                if v >= 0 and is_crusader(v) and T.TOKEN_KIND[v] == PILGRIM_KIND:
                    if not in_cortege(state, v):
                        state[F_FLAGS + v] |= FLAG_CORTEGE
                        followers += 1
                        grew = True
    if followers == 0:
        state[BOARD + state[TOK_LOC + flag]] = -1
        state[TOK_LOC + flag] = LOC_OFF
        state[F_CELL + FLAGELLANT] = NOWHERE


@jit
def flagellant_end_turn(state, params, p):
    """[R "Flagellant"]: "Whenever you finish your Turn with your Pilgrim Unit alone,
    without Band, put the Flagellant token adjacent to it." One token: our reading, it
    is placed only while it is off the board (first such Pilgrim in cell order, on the
    first free cell N E S W of it)."""
    flag = T.AMENITY_TOKEN0 + FLAGELLANT
    if state[TOK_LOC + flag] >= 0:
        return
    for c in range(NC):
        u = state[BOARD + c]
        if u < 0 or not is_crusader(u) or TOKEN_OWNER[u] != p:
            continue
        if T.TOKEN_KIND[u] != PILGRIM_KIND or not alone(state, params, c, p):
            continue
        for d in range(4):
            n = NEIGH[c, d]
            if n >= 0 and free_cell(state, params, n):
                place_token(state, flag, n, T.N)
                state[F_CELL + FLAGELLANT] = n
                state[F_FLAGS + u] |= FLAG_CORTEGE
                cortege_sweep(state, params)
                return


@jit
def may_give(state, params, c, nb, p):
    """A cortege follower "can't pass Coins" [R "Flagellant"]: no GIVE to another unit
    (dropping a Coin or securing it in the camp centre is not passing: our reading)."""
    return not (in_cortege(state, state[BOARD + c]) and state[BOARD + nb] >= 0)


# ------------------------------------------------------------------ hooks
@jit
def classify(state, params, c, d, p, army_ok, code):
    """Stealing under the Field Amenities [R "Cats & Rats", "Dog", "Gallows",
    "Flagellant"]: a Rati seat's Shield edges are Hearts; an offensive Dog lets its
    band rob via any edge; a defensive Dog's band cannot be robbed; a hanged thief on
    the Gallows stops all stealing; a cortege member never strikes."""
    t = state[BOARD + c]
    if in_cortege(state, t):
        return STRIKE_NONE  # [R] "They can't attack"
    if not army_ok or t < 0 or not is_crusader(t) or TOKEN_OWNER[t] != p:
        return code
    tc = NEIGH[c, d]
    if tc < 0:
        return code
    u = state[BOARD + tc]
    if u < 0 or not is_crusader(u) or TOKEN_OWNER[u] == p:
        return code
    if code == STRIKE_NONE:
        if edge_icon(state, t, d) != T.ICON_S:
            return code
        if state[TOK_COINS + u] <= 0 or free_capacity(state, params, t) <= 0:
            return code
        def_icon = edge_icon(state, u, (d + 2) % 4)
        if def_icon == T.ICON_SH and useless_shield(state, params, u):
            code = STRIKE_STEAL  # "Shield edges useless and vulnerable to attack"
        elif amenity_on(params, DOG) and dog_side_joined(state, c) == DOG_OFFENSIVE:
            code = STRIKE_STEAL  # "rob other Crusaders via any edge"
    if code == STRIKE_STEAL:
        if amenity_on(params, DOG) and dog_side_joined(state, tc) == DOG_DEFENSIVE:
            return STRIKE_NONE  # "prevents other Players from robbing this Band"
        if amenity_on(params, GALLOWS) and gallows_hanged(state):
            return STRIKE_NONE  # "no one can steal until his body is buried"
    return code


@jit
def combat(state, params, t, u, icon, def_icon, charge, da, dd):
    """Rats: a Shield edge of a Rati seat's Crusader fights as a Heart; a cortege
    member does not retaliate [R "can't retaliate"]."""
    if def_icon == T.ICON_SH and useless_shield(state, params, u):
        wound_rule = icon == T.ICON_D and params[P_DBL_SHIELD] == DBL_SHIELD_WOUND
        if not wound_rule:
            da, dd = T.CRT[icon, T.ICON_H, 0], T.CRT[icon, T.ICON_H, 1]
    if in_cortege(state, u):
        da = 0
    return da, dd


@jit
def may_place(state, params, c, p):
    """Disgusting Man [R]: "Being set in one of the Tents, this Amenity prevents all Units
    from being spawned or healed in adjacent Tent cells" (orthogonally adjacent cells of
    the same camp)."""
    if not disgusting_man_on(params):
        return True
    m = cell_of(state, DISGUSTING_MAN)
    if m < 0:
        return True
    o = in_camp_of(params, m)
    if o < 0 or in_camp_of(params, c) != o:
        return True
    for d in range(4):
        if NEIGH[m, d] == c:
            return False
    return True


@jit
def begin_turn(state, params, p):
    reveal(state, params)


@jit
def end_turn(state, params, p):
    reveal(state, params)
    if amenity_on(params, CAT) and p < params[P_PLAYERS]:
        rats_end_turn(state, params, p)
    if amenity_on(params, FLAGELLANT):
        cortege_sweep(state, params)
        flagellant_end_turn(state, params, p)


@jit
def after_move(state, params, t, e):
    reveal(state, params)
    if amenity_on(params, FLAGELLANT):
        cortege_sweep(state, params)


@jit
def after_strike(state, params, c, tc, p, code, t, u):
    """Gallows [R]: "If someone commits theft there, the guilty Unit will hang for this
    and go to Purgatory" (with what it carries, dropped where it stood, as any death);
    the Gallows shows the hanged thief until buried."""
    if code == STRIKE_STEAL and amenity_on(params, GALLOWS) and gallows_covers(state, tc):
        if state[TOK_LOC + t] >= 0:
            kill(state, t)
        state[TOK_SIDE + T.AMENITY_TOKEN0 + GALLOWS] = GALLOWS_HANGED
    reveal(state, params)
    if amenity_on(params, FLAGELLANT):
        cortege_sweep(state, params)


@jit
def may_carry(state, params, t, p):
    """May seat p move the Refugee / Field Amenity t with a band this action? [R "Dog"]:
    "The Dog can not be stolen when in defensive mode; you must kill all adjoined Units
    to repossess it": a defensive Dog next to another seat's Crusader stays put for p."""
    if t != T.AMENITY_TOKEN0 + DOG or state[TOK_SIDE + t] != DOG_DEFENSIVE:
        return True
    c = state[TOK_LOC + t]
    for d in range(4):
        n = NEIGH[c, d]
        if n < 0:
            continue
        u = state[BOARD + n]
        if u >= 0 and is_crusader(u) and TOKEN_OWNER[u] != p:
            return False
    return True


# ------------------------------------------------------------------ observation
# Scalars at ``layout.OS_FIELD`` (all public: the Rati card lies next to the camp, the
# pairings and the tokens' sides are on the table).
SF_RATS = 0  # [4] Rati card per relative seat
SF_DOG_OFFENSIVE = 4
SF_GALLOWS_HANGED = 5
SF_HIDDEN = 6  # [8] amenity kind still hidden under its quarter
SF_CORTEGE = 14  # followers of the Flagellant on the board / 8
CORTEGE_SCALE = 8.0


@jit
def observe(state, params, player, out, o):
    """Fill the Field Amenities' scalars for seat ``player`` (values in [0, 1])."""
    players = params[P_PLAYERS]
    for p in range(players):
        r = (p - player + players) % players
        out[o + SF_RATS + r] = 1.0 if rats(state, params, p) else 0.0
    if cell_of(state, DOG) >= 0 and state[TOK_SIDE + T.AMENITY_TOKEN0 + DOG] == DOG_OFFENSIVE:
        out[o + SF_DOG_OFFENSIVE] = 1.0
    out[o + SF_GALLOWS_HANGED] = 1.0 if gallows_hanged(state) else 0.0
    followers = 0
    for i in range(NA):
        out[o + SF_HIDDEN + i] = 1.0 if state[F_UNDER + i] >= 0 else 0.0
    for t in range(T.N_TOKENS):
        if in_cortege(state, t) and state[TOK_LOC + t] >= 0:
            followers += 1
    out[o + SF_CORTEGE] = min(followers / CORTEGE_SCALE, 1.0)


# ------------------------------------------------------------------ invariants
def check_field(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Every violated Field Amenity invariant as a readable string (for the soak)."""
    errors: list[str] = []
    for i in range(NA):
        name = T.AMENITY_KINDS[i][0]
        loc = int(state[TOK_LOC + T.AMENITY_TOKEN0 + i])
        under = int(state[F_UNDER + i])
        switched = amenity_on(params, i) or (i == DISGUSTING_MAN and disgusting_man_on(params))
        if not switched and i != DONKEY and (loc >= 0 or under >= 0):
            errors.append(f"{name} is in play but not switched on")
        if under >= 0 and loc != LOC_OFF:
            errors.append(f"{name} is both hidden under cell {under} and at {loc}")
        if under >= NC:
            errors.append(f"{name} hidden under cell {under} off the board")
    for p in range(int(params[P_PLAYERS]), 4):
        if state[F_RATS + p]:
            errors.append(f"absent seat {p} has the Rati card")
    return errors
