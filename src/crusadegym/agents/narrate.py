"""What a move changed, in one line, from public state fields only (the terminal log).

:func:`changes` compares two states of one game and lists what a player at the table
saw happen: units wounded, healed, killed to Purgatory, deployed, withdrawn; coins
secured; Refugees; buildings, villages, knights, enemies beaten; scores. It reads only
what every seat may see (the board, scores shown on it): rivals' Deus hands and VP,
undecided Crusaders orders and face-down cards are never read. :func:`narrate_action`
steps a copy and prefixes the action as the viewer may see it
(``game.action_label(action, state, viewer)``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crusadegym.core import Game

MAX_ITEMS = 6
"""At most this many changes in a line (then ``...``)."""


def _dlv(game: Game, a: np.ndarray, b: np.ndarray, viewer: int | None) -> list[str]:
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.core.deus_lo_vult import tables as T

    def name(t: int) -> str:
        owner, kind = int(T.TOKEN_OWNER[t]), int(T.TOKEN_KIND[t])
        kname = T.KIND_NAMES[kind].replace("_", " ")
        if owner < T.MAX_PLAYERS:
            return f"seat {owner}'s {kname}"
        if owner == T.OWNER_SARACEN:
            return "Saracen " + kname.removeprefix("saracen ")
        if owner == T.OWNER_QUARTER:
            return f"City Quarter {kind - T.KIND_QUARTER0}"
        return kname

    def where(loc: int) -> str:
        r, c = divmod(loc, T.SIZE)
        return f"{'abcdefghijkl'[c]}{r + 1}"

    from crusadegym.core.deus_lo_vult.config import P_CAMP_OWNER

    placed = {  # owners whose unit was placed (moved, deployed) in this change
        int(T.TOKEN_OWNER[t])
        for t in range(T.N_TOKENS)
        if 0 <= int(b[L.TOK_LOC + t]) < T.N_CELLS and a[L.TOK_LOC + t] != b[L.TOK_LOC + t]
    }

    def why(t: int, cell: int, weak: int) -> str:
        owner = int(T.TOKEN_OWNER[t])
        camp = int(game.params[P_CAMP_OWNER + cell])
        if owner < T.MAX_PLAYERS and camp >= 0 and camp != owner:
            return " (left in a rival camp)"
        mover = int(a[L.CUR])  # one's own strong unit dies in one's own turn: a T
        if owner < T.MAX_PLAYERS and (owner in placed or owner == mover) and not weak:
            return " (stampede: trampled by 3 friends)"
        return " (second wound)" if weak else " (killed outright)"

    out: list[str] = []
    for t in range(T.N_TOKENS):
        la, lb = int(a[L.TOK_LOC + t]), int(b[L.TOK_LOC + t])
        sa, sb = int(a[L.TOK_SIDE + t]), int(b[L.TOK_SIDE + t])
        on_a, on_b = 0 <= la < T.N_CELLS, 0 <= lb < T.N_CELLS
        quarter = int(T.TOKEN_OWNER[t]) == T.OWNER_QUARTER
        if on_a and not on_b:
            if lb == L.LOC_PURGATORY:
                out.append(f"{name(t)} at {where(la)} to Purgatory{why(t, la, sa)}")
            elif quarter:
                what = "Refugee" if sa else "City Quarter"
                out.append(f"{what} at {where(la)} removed")
            else:
                out.append(f"{name(t)} left the board at {where(la)}")
        elif on_b and not on_a:
            verb = "entered" if int(T.TOKEN_OWNER[t]) < T.MAX_PLAYERS else "spawned"
            if not quarter:
                out.append(f"{name(t)} {verb} at {where(lb)}")
        elif on_a and on_b:
            if la != lb:
                out.append(f"{name(t)} moved {where(la)}->{where(lb)}")
            if sa != sb:
                if quarter:
                    out.append(f"City Quarter at {where(lb)} emptied: now a Refugee")
                else:
                    out.append(f"{name(t)} at {where(lb)} " + ("wounded" if sb else "healed"))
            ca, cb = int(a[L.TOK_COINS + t]), int(b[L.TOK_COINS + t])
            if ca != cb and not quarter:
                out.append(f"{name(t)} carries {cb} coin{'s' * (cb != 1)} (was {ca})")
            elif ca != cb:
                out.append(f"City Quarter at {where(lb)} lost {ca - cb} coin(s), {cb} left")
    for p in range(game.num_players):
        sa, sb = int(a[L.SCORE + p]), int(b[L.SCORE + p])
        if sa != sb:
            out.append(f"seat {p} score {sa}->{sb}")
    ga, gb = (
        int(a[L.GROUND : L.GROUND + T.N_CELLS].sum()),
        int(b[L.GROUND : L.GROUND + T.N_CELLS].sum()),
    )
    if ga != gb:
        out.append(f"loose coins on the ground {ga}->{gb}")
    if int(a[L.ROUND]) != int(b[L.ROUND]):
        out.append(f"round {int(b[L.ROUND]) + 1} begins")
    return out


def _crusaders(game: Game, a: np.ndarray, b: np.ndarray, viewer: int | None) -> list[str]:
    from crusadegym.core.crusaders import layout as L
    from crusadegym.core.crusaders import tables as T

    out: list[str] = []
    for r in range(T.N_REGIONS):
        reg = T.REGION_NAMES[r]
        ea, eb = int(a[L.R_ENEMY + r]), int(b[L.R_ENEMY + r])
        if ea >= 0 and eb < 0:
            out.append(f"{T.ENEMY_NAMES[int(T.ENEMY_TYPE[ea])]} beaten in {reg}")
        for off in (L.R_BLD_A, L.R_BLD_B):
            ba, bb = int(a[off + r]), int(b[off + r])
            if bb >= 0 and ba != bb:
                lvl = "I II III IV".split()[bb % 4]
                out.append(
                    f"seat {bb // 32} built {T.BUILDING_NAMES[(bb // 4) % 8]} {lvl} in {reg}"
                )
            elif ba >= 0 and bb < 0:
                out.append(f"{T.BUILDING_NAMES[(ba // 4) % 8]} removed from {reg}")
        ca, cb = int(a[L.R_COAT + r]), int(b[L.R_COAT + r])
        if cb >= 0 and ca != cb:
            out.append(f"seat {cb} placed a Coat-of-Arms in {reg}")
        ia, ib = int(a[L.R_INF + r]), int(b[L.R_INF + r])
        if ia >= 0 and ib < 0:
            kind = T.TILE_KIND_NAMES[int(T.INF_TILES[ia, 0])]
            out.append(f"influence tile ({kind}) collected in {reg}")
    for p in range(game.num_players):
        base = L.pl(p)
        for k in range(T.N_KNIGHTS):
            ka, kb = int(a[base + L.PL_KNIGHT + k]), int(b[base + L.PL_KNIGHT + k])
            if ka != kb and kb >= 0:
                dst = T.REGION_NAMES[kb]
                if ka < 0:
                    out.append(f"seat {p}'s knight {k} enters {dst} from its player board")
                else:
                    out.append(f"seat {p}'s knight {k} moves {T.REGION_NAMES[ka]} -> {dst}")
        for i in range(T.N_WEDGES):
            if not a[base + L.PL_UP + i] and b[base + L.PL_UP + i]:
                out.append(f"seat {p} upgraded wedge {i + 1}")
        ta, tb = int(a[base + L.PL_TROOPS]), int(b[base + L.PL_TROOPS])
        if ta != tb:
            out.append(f"seat {p} {'gains' if tb > ta else 'spends'} {abs(tb - ta)} troops ({tb})")
        sa, sb = int(a[base + L.PL_SCORE]), int(b[base + L.PL_SCORE])
        if sa != sb:
            verb = "gains" if sb > sa else "loses"
            out.append(f"seat {p} {verb} {abs(sb - sa)} influence ({sb})")
    return out


def _deus(game: Game, a: np.ndarray, b: np.ndarray, viewer: int | None) -> list[str]:
    from crusadegym.core.deus import layout as L
    from crusadegym.core.deus import tables as T
    from crusadegym.core.deus.actions import region_name

    out: list[str] = []
    for r in range(T.N_REGIONS):
        pa, pb = int(a[L.PIECES + r]), int(b[L.PIECES + r])
        owner = int(b[L.OWNER + r])
        for t in range(T.N_TYPES):
            if pb >> t & 1 and not pa >> t & 1:
                out.append(f"seat {owner} placed a {T.TYPE_NAMES[t]} piece in {region_name(r)}")
            elif pa >> t & 1 and not pb >> t & 1:
                out.append(f"a {T.TYPE_NAMES[t]} piece left {region_name(r)}")
        if pb & L.TEMPLE_BIT and not pa & L.TEMPLE_BIT:
            out.append(f"a temple raised in {region_name(r)}")
        if b[L.ATTACKED + r] and not a[L.ATTACKED + r]:
            out.append(f"village {region_name(r)} attacked")
    for p in range(game.num_players):
        base = L.player(p)
        ga, gb = int(a[base + L.GOLD]), int(b[base + L.GOLD])
        if ga != gb:
            out.append(f"seat {p} gold {ga}->{gb}")
        ra = a[base + L.RES : base + L.RES + 4]
        rb = b[base + L.RES : base + L.RES + 4]
        if (ra != rb).any():
            out.append(f"seat {p} resources {','.join(map(str, ra))}->{','.join(map(str, rb))}")
        va, vb = int(a[base + L.VP]), int(b[base + L.VP])  # public (core/deus/observe.py)
        if va != vb:
            out.append(f"seat {p} VP {va}->{vb}")
        for colour in range(T.N_COLOURS):
            na, nb = int(a[L.col_n(p, colour)]), int(b[L.col_n(p, colour)])
            if nb > na:
                from crusadegym.core.deus.actions import design_key

                card = int(b[L.col(p, colour) + nb - 1])
                out.append(f"seat {p} played {design_key(int(T.CARD_DESIGN[card]))}")
    return out


DIFFS: dict[str, Callable[[Game, np.ndarray, np.ndarray, int | None], list[str]]] = {
    "deus_lo_vult": _dlv,
    "deus_lo_vult_campaign": _dlv,
    "crusaders": _crusaders,
    "deus": _deus,
}
"""Game name -> ``diff(game, before, after, viewer) -> [change, ...]`` (public fields)."""


def register_diff(
    game_name: str, diff: Callable[[Game, np.ndarray, np.ndarray, int | None], list[str]]
) -> None:
    """Narrate ``game_name``'s moves with ``diff(game, before, after, viewer)``: the changes
    ``viewer`` may see (``None``: every seat's public view), one short phrase each."""
    DIFFS[game_name] = diff


def changes(
    game: Game, before: np.ndarray, after: np.ndarray, viewer: int | None = None
) -> list[str]:
    """The visible changes from ``before`` to ``after`` (empty for unknown games)."""
    diff = DIFFS.get(game.name)
    return diff(game, before, after, viewer) if diff else []


IMPORTANT = ("Purgatory", "wounded", "score", "VP", "influence", "beaten", "built", "coin",
             "Refugee", "attacked", "healed")  # fmt: skip
"""Changes with these words come first in a line (a kill before a move)."""


def _rank(item: str) -> int:
    return next((k for k, word in enumerate(IMPORTANT) if word in item), len(IMPORTANT))


def summary(items: list[str], limit: int = MAX_ITEMS) -> str:
    """``items`` in one line, the most important first (at most ``limit``, then how many
    more)."""
    if not items:
        return ""
    items = sorted(items, key=_rank)
    more = f"; and {len(items) - limit} more" if len(items) > limit else ""
    return "; ".join(items[:limit]) + more


def narrate_action(game: Game, state: np.ndarray, action: int, viewer: int | None = None) -> str:
    """``seat S plays LABEL: outcome`` for ``action`` in ``state`` (``state`` is not changed)."""
    seat = game.current_player(state)
    label = game.action_label(action, state, viewer)
    after = state.copy()
    game.step(after, action)
    outcome = summary(changes(game, state, after, viewer))
    return f"seat {seat} plays {label}" + (f": {outcome}" if outcome else "")
