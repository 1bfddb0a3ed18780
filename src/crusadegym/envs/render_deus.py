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


_EFFECTS = {
    1: "+{a} gold",
    2: "+{a} VP",
    3: "+{a} gold per {B} region you occupy",
    4: "+{a} VP per {B} region you occupy",
    5: "+{a} gold per region with >= {b} of your buildings",
    6: "+{a} VP per region with >= {b} buildings",
    7: "+{a} VP per pair of regions with >= {b} buildings",
    8: "+{a} {R} per production building on {B}",
    9: "each production building makes {a} of its region's resource",
    10: "one production building of your choice makes {a}",
    11: "draw {a} cards",
    12: "draw {a} per region with >= {b} buildings",
    13: "+{a} pieces of your choice",
    14: "+{a} pieces per region with >= {b} buildings",
    15: "buy up to {a} resources for {b} gold each",
    16: "sell up to {a} resources for {b} gold each",
    17: "sell up to {a} {C} for {b} VP each",
    18: "+{a} gold per village next to your armies",
    19: "take a VP from a village next to your armies",
    20: "up to {a} army moves of one region",
    21: "{a} VP from each rival next to your armies",
    22: "{a} gold from each rival next to your armies",
    23: "+{a} gold per {T} building you have",
    24: "+{a} VP per {T} building you have",
    30: "end: {a} VP per region with >= {b} buildings (max 12)",
    31: "end: {a} VP per {B} region you occupy (max 12)",
    32: "end: {a} VP per building of yours on {B} (max 12)",
    33: "end: {a} VP per {T} building on the map (max 12)",
}
"""Card effect templates (``tables.E_*`` / ``T_*``; a, b, c are the design's numbers)."""


def cost_text(cost) -> str:
    """A cost row (wheat, wood, clay, stone, gold) as ``1 wood + 2 gold`` (``free``)."""
    from crusadegym.core.deus import tables as T

    names = (*T.RESOURCE_NAMES, "gold")
    parts = [f"{int(n)} {names[k]}" for k, n in enumerate(cost) if n]
    return " + ".join(parts) if parts else "free"


def card_text(design: int) -> str:
    """``name (colour) cost ...: effect`` of a card design, one line."""
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import design_key

    a, b, c = int(T.DESIGN_A[design]), int(T.DESIGN_B[design]), int(T.DESIGN_C[design])
    template = _EFFECTS.get(int(T.DESIGN_EFFECT[design]), "no effect")
    effect = template.format(
        a=a,
        b=b,
        B=T.TERRAIN_NAMES[b] if 0 <= b < T.N_TERRAINS else b,
        R=T.RESOURCE_NAMES[b] if 0 <= b < T.N_RESOURCES else b,
        C=T.RESOURCE_NAMES[c] if 0 <= c < T.N_RESOURCES else c,
        T=T.TYPE_NAMES[b] if 0 <= b < T.N_TYPES else b,
    )
    colour = T.COLOUR_NAMES[int(T.DESIGN_COLOUR[design])]
    return f"{design_key(design)} ({colour}) cost {cost_text(T.DESIGN_COST[design])}: {effect}"


def text_map(game: Game, state: np.ndarray, cells: dict[str, str]) -> list[str]:
    """The regions on their hexes (touching hexes are neighbours): each row is offset by
    half a cell from the next, as on the table. ``cells``: region name -> its text."""
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import region_name
    from crusadegym.core.deus.config import P_ON_BOARD

    on = [r for r in range(T.N_REGIONS) if game.params[P_ON_BOARD + r]]
    if not on:
        return []
    width = max(len(cells.get(region_name(r), region_name(r))) for r in on) + 1
    half = (width + 1) // 2
    pos = {r: (int(T.AXIAL[r, 1]), 2 * int(T.AXIAL[r, 0]) + int(T.AXIAL[r, 1])) for r in on}
    r0 = min(p[0] for p in pos.values())
    x0 = min(p[1] for p in pos.values())
    rows: dict[int, list[tuple[int, str]]] = {}
    for r, (row, x) in pos.items():
        rows.setdefault(row - r0, []).append(((x - x0) * half, cells.get(region_name(r), "")))
    lines = []
    for row in range(max(rows) + 1):
        text = ""
        for x, cell in sorted(rows.get(row, [])):
            text = text.ljust(x) + cell
        lines.append("  " + text.rstrip())
    return lines


def text_board(game: Game, state: np.ndarray, seat: int | None = None) -> str:
    """The terminal board: the notation's lines with the regions on a hex map, each card
    in hand with its cost and effect, and the price still to pay during a payment.
    ``game.render`` itself is unchanged."""
    from crusadegym.core.deus import layout as L
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import design_key

    keys = {design_key(d): d for d in range(T.N_DESIGNS)}
    lines = game.render(state, seat).rstrip("\n").splitlines()
    out: list[str] = []
    cells: dict[str, str] = {}
    map_at = None
    for line in lines:
        words = line.split()
        if line.startswith("  ") and words and all(":" in w and "[" not in w[:2] for w in words):
            if all(w.split(":")[0][:1].isalpha() and w.split(":")[0][1:].isdigit() for w in words):
                for w in words:
                    cells[w.split(":")[0]] = w
                if map_at is None:
                    map_at = len(out)
                continue
        if line.startswith("  hand:"):
            out.append(line)  # the notation's line, then each card spelled out
            out += [f"    {card_text(keys[w])}" for w in words[1:] if w in keys]
            continue
        out.append(line)
    if cells:
        out[map_at:map_at] = text_map(game, state, cells)
    pay = state[L.PAY : L.PAY + 5]
    if pay.any() and not state[L.OVER]:
        out.append(f"price still to pay: {cost_text(pay)} (a resource may be paid as 4 gold)")
    return "\n".join(out)
