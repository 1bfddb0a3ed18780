"""The Crusaders board as a picture (the ``rgb_array`` hook of :mod:`.render`).

Draws the stand-in hex map (regions off the board side in grey, flag and start
spaces marked), knights in their owners' colours, enemies (P Prussian, S Slav, A
Saracen), buildings (two-letter type, owner colour), influence tiles, Coats-of-Arms, and
right of the map each player's action wheel: six wedges with their actions, tokens (the
giant token as ``G``) and upgraded sides, plus influence, troops and order. Labels use
Pillow's bundled font at 16 px (:func:`crusadegym.envs.render.text_font`), so the page
shows the picture at its own pixels.
"""

from __future__ import annotations

import math
import re

import numpy as np
from PIL import Image, ImageDraw

from crusadegym.core import Game
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders import tables as T
from crusadegym.core.crusaders.config import P_ACTIVE
from crusadegym.envs.render import centred_text, text_font

HEX = 42  # hex radius in pixels: room for 16 px labels
MARGIN = 12
HEADER = 28
"""Pixels of the status line above the map."""
WHEEL_R = 56
WHEEL_W = 2 * WHEEL_R + 20
"""Width of a wheel's column (two columns of wheels right of the map)."""
WHEEL_H = 2 * WHEEL_R + 66
"""Height of a wheel with the seat's three lines under it."""
MAP_FONT_SIZE = 16
"""Pixel size of the labels on the map and the wheels (region names, letters, costs)."""
STATUS_FONT_SIZE = 14
"""Pixel size of the status line and the seats' lines under the wheels."""
SEAT_COLOURS = ((196, 48, 43), (40, 90, 180), (212, 160, 23), (128, 60, 160))
ENEMY_COLOURS = ((90, 90, 90), (120, 70, 30), (25, 110, 75))
LAND = (226, 214, 176)
OFF_BOARD = (200, 200, 200)
FLAG = (190, 60, 60)
INK = (30, 30, 30)
WHITE = (255, 255, 255)
BACKGROUND = (250, 248, 240)
TILE = (250, 240, 200)
WEDGE = (245, 240, 225)
WEDGE_UP = (236, 220, 160)
"""Fill of an upgraded wheel wedge (its second action open)."""


def hex_centres(game: Game) -> dict[int, tuple[float, float]]:
    """Pixel centre of every region (on the board or not), as :func:`draw` places them:
    flat-topped hexes, odd columns half a hex lower, under the status line."""
    del game  # every map has the same grid; the game says only which regions are on it
    out = {}
    for r in range(T.N_REGIONS):
        row, col = divmod(r, T.MAP_COLS)
        x = MARGIN + HEX + col * 1.5 * HEX
        y = HEADER + MARGIN + math.sqrt(3) / 2 * HEX * (1 + 2 * row + col % 2)
        out[r] = (x, y)
    return out


def _hexagon(x: float, y: float) -> list[tuple[float, float]]:
    return [
        (x + HEX * math.cos(math.pi / 3 * k), y + HEX * math.sin(math.pi / 3 * k)) for k in range(6)
    ]


def draw(game: Game, state: np.ndarray) -> Image.Image:
    """Picture of ``state``: the map, and right of it the seats' wheels, two a row."""
    players = game.num_players
    map_w = int(MARGIN * 2 + HEX * (1.5 * T.MAP_COLS + 0.5))
    map_h = int(HEADER + MARGIN * 2 + math.sqrt(3) * HEX * (T.MAP_ROWS + 0.5))
    rows = (players + 1) // 2
    width = map_w + 2 * WHEEL_W
    height = max(map_h, HEADER + MARGIN + rows * WHEEL_H)
    img = Image.new("RGB", (width, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    small = text_font(STATUS_FONT_SIZE)
    font = text_font(MAP_FONT_SIZE)
    phase = L.PHASE_NAMES[int(state[L.PHASE])]
    status = "game over" if state[L.OVER] else f"seat {int(state[L.CUR])} to play ({phase})"
    d.text(
        (MARGIN, 6),
        f"Crusaders  {status}  supply {int(state[L.SUPPLY])}  turn {int(state[L.TURN])}"
        f"  tracks P{int(state[L.TRACK])} S{int(state[L.TRACK + 1])}  (stand-in map)",
        fill=INK,
        font=small,
    )
    for r, centre in hex_centres(game).items():
        _draw_region(d, font, game, state, r, centre)
    for p in range(players):
        row, column = divmod(p, 2)
        cx = map_w + column * WHEEL_W + WHEEL_W // 2
        cy = HEADER + MARGIN + WHEEL_R + row * WHEEL_H
        _draw_wheel(d, font, small, state, p, cx, cy)
    return img


def _draw_region(d: ImageDraw.ImageDraw, font, game: Game, state, r: int, centre) -> None:
    """One hex: name (top; flag pole right of it, ``*`` left for a start), then enemy and
    buildings, then knights, influence tile and Coat of Arms."""
    x, y = centre
    on = bool(game.params[P_ACTIVE + r])
    d.polygon(_hexagon(x, y), fill=LAND if on else OFF_BOARD, outline=INK)
    centred_text(d, (x, y - 24), T.REGION_NAMES[r], font, INK)
    if not on:
        return
    if T.MAP_FLAGS[r]:
        d.line([(x + 22, y - 32), (x + 22, y - 16)], fill=FLAG, width=3)
    if T.MAP_START[r]:
        centred_text(d, (x - 22, y - 22), "*", font, INK)
    e = int(state[L.R_ENEMY + r])
    if e >= 0:
        kind = int(T.ENEMY_TYPE[e])
        d.ellipse([x - 37, y - 12, x - 17, y + 8], fill=ENEMY_COLOURS[kind])
        centred_text(d, (x - 27, y - 2), T.ENEMY_LETTERS[kind], font, WHITE)
    for j, off in enumerate((L.R_BLD_A, L.R_BLD_B)):
        c = int(state[off + r])
        if c >= 0:
            bx = x - 13 + 24 * j
            d.rectangle([bx, y - 11, bx + 22, y + 7], fill=SEAT_COLOURS[c // 32])
            centred_text(d, (bx + 11, y - 2), T.BUILDING_LETTERS[(c // 4) % 8], font, WHITE)
    t = int(state[L.R_INF + r])
    if t >= 0:
        d.rectangle([x - 8, y + 11, x + 12, y + 29], fill=TILE, outline=INK)
        centred_text(d, (x + 2, y + 20), str(int(T.INF_TILES[t, 1])), font, INK)
    coat = int(state[L.R_COAT + r])
    if coat >= 0:
        d.polygon([(x + 15, y + 12), (x + 29, y + 12), (x + 22, y + 26)], fill=SEAT_COLOURS[coat])
    knights = [
        p
        for p in range(game.num_players)
        for slot in range(T.N_KNIGHTS)
        if state[L.pl(p) + L.PL_KNIGHT + slot] == r
    ]
    step = min(11.0, 11 / max(len(knights) - 1, 1))  # they overlap beyond two
    for k, p in enumerate(knights):
        kx = x - 29 + step * k
        d.ellipse([kx, y + 12, kx + 10, y + 22], fill=SEAT_COLOURS[p], outline=INK)


def _draw_wheel(d: ImageDraw.ImageDraw, font, small, state, p: int, cx: int, cy: int) -> None:
    b = L.pl(p)
    box = [cx - WHEEL_R, cy - WHEEL_R, cx + WHEEL_R, cy + WHEEL_R]
    for i in range(T.N_WEDGES):
        a0, a1 = -90 + 60 * i, -30 + 60 * i
        up = bool(state[b + L.PL_UP + i])
        d.pieslice(box, a0, a1, fill=WEDGE_UP if up else WEDGE, outline=INK)
        mid = math.radians((a0 + a1) / 2)
        w = int(state[b + L.PL_WHEEL + i])
        label = T.ACTION_LETTERS[T.WEDGE_FIRST[w]] + (
            "/" + T.ACTION_LETTERS[T.WEDGE_SECOND[w]] if up else ""
        )
        tx, ty = cx + 0.6 * WHEEL_R * math.cos(mid), cy + 0.6 * WHEEL_R * math.sin(mid)
        tokens = str(int(state[b + L.PL_TOK + i])) + ("G" if state[b + L.PL_GIANT] == i else "")
        centred_text(d, (tx, ty - 8), label, font, INK)
        centred_text(d, (tx, ty + 9), tokens, font, SEAT_COLOURS[p])
    order = int(state[b + L.PL_ORDER])
    lines = (
        f"seat {p}: {int(state[b + L.PL_SCORE])} infl",
        f"{int(state[b + L.PL_TROOPS])} troops",
        T.ORDER_NAMES[order] if order >= 0 else "no order yet",
    )
    for k, line in enumerate(lines):
        d.text((cx - WHEEL_R, cy + WHEEL_R + 4 + 18 * k), line, fill=SEAT_COLOURS[p], font=small)


def tile_names(tile_kind: str, tile: int) -> str:
    """A tile id as what it is: ``bonus`` 5 -> ``Ba-1`` (a build discount on that base
    type in its region), ``inf`` 29 -> ``once:C/4`` (kind, action letter, cost)."""
    if tile_kind == "bonus":
        btype, discount = (int(x) for x in T.BONUS_TILES[tile])
        return f"{T.BUILDING_LETTERS[btype]}-{discount}"
    kind, cost, action, _level = (int(x) for x in T.INF_TILES[tile])
    name = ("upgrade", "distrib", "once", "perm", "endgame")[kind]
    act = f":{T.ACTION_LETTERS[action]}" if action >= 0 else ""
    return f"{name}{act}/{cost}"


def _map_cell(game: Game, state: np.ndarray, r: int) -> str:
    out = T.REGION_NAMES[r]
    e = int(state[L.R_ENEMY + r])
    out += " " + (T.ENEMY_LETTERS[int(T.ENEMY_TYPE[e])] if e >= 0 else ".")
    knights = "".join(
        str(p)
        for p in range(game.num_players)
        for k in range(T.N_KNIGHTS)
        if state[L.pl(p) + L.PL_KNIGHT + k] == r
    )
    if knights:
        out += " k" + knights
    blds = sum(int(state[off + r] >= 0) for off in (L.R_BLD_A, L.R_BLD_B))
    if blds:
        out += f" b{blds}"
    coat = int(state[L.R_COAT + r])
    if coat >= 0:
        out += f" c{coat}"
    return out


def text_map(game: Game, state: np.ndarray) -> str:
    """The hex map in text: odd columns sit half a row lower, so a region touches the
    ones above/below it and the diagonal neighbours in the next columns. Each region:
    name, enemy letter (``.`` none), ``k`` + knights' seats, ``b`` + buildings, ``c`` +
    Coat-of-Arms owner."""
    active = [r for r in range(T.N_REGIONS) if game.params[P_ACTIVE + r]]
    cols = sorted({r % T.MAP_COLS for r in active})
    cells = {r: _map_cell(game, state, r) for r in active}
    step = (max(len(c) for c in cells.values()) + 2) // 2 + 1
    lines = []
    for row in range(T.MAP_ROWS):
        for parity in (0, 1):
            text = ""
            for i, col in enumerate(cols):
                r = row * T.MAP_COLS + col
                if col % 2 == parity and r in cells:
                    text = text.ljust(i * step) + cells[r]
            if text.strip():
                lines.append("  " + text.rstrip())
    return "\n".join(lines)


def text_board(game: Game, state: np.ndarray, seat: int | None = None) -> str:
    """The terminal board: the notation's header and seat blocks, a text hex map, then
    the regions' details with tile ids replaced by what the tiles are (two a line).
    ``game.render`` itself is unchanged."""
    lines = game.render(state, seat).rstrip("\n").splitlines()
    head = [ln for ln in lines if not ln.startswith("region ")]
    regions = [
        re.sub(
            r"\b(bonus|inf)=(\d+)",
            lambda m: f"{m.group(1)}={tile_names(m.group(1), int(m.group(2)))}",
            ln.removeprefix("region "),
        )
        for ln in lines
        if ln.startswith("region ")
    ]
    width = max((len(x) for x in regions), default=0) + 3
    pairs = [
        "  " + regions[i].ljust(width) + (regions[i + 1] if i + 1 < len(regions) else "")
        for i in range(0, len(regions), 2)
    ]
    return "\n".join(
        [*head, "map:", text_map(game, state), "regions:", *(p.rstrip() for p in pairs)]
    )
