"""The Crusaders board as a picture (the ``rgb_array`` hook of :mod:`.render`).

Draws the stand-in hex map (regions off the board side in grey, flag and start
spaces marked), knights in their owners' colours, enemies (P Prussian, S Slav, A
Saracen), buildings (two-letter type, owner colour), bonus and influence tiles,
Coats-of-Arms, and below it each player's action wheel: six wedges with their actions,
tokens (the giant token as ``G``) and upgraded sides, plus scores and troops.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crusadegym.core import Game

HEX = 34  # hex radius in pixels
MARGIN = 20
HEADER = 40
WHEEL_R = 70
SEAT_COLOURS = ((196, 48, 43), (40, 90, 180), (212, 160, 23), (128, 60, 160))
ENEMY_COLOURS = ((90, 90, 90), (120, 70, 30), (25, 110, 75))
LAND = (226, 214, 176)
OFF_BOARD = (200, 200, 200)
FLAG = (190, 60, 60)
INK = (30, 30, 30)
TILE = (250, 240, 200)
WEDGE = (245, 240, 225)
WEDGE_UP = (236, 220, 160)
"""Fill of an upgraded wheel wedge (its second action open)."""


def _centre(r: int) -> tuple[float, float]:
    from crusadegym.core.crusaders import tables as T

    row, col = divmod(r, T.MAP_COLS)
    x = MARGIN + HEX + col * 1.5 * HEX
    y = HEADER + MARGIN + HEX + row * math.sqrt(3) * HEX + (col % 2) * math.sqrt(3) / 2 * HEX
    return x, y


def _hexagon(x: float, y: float) -> list[tuple[float, float]]:
    return [
        (x + HEX * math.cos(math.pi / 3 * k), y + HEX * math.sin(math.pi / 3 * k)) for k in range(6)
    ]


def draw(game: Game, state: np.ndarray) -> Image.Image:
    """Picture of ``state``: map, then one wheel per seat."""
    from crusadegym.core.crusaders import layout as L
    from crusadegym.core.crusaders import tables as T
    from crusadegym.core.crusaders.config import P_ACTIVE

    players = game.num_players
    map_w = int(MARGIN * 2 + HEX * (1.5 * T.MAP_COLS + 0.5))
    map_h = int(HEADER + MARGIN * 2 + math.sqrt(3) * HEX * (T.MAP_ROWS + 0.5))
    width = max(map_w, players * (2 * WHEEL_R + 40) + MARGIN)
    height = map_h + 2 * WHEEL_R + 70
    img = Image.new("RGB", (width, height), (250, 248, 240))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    phase = L.PHASE_NAMES[int(state[L.PHASE])]
    status = "game over" if state[L.OVER] else f"seat {int(state[L.CUR])} to play ({phase})"
    d.text(
        (MARGIN, 8),
        f"Crusaders  {status}  supply {int(state[L.SUPPLY])}  turn {int(state[L.TURN])}"
        f"  tracks P{int(state[L.TRACK])} S{int(state[L.TRACK + 1])}  (stand-in map)",
        fill=INK,
        font=font,
    )
    for r in range(T.N_REGIONS):
        x, y = _centre(r)
        on = bool(game.params[P_ACTIVE + r])
        d.polygon(_hexagon(x, y), fill=LAND if on else OFF_BOARD, outline=INK)
        d.text((x - 8, y - HEX + 6), T.REGION_NAMES[r], fill=INK, font=font)
        if not on:
            continue
        if T.MAP_FLAGS[r]:
            d.line([(x + 14, y - 22), (x + 14, y - 10)], fill=FLAG, width=2)
        if T.MAP_START[r]:
            d.text((x + 12, y - 24), "*", fill=INK, font=font)
        e = int(state[L.R_ENEMY + r])
        if e >= 0:
            kind = int(T.ENEMY_TYPE[e])
            d.ellipse([x - 24, y - 8, x - 10, y + 6], fill=ENEMY_COLOURS[kind])
            d.text((x - 20, y - 6), T.ENEMY_LETTERS[kind], fill=(255, 255, 255), font=font)
        for j, off in enumerate((L.R_BLD_A, L.R_BLD_B)):
            c = int(state[off + r])
            if c >= 0:
                bx = x - 8 + 18 * j
                d.rectangle([bx, y - 8, bx + 16, y + 6], fill=SEAT_COLOURS[c // 32])
                d.text((bx + 2, y - 7), T.BUILDING_LETTERS[(c // 4) % 8], fill=(255, 255, 255))
        t = int(state[L.R_INF + r])
        if t >= 0:
            d.rectangle([x - 8, y + 10, x + 8, y + 22], fill=TILE, outline=INK)
            d.text((x - 3, y + 10), str(int(T.INF_TILES[t, 1])), fill=INK, font=font)
        coat = int(state[L.R_COAT + r])
        if coat >= 0:
            d.polygon(
                [(x + 12, y + 10), (x + 22, y + 10), (x + 17, y + 22)], fill=SEAT_COLOURS[coat]
            )
        k = 0
        for p in range(players):
            for slot in range(T.N_KNIGHTS):
                if state[L.pl(p) + L.PL_KNIGHT + slot] == r:
                    kx = x - 24 + 9 * k
                    d.ellipse([kx, y + 8, kx + 8, y + 16], fill=SEAT_COLOURS[p], outline=INK)
                    k += 1
    for p in range(players):
        _draw_wheel(d, font, state, p, MARGIN + WHEEL_R + p * (2 * WHEEL_R + 40), map_h + WHEEL_R)
    return img


def _draw_wheel(d: ImageDraw.ImageDraw, font, state: np.ndarray, p: int, cx: int, cy: int) -> None:
    from crusadegym.core.crusaders import layout as L
    from crusadegym.core.crusaders import tables as T

    b = L.pl(p)
    for i in range(T.N_WEDGES):
        a0, a1 = -90 + 60 * i, -30 + 60 * i
        up = bool(state[b + L.PL_UP + i])
        fill = WEDGE_UP if up else WEDGE
        d.pieslice(
            [cx - WHEEL_R, cy - WHEEL_R, cx + WHEEL_R, cy + WHEEL_R], a0, a1, fill=fill, outline=INK
        )
        mid = math.radians((a0 + a1) / 2)
        w = int(state[b + L.PL_WHEEL + i])
        label = T.ACTION_LETTERS[T.WEDGE_FIRST[w]] + (
            "/" + T.ACTION_LETTERS[T.WEDGE_SECOND[w]] if up else ""
        )
        tx, ty = cx + 0.62 * WHEEL_R * math.cos(mid), cy + 0.62 * WHEEL_R * math.sin(mid)
        tokens = str(int(state[b + L.PL_TOK + i])) + ("G" if state[b + L.PL_GIANT] == i else "")
        d.text((tx - 8, ty - 10), label, fill=INK, font=font)
        d.text((tx - 4, ty + 2), tokens, fill=SEAT_COLOURS[p], font=font)
    order = int(state[b + L.PL_ORDER])
    name = T.ORDER_NAMES[order] if order >= 0 else "-"
    d.text(
        (cx - WHEEL_R, cy + WHEEL_R + 4),
        f"seat {p}: {int(state[b + L.PL_SCORE])} infl, "
        f"{int(state[b + L.PL_TROOPS])} troops\n{name}",
        fill=SEAT_COLOURS[p],
        font=font,
    )


def tile_names(tile_kind: str, tile: int) -> str:
    """A tile id as what it is: ``bonus`` 5 -> ``Ba-1`` (a build discount on that base
    type in its region), ``inf`` 29 -> ``once:C/4`` (kind, action letter, cost)."""
    from crusadegym.core.crusaders import tables as T

    if tile_kind == "bonus":
        btype, discount = (int(x) for x in T.BONUS_TILES[tile])
        return f"{T.BUILDING_LETTERS[btype]}-{discount}"
    kind, cost, action, _level = (int(x) for x in T.INF_TILES[tile])
    name = ("upgrade", "distrib", "once", "perm", "endgame")[kind]
    act = f":{T.ACTION_LETTERS[action]}" if action >= 0 else ""
    return f"{name}{act}/{cost}"


def _map_cell(game: Game, state: np.ndarray, r: int) -> str:
    from crusadegym.core.crusaders import layout as L
    from crusadegym.core.crusaders import tables as T

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
    from crusadegym.core.crusaders import tables as T
    from crusadegym.core.crusaders.config import P_ACTIVE

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
    import re

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
