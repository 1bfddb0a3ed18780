"""The Crusaders action space: one fixed set of ids, one encode/decode pair.

A turn is decomposed into sequential sub-decisions (the phase in the state says which
kind is asked): choose a wedge, split an upgraded wedge, pick targets, sow.

=====================  ==========================================================
ids                    meaning
=====================  ==========================================================
``RESOLVE0 + i``       resolve the wedge at wheel position i (a turn, option A)
``UPGRADE0 + i``       upgrade the wedge at position i (a turn, option B)
``WEDGE0 + i``         choose position i: setup step, flip, distribute, skip-turn
``SPLIT0 + k``         give k of the upgraded wedge's value to its first action
``FIRST0 + j``         resolve the first (j=0) or the second (j=1) action first
``MOVE0 + 4*r + k``    Travel: move knight k into region r
``REGION0 + r``        region r: Crusade / Influence / build site / knight placement
``BTYPE0 + t``         Build: building type t
``SARACEN0 + j``       Saracen reward: build it, muster a troop, or 3 influence
``BOOST``              flip a one-time influence tile for +1 to this action
``ORDER0 + o``         keep Knight Order o
``MILL0 + 4*t + l``    Mill: remove your type-t building of level l+1
``SOW0 + c``           sowing with an order power (see :func:`sow_code`)
``DONE``               stop / decline the optional step
=====================  ==========================================================
"""

from __future__ import annotations

import numpy as np

from . import tables as T

N_POS = T.N_WEDGES
RESOLVE0 = 0
UPGRADE0 = RESOLVE0 + N_POS
WEDGE0 = UPGRADE0 + N_POS
SPLIT0 = WEDGE0 + N_POS
FIRST0 = SPLIT0 + T.MAX_X + 1
MOVE0 = FIRST0 + 2
REGION0 = MOVE0 + T.N_KNIGHTS * T.N_REGIONS
BTYPE0 = REGION0 + T.N_REGIONS
SARACEN0 = BTYPE0 + T.N_BUILDING_TYPES
BOOST = SARACEN0 + 3
ORDER0 = BOOST + 1
MILL0 = ORDER0 + T.N_ORDERS
SOW0 = MILL0 + T.N_BUILDING_TYPES * T.N_LEVELS
N_SOW = 3 + 2 * T.N_WEDGES  # normal, ccw, from-self, skip k (1..6), double at k (1..6)
DONE = SOW0 + N_SOW
N_ACTIONS = DONE + 1

SAR_BUILD, SAR_TROOP, SAR_INFLUENCE = 0, 1, 2
SARACEN_WORDS = ("build", "troop", "influence")
SOWC_NORMAL, SOWC_CCW, SOWC_FROM_SELF, SOWC_SKIP1, SOWC_DOUBLE1 = 0, 1, 2, 3, 3 + T.N_WEDGES
LEVEL_WORDS = ("I", "II", "III", "IV")


def sow_code_name(c: int) -> str:
    """Words of sowing code ``c`` (normal, ccw, self, skip k, double k)."""
    if c == SOWC_NORMAL:
        return "normal"
    if c == SOWC_CCW:
        return "ccw"
    if c == SOWC_FROM_SELF:
        return "self"
    if c < SOWC_DOUBLE1:
        return f"skip {c - SOWC_SKIP1 + 1}"
    return f"double {c - SOWC_DOUBLE1 + 1}"


def parse_region(text: str) -> int:
    """Region index of a name like ``d3``; ValueError naming the valid range otherwise."""
    t = text.strip().lower()
    if t not in T.REGION_NAMES:
        raise ValueError(f"not a region: {text!r} (expected a1..g5)")
    return T.REGION_NAMES.index(t)


def action_to_str(action: int, state: np.ndarray | None = None, params=None) -> str:
    """Readable name of an action id (the phase in the state says how it is used)."""
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} out of range [0, {N_ACTIONS})")
    if a < UPGRADE0:
        return f"resolve {a - RESOLVE0 + 1}"
    if a < WEDGE0:
        return f"upgrade {a - UPGRADE0 + 1}"
    if a < SPLIT0:
        return f"wedge {a - WEDGE0 + 1}"
    if a < FIRST0:
        return f"split {a - SPLIT0}"
    if a < MOVE0:
        return "first " + ("second" if a - FIRST0 else "first")
    if a < REGION0:
        r, k = divmod(a - MOVE0, T.N_KNIGHTS)
        return f"move {k} {T.REGION_NAMES[r]}"
    if a < BTYPE0:
        return f"region {T.REGION_NAMES[a - REGION0]}"
    if a < SARACEN0:
        return f"build {T.BUILDING_NAMES[a - BTYPE0]}"
    if a < BOOST:
        return f"saracen {SARACEN_WORDS[a - SARACEN0]}"
    if a == BOOST:
        return "boost"
    if a < MILL0:
        return f"order {T.ORDER_NAMES[a - ORDER0]}"
    if a < SOW0:
        t, lv = divmod(a - MILL0, T.N_LEVELS)
        return f"mill {T.BUILDING_NAMES[t]} {LEVEL_WORDS[lv]}"
    if a < DONE:
        return f"sow {sow_code_name(a - SOW0)}"
    return "done"


def _index(word: str, names: tuple, what: str) -> int:
    if word not in names:
        raise ValueError(f"unknown {what} {word!r}; one of {', '.join(names)}")
    return names.index(word)


def _number(word: str, lo: int, hi: int, what: str) -> int:
    if not word.isdigit() or not lo <= int(word) <= hi:
        raise ValueError(f"{what} must be a number in [{lo}, {hi}], got {word!r}")
    return int(word)


def parse_action(text: str, state: np.ndarray | None = None, params=None) -> int:
    """Inverse of :func:`action_to_str`; raises ValueError naming what it could not read."""
    if not isinstance(text, str):
        raise ValueError(f"action text must be a string, got {type(text).__name__}")
    w = text.strip().lower().split()
    if not w:
        raise ValueError("empty action text")
    head, rest = w[0], w[1:]
    n = len(rest)
    if head in ("done", "boost") and n == 0:
        return DONE if head == "done" else BOOST
    if head in ("resolve", "upgrade", "wedge") and n == 1:
        base = {"resolve": RESOLVE0, "upgrade": UPGRADE0, "wedge": WEDGE0}[head]
        return base + _number(rest[0], 1, N_POS, "wedge position") - 1
    if head == "split" and n == 1:
        return SPLIT0 + _number(rest[0], 0, T.MAX_X, "split")
    if head == "first" and n == 1:
        return FIRST0 + _index(rest[0], ("first", "second"), "first choice")
    if head == "move" and n == 2:
        k = _number(rest[0], 0, T.N_KNIGHTS - 1, "knight")
        return MOVE0 + T.N_KNIGHTS * parse_region(rest[1]) + k
    if head == "region" and n == 1:
        return REGION0 + parse_region(rest[0])
    if head == "build" and n == 1:
        return BTYPE0 + _index(rest[0], T.BUILDING_NAMES, "building")
    if head == "saracen" and n == 1:
        return SARACEN0 + _index(rest[0], SARACEN_WORDS, "Saracen reward")
    if head == "order" and n == 1:
        return ORDER0 + _index(rest[0], T.ORDER_NAMES, "order")
    if head == "mill" and n == 2:
        t = _index(rest[0], T.BUILDING_NAMES, "building")
        return MILL0 + T.N_LEVELS * t + _index(rest[1].upper(), LEVEL_WORDS, "level")
    if head == "sow" and n in (1, 2):
        if n == 1:
            return SOW0 + _index(rest[0], ("normal", "ccw", "self"), "sowing")
        k = _number(rest[1], 1, T.N_WEDGES, "sowing step")
        if rest[0] == "skip":
            return SOW0 + SOWC_SKIP1 + k - 1
        if rest[0] == "double":
            return SOW0 + SOWC_DOUBLE1 + k - 1
    raise ValueError(
        f"cannot parse action {text!r}; e.g. 'resolve 1', 'move 0 d3', 'region c2', 'done'"
    )
