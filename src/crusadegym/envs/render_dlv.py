"""The Deus lo Vult board as a picture (the ``rgb_array`` hook of :mod:`.render`).

Draws the 12x12 board (camps tinted in their owner's colour, green Saracen cells,
City Quarter slots), every token with its four edge icons turned by its facing,
owner colours, hatched weak sides, carried / held / loose coins, the selected
cell, a header with the game's status and a legend of the icons.

The position is read through :func:`cell_tokens`, the one place that knows the
state layout (``core/deus_lo_vult/layout.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crusadegym.core import Game

CELL = 56
MARGIN = 26
HEADER = 52
LEGEND = 64

SEAT_COLOURS = ((196, 48, 43), (40, 90, 180), (212, 160, 23), (128, 60, 160))
SARACEN_COLOUR = (25, 110, 75)
QUARTER_COLOUR = (176, 132, 84)
REFUGEE_COLOUR = (150, 150, 150)
AMENITY_COLOUR = (120, 84, 140)  # Field Amenity tokens of the Campaign
FLOOR = (236, 226, 200)
GREEN_CELL = (150, 196, 120)
SLOT_CELL = (112, 168, 96)
GOLD = (240, 196, 40)
INK = (30, 30, 30)


@dataclass(frozen=True)
class TokenView:
    """What a drawing needs to know about one token on a cell."""

    owner: int  # seat 0-3, or tables.OWNER_SARACEN / OWNER_QUARTER
    label: str  # kind letter (P F A V K C / g f a ...) or quarter number
    weak: bool  # weak side up (for a City Quarter: its Refugee side)
    edges: tuple[int, int, int, int]  # icon toward N, E, S, W (tables.ICON_*)
    coins: int  # carried (Crusader) or still held (quarter)
    moved: bool


def cell_tokens(game: Game, state: np.ndarray) -> list[TokenView | None]:
    """Per cell (``12 * row + col``), the token on it or ``None``."""
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.core.deus_lo_vult import tables as T

    out: list[TokenView | None] = []
    for cell in range(T.N_CELLS):
        t = int(state[L.BOARD + cell])
        if t < 0:
            out.append(None)
            continue
        owner, kind = int(T.TOKEN_OWNER[t]), int(T.TOKEN_KIND[t])
        side, face = int(state[L.TOK_SIDE + t]), int(state[L.TOK_FACE + t])
        # edges are stored as (front, right, back, left); front points along `face`
        edges = tuple(int(T.KIND_EDGES[kind, side, (d - face) % 4]) for d in range(4))
        if owner == T.OWNER_QUARTER:
            label = ("R" if side else "Q") + str(kind - T.KIND_QUARTER0)
        elif owner == T.OWNER_AMENITY:  # as in the notation: mct, mdg, ...
            label = "m" + T.KIND_LETTERS[kind]
        else:
            label = T.KIND_LETTERS[kind]
        out.append(
            TokenView(
                owner,
                label,
                bool(side),
                edges,
                int(state[L.TOK_COINS + t]),
                bool(state[L.TOK_MOVED + t]),
            )
        )
    return out


def campaign_status(game: Game, state: np.ndarray) -> str:
    """One line on a Campaign [R Part 2 "Campaign Mode"]: preset, Battle, Glory, coins
    carried into the next Battle ("" for a Duel)."""
    if game.name != "deus_lo_vult_campaign":
        return ""
    from crusadegym.core.deus_lo_vult.campaign import battle as B
    from crusadegym.core.deus_lo_vult.campaign.config import P_BATTLES, P_GLORY_TARGET

    n = game.num_players
    battles, target = int(game.params[P_BATTLES]), int(game.params[P_GLORY_TARGET])
    fought = int(state[B.C_BATTLE])
    now = fought if state[B.C_OVER] else fought + 1
    goal = f"/{battles}" if battles else f" (to {target} Glory)"
    glory = "-".join(str(int(g)) for g in state[B.C_GLORY : B.C_GLORY + n])
    line = f"Campaign {game.config.preset}: Battle {now}{goal}  Glory {glory}"
    carry = state[B.C_CARRY : B.C_CARRY + n]
    if carry.any():
        line += "  carried " + "-".join(str(int(c)) for c in carry)
    if state[B.C_OVER]:
        line += "  (over)"
    return line


def _status(game: Game, state: np.ndarray) -> tuple[str, str]:
    """Two header lines, taken from the notation's header (and a Campaign's status)."""
    head = game.render(state).splitlines()[0]
    fields = dict(item.partition("=")[::2] for item in head.split())
    line1 = (
        f"Deus lo Vult  -  seat {fields.get('seat')} to move, {fields.get('phase')} phase, "
        f"{fields.get('ap')} AP"
    )
    line2 = f"round {fields.get('round')}  turn {fields.get('turn')}  score {fields.get('score')}"
    campaign = campaign_status(game, state)
    if campaign:
        line1 = line1.replace("Deus lo Vult", "Deus lo Vult Campaign", 1)
        line2 = campaign + "  |  " + line2
    if "selected" in fields:
        line2 += f"  selected {fields['selected']}"
    if "purgatory" in fields:
        line2 += f"  purgatory {fields['purgatory']}"
    return line1, line2


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _edge_point(box: tuple[int, int, int, int], d: int, inset: float) -> tuple[float, float]:
    """Point ``inset`` px inside the middle of edge ``d`` (N E S W) of ``box``."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return ((cx, y0 + inset), (x1 - inset, cy), (cx, y1 - inset), (x0 + inset, cy))[d]


_OUT = ((0, -1), (1, 0), (0, 1), (-1, 0))  # outward unit vector per direction


def _icon(draw: ImageDraw.ImageDraw, box, d: int, icon: int) -> None:
    """One edge icon (tables.ICON_*) near edge ``d`` of a token box."""
    from crusadegym.core.deus_lo_vult import tables as T

    x, y = _edge_point(box, d, 7)
    ox, oy = _OUT[d]
    px, py = -oy, ox  # along the edge
    r = 5
    if icon == T.ICON_S:  # skull: black disc with two eyes
        draw.ellipse((x - r, y - r, x + r, y + r), fill=INK)
        draw.point([(x - 2, y - 1), (x + 2, y - 1)], fill="white")
    elif icon in (T.ICON_A, T.ICON_D):  # arrow(s) pointing out of the edge
        for k in range(1 if icon == T.ICON_A else 2):
            bx, by = x - ox * 5 * k, y - oy * 5 * k
            tip = (bx + ox * r, by + oy * r)
            draw.polygon(
                [
                    tip,
                    (bx - ox * r + px * r, by - oy * r + py * r),
                    (bx - ox * r - px * r, by - oy * r - py * r),
                ],
                fill=INK,
            )
    elif icon == T.ICON_X:  # cross / crescent: a cross
        draw.line((x - r, y, x + r, y), fill=INK, width=2)
        draw.line((x, y - r, x, y + r), fill=INK, width=2)
    elif icon == T.ICON_SH:  # shield: a grey bar along the edge
        hx, hy = 8 * abs(px) + 3 * abs(ox), 8 * abs(py) + 3 * abs(oy)
        draw.rectangle((x - hx, y - hy, x + hx, y + hy), fill=(120, 130, 140), outline=INK)
    elif icon == T.ICON_H:  # heart (vulnerable): a small red diamond
        draw.polygon([(x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)], fill=(220, 40, 60))
    elif icon == T.ICON_C:  # coin edge
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=INK)


def _coin(draw: ImageDraw.ImageDraw, x: float, y: float, n: int, font) -> None:
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=GOLD, outline=INK)
    draw.text((x, y), str(n), fill=INK, font=font, anchor="mm")


def _token_colour(view: TokenView) -> tuple[int, int, int]:
    from crusadegym.core.deus_lo_vult import tables as T

    if view.owner < T.MAX_PLAYERS:
        return SEAT_COLOURS[view.owner]
    if view.owner == T.OWNER_SARACEN:
        return SARACEN_COLOUR
    if view.owner == T.OWNER_AMENITY:
        return AMENITY_COLOUR
    return REFUGEE_COLOUR if view.weak else QUARTER_COLOUR


def _draw_token(draw: ImageDraw.ImageDraw, box, view: TokenView, fonts) -> None:
    colour = _token_colour(view)
    draw.rounded_rectangle(box, radius=6, fill=colour, outline=INK, width=2)
    x0, y0, x1, y1 = box
    if view.weak:  # weak side: hatched
        shade = tuple(int(c * 0.6) for c in colour)
        for k in range(-(y1 - y0), x1 - x0, 8):
            draw.line(
                (
                    x0 + max(k, 0),
                    y0 + max(-k, 0),
                    x0 + min(k + y1 - y0, x1 - x0),
                    y0 + min(y1 - y0, x1 - x0 - k),
                ),
                fill=shade,
                width=2,
            )
    for d in range(4):
        _icon(draw, box, d, view.edges[d])
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.text(
        (cx, cy),
        view.label,
        fill="white",
        font=fonts[1] if len(view.label) <= 2 else fonts[0],
        anchor="mm",
        stroke_width=2,
        stroke_fill=INK,
    )
    if view.coins:
        _coin(draw, x1 - 6, y0 + 6, view.coins, fonts[0])
    if view.moved:
        draw.ellipse((x0 + 3, y1 - 9, x0 + 9, y1 - 3), fill="white", outline=INK)


def _board_cells(draw: ImageDraw.ImageDraw, game: Game, state: np.ndarray, fonts) -> None:
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.core.deus_lo_vult import tables as T
    from crusadegym.core.deus_lo_vult.config import P_CAMP_CENTRE, P_CAMP_OWNER

    params = game.params
    green = set(T.SARACEN_CELLS.tolist())
    slots = set(T.QUARTER_SLOTS.tolist())
    centres = {int(params[P_CAMP_CENTRE + p]): p for p in range(game.num_players)}
    for cell in range(T.N_CELLS):
        r, c = divmod(cell, T.SIZE)
        x0, y0 = MARGIN + c * CELL, HEADER + MARGIN + r * CELL
        fill = FLOOR
        owner = int(params[P_CAMP_OWNER + cell])
        if owner >= 0:
            fill = tuple(
                int(0.35 * a + 0.65 * b) for a, b in zip(SEAT_COLOURS[owner], FLOOR, strict=True)
            )
        elif cell in slots:
            fill = SLOT_CELL
        elif cell in green:
            fill = GREEN_CELL
        draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=fill, outline=(120, 110, 90))
        if cell in centres:
            draw.ellipse(
                (x0 + 8, y0 + 8, x0 + CELL - 8, y0 + CELL - 8),
                outline=SEAT_COLOURS[centres[cell]],
                width=3,
            )
            score = int(state[L.SCORE + centres[cell]])
            if score and state[L.BOARD + cell] < 0:
                _coin(draw, x0 + CELL / 2, y0 + CELL / 2, score, fonts[0])
        elif cell in slots and state[L.BOARD + cell] < 0:
            draw.text(
                (x0 + CELL / 2, y0 + CELL / 2),
                "slot",
                fill=(40, 80, 40),
                font=fonts[0],
                anchor="mm",
            )
    for i in range(T.SIZE):  # coordinates: columns a-l, rows 1-12 from the top
        x = MARGIN + i * CELL + CELL / 2
        y = HEADER + MARGIN + i * CELL + CELL / 2
        draw.text((x, HEADER + MARGIN / 2), "abcdefghijkl"[i], fill=INK, font=fonts[0], anchor="mm")
        draw.text((MARGIN / 2, y), str(i + 1), fill=INK, font=fonts[0], anchor="mm")


def _legend(draw: ImageDraw.ImageDraw, top: int, fonts) -> None:
    from crusadegym.core.deus_lo_vult import tables as T

    x = MARGIN
    for icon, name in enumerate(T.ICON_NAMES):
        box = (x, top + 8, x + 24, top + 32)
        _icon(draw, (box[0] - 10, box[1] - 10, box[2] + 10, box[3] + 10), 0, icon)
        draw.text((x + 12, top + 40), name.split("/")[0], fill=INK, font=fonts[0], anchor="mt")
        x += 78
    draw.text((x, top + 16), "hatched = weak side", fill=INK, font=fonts[0])
    draw.text((x, top + 34), "gold disc = coins", fill=INK, font=fonts[0])


def draw(game: Game, state: np.ndarray) -> Image.Image:
    """The position as a Pillow image."""
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.core.deus_lo_vult import tables as T

    fonts = (_font(11), _font(16), _font(15))
    side = 2 * MARGIN + T.SIZE * CELL
    img = Image.new("RGB", (side, HEADER + side + LEGEND), (250, 247, 238))
    pen = ImageDraw.Draw(img)
    line1, line2 = _status(game, state)
    pen.text((MARGIN, 8), line1, fill=INK, font=fonts[2])
    pen.text((MARGIN, 28), line2, fill=INK, font=fonts[0])
    _board_cells(pen, game, state, fonts)
    sel = int(state[L.SEL])
    for cell, view in enumerate(cell_tokens(game, state)):
        r, c = divmod(cell, T.SIZE)
        x0, y0 = MARGIN + c * CELL, HEADER + MARGIN + r * CELL
        if view is not None:
            _draw_token(pen, (x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4), view, fonts)
        loose = int(state[L.GROUND + cell])
        if loose:
            _coin(pen, x0 + 10, y0 + CELL - 10, loose, fonts[0])
        if cell == sel:
            pen.rectangle(
                (x0 + 1, y0 + 1, x0 + CELL - 1, y0 + CELL - 1), outline=(255, 230, 0), width=4
            )
    _legend(pen, HEADER + side, fonts)
    return img


_DIRS = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def board_marks(game: Game, state: np.ndarray) -> tuple[int, set[int], set[int]]:
    """(selected cell or -1, empty cells a ``cell X`` action may choose now, cells a
    ``strike DIR`` may hit), from the legal actions of ``state``."""
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.core.deus_lo_vult import tables as T

    sel = int(state[L.SEL])
    choose: set[int] = set()
    hit: set[int] = set()
    if game.is_terminal(state):
        return -1, choose, hit
    for a in game.legal_actions(state):
        words = game.action_to_str(int(a), state).lower().split()
        if len(words) == 2 and words[0] == "cell":
            cell = 12 * (int(words[1][1:]) - 1) + "abcdefghijkl".index(words[1][0])
            if state[L.BOARD + cell] < 0:
                choose.add(cell)
        elif len(words) == 2 and words[0] == "strike" and 0 <= sel < T.N_CELLS:
            dr, dc = _DIRS[words[1]]
            r, c = divmod(sel, T.SIZE)
            for k in (1, 2):  # melee next to it, ranged two steps away
                rr, cc = r + k * dr, c + k * dc
                if 0 <= rr < T.SIZE and 0 <= cc < T.SIZE and state[L.BOARD + rr * T.SIZE + cc] >= 0:
                    hit.add(rr * T.SIZE + cc)
                    break
    return (sel if 0 <= sel < T.N_CELLS else -1), choose, hit


def text_board(game: Game, state: np.ndarray, seat: int | None = None) -> str:
    """The terminal board: the notation's board with the selected unit in ``[ ]``, the
    empty cells the seat may choose now (deploy zone, move or spawn cells) as ``+`` and
    the units a ``strike`` may hit marked ``x``. ``game.render`` itself is unchanged."""
    from crusadegym.core.deus_lo_vult import tables as T

    lines = game.render(state, seat).rstrip("\n").splitlines()
    sel, choose, hit = board_marks(game, state)
    grid: dict[int, list[str]] = {}
    for i, line in enumerate(lines):
        head = line[:4].strip()
        if head.isdigit() and 1 <= int(head) <= T.SIZE and len(line) > 4:
            grid[i] = [line[4 + 6 * c : 4 + 6 * c + 6].strip() for c in range(T.SIZE)]
            if len(line) > 4 + 6 * T.SIZE:  # a last token running past its column
                grid[i][-1] += line[4 + 6 * T.SIZE :].strip()
    if not grid:
        return "\n".join(lines)
    rows = sorted(grid)
    for r, i in enumerate(rows):
        for c, text in enumerate(grid[i]):
            cell = r * T.SIZE + c
            if cell == sel:
                grid[i][c] = f"[{text}]"
            elif cell in choose:
                grid[i][c] = "+"
            elif cell in hit:
                grid[i][c] = "x" + text
    width = max(6, max(len(t) for i in rows for t in grid[i]) + 1)
    for r, i in enumerate(rows):
        lines[i] = f"{r + 1:>2}  " + "".join(t.ljust(width) for t in grid[i]).rstrip()
    header = rows[0] - 1
    if header >= 0 and lines[header].split()[:1] == ["a"]:
        lines[header] = "    " + "".join(ch.ljust(width) for ch in "abcdefghijkl").rstrip()
    return "\n".join(lines)
