"""The Deus action space: one fixed set of ids, a mask, one encode/decode pair.

A rulebook action is a short sequence of sub-decisions, each one id:

======================  ==================================================================
ids                     meaning
======================  ==================================================================
BUILD0 + d              build a card of design d from your hand [R A]
OFFER0 + d              offering: d is the top card (picks the god) [R B.1-3]; while
                        offering, one more card of design d goes under it
REGION0 + r             region r: where a building or temple goes; which production
                        building produces; which village to raid; which army moves and where
RES0 + k                a resource (wheat, wood, clay, stone): Ceres, buying, selling
PIECE0 + t              a piece type to take to the player board: Mars, Workshop-like cards
GOD0 + g                Jupiter invokes god g (Vesta, Minerva, Neptune, Mars, Ceres) [R B]
PAY_RESOURCE, PAY_GOLD  pay the next resource of a cost with the resource or 4 gold [R A.3]
DONE                    end the offering / stop an "up to" effect (also: Minerva, no more)
PASS                    only when nothing else is possible (no card in hand, none to draw)
DRAW                    Minerva: draw one more of the extra cards the offering allows [R B.3-4]
======================  ==================================================================
"""

from __future__ import annotations

import numpy as np

from . import tables as T

BUILD0 = 0
OFFER0 = BUILD0 + T.N_DESIGNS
REGION0 = OFFER0 + T.N_DESIGNS
RES0 = REGION0 + T.N_REGIONS
PIECE0 = RES0 + T.N_RESOURCES
GOD0 = PIECE0 + T.N_TYPES
PAY_RESOURCE = GOD0 + T.N_TYPES
PAY_GOLD = PAY_RESOURCE + 1
DONE = PAY_GOLD + 1
PASS = DONE + 1
DRAW = PASS + 1  # after PASS, so that the ids of the other actions are unchanged
N_ACTIONS = DRAW + 1

_SIMPLE = {
    PAY_RESOURCE: "pay resource",
    PAY_GOLD: "pay gold",
    DONE: "done",
    PASS: "pass",
    DRAW: "draw",
}
_SIMPLE_BACK = {v: k for k, v in _SIMPLE.items()}
_DESIGN_KEYS = tuple(
    name.lower().replace(" ", "-").replace("(", "").replace(")", "") for name in T.DESIGN_NAMES
)


def design_key(d: int) -> str:
    """A design's name as one lower-case word (``small-production-building``)."""
    return _DESIGN_KEYS[d]


def region_name(r: int) -> str:
    """Region r as ``<tile slot letter><position>``: ``a0`` is the centre of tile slot a."""
    return f"{'abcdefg'[r // T.REGIONS_PER_TILE]}{r % T.REGIONS_PER_TILE}"


def parse_region(text: str) -> int:
    """Inverse of :func:`region_name`; raises ValueError on anything else."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcdefg" or t[1] not in "0123456":
        raise ValueError(f"not a region: {text!r} (expected a0..g6)")
    return "abcdefg".index(t[0]) * T.REGIONS_PER_TILE + int(t[1])


def action_to_str(action: int, state: np.ndarray | None = None, params=None) -> str:
    """Readable name of an action id (its meaning in context is given by the phase)."""
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} out of range [0, {N_ACTIONS})")
    if a < OFFER0:
        return f"build {design_key(a - BUILD0)}"
    if a < REGION0:
        return f"offer {design_key(a - OFFER0)}"
    if a < RES0:
        return f"region {region_name(a - REGION0)}"
    if a < PIECE0:
        return f"resource {T.RESOURCE_NAMES[a - RES0]}"
    if a < GOD0:
        return f"piece {T.TYPE_NAMES[a - PIECE0]}"
    if a < PAY_RESOURCE:
        return f"god {T.GOD_NAMES[a - GOD0]}"
    return _SIMPLE[a]


def parse_action(text: str, state: np.ndarray | None = None, params=None) -> int:
    """Inverse of :func:`action_to_str`; raises ValueError naming what it could not read."""
    t = " ".join(text.strip().lower().split())
    if not t:
        raise ValueError("empty action text")
    if t in _SIMPLE_BACK:
        return _SIMPLE_BACK[t]
    head, _, rest = t.partition(" ")
    if head in ("build", "offer") and rest in _DESIGN_KEYS:
        return (BUILD0 if head == "build" else OFFER0) + _DESIGN_KEYS.index(rest)
    if head == "region" and rest:
        return REGION0 + parse_region(rest)
    if head == "resource" and rest in T.RESOURCE_NAMES:
        return RES0 + T.RESOURCE_NAMES.index(rest)
    if head == "piece" and rest in T.TYPE_NAMES:
        return PIECE0 + T.TYPE_NAMES.index(rest)
    if head == "god" and rest in T.GOD_NAMES[: T.N_TYPES]:
        return GOD0 + T.GOD_NAMES.index(rest)
    raise ValueError(
        f"cannot parse Deus action {text!r}; expected e.g. 'build library', 'offer forum', "
        "'region a3', 'resource wheat', 'piece civil', 'god ceres', 'pay gold', 'done', "
        "'draw'"
    )
