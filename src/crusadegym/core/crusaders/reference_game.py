"""A plain-Python reference of the whole Crusaders game: setup, legal actions, every step.

Crusaders: Thy Will Be Done with the *Divine Influence* expansion (``expansion=True``)
or the base game alone. Written from the rule text (the *Divine Influence* rulebook,
cited **[R]** with its section; the base game's player aid **[C]** and our readings
**[C1]/[I]/[U]**, see ``docs/rules/crusaders.md``), one function per rule, in plain
Python. It shares with the compiled engine only plain data: the tables
(``tables.py``), the slot numbers of the flat state (``layout.py``), the action ids
(``actions.py``), the option slots of ``params`` (``config.py``) and two rule helpers of
``reference.py`` (sowing, majorities). It imports no numba kernel; even the dice are
re-implemented here (:class:`Dice`, the xorshift64* generator of ``core/rng.py``), so
the same seed and actions give the same game on both sides.

The reference plays on the engine's own flat state (a Python list of ints, laid out as
``layout.py`` draws it), so the two sides compare slot by slot
(:func:`differences` names the first slots that differ). The turn is asked as the same
sequence of sub-decisions as the engine (``layout.PH_*``; the phase slot says which one
is asked) with the same scratch slots (the queued actions of a wedge, the action's
strength, the travel points left ...), because those are part of the compared state.

Slow on purpose: a few thousand steps per second. Used by
``core/crusaders/differential.py`` (``tests/test_crusaders_differential.py`` and
``crusadegym soak --differential``).
"""

from __future__ import annotations

import numpy as np

from ..reference_dice import Dice as GameDice
from . import actions as A
from . import layout as L
from . import tables as T
from .config import (
    DEAL_FREE,
    DEAL_NONE,
    P_ACTIVE,
    P_ADJ,
    P_EXPANSION,
    P_MAX_TURNS,
    P_MILL_EFFECTS,
    P_MUSTER_MANY,
    P_ORDERS,
    P_PLAYERS,
    P_SHARED_START,
    P_SKIP,
    P_SPLIT,
    P_SUPPLY,
    P_UPGRADES,
    P_WHEEL,
    SKIP_ALWAYS,
    SPLIT_ONE_EACH,
    WHEEL_UNPREDICTABLE,
)
from .reference import majority_ref, sow_ref

State = list[int]
"""The flat state of ``layout.py`` as a Python list (``layout.STATE_SIZE`` ints)."""

NO_BUILDING = NO_TILE = NO_ENEMY = NO_OWNER = NO_KNIGHT = -1
FULL_BOARD_ROW = (1 << T.N_LEVELS) - 1  # levels I-IV of one building type on the board


class Dice(GameDice):
    """The game's dice (``core/reference_dice.py``) in this game's ``RNG`` slots."""

    def __init__(self, state) -> None:
        super().__init__(state, L.RNG)


# -- naming the slots -------------------------------------------------------------------

_SCALARS = {
    L.CUR: "CUR", L.PHASE: "PHASE", L.OVER: "OVER", L.TRUNC: "TRUNC", L.TURN: "TURN",
    L.STEP: "STEP", L.SUPPLY: "SUPPLY", L.ENDING: "ENDING", L.SETUP_SEAT: "SETUP_SEAT",
    L.SETUP_STEP: "SETUP_STEP", L.CTX_WEDGE: "CTX_WEDGE", L.Q_ACT0: "Q_ACT0",
    L.Q_VAL0: "Q_VAL0", L.Q_ACT1: "Q_ACT1", L.Q_VAL1: "Q_VAL1", L.ACT: "ACT",
    L.STRENGTH: "STRENGTH", L.TRAVEL_LEFT: "TRAVEL_LEFT", L.MOVES_LEFT: "MOVES_LEFT",
    L.BTYPE: "BTYPE", L.SAR_REGION: "SAR_REGION", L.PENDING_DIST: "PENDING_DIST",
    L.POWER_USED: "POWER_USED", L.BUILT_EXP: "BUILT_EXP", L.USED_WEDGE: "USED_WEDGE",
    L.BOOSTED: "BOOSTED", L.MILL_LEVEL: "MILL_LEVEL", L.TRACK: "TRACK[prussian]",
    L.TRACK + 1: "TRACK[slav]", L.SOWING_DIST: "SOWING_DIST", L.SAR_TOKEN: "SAR_TOKEN",
    L.RNG: "RNG[0]", L.RNG + 1: "RNG[1]",
}  # fmt: skip
_SEAT_ARRAYS = {  # per-seat fields of more than one slot, and their lengths
    L.PL_DEALT: 2, L.PL_WHEEL: T.N_WEDGES, L.PL_TOK: T.N_WEDGES, L.PL_UP: T.N_WEDGES,
    L.PL_BOARD: T.N_BUILDING_TYPES, L.PL_KNIGHT: T.N_KNIGHTS, L.PL_CAPT: T.N_ENEMY_TYPES,
    L.PL_ONCE: T.N_ACTION_TYPES, L.PL_PERM: T.N_ACTION_TYPES,
}  # fmt: skip


def _seat_slot_names() -> dict[int, str]:
    """Offset in a seat's block -> its layout name (``PL_TOK[3]``, ``PL_SCORE``)."""
    names = {}
    for name in dir(L):
        if name.startswith("PL_") and name != "PL_SIZE":
            start, n = getattr(L, name), _SEAT_ARRAYS.get(getattr(L, name), 0)
            names.update({start + j: f"{name}[{j}]" for j in range(n)} or {start: name})
    return names


_SEAT_SLOTS = _seat_slot_names()
_REGION_ARRAYS = (
    (L.R_ENEMY, "R_ENEMY"), (L.R_BLD_A, "R_BLD_A"), (L.R_BLD_B, "R_BLD_B"),
    (L.R_BONUS, "R_BONUS"), (L.R_INF, "R_INF"), (L.R_COAT, "R_COAT"),
)  # fmt: skip


def slot_name(i: int) -> str:
    """The layout name of state slot ``i``, e.g. ``seat1.PL_TOK[3]``, ``R_ENEMY[d2]``."""
    if i in _SCALARS:
        return _SCALARS[i]
    if L.PLAYERS <= i < L.REGIONS:
        p, off = divmod(i - L.PLAYERS, L.PL_SIZE)
        return f"seat{p}." + _SEAT_SLOTS.get(off, f"unused+{off}")
    for start, name in _REGION_ARRAYS:
        if start <= i < start + T.N_REGIONS:
            return f"{name}[{T.REGION_NAMES[i - start]}]"
    if L.ENEMY_LOC <= i < L.STATE_SIZE:
        return f"ENEMY_LOC[{i - L.ENEMY_LOC}]"
    return f"unused{i}"


def differences(engine: np.ndarray, reference: State | np.ndarray, limit: int = 6) -> list[str]:
    """The first ``limit`` slots where the two states differ, by layout name."""
    out = []
    for i, (x, y) in enumerate(zip(engine.tolist(), list(reference), strict=True)):
        if x != y:
            out.append(f"{slot_name(i)} (slot {i}): engine {x} != reference {y}")
            if len(out) >= limit:
                break
    return out


# -- small readings of the state ---------------------------------------------------------


def seat(p: int) -> int:
    """Offset of seat p's block in the state."""
    return L.PLAYERS + p * L.PL_SIZE


def building(owner: int, btype: int, level: int) -> int:
    """A building on the map, in one int: ``owner*32 + type*4 + level`` (``layout.py``)."""
    return owner * 32 + btype * 4 + level


def building_owner(code: int) -> int:
    return code // 32


def building_type(code: int) -> int:
    return (code // 4) % 8


def building_level(code: int) -> int:
    return code % 4


class Reference:
    """The Crusaders rules for one config (``params`` from ``make_params``), in plain Python.

    :meth:`new_game` builds a state, :meth:`legal` lists the legal action ids,
    :meth:`step` applies one and returns the rewards (win +1 / loss -1 once the game ends).
    """

    def __init__(self, params: np.ndarray):
        p = [int(x) for x in params]
        self.players = p[P_PLAYERS]
        self.expansion = bool(p[P_EXPANSION])
        self.unpredictable_wheel = p[P_WHEEL] == WHEEL_UNPREDICTABLE
        self.order_deal = p[P_ORDERS]
        self.split_one_each = p[P_SPLIT] == SPLIT_ONE_EACH
        self.skip_always = p[P_SKIP] == SKIP_ALWAYS
        self.upgrades = bool(p[P_UPGRADES])
        self.supply = p[P_SUPPLY]
        self.turn_limit = p[P_MAX_TURNS]  # over all seats
        self.muster_many = bool(p[P_MUSTER_MANY])
        self.shared_start = bool(p[P_SHARED_START])
        self.mill_effects = bool(p[P_MILL_EFFECTS])
        self.active = [bool(p[P_ACTIVE + r]) for r in range(T.N_REGIONS)]
        self.neighbours = [
            {q for q in p[P_ADJ + 6 * r : P_ADJ + 6 * r + 6] if q >= 0} for r in range(T.N_REGIONS)
        ]
        self.orders_in_play = T.N_ORDERS if self.expansion else T.N_BASE_ORDERS
        self.building_types = T.N_BUILDING_TYPES if self.expansion else T.N_BASE_TYPES
        self.troops = T.EXPANSION_TROOPS if self.expansion else T.BASE_TROOPS
        self.tracks = T.TRACK_EXPANSION if self.expansion else T.TRACK_BASE

    # ================================================================== setup
    def new_game(self, seed: int) -> State:
        """Setup [C] and [R "Setup"]. The dice are drawn in this order: the wheel
        arrangement (and one more shuffle of it per further seat with the Unpredictable
        wheel), the enemies, the bonus tiles, the influence tiles, the dealt orders."""
        s = [0] * L.STATE_SIZE
        dice = Dice(s)
        dice.seed(seed)
        arrangement = list(range(T.N_WEDGES))
        dice.shuffle(arrangement)  # "One player places their 6 wedges randomly" [C]
        for p in range(L.MAX_PLAYERS):
            b = seat(p)
            s[b + L.PL_ORDER] = -1
            s[b + L.PL_DEALT] = s[b + L.PL_DEALT + 1] = -1
            s[b + L.PL_GIANT] = -1
            for k in range(T.N_KNIGHTS):
                s[b + L.PL_KNIGHT + k] = NO_KNIGHT
            if p >= self.players:
                continue
            if self.unpredictable_wheel and p > 0:
                dice.shuffle(arrangement)  # each player's own arrangement [C]
            # "All other players copy that arrangement"; "2 action tokens on each wedge" [C]
            for i in range(T.N_WEDGES):
                s[b + L.PL_WHEEL + i] = arrangement[i]
                s[b + L.PL_TOK + i] = T.START_TOKENS_PER_WEDGE
            s[b + L.PL_TOKTOTAL] = T.BASE_TOKENS
            for t in range(self.building_types):  # [R "Setup" 5B] the 16 new buildings
                s[b + L.PL_BOARD + t] = FULL_BOARD_ROW
            s[b + L.PL_COATS] = T.COATS_OF_ARMS if self.expansion else 0  # [R "Setup" 5D]
        for start, _ in _REGION_ARRAYS:
            s[start : start + T.N_REGIONS] = [-1] * T.N_REGIONS
        self.place_enemies(s, dice)
        self.deal_bonus_tiles(s, dice)
        if self.expansion:
            self.deal_influence_tiles(s, dice)
        s[L.SUPPLY] = self.supply  # "20 + 60 per player" [C]
        s[L.CTX_WEDGE] = s[L.USED_WEDGE] = s[L.SAR_REGION] = -1
        s[L.Q_ACT0] = s[L.Q_ACT1] = -1
        self.deal_orders(s, dice)
        return s

    def place_enemies(self, s: State, dice: Dice) -> None:
        """ "1 Prussian and 1 Slav go on the top spaces of their strength tracks. The other
        enemy tokens are shuffled onto the flag spaces ...; leftovers go back in the box" [C]."""
        first_slav = T.ENEMY_COUNTS[T.PRUSSIAN]
        pool = []
        for e in range(T.N_ENEMY_TOKENS):
            on_track = e in (0, first_slav)
            s[L.ENEMY_LOC + e] = L.ELOC_TRACK if on_track else L.ELOC_BOX
            if not on_track:
                pool.append(e)
        dice.shuffle(pool)
        flags = [r for r in range(T.N_REGIONS) if T.MAP_FLAGS[r] and self.active[r]]
        for r, e in zip(flags, pool, strict=False):
            s[L.R_ENEMY + r] = e
            s[L.ENEMY_LOC + e] = r

    def deal_bonus_tiles(self, s: State, dice: Dice) -> None:
        """ "Bonus tiles go at random on their outlined spaces" [C]."""
        tiles = list(range(T.N_BONUS_TILES))
        dice.shuffle(tiles)
        spaces = [r for r in range(T.N_REGIONS) if T.MAP_BONUS[r] and self.active[r]]
        for r, tile in zip(spaces, tiles, strict=False):
            s[L.R_BONUS + r] = tile

    def deal_influence_tiles(self, s: State, dice: Dice) -> None:
        """[R "Setup" 2]: "Randomly distribute 1 Influence tile to each region, face up ...
        Return unused tiles to the box." """
        tiles = list(range(T.N_INF_TILES))
        dice.shuffle(tiles)
        regions = [r for r in range(T.N_REGIONS) if self.active[r]]
        for r, tile in zip(regions, tiles, strict=False):
            s[L.R_INF + r] = tile

    def deal_orders(self, s: State, dice: Dice) -> None:
        """Knight Orders "dealt 2, keep 1" [C] (or free choice [C1], or none); the start
        player (seat 0) chooses first. Without orders, the knights are placed at once."""
        s[L.SETUP_SEAT] = s[L.CUR] = 0
        if self.order_deal == DEAL_NONE:
            self.start_placing_knights(s)
            return
        s[L.PHASE] = L.PH_ORDER
        if self.order_deal == DEAL_FREE:
            return
        pool = list(range(self.orders_in_play))  # [R "Setup" 1] the new orders mixed in
        dice.shuffle(pool)
        for p in range(self.players):
            s[seat(p) + L.PL_DEALT], s[seat(p) + L.PL_DEALT + 1] = pool[2 * p], pool[2 * p + 1]

    # ---------------------------------------------------------- the orders' setup
    def order_ok(self, s: State, p: int, order: int) -> bool:
        """One of the two dealt tiles [C], or any order in play (Free choice [C1])."""
        if order >= self.orders_in_play:
            return False
        return self.order_deal == DEAL_FREE or order in self.dealt(s, p)

    @staticmethod
    def dealt(s: State, p: int) -> tuple[int, int]:
        return s[seat(p) + L.PL_DEALT], s[seat(p) + L.PL_DEALT + 1]

    def keep_order(self, s: State, p: int, order: int) -> None:
        """Keep an order and apply its fixed setup [C]: Calatrava "only 6 tokens, 1 per
        wedge"; Holy Sepulchre "+1 token on each Travel wedge"."""
        b = seat(p)
        s[b + L.PL_ORDER] = order
        if order == T.CALATRAVA:
            for i in range(T.N_WEDGES):
                s[b + L.PL_TOK + i] = 1
            s[b + L.PL_TOKTOTAL] = T.N_WEDGES
        if order == T.HOLY_SEPULCHRE:
            for i in range(T.N_WEDGES):
                if T.WEDGE_FIRST[s[b + L.PL_WHEEL + i]] == T.TRAVEL:
                    s[b + L.PL_TOK + i] += 1
                    s[b + L.PL_TOKTOTAL] += 1
        s[L.SETUP_STEP] = 0

    @staticmethod
    def setup_choice(s: State, p: int) -> int:
        """The order's setup step now asked (``tables.SS_*``), SS_NONE when done."""
        order, k = s[seat(p) + L.PL_ORDER], s[L.SETUP_STEP]
        if order < 0 or k >= T.MAX_SETUP_STEPS:
            return T.SS_NONE
        return int(T.ORDER_SETUP[order, k])

    @staticmethod
    def setup_target_ok(s: State, p: int, choice: int, i: int) -> bool:
        """Which wedges a setup step may name [C]/[R]: the 13th token anywhere (Alcántara,
        Aviz), a token off a wedge with one, not the giant (Hospitaller, St. Lazarus), a
        basic wedge to upgrade, a wedge of 2 left with 1 (Templar), and a wedge of 2 for
        the giant token "instead of 2 action tokens" (Female Order of the Band [R])."""
        b = seat(p)
        tokens, giant = s[b + L.PL_TOK + i], s[b + L.PL_GIANT]
        if choice == T.SS_ADD:
            return True
        if choice == T.SS_REMOVE:
            return tokens >= 1 and giant != i
        if choice == T.SS_UPGRADE:
            return s[b + L.PL_UP + i] == 0
        if choice == T.SS_ONE:
            return tokens == T.START_TOKENS_PER_WEDGE
        return tokens == T.START_TOKENS_PER_WEDGE and giant < 0  # SS_GIANT

    def apply_setup_step(self, s: State, p: int, i: int) -> None:
        b = seat(p)
        choice = self.setup_choice(s, p)
        if choice == T.SS_ADD:
            s[b + L.PL_TOK + i] += 1
            s[b + L.PL_TOKTOTAL] += 1
        elif choice in (T.SS_REMOVE, T.SS_ONE):
            s[b + L.PL_TOK + i] -= 1
            s[b + L.PL_TOKTOTAL] -= 1
        elif choice == T.SS_UPGRADE:
            s[b + L.PL_UP + i] = 1
        else:  # the giant token replaces the wedge's 2 tokens, and is one token [R]
            s[b + L.PL_TOK + i] = 1
            s[b + L.PL_TOKTOTAL] -= 1
            s[b + L.PL_GIANT] = i
        s[L.SETUP_STEP] += 1

    def next_setup_question(self, s: State) -> None:
        """Ask the current seat's next setup step that has a target (skipping those with
        none); then the next seat keeps an order; after the last, the knights."""
        p = s[L.CUR]
        while (choice := self.setup_choice(s, p)) != T.SS_NONE:
            if any(self.setup_target_ok(s, p, choice, i) for i in range(T.N_WEDGES)):
                s[L.PHASE] = L.PH_SETUP
                return
            s[L.SETUP_STEP] += 1
        if s[L.SETUP_SEAT] + 1 < self.players:
            s[L.SETUP_SEAT] += 1
            s[L.CUR] = s[L.SETUP_SEAT]
            s[L.PHASE] = L.PH_ORDER
            return
        self.start_placing_knights(s)

    def start_placing_knights(self, s: State) -> None:
        """ "In reverse turn order, each player puts a knight on a starting region" [C]."""
        s[L.SETUP_SEAT] = s[L.CUR] = self.players - 1
        s[L.PHASE] = L.PH_PLACE

    def start_region_ok(self, s: State, r: int) -> bool:
        """ "a starting region marked with a knight icon, one player per region" [C]
        (``shared_start`` lifts the second part [U])."""
        if not T.MAP_START[r] or not self.active[r]:
            return False
        if self.shared_start:
            return True
        return all(s[seat(q) + L.PL_KNIGHT] != r for q in range(self.players))

    def place_first_knight(self, s: State, r: int) -> None:
        """The knight goes on r; Montesa's black knight "also starts in your start space"
        [C]. Once seat 0 has placed, seat 0 takes the first turn."""
        b = seat(s[L.CUR])
        s[b + L.PL_KNIGHT] = r
        if s[b + L.PL_ORDER] == T.MONTESA:
            s[b + L.PL_KNIGHT + T.N_KNIGHTS - 1] = r
        if s[L.SETUP_SEAT] > 0:
            s[L.SETUP_SEAT] -= 1
            s[L.CUR] = s[L.SETUP_SEAT]
            return
        s[L.CUR] = 0
        self.begin_turn(s)

    # ================================================================== the wheel
    @staticmethod
    def wedge_value(s: State, p: int, i: int) -> int:
        """X of a wedge: its tokens, the giant token counting 2 [R "Female Order of the
        Band": "counts as 2 tokens when resolving actions"]."""
        b = seat(p)
        giant_bonus = T.GIANT_VALUE - 1 if s[b + L.PL_GIANT] == i else 0
        return s[b + L.PL_TOK + i] + giant_bonus

    @staticmethod
    def all_upgraded(s: State, p: int) -> bool:
        return all(s[seat(p) + L.PL_UP + i] for i in range(T.N_WEDGES))

    @staticmethod
    def sowing_power(s: State, p: int) -> int:
        order = s[seat(p) + L.PL_ORDER]
        return int(T.ORDER_SOW[order]) if order >= 0 else T.SOW_NORMAL

    def sowing_ok(self, s: State, p: int, i: int, code: int) -> bool:
        """May wedge i be sown with sowing code ``code`` (``actions.SOWC_*``)? The order
        powers [C]: Teutonic counter-clockwise, Aviz/Santiago from the emptied wedge,
        Hospitaller skip 1 wedge and Templar 2 tokens on one wedge, "once per turn"."""
        hand = s[seat(p) + L.PL_TOK + i]
        if hand <= 0:
            return False
        power = self.sowing_power(s, p)
        if code == A.SOWC_NORMAL:
            return True
        if code == A.SOWC_CCW:
            return power == T.SOW_CCW
        if code == A.SOWC_FROM_SELF:
            return power == T.SOW_FROM_SELF
        if s[L.POWER_USED]:
            return False
        if code < A.SOWC_DOUBLE1:  # skip the k-th wedge reached
            return power == T.SOW_SKIP and code - A.SOWC_SKIP1 + 1 <= hand
        return power == T.SOW_DOUBLE and code - A.SOWC_DOUBLE1 + 1 <= hand - 1

    def sow(self, s: State, p: int, i: int, code: int) -> None:
        """ "Pick up all tokens from that wedge. Sow them one at a time clockwise, starting
        with the wedge directly after it" [C], with the order power of ``code``."""
        b = seat(p)
        tokens = s[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES]
        if code == A.SOWC_NORMAL:
            mode, k = "cw", 0
        elif code == A.SOWC_CCW:
            mode, k = "ccw", 0
        elif code == A.SOWC_FROM_SELF:
            mode, k = "self", 0
        elif code < A.SOWC_DOUBLE1:
            mode, k = "skip", code - A.SOWC_SKIP1 + 1
        else:
            mode, k = "double", code - A.SOWC_DOUBLE1 + 1
        if mode in ("skip", "double"):
            s[L.POWER_USED] = 1
        tokens, giant = sow_ref(tokens, s[b + L.PL_GIANT], i, mode, k)
        s[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES] = tokens
        s[b + L.PL_GIANT] = giant

    # ================================================================== bonuses, gains
    def gain(self, s: State, p: int, n: int) -> None:
        """Take n influence from the supply [C]; "The game ends when the supply runs out"
        triggers the end, and influence taken after that still counts."""
        if n <= 0:
            return
        s[seat(p) + L.PL_SCORE] += n
        s[L.SUPPLY] -= n
        if s[L.SUPPLY] <= 0:
            s[L.SUPPLY] = 0
            s[L.ENDING] = 1

    @staticmethod
    def on_board(s: State, p: int, btype: int, level: int) -> bool:
        """Is seat p's type-``btype`` building of this level (0 = I) still on its board?"""
        return bool(s[seat(p) + L.PL_BOARD + btype] >> level & 1)

    def next_level(self, s: State, p: int, btype: int) -> int:
        """The next building of a type is its lowest level left on the board [I]; -1 if none."""
        for level in range(T.N_LEVELS):
            if self.on_board(s, p, btype, level):
                return level
        return -1

    def bonus(self, s: State, p: int, action: int) -> int:
        """What adds to X [C]: icons uncovered by base buildings I-III ("Building reveals
        action bonuses on your board, and these add up"), mustered troops to Crusade, the
        order's modifier; and [R "Influence"] the permanent (6-cost) tiles."""
        b = seat(p)
        total = s[b + L.PL_PERM + action]
        for t in range(T.N_BASE_TYPES):
            for level in range(T.N_LEVELS - 1):
                if T.BUILDING_BONUS[t, level] == action and not self.on_board(s, p, t, level):
                    total += 1
        if action == T.CRUSADE:
            total += T.TROOP_CRUSADE_BONUS * s[b + L.PL_TROOPS]
        order = s[b + L.PL_ORDER]
        if order >= 0:
            total += int(T.ORDER_MOD[order, action])
        return total

    def knight_in(self, s: State, p: int, r: int) -> bool:
        return r in s[seat(p) + L.PL_KNIGHT : seat(p) + L.PL_KNIGHT + T.N_KNIGHTS]

    def knights(self, s: State, p: int) -> list[tuple[int, int]]:
        """(knight slot, region) of seat p's knights on the map."""
        b = seat(p)
        return [
            (k, s[b + L.PL_KNIGHT + k]) for k in range(T.N_KNIGHTS) if s[b + L.PL_KNIGHT + k] >= 0
        ]

    # ================================================================== the turn
    def begin_turn(self, s: State) -> None:
        """A new turn of the seat to move: resolve, upgrade or skip [C]."""
        s[L.PHASE] = L.PH_TURN
        s[L.POWER_USED] = s[L.BUILT_EXP] = s[L.PENDING_DIST] = s[L.SOWING_DIST] = 0
        s[L.USED_WEDGE] = s[L.CTX_WEDGE] = -1

    def resolve_wedge(self, s: State, p: int, i: int) -> None:
        """Option A [C]: "X = the tokens on the wedge plus bonuses"; an upgraded wedge's X
        is split between its two actions first."""
        s[L.CTX_WEDGE] = s[L.USED_WEDGE] = i
        x = self.wedge_value(s, p, i)
        s[L.Q_VAL0] = x
        if s[seat(p) + L.PL_UP + i]:
            s[L.PHASE] = L.PH_SPLIT
            return
        s[L.Q_ACT0] = int(T.WEDGE_FIRST[s[seat(p) + L.PL_WHEEL + i]])
        s[L.Q_ACT1] = -1
        self.next_action(s)

    def split_ok(self, s: State, k: int) -> bool:
        """k of X to the first action: any split ("all tokens on one action", BGA [C]), or
        with ``split=one_each`` "at least 1 token each" [C1] when X >= 2."""
        x = s[L.Q_VAL0]
        if k > x:
            return False
        if self.split_one_each and x >= 2:
            return 1 <= k <= x - 1
        return True

    def split(self, s: State, k: int) -> None:
        """Queue the two actions with their shares; an action given 0 is not resolved [I];
        with two, the player says which goes first ("in either order" [C])."""
        p = s[L.CUR]
        wedge = s[seat(p) + L.PL_WHEEL + s[L.CTX_WEDGE]]
        x = s[L.Q_VAL0]
        first, second = int(T.WEDGE_FIRST[wedge]), int(T.WEDGE_SECOND[wedge])
        s[L.Q_ACT0], s[L.Q_VAL0], s[L.Q_ACT1], s[L.Q_VAL1] = first, k, second, x - k
        if k == 0:  # only the second action, moved to the head of the queue
            s[L.Q_ACT0], s[L.Q_VAL0], s[L.Q_ACT1] = second, x - k, -1
        elif x - k == 0:
            s[L.Q_ACT1] = -1
        if s[L.Q_ACT1] >= 0:
            s[L.PHASE] = L.PH_FIRST
            return
        self.next_action(s)

    def next_action(self, s: State) -> None:
        """Take the queued actions in turn (each: X + bonuses, then the one-time tiles
        offered, then its decisions); when none is left, sow the wedge.

        The queue is two (action, value) slot pairs; taking the head moves the second
        pair's action and value into the first and empties the second's action."""
        p = s[L.CUR]
        while s[L.Q_ACT0] >= 0:
            action, value = s[L.Q_ACT0], s[L.Q_VAL0]
            s[L.Q_ACT0], s[L.Q_VAL0], s[L.Q_ACT1] = s[L.Q_ACT1], s[L.Q_VAL1], -1
            s[L.ACT] = action
            s[L.STRENGTH] = value + self.bonus(s, p, action)
            s[L.BOOSTED] = 0
            # [R "Influence"]: one-time tiles "add 1 bonus to that action for that turn"
            if self.expansion and s[seat(p) + L.PL_ONCE + action] > 0:
                s[L.PHASE] = L.PH_BOOST
                return
            if self.start_action(s):
                return
        self.sow_used_wedge(s)

    def start_action(self, s: State) -> bool:
        """Resolve the current action with its strength; True if it asks a decision."""
        p, action, strength = s[L.CUR], s[L.ACT], s[L.STRENGTH]
        if action == T.TRAVEL:
            s[L.TRAVEL_LEFT] = strength
            s[L.MOVES_LEFT] = T.FREE_TRAVEL_STEPS
            return self.ask_if(s, bool(self.travel_moves(s, p)), L.PH_TRAVEL)
        if action == T.MUSTER:
            self.muster(s, p, strength)
            return False
        if action == T.CRUSADE:
            return self.ask_if(s, bool(self.crusade_targets(s, p)), L.PH_CRUSADE)
        if action == T.INFLUENCE:
            if self.expansion:  # [R "Influence"]: "entirely different than the base game"
                return self.ask_if(s, bool(self.influence_targets(s, p)), L.PH_INFLUENCE)
            self.gain(s, p, strength)  # base game: "gain X + influence bonuses" [C]
            return False
        return self.ask_if(s, bool(self.buildable_types(s, p)), L.PH_BUILD_TYPE)

    @staticmethod
    def ask_if(s: State, possible: bool, phase: int) -> bool:
        if possible:
            s[L.PHASE] = phase
        return possible

    def boost(self, s: State) -> None:
        """Turn one one-time tile of the action face down: +1 [R "Influence"]; the next
        is offered while any is left."""
        p = s[L.CUR]
        s[seat(p) + L.PL_ONCE + s[L.ACT]] -= 1
        s[L.STRENGTH] += 1
        s[L.BOOSTED] += 1

    # ------------------------------------------------------------------ Travel
    def leave_cost(self, s: State, p: int, r: int) -> int:
        """ "leaving a region costs 1 point; leaving a region that holds an enemy token costs
        2" [C]; [R "Travel"]: "leaving a region with your Coat-of-Arms marker costs 1 less
        movement point than normal (1 ... if an Enemy is present, 0 ... if not)"."""
        cost = 2 if s[L.R_ENEMY + r] >= 0 else 1
        return cost - 1 if s[L.R_COAT + r] == p else cost

    def travel_moves(self, s: State, p: int) -> set[tuple[int, int]]:
        """(knight slot, region) steps affordable now: a paid step with the points left; a
        free step while the per-Travel budget of free steps lasts
        (``tables.FREE_TRAVEL_STEPS``, so that a Travel ends)."""
        out = set()
        for k, src in self.knights(s, p):
            cost = self.leave_cost(s, p, src)
            if (cost == 0 and s[L.MOVES_LEFT] > 0) or (0 < cost <= s[L.TRAVEL_LEFT]):
                out |= {(k, r) for r in self.neighbours[src]}
        return out

    def move_knight(self, s: State, p: int, k: int, r: int) -> None:
        cost = self.leave_cost(s, p, s[seat(p) + L.PL_KNIGHT + k])
        s[L.TRAVEL_LEFT] -= cost
        if cost == 0:
            s[L.MOVES_LEFT] -= 1
        s[seat(p) + L.PL_KNIGHT + k] = r

    # ------------------------------------------------------------------ Muster
    def next_troop(self, s: State, p: int) -> int:
        """ "Troops are numbered 3-7" [C], plus VI and VII with the expansion [R "Setup"
        5C]: the level of the lowest face-down troop, -1 when all are mustered."""
        mustered = s[seat(p) + L.PL_TROOPS]
        return int(T.TROOP_LEVEL[mustered]) if mustered < self.troops else -1

    def muster(self, s: State, p: int, strength: int) -> None:
        """ "Muster: costs the level of your lowest unmustered troop. Gain influence equal to
        the troop's level and flip it" [C]; one troop per action unless ``muster_many``."""
        while (level := self.next_troop(s, p)) >= 0 and strength >= level:
            strength -= level
            s[seat(p) + L.PL_TROOPS] += 1
            self.gain(s, p, level)
            if not self.muster_many:
                break

    # ------------------------------------------------------------------ Crusade
    def enemy_strength(self, s: State, e: int) -> int:
        """Prussians and Slavs: their track's space [C] (the expansion's new tracks [R
        "Setup" 4]); "Saracens: always strength 6" [C]."""
        kind = int(T.ENEMY_TYPE[e])
        if kind == T.SARACEN:
            return T.SARACEN_STRENGTH
        return int(self.tracks[kind, min(s[L.TRACK + kind], T.TRACK_LEN - 1)])

    def crusade_targets(self, s: State, p: int) -> set[int]:
        """ "in a region with your knight and an enemy, X + crusade bonuses must be >= the
        enemy's strength" [C]."""
        return {
            r
            for _, r in self.knights(s, p)
            if s[L.R_ENEMY + r] >= 0 and self.enemy_strength(s, s[L.R_ENEMY + r]) <= s[L.STRENGTH]
        }

    def defeat(self, s: State, p: int, r: int) -> bool:
        """Defeat the enemy in r and keep the token [C]; Prussians and Slavs: "gain influence
        equal to their strength, then advance that enemy's strength track 1 space". True
        for a Saracen, whose reward is chosen next."""
        e = s[L.R_ENEMY + r]
        kind = int(T.ENEMY_TYPE[e])
        strength = self.enemy_strength(s, e)
        s[L.R_ENEMY + r] = NO_ENEMY
        s[L.ENEMY_LOC + e] = L.ELOC_CAPT0 - p
        s[seat(p) + L.PL_CAPT + kind] += 1
        if kind == T.SARACEN:
            return True
        self.gain(s, p, strength)
        s[L.TRACK + kind] += 1
        return False

    def saracen_reward_ok(self, s: State, p: int, r: int, e: int, choice: int) -> bool:
        """ "The token shows a building or a troop. You may build that building in that
        region, or flip your next troop, and gain influence for its level; otherwise gain 3
        influence" [C]."""
        shows = int(T.SARACEN_REWARD[e])
        if choice == A.SAR_INFLUENCE:
            return True
        if choice == A.SAR_TROOP:
            return shows == T.REWARD_TROOP and self.next_troop(s, p) >= 0
        empty = s[L.R_BLD_A + r] < 0 and s[L.R_BLD_B + r] < 0
        return shows >= 0 and self.next_level(s, p, shows) >= 0 and empty

    def saracen_reward(self, s: State, p: int, r: int, e: int, choice: int) -> None:
        if choice == A.SAR_BUILD:  # the building is free [I]
            self.put_building(s, p, int(T.SARACEN_REWARD[e]), r)
        elif choice == A.SAR_TROOP:
            level = self.next_troop(s, p)
            s[seat(p) + L.PL_TROOPS] += 1
            self.gain(s, p, level)
        else:
            self.gain(s, p, T.SARACEN_FALLBACK_INFLUENCE)

    # ------------------------------------------------------------------ Influence [R]
    def influence_targets(self, s: State, p: int) -> set[int]:
        """[R "Influence" 1]: "Collect the Influence tile costing X or less ... from a region
        on the board occupied by one of your knights. You may Influence in a region with an
        Enemy token in it." Bailiwick of Brandenburg [R "Knight Orders"]: "in a region up
        to 1 region away from your Knight figure"."""
        regions = {r for _, r in self.knights(s, p)}
        if s[seat(p) + L.PL_ORDER] == T.BRANDENBURG:
            for r in list(regions):
                regions |= self.neighbours[r]
        return {
            r
            for r in regions
            if s[L.R_INF + r] >= 0 and T.INF_TILES[s[L.R_INF + r], 1] <= s[L.STRENGTH]
        }

    def collect(self, s: State, p: int, r: int) -> int:
        """Take the tile of region r, gain its level [R "Influence" 2] and place a
        Coat-of-Arms there [R "Influence" 3] (none left: none placed [I]). Returns its kind:
        one-time (x1) and permanent (oo) tiles, end-game (7-cost), or an immediate upgrade or
        distribution (the distribution comes once the turn is finished [R "Distribute"])."""
        b = seat(p)
        tile = s[L.R_INF + r]
        kind, _cost, action, level = (int(x) for x in T.INF_TILES[tile])
        s[L.R_INF + r] = NO_TILE
        s[b + L.PL_NTILES] += 1
        if kind == T.TILE_ONCE:
            s[b + L.PL_ONCE + action] += 1
        elif kind == T.TILE_PERMANENT:
            s[b + L.PL_PERM + action] += 1
        elif kind == T.TILE_ENDGAME:
            s[b + L.PL_NEND] += 1
        elif kind == T.TILE_DISTRIBUTE:
            s[L.PENDING_DIST] += 1
        self.gain(s, p, level)
        if s[b + L.PL_COATS] > 0:
            s[b + L.PL_COATS] -= 1
            s[L.R_COAT + r] = p
        return kind

    # ------------------------------------------------------------------ Build
    def build_cost(self, s: State, p: int, btype: int, r: int) -> int | None:
        """What building type ``btype`` costs in region r, or None where it may not go.

        [C]: "not allowed in a region with an enemy token; 1 building per region ... The
        building goes in a region with your knight"; bonus tiles discount their type.
        [R "Build"]: the new buildings cost "5 / 6 / 7 / 8", "reduced to 3 / 4 / 5 / 6" in
        the region of the matching building of any player; "There are no build bonus tiles
        that apply to the new buildings". Order of the Dragon [R "Knight Orders"]: "-1" in
        an empty region, and "in regions with any one building as if they were empty"."""
        level = self.next_level(s, p, btype)
        if btype >= self.building_types or level < 0 or not self.active[r]:
            return None
        if s[L.R_ENEMY + r] >= 0 or not self.knight_in(s, p, r):
            return None
        here = [c for c in (s[L.R_BLD_A + r], s[L.R_BLD_B + r]) if c != NO_BUILDING]
        if btype < T.N_BASE_TYPES:
            if here:
                return None
            tile = s[L.R_BONUS + r]
            discount = (
                int(T.BONUS_TILES[tile, 1]) if tile >= 0 and T.BONUS_TILES[tile, 0] == btype else 0
            )
            return max(int(T.BASE_COST[level]) - discount, 0)
        dragon = s[seat(p) + L.PL_ORDER] == T.DRAGON
        dragon_discount = T.DRAGON_DISCOUNT if dragon else 0
        if not here:
            return int(T.EXP_COST[level]) - dragon_discount
        if len(here) > 1:
            return None
        if building_type(here[0]) == T.EXP_PAIR[btype]:
            return int(T.EXP_PAIRED_COST[level])
        return int(T.EXP_COST[level]) - dragon_discount if dragon else None

    def build_sites(self, s: State, p: int, btype: int) -> set[int]:
        strength = s[L.STRENGTH]
        costs = {r: self.build_cost(s, p, btype, r) for r in range(T.N_REGIONS)}
        return {r for r, c in costs.items() if c is not None and c <= strength}

    def buildable_types(self, s: State, p: int) -> set[int]:
        return {t for t in range(T.N_BUILDING_TYPES) if self.build_sites(s, p, t)}

    def put_building(self, s: State, p: int, btype: int, r: int) -> str:
        """Put the next building of a type in r, "Gain influence equal to the building's
        level" [C]; a base building uses up the region's bonus tile. Returns what follows
        (:meth:`take_off_board`)."""
        level = self.next_level(s, p, btype)
        slot = L.R_BLD_A if s[L.R_BLD_A + r] == NO_BUILDING else L.R_BLD_B
        s[slot + r] = building(p, btype, level)
        if btype < T.N_BASE_TYPES:
            s[L.R_BONUS + r] = NO_TILE
        else:
            s[L.BUILT_EXP] = 1  # for the Livonian Brothers [R "Knight Orders"]
        self.gain(s, p, level + 1)
        return self.take_off_board(s, p, btype, level, r, built=True)

    def take_off_board(self, s: State, p: int, btype: int, level: int, r: int, built: bool) -> str:
        """A building leaves the player board (built, or removed by a Mill): it uncovers its
        action bonus ([C], read by :meth:`bonus`); "A castle unlocks a knight, placed in
        that castle's region" [C] (Castles I and III [I]); [R "Expansion Building Types"]:
        Keeps I-III "take your next Troop for free. Do not collect Influence points for it";
        Chapels I-III an action token at the end of the turn; Vaults I-III "may immediately
        flip an action wedge"; a built Mill removes a building. A building removed by a Mill
        grants its effect only with ``mill_effects`` [I]. Returns "mill", "vault" or ""."""
        s[seat(p) + L.PL_BOARD + btype] &= ~(1 << level)
        if btype == T.CASTLE and T.CASTLE_KNIGHT[level]:
            self.release_knight(s, p, r)
        if btype == T.MILL and built:
            return "mill"
        if level == T.LEVEL_IV or btype < T.N_BASE_TYPES:
            return ""
        if not built and not self.mill_effects:
            return ""
        if btype == T.KEEP and self.next_troop(s, p) >= 0:
            s[seat(p) + L.PL_TROOPS] += 1
        elif btype == T.CHAPEL:
            s[seat(p) + L.PL_CHAPELQ] += 1
        elif btype == T.VAULT:
            return "vault"
        return ""

    @staticmethod
    def release_knight(s: State, p: int, r: int) -> None:
        """The first castle knight still off the map goes to r [C]."""
        b = seat(p)
        for k in range(1, 1 + T.SPARE_KNIGHTS):
            if s[b + L.PL_KNIGHT + k] == NO_KNIGHT:
                s[b + L.PL_KNIGHT + k] = r
                return

    def mill_targets(self, s: State, p: int, mill_level: int) -> set[tuple[int, int]]:
        """[R "Expansion Building Types"]: a Mill of level n removes "any level I-n building
        from your player board", "any eligible building ... even if the previous buildings
        of that type are still there"; "the level IV Mill may not remove the level IV Bank"."""
        return {
            (t, level)
            for t in range(T.N_BUILDING_TYPES)
            for level in range(mill_level + 1)
            if self.on_board(s, p, t, level) and not (t == T.BANK and level == T.LEVEL_IV)
        }

    def after_building(self, s: State, follow: str) -> None:
        """A Mill's removal or a Vault's flip, when one is possible; else the next action."""
        p = s[L.CUR]
        if follow == "mill" and self.mill_targets(s, p, s[L.MILL_LEVEL]):
            s[L.PHASE] = L.PH_MILL
        elif follow == "vault" and not self.all_upgraded(s, p):
            s[L.PHASE] = L.PH_VAULT
        else:
            self.next_action(s)

    # ================================================================== end of the turn
    def sow_used_wedge(self, s: State) -> None:
        """After the actions: sow the resolved wedge [C]."""
        s[L.SOWING_DIST] = 0
        self.start_sowing(s, s[L.CTX_WEDGE])

    def start_sowing(self, s: State, i: int) -> None:
        """Sow wedge i; the player chooses how when the order's power offers a choice."""
        p = s[L.CUR]
        s[L.CTX_WEDGE] = i
        ways = [c for c in range(A.N_SOW) if self.sowing_ok(s, p, i, c)]
        if len(ways) > 1:
            s[L.PHASE] = L.PH_SOW
            return
        self.sow(s, p, i, A.SOWC_NORMAL)
        self.after_sowing(s)

    def after_sowing(self, s: State) -> None:
        if s[L.SOWING_DIST]:
            self.next_distribution(s)
        else:
            self.end_of_turn_effects(s)

    def end_of_turn_effects(self, s: State) -> None:
        """[R "Expansion Building Types"]: "At the end of a turn in which you built any of the
        first 3 Chapels, after distributing action tokens, add an action token to the action
        wedge used this turn". Livonian Brothers [R "Knight Orders"]: "After a turn in which
        you built an expansion building ..., you may distribute any bin"."""
        p = s[L.CUR]
        b = seat(p)
        chapel_tokens = s[b + L.PL_CHAPELQ]
        if chapel_tokens > 0 and s[L.USED_WEDGE] >= 0:
            s[b + L.PL_TOK + s[L.USED_WEDGE]] += chapel_tokens
            s[b + L.PL_TOKTOTAL] += chapel_tokens
            s[b + L.PL_CHAPELQ] = 0
        if s[L.BUILT_EXP] and s[b + L.PL_ORDER] == T.LIVONIAN:
            s[L.PENDING_DIST] += 1
        self.next_distribution(s)

    def next_distribution(self, s: State) -> None:
        """[R "Distribute"]: "finish your current turn, then optionally choose any wedge, and
        distribute the tokens in the usual way. You may use Knight Order abilities on this
        distribution" (each one may use a once-per-turn power anew, our reading)."""
        if s[L.PENDING_DIST] > 0:
            s[L.PENDING_DIST] -= 1
            s[L.POWER_USED] = 0
            s[L.PHASE] = L.PH_DIST
            return
        self.end_turn(s)

    def end_turn(self, s: State) -> None:
        """Play passes to the left; once the supply ran out, "finish the round" [C]: the game
        ends when play would return to the start player (seat 0). The turn cap ends it
        truncated (not a rule, ``core/turn_cap.py``)."""
        s[L.TURN] += 1
        nxt = (s[L.CUR] + 1) % self.players
        if s[L.ENDING] and nxt == 0:
            self.finish(s, truncated=False)
        elif s[L.TURN] >= self.turn_limit:
            self.finish(s, truncated=True)
        else:
            s[L.CUR] = nxt
            self.begin_turn(s)

    # ================================================================== scoring
    def finish(self, s: State, truncated: bool) -> None:
        for p, points in enumerate(self.final_points(s)):
            s[seat(p) + L.PL_SCORE] += points
        s[L.OVER] = 1
        s[L.TRUNC] = int(truncated)
        s[L.PHASE] = L.PH_OVER

    def final_points(self, s: State) -> list[int]:
        """End-of-game points per seat [R "Scoring"]: the majority award of each enemy type
        [C], the influence-tile majority ("the player with the most total Influence tiles
        ... 2-point ... 2nd most ... at least 1 Influence tile"), and "the end game points
        conferred by 7-cost Influence tiles and level I-III Vaults in addition to level IV
        buildings"."""
        out = [0] * self.players
        counted = [
            [s[seat(p) + L.PL_CAPT + kind] for p in range(self.players)]
            for kind in range(T.N_ENEMY_TYPES)
        ]
        if self.expansion:
            counted.append([s[seat(p) + L.PL_NTILES] for p in range(self.players)])
        for counts in counted:
            for p, points in enumerate(majority_ref(counts)):
                out[p] += points
        return [out[p] + self.endgame_points(s, p) for p in range(self.players)]

    def endgame_points(self, s: State, p: int) -> int:
        """Level IV [C]: "Castle: 4 per set of different enemy tokens. Church: 6. Farm: 1 per
        knight on the board and per mustered troop. Bank: 4 per level-4 building of yours on
        the board, including itself". [R "Expansion Building Types"]: Keep IV "1 point for
        each Troop you have face-up", Chapel IV "2 points for each action wedge ... with 2
        or more action tokens", Vault IV "1 point for each upgraded action wedge"; Vaults
        I-III "extra points" (``tables.VAULT_POINTS``); 7-cost tiles "1 point per Influence
        tile you have collected". A level IV counts once it is off the board.

        The giant token is one action token; it "counts as 2 tokens when resolving actions"
        [R "Female Order of the Band"] only, so a wedge holding the giant alone is not a
        wedge "with 2 or more action tokens" for the Chapel IV (the engine counts it 2:
        ``docs/rules/crusaders.md``, "Found by the reference")."""
        b = seat(p)
        done = {t: not self.on_board(s, p, t, T.LEVEL_IV) for t in range(T.N_BUILDING_TYPES)}
        troops = s[b + L.PL_TROOPS]
        points = 0
        if done[T.CASTLE]:
            points += T.CASTLE_IV_PER_SET * min(s[b + L.PL_CAPT : b + L.PL_CAPT + T.N_ENEMY_TYPES])
        if done[T.CHURCH]:
            points += T.CHURCH_IV_POINTS
        if done[T.FARM]:
            points += len(self.knights(s, p)) + troops
        if done[T.BANK]:
            mine = [
                c
                for r in range(T.N_REGIONS)
                for c in (s[L.R_BLD_A + r], s[L.R_BLD_B + r])
                if c >= 0 and building_owner(c) == p and building_level(c) == T.LEVEL_IV
            ]
            points += T.BANK_IV_PER_LEVEL4 * len(mine)
        if not self.expansion:
            return points
        if done[T.KEEP]:
            points += troops
        if done[T.CHAPEL]:  # action tokens on the wedge: the giant is one token here
            tokens = s[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES]
            full = [n for n in tokens if n >= T.CHAPEL_IV_MIN_TOKENS]
            points += T.CHAPEL_IV_PER_WEDGE * len(full)
        if done[T.VAULT]:
            points += sum(s[b + L.PL_UP : b + L.PL_UP + T.N_WEDGES])
        for level in range(T.N_LEVELS - 1):
            if not self.on_board(s, p, T.VAULT, level):
                points += int(T.VAULT_POINTS[level])
        return points + s[b + L.PL_NEND] * s[b + L.PL_NTILES]

    def result(self, s: State) -> list[float]:
        """ "The player with the most Influence points is the winner. In case of a tie, the
        tied player earlier in turn order is the winner" [R "Scoring"]: +1, the others -1."""
        scores = [s[seat(p) + L.PL_SCORE] for p in range(self.players)]
        winner = scores.index(max(scores))
        return [1.0 if p == winner else -1.0 for p in range(self.players)]

    # ================================================================== legal actions
    def legal(self, s: State) -> set[int]:
        """The legal action ids of the seat to move (none once the game is over)."""
        if s[L.OVER]:
            return set()
        p, phase = s[L.CUR], s[L.PHASE]
        b = seat(p)
        wedges = range(T.N_WEDGES)
        if phase == L.PH_ORDER:
            return {A.ORDER0 + o for o in range(T.N_ORDERS) if self.order_ok(s, p, o)}
        if phase == L.PH_SETUP:
            choice = self.setup_choice(s, p)
            return {A.WEDGE0 + i for i in wedges if self.setup_target_ok(s, p, choice, i)}
        if phase == L.PH_PLACE:
            return {A.REGION0 + r for r in range(T.N_REGIONS) if self.start_region_ok(s, r)}
        if phase == L.PH_TURN:
            return self.turn_options(s, p)
        if phase == L.PH_SPLIT:
            return {A.SPLIT0 + k for k in range(T.MAX_X + 1) if self.split_ok(s, k)}
        if phase == L.PH_FIRST:
            return {A.FIRST0, A.FIRST0 + 1}
        if phase == L.PH_BOOST:
            return {A.BOOST, A.DONE}
        if phase == L.PH_TRAVEL:
            moves = self.travel_moves(s, p)
            return {A.DONE} | {A.MOVE0 + T.N_KNIGHTS * r + k for k, r in moves}
        if phase == L.PH_CRUSADE:
            return {A.DONE} | {A.REGION0 + r for r in self.crusade_targets(s, p)}
        if phase == L.PH_SARACEN:
            r, e = s[L.SAR_REGION], s[L.SAR_TOKEN]
            return {A.SARACEN0 + j for j in range(3) if self.saracen_reward_ok(s, p, r, e, j)}
        if phase == L.PH_INFLUENCE:
            return {A.DONE} | {A.REGION0 + r for r in self.influence_targets(s, p)}
        if phase in (L.PH_TILE_UPGRADE, L.PH_VAULT):  # flip any basic wedge, or not
            return {A.DONE} | {A.WEDGE0 + i for i in wedges if not s[b + L.PL_UP + i]}
        if phase == L.PH_BUILD_TYPE:
            return {A.DONE} | {A.BTYPE0 + t for t in self.buildable_types(s, p)}
        if phase == L.PH_BUILD_SITE:
            return {A.REGION0 + r for r in self.build_sites(s, p, s[L.BTYPE])}
        if phase == L.PH_MILL:
            targets = self.mill_targets(s, p, s[L.MILL_LEVEL])
            return {A.DONE} | {A.MILL0 + T.N_LEVELS * t + lv for t, lv in targets}
        if phase == L.PH_SOW:
            i = s[L.CTX_WEDGE]
            return {A.SOW0 + c for c in range(A.N_SOW) if self.sowing_ok(s, p, i, c)}
        if phase == L.PH_DIST:  # any wedge with tokens, or none [R "Distribute"]
            return {A.DONE} | {A.WEDGE0 + i for i in wedges if s[b + L.PL_TOK + i] >= 1}
        raise ValueError(f"unknown phase {phase}")

    def turn_options(self, s: State, p: int) -> set[int]:
        """A turn [C]: resolve a wedge with X >= 1; upgrade a basic wedge (not in the
        Learning Game, ``upgrades=False``); "skip turn & distribute" a wedge with tokens
        (once all 6 are upgraded, or always with ``skip_turn=always``)."""
        skip_ok = self.skip_always or self.all_upgraded(s, p)
        out = set()
        for i in range(T.N_WEDGES):
            if self.wedge_value(s, p, i) >= 1:
                out.add(A.RESOLVE0 + i)
                if skip_ok:
                    out.add(A.WEDGE0 + i)
            if self.upgrades and not s[seat(p) + L.PL_UP + i]:
                out.add(A.UPGRADE0 + i)
        return out

    # ================================================================== one step
    def step(self, s: State, a: int) -> list[float]:
        """Apply legal action ``a`` in place; the rewards (+1 / -1) when the game ends."""
        s[L.STEP] += 1
        p, phase = s[L.CUR], s[L.PHASE]
        b = seat(p)
        if phase == L.PH_ORDER:
            self.keep_order(s, p, a - A.ORDER0)
            self.next_setup_question(s)
        elif phase == L.PH_SETUP:
            self.apply_setup_step(s, p, a - A.WEDGE0)
            self.next_setup_question(s)
        elif phase == L.PH_PLACE:
            self.place_first_knight(s, a - A.REGION0)
        elif phase == L.PH_TURN:
            self.take_turn(s, p, a)
        elif phase == L.PH_SPLIT:
            self.split(s, a - A.SPLIT0)
        elif phase == L.PH_FIRST:
            if a == A.FIRST0 + 1:  # the second action first
                s[L.Q_ACT0], s[L.Q_ACT1] = s[L.Q_ACT1], s[L.Q_ACT0]
                s[L.Q_VAL0], s[L.Q_VAL1] = s[L.Q_VAL1], s[L.Q_VAL0]
            self.next_action(s)
        elif phase == L.PH_BOOST:
            if a == A.BOOST:
                self.boost(s)
                if s[b + L.PL_ONCE + s[L.ACT]] > 0:
                    return self.rewards(s)
            if not self.start_action(s):
                self.next_action(s)
        elif phase == L.PH_TRAVEL:
            if a != A.DONE:
                r, k = divmod(a - A.MOVE0, T.N_KNIGHTS)
                self.move_knight(s, p, k, r)
            if a == A.DONE or not self.travel_moves(s, p):
                self.next_action(s)
        elif phase == L.PH_CRUSADE:
            if a != A.DONE and self.defeat_and_ask(s, p, a - A.REGION0):
                return self.rewards(s)
            self.next_action(s)
        elif phase == L.PH_SARACEN:
            self.saracen_reward(s, p, s[L.SAR_REGION], s[L.SAR_TOKEN], a - A.SARACEN0)
            s[L.SAR_REGION] = s[L.SAR_TOKEN] = -1
            self.next_action(s)
        elif phase == L.PH_INFLUENCE:
            # [R "Influence" 1]: an upgrade tile flips "any action wedge" at once
            if a != A.DONE and self.collect(s, p, a - A.REGION0) == T.TILE_UPGRADE:
                if not self.all_upgraded(s, p):
                    s[L.PHASE] = L.PH_TILE_UPGRADE
                    return self.rewards(s)
            self.next_action(s)
        elif phase in (L.PH_TILE_UPGRADE, L.PH_VAULT):
            if a != A.DONE:
                s[b + L.PL_UP + a - A.WEDGE0] = 1  # "Do not distribute any tokens" [R]
            self.next_action(s)
        elif phase == L.PH_BUILD_TYPE:
            if a == A.DONE:
                self.next_action(s)
            else:
                s[L.BTYPE] = a - A.BTYPE0
                s[L.PHASE] = L.PH_BUILD_SITE
        elif phase == L.PH_BUILD_SITE:
            r, btype = a - A.REGION0, s[L.BTYPE]
            s[L.MILL_LEVEL] = self.next_level(s, p, btype)  # the Mill's level, if a Mill
            s[L.SAR_REGION] = r  # where a removed Castle's knight goes
            self.after_building(s, self.put_building(s, p, btype, r))
        elif phase == L.PH_MILL:
            if a == A.DONE:
                self.next_action(s)
            else:
                t, level = divmod(a - A.MILL0, T.N_LEVELS)
                follow = self.take_off_board(s, p, t, level, s[L.SAR_REGION], built=False)
                self.after_building(s, follow)
        elif phase == L.PH_SOW:
            self.sow(s, p, s[L.CTX_WEDGE], a - A.SOW0)
            self.after_sowing(s)
        elif phase == L.PH_DIST:
            if a == A.DONE:
                self.next_distribution(s)
            else:
                s[L.SOWING_DIST] = 1
                self.start_sowing(s, a - A.WEDGE0)
        return self.rewards(s)

    def take_turn(self, s: State, p: int, a: int) -> None:
        """The three kinds of turn [C]: resolve; "Upgrade a wedge: flip it ... Optionally,
        then distribute the tokens of any one wedge without taking its action"; skip turn
        & distribute."""
        if a < A.UPGRADE0:
            self.resolve_wedge(s, p, a - A.RESOLVE0)
        elif a < A.WEDGE0:
            s[seat(p) + L.PL_UP + a - A.UPGRADE0] = 1  # "its tokens stay on it" [C1]
            s[L.PENDING_DIST] = 1
            self.next_distribution(s)
        else:
            s[L.SOWING_DIST] = 1
            self.start_sowing(s, a - A.WEDGE0)

    def defeat_and_ask(self, s: State, p: int, r: int) -> bool:
        """Crusade in r; True when a Saracen's reward is asked next."""
        e = s[L.R_ENEMY + r]
        if not self.defeat(s, p, r):
            return False
        s[L.SAR_REGION], s[L.SAR_TOKEN] = r, e
        s[L.PHASE] = L.PH_SARACEN
        return True

    def rewards(self, s: State) -> list[float]:
        return self.result(s) if s[L.OVER] else [0.0] * self.players
