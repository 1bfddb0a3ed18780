"""A text notation for Deus positions: print a state, or write one for a test.

Printing (``format_position``) shows what the table shows, seat by seat. Writing
(``parse_position``) starts from a fresh game of a given seed and applies lines, one
instruction each (``#`` starts a comment)::

    tile a V F W S M s s        terrain of tile slot a: centre, then ring 1..6
                                (F field, W forest, S swamp, M mountain, s sea, V village)
    piece a1 0 civil production region a1 holds seat 0's civil and production buildings
    temple a1                   a neutral temple in a1
    seat 0 gold 9 vp 5 res 1 0 2 1 board 2 2 2 2 2 supply 3 3 3 3 3 first a1
    hand 0 library forum        seat 0's hand (cards come from the deck; the old hand
                                goes back to it)
    column 0 villa-forest       add cards from the deck on top of seat 0's columns
    village a0 4                VP left on a village (0 marks it attacked)
    supply 8 8 8 8              the general supply of resources
    temples 3                   temple pieces left in the general supply
    to_move 1                   the seat to move

Pieces are taken from the player board (then the personal supply) so the 25 pieces of
each seat stay conserved; resources given with ``seat ... res`` come from the supply.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .actions import OFFER0, REGION0, action_to_str, design_key, parse_region, region_name
from .config import P_ON_BOARD, P_PLAYERS

_KEYS = {design_key(d): d for d in range(T.N_DESIGNS)}


def _design(word: str) -> int:
    if word not in _KEYS:
        raise ValueError(f"unknown card {word!r}; e.g. {', '.join(list(_KEYS)[:4])}")
    return _KEYS[word]


def _take_from_deck(state: np.ndarray, design: int) -> int:
    n = int(state[L.DECK_N])
    for i in range(n - 1, -1, -1):
        c = int(state[L.DECK + i])
        if T.CARD_DESIGN[c] == design:
            state[L.DECK + i : L.DECK + n - 1] = state[L.DECK + i + 1 : L.DECK + n].copy()
            state[L.DECK + n - 1] = -1
            state[L.DECK_N] = n - 1
            return c
    raise ValueError(f"no {design_key(design)} left in the deck")


def _to_deck(state: np.ndarray, c: int) -> None:
    state[L.DECK + int(state[L.DECK_N])] = c
    state[L.DECK_N] += 1
    state[L.CARD_LOC + c] = L.LOC_DECK
    state[L.KNOWN + c] = 0


def _recount_villages(state: np.ndarray, params: np.ndarray) -> None:
    on = params[P_ON_BOARD : P_ON_BOARD + T.N_REGIONS] != 0
    for r in range(T.N_REGIONS):
        if on[r] and state[L.TERRAIN + r] == T.VILLAGE:
            state[L.VILLAGE_VP + r] = sum(1 for n in T.NEIGH[r] if n >= 0 and on[n])
        else:
            state[L.VILLAGE_VP + r] = 0


def parse_position(text: str, game, seed: int = 0) -> np.ndarray:
    """A state of ``game`` (a Deus :class:`Game`) built from the notation above."""
    state = game.new_state(seed)
    params = game.params
    players = int(params[P_PLAYERS])
    for raw in text.splitlines():
        words = raw.split("#")[0].split()
        if not words:
            continue
        head, args = words[0], words[1:]
        try:
            _apply(state, params, players, head, args)
        except (ValueError, IndexError) as e:
            raise ValueError(f"bad position line {raw.strip()!r}: {e}") from None
    return state


def _apply(state, params, players, head, args) -> None:
    if head == "tile":
        slot = "abcdefg".index(args[0])
        for pos, ch in enumerate(args[1:8]):
            state[L.TERRAIN + slot * 7 + pos] = T.TERRAIN_CHARS.index(ch)
        _recount_villages(state, params)
    elif head == "piece":
        r, seat = parse_region(args[0]), int(args[1])
        for name in args[2:]:
            t = T.TYPE_NAMES.index(name)
            pb = L.player(seat)
            slot = L.ON_BOARD if state[pb + L.ON_BOARD + t] > 0 else L.IN_SUPPLY
            if state[pb + slot + t] <= 0:
                raise ValueError(f"seat {seat} has no {name} piece left")
            state[pb + slot + t] -= 1
            state[L.PIECES + r] |= 1 << t
            state[L.OWNER + r] = seat
            if state[pb + L.FIRST] < 0:
                state[pb + L.FIRST] = r
    elif head == "temple":
        r = parse_region(args[0])
        state[L.PIECES + r] |= L.TEMPLE_BIT
        state[L.TEMPLES_LEFT] -= 1
    elif head == "seat":
        seat = int(args[0])
        pb = L.player(seat)
        i = 1
        while i < len(args):
            key = args[i]
            if key in ("gold", "vp"):
                state[pb + (L.GOLD if key == "gold" else L.VP)] = int(args[i + 1])
                i += 2
            elif key == "res":
                for k in range(T.N_RESOURCES):
                    new = int(args[i + 1 + k])
                    state[L.SUPPLY + k] -= new - state[pb + L.RES + k]
                    state[pb + L.RES + k] = new
                i += 5
            elif key in ("board", "supply"):
                off = L.ON_BOARD if key == "board" else L.IN_SUPPLY
                for t in range(T.N_TYPES):
                    state[pb + off + t] = int(args[i + 1 + t])
                i += 6
            elif key == "first":
                state[pb + L.FIRST] = parse_region(args[i + 1])
                i += 2
            else:
                raise ValueError(f"unknown seat field {key!r}")
    elif head == "hand":
        seat = int(args[0])
        for c in range(T.N_CARDS):
            if state[L.CARD_LOC + c] == L.LOC_HAND0 + seat:
                _to_deck(state, c)
        state[L.player(seat) + L.HAND_N] = 0
        for word in args[1:]:
            c = _take_from_deck(state, _design(word))
            state[L.CARD_LOC + c] = L.LOC_HAND0 + seat
            state[L.KNOWN + c] = 1 << seat
            state[L.player(seat) + L.HAND_N] += 1
    elif head == "column":
        seat = int(args[0])
        for word in args[1:]:
            d = _design(word)
            c = _take_from_deck(state, d)
            colour = int(T.DESIGN_COLOUR[d])
            n = int(state[L.col_n(seat, colour)])
            state[L.col(seat, colour) + n] = c
            state[L.col_n(seat, colour)] = n + 1
            state[L.CARD_LOC + c] = L.LOC_COLUMN0 + seat
            state[L.KNOWN + c] = L.ALL_SEATS
    elif head == "village":
        r = parse_region(args[0])
        state[L.VILLAGE_VP + r] = int(args[1])
        state[L.ATTACKED + r] = int(int(args[1]) == 0)
    elif head == "supply":
        for k in range(T.N_RESOURCES):
            state[L.SUPPLY + k] = int(args[k])
    elif head == "temples":
        state[L.TEMPLES_LEFT] = int(args[0])
    elif head == "to_move":
        seat = int(args[0])
        if not 0 <= seat < players:
            raise ValueError(f"seat must be in [0, {players})")
        state[L.CUR] = seat
    else:
        raise ValueError(f"unknown instruction {head!r}")


def format_position(state: np.ndarray, params: np.ndarray, seat: int | None = None) -> str:
    """The table as text; with ``seat``, only what that seat sees (others' hands as counts)."""
    players = int(params[P_PLAYERS])
    on = params[P_ON_BOARD : P_ON_BOARD + T.N_REGIONS] != 0
    lines = [
        f"deus players={players} turn={int(state[L.TURN])} to_move={int(state[L.CUR])} "
        f"phase={L.PHASE_NAMES[int(state[L.PHASE])]}"
        + (" (game over)" if state[L.OVER] else "")
        + (" (final round)" if state[L.END_TRIGGER] and not state[L.OVER] else "")
    ]
    for slot in range(T.N_TILE_SLOTS):
        if not on[slot * 7]:
            continue
        cells = []
        for pos in range(7):
            r = slot * 7 + pos
            t = int(state[L.TERRAIN + r])
            cell = f"{region_name(r)}:{T.TERRAIN_CHARS[t]}"
            if t == T.VILLAGE:
                cell += "x" if state[L.ATTACKED + r] else str(int(state[L.VILLAGE_VP + r]))
            owner = int(state[L.OWNER + r])
            if owner >= 0:
                kinds = "".join(
                    "cymap"[t2] for t2 in range(T.N_TYPES) if state[L.PIECES + r] >> t2 & 1
                )
                cell += f"[{owner}{kinds}{'T' if state[L.PIECES + r] & L.TEMPLE_BIT else ''}]"
            cells.append(cell)
        lines.append("  " + " ".join(cells))
    for p in range(players):
        pb = L.player(p)
        vp = str(int(state[pb + L.VP]))  # public: every VP change is (observe.py)
        res = ",".join(str(int(x)) for x in state[pb + L.RES : pb + L.RES + 4])
        board = "".join(str(int(x)) for x in state[pb + L.ON_BOARD : pb + L.ON_BOARD + 5])
        lines.append(
            f"seat {p}: gold {int(state[pb + L.GOLD])} vp {vp} res {res} board {board} "
            f"hand {int(state[pb + L.HAND_N])}"
        )
        if seat is None or seat == p:
            hand = [
                design_key(int(T.CARD_DESIGN[c]))
                for c in range(T.N_CARDS)
                if state[L.CARD_LOC + c] == L.LOC_HAND0 + p
            ]
            lines.append("  hand: " + " ".join(hand))
        for colour in range(T.N_COLOURS):
            n = int(state[L.col_n(p, colour)])
            if n:
                ids = state[L.col(p, colour) : L.col(p, colour) + n]
                names = " ".join(design_key(int(T.CARD_DESIGN[c])) for c in ids)
                lines.append(f"  {T.COLOUR_NAMES[colour]}: {names}")
    top = "-"
    if state[L.DISC_N] > 0:
        c = int(state[L.DISC + int(state[L.DISC_N]) - 1])
        if seat is None or state[L.KNOWN + c] >> seat & 1:
            top = design_key(int(T.CARD_DESIGN[c]))
    supply = ",".join(str(int(x)) for x in state[L.SUPPLY : L.SUPPLY + 4])
    lines.append(
        f"deck {int(state[L.DECK_N])} discard {int(state[L.DISC_N])} (top {top}) "
        f"supply {supply} temples {int(state[L.TEMPLES_LEFT])}"
    )
    return "\n".join(lines)


def format_view(state: np.ndarray, params: np.ndarray, seat: int) -> str:
    """The table as ``seat`` may see it: rivals' hands as counts, the deck a count."""
    return format_position(state, params, seat)


def action_view(action: int, state: np.ndarray, params: np.ndarray, seat: int) -> str:
    """``action`` (played in ``state``) as ``seat`` sees it: a rival's face-down offering
    card [R B.2] is not named."""
    a = int(action)
    if state[L.PHASE] == L.PH_OFFER and OFFER0 <= a < REGION0 and int(state[L.CUR]) != seat:
        return "offer (a card face down)"
    return action_to_str(a, state, params)
