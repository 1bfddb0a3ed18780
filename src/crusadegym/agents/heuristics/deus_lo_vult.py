"""Heuristic for Deus lo Vult: greedy lookahead over a hand-written evaluation.

Strategy: for every legal action of the current stage, step a clone and score the
result with :func:`evaluate`; a stage-1 selection is scored by its best stage-2
follow-up (two plies of the same seat), so "select a unit" and "do something
with it" are judged together. Ties are broken at random. One decision costs a
few hundred compiled step+evaluate calls (about a millisecond).

Evaluation terms, per seat, in "coin" units (weights in :data:`WEIGHTS`, one column
per term in :data:`SEAT_TERMS`):

* secured coins (the score) -- the only thing that wins;
* carried coins, each worth less the farther it is from a cell next to its own camp
  centre (where a GIVE secures it); a carrier cannot move alone [R "Unit Movement"],
  so a friend standing next to it nearer home counts as its way home (plus half a
  step): the band walks the coin home, one leapfrog at a time; within NEAR_HOME steps
  of home each step is worth more (W_NEAR_HOME), more than the band's shape a step
  costs, so the last steps home are taken;
* for the free units (units that can still carry a coin) nearest the loot, as many
  as there are coins left to plunder or pick up: a bonus that shrinks with the
  distance to its nearest *plunder spot* (a cell from which its skull edge faces the
  coin or skull edge of a City Quarter that still holds coins) or loose coin; a
  Saracen standing on the spot adds steps per remaining life point, so wounding and
  killing it pays; standing on a clear spot earns a further "ready" bonus, since the
  strike itself lies beyond the two-ply lookahead;
* every other unit: a smaller "escort" bonus for staying near a quarter with coins,
  a friend carrying a coin or a counted free unit still on its way to the loot
  (escorts keep bands mobile, walk coins home and fetch a lone looter), but
  not on a plunder spot: a unit that stands there without plundering blocks the
  quarter for everyone, and a quarter whose only spot is held for good never empties;
* units on the board (deployed strength) and units in a band (mobile: a lone
  unit cannot move) as small bonuses;
* wounded units and units in Purgatory (killed, including by stampede) as
  penalties;
* rounds played (:data:`W_ROUND` each), since a round's end takes every unit off the
  board and with it the seat's positional terms.

**Every step toward the end of a round must pay** (issue #36: self-play stalled at
the turn cap with the round's last coin unplundered): plundering a coin turns a
free unit's loot and ready bonus (at most ``W_LOOT + W_READY``) into a carried coin
worth at least ``W_CARRIED_MIN``, which is more; only the nearest free units up to the
number of coins left earn the loot bonus, so taking the last coin of a quarter or a
round costs the other units nothing; securing the round's last coin ends the round,
and :data:`W_ROUND` outweighs the positional terms it clears. The numbers are in
``docs/rules/deus_lo_vult.md`` ("Natural game length").

A seat's value is ``tanh((own - best rival) / SCALE)`` (past a margin of TANH_SPAN a
slower approach to UNDECIDED = 1 - DECIDED_MARGIN: :func:`undecided_value`), where "own"
counts every term but a rival counts only its material (coins, units, wounds).
Hurting a rival's material counts as much as helping oneself, but merely blocking
a rival's path with Saracens earns nothing: with symmetric positional terms, two
greedy players end up spending every turn moving Saracens into each other's way.
The same kernel is the MCTS cutoff value.

A decided game (all seats but one out of the race, in any round) is worth at least
1 - DECIDED_MARGIN to its winner, and every undecided position less (UNDECIDED): so
the move that decides the game always pays, however far ahead the seat already is.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import CELL0, STRIKE0
from crusadegym.core.deus_lo_vult.config import (
    P_CAMP_CENTRE,
    P_CAMP_OWNER,
    P_PLAYERS,
    P_ROUNDS,
    P_SEAT_FACING,
    P_TIE,
    TIE_LAST_COIN,
)
from crusadegym.core.deus_lo_vult.pieces import army_points_used, is_quarter
from crusadegym.core.jit import ajit, jit
from crusadegym.core.stack import stack_empty, stack_row

from . import Heuristic

# weight of each evaluation term (a secured coin is the unit of value)
W_SECURED = 10.0
W_CARRIED = 7.5
W_CARRY_DIST = 0.35  # per step between a carrier (or the friend next to it) and its camp
W_NEAR_HOME = 1.5  # extra for a carried coin at home, less per step to NEAR_HOME steps
NEAR_HOME = 3.0  # (a step home must pay more than the band's shape it costs)
W_CARRIED_MIN = 4.0  # a carried coin is worth at least this, however far: > W_LOOT + W_READY
W_LOOT = 1.5  # a free unit standing on a clear plunder spot; less the farther it is
W_READY = 2.0  # extra for standing on a plunder spot (the strike is two plies away)
W_ESCORT = 0.5  # any other unit, next to a quarter with coins or a friend carrying one
LOOT_RANGE = 24.0  # steps at which the loot and escort bonuses reach zero
BLOCK_STEPS = 6.0  # a Saracen on a plunder spot counts as this many steps per life point
BLOCK_OTHER = 8.0  # any other token on a plunder spot
BLOCK_OWN = 2.0  # an own Crusader on a plunder spot (it can step aside)
FRONT_STEPS = 0.5  # a carrier's friend nearer home: its steps home plus this
HEAL_STEPS = 1.0  # a wounded unit's way to the loot: home, this for the heal, then out
LONE_STEPS = 1.0  # a unit alone (it cannot move): its own steps plus a friend's way to it,
# at least this
W_ON_BOARD = 0.5
W_IN_BAND = 0.3
W_WOUNDED = 0.4
W_PURGATORY = 2.5
W_ROUND = 8.0  # each round played: > the positional terms a round's end clears
MUSTER_DEPLOY = 1.0  # steps charged for deploying a reserve unit that can plunder a quarter
MUSTER_WITHDRAW = 1.2  # loot units (x W_LOOT = 1.8 coin units) per unit still to withdraw
# to free Army Points for it: more than a withdrawn unit's on_board + in_band (its own and a
# partner's) + escort terms (at most 1.6), so each withdrawal toward the muster pays
DECIDED_MARGIN = 0.02  # a decided game: each seat's value lies this far below its result
DECIDED_SPAN = 800.0  # ... linear in (own - best rival) over +-this (no tanh: no flat ends)
SCALE = 60.0
TANH_SPAN = 90.0  # margins beyond +-this leave the tanh for a slower approach to UNDECIDED
UNDECIDED = 1.0 - DECIDED_MARGIN  # an undecided game's values stay within +-this
WEIGHTS = {
    "secured": W_SECURED,
    "carried": W_CARRIED,
    "carry_distance": W_CARRY_DIST,
    "carried_min": W_CARRIED_MIN,
    "near_home": W_NEAR_HOME,
    "near_home_steps": NEAR_HOME,
    "loot": W_LOOT,
    "ready": W_READY,
    "escort": W_ESCORT,
    "loot_range": LOOT_RANGE,
    "block_steps": BLOCK_STEPS,
    "block_other": BLOCK_OTHER,
    "block_own": BLOCK_OWN,
    "front_steps": FRONT_STEPS,
    "heal_steps": HEAL_STEPS,
    "lone_steps": LONE_STEPS,
    "on_board": W_ON_BOARD,
    "in_band": W_IN_BAND,
    "wounded": W_WOUNDED,
    "purgatory": W_PURGATORY,
    "round": W_ROUND,
    "muster_deploy": MUSTER_DEPLOY,
    "muster_withdraw": MUSTER_WITHDRAW,
    "decided_margin": DECIDED_MARGIN,
    "decided_span": DECIDED_SPAN,
    "scale": SCALE,
    "tanh_span": TANH_SPAN,
    "undecided": UNDECIDED,
}

SEAT_TERMS = (
    "secured",  # coins in the seat's score
    "carried",  # coins its units carry
    "on_board",  # its units on the board
    "wounded",  # of those, on their weak side
    "purgatory",  # its units in Purgatory
    "carried_home",  # carried coins, each worth less the farther from home (/ W_CARRIED)
    "loot",  # sum over the counted free units of 1 - (steps to the loot) / LOOT_RANGE,
    # plus the muster of a reserve unit for a quarter no unit on the board can plunder
    "ready",  # counted free units standing on a clear plunder spot (or next to a coin)
    "escort",  # sum over other units of 1 - (steps to a quarter or carrier) / LOOT_RANGE
    "in_band",  # units with a friendly neighbour
)
(
    T_SECURED,
    T_CARRIED,
    T_ON_BOARD,
    T_WOUNDED,
    T_PURGATORY,
    T_CARRIED_HOME,
    T_LOOT,
    T_READY,
    T_ESCORT,
    T_IN_BAND,
) = range(len(SEAT_TERMS))
N_SEAT_TERMS = len(SEAT_TERMS)
W_TERMS = np.array(
    [W_SECURED, 0.0, W_ON_BOARD, -W_WOUNDED, -W_PURGATORY, W_CARRIED, W_LOOT, W_READY,
     W_ESCORT, W_IN_BAND],
    np.float64,
)  # fmt: skip
"""The weight of each of :data:`SEAT_TERMS` (``seat_score`` is their dot product)."""
POSITIONAL = np.array([n in ("loot", "ready", "escort", "in_band") for n in SEAT_TERMS])
"""The terms counted for the seat itself only, never for a rival."""

NEIGH = T.NEIGH
SIZE = T.SIZE
N_CELLS = T.N_CELLS
ARMY_SIZE = T.ARMY_SIZE
MAX_UNITS = T.ARMY_SIZE + T.CAMPAIGN_ARMY_SIZE  # a seat's army + its Campaign-only units
MAX_PLAYERS = T.MAX_PLAYERS
MAX_LOOSE = 8  # cells of loose coins the loot assignment looks at
TOKEN_KIND = T.TOKEN_KIND
TOKEN_OWNER = T.TOKEN_OWNER
KIND_EDGES = T.KIND_EDGES
KIND_CAPACITY = T.KIND_CAPACITY
QUARTER_TOKEN0 = T.QUARTER_TOKEN0
KIND_COINS = T.KIND_COINS
QUARTERS_PER_ROUND = len(T.QUARTER_SLOTS)  # City Quarters dealt at a round's start [R]
N_QUARTERS = T.N_QUARTERS  # City Quarter tokens: 4 on the board per Duel round, 12 (Jerusalem)
MAX_SOURCES = N_QUARTERS + MAX_LOOSE  # sources of loot: quarters and cells of loose coins
MAX_SPOTS = 4 * N_QUARTERS  # plunder spots: a side of a quarter each
UNREACHED = 999  # steps to a cell the search for a spot never reaches
AMENITY_TOKEN0 = T.AMENITY_TOKEN0  # Field Amenities: nobody's, moved by any band
SARACEN_TOKEN0 = T.SARACEN_TOKEN0
ICON_S, ICON_C = T.ICON_S, T.ICON_C
N_CRUSADER_KINDS = T.N_CRUSADER_KINDS
KIND_COST = T.KIND_COST
ARMY_POINT_CAP = T.ARMY_POINT_CAP
MAX_KIND_COST = int(T.KIND_COST.max())  # the most Army Points a muster can need to free
WITHDRAW_PLANS = MAX_KIND_COST + 1  # muster_loot's withdrawal costs, indexed by points short


@jit
def _dist(a, b):
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@jit
def _icon(state, t, absdir):
    """Icon of token t's edge pointing in absolute direction ``absdir``."""
    rel = (absdir - state[L.TOK_FACE + t] + 4) % 4
    return KIND_EDGES[TOKEN_KIND[t], state[L.TOK_SIDE + t], rel]


@jit
def _home_distance(params, p, c):
    """Steps from cell c to the nearest cell next to seat p's camp centre."""
    centre = params[P_CAMP_CENTRE + p]
    best = 99
    for d in range(4):
        n = NEIGH[centre, d]
        if n >= 0:
            best = min(best, _dist(c, n))
    return best


@jit
def _blocker_steps(state, t, spot):
    """Extra steps charged for clearing plunder spot ``spot`` before t can stand there."""
    u = state[L.BOARD + spot]
    if u < 0 or u == t:
        return 0.0
    if SARACEN_TOKEN0 <= u < QUARTER_TOKEN0:
        return BLOCK_STEPS * (2 - state[L.TOK_SIDE + u])
    if u < SARACEN_TOKEN0 and TOKEN_OWNER[u] == TOKEN_OWNER[t]:
        return BLOCK_OWN
    return BLOCK_OTHER


@jit
def _loot_distance(state, t, c):
    """Steps from cell c to the nearest plunder spot for token t, blockers included.

    A plunder spot is a cell from which t's skull edge strikes the coin or skull edge
    of a City Quarter that still holds coins. Returns LOOT_RANGE when there is none.
    """
    best = LOOT_RANGE
    side = state[L.TOK_SIDE + t]
    for q in range(QUARTER_TOKEN0, QUARTER_TOKEN0 + N_QUARTERS):
        if state[L.TOK_LOC + q] >= 0 and state[L.TOK_SIDE + q] == 0 and state[L.TOK_COINS + q] > 0:
            best = min(best, _spot_distance(state, t, c, side, q))
    return best


@jit
def _quarter_holds(state, cell):
    """Does a City Quarter still standing as a quarter hold ``cell``? Such a cell is no
    plunder spot of its neighbours: the quarter leaves it only once it is emptied
    [R "City Quarters"]. Issue #36: in the Campaign's Jerusalem ring every corner
    quarter's coin edge faces another quarter of the ring; the heuristic counted those
    cells as spots one step away (a blocker at most), so units stood around the ring
    while the spots a unit can take lay unused."""
    return is_quarter(state, state[L.BOARD + cell])  # an empty cell (-1) is none


@jit
def _spot_distance(state, t, c, side, q):
    """Steps from cell c to the nearest plunder spot of City Quarter q for token t shown
    on ``side`` (0 strong, 1 weak), blockers included; LOOT_RANGE when there is none."""
    best = LOOT_RANGE
    slot = state[L.TOK_LOC + q]
    for d in range(4):  # t stands at `spot` and strikes in direction d onto the slot
        spot = NEIGH[slot, (d + 2) % 4]
        rel = (d - state[L.TOK_FACE + t] + 4) % 4
        if spot < 0 or KIND_EDGES[TOKEN_KIND[t], side, rel] != ICON_S:
            continue
        if _quarter_holds(state, spot):
            continue
        edge = _icon(state, q, (d + 2) % 4)
        if edge == ICON_C or edge == ICON_S:
            best = min(best, _dist(c, spot) + _blocker_steps(state, t, spot))
    return best


@jit
def spot_fields(state, p, spots, field):
    """The plunder spots of the board and the steps to each from every cell.

    A spot is a cell next to a City Quarter holding coins, facing its coin or skull
    edge, and not held by another quarter (:func:`_quarter_holds`); ``spots[k]`` =
    (quarter token, direction a unit there strikes, cell). The steps are a breadth-first
    search from the spot over the cells seat p's units can cross: empty ones and ones its
    own units hold (its bands move aside); Saracens, City Quarters, Refugees and rival
    units stand in the way (``UNREACHED`` where the search never comes). Returns the
    number of spots.
    """
    queue = stack_row(N_CELLS, np.int64)
    n = 0
    for q in range(QUARTER_TOKEN0, QUARTER_TOKEN0 + N_QUARTERS):
        slot = state[L.TOK_LOC + q]
        if slot < 0 or state[L.TOK_SIDE + q] != 0 or state[L.TOK_COINS + q] <= 0:
            continue
        for d in range(4):  # a unit at `spot` strikes in direction d onto the slot
            spot = NEIGH[slot, (d + 2) % 4]
            if spot < 0 or _quarter_holds(state, spot):
                continue
            edge = _icon(state, q, (d + 2) % 4)
            if edge != ICON_C and edge != ICON_S:
                continue
            spots[n, 0], spots[n, 1], spots[n, 2] = q, d, spot
            field[n, :] = UNREACHED
            field[n, spot] = 0
            queue[0] = spot
            head, tail = 0, 1
            while head < tail:
                c = queue[head]
                head += 1
                for e in range(4):
                    nb = NEIGH[c, e]
                    if nb < 0 or field[n, nb] != UNREACHED:
                        continue
                    u = state[L.BOARD + nb]
                    if u >= 0 and u < AMENITY_TOKEN0 and TOKEN_OWNER[u] != p:
                        continue
                    field[n, nb] = field[n, c] + 1
                    queue[tail] = nb
                    tail += 1
            n += 1
    return n


@jit
def _quarter_distance(state, c):
    """Steps from cell c to the nearest City Quarter holding coins (LOOT_RANGE if none)."""
    best = LOOT_RANGE
    for q in range(QUARTER_TOKEN0, QUARTER_TOKEN0 + N_QUARTERS):
        slot = state[L.TOK_LOC + q]
        if slot >= 0 and state[L.TOK_SIDE + q] == 0 and state[L.TOK_COINS + q] > 0:
            best = min(best, float(_dist(c, slot)))
    return best


@jit
def _escort_distance(state, c, carriers, n_carriers):
    """Steps from c to the nearest quarter holding coins or friend in ``carriers`` (units
    carrying a coin or on their way to the loot)."""
    best = _quarter_distance(state, c)
    for i in range(n_carriers):
        if carriers[i] != c:
            best = min(best, float(_dist(c, carriers[i])))
    return best


@jit
def quarter_coins(state):
    """Coins still in City Quarters on the board (to be plundered)."""
    n = 0
    for q in range(QUARTER_TOKEN0, QUARTER_TOKEN0 + N_QUARTERS):
        if state[L.TOK_LOC + q] >= 0 and state[L.TOK_SIDE + q] == 0:
            n += state[L.TOK_COINS + q]
    return n


@jit
def loot_sources(state, where, coins):
    """The coins still to be collected, by source: each City Quarter holding coins
    (``where`` = its token id) and each cell with loose coins (``where`` = -1 - cell),
    at most MAX_SOURCES; ``coins`` = how many each holds. Returns the count."""
    n = 0
    for q in range(QUARTER_TOKEN0, QUARTER_TOKEN0 + N_QUARTERS):
        if state[L.TOK_LOC + q] >= 0 and state[L.TOK_SIDE + q] == 0 and state[L.TOK_COINS + q] > 0:
            where[n] = q
            coins[n] = state[L.TOK_COINS + q]
            n += 1
    for c in range(N_CELLS):
        if state[L.GROUND + c] > 0 and n < MAX_SOURCES:
            where[n] = -1 - c
            coins[n] = state[L.GROUND + c]
            n += 1
    return n


@jit
def _band_labels(locs, n, label):
    """label[i] = the band of unit i (cells ``locs[:n]``): units joined by orthogonal
    steps [R "A band is two or more friendly adjacent units"]."""
    for i in range(n):
        label[i] = i
    changed = True
    while changed:
        changed = False
        for i in range(n):
            for j in range(i + 1, n):
                if label[i] != label[j] and _dist(locs[i], locs[j]) == 1:
                    low = min(label[i], label[j])
                    high = max(label[i], label[j])
                    for k in range(n):
                        if label[k] == high:
                            label[k] = low
                    changed = True


@jit
def _front(values, label, n, i):
    """The smallest ``values[j]`` over the units j != i of unit i's band (UNREACHED if
    it is alone): how far its band reaches toward a goal. A unit moves by being placed
    next to another unit of its band [R "Unit Movement"], so a band gets a unit to a
    cell in as many moves as its nearest other member is steps from it (at least 1)."""
    best = UNREACHED
    for j in range(n):
        if j != i and label[j] == label[i] and values[j] < best:
            best = values[j]
    return best


@jit
def unit_terms(state, params, p, a0, a1, b0, b1, out, o, spots, field, n_spots):
    """Add seat p's :data:`SEAT_TERMS` over its tokens ``a0:a1`` and ``b0:b1`` (the
    army, and the Campaign's War Engines and Heroes) to ``out[o:o + N_SEAT_TERMS]``;
    ``spots``, ``field``, ``n_spots``: the board's plunder spots (:func:`spot_fields`).

    Steps are counted in moves of a band: a unit reaches a cell in as many moves as
    the nearest other unit of its band is steps from that cell (:func:`_front`); a
    lone unit cannot move and counts its own steps plus the steps the nearest other unit
    needs to join it (at least LONE_STEPS), so bringing a friend to a lone unit that can
    plunder pays step by step (issue #36: a Foot Knight alone in its camp, the only unit
    that could plunder the game's last coin, waited for good). The loot bonus goes
    to free units by a greedy assignment: the best (unit, source) pair first, each
    unit once, each source (a quarter, a cell of loose coins) to at most as many units
    as it holds coins, so collecting a coin never costs the other units their bonus.
    Units left over count as escorts. Once no coin is left to collect and every carrier
    is next to the camp centre (only gives are left), escorts are pulled home as well as
    to the carriers, so securing a coin does not cost them their bonus (issue #36, Duel
    self-play seed 1032: each seat held a carried coin next to its camp centre for good,
    since giving it cleared more escort bonus than a secured coin adds over a carried one
    at home). While a carrier is away, escorts go to it: a lone carrier cannot move
    until a friend joins it.
    """
    out[o + T_SECURED] += state[L.SCORE + p]
    where = stack_row(MAX_SOURCES, np.int64)
    left = stack_row(MAX_SOURCES, np.int64)
    n_src = loot_sources(state, where, left)
    units = stack_row(MAX_UNITS, np.int64)  # this seat's tokens on the board
    locs = stack_row(MAX_UNITS, np.int64)
    label = stack_row(MAX_UNITS, np.int64)
    reach = stack_row(MAX_UNITS, np.int64)  # scratch: each unit's steps to one goal
    n = 0
    for i in range((a1 - a0) + (b1 - b0)):
        t = a0 + i if i < a1 - a0 else b0 + i - (a1 - a0)
        loc = state[L.TOK_LOC + t]
        if loc == L.LOC_PURGATORY:
            out[o + T_PURGATORY] += 1.0
        elif loc >= 0:
            units[n] = t
            locs[n] = loc
            n += 1
    _band_labels(locs, n, label)
    carriers = stack_row(MAX_UNITS, np.int64)
    n_carriers = 0
    carriers_away = 0  # carriers not yet next to the camp centre
    home = stack_row(MAX_UNITS, np.int64)
    for i in range(n):
        home[i] = _home_distance(params, p, locs[i])
    for i in range(n):
        t, loc = units[i], locs[i]
        out[o + T_ON_BOARD] += 1.0
        out[o + T_WOUNDED] += state[L.TOK_SIDE + t]
        if _front(home, label, n, i) < UNREACHED:  # it has a friend next to it
            out[o + T_IN_BAND] += 1.0
        coins = state[L.TOK_COINS + t]
        if coins > 0:
            out[o + T_CARRIED] += coins
            way = float(home[i])
            if way > 0.0:
                front = _front(home, label, n, i)
                way = min(way, max(1.0, float(front)) + FRONT_STEPS)
            worth = max(W_CARRIED - W_CARRY_DIST * way, W_CARRIED_MIN)
            worth += W_NEAR_HOME * max(0.0, 1.0 - way / NEAR_HOME)
            out[o + T_CARRIED_HOME] += coins * worth / W_CARRIED
            carriers[n_carriers] = loc
            n_carriers += 1
            if home[i] > 0:
                carriers_away += 1
    # steps[i, s]: moves until unit i can collect a coin of source s
    steps = stack_empty(MAX_UNITS, MAX_SOURCES, np.float64)
    capable = stack_row(MAX_SOURCES, np.uint8)  # some unit on the board can plunder source s
    for s in range(n_src):
        capable[s] = 1 if where[s] < 0 else 0  # loose coins: any unit with room
    for i in range(n):
        for s in range(n_src):
            steps[i, s] = LOOT_RANGE
    for s in range(n_src):
        source = where[s]
        if source < 0:  # loose coins: plain steps
            g = -1 - source
            for i in range(n):
                reach[i] = max(_dist(locs[i], g) - 1, 0)
            for i in range(n):
                t = units[i]
                if KIND_CAPACITY[TOKEN_KIND[t], state[L.TOK_SIDE + t]] > state[L.TOK_COINS + t]:
                    d = _band_steps(reach, label, locs, n, i) + _blocker_steps(state, t, g)
                    steps[i, s] = min(steps[i, s], d)
            continue
        for k in range(n_spots):
            if spots[k, 0] != source:
                continue
            for i in range(n):
                reach[i] = field[k, locs[i]]
            for i in range(n):
                t = units[i]
                side = state[L.TOK_SIDE + t]
                coins = state[L.TOK_COINS + t]
                rel = (spots[k, 1] - state[L.TOK_FACE + t] + 4) % 4
                if KIND_EDGES[TOKEN_KIND[t], side, rel] == ICON_S:
                    capable[s] = 1
                if KIND_EDGES[TOKEN_KIND[t], 0, rel] == ICON_S:
                    capable[s] = 1
                blocker = _blocker_steps(state, t, spots[k, 2])
                if KIND_CAPACITY[TOKEN_KIND[t], side] > coins:
                    if KIND_EDGES[TOKEN_KIND[t], side, rel] == ICON_S:
                        d = _band_steps(reach, label, locs, n, i) + blocker
                        steps[i, s] = min(steps[i, s], d)
                if side == 1 and KIND_CAPACITY[TOKEN_KIND[t], 0] > coins:
                    if KIND_EDGES[TOKEN_KIND[t], 0, rel] == ICON_S:  # home, heal, back
                        back = UNREACHED
                        centre = params[P_CAMP_CENTRE + p]
                        for d in range(4):
                            h = NEIGH[centre, d]
                            if h >= 0:
                                back = min(back, field[k, h])
                        d = home[i] + HEAL_STEPS + back + blocker
                        steps[i, s] = min(steps[i, s], d)
    assigned = stack_row(MAX_UNITS, np.uint8)
    assigned[:n] = 0
    while True:  # greedy assignment: the best remaining (unit, source) pair first
        best, bu, bs = -1.0, -1, -1
        for u in range(n):
            if assigned[u] == 0:
                for s in range(n_src):
                    if left[s] > 0 and steps[u, s] < LOOT_RANGE:
                        v = W_LOOT * (1.0 - steps[u, s] / LOOT_RANGE)
                        if steps[u, s] == 0.0:
                            v += W_READY
                        if v > best:
                            best, bu, bs = v, u, s
        if bu < 0:
            break
        assigned[bu] = 1
        if steps[bu, bs] > 0.0 and n_carriers < MAX_UNITS:  # a looter on its way: escort it
            carriers[n_carriers] = locs[bu]
            n_carriers += 1
        left[bs] -= 1
        out[o + T_LOOT] += 1.0 - steps[bu, bs] / LOOT_RANGE
        if steps[bu, bs] == 0.0:
            out[o + T_READY] += 1.0
    out[o + T_LOOT] += muster_loot(state, params, p, units, locs, n, where, capable, n_src,
                                   spots, field, n_spots)  # fmt: skip
    for u in range(n):  # escorts: every unit neither assigned nor carrying, off the spots
        if assigned[u] == 0 and state[L.TOK_COINS + units[u]] == 0:
            on_spot = False
            for k in range(n_spots):
                if spots[k, 2] == locs[u]:
                    on_spot = True
            if not on_spot:
                dist = _escort_distance(state, locs[u], carriers, n_carriers)
                if n_src == 0 and carriers_away == 0:  # only coins to give are left
                    dist = min(dist, float(home[u]))
                out[o + T_ESCORT] += 1.0 - dist / LOOT_RANGE


@jit
def _camp_steps(params, p, c):
    """Steps from cell c into seat p's camp, where a unit may be withdrawn [R "Unit
    Deployment and Withdrawal": "you must return them to their Camp"]."""
    if params[P_CAMP_OWNER + c] == p:
        return 0
    return _home_distance(params, p, c)


@jit
def muster_loot(state, params, p, units, locs, n, where, capable, n_src, spots, field, n_spots):
    """The loot term (in loot units, may be negative) of mustering a reserve unit for a
    City Quarter that no unit of seat p on the board can plunder (``capable``): the best
    (quarter, kind in reserve) whose skull edge, facing as the seat's tokens do, strikes
    one of the quarter's spots, valued as a looter ``MUSTER_DEPLOY`` + its steps from the
    camp away, less ``MUSTER_WITHDRAW`` per unit to withdraw to free the Army Points for
    it [R "Unit Types / Army Points": 13 at most, Purgatory included] and the steps
    those units need to reach the camp (:func:`_withdraw_cost`). 0 when no quarter is
    out of reach of every unit or no reserve kind can plunder one.

    Issue #36: the last coins of a round lay in a quarter only a kind in reserve could
    plunder (the seats' facings are fixed), with the army at its 13 points; no seat
    withdrew and redeployed, and the round never ended (Duel, MCTS vs heuristic, 3 of 20
    games at the cap). Each withdrawal frees points worth more than the unit's terms, and
    each step of a unit toward the camp, or of the new unit toward the spot, pays."""
    facing = params[P_SEAT_FACING + p]
    used = army_points_used(state, p)
    camp = stack_row(N_CELLS, np.int64)  # seat p's camp cells a unit may be deployed on
    n_camp = 0
    for c in range(N_CELLS):
        if params[P_CAMP_OWNER + c] == p and params[P_CAMP_CENTRE + p] != c:
            camp[n_camp] = c
            n_camp += 1
    in_reserve = stack_row(N_CRUSADER_KINDS, np.uint8)
    for kind in range(N_CRUSADER_KINDS):
        in_reserve[kind] = 1 if _in_reserve(state, p, kind) else 0
    withdraw = stack_row(WITHDRAW_PLANS, np.float64)  # freeing 1.. points, each once
    withdraw[:] = -1.0
    best = 0.0
    found = False
    for s in range(n_src):
        if capable[s] == 1:
            continue
        for k in range(n_spots):
            if spots[k, 0] != where[s]:
                continue
            walk = UNREACHED
            for i in range(n_camp):
                walk = min(walk, field[k, camp[i]])
            if walk >= LOOT_RANGE:
                continue
            rel = (spots[k, 1] - facing + 4) % 4
            for kind in range(N_CRUSADER_KINDS):
                if KIND_EDGES[kind, 0, rel] != ICON_S or KIND_CAPACITY[kind, 0] == 0:
                    continue
                if in_reserve[kind] == 0:
                    continue
                value = 1.0 - (MUSTER_DEPLOY + walk) / LOOT_RANGE
                short = used + KIND_COST[kind] - ARMY_POINT_CAP
                if short > 0:
                    if withdraw[short] < 0.0:
                        withdraw[short] = _withdraw_cost(state, params, p, units, locs, n, short)
                    value -= withdraw[short]
                if not found or value > best:
                    best, found = value, True
    return best


@jit
def _in_reserve(state, p, kind):
    """Has seat p a unit of ``kind`` in its reserve (deployable, points permitting)?"""
    for t in range(p * ARMY_SIZE, (p + 1) * ARMY_SIZE):
        if TOKEN_KIND[t] == kind and state[L.TOK_LOC + t] == L.LOC_RESERVE:
            return True
    return False


@jit
def _withdraw_cost(state, params, p, units, locs, n, short):
    """In loot units, the cheapest way to free ``short`` Army Points (at most 3, the
    dearest kind): ``MUSTER_WITHDRAW`` per unit withdrawn plus its steps to the camp /
    LOOT_RANGE, over one, two or three army units carrying nothing (carriers give first).
    The cheapest plan, not a greedy one, so a unit that becomes free (a carrier that
    gives) never makes the muster dearer. ``(MUSTER_WITHDRAW + 1)`` per point when no
    plan frees enough."""
    cost = stack_row(MAX_UNITS, np.int64)
    way = stack_row(MAX_UNITS, np.float64)
    m = 0
    for u in range(n):
        t = units[u]
        if p * ARMY_SIZE <= t < (p + 1) * ARMY_SIZE and state[L.TOK_COINS + t] == 0:
            cost[m] = KIND_COST[TOKEN_KIND[t]]
            way[m] = _camp_steps(params, p, locs[u]) / LOOT_RANGE
            m += 1
    best = (MUSTER_WITHDRAW + 1.0) * short
    for a in range(m):
        if cost[a] >= short:
            best = min(best, MUSTER_WITHDRAW + way[a])
        for b in range(a + 1, m):
            if cost[a] + cost[b] >= short:
                best = min(best, 2.0 * MUSTER_WITHDRAW + way[a] + way[b])
            for c in range(b + 1, m):  # three units free 3 points at least
                best = min(best, 3.0 * MUSTER_WITHDRAW + way[a] + way[b] + way[c])
    return best


@jit
def _band_steps(reach, label, locs, n, i):
    """Moves until unit i stands on a goal ``reach[j]`` steps from each unit j: 0 if it
    is there, else as far as its band reaches (:func:`_front`, at least 1 move); a
    lone unit its own steps plus the nearest other unit's steps to stand next to it (a
    friend must join it first; at least LONE_STEPS; LOOT_RANGE when it has no friend)."""
    if reach[i] == 0:
        return 0.0
    front = _front(reach, label, n, i)
    if front >= UNREACHED:
        if reach[i] >= UNREACHED:
            return LOOT_RANGE
        join = LOOT_RANGE
        for j in range(n):
            if j != i:
                join = min(join, float(_dist(locs[i], locs[j]) - 1))
        return reach[i] + max(LONE_STEPS, join)
    return float(max(1, front))


@jit
def seat_terms(state, params, p, out, o):
    """Add seat p's :data:`SEAT_TERMS` (its army's) to ``out[o:o + N_SEAT_TERMS]``."""
    spots = stack_empty(MAX_SPOTS, 3, np.int64)
    field = stack_empty(MAX_SPOTS, N_CELLS, np.int64)
    n_spots = spot_fields(state, p, spots, field)
    army_terms(state, params, p, out, o, spots, field, n_spots)


@jit
def army_terms(state, params, p, out, o, spots, field, n_spots):
    """:func:`seat_terms` with the board's plunder spots already found."""
    unit_terms(state, params, p, p * ARMY_SIZE, (p + 1) * ARMY_SIZE, 0, 0, out, o, spots,
               field, n_spots)  # fmt: skip


@jit
def weigh(terms, positional):
    """``W_TERMS . terms``; without the :data:`POSITIONAL` terms unless ``positional``."""
    score = 0.0
    for i in range(N_SEAT_TERMS):
        if positional or not POSITIONAL[i]:
            score += W_TERMS[i] * terms[i]
    return score


@jit
def seat_score(state, params, p, positional):
    """Raw evaluation of seat p in coin units (see the module docstring), rounds aside.

    ``positional=False`` keeps only the material terms (coins, units, wounds).
    """
    spots = stack_empty(MAX_SPOTS, 3, np.int64)
    field = stack_empty(MAX_SPOTS, N_CELLS, np.int64)
    n_spots = spot_fields(state, p, spots, field)
    return seat_score_on(state, params, p, positional, spots, field, n_spots)


@jit
def seat_score_on(state, params, p, positional, spots, field, n_spots):
    """:func:`seat_score` with the board's plunder spots already found."""
    terms = stack_row(N_SEAT_TERMS, np.float64)
    terms[:] = 0.0
    army_terms(state, params, p, terms, 0, spots, field, n_spots)
    return weigh(terms, positional)


@jit
def rounds_played(state, params):
    """Rounds of the game already played (the Duel's round counter)."""
    return float(state[L.ROUND])


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: :func:`undecided_value` of (own full score + rounds
    played x W_ROUND - best rival material); a decided game: :func:`decided_result`."""
    players = params[P_PLAYERS]
    material = np.zeros(players, np.float64)
    full = np.zeros(players, np.float64)
    progress = W_ROUND * rounds_played(state, params)
    spots = stack_empty(MAX_SPOTS, 3, np.int64)
    field = stack_empty(MAX_SPOTS, N_CELLS, np.int64)
    terms = stack_row(N_SEAT_TERMS, np.float64)
    for p in range(players):
        n_spots = spot_fields(state, p, spots, field)
        terms[:] = 0.0
        army_terms(state, params, p, terms, 0, spots, field, n_spots)
        material[p] = weigh(terms, False)
        full[p] = weigh(terms, True) + progress
    versus_best_rival(material, full, out)
    decided_result(state, params, material, full, out)


@jit
def future_coins(state, params):
    """An upper bound on the coins the rounds after this one can still deal: the richest
    ``QUARTERS_PER_ROUND`` quarters a round among those not dealt yet. Public: which
    quarters are left is known (the dealt ones are on the table), their order is not, and
    the bound does not read it."""
    rounds_left = params[P_ROUNDS] - 1 - state[L.ROUND]
    if rounds_left <= 0:
        return 0
    coins = stack_row(N_QUARTERS, np.int64)
    n = 0
    for i in range(state[L.QNEXT], N_QUARTERS):
        coins[n] = KIND_COINS[TOKEN_KIND[QUARTER_TOKEN0 + state[L.QORDER + i]]]
        n += 1
    total = 0
    for _ in range(min(n, rounds_left * QUARTERS_PER_ROUND)):  # the richest, one by one
        best = 0
        for i in range(1, n):
            if coins[i] > coins[best]:
                best = i
        total += coins[best]
        coins[best] = -1
    return total


@jit
def decided_result(state, params, material, full, out):
    """A seat that cannot finish first any more has lost [R "The player with the most
    coins at the end of 3 rounds wins"]: even with every coin still to be secured this
    round and every coin the later rounds can deal (:func:`future_coins`) it stays below
    the best other seat, or, in the last round once no coin is left to plunder, only ties
    one that wins the tie as the last plunderer [R "last coin is the king"]:
    :func:`score_decided`. Not only in the last round: a seat too far behind in round 2
    held the round's last coin forever (issue #36, Duel self-play seed 1005: securing it
    started a last round already lost, any unfinished round was worth more)."""
    players = params[P_PLAYERS]
    last_round = state[L.ROUND] == params[P_ROUNDS] - 1
    left = state[L.ROUND_LEFT] + future_coins(state, params)
    last = state[L.LAST_PLUNDER]
    settled = (
        last_round and params[P_TIE] == TIE_LAST_COIN and last >= 0 and quarter_coins(state) == 0
    )
    lost = stack_row(MAX_PLAYERS, np.uint8)
    for q in range(players):
        top = -1
        for r in range(players):
            if r != q:
                top = max(top, state[L.SCORE + r])
        best = state[L.SCORE + q] + left  # q secures every coin still to be secured
        tie_lost = settled and last != q and state[L.SCORE + last] == top
        lost[q] = 1 if best < top or (best == top and tie_lost) else 0
    score_decided(lost, players, material, full, out)


@jit
def score_decided(lost, players, material, full, out):
    """Seats with ``lost[p]`` set cannot win any more: each is worth just under -1. Once
    all seats but one have lost, the game is decided and that one is worth just under
    +1. "Just under": by at most DECIDED_MARGIN, the less the better the seat's
    evaluation stands (linear in its margin over DECIDED_SPAN, so a far lead still tells
    moves apart). The end of the game is then better for a seat that has lost than going
    on, so it secures the last coins too; without this it would hold a coin forever,
    since any unfinished game is worth more than a lost one. (So a lost seat's value lies
    a little below -1: the one place this evaluation leaves [-1, 1].)"""
    n_lost, winner = 0, -1
    for q in range(players):
        n_lost += lost[q]
        if lost[q] == 0:
            winner = q
    if n_lost == 0:
        return
    for p in range(players):
        if lost[p] == 0 and n_lost < players - 1:
            continue  # still in the race
        rival = best_rival_material(material, p)
        standing = min(max((full[p] - rival + DECIDED_SPAN) / (2.0 * DECIDED_SPAN), 0.0), 1.0)
        result = 1.0 if p == winner and lost[p] == 0 else -1.0
        out[p] = result - DECIDED_MARGIN * (1.0 - standing)


@jit
def undecided_value(margin):
    """A seat's value for ``margin`` = own full score - the best rival's material, while
    the game is undecided: ``tanh(margin / SCALE)`` up to ``TANH_SPAN``, then on toward
    ``UNDECIDED`` (= the lowest value of a decided game's winner, 1 - DECIDED_MARGIN) as
    ``UNDECIDED - a / (b + excess)``, with the slope of the tanh where they join. So a seat
    far ahead (a game against a random seat: 20 coins up, a margin of 250) still tells
    its moves apart (tanh(250 / 60) is 1 - 5e-4, with steps below the 1e-6 random
    jitter the agent then added), and deciding the game is always worth more than any
    undecided position (issue #36: 21 coins to 0, the leader never secured the coin that
    ended round 2 and decided the game, worth 1 - DECIDED_MARGIN x (1 - standing) < tanh)."""
    x = abs(margin)
    if x <= TANH_SPAN:
        return np.tanh(margin / SCALE)
    join = np.tanh(TANH_SPAN / SCALE)
    gap = UNDECIDED - join
    b = gap * SCALE / (1.0 - join * join)  # equal slopes at the joint
    value = UNDECIDED - gap * b / (b + x - TANH_SPAN)
    return value if margin > 0 else -value


@jit
def versus_best_rival(material, full, out):
    """out[p] = :func:`undecided_value` of (full[p] - the best rival's material)."""
    for p in range(material.shape[0]):
        out[p] = undecided_value(full[p] - best_rival_material(material, p))


@jit
def best_rival_material(material, p):
    """The most material among the seats other than ``p``."""
    rival = -np.inf
    for q in range(material.shape[0]):
        if q != p and material[q] > rival:
            rival = material[q]
    return rival


@jit
def extend(state, params, out):
    """Stage 1 (nothing selected, not the Saracen pick): CELL ids get a second ply."""
    out[:] = 0
    if state[L.SEL] < 0 and state[L.PHASE] != L.PH_PICK:
        out[CELL0:STRIKE0] = 1


HEURISTIC = Heuristic(
    game="deus_lo_vult",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate,
    extend=extend,
    # values move in steps of ~0.002: small exploration, evaluation at the leaf, and a
    # strong pull toward the greedy lookahead (plain search is too defensive; see docs)
    # past the tanh (about nine coins ahead or behind) moves differ by ~3e-5, far below the
    # exploration term: MCTS plays the greedy lookahead there (issue #36)
    mcts_defaults={
        "iterations": 100,
        "c_uct": 0.005,
        "rollout_depth": 0,
        "prior_visits": 20.0,
        "greedy_beyond": float(np.tanh(TANH_SPAN / SCALE)),
    },
    decided_at=UNDECIDED,  # decided_result / score_decided leave the undecided band
)
