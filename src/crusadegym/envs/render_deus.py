"""The Deus table as a picture (the ``rgb_array`` hook of :mod:`.render`).

Left: the continent tiles as hexagonal regions (terrain colours as on the tiles:
field yellow, forest green, swamp rust, mountain grey, sea blue, village brown), each
with its name, the owner's colour, the buildings it holds as type letters (c civil,
y scientific, m maritime ship, a army, p production), a temple mark, and the VP still on a
village. Right: each player's gold, resources, VP, pieces on the board and columns of
played cards (bottom to top), then the piles and the general supply. The drawing shows
the whole table (a spectator's view), like the ansi rendering.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crusadegym.core import Game

HEX = 30  # hex radius in pixels
MARGIN = 24
PANEL = 430
TERRAIN_COLOURS = (
    (236, 206, 90),  # field
    (70, 140, 70),  # forest
    (160, 90, 60),  # swamp
    (150, 150, 150),  # mountain
    (90, 150, 215),  # sea
    (70, 45, 30),  # village
)
SEAT_COLOURS = ((196, 48, 43), (40, 90, 180), (230, 230, 230), (128, 60, 160))
INK = (20, 20, 20)
BACKGROUND = (245, 240, 225)


def _centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of axial hex (q, r), pointy-top layout."""
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


def draw(game: Game, state: np.ndarray, seat: int | None = None) -> Image.Image:
    """With ``seat``, only what that seat may see: rivals' VP are drawn as ?."""
    from crusadegym.core.deus import layout as L
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import design_key, region_name
    from crusadegym.core.deus.config import P_ON_BOARD, P_PLAYERS

    params = game.params
    players = int(params[P_PLAYERS])
    on = [r for r in range(T.N_REGIONS) if params[P_ON_BOARD + r]]
    pts = {r: _centre(int(T.AXIAL[r, 0]), int(T.AXIAL[r, 1])) for r in on}
    xs = [p[0] for p in pts.values()]
    ys = [p[1] for p in pts.values()]
    ox, oy = MARGIN + HEX - min(xs), MARGIN + HEX + 20 - min(ys)
    board_w = int(max(xs) - min(xs) + 2 * HEX + 2 * MARGIN)
    board_h = int(max(ys) - min(ys) + 2 * HEX + 2 * MARGIN + 20)
    height = max(board_h, 110 + players * 150)
    img = Image.new("RGB", (board_w + PANEL, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    status = "game over" if state[L.OVER] else f"seat {int(state[L.CUR])} to move"
    d.text((MARGIN, 6), f"Deus  turn {int(state[L.TURN])}  {status}  "
           f"phase {L.PHASE_NAMES[int(state[L.PHASE])]}", fill=INK, font=font)  # fmt: skip
    for r in on:
        cx, cy = pts[r][0] + ox, pts[r][1] + oy
        corners = [
            (cx + HEX * math.cos(math.radians(60 * k + 30)),
             cy + HEX * math.sin(math.radians(60 * k + 30)))
            for k in range(6)
        ]  # fmt: skip
        terrain = int(state[L.TERRAIN + r])
        owner = int(state[L.OWNER + r])
        outline = SEAT_COLOURS[owner] if owner >= 0 else INK
        d.polygon(corners, fill=TERRAIN_COLOURS[terrain], outline=outline,
                  width=4 if owner >= 0 else 1)  # fmt: skip
        d.text((cx - 8, cy - 20), region_name(r), fill=INK, font=font)
        if terrain == T.VILLAGE:
            vp = "x" if state[L.ATTACKED + r] else f"{int(state[L.VILLAGE_VP + r])}VP"
            d.text((cx - 10, cy - 4), vp, fill=(255, 255, 255), font=font)
        pieces = int(state[L.PIECES + r])
        if pieces:
            kinds = "".join("cymap"[t] for t in range(T.N_TYPES) if pieces >> t & 1)
            d.rectangle((cx - 16, cy - 6, cx + 16, cy + 7), fill=SEAT_COLOURS[owner])
            d.text((cx - 14, cy - 5), kinds, fill=INK if owner == 2 else (255, 255, 255),
                   font=font)  # fmt: skip
            if pieces & L.TEMPLE_BIT:
                d.polygon([(cx, cy + 10), (cx - 7, cy + 20), (cx + 7, cy + 20)], fill=INK)
    x0 = board_w
    y = 8
    for p in range(players):
        pb = L.player(p)
        d.rectangle((x0, y, x0 + 12, y + 12), fill=SEAT_COLOURS[p], outline=INK)
        res = " ".join(f"{T.RESOURCE_NAMES[k]} {int(state[pb + L.RES + k])}" for k in range(4))
        vp = str(int(state[pb + L.VP])) if seat is None or seat == p else "?"
        d.text((x0 + 18, y), f"seat {p}: gold {int(state[pb + L.GOLD])}  VP "
               f"{vp}  hand {int(state[pb + L.HAND_N])}",
               fill=INK, font=font)  # fmt: skip
        d.text((x0 + 18, y + 14), res, fill=INK, font=font)
        board = " ".join(
            f"{T.TYPE_NAMES[t][:3]} {int(state[pb + L.ON_BOARD + t])}" for t in range(T.N_TYPES)
        )
        d.text((x0 + 18, y + 28), "on board: " + board, fill=INK, font=font)
        y += 44
        for colour in range(T.N_COLOURS):
            n = int(state[L.col_n(p, colour)])
            cards = [design_key(int(T.CARD_DESIGN[c]))
                     for c in state[L.col(p, colour) : L.col(p, colour) + n]]  # fmt: skip
            text = f"{T.COLOUR_NAMES[colour][:5]}: " + (" ".join(cards) if cards else "-")
            d.text((x0 + 18, y), text[:68], fill=INK, font=font)
            y += 14
        y += 10
    supply = " ".join(str(int(v)) for v in state[L.SUPPLY : L.SUPPLY + 4])
    d.text((x0, y), f"deck {int(state[L.DECK_N])}  discard {int(state[L.DISC_N])}  "
           f"temples left {int(state[L.TEMPLES_LEFT])}  supply {supply}",
           fill=INK, font=font)  # fmt: skip
    return img
