"""The Deus lo Vult action space: one encode/decode pair, 175 ids, "select then act".

A rulebook action (move, attack, deploy, ...) takes two steps, like touch-move in
chess: first ``CELL(c)`` selects the unit at ``c`` (or an empty cell of your own camp
to deploy on); then the selected unit acts. Stage one only offers selections that
have at least one legal follow-up, and a selection is binding.

======================  =====================================================
ids                     meaning
======================  =====================================================
0 .. 143                ``CELL(c)``: select the unit at c (stage 1), or move the
                        selected unit to c (stage 2)
144 .. 147              ``STRIKE(d)``: attack / plunder / steal / kill toward d
148 .. 151              ``GIVE(d)``: pass, secure or drop a coin toward d
152 .. 155              ``TAKE(d)``: pick up a loose coin from the cell toward d
156 .. 159              ``WITHDRAW``, ``HEAL``, ``REALIGN``, ``WEAKEN``
160 .. 165              ``DEPLOY(kind)`` on the selected camp cell
166 .. 173              ``PICK(kind)``: tactical placement, a Saracen for the next
                        green cell (setup, between rounds) or for the selected empty
                        green cell (a spawn). With blind placement ``PICK`` 166 is
                        ``SPAWN``: a Saracen drawn from the bag at random
174                     ``END_TURN``
======================  =====================================================
"""

from __future__ import annotations

import numpy as np

from . import tables as T

CELL0 = 0
STRIKE0 = T.N_CELLS
GIVE0 = STRIKE0 + 4
TAKE0 = GIVE0 + 4
WITHDRAW = TAKE0 + 4
HEAL = WITHDRAW + 1
REALIGN = HEAL + 1
WEAKEN = REALIGN + 1
DEPLOY0 = WEAKEN + 1
PICK0 = DEPLOY0 + T.N_CRUSADER_KINDS
END_TURN = PICK0 + T.N_SARACEN_KINDS
SPAWN = PICK0  # blind placement: spawn a random Saracen from the bag [R "Placing"]
N_ACTIONS = END_TURN + 1

_SIMPLE = {
    WITHDRAW: "withdraw",
    HEAL: "heal",
    REALIGN: "realign",
    WEAKEN: "weaken",
    END_TURN: "end",
}
_SIMPLE_BACK = {v: k for k, v in _SIMPLE.items()}
_DIRECTED = (("strike", STRIKE0), ("give", GIVE0), ("take", TAKE0))


def _blind(params) -> bool:
    from .config import P_SARACEN_PLACE, PLACE_BLIND

    return int(params[P_SARACEN_PLACE]) == PLACE_BLIND


def cell_name(c: int) -> str:
    """Cell in chess-like notation: column letter a-l, row number 1-12 from the top."""
    return f"{'abcdefghijkl'[c % T.SIZE]}{c // T.SIZE + 1}"


def parse_cell(text: str) -> int:
    """Inverse of :func:`cell_name`; raises ValueError on anything else."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in "abcdefghijkl" or not text[1:].isdigit():
        raise ValueError(f"not a cell: {text!r} (expected a1..l12)")
    row = int(text[1:]) - 1
    if not 0 <= row < T.SIZE:
        raise ValueError(f"row out of range in {text!r}")
    return row * T.SIZE + "abcdefghijkl".index(text[0])


def action_to_str(action: int, state: np.ndarray | None = None, params=None) -> str:
    """Readable name of an action id (the stage is implied by the state)."""
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} out of range [0, {N_ACTIONS})")
    if a < STRIKE0:
        return f"cell {cell_name(a)}"
    for name, base in _DIRECTED:
        if base <= a < base + 4:
            return f"{name} {T.DIR_NAMES[a - base]}"
    if a in _SIMPLE:
        return _SIMPLE[a]
    if DEPLOY0 <= a < PICK0:
        return f"deploy {T.KIND_NAMES[a - DEPLOY0]}"
    if a == SPAWN and params is not None and _blind(params):
        return "spawn"
    return f"pick {T.KIND_NAMES[T.KIND_SARACEN0 + a - PICK0]}"


def parse_action(text: str, state: np.ndarray | None = None, params=None) -> int:
    """Inverse of :func:`action_to_str`; raises ValueError naming what it could not read."""
    words = text.strip().lower().split()
    if not words:
        raise ValueError("empty action text")
    head, rest = words[0], words[1:]
    if head in _SIMPLE_BACK and not rest:
        return _SIMPLE_BACK[head]
    if head == "spawn" and not rest:
        return SPAWN
    if head == "cell" and len(rest) == 1:
        return CELL0 + parse_cell(rest[0])
    for name, base in _DIRECTED:
        if head == name and len(rest) == 1 and rest[0].upper() in T.DIR_NAMES:
            return base + T.DIR_NAMES.index(rest[0].upper())
    if head == "deploy" and len(rest) == 1 and rest[0] in T.KIND_NAMES[: T.N_CRUSADER_KINDS]:
        return DEPLOY0 + T.KIND_NAMES.index(rest[0])
    saracens = T.KIND_NAMES[T.KIND_SARACEN0 : T.KIND_QUARTER0]
    if head == "pick" and len(rest) == 1 and rest[0] in saracens:
        return PICK0 + saracens.index(rest[0])
    raise ValueError(f"cannot parse action {text!r}")
