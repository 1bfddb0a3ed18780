"""Bands, movement destinations and the Stampede [R "Unit Movement"].

* A band is two or more orthogonally adjacent friendly units; only a band member
  moves, placed next to another member of its band.
* Stampede: a unit "surrounded by 3 friendly units" (a T) is trampled. A Refugee
  is a friend of the Crusader faction it is attached to; attached to two factions it
  counts for the first of them in play order from the seat to move ("counted to the
  first/next Player"). A placement tramples every unit that stands in a T after it
  and did not before it (whoever moved, whichever band moved it).
"""

from __future__ import annotations

import numpy as np

from ..jit import inline_jit, jit
from ..stack import stack_row
from . import tables as T
from .campaign.adjoin import add_commanded, commands, controller
from .config import P_PLAYERS, P_STAMPEDE, STAMPEDE_CHIVALROUS
from .layout import AP, BOARD, CUR
from .pieces import (
    AMENITY_TOKEN0,
    CAMPAIGN_UNIT0,
    N_CELLS,
    N_TOKENS,
    NEIGH,
    NO_SEAT,
    SARACEN_TOKEN0,
    TOKEN_OWNER,
    camp_owner,
    is_camp_centre,
    is_crusader,
    is_refugee,
    is_rival_camp,
)
from .purgatory import kill

STAMPEDE_FRIENDS = 3  # [R] "surrounded by 3 friendly units"; we read "3 or more"
LAST_ACTION_POINT = 1
STAMPEDE_REACH = 2
"""How far a placement's effect on the Stampede reaches: :func:`trampled_at` on cell c
reads c, its neighbours (who is a friend) and their neighbours (whose faction a
Refugee there counts for), so lifting or putting a token on a cell can change the T
of units at most two orthogonal steps away. Keep in step with :func:`trampled_at`."""


def _reach_cells() -> np.ndarray:
    """REACH[c] = the cells within STAMPEDE_REACH steps of c, ascending, -1 padded."""
    size = T.SIZE
    width = 2 * STAMPEDE_REACH * (STAMPEDE_REACH + 1) + 1
    out = np.full((N_CELLS, width), -1, np.int64)
    for c in range(N_CELLS):
        near = [
            e
            for e in range(N_CELLS)
            if abs(e // size - c // size) + abs(e % size - c % size) <= STAMPEDE_REACH
        ]
        out[c, : len(near)] = near
    return out


REACH = _reach_cells()
BAND_COLS = N_CELLS + 1  # a band table's row: one entry per cell and a sentinel
SIZE = T.SIZE


ARMY_BAND, SARACEN_BAND = 1, 2  # bits of :func:`band_kinds`


def _band_bits() -> np.ndarray:
    """BAND_BITS[p, t + 1] = the band kinds of token t for seat p, a City token on its
    quarter side (index 0: an empty cell). [R "Unit Movement"]: army bands hold the
    seat's Crusaders and Refugees; Saracen bands hold Saracens, City Quarters ("count as
    stationary Saracen units") and Refugees; Field Amenities move with any band [R Part
    2] (Campaign). A City token on its Refugee side adds ARMY_BAND (:func:`band_kinds`)."""
    bits = np.zeros((T.MAX_PLAYERS, N_TOKENS + 1), np.int64)
    for t in range(N_TOKENS):
        if SARACEN_TOKEN0 <= t < CAMPAIGN_UNIT0:  # Saracens and City tokens
            bits[:, t + 1] = SARACEN_BAND
        elif t >= AMENITY_TOKEN0:
            bits[:, t + 1] = ARMY_BAND | SARACEN_BAND
        else:  # a seat's Crusader (Duel tokens, War Engines, Heroes)
            bits[TOKEN_OWNER[t], t + 1] = ARMY_BAND
    return bits


BAND_BITS = _band_bits()


@jit
def band_kinds(state, t, p):
    """The band kinds token t (-1: none) belongs to for seat p, as ARMY_BAND |
    SARACEN_BAND bits (the one statement of band membership, read off
    :data:`BAND_BITS`; :func:`band_member` reads one kind). In a Campaign, the units p
    commands this action (Eleanor's adjoined units) are army band members too:
    :func:`fill_kinds` adds them (``campaign/adjoin.add_commanded``),
    so this per-cell test stays the Duel's."""
    if is_refugee(state, t):
        return ARMY_BAND | SARACEN_BAND
    return BAND_BITS[p, t + 1]


@jit
def band_member(state, t, p, saracen):
    """Is token t a band member for seat p's army (saracen=False) or for the Saracens?

    Army bands: p's Crusaders and Refugees. Saracen bands: Saracens, City Quarters
    ("count as stationary Saracen units") and Refugees [R].
    """
    return (band_kinds(state, t, p) & (SARACEN_BAND if saracen else ARMY_BAND)) != 0


@jit
def label_bands(state, p, saracen, bands):
    """Label every band for seat p's army (or the Saracens) in one pass.

    ``bands`` is an int64[3, 145] scratch: row 0 = band id per cell (-1 for
    non-members), row 1 = member cells grouped band by band, row 2 = start offset of
    each band in row 1 (with a sentinel after the last). Returns the number of bands.
    The units p commands in a Campaign (adjoined) count in its army (:func:`fill_kinds`).
    """
    kinds = stack_row(N_CELLS, np.int64)
    fill_kinds(state, p, kinds)
    return label_kind(kinds, SARACEN_BAND if saracen else ARMY_BAND, bands)


@inline_jit
def label_band_of(state, p, saracen, c0, bands):
    """:func:`label_bands` for the one band that holds the unit on c0, as band 0 (every
    other cell -1): all that a stage-2 mask or a move reads (:func:`add_moves` looks
    only at the selected unit's band). Its members are the same set as in
    :func:`label_bands`, grown breadth first from c0 and read off the board as it goes
    (no per-cell table: the rest of the board is never looked at). Returns the number
    of bands labelled (0 if the unit on c0 is no member). With adjoined units commanded
    (Campaign) it labels every band, as :func:`label_bands` does."""
    if not saracen and commands(state, p):
        return label_bands(state, p, saracen, bands)
    label = bands[0]
    order = bands[1]
    start = bands[2]
    label[:] = -1
    start[0] = 0
    if not band_member(state, state[BOARD + c0], p, saracen):
        start[1] = 0
        return 0
    label[c0] = 0
    order[0] = c0
    head, top = 0, 1
    while head < top:
        c = order[head]
        head += 1
        for d in range(4):
            n = NEIGH[c, d]
            if n >= 0 and label[n] < 0 and band_member(state, state[BOARD + n], p, saracen):
                label[n] = 0
                order[top] = n
                top += 1
    start[1] = top
    return 1


@inline_jit
def label_kind(kinds, bit, bands):
    """:func:`label_bands` from per-cell :func:`band_kinds` bits (the same labels, in the
    same order)."""
    label = bands[0]
    order = bands[1]
    start = bands[2]
    label[:] = -1
    n_bands, top = 0, 0
    for c0 in range(N_CELLS):
        if label[c0] >= 0 or (kinds[c0] & bit) == 0:
            continue
        start[n_bands] = top
        label[c0] = n_bands
        order[top] = c0
        head = top
        top += 1
        while head < top:
            c = order[head]
            head += 1
            for d in range(4):
                n = NEIGH[c, d]
                if n >= 0 and label[n] < 0 and (kinds[n] & bit) != 0:
                    label[n] = n_bands
                    order[top] = n
                    top += 1
        n_bands += 1
    start[n_bands] = top
    return n_bands


@inline_jit
def fill_kinds(state, p, kinds):
    """``kinds[c]`` = :func:`band_kinds` of every cell for seat p, with the adjoined
    units p commands in a Campaign (``campaign/adjoin.add_commanded``) in its army."""
    for c in range(N_CELLS):
        kinds[c] = band_kinds(state, state[BOARD + c], p)
    if commands(state, p):
        add_commanded(state, kinds, ARMY_BAND)


@inline_jit
def saracen_band_destinations(state, params, bands, n_bands, good, count):
    """Which Saracen band members have a cell that a Saracen of their band may be
    placed on (Duel, unforgiving Stampede), for a stage-1 mask to settle every
    Saracen's "has a move" at once; ``bands`` from
    :func:`label_kind`.

    ``good[m]`` = 1 if the member on m has an empty neighbour that :func:`add_moves`
    accepts for a moving Saracen (not a camp centre; with the last Action Point, not
    in a Crusader camp), else 0; ``count[k]`` = how many members of band k have one.
    A Saracen on c then has a move iff ``count[k] - good[c] > 0`` (another member has).
    """
    last_point = state[AP] <= LAST_ACTION_POINT
    for k in range(n_bands):
        lo, hi = bands[2, k], bands[2, k + 1]
        total = 0
        for i in range(lo, hi):
            m = bands[1, i]
            g = 0
            if hi - lo >= 2:
                for d in range(4):
                    e = NEIGH[m, d]
                    if e < 0 or state[BOARD + e] >= 0 or is_camp_centre(params, e):
                        continue
                    if last_point and camp_owner(params, e) >= 0:
                        continue  # a rival camp for a Saracen: any Crusader camp
                    g = 1
                    break
            good[m] = g
            total += g
        count[k] = total


# ------------------------------------------------------------------ stampede
@jit
def refugee_faction(state, params, c):
    """The seat whose band the Refugee on c is attached to for the Stampede, or -1.

    Attached = a Crusader of that seat stands orthogonally next to it. Attached to
    several factions, it counts for the first in play order from the seat to move [R].
    """
    players = params[P_PLAYERS]
    cur = state[CUR]
    best, best_rank = NO_SEAT, players
    for d in range(4):
        n = NEIGH[c, d]
        if n < 0:
            continue
        v = state[BOARD + n]
        if v >= 0 and is_crusader(v):
            owner = controller(state, v)
            rank = (owner - cur + players) % players
            if rank < best_rank:
                best, best_rank = owner, rank
    return best


@jit
def stampede_friend(state, params, n, seat):
    """Is the unit on cell n a friend of ``seat`` for the Stampede?"""
    v = state[BOARD + n]
    if v < 0:
        return False
    if is_crusader(v):
        return controller(state, v) == seat
    if is_refugee(state, v):
        return refugee_faction(state, params, n) == seat
    return False


@inline_jit
def trampled_at(state, params, c):
    """Does the unit on c stand in a T as the board stands now? Never Saracens or
    City Quarters ("The stampede rule does not apply to Saracens")."""
    u = state[BOARD + c]
    if u < 0:
        return False
    if is_crusader(u):
        seat = controller(state, u)
    elif is_refugee(state, u):
        seat = refugee_faction(state, params, c)
        if seat < 0:
            return False
    else:
        return False
    friends = 0
    for d in range(4):
        n = NEIGH[c, d]
        if n >= 0 and stampede_friend(state, params, n, seat):
            friends += 1
    return friends >= STAMPEDE_FRIENDS


@jit
def stampede_scan(state, params, out):
    """out[c] = the token standing in a T on c, else -1, for every cell; the count."""
    k = 0
    for c in range(N_CELLS):
        out[c] = -1
        if state[BOARD + c] >= 0 and trampled_at(state, params, c):
            out[c] = state[BOARD + c]
            k += 1
    return k


@jit
def new_victims(state, params, before, victims):
    """Cells whose unit stands in a T now but did not (on that cell) in ``before``."""
    k = 0
    for c in range(N_CELLS):
        u = state[BOARD + c]
        if u >= 0 and before[c] != u and trampled_at(state, params, c):
            victims[k] = c
            k += 1
    return k


@jit
def within_reach(a, b):
    """Are cells a and b at most STAMPEDE_REACH orthogonal steps apart?"""
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) <= STAMPEDE_REACH


@jit
def reach_cell(src, dst, j, i):
    """The i-th cell that a placement from src (-1: none) onto dst can affect, in two
    runs (j=0 around src, j=1 around dst without the cells already in run 0); -1 when
    the entry is not one (skip it), -2 when run j has no more cells."""
    centre = src if j == 0 else dst
    if centre < 0:
        return -2
    c = REACH[centre, i] if i < REACH.shape[1] else -2
    if c < 0:
        return -2
    if j == 1 and src >= 0 and within_reach(c, src):
        return -1
    return c


@inline_jit
def stampede_scan_near(state, params, src, dst, out):
    """:func:`stampede_scan` of the cells a placement from src (-1: none) onto dst can
    affect (see :data:`STAMPEDE_REACH`); every other entry of ``out`` is -1."""
    out[:N_CELLS] = -1
    k = 0
    for j in range(2):
        for i in range(REACH.shape[1] + 1):
            c = reach_cell(src, dst, j, i)
            if c == -2:
                break
            if c >= 0 and state[BOARD + c] >= 0 and trampled_at(state, params, c):
                out[c] = state[BOARD + c]
                k += 1
    return k


@inline_jit
def new_victims_near(state, params, src, dst, before, victims):
    """:func:`new_victims` after a placement from src (-1: none) onto dst, looking only
    where it can have changed anything: the same cells, in the same (cell) order.
    ``before`` must hold the T of those cells before the placement (from
    :func:`stampede_scan` or :func:`stampede_scan_near` with the same src and dst)."""
    k = 0
    for j in range(2):
        for i in range(REACH.shape[1] + 1):
            c = reach_cell(src, dst, j, i)
            if c == -2:
                break
            if c < 0:
                continue
            u = state[BOARD + c]
            if u >= 0 and before[c] != u and trampled_at(state, params, c):
                victims[k] = c
                k += 1
    for i in range(1, k):  # cell order, as new_victims (few victims: insertion sort)
        v = victims[i]
        j = i - 1
        while j >= 0 and victims[j] > v:
            victims[j + 1] = victims[j]
            j -= 1
        victims[j + 1] = v
    return k


@jit
def placement_tramples(state, params, src, dst, t, before):
    """Would putting token t on dst (lifting it from src, or -1) trample anyone?

    ``before`` is :func:`stampede_scan` of the board as it stands.
    """
    if src >= 0:
        state[BOARD + src] = -1
    state[BOARD + dst] = t
    victims = stack_row(N_CELLS, np.int64)
    k = new_victims_near(state, params, src, dst, before, victims)
    state[BOARD + dst] = -1
    if src >= 0:
        state[BOARD + src] = t
    return k > 0


@jit
def chivalrous(params):
    return params[P_STAMPEDE] == STAMPEDE_CHIVALROUS


# ------------------------------------------------------------------ moves
@inline_jit
def open_destination(state, params, c, e, t, out, first_only, last_point, polite, before):
    """May the unit t on c be placed on cell e (-1: off the board) [R "Unit Movement"]:
    empty, not a camp centre, not yet marked in ``out`` (unless ``first_only``), not a
    rival camp with the last Action Point, and with the chivalrous Stampede (``polite``,
    ``before`` from :func:`stampede_scan`) not a placement that tramples."""
    if e < 0 or state[BOARD + e] >= 0 or is_camp_centre(params, e):
        return False
    if not first_only and out[e]:
        return False
    if last_point and is_rival_camp(params, t, e):
        return False
    return not (polite and placement_tramples(state, params, c, e, t, before))


@inline_jit
def add_moves(state, params, c, saracen, out, first_only, bands):
    """Mark legal destinations of the unit on c moving with its army/Saracen band.

    [R] "You move a unit by placing it adjacent to any other unit in the band": any
    empty cell (not a camp centre) next to a band member other than the unit itself.
    Not offered: a move into a rival camp with the last Action Point (the unit
    "cannot stay there when their turn ends"), and with the chivalrous Stampede a
    move that tramples. ``bands`` comes from :func:`label_bands` for the same side.
    Returns how many destinations were newly marked in ``out`` (cell ids).
    """
    k = bands[0, c]
    if k < 0:
        return 0
    lo, hi = bands[2, k], bands[2, k + 1]
    if hi - lo < 2:
        return 0
    t = state[BOARD + c]
    polite = chivalrous(params)
    before = stack_row(N_CELLS, np.int64)  # read only with the chivalrous Stampede
    if polite:
        stampede_scan(state, params, before)
    last_point = state[AP] <= LAST_ACTION_POINT
    count = 0
    for i in range(lo, hi):
        m = bands[1, i]
        if m == c:
            continue
        for d in range(4):
            e = NEIGH[m, d]
            if not open_destination(state, params, c, e, t, out, first_only, last_point,
                                    polite, before):  # fmt: skip
                continue
            if first_only:
                return 1  # existence only: ``out`` is neither read nor written
            out[e] = 1
            count += 1
    return count


@jit
def refugee_movable(state, params, c):
    """A Refugee inside a seat's camp stays there [R "Plunder, Camps and Refugees"]."""
    return camp_owner(params, c) < 0


@inline_jit
def apply_stampede(state, params, src, dst, before):
    """Trample every unit newly left in a T by a placement from src (-1: none) onto
    dst [R "Unit Movement"].

    ``before`` is :func:`stampede_scan_near` (or :func:`stampede_scan`) of the board
    before the placement. Victims are found on the board as it stands, then removed in
    cell order: Crusaders to Purgatory, Refugees off the board ("no other unit gets
    punished").
    """
    victims = stack_row(N_CELLS, np.int64)
    k = new_victims_near(state, params, src, dst, before, victims)
    for i in range(k):
        kill(state, state[BOARD + victims[i]])
    return k
