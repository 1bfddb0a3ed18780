"""What the page shows beside a board picture: a legend of every mark the picture uses,
and, for Deus, the players' table as readable text.

The colours and names come from the drawers (:mod:`crusadegym.envs.render_dlv`,
:mod:`crusadegym.envs.render_deus`, :mod:`crusadegym.envs.render_crusaders`) and the
games' tables, and the Deus card texts from :func:`crusadegym.envs.render_deus.card_text`
(the terminal's): nothing is copied here that could drift. A legend item is ``{"fill",
"ring", "mark", "text"}``: a swatch filled with ``fill`` (``#rrggbb`` or ``None``),
outlined in ``ring``, with ``mark`` written on it, then what it means. Everything here
is public: hidden things are read only from ``game.render(state, viewer)``, the viewer's
own notation.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crusadegym.core import Game


def _hex(rgb: tuple[int, ...]) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb[:3])


def legend_item(text: str, fill=None, ring=None, mark: str = "") -> dict:
    """One legend line: a swatch (``fill`` and ``ring`` colours as RGB tuples, a ``mark`` of
    one or two letters drawn on it) and its ``text``."""
    return {
        "fill": _hex(fill) if fill is not None else None,
        "ring": _hex(ring) if ring is not None else None,
        "mark": mark,
        "text": text,
    }


def _names(kinds: range | list[int]) -> str:
    from crusadegym.core.deus_lo_vult import tables as T

    return ", ".join(
        f"{T.KIND_LETTERS[k]} {T.KIND_NAMES[k].replace('saracen_', '').replace('_', ' ')}"
        for k in kinds
    )


def _dlv_legend(game: Game) -> list[dict]:
    from crusadegym.core.deus_lo_vult import tables as T
    from crusadegym.envs import render_dlv as R

    seats = R.SEAT_COLOURS[: game.num_players]
    out = []
    for p, colour in enumerate(seats):
        tint = tuple(int(0.35 * a + 0.65 * b) for a, b in zip(colour, R.FLOOR, strict=True))
        out.append(legend_item(f"seat {p}'s camp: deploy, heal and withdraw here", fill=tint))
    out += [
        legend_item(
            "camp centre: a coin given to it is secured (1 point); the disc in it counts "
            "the seat's points",
            fill=R.FLOOR,
            ring=seats[0],
            mark="o",
        ),
        legend_item(
            "green cell: a Saracen cell (Saracens spawn, heal and realign here)", fill=R.GREEN_CELL
        ),
        legend_item(
            "dark green cell: a City Quarter's slot; it reads 'slot' while no quarter stands on it",
            fill=R.SLOT_CELL,
            mark="slot",
        ),
        legend_item(
            "a Crusader in its seat's colour: " + _names(range(6)), fill=seats[0], mark="K"
        ),
        legend_item(
            "a Saracen (dark green): " + _names(range(6, 14)), fill=R.SARACEN_COLOUR, mark="g"
        ),
        legend_item(
            "a City Quarter Qn (Rn: its Refugee side); the gold disc: coins it still holds",
            fill=R.QUARTER_COLOUR,
            mark="Q4",
        ),
        legend_item(
            "gold disc with n: n coins (on a unit: carried; at a cell's corner: loose)",
            fill=R.GOLD,
            mark="2",
        ),
        legend_item(
            "hatched token: weak side up (a second wound sends it to Purgatory)",
            fill=seats[0],
            mark="///",
        ),
        legend_item(
            "white dot at a token's corner: it moved this turn",
            fill=(255, 255, 255),
            ring=R.INK,
            mark=".",
        ),
        legend_item("yellow frame: the selected unit", fill=R.FLOOR, ring=(255, 230, 0)),
        legend_item(
            "edge icons (see under the board): skull attacks and plunders, arrow shoots, "
            "shield blocks, heart can be robbed; `help strike` in the terminal"
        ),
    ]
    if game.name == "deus_lo_vult_campaign":
        kinds = [k for k in range(len(T.KIND_NAMES)) if 26 <= k < 32]
        out.append(
            legend_item(
                "Campaign units in the seat's colour: " + _names(kinds), fill=seats[0], mark="T"
            )
        )
        out.append(
            legend_item(
                "a Field Amenity token (Campaign): m + its letters, e.g. mct cat",
                fill=R.AMENITY_COLOUR,
                mark="mct",
            )
        )
    return out


def _deus_legend(game: Game) -> list[dict]:
    from crusadegym.core.deus import tables as T
    from crusadegym.envs import render_deus as R

    out = [
        legend_item(f"{name} region", fill=R.TERRAIN_COLOURS[t])
        for t, name in enumerate(T.TERRAIN_NAMES)
    ]
    out.append(
        legend_item(
            "VP still on a village (x: attacked, none left)",
            fill=R.TERRAIN_COLOURS[T.VILLAGE],
            mark="4VP",
        )
    )
    for p in range(game.num_players):
        out.append(legend_item(f"thick outline: seat {p} holds the region", ring=R.SEAT_COLOURS[p]))
    pieces = ", ".join(f"{R.PIECE_LETTERS[t]} {n}" for t, n in enumerate(T.TYPE_NAMES))
    out.append(
        legend_item(
            f"the owner's buildings on the region: {pieces}", fill=R.SEAT_COLOURS[0], mark="ca"
        )
    )
    out.append(legend_item("black triangle: a temple", mark="\u25b2"))
    out.append(legend_item("region names (a0..d6) are what you click or type: `region b5`"))
    return out


def _crusaders_legend(game: Game) -> list[dict]:
    """Every mark of :func:`crusadegym.envs.render_crusaders.draw`: map, then wheels."""
    from crusadegym.core.crusaders import tables as T
    from crusadegym.envs import render_crusaders as R

    buildings = ", ".join(
        f"{T.BUILDING_LETTERS[k]} {name}" for k, name in enumerate(T.BUILDING_NAMES)
    )
    actions = ", ".join(f"{T.ACTION_LETTERS[k]} {name}" for k, name in enumerate(T.ACTION_NAMES))
    seat = R.SEAT_COLOURS[0]
    return [
        legend_item(
            "a region of the map; its name (a1..g5) is what you click or type: `region d3`",
            fill=R.LAND,
        ),
        legend_item("grey hex: off the board in this game", fill=R.OFF_BOARD),
        legend_item(
            "red pole right of a hex's name: a flag (enemy space)",
            fill=R.LAND,
            ring=R.FLAG,
            mark="|",
        ),
        legend_item("* left of a hex's name: a starting region", fill=R.LAND, mark="*"),
        *(
            legend_item(
                f"enemy disc: {T.ENEMY_LETTERS[k]} {name}",
                fill=R.ENEMY_COLOURS[k],
                mark=T.ENEMY_LETTERS[k],
            )
            for k, name in enumerate(T.ENEMY_NAMES)
        ),
        legend_item("small disc in a seat's colour: that seat's knight", fill=seat, ring=R.INK),
        legend_item(f"square in a seat's colour: its building ({buildings})", fill=seat, mark="Ca"),
        legend_item(
            "pale tile with n: an influence tile costing n (its kind and action in the text board)",
            fill=R.TILE,
            ring=R.INK,
            mark="4",
        ),
        legend_item(
            "triangle in a seat's colour: that seat's Coat of Arms", fill=seat, mark="\u25bc"
        ),
        legend_item(
            f"wheel wedge: its action letter ({actions}); the number under it: tokens "
            "there, G: the giant token",
            fill=R.WEDGE,
            ring=R.INK,
            mark="M",
        ),
        legend_item(
            "gold wedge with two letters (first/second): an upgraded wedge",
            fill=R.WEDGE_UP,
            ring=R.INK,
            mark="T/C",
        ),
        legend_item("under each wheel: the seat's influence, troops and order", fill=seat),
    ]


LEGENDS = {
    "deus_lo_vult": _dlv_legend,
    "deus_lo_vult_campaign": _dlv_legend,
    "deus": _deus_legend,
    "crusaders": _crusaders_legend,
}
"""Picture legend per game; other games get their terminal legend's lines as text."""


def register_picture_legend(game_name: str, make: Callable[[Game], list[dict]]) -> None:
    """Show ``make(game)``'s items (:func:`legend_item`: a swatch and a label) beside
    ``game_name``'s board picture in the browser and the screenshots."""
    LEGENDS[game_name] = make


def picture_legend(game: Game) -> list[dict]:
    """The legend items of ``game``'s board picture ([] when it has no picture legend)."""
    make = LEGENDS.get(game.name)
    return make(game) if make else []


# -- the Deus side panel ------------------------------------------------------------------


def _hands(game: Game, state: np.ndarray, viewer: int | None) -> dict[int, list[str]]:
    """The card keys in each hand ``viewer`` may see, read from its own notation."""
    hands: dict[int, list[str]] = {}
    seat = None
    for line in game.render(state, viewer).splitlines():
        if line.startswith("seat ") and ":" in line:
            head = line.split(":", 1)[0].split()
            seat = int(head[1]) if len(head) == 2 and head[1].isdigit() else None
        elif line.startswith("  hand:") and seat is not None:
            hands[seat] = line.split()[1:]
    return hands


def deus_panel(game: Game, state: np.ndarray, viewer: int | None) -> list[dict]:
    """The Deus players' table as text: per seat ``{"colour", "title", "lines", "cards"}``
    (gold, VP as ``viewer`` may see it, resources, pieces, played cards per colour, and
    the visible hand with each card's cost and effect), then the piles."""
    from crusadegym.core.deus import layout as L
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import design_key
    from crusadegym.envs import render_deus as R

    keys = {design_key(d): d for d in range(T.N_DESIGNS)}
    hands = _hands(game, state, viewer)
    out = []
    for p in range(game.num_players):
        pb = L.player(p)
        vp = str(int(state[pb + L.VP]))  # public: every VP change is (core/deus/observe.py)
        res = ", ".join(f"{T.RESOURCE_NAMES[k]} {int(state[pb + L.RES + k])}" for k in range(4))
        left = ", ".join(
            f"{T.TYPE_NAMES[t]} {int(state[pb + L.ON_BOARD + t])}" for t in range(T.N_TYPES)
        )
        lines = [f"resources: {res}", f"pieces left to place: {left}"]
        for colour in range(T.N_COLOURS):
            n = int(state[L.col_n(p, colour)])
            if n:
                first = L.col(p, colour)
                cards = [design_key(int(T.CARD_DESIGN[c])) for c in state[first : first + n]]
                lines.append(f"played {T.COLOUR_NAMES[colour]}: {', '.join(cards)}")
        you = " (you)" if viewer == p else ""
        out.append(
            {
                "colour": _hex(R.SEAT_COLOURS[p]),
                "title": f"seat {p}{you}: gold {int(state[pb + L.GOLD])}, VP {vp}, "
                f"{int(state[pb + L.HAND_N])} cards in hand",
                "lines": lines,
                "cards": [R.card_text(keys[k]) for k in hands.get(p, []) if k in keys],
            }
        )
    supply = ", ".join(
        f"{T.RESOURCE_NAMES[k]} {int(v)}" for k, v in enumerate(state[L.SUPPLY : L.SUPPLY + 4])
    )
    piles = [
        f"deck {int(state[L.DECK_N])}, discard {int(state[L.DISC_N])}, temples left "
        f"{int(state[L.TEMPLES_LEFT])}",
        f"general supply: {supply}",
    ]
    pay = state[L.PAY : L.PAY + 5]
    if pay.any() and not state[L.OVER]:
        piles.append(f"price still to pay: {R.cost_text(pay)} (a resource may be paid as 4 gold)")
    out.append({"colour": None, "title": "the table", "lines": piles, "cards": []})
    return out


def deus_card_detail(game: Game, label: str) -> str:
    """The cost and effect of the card a Deus action label names ("" if none)."""
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import design_key
    from crusadegym.envs import render_deus as R

    keys = {design_key(d): d for d in range(T.N_DESIGNS)}
    for word in label.split():
        if word in keys:
            return R.card_text(keys[word])
    return ""


def deus_map_only(picture: np.ndarray) -> np.ndarray:
    """The Deus picture without its right-hand panel (shown as text instead) and without
    the empty rows under the map. Clicks keep their coordinates (the map is top left)."""
    from crusadegym.envs import render_deus as R

    width = picture.shape[1] - R.PANEL
    if width <= 0:
        return picture
    left = picture[:, :width]
    used = np.nonzero((left != np.array(R.BACKGROUND, np.uint8)).any(axis=(1, 2)))[0]
    bottom = min(left.shape[0], int(used[-1]) + R.MARGIN) if used.size else left.shape[0]
    return left[:bottom]
