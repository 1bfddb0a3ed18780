"""A text notation for Deus lo Vult positions: tests read like the rulebook.

A position is a header line of ``key=value`` pairs and a 12x12 grid, one
whitespace-separated field per cell, row 1 at the top, columns a..l::

    seat=0 ap=7 phase=army players=2 score=0,0 purgatory=1K,sa
       a    b    c    d   ...
     1 .    .    .    .
     2 .    #    0F   .        # = a camp centre ($n: coins secured there are in score=)

Cell fields:

* ``.`` empty, ``#`` a camp centre, ``$n`` n loose coins on an empty cell;
* a token: owner + kind, then optional modifiers in this order:
  owner ``0``-``3`` (seat) with kind ``P F A V K C`` (pilgrim, footman, archer,
  pavesier, foot knight, cavalry); ``s`` with kind ``g f a m c n e x`` (Saracens);
  ``Q`` with the quarter number 0-11 (``Q9``); ``R`` with the quarter number (a Refugee);
* modifiers: ``'`` weak side; a facing arrow ``^ > v <`` (N E S W; defaults: the
  seat's camp facing for Crusaders, the cell's "moon" for Saracens on a green cell
  else north, the slot's coin direction for quarters); ``*n`` coins carried (Crusader)
  or still held (quarter); ``+n`` loose coins under the token; ``!`` may charge (its
  last action was its move).

:func:`parse_position` builds a full, valid state from this text (all other tokens in
reserve / the bag / the stack); :func:`format_position` prints one (round-trip exact
for every field the notation covers).
"""

from __future__ import annotations

import re

import numpy as np

from crusadegym.errors import NotationError

from . import layout as L
from . import tables as T
from .config import (
    P_CAMP_CENTRE,
    P_CAMPAIGN,
    P_MAX_TURNS,
    P_PLAYERS,
    P_QUARTER_FACING,
    P_SEAT_FACING,
    DuelConfig,
    make_params,
)

ARROWS = "^>v<"
_CRUSADER_LETTERS = T.KIND_LETTERS[: T.N_CRUSADER_KINDS]
_SARACEN_LETTERS = T.KIND_LETTERS[T.KIND_SARACEN0 : T.KIND_QUARTER0]
# Campaign only: War Engines / Hero tokens of a seat (0T, 1Y, ...), Field Amenities (mct)
_CAMPAIGN_LETTERS = T.KIND_LETTERS[T.KIND_CAMPAIGN0 : T.KIND_AMENITY0]
_AMENITY_CODES = T.KIND_LETTERS[T.KIND_AMENITY0 :]
_FIELD = re.compile(
    r"^(?:(?P<amenity>m[a-z]{2})|(?P<owner>[0-3sQR])(?P<kind>[A-Za-z]|\d{1,2}))"
    r"(?P<weak>')?(?P<face>[\^>v<])?"
    r"(?:\*(?P<coins>\d+))?(?:\+(?P<ground>\d+))?(?P<moved>!)?$"
)


def _default_face(params: np.ndarray, owner: int, t: int, cell: int) -> int:
    if owner < 4:
        return int(params[P_SEAT_FACING + owner])
    if owner == T.OWNER_SARACEN:
        idx = np.flatnonzero(T.SARACEN_CELLS == cell)
        return int(T.SARACEN_DIRS[idx[0]]) if idx.size else T.N
    slot = np.flatnonzero(T.QUARTER_SLOTS == cell)
    return int(params[P_QUARTER_FACING + slot[0]]) if slot.size else T.N


def _token_code(state: np.ndarray, params: np.ndarray, t: int, cell: int) -> str:
    owner, kind = int(T.TOKEN_OWNER[t]), int(T.TOKEN_KIND[t])
    side = int(state[L.TOK_SIDE + t])
    if owner < 4:
        text = f"{owner}{T.KIND_LETTERS[kind]}"
    elif owner == T.OWNER_AMENITY:
        text = f"m{T.KIND_LETTERS[kind]}"
    elif owner == T.OWNER_SARACEN:
        text = f"s{T.KIND_LETTERS[kind]}"
    else:
        text = f"{'R' if side else 'Q'}{kind - T.KIND_QUARTER0}"
    if side and owner != T.OWNER_QUARTER:
        text += "'"
    face = int(state[L.TOK_FACE + t])
    fixed = owner == T.OWNER_QUARTER and side or owner == T.OWNER_AMENITY
    if face != _default_face(params, owner, t, cell) and not fixed:
        text += ARROWS[face]
    coins = int(state[L.TOK_COINS + t])
    if coins:
        text += f"*{coins}"
    if state[L.GROUND + cell]:
        text += f"+{int(state[L.GROUND + cell])}"
    if state[L.TOK_MOVED + t]:
        text += "!"
    return text


def format_position(state: np.ndarray, params: np.ndarray) -> str:
    """The position as notation text (header line + 12 board rows)."""
    players = int(params[P_PLAYERS])
    purg = [int(t) for t in state[L.PURG : L.PURG + T.PURGATORY_SLOTS] if t >= 0]
    header = [
        f"seat={int(state[L.CUR])}",
        f"ap={int(state[L.AP])}",
        f"phase={L.PHASE_NAMES[int(state[L.PHASE])]}",
        f"players={players}",
        f"round={int(state[L.ROUND]) + 1}",
        f"turn={int(state[L.TURN]) + 1}/{int(params[P_MAX_TURNS])}",
        "score=" + ",".join(str(int(state[L.SCORE + p])) for p in range(players)),
    ]
    if state[L.SEL] >= 0:
        from .actions import cell_name

        header.append(f"selected={cell_name(int(state[L.SEL]))}")
    if purg:
        header.append("purgatory=" + ",".join(_purg_code(t) for t in purg))
    centres = {int(params[P_CAMP_CENTRE + p]) for p in range(players)}
    lines = [" ".join(header), "    " + "".join(f"{c:<6}" for c in "abcdefghijkl")]
    for r in range(T.SIZE):
        fields = []
        for c in range(T.SIZE):
            cell = T.SIZE * r + c
            t = int(state[L.BOARD + cell])
            if t >= 0:
                fields.append(_token_code(state, params, t, cell))
            elif cell in centres:
                fields.append("#")
            elif state[L.GROUND + cell]:
                fields.append(f"${int(state[L.GROUND + cell])}")
            else:
                fields.append(".")
        lines.append(f"{r + 1:>2}  " + "".join(f"{f:<6}" for f in fields).rstrip())
    return "\n".join(lines) + "\n"


def _purg_code(t: int) -> str:
    owner, kind = int(T.TOKEN_OWNER[t]), int(T.TOKEN_KIND[t])
    return f"{owner if owner < 4 else 's'}{T.KIND_LETTERS[kind]}"


def parse_position(text: str, config: DuelConfig | None = None) -> np.ndarray:
    """Build a state from notation text (see the module docstring).

    With a ``CampaignConfig`` the state is a Campaign state (Campaign tokens allowed,
    ``campaign ...`` lines read by ``campaign/notation.py``)."""
    config = config or DuelConfig()
    lines = [ln for ln in text.strip("\n").splitlines() if ln.strip()]
    extra = [ln for ln in lines if ln.split()[0] == "campaign"]
    lines = [ln for ln in lines if ln.split()[0] != "campaign"]
    header: dict[str, str] = {}
    if lines and "=" in lines[0]:
        for item in lines.pop(0).split():
            key, _, value = item.partition("=")
            header[key] = value
    if lines and lines[0].split()[0] == "a":
        lines.pop(0)
    players = int(header.get("players", config.players))
    if players != config.players:
        config = type(config)(**{**config.__dict__, "players": players})
    state_size, params, init = _game_parts(config)
    if extra and not params[P_CAMPAIGN]:
        raise NotationError("'campaign ...' lines need a Campaign config")
    state = np.zeros(state_size, np.int32)
    init(state, params, np.int64(int(header.get("seed", 0))))
    _clear(state)
    if len(lines) != T.SIZE:
        raise NotationError(f"expected {T.SIZE} board rows, got {len(lines)}")
    used: set[int] = set()
    for r, line in enumerate(lines):
        fields = line.split()
        if fields and fields[0] == str(r + 1):
            fields = fields[1:]
        if len(fields) != T.SIZE:
            raise NotationError(f"row {r + 1}: expected {T.SIZE} fields, got {len(fields)}")
        for c, field in enumerate(fields):
            _place_field(state, params, T.SIZE * r + c, field, used)
    _apply_header(state, params, header, used)
    if params[P_CAMPAIGN]:
        from .campaign.notation import apply_campaign_lines

        apply_campaign_lines(state, params, extra)
    return state


def _game_parts(config: DuelConfig):
    """(state size, params, init kernel) of a Duel or, for a CampaignConfig, a Campaign."""
    from .campaign.config import CampaignConfig

    if isinstance(config, CampaignConfig):
        from .campaign.config import make_params as campaign_params
        from .campaign.flow import campaign_init
        from .campaign.layout import CAMPAIGN_STATE_SIZE

        return CAMPAIGN_STATE_SIZE, campaign_params(config), campaign_init
    from .rules import init

    return L.STATE_SIZE, make_params(config), init


def _clear(state: np.ndarray) -> None:
    state[L.BOARD : L.BOARD + T.N_CELLS] = -1
    state[L.GROUND : L.GROUND + T.N_CELLS] = 0
    for t in range(T.N_TOKENS):
        state[L.TOK_LOC + t] = L.LOC_STACK if t >= T.QUARTER_TOKEN0 else L.LOC_RESERVE
        if not T.KIND_IN_DUEL[T.TOKEN_KIND[t]]:
            state[L.TOK_LOC + t] = L.LOC_OFF  # Campaign-only kinds stay out of the Duel
        state[L.TOK_SIDE + t] = 0
        state[L.TOK_COINS + t] = 0
        state[L.TOK_MOVED + t] = 0
    state[L.PURG : L.PURG + T.PURGATORY_SLOTS] = -1


def _free_token(owner: int, kind: int, used: set[int]) -> int:
    for t in range(T.N_TOKENS):
        if t not in used and T.TOKEN_OWNER[t] == owner and T.TOKEN_KIND[t] == kind:
            used.add(t)
            return t
    raise NotationError(f"no token of kind {T.KIND_NAMES[kind]} left for owner {owner}")


def _place_field(state: np.ndarray, params: np.ndarray, cell: int, field: str, used) -> None:
    if field in (".", "#"):
        return
    if field.startswith("$"):
        state[L.GROUND + cell] = int(field[1:])
        return
    m = _FIELD.match(field)
    if not m:
        raise NotationError(f"cannot read cell field {field!r}")
    o, k = m["owner"], m["kind"]
    campaign = bool(params[P_CAMPAIGN])
    if m["amenity"]:
        if not campaign or m["amenity"][1:] not in _AMENITY_CODES:
            raise NotationError(f"{field!r}: Field Amenities are Campaign tokens")
        o, owner = "m", T.OWNER_AMENITY
        kind = T.KIND_AMENITY0 + _AMENITY_CODES.index(m["amenity"][1:])
    elif o in "0123":
        owner = int(o)
        if owner >= int(params[P_PLAYERS]):
            raise NotationError(f"bad Crusader field {field!r}")
        if k in _CAMPAIGN_LETTERS and campaign:
            kind = T.KIND_CAMPAIGN0 + _CAMPAIGN_LETTERS.index(k)
        elif k in _CRUSADER_LETTERS:
            kind = _CRUSADER_LETTERS.index(k)
        else:
            raise NotationError(f"bad Crusader field {field!r}")
    elif o == "s":
        if k not in _SARACEN_LETTERS:
            raise NotationError(f"bad Saracen field {field!r}")
        owner, kind = T.OWNER_SARACEN, T.KIND_SARACEN0 + _SARACEN_LETTERS.index(k)
        if not T.KIND_IN_DUEL[kind]:
            raise NotationError(f"{field!r}: {T.KIND_NAMES[kind]} is not used in Duel Mode")
    else:
        if not k.isdigit() or int(k) >= T.N_QUARTERS:
            raise NotationError(f"bad quarter field {field!r}")
        owner, kind = T.OWNER_QUARTER, T.KIND_QUARTER0 + int(k)
    t = _free_token(owner, kind, used)
    state[L.BOARD + cell] = t
    state[L.TOK_LOC + t] = cell
    state[L.TOK_SIDE + t] = 1 if (m["weak"] or o == "R") else 0
    face = ARROWS.index(m["face"]) if m["face"] else _default_face(params, owner, t, cell)
    state[L.TOK_FACE + t] = face
    state[L.TOK_COINS + t] = int(m["coins"] or 0)
    state[L.GROUND + cell] = int(m["ground"] or 0)
    state[L.TOK_MOVED + t] = 1 if m["moved"] else 0


def _apply_header(state: np.ndarray, params: np.ndarray, header: dict, used: set) -> None:
    players = int(params[P_PLAYERS])
    state[L.CUR] = int(header.get("seat", 0))
    state[L.AP] = int(header.get("ap", T.ACTION_POINTS))
    state[L.PHASE] = L.PHASE_NAMES.index(header.get("phase", "army"))
    state[L.ROUND] = int(header.get("round", 1)) - 1
    state[L.TURN] = int(header.get("turn", "1").split("/")[0]) - 1
    state[L.SEL] = -1
    if "selected" in header:
        from .actions import parse_cell

        state[L.SEL] = parse_cell(header["selected"])
    scores = [int(x) for x in header.get("score", ",".join("0" * players)).split(",")]
    if len(scores) != players:
        raise NotationError(f"score= needs {players} numbers")
    state[L.SCORE : L.SCORE + players] = scores
    state[L.LAST_PLUNDER] = int(header.get("last", -1))
    purg = [x for x in header.get("purgatory", "").split(",") if x]
    if len(purg) > T.PURGATORY_SLOTS:
        raise NotationError("purgatory holds at most 9 units")
    for i, code in enumerate(purg):
        if code[0] in "0123" and code[1] in _CAMPAIGN_LETTERS and params[P_CAMPAIGN]:
            owner, kind = int(code[0]), T.KIND_CAMPAIGN0 + _CAMPAIGN_LETTERS.index(code[1])
        elif code[0] in "0123":
            owner, kind = int(code[0]), _CRUSADER_LETTERS.index(code[1])
        else:
            owner, kind = T.OWNER_SARACEN, T.KIND_SARACEN0 + _SARACEN_LETTERS.index(code[1])
        t = _free_token(owner, kind, used)
        state[L.PURG + i] = t
        state[L.TOK_LOC + t] = L.LOC_PURGATORY
    # coins of this round: on quarters, carried, loose (secured coins are in score=)
    on_board = int(state[L.GROUND : L.GROUND + T.N_CELLS].sum())
    for t in range(T.N_TOKENS):
        if state[L.TOK_LOC + t] >= 0:
            on_board += int(state[L.TOK_COINS + t])
    state[L.ROUND_LEFT] = int(header.get("left", on_board))
    # quarters not on the board form the stack, in id order
    dealt = [q for q in range(T.N_QUARTERS) if state[L.TOK_LOC + T.QUARTER_TOKEN0 + q] >= 0]
    rest = [q for q in range(T.N_QUARTERS) if q not in dealt]
    state[L.QORDER : L.QORDER + T.N_QUARTERS] = dealt + rest
    state[L.QNEXT] = len(dealt)
    state[L.OVER] = 0
    state[L.TRUNC] = 0
