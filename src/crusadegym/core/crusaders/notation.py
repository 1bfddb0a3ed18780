"""A text notation for Crusaders positions: tests read like the rulebook's examples.

A position is one header line, a block per seat and one line per non-empty region::

    crusaders players=2 expansion=1 seat=0 phase=turn supply=140 turn=0
    seat 0 order=female_band score=0 troops=0 coats=16 tiles=0 end=0 capt=0,0,0
      wheel TB:2 TI:2 MC:2^ CB:1g IM:2 BI:2
      board castle=1234 church=1234 farm=1234 bank=1234 keep=1234 chapel=1234 ...
      knights d3 - - -
      once 0,0,0,0,0 perm 0,0,0,0,0
    region c2 enemy=P bld=0Ch1 bld2=1Cp2 bonus=5 inf=13 coat=0

* wheel: the wedges clockwise from position 1, each ``<first><second>:<tokens>``
  (``TB`` = Travel, upgraded side Travel/Build; see ``tables.WEDGE_*``), ``^`` when
  upgraded, ``g`` when the giant token is one of its tokens.
* board: the levels (1-4) of each building type still on the player board.
* knights: region of each of the 4 knight slots (start, two castle knights, black), ``-``
  when not on the map.
* region fields: ``enemy=P|S|A<shows>`` (Saracen showing ``t`` a troop or a building
  ``ca ch fa ba``), ``bld``/``bld2`` = owner + building letters + level, ``bonus`` and
  ``inf`` = tile ids (``tables.BONUS_TILES`` / ``tables.INF_TILES``), ``coat`` = owner.
* ``capt`` = enemies kept per type; the tracks follow from it (one step per defeat).

:func:`parse_position` builds a full, valid state (every other enemy in the box, every
other tile out of the game); :func:`format_position` prints one; the two round-trip.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .config import P_ACTIVE, P_EXPANSION, P_PLAYERS, CrusadersConfig, make_params
from .rules import init

WEDGE_CODES = tuple(
    T.ACTION_LETTERS[T.WEDGE_FIRST[w]] + T.ACTION_LETTERS[T.WEDGE_SECOND[w]]
    for w in range(T.N_WEDGES)
)
SARACEN_SHOWS = ("t", "ca", "ch", "fa", "ba")  # -1 troop, then building types 0-3


def _bld_str(code: int) -> str:
    return f"{code // 32}{T.BUILDING_LETTERS[(code // 4) % 8]}{code % 4 + 1}"


def _parse_bld(text: str) -> tuple[int, int, int]:
    if len(text) != 4 or not text[0].isdigit() or not text[3].isdigit():
        raise ValueError(f"building must look like 0Ch1 (owner, letters, level), got {text!r}")
    if text[1:3] not in T.BUILDING_LETTERS or not 1 <= int(text[3]) <= T.N_LEVELS:
        raise ValueError(f"unknown building {text!r}; letters {', '.join(T.BUILDING_LETTERS)}")
    return int(text[0]), T.BUILDING_LETTERS.index(text[1:3]), int(text[3]) - 1


def _enemy_str(e: int) -> str:
    kind = int(T.ENEMY_TYPE[e])
    if kind != T.SARACEN:
        return T.ENEMY_LETTERS[kind]
    return "A" + SARACEN_SHOWS[int(T.SARACEN_REWARD[e]) + 1]


def _free_enemy(state: np.ndarray, kind: int, shows: int | None) -> int:
    for e in range(T.N_ENEMY_TOKENS):
        if state[L.ENEMY_LOC + e] != L.ELOC_BOX or T.ENEMY_TYPE[e] != kind:
            continue
        if shows is None or T.SARACEN_REWARD[e] == shows:
            return e
    raise ValueError(f"no {T.ENEMY_NAMES[kind]} token left in the box")


def _ints(text: str, n: int, what: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != n or not all(x.lstrip("-").isdigit() for x in parts):
        raise ValueError(f"{what} must be {n} comma-separated integers, got {text!r}")
    return [int(x) for x in parts]


def _lookup(names: tuple, word: str, what: str) -> int:
    """Index of ``word`` in ``names``; a one-line error listing the choices otherwise."""
    if word not in names:
        raise ValueError(f"unknown {what} {word!r}; one of {', '.join(names)}")
    return names.index(word)


def _fields(words: list[str]) -> dict[str, str]:
    out = {}
    for w in words:
        if "=" not in w:
            raise ValueError(f"expected key=value, got {w!r}")
        k, v = w.split("=", 1)
        out[k] = v
    return out


def parse_position(text: str, **options) -> tuple[np.ndarray, np.ndarray]:
    """State and params of a position written in the notation (options: the config)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("crusaders"):
        raise ValueError("a position starts with a 'crusaders key=value ...' header line")
    head = _fields(lines[0].split()[1:])
    opts = dict(options)
    if "players" in head:
        opts["players"] = int(head.pop("players"))
    if "expansion" in head:
        opts["expansion"] = head.pop("expansion") == "1"
    params = make_params(CrusadersConfig(**opts))
    state = np.zeros(L.STATE_SIZE, np.int32)
    init(state, params, np.int64(int(head.pop("seed", 0))))
    players = int(params[P_PLAYERS])
    for r in range(T.N_REGIONS):  # an empty map: enemies to the box, tiles out of play
        e = int(state[L.R_ENEMY + r])
        if e >= 0:
            state[L.ENEMY_LOC + e] = L.ELOC_BOX
        for off in (L.R_ENEMY, L.R_BONUS, L.R_INF):
            state[off + r] = -1
    state[L.CUR] = int(head.pop("seat", 0))
    state[L.PHASE] = _lookup(L.PHASE_NAMES, head.pop("phase", "turn"), "phase")
    state[L.SUPPLY] = int(head.pop("supply", state[L.SUPPLY]))
    state[L.ENDING] = int(head.pop("ending", 0))
    state[L.TURN] = int(head.pop("turn", 0))
    if head:
        raise ValueError(f"unknown header keys {sorted(head)}")
    for p in range(players):
        b = L.pl(p)
        state[b + L.PL_ORDER] = -1
        state[b + L.PL_DEALT : b + L.PL_DEALT + 2] = -1
    seat = -1
    for ln in lines[1:]:
        words = ln.split()
        key = words[0]
        if key == "seat":
            seat = int(words[1])
            if not 0 <= seat < players:
                raise ValueError(f"seat {seat} out of range for {players} players")
            _parse_seat(state, seat, _fields(words[2:]))
        elif key == "region":
            _parse_region(state, params, words[1], _fields(words[2:]))
        elif seat < 0:
            raise ValueError(f"{key!r} line before any 'seat' line")
        else:
            _parse_seat_line(state, params, seat, key, words[1:])
    _settle(state, params)
    return state, params


def _parse_seat(state: np.ndarray, p: int, f: dict[str, str]) -> None:
    b = L.pl(p)
    if "order" in f:
        state[b + L.PL_ORDER] = _lookup(T.ORDER_NAMES, f.pop("order"), "order")
    for key, off in (
        ("score", L.PL_SCORE),
        ("troops", L.PL_TROOPS),
        ("coats", L.PL_COATS),
        ("tiles", L.PL_NTILES),
        ("end", L.PL_NEND),
    ):
        if key in f:
            state[b + off] = int(f.pop(key))
    if "capt" in f:
        for k, n in enumerate(_ints(f.pop("capt"), T.N_ENEMY_TYPES, "capt")):
            for _ in range(n):
                state[L.ENEMY_LOC + _free_enemy(state, k, None)] = L.ELOC_CAPT0 - p
            state[b + L.PL_CAPT + k] = n
    if f:
        raise ValueError(f"unknown seat keys {sorted(f)}")


def _parse_seat_line(state: np.ndarray, params: np.ndarray, p: int, key: str, rest: list[str]):
    b = L.pl(p)
    if key == "wheel":
        if len(rest) != T.N_WEDGES:
            raise ValueError(f"a wheel has {T.N_WEDGES} wedges, got {len(rest)}")
        state[b + L.PL_GIANT] = -1
        for i, w in enumerate(rest):
            code, _, tail = w.partition(":")
            if code not in WEDGE_CODES:
                raise ValueError(f"unknown wedge {code!r}; one of {', '.join(WEDGE_CODES)}")
            state[b + L.PL_WHEEL + i] = WEDGE_CODES.index(code)
            state[b + L.PL_UP + i] = int("^" in tail)
            if "g" in tail:
                state[b + L.PL_GIANT] = i
            state[b + L.PL_TOK + i] = int(tail.replace("^", "").replace("g", ""))
        state[b + L.PL_TOKTOTAL] = int(state[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES].sum())
    elif key == "board":
        for k, v in _fields(rest).items():
            t = _lookup(T.BUILDING_NAMES, k, "building")
            state[b + L.PL_BOARD + t] = sum(1 << (int(c) - 1) for c in v if c != "-")
    elif key == "knights":
        for k, w in enumerate(rest):
            r = T.KNIGHT_AWAY if w == "-" else _lookup(T.REGION_NAMES, w, "region")
            if r >= 0 and not params[P_ACTIVE + r]:
                raise ValueError(f"knight in region {w}, which is not on this board side")
            state[b + L.PL_KNIGHT + k] = r
    elif key == "once":
        state[b + L.PL_ONCE : b + L.PL_ONCE + 5] = _ints(rest[0], 5, "once")
        if len(rest) == 3 and rest[1] == "perm":
            state[b + L.PL_PERM : b + L.PL_PERM + 5] = _ints(rest[2], 5, "perm")
    else:
        raise ValueError(f"unknown seat line {key!r}")


def _parse_region(state: np.ndarray, params: np.ndarray, name: str, f: dict[str, str]) -> None:
    r = _lookup(T.REGION_NAMES, name, "region")
    if not params[P_ACTIVE + r]:
        raise ValueError(f"region {name} is not on this board side")
    if "enemy" in f:
        v = f.pop("enemy")
        kind = _lookup(tuple(T.ENEMY_LETTERS), v[:1], "enemy")
        shows = _lookup(SARACEN_SHOWS, v[1:], "Saracen reward") - 1 if kind == T.SARACEN else None
        e = _free_enemy(state, kind, shows)
        state[L.R_ENEMY + r] = e
        state[L.ENEMY_LOC + e] = r
    for key, off in (("bld", L.R_BLD_A), ("bld2", L.R_BLD_B)):
        if key in f:
            o, t, lv = _parse_bld(f.pop(key))
            state[off + r] = o * 32 + t * 4 + lv
            state[L.pl(o) + L.PL_BOARD + t] &= ~(1 << lv)
    for key, off in (("bonus", L.R_BONUS), ("inf", L.R_INF), ("coat", L.R_COAT)):
        if key in f:
            state[off + r] = int(f.pop(key))
    if f:
        raise ValueError(f"unknown region keys {sorted(f)}")


def _settle(state: np.ndarray, params: np.ndarray) -> None:
    """Derived fields: tracks from the defeats, coats in hand, no stray tiles."""
    for k in range(2):
        loc = state[L.ENEMY_LOC : L.ENEMY_LOC + T.N_ENEMY_TOKENS]
        state[L.TRACK + k] = int(np.sum((loc <= L.ELOC_CAPT0) & (T.ENEMY_TYPE == k)))
    for p in range(int(params[P_PLAYERS])):
        placed = int(np.sum(state[L.R_COAT : L.R_COAT + T.N_REGIONS] == p))
        if params[P_EXPANSION]:
            state[L.pl(p) + L.PL_COATS] = T.COATS_OF_ARMS - placed
    if state[L.SUPPLY] <= 0:
        state[L.SUPPLY] = 0
        state[L.ENDING] = 1


def format_position(state: np.ndarray, params: np.ndarray) -> str:
    """The position in the notation (``parse_position`` reads it back)."""
    players = int(params[P_PLAYERS])
    lines = [
        f"crusaders players={players} expansion={int(params[P_EXPANSION])} "
        f"seat={int(state[L.CUR])} phase={L.PHASE_NAMES[int(state[L.PHASE])]} "
        f"supply={int(state[L.SUPPLY])} ending={int(state[L.ENDING])} turn={int(state[L.TURN])}"
    ]
    for p in range(players):
        b = L.pl(p)
        o = int(state[b + L.PL_ORDER])
        capt = ",".join(str(int(x)) for x in state[b + L.PL_CAPT : b + L.PL_CAPT + 3])
        head = f"seat {p}" + (f" order={T.ORDER_NAMES[o]}" if o >= 0 else "")
        lines.append(
            f"{head} score={int(state[b + L.PL_SCORE])} troops={int(state[b + L.PL_TROOPS])} "
            f"coats={int(state[b + L.PL_COATS])} tiles={int(state[b + L.PL_NTILES])} "
            f"end={int(state[b + L.PL_NEND])} capt={capt}"
        )
        wheel = []
        for i in range(T.N_WEDGES):
            w = WEDGE_CODES[int(state[b + L.PL_WHEEL + i])]
            up = "^" if state[b + L.PL_UP + i] else ""
            g = "g" if state[b + L.PL_GIANT] == i else ""
            wheel.append(f"{w}:{int(state[b + L.PL_TOK + i])}{up}{g}")
        lines.append("  wheel " + " ".join(wheel))
        rows = []
        for t in range(T.N_BUILDING_TYPES):
            m = int(state[b + L.PL_BOARD + t])
            levels = "".join(str(lv + 1) for lv in range(T.N_LEVELS) if (m >> lv) & 1)
            rows.append(f"{T.BUILDING_NAMES[t]}={levels or '-'}")
        lines.append("  board " + " ".join(rows))
        knights = [
            T.REGION_NAMES[int(r)] if r >= 0 else "-"
            for r in state[b + L.PL_KNIGHT : b + L.PL_KNIGHT + T.N_KNIGHTS]
        ]
        lines.append("  knights " + " ".join(knights))
        once = ",".join(str(int(x)) for x in state[b + L.PL_ONCE : b + L.PL_ONCE + 5])
        perm = ",".join(str(int(x)) for x in state[b + L.PL_PERM : b + L.PL_PERM + 5])
        lines.append(f"  once {once} perm {perm}")
    for r in range(T.N_REGIONS):
        if not params[P_ACTIVE + r]:
            continue
        f = []
        e = int(state[L.R_ENEMY + r])
        if e >= 0:
            f.append(f"enemy={_enemy_str(e)}")
        for key, off in (("bld", L.R_BLD_A), ("bld2", L.R_BLD_B)):
            if state[off + r] >= 0:
                f.append(f"{key}={_bld_str(int(state[off + r]))}")
        for key, off in (("bonus", L.R_BONUS), ("inf", L.R_INF), ("coat", L.R_COAT)):
            if state[off + r] >= 0:
                f.append(f"{key}={int(state[off + r])}")
        if f:
            lines.append(f"region {T.REGION_NAMES[r]} " + " ".join(f))
    return "\n".join(lines)


def format_view(state: np.ndarray, params: np.ndarray, seat: int) -> str:
    """The position as ``seat`` may see it.

    ``format_position`` never prints the dealt order tiles (only kept orders, which are
    public), so it is already every seat's view; the seat's own undecided pair is added.
    """
    text = format_position(state, params)
    b = L.pl(seat)
    if int(state[b + L.PL_ORDER]) < 0:
        dealt = [int(x) for x in state[b + L.PL_DEALT : b + L.PL_DEALT + 2] if x >= 0]
        if dealt:
            text += f"\nseat {seat} dealt " + " ".join(T.ORDER_NAMES[o] for o in dealt)
    return text
