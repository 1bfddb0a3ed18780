"""A plain-Python reference of the whole Deus step: setup, legal actions, every step.

Written from the rulebook (``shared/rulebooks/deus.txt``; sections cited as
[R setup n], [R A.n] for "Build a Building", [R temples n], [R attack] for "Attacking a
Barbarian Village", [R B.n] for "Making an Offering", [R end] for "End of Game and
Scoring") and the readings of ``docs/rules/deus.md``, in plain Python: lists, sets and
small functions, one per rule. It imports no kernel of the engine: only the data tables
(``tables.py``), the slot numbers of the layout (``layout.py``), the action ids
(``actions.py``) and the option slots of ``params`` (``config.py``). The dice are a
plain-Python copy of the generator of ``core/rng.py`` (:class:`Dice`), so both sides
shuffle and draw alike.

It works on the engine's own flat layout, held as a Python list of ints (one int per
slot), so that a differential test compares the two states slot for slot
(:func:`differences` names the differing slots). Sub-decisions are the engine's action
ids (``actions.py``): a build is ``BUILD d``, a region, then one ``pay resource`` /
``pay gold`` per open payment choice, then the choices of the activated cards; an
offering is ``OFFER d`` (the top card), more ``OFFER d`` (cards under it), ``done``,
then the god's choices. The bookkeeping slots of these sub-decisions (the pending card,
the pending choice and its magnitudes, the activation cursor) are kept as the layout
defines them, leftovers included, since the comparison covers every slot.

Slow on purpose: a few thousand steps per second.
"""

from __future__ import annotations

import numpy as np

from ..reference_dice import Dice as GameDice
from . import actions as A
from . import layout as L
from . import tables as T
from .config import (
    ESCAPE_ALWAYS,
    MINERVA_ALWAYS,
    P_EDGE,
    P_ESCAPE,
    P_MAX_TURNS,
    P_MINERVA,
    P_ON_BOARD,
    P_PAYMENT,
    P_PLAYERS,
    P_SPACING,
    P_TIE,
    P_TILES,
    PAY_RESOURCES_FIRST,
    SPACING_STRICT,
    TIE_LEFTOVERS,
)


# ------------------------------------------------------------------ the dice (core/rng.py)
class Dice(GameDice):
    """The game's dice (``core/reference_dice.py``) in this game's ``RNG`` slots."""

    def __init__(self, state) -> None:
        super().__init__(state, L.RNG)


# ------------------------------------------------------------------ the data, as lists
NEIGH = [[int(n) for n in row] for row in T.NEIGH]
HEX_DIST = [[int(d) for d in row] for row in T.HEX_DIST]
CARD_DESIGN = [int(d) for d in T.CARD_DESIGN]
COLOUR = [int(c) for c in T.DESIGN_COLOUR]
COST = [[int(x) for x in row] for row in T.DESIGN_COST]  # wheat, wood, clay, stone, gold
EFFECT = [int(e) for e in T.DESIGN_EFFECT]
MAG_A = [int(x) for x in T.DESIGN_A]
MAG_B = [int(x) for x in T.DESIGN_B]
MAG_C = [int(x) for x in T.DESIGN_C]
TILE_FACES = [[int(t) for t in face] for face in T.TILE_FACES]

MILITARY_BIT = 1 << T.MILITARY
PRODUCTION_BIT = 1 << T.PRODUCTION
TEMPLE_BIT = 1 << T.TEMPLE
EVERYONE = L.ALL_SEATS
GOD_OF_COLOUR = {
    T.CIVIL: "vesta",
    T.SCIENTIFIC: "minerva",
    T.MARITIME: "neptune",
    T.MILITARY: "mars",
    T.PRODUCTION: "ceres",
    T.TEMPLE: "jupiter",
}

# pending-choice kinds the offering opens (the card effects use their template ids)
CERES_CHOICE = 40  # [R B.3] Ceres: a resource of your choice per card
MINERVA_CHOICE = 41  # [R B.3-4] Minerva: "You can draw" one more card, per card
REGION_CHOICES = (T.E_PRODUCE_ONE, T.E_STEAL_VILLAGE, T.E_MOVE_ARMIES)
PIECE_CHOICES = (T.E_PIECES, T.E_PIECES_PER_CITY)
UP_TO_CHOICES = (T.E_BUY, T.E_SELL_GOLD, T.E_SELL_VP, T.E_MOVE_ARMIES, MINERVA_CHOICE)


def seat_block(p: int) -> int:
    """First slot of seat p's player block."""
    return L.PLAYER + p * L.PLAYER_SIZE


def column(p: int, colour: int) -> int:
    """Bottom slot of seat p's column of ``colour``."""
    return L.COLS + (p * T.N_COLOURS + colour) * T.COLUMN_CAP


def column_size(p: int, colour: int) -> int:
    """Slot of the card count of seat p's column of ``colour``."""
    return L.COL_N + p * T.N_COLOURS + colour


def bits(x: int) -> int:
    return bin(x).count("1") if x > 0 else 0


# ------------------------------------------------------------------ slot names
def _slot_names() -> list[str]:
    names = [""] * L.STATE_SIZE
    names[L.RNG], names[L.RNG + 1] = "RNG.lo", "RNG.hi"
    scalars = (
        "CUR PHASE STEP TURN OVER TRUNC END_TRIGGER FINAL_LEFT PEND_CARD PEND_REGION OFFER_N "
        "RESUME EFF_KIND EFF_LEFT EFF_A EFF_B EFF_C EFF_SEL ACT_COLOUR ACT_POS TEMPLES_LEFT "
        "DECK_N DISC_N MINERVA_EXTRA ESCAPED"
    ).split()
    for name in scalars:
        names[getattr(L, name)] = name
    for k, what in enumerate(T.RESOURCE_NAMES + ("gold",)):
        names[L.PAY + k] = f"PAY[{what}]"
    for k, what in enumerate(T.RESOURCE_NAMES):
        names[L.SUPPLY + k] = f"SUPPLY[{what}]"
    fields = {L.GOLD: "GOLD", L.VP: "VP", L.FIRST: "FIRST", L.HAND_N: "HAND_N"}
    for k in range(T.N_RESOURCES):
        fields[L.RES + k] = f"RES[{T.RESOURCE_NAMES[k]}]"
    for t in range(T.N_TYPES):
        fields[L.ON_BOARD + t] = f"ON_BOARD[{T.TYPE_NAMES[t]}]"
        fields[L.IN_SUPPLY + t] = f"IN_SUPPLY[{T.TYPE_NAMES[t]}]"
    for p in range(T.MAX_PLAYERS):
        for i in range(L.PLAYER_SIZE):
            names[seat_block(p) + i] = f"seat{p}." + fields.get(i, f"spare{i}")
    for block in ("OWNER", "PIECES", "TERRAIN", "VILLAGE_VP", "ATTACKED"):
        for r in range(T.N_REGIONS):
            names[getattr(L, block) + r] = f"{block}[{A.region_name(r)}]"
    for block in ("CARD_LOC", "KNOWN", "DECK", "DISC"):
        for i in range(T.N_CARDS):
            names[getattr(L, block) + i] = f"{block}[{i}]"
    for p in range(T.MAX_PLAYERS):
        for c in range(T.N_COLOURS):
            names[column_size(p, c)] = f"COL_N[seat{p},{T.COLOUR_NAMES[c]}]"
            for i in range(T.COLUMN_CAP):
                names[column(p, c) + i] = f"COLS[seat{p},{T.COLOUR_NAMES[c]},{i}]"
    for i, name in enumerate(names):
        names[i] = name or f"slot{i}"
    return names


SLOT_NAMES = _slot_names()


def differences(engine: np.ndarray | list[int], reference: list[int]) -> list[str]:
    """``name: engine != reference`` for every slot where the two states differ."""
    got = engine.tolist() if isinstance(engine, np.ndarray) else list(engine)
    return [
        f"{SLOT_NAMES[i]}: {x} != {y}"
        for i, (x, y) in enumerate(zip(got, reference, strict=True))
        if x != y
    ]


# ------------------------------------------------------------------ the rules
class Reference:
    """The Deus rules for one config (``params`` from ``make_params``), in plain Python.

    A position is a list of ``STATE_SIZE`` ints in the layout of ``layout.py``:
    :meth:`new_game` makes one, :meth:`legal` lists the legal action ids,
    :meth:`step` plays one in place and returns the rewards.
    """

    def __init__(self, params: np.ndarray):
        p = [int(x) for x in params]
        self.players = p[P_PLAYERS]
        self.tiles = p[P_TILES]
        self.escape_always = p[P_ESCAPE] == ESCAPE_ALWAYS
        self.pay_automatically = p[P_PAYMENT] == PAY_RESOURCES_FIRST
        self.tie_leftovers = p[P_TIE] == TIE_LEFTOVERS
        self.strict_spacing = p[P_SPACING] == SPACING_STRICT
        self.minerva_always = p[P_MINERVA] == MINERVA_ALWAYS
        self.max_turns = p[P_MAX_TURNS]
        self.board = [r for r in range(T.N_REGIONS) if p[P_ON_BOARD + r]]
        self.on = set(self.board)
        self.edge = {r for r in self.board if p[P_EDGE + r]}
        self.around = {r: [n for n in NEIGH[r] if n in self.on] for r in range(T.N_REGIONS)}

    # ============================================================== setup [R setup 1-7]
    def new_game(self, seed: int) -> list[int]:
        """A fresh game from ``seed``; seat 0 is the First Player [R setup 7]."""
        s = [0] * L.STATE_SIZE
        dice = Dice(s)
        dice.seed(seed & 0x7FFFFFFFFFFFFFFF)
        for _ in range(10_000):  # redraw until no two villages touch [R setup 1]
            if self.lay_tiles(s, dice):
                break
        for r in range(T.N_REGIONS):
            s[L.OWNER + r] = -1
            if r in self.on and s[L.TERRAIN + r] == T.VILLAGE:
                # [R setup 2] as many VP as adjacent regions
                s[L.VILLAGE_VP + r] = len(self.around[r])
        s[L.TEMPLES_LEFT] = self.tiles  # [R setup 3] one temple per continent map
        for k in range(T.N_RESOURCES):
            # [R setup 3] 5 of each per player, [R setup 5] 1 of each already handed out
            s[L.SUPPLY + k] = (T.RESOURCE_PER_PLAYER - 1) * self.players
        for p in range(self.players):
            b = seat_block(p)
            s[b + L.GOLD] = T.START_GOLD  # [R setup 5]
            s[b + L.VP] = T.START_VP
            s[b + L.FIRST] = -1
            for k in range(T.N_RESOURCES):
                s[b + L.RES + k] = 1
            for t in range(T.N_TYPES):  # [R setup 4] 2 on the board, 3 in the supply
                s[b + L.ON_BOARD + t] = T.START_ON_BOARD
                s[b + L.IN_SUPPLY + t] = T.PIECES_PER_TYPE - T.START_ON_BOARD
        self.deal(s, dice)
        s[L.CUR] = 0
        s[L.PHASE] = L.PH_MAIN
        s[L.PEND_CARD] = s[L.PEND_REGION] = s[L.EFF_SEL] = s[L.ACT_COLOUR] = -1
        return s

    def lay_tiles(self, s: list[int], dice: Dice) -> bool:
        """[R setup 1] Random maps, sides and orientations on the tile slots; False if two
        villages touch. Reading [I]: the slots of ``tables.TILE_CENTRES``."""
        order = list(range(T.N_PHYSICAL_TILES))
        dice.shuffle(order)
        for r in range(T.N_REGIONS):
            s[L.TERRAIN + r] = -1
        for slot in range(self.tiles):
            face = TILE_FACES[2 * order[slot] + dice.below(2)]
            turn = dice.below(6)
            centre = slot * T.REGIONS_PER_TILE
            s[L.TERRAIN + centre] = face[0]
            for k in range(6):
                s[L.TERRAIN + centre + 1 + (k + turn) % 6] = face[1 + k]
        villages = [r for r in self.board if s[L.TERRAIN + r] == T.VILLAGE]
        return not any(s[L.TERRAIN + n] == T.VILLAGE for v in villages for n in self.around[v])

    def deal(self, s: list[int], dice: Dice) -> None:
        """[R setup 6] Shuffle the 96 cards, 5 to each player, the rest is the draw pile."""
        deck = list(range(T.N_CARDS))
        dice.shuffle(deck)
        s[L.DECK : L.DECK + T.N_CARDS] = deck
        s[L.DISC : L.DISC + T.N_CARDS] = [-1] * T.N_CARDS
        s[L.DECK_N] = T.N_CARDS
        for p in range(self.players):
            self.draw(s, p, T.HAND_START)

    # ============================================================== cards
    def hand(self, s: list[int], seat: int) -> list[int]:
        """The cards in ``seat``'s hand, by id."""
        return [c for c in range(T.N_CARDS) if s[L.CARD_LOC + c] == L.LOC_HAND0 + seat]

    def take_from_hand(self, s: list[int], seat: int, design: int) -> int:
        """A card of ``design`` leaves the hand (copies are alike: the lowest id)."""
        c = min(c for c in self.hand(s, seat) if CARD_DESIGN[c] == design)
        s[seat_block(seat) + L.HAND_N] -= 1
        return c

    def draw(self, s: list[int], seat: int, n: int) -> None:
        """Draw up to n cards, never above 10 in hand [R B.4 "Important"]; an empty draw
        pile is remade from the shuffled discards [R A "Important"]."""
        b = seat_block(seat)
        for _ in range(n):
            if s[b + L.HAND_N] >= T.HAND_LIMIT:
                return
            if s[L.DECK_N] == 0:
                self.reshuffle(s)
                if s[L.DECK_N] == 0:
                    return  # no card left anywhere
            s[L.DECK_N] -= 1
            top = L.DECK + s[L.DECK_N]
            c, s[top] = s[top], -1
            s[L.CARD_LOC + c] = L.LOC_HAND0 + seat
            s[L.KNOWN + c] = 1 << seat  # only its holder knows it
            s[b + L.HAND_N] += 1

    def reshuffle(self, s: list[int]) -> None:
        """The discard pile, shuffled, becomes the (empty) draw pile; nobody knows it."""
        pile = s[L.DISC : L.DISC + s[L.DISC_N]]
        for c in pile:
            s[L.CARD_LOC + c] = L.LOC_DECK
            s[L.KNOWN + c] = 0
        s[L.DISC : L.DISC + len(pile)] = [-1] * len(pile)
        s[L.DISC_N] = 0
        Dice(s).shuffle(pile)
        s[L.DECK : L.DECK + len(pile)] = pile
        s[L.DECK_N] = len(pile)

    def to_discard(self, s: list[int], c: int, known: int) -> None:
        s[L.DISC + s[L.DISC_N]] = c
        s[L.DISC_N] += 1
        s[L.CARD_LOC + c] = L.LOC_DISCARD
        s[L.KNOWN + c] = known

    def to_column(self, s: list[int], seat: int, c: int) -> None:
        """[R A.2] The card goes on top of the column of its colour, face up."""
        colour = COLOUR[CARD_DESIGN[c]]
        n = s[column_size(seat, colour)]
        s[column(seat, colour) + n] = c
        s[column_size(seat, colour)] = n + 1
        s[L.CARD_LOC + c] = L.LOC_COLUMN0 + seat
        s[L.KNOWN + c] = EVERYONE

    # ============================================================== the map
    def buildings(self, s: list[int], r: int) -> int:
        """Pieces in region r; the (neutral) temple counts (docs/rules/deus.md)."""
        return bits(s[L.PIECES + r])

    def has_army(self, s: list[int], r: int) -> bool:
        return bool(s[L.PIECES + r] & MILITARY_BIT)

    def mine(self, s: list[int], seat: int) -> list[int]:
        """The regions ``seat`` controls."""
        return [r for r in self.board if s[L.OWNER + r] == seat]

    def army_next_to(self, s: list[int], seat: int, r: int) -> bool:
        return any(s[L.OWNER + n] == seat and self.has_army(s, n) for n in self.around[r])

    def fits(self, s: list[int], r: int, ptype: int) -> bool:
        """[R A.4] Never in a barbarian village; ships only at sea, the rest only on land."""
        terrain = s[L.TERRAIN + r]
        return terrain != T.VILLAGE and (terrain == T.SEA) == (ptype == T.MARITIME)

    def spaced(self, s: list[int], seat: int, r: int) -> bool:
        """[R A.4] "separated by at least two empty regions" from every rival's first
        building: hex distance >= 3."""
        for q in range(self.players):
            first = s[seat_block(q) + L.FIRST]
            if q != seat and first >= 0 and HEX_DIST[r][first] < T.FIRST_SPACING:
                return False
        return True

    def placements(self, s: list[int], seat: int, ptype: int) -> dict[int, bool]:
        """{region: costs 3 VP} of every legal place for a ``ptype`` piece [R A.4]."""
        empty = [r for r in self.board if s[L.OWNER + r] < 0 and self.fits(s, r, ptype)]
        if s[seat_block(seat) + L.FIRST] < 0:
            # the first building: an empty edge region, spaced from the rivals' firsts;
            # option first_spacing="if_possible" drops the spacing when nothing is spaced
            edges = [r for r in empty if r in self.edge]
            spaced = [r for r in edges if self.spaced(s, seat, r)]
            normal = set(spaced if spaced or self.strict_spacing else edges)
        else:
            # a region you control without that type, or an empty one next to yours
            own = set(self.mine(s, seat))
            normal = {r for r in own if self.fits(s, r, ptype) and not s[L.PIECES + r] >> ptype & 1}
            normal |= {r for r in empty if any(n in own for n in self.around[r])}
        out = {r: False for r in normal}
        # "If blocked, ... an empty region on the edge of the board by paying 3 VPs"
        # (option escape="always": also when not blocked); VP never go negative
        blocked = not normal or self.escape_always
        if blocked and s[seat_block(seat) + L.VP] >= T.ESCAPE_VP:
            for r in empty:
                if r in self.edge and r not in out:
                    out[r] = True
        return out

    def temple_regions(self, s: list[int], seat: int) -> list[int]:
        """[R temples 4] One of your regions without a temple; reading: on land."""
        return [
            r
            for r in self.mine(s, seat)
            if not s[L.PIECES + r] & TEMPLE_BIT and s[L.TERRAIN + r] != T.SEA
        ]

    def attack_villages(self, s: list[int]) -> int:
        """[R attack] Every village whose adjacent regions are all occupied, with at least
        one army among them, falls: most armies, then most buildings, win its VP; still
        tied, the VP are divided, rounded down (the remainder is lost). Returns how many
        villages fell."""
        fallen = 0
        for v in self.board:
            if s[L.TERRAIN + v] != T.VILLAGE or s[L.ATTACKED + v]:
                continue
            around = self.around[v]
            if any(s[L.OWNER + n] < 0 for n in around):
                continue
            armies = [0] * self.players
            builds = [0] * self.players
            for n in around:
                o = s[L.OWNER + n]
                armies[o] += int(self.has_army(s, n))
                builds[o] += self.buildings(s, n)
            if not any(armies):
                continue
            tied = [p for p in range(self.players) if armies[p] == max(armies)]
            most = max(builds[p] for p in tied)
            tied = [p for p in tied if builds[p] == most]
            for p in tied:
                s[seat_block(p) + L.VP] += s[L.VILLAGE_VP + v] // len(tied)
            s[L.VILLAGE_VP + v] = 0
            s[L.ATTACKED + v] = 1
            fallen += 1
        return fallen

    def all_villages_fallen(self, s: list[int]) -> bool:
        return all(s[L.ATTACKED + v] for v in self.board if s[L.TERRAIN + v] == T.VILLAGE)

    # ============================================================== A. build
    def gold_needed(self, s: list[int], seat: int, cost: list[int]) -> int:
        """[R A.3] The least gold that pays ``cost``: its gold, and 4 gold for each
        resource unit the seat lacks."""
        b = seat_block(seat)
        short = sum(max(0, cost[k] - s[b + L.RES + k]) for k in range(T.N_RESOURCES))
        return cost[4] + T.GOLD_PER_RESOURCE * short

    def temple_allowed(self, s: list[int], seat: int) -> bool:
        """[R temples 2] The n-th temple needs n-1 cards of each of the 5 colours."""
        built = s[column_size(seat, T.TEMPLE)]
        return all(s[column_size(seat, c)] >= built for c in range(T.N_TYPES))

    def can_build(self, s: list[int], seat: int, design: int) -> bool:
        """[R A.1-4, temples 2-4] Whether a card of ``design`` in hand can be built."""
        b = seat_block(seat)
        if self.gold_needed(s, seat, COST[design]) > s[b + L.GOLD]:
            return False
        colour = COLOUR[design]
        if colour == T.TEMPLE:
            if not self.temple_allowed(s, seat):
                return False
            # "If the supply of Temples is empty, you can still play the Temple card";
            # while it holds one, the piece needs a region (docs/rules/deus.md)
            return s[L.TEMPLES_LEFT] == 0 or bool(self.temple_regions(s, seat))
        if s[b + L.ON_BOARD + colour] <= 0:  # [R A.1] "No piece, no construction!"
            return False
        return bool(self.placements(s, seat, colour))

    def start_build(self, s: list[int], seat: int, design: int) -> None:
        """[R A.2] The card goes on its column; next the region (a temple's, if a temple
        piece is left [R temples 4]), else straight to the cost."""
        c = self.take_from_hand(s, seat, design)
        self.to_column(s, seat, c)
        s[L.PEND_CARD] = c
        if COLOUR[design] != T.TEMPLE:
            s[L.PHASE] = L.PH_PLACE
        elif s[L.TEMPLES_LEFT] > 0:
            s[L.PHASE] = L.PH_TEMPLE
        else:
            self.start_payment(s, seat)

    def place_building(self, s: list[int], seat: int, r: int) -> None:
        """[R A.4] The piece leaves the player board for region r (3 VP if it escapes a
        block); then any village it surrounds is attacked [R attack]."""
        ptype = COLOUR[CARD_DESIGN[s[L.PEND_CARD]]]
        escape = self.placements(s, seat, ptype)[r]
        b = seat_block(seat)
        s[L.PEND_REGION] = r
        if escape:
            s[b + L.VP] -= T.ESCAPE_VP
        s[L.OWNER + r] = seat
        s[L.PIECES + r] |= 1 << ptype
        s[b + L.ON_BOARD + ptype] -= 1
        if s[b + L.FIRST] < 0:
            s[b + L.FIRST] = r
        s[L.ESCAPED] = int(escape)
        self.attack_villages(s)
        self.start_payment(s, seat)

    def place_temple(self, s: list[int], seat: int, r: int) -> None:
        """[R temples 4] A temple from the general supply into region r."""
        s[L.PEND_REGION] = r
        s[L.PIECES + r] |= TEMPLE_BIT
        s[L.TEMPLES_LEFT] -= 1
        self.start_payment(s, seat)

    # -- paying [R A.3]: gold first, then each resource unit with the resource or 4 gold
    def next_unit(self, s: list[int], seat: int) -> tuple[int, bool, bool]:
        """(the first resource still owed, payable with the resource, payable with 4
        gold leaving enough for the rest), or (-1, False, False) once all is paid."""
        b = seat_block(seat)
        owed = s[L.PAY : L.PAY + 5]
        for k in range(T.N_RESOURCES):
            if owed[k] > 0:
                rest = owed.copy()
                rest[k] -= 1
                with_gold = s[b + L.GOLD] - T.GOLD_PER_RESOURCE >= self.gold_needed(s, seat, rest)
                return k, s[b + L.RES + k] > 0, with_gold
        return -1, False, False

    def pay_unit(self, s: list[int], seat: int, k: int, with_gold: bool) -> None:
        b = seat_block(seat)
        s[L.PAY + k] -= 1
        if with_gold:
            s[b + L.GOLD] -= T.GOLD_PER_RESOURCE
        else:
            s[b + L.RES + k] -= 1
            s[L.SUPPLY + k] += 1  # spent resources go back to the general supply

    def pay_forced(self, s: list[int], seat: int) -> bool:
        """Pay what leaves no choice; True once the cost is paid. A unit payable both ways
        is the seat's choice (option payment="resources_first": the resource)."""
        b = seat_block(seat)
        s[b + L.GOLD] -= s[L.PAY_GOLD]
        s[L.PAY_GOLD] = 0
        while True:
            k, by_resource, by_gold = self.next_unit(s, seat)
            if k < 0:
                return True
            if by_resource and by_gold and not self.pay_automatically:
                return False
            self.pay_unit(s, seat, k, with_gold=not by_resource)

    def start_payment(self, s: list[int], seat: int) -> None:
        s[L.PAY : L.PAY + 5] = COST[CARD_DESIGN[s[L.PEND_CARD]]]
        if self.pay_forced(s, seat):
            self.after_payment(s, seat)
        else:
            s[L.PHASE] = L.PH_PAY

    def pay_choice(self, s: list[int], seat: int, with_gold: bool) -> None:
        k, _, _ = self.next_unit(s, seat)
        self.pay_unit(s, seat, k, with_gold)
        if self.pay_forced(s, seat):
            self.after_payment(s, seat)

    def after_payment(self, s: list[int], seat: int) -> None:
        """[R A.5] A standard building activates its whole column; a temple is done."""
        colour = COLOUR[CARD_DESIGN[s[L.PEND_CARD]]]
        if colour == T.TEMPLE:
            self.end_action(s)
            return
        s[L.ACT_COLOUR] = colour
        s[L.ACT_POS] = 0
        self.activate(s, seat)

    # -- the column [R A.5]: "activating them from bottom to top"
    def activate(self, s: list[int], seat: int) -> None:
        """Resolve the column's cards from ACT_POS upward; a card with a choice pauses it
        (the choice resumes it); at the top the action ends."""
        colour = s[L.ACT_COLOUR]
        while s[L.ACT_POS] < s[column_size(seat, colour)]:
            card = s[column(seat, colour) + s[L.ACT_POS]]
            s[L.ACT_POS] += 1
            if self.card_effect(s, seat, CARD_DESIGN[card]):
                return
        s[L.ACT_COLOUR] = -1
        s[L.ACT_POS] = 0
        self.end_action(s)

    # ============================================================== card effects
    def count_terrain(self, s: list[int], seat: int, terrain: int) -> int:
        return sum(1 for r in self.mine(s, seat) if s[L.TERRAIN + r] == terrain)

    def cities(self, s: list[int], seat: int, size: int) -> int:
        """Your regions holding at least ``size`` buildings (a temple counts)."""
        return sum(1 for r in self.mine(s, seat) if self.buildings(s, r) >= size)

    def count_type(self, s: list[int], seat: int, ptype: int) -> int:
        return sum(1 for r in self.mine(s, seat) if s[L.PIECES + r] >> ptype & 1)

    def buildings_on(self, s: list[int], seat: int, terrain: int) -> int:
        return sum(self.buildings(s, r) for r in self.mine(s, seat) if s[L.TERRAIN + r] == terrain)

    def producers(self, s: list[int], seat: int) -> list[int]:
        """Your regions with a production building on a resource terrain."""
        return [
            r
            for r in self.mine(s, seat)
            if s[L.PIECES + r] & PRODUCTION_BIT and s[L.TERRAIN + r] < T.N_RESOURCES
        ]

    def live_villages(self, s: list[int]) -> list[int]:
        return [v for v in self.board if s[L.TERRAIN + v] == T.VILLAGE and not s[L.ATTACKED + v]]

    def rival_next_to_army(self, s: list[int], seat: int, rival: int) -> bool:
        return any(self.army_next_to(s, seat, r) for r in self.mine(s, rival))

    def gain_resource(self, s: list[int], seat: int, k: int, n: int) -> None:
        """Up to n of resource k: "Exhausted resources cannot be gained" [R setup 3]."""
        got = min(n, s[L.SUPPLY + k])
        s[L.SUPPLY + k] -= got
        s[seat_block(seat) + L.RES + k] += got

    def gain_piece(self, s: list[int], seat: int, ptype: int) -> None:
        """A piece from the personal supply to the player board, if one is left
        (reading of [R B.3] "from the General Supply", docs/rules/deus.md)."""
        b = seat_block(seat)
        if s[b + L.IN_SUPPLY + ptype] > 0:
            s[b + L.IN_SUPPLY + ptype] -= 1
            s[b + L.ON_BOARD + ptype] += 1

    def steal(self, s: list[int], seat: int, n: int, field: int) -> None:
        """n of ``field`` (VP or gold) from each rival with a region next to your army."""
        for q in range(self.players):
            if q != seat and self.rival_next_to_army(s, seat, q):
                got = min(n, s[seat_block(q) + field])
                s[seat_block(q) + field] -= got
                s[seat_block(seat) + field] += got

    def card_effect(self, s: list[int], seat: int, design: int) -> bool:
        """One card of the column (templates ``tables.E_*``); True if it opened a choice."""
        e, a, b, c = EFFECT[design], MAG_A[design], MAG_B[design], MAG_C[design]
        me = seat_block(seat)
        if e == T.E_GOLD:
            s[me + L.GOLD] += a
        elif e == T.E_VP:
            s[me + L.VP] += a
        elif e == T.E_GOLD_PER_TERRAIN:
            s[me + L.GOLD] += a * self.count_terrain(s, seat, b)
        elif e == T.E_VP_PER_TERRAIN:
            s[me + L.VP] += a * self.count_terrain(s, seat, b)
        elif e == T.E_GOLD_PER_CITY:
            s[me + L.GOLD] += a * self.cities(s, seat, b)
        elif e == T.E_VP_PER_CITY:
            s[me + L.VP] += a * self.cities(s, seat, b)
        elif e == T.E_VP_PER_CITY_PAIR:
            s[me + L.VP] += a * (self.cities(s, seat, b) // 2)
        elif e == T.E_RES_PER_PRODUCER:
            n = sum(1 for r in self.producers(s, seat) if s[L.TERRAIN + r] == b)
            self.gain_resource(s, seat, b, a * n)
        elif e == T.E_PRODUCE_ALL:
            for r in self.producers(s, seat):  # each produces its region's resource
                self.gain_resource(s, seat, s[L.TERRAIN + r], a)
        elif e == T.E_DRAW:
            self.draw(s, seat, a)
        elif e == T.E_DRAW_PER_CITY:
            self.draw(s, seat, a * self.cities(s, seat, b))
        elif e == T.E_GOLD_PER_VILLAGE:
            near = [v for v in self.live_villages(s) if self.army_next_to(s, seat, v)]
            s[me + L.GOLD] += a * len(near)
        elif e == T.E_STEAL_VP:
            self.steal(s, seat, a, L.VP)
        elif e == T.E_STEAL_GOLD:
            self.steal(s, seat, a, L.GOLD)
        elif e == T.E_GOLD_PER_TYPE:
            s[me + L.GOLD] += a * self.count_type(s, seat, b)
        elif e == T.E_VP_PER_TYPE:
            s[me + L.VP] += a * self.count_type(s, seat, b)
        elif e == T.E_PIECES_PER_CITY:
            n = a * self.cities(s, seat, b)
            return self.open_choice(s, seat, e, n, a, b, c, L.RESUME_ACTIVATION)
        elif e in (T.E_PRODUCE_ONE, T.E_STEAL_VILLAGE):
            return self.open_choice(s, seat, e, 1, a, b, c, L.RESUME_ACTIVATION)
        elif e in (T.E_PIECES, T.E_BUY, T.E_SELL_GOLD, T.E_SELL_VP, T.E_MOVE_ARMIES):
            return self.open_choice(s, seat, e, a, a, b, c, L.RESUME_ACTIVATION)
        return False

    # -- choices: one answer (a region, a piece type, a resource, a draw) at a time
    def open_choice(
        self, s: list[int], seat: int, kind: int, times: int, a: int, b: int, c: int, resume: int
    ) -> bool:
        """Open a choice to be answered ``times`` times; False if it has nothing to ask
        (then the slots keep its magnitudes, with no kind)."""
        if times <= 0:
            return False
        s[L.EFF_KIND], s[L.EFF_LEFT] = kind, times
        s[L.EFF_A], s[L.EFF_B], s[L.EFF_C] = a, b, c
        s[L.EFF_SEL] = -1
        s[L.RESUME] = resume
        if not self.choice_targets(s, seat):
            s[L.EFF_KIND] = 0
            return False
        s[L.PHASE] = L.PH_EFFECT
        return True

    def army_may_leave(self, s: list[int], r: int) -> bool:
        """An army alone with a temple cannot move (docs/rules/deus.md, research §3A'.4)."""
        return s[L.PIECES + r] & ~MILITARY_BIT != TEMPLE_BIT

    def army_steps(self, s: list[int], seat: int, src: int) -> list[int]:
        """Where the army in ``src`` may move one region: an empty land region, or one of
        yours without an army (a sea region only where your ship is); never a village."""
        out = []
        for dst in self.around[src]:
            terrain, owner = s[L.TERRAIN + dst], s[L.OWNER + dst]
            if terrain == T.VILLAGE:
                continue
            if owner == seat and not self.has_army(s, dst):
                out.append(dst)
            elif owner < 0 and terrain != T.SEA:
                out.append(dst)
        return out

    def choice_targets(self, s: list[int], seat: int) -> list[int]:
        """The answers the pending choice accepts now (resources, piece types, regions)."""
        kind, b, c = s[L.EFF_KIND], s[L.EFF_B], s[L.EFF_C]
        sel = s[L.EFF_SEL]
        me = seat_block(seat)
        resources = range(T.N_RESOURCES)
        if kind == CERES_CHOICE:
            return [k for k in resources if s[L.SUPPLY + k] > 0]
        if kind == MINERVA_CHOICE:  # a card to draw, and room for it [R B.4]
            cards_left = s[L.DECK_N] + s[L.DISC_N] > 0
            return [0] if cards_left and s[me + L.HAND_N] < T.HAND_LIMIT else []
        if kind in PIECE_CHOICES:
            return [t for t in range(T.N_TYPES) if s[me + L.IN_SUPPLY + t] > 0]
        if kind == T.E_BUY:
            return [k for k in resources if s[L.SUPPLY + k] > 0 and s[me + L.GOLD] >= b]
        if kind == T.E_SELL_GOLD:
            return [k for k in resources if s[me + L.RES + k] > 0]
        if kind == T.E_SELL_VP:
            return [c] if s[me + L.RES + c] > 0 else []
        if kind == T.E_PRODUCE_ONE:
            return [r for r in self.producers(s, seat) if s[L.SUPPLY + s[L.TERRAIN + r]] > 0]
        if kind == T.E_STEAL_VILLAGE:
            return [
                v
                for v in self.live_villages(s)
                if s[L.VILLAGE_VP + v] > 0 and self.army_next_to(s, seat, v)
            ]
        if kind == T.E_MOVE_ARMIES:
            if sel >= 0:
                return self.army_steps(s, seat, sel)
            # c = 1 + the region of an army whose move caused an attack: it stops there
            return [
                r
                for r in self.mine(s, seat)
                if self.has_army(s, r)
                and r + 1 != c
                and self.army_may_leave(s, r)
                and self.army_steps(s, seat, r)
            ]
        return []

    def answer(self, s: list[int], seat: int, target: int) -> bool:
        """Apply one answer to the pending choice; True once the choice is over."""
        kind, a, b = s[L.EFF_KIND], s[L.EFF_A], s[L.EFF_B]
        me = seat_block(seat)
        if kind == T.E_MOVE_ARMIES and s[L.EFF_SEL] < 0:
            s[L.EFF_SEL] = target  # which army moves: binding
            return False
        if kind == CERES_CHOICE:
            self.gain_resource(s, seat, target, 1)
        elif kind == MINERVA_CHOICE:
            self.draw(s, seat, 1)
        elif kind in PIECE_CHOICES:
            self.gain_piece(s, seat, target)
        elif kind == T.E_BUY:
            s[me + L.GOLD] -= b
            self.gain_resource(s, seat, target, 1)
        elif kind in (T.E_SELL_GOLD, T.E_SELL_VP):
            s[me + L.RES + target] -= 1
            s[L.SUPPLY + target] += 1
            s[me + (L.GOLD if kind == T.E_SELL_GOLD else L.VP)] += b
        elif kind == T.E_PRODUCE_ONE:
            self.gain_resource(s, seat, s[L.TERRAIN + target], a)
        elif kind == T.E_STEAL_VILLAGE:
            got = min(a, s[L.VILLAGE_VP + target])
            s[L.VILLAGE_VP + target] -= got
            s[me + L.VP] += got
            if s[L.VILLAGE_VP + target] == 0:  # an emptied village counts as attacked
                s[L.ATTACKED + target] = 1
        elif kind == T.E_MOVE_ARMIES:
            src = s[L.EFF_SEL]
            s[L.PIECES + src] &= ~MILITARY_BIT
            if s[L.PIECES + src] == 0:
                s[L.OWNER + src] = -1  # an emptied region is nobody's
            s[L.OWNER + target] = seat
            s[L.PIECES + target] |= MILITARY_BIT
            if self.attack_villages(s) > 0:
                s[L.EFF_C] = target + 1
            s[L.EFF_SEL] = -1
        s[L.EFF_LEFT] -= 1
        if s[L.EFF_LEFT] <= 0 or not self.choice_targets(s, seat):
            s[L.EFF_KIND] = 0
            return True
        return False

    def resume(self, s: list[int], seat: int) -> None:
        """A choice is over: back to the column, or to the end of the offering."""
        if s[L.RESUME] == L.RESUME_ACTIVATION:
            self.activate(s, seat)
        else:
            self.finish_offering(s, seat)

    # ============================================================== B. offering
    def start_offering(self, s: list[int], seat: int, design: int) -> None:
        """[R B.1-2] The top card (it names the god) is public."""
        c = self.take_from_hand(s, seat, design)
        s[L.CARD_LOC + c] = L.LOC_PENDING
        s[L.KNOWN + c] = EVERYONE
        s[L.PEND_CARD] = c
        s[L.OFFER_N] = 1
        s[L.PHASE] = L.PH_OFFER

    def add_to_offering(self, s: list[int], seat: int, design: int) -> None:
        """[R B.2] One more card under it, "only the top card visible"."""
        c = self.take_from_hand(s, seat, design)
        self.to_discard(s, c, 1 << seat)
        s[L.OFFER_N] += 1

    def close_offering(self, s: list[int], seat: int) -> None:
        """The top card goes on the pile, on top; its colour's god acts [R B.3]."""
        c = s[L.PEND_CARD]
        self.to_discard(s, c, EVERYONE)
        s[L.PEND_CARD] = -1
        god = COLOUR[CARD_DESIGN[c]]
        if god == T.TEMPLE:
            s[L.PHASE] = L.PH_GOD  # Jupiter: name one of the other five gods
        elif not self.invoke(s, seat, god):
            self.finish_offering(s, seat)

    def invoke(self, s: list[int], seat: int, god: int) -> bool:
        """[R B.3] The god's power for N cards discarded; True if it opened a choice."""
        n = s[L.OFFER_N]
        me = seat_block(seat)
        name = GOD_OF_COLOUR[god]
        if name == "neptune":  # 2 gold per card, and a ship
            s[me + L.GOLD] += 2 * n
            self.gain_piece(s, seat, T.MARITIME)
        elif name == "ceres":  # a production piece, and a resource of choice per card
            self.gain_piece(s, seat, T.PRODUCTION)
            return self.open_choice(s, seat, CERES_CHOICE, n, 0, 0, 0, L.RESUME_OFFERING)
        elif name == "minerva":  # a scientific piece; one more card per card in step 4
            self.gain_piece(s, seat, T.SCIENTIFIC)
            s[L.MINERVA_EXTRA] = n
        elif name == "vesta":  # 1 VP for one card, 2 VP for more; a civil piece
            s[me + L.VP] += 1 if n == 1 else 2
            self.gain_piece(s, seat, T.CIVIL)
        elif name == "mars":  # a piece of your choice per card
            return self.open_choice(s, seat, T.E_PIECES, n, n, 0, 0, L.RESUME_OFFERING)
        return False

    def finish_offering(self, s: list[int], seat: int) -> None:
        """[R B.4] Draw up to 5, then Minerva's extra cards ("You can draw": one choice a
        card; option minerva_draw="always": all at once), never above 10."""
        hand = s[seat_block(seat) + L.HAND_N]
        self.draw(s, seat, max(T.HAND_START - hand, 0))
        extra = s[L.MINERVA_EXTRA]
        s[L.MINERVA_EXTRA] = 0
        s[L.OFFER_N] = 0
        if self.minerva_always:
            self.draw(s, seat, extra)
        elif self.open_choice(s, seat, MINERVA_CHOICE, extra, 0, 0, 0, L.RESUME_OFFERING):
            return
        self.end_action(s)

    # ============================================================== the turn
    def end_action(self, s: list[int]) -> None:
        """The end of an action: an empty hand draws 5 [R A "Important"]; the end of the
        game [R end]; the turn cap (a safety net, docs/rules/deus.md); the next seat."""
        seat = s[L.CUR]
        if s[seat_block(seat) + L.HAND_N] == 0:
            self.draw(s, seat, T.HAND_START)
        s[L.PHASE] = L.PH_MAIN
        s[L.PEND_CARD] = s[L.PEND_REGION] = -1
        s[L.TURN] += 1
        if s[L.END_TRIGGER]:
            s[L.FINAL_LEFT] -= 1
            if s[L.FINAL_LEFT] <= 0:
                self.game_over(s, truncated=False)
                return
        elif s[L.TEMPLES_LEFT] == 0 or self.all_villages_fallen(s):
            # "the current round is completed ... Then, a final round is played"
            s[L.END_TRIGGER] = 1
            s[L.FINAL_LEFT] = (self.players - 1 - seat) + self.players
        if s[L.TURN] >= self.max_turns:
            self.game_over(s, truncated=True)
            return
        s[L.CUR] = (seat + 1) % self.players

    def game_over(self, s: list[int], truncated: bool) -> None:
        s[L.OVER] = 1
        s[L.TRUNC] = int(truncated)
        s[L.PHASE] = L.PH_OVER

    # ============================================================== the protocol
    def legal(self, s: list[int]) -> set[int]:
        """The legal action ids of the seat to move (empty once the game is over)."""
        if s[L.OVER]:
            return set()
        seat, phase = s[L.CUR], s[L.PHASE]
        out: set[int] = set()
        if phase in (L.PH_MAIN, L.PH_OFFER):
            designs = {CARD_DESIGN[c] for c in self.hand(s, seat)}
            out = {A.OFFER0 + d for d in designs}  # an offering, or one more card for it
            if phase == L.PH_OFFER:
                out.add(A.DONE)
            else:
                out |= {A.BUILD0 + d for d in designs if self.can_build(s, seat, d)}
                if not out:
                    out.add(A.PASS)  # no card in hand and none to draw
        elif phase == L.PH_PLACE:
            ptype = COLOUR[CARD_DESIGN[s[L.PEND_CARD]]]
            out = {A.REGION0 + r for r in self.placements(s, seat, ptype)}
        elif phase == L.PH_TEMPLE:
            out = {A.REGION0 + r for r in self.temple_regions(s, seat)}
        elif phase == L.PH_PAY:
            _, by_resource, by_gold = self.next_unit(s, seat)
            out = {a for a, ok in ((A.PAY_RESOURCE, by_resource), (A.PAY_GOLD, by_gold)) if ok}
        elif phase == L.PH_GOD:
            out = {A.GOD0 + g for g in range(T.N_TYPES)}
        elif phase == L.PH_EFFECT:
            kind = s[L.EFF_KIND]
            targets = self.choice_targets(s, seat)
            if kind == MINERVA_CHOICE:
                out = {A.DRAW} if targets else set()
            else:
                out = {self.choice_base(kind) + t for t in targets}
            if kind in UP_TO_CHOICES and s[L.EFF_SEL] < 0:
                out.add(A.DONE)  # "up to": stop early
        return out

    @staticmethod
    def choice_base(kind: int) -> int:
        if kind in REGION_CHOICES:
            return A.REGION0
        if kind in PIECE_CHOICES:
            return A.PIECE0
        return A.RES0

    def step(self, s: list[int], action: int) -> list[float]:
        """Play one legal ``action`` in place; the rewards (non-zero only at the end)."""
        s[L.STEP] += 1
        seat, phase = s[L.CUR], s[L.PHASE]
        if phase == L.PH_MAIN:
            if action == A.PASS:
                self.end_action(s)
            elif action < A.OFFER0:
                self.start_build(s, seat, action - A.BUILD0)
            else:
                self.start_offering(s, seat, action - A.OFFER0)
        elif phase == L.PH_OFFER:
            if action == A.DONE:
                self.close_offering(s, seat)
            else:
                self.add_to_offering(s, seat, action - A.OFFER0)
        elif phase == L.PH_GOD:
            s[L.PHASE] = L.PH_OFFER
            if not self.invoke(s, seat, action - A.GOD0):
                self.finish_offering(s, seat)
        elif phase == L.PH_PLACE:
            self.place_building(s, seat, action - A.REGION0)
        elif phase == L.PH_TEMPLE:
            self.place_temple(s, seat, action - A.REGION0)
        elif phase == L.PH_PAY:
            self.pay_choice(s, seat, with_gold=action == A.PAY_GOLD)
        elif phase == L.PH_EFFECT:
            if action == A.DONE:
                s[L.EFF_KIND] = 0
                s[L.EFF_SEL] = -1
                self.resume(s, seat)
            else:
                target = 0 if action == A.DRAW else action - self.choice_base(s[L.EFF_KIND])
                if self.answer(s, seat, target):
                    self.resume(s, seat)
        return self.rewards(s)

    # ============================================================== scoring [R end]
    def temple_vp(self, s: list[int], seat: int, design: int) -> int:
        """[R temples 3] A temple card's VP at the end, at most 12."""
        e, a, b = EFFECT[design], MAG_A[design], MAG_B[design]
        if e == T.T_END_PER_CITY:
            v = a * self.cities(s, seat, b)
        elif e == T.T_END_PER_TERRAIN:
            v = a * self.count_terrain(s, seat, b)
        elif e == T.T_END_PER_BUILDING_ON:
            v = a * self.buildings_on(s, seat, b)
        elif e == T.T_END_PER_TYPE:
            v = a * self.count_type(s, seat, b)
        else:
            v = 0
        return min(v, T.TEMPLE_VP_CAP)

    def final_scores(self, s: list[int]) -> list[int]:
        """[R end 1-3] VP gained + temple VP + 2 VP for the most of each resource and of
        gold (at least 1; every tied player scores)."""
        scores = []
        for p in range(self.players):
            temples = s[column(p, T.TEMPLE) : column(p, T.TEMPLE) + s[column_size(p, T.TEMPLE)]]
            vp = s[seat_block(p) + L.VP]
            scores.append(vp + sum(self.temple_vp(s, p, CARD_DESIGN[c]) for c in temples))
        for field in [L.RES + k for k in range(T.N_RESOURCES)] + [L.GOLD]:
            held = [s[seat_block(p) + field] for p in range(self.players)]
            if max(held) >= 1:
                for p in range(self.players):
                    if held[p] == max(held):
                        scores[p] += T.MAJORITY_VP
        return scores

    def winners(self, s: list[int]) -> list[int]:
        """[R end] "The player with the highest total VPs" wins; no tie-break is printed, so tied
        leaders share the win (option tie_break="leftovers": most resources + gold)."""
        scores = self.final_scores(s)
        best = [p for p in range(self.players) if scores[p] == max(scores)]
        if self.tie_leftovers:

            def left(p: int) -> int:
                b = seat_block(p)
                return s[b + L.GOLD] + sum(s[b + L.RES : b + L.RES + T.N_RESOURCES])

            most = max(left(p) for p in best)
            best = [p for p in best if left(p) == most]
        return best

    def rewards(self, s: list[int]) -> list[float]:
        """At the end: +1 for each winner, -1 for the others; 0 for all if all win."""
        if not s[L.OVER]:
            return [0.0] * self.players
        won = self.winners(s)
        if len(won) == self.players:
            return [0.0] * self.players
        return [1.0 if p in won else -1.0 for p in range(self.players)]
