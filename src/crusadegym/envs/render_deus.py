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
from PIL import Image, ImageDraw

from crusadegym.core import Game
from crusadegym.core.deus import layout as L
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.actions import design_key, region_name
from crusadegym.core.deus.config import P_ON_BOARD, P_PLAYERS
from crusadegym.envs.render import centred_text, text_font

HEX = 45  # hex radius in pixels: room for labels readable at 100% zoom
MARGIN = 24
HEADER = 26
"""Pixels of the status line above the map."""
PANEL = 560
MAP_FONT_SIZE = 16
"""Pixel size of the labels on the map (region names, buildings, village VP)."""
PANEL_FONT_SIZE = 14
"""Pixel size of the status line and the players' panel."""
PANEL_LINE = 19
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
WHITE = (255, 255, 255)
BACKGROUND = (245, 240, 225)
LIGHT_TERRAINS = (0, 3, 4)
"""Terrains (field, mountain, sea) light enough for dark ink; the others get white labels."""
PIECE_LETTERS = "cymap"
"""Building letters in the picture, one per ``tables.TYPE_NAMES`` entry."""


def _centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of axial hex (q, r), pointy-top layout."""
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


def hex_centres(game: Game) -> dict[int, tuple[float, float]]:
    """Pixel centre of every region on the board, as :func:`draw` places them (the map at
    the top left, after the margin and the status line)."""

    on = [r for r in range(T.N_REGIONS) if game.params[P_ON_BOARD + r]]
    pts = {r: _centre(int(T.AXIAL[r, 0]), int(T.AXIAL[r, 1])) for r in on}
    ox = MARGIN + HEX - min(p[0] for p in pts.values())
    oy = MARGIN + HEX + HEADER - min(p[1] for p in pts.values())
    return {r: (x + ox, y + oy) for r, (x, y) in pts.items()}


def _hexagon(cx: float, cy: float) -> list[tuple[float, float]]:
    return [
        (
            cx + HEX * math.cos(math.radians(60 * k + 30)),
            cy + HEX * math.sin(math.radians(60 * k + 30)),
        )
        for k in range(6)
    ]


def draw(game: Game, state: np.ndarray, seat: int | None = None) -> Image.Image:
    """With ``seat``, only what that seat may see (every seat's VP are public)."""

    players = int(game.params[P_PLAYERS])
    centres = hex_centres(game)
    board_w = int(max(x for x, _ in centres.values()) + HEX + MARGIN)
    board_h = int(max(y for _, y in centres.values()) + HEX + MARGIN)
    height = max(board_h, 140 + players * 8 * PANEL_LINE)
    img = Image.new("RGB", (board_w + PANEL, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    small = text_font(PANEL_FONT_SIZE)
    status = "game over" if state[L.OVER] else f"seat {int(state[L.CUR])} to move"
    d.text((MARGIN, 6), f"Deus  turn {int(state[L.TURN])}  {status}  "
           f"phase {L.PHASE_NAMES[int(state[L.PHASE])]}", fill=INK, font=small)  # fmt: skip
    font = text_font(MAP_FONT_SIZE)
    for r, centre in centres.items():
        _draw_region(d, font, state, r, centre)
    _draw_panel(d, small, state, players, seat, board_w)
    return img


def _draw_region(d: ImageDraw.ImageDraw, font, state: np.ndarray, r: int, centre) -> None:
    """One hex: terrain, owner's outline, name, village VP, buildings and temple."""

    cx, cy = centre
    terrain = int(state[L.TERRAIN + r])
    owner = int(state[L.OWNER + r])
    outline = SEAT_COLOURS[owner] if owner >= 0 else INK
    d.polygon(_hexagon(cx, cy), fill=TERRAIN_COLOURS[terrain], outline=outline,
              width=5 if owner >= 0 else 1)  # fmt: skip
    label = INK if terrain in LIGHT_TERRAINS else WHITE
    centred_text(d, (cx, cy - 0.55 * HEX), region_name(r), font, label)
    if terrain == T.VILLAGE:
        vp = "x" if state[L.ATTACKED + r] else f"{int(state[L.VILLAGE_VP + r])}VP"
        centred_text(d, (cx, cy + 0.5 * HEX), vp, font, WHITE)
    pieces = int(state[L.PIECES + r])
    if pieces:
        kinds = "".join(PIECE_LETTERS[t] for t in range(T.N_TYPES) if pieces >> t & 1)
        box = (cx - 0.6 * HEX, cy - 11, cx + 0.6 * HEX, cy + 11)
        d.rectangle(box, fill=SEAT_COLOURS[owner], outline=INK)
        centred_text(d, (cx, cy), kinds, font, INK if owner == 2 else WHITE)
        if pieces & L.TEMPLE_BIT:
            d.polygon([(cx, cy + 14), (cx - 9, cy + 28), (cx + 9, cy + 28)], fill=INK)


def _draw_panel(d: ImageDraw.ImageDraw, font, state, players: int, seat, x0: int) -> None:
    """The players' table right of the map: gold, VP, resources, pieces, played cards."""

    y = 8
    for p in range(players):
        pb = L.player(p)
        d.rectangle((x0, y + 2, x0 + 14, y + 16), fill=SEAT_COLOURS[p], outline=INK)
        res = " ".join(f"{T.RESOURCE_NAMES[k]} {int(state[pb + L.RES + k])}" for k in range(4))
        vp = str(int(state[pb + L.VP]))  # public: every VP change is (core/deus/observe.py)
        board = " ".join(
            f"{T.TYPE_NAMES[t][:3]} {int(state[pb + L.ON_BOARD + t])}" for t in range(T.N_TYPES)
        )
        lines = [
            f"seat {p}: gold {int(state[pb + L.GOLD])}  VP {vp}  hand {int(state[pb + L.HAND_N])}",
            res,
            "on board: " + board,
        ]
        for colour in range(T.N_COLOURS):
            n = int(state[L.col_n(p, colour)])
            cards = [design_key(int(T.CARD_DESIGN[c]))
                     for c in state[L.col(p, colour) : L.col(p, colour) + n]]  # fmt: skip
            lines.append(f"{T.COLOUR_NAMES[colour][:5]}: " + (" ".join(cards) if cards else "-"))
        for line in lines:
            d.text((x0 + 20, y), line[:68], fill=INK, font=font)
            y += PANEL_LINE
        y += 10
    supply = " ".join(str(int(v)) for v in state[L.SUPPLY : L.SUPPLY + 4])
    d.text((x0, y), f"deck {int(state[L.DECK_N])}  discard {int(state[L.DISC_N])}  "
           f"temples left {int(state[L.TEMPLES_LEFT])}  supply {supply}",
           fill=INK, font=font)  # fmt: skip


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

    names = (*T.RESOURCE_NAMES, "gold")
    parts = [f"{int(n)} {names[k]}" for k, n in enumerate(cost) if n]
    return " + ".join(parts) if parts else "free"


def card_text(design: int) -> str:
    """``name (colour) cost ...: effect`` of a card design, one line."""

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
