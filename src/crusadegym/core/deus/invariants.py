"""Plain-Python invariant checks over a Deus state (reads the array only).

Resources within the supply (5 per player of each, conserved), hand <= 10, 25 pieces
per player conserved, every card in exactly one place, VP never negative, a region
never holds two pieces of a type or two owners, temple VP <= 12, temples conserved.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .config import P_ON_BOARD, P_PLAYERS, P_TILES


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Every violated invariant as a readable string (empty when the state is sound)."""
    errors: list[str] = []
    players = int(params[P_PLAYERS])
    on = params[P_ON_BOARD : P_ON_BOARD + T.N_REGIONS] != 0
    owner = state[L.OWNER : L.OWNER + T.N_REGIONS]
    pieces = state[L.PIECES : L.PIECES + T.N_REGIONS]
    terrain = state[L.TERRAIN : L.TERRAIN + T.N_REGIONS]
    # resources: player stocks + general supply == 5 per player of each [R setup 3]
    for k in range(T.N_RESOURCES):
        held = sum(int(state[L.player(p) + L.RES + k]) for p in range(players))
        supply = int(state[L.SUPPLY + k])
        if supply < 0 or held + supply != T.RESOURCE_PER_PLAYER * players:
            errors.append(f"{T.RESOURCE_NAMES[k]}: held {held} + supply {supply} != 5 x players")
    for p in range(players):
        pb = L.player(p)
        for k in range(T.N_RESOURCES):
            if state[pb + L.RES + k] < 0:
                errors.append(f"seat {p} has negative {T.RESOURCE_NAMES[k]}")
        if state[pb + L.GOLD] < 0:
            errors.append(f"seat {p} has negative gold")
        if state[pb + L.VP] < 0:
            errors.append(f"seat {p} has negative VP {int(state[pb + L.VP])}")
        hand = int(np.sum(state[L.CARD_LOC : L.CARD_LOC + T.N_CARDS] == L.LOC_HAND0 + p))
        if hand != state[pb + L.HAND_N]:
            errors.append(f"seat {p} HAND_N {int(state[pb + L.HAND_N])} != {hand} cards")
        if hand > T.HAND_LIMIT:
            errors.append(f"seat {p} holds {hand} > {T.HAND_LIMIT} cards")
        for t in range(T.N_TYPES):
            placed = int(np.sum(((pieces >> t) & 1).astype(bool) & (owner == p) & on))
            board = int(state[pb + L.ON_BOARD + t])
            supp = int(state[pb + L.IN_SUPPLY + t])
            if board < 0 or supp < 0 or placed + board + supp != T.PIECES_PER_TYPE:
                errors.append(
                    f"seat {p} {T.TYPE_NAMES[t]}: map {placed} + board {board} + supply {supp} != 5"
                )
        for i in range(int(state[L.col_n(p, T.TEMPLE)])):
            from .effects import temple_vp

            d = int(T.CARD_DESIGN[state[L.col(p, T.TEMPLE) + i]])
            v = int(temple_vp(state, params, p, d))
            if not 0 <= v <= T.TEMPLE_VP_CAP:
                errors.append(f"seat {p} temple {T.DESIGN_NAMES[d]} scores {v}")
    # regions: owned iff occupied; ships only at sea; nothing on villages or off board
    for r in range(T.N_REGIONS):
        if not on[r]:
            if owner[r] != -1 or pieces[r] != 0:
                errors.append(f"off-board region {r} is occupied")
            continue
        if (owner[r] >= 0) != (pieces[r] != 0):
            errors.append(f"region {r}: owner {int(owner[r])} but pieces {int(pieces[r])}")
        if terrain[r] == T.VILLAGE and pieces[r]:
            errors.append(f"village {r} holds pieces")
        if terrain[r] == T.SEA and pieces[r] & ~((1 << T.MARITIME) | (1 << T.MILITARY)):
            errors.append(f"sea region {r} holds a land building")
        if terrain[r] != T.SEA and pieces[r] & (1 << T.MARITIME):
            errors.append(f"ship on land in region {r}")
        if state[L.VILLAGE_VP + r] < 0:
            errors.append(f"village {r} has negative VP")
        if terrain[r] == T.VILLAGE:
            for n in T.NEIGH[r]:
                if n >= 0 and on[n] and terrain[n] == T.VILLAGE:
                    errors.append(f"villages {r} and {int(n)} are adjacent")
    temples_on_map = int(np.sum(((pieces >> T.TEMPLE) & 1)[on]))
    if temples_on_map + state[L.TEMPLES_LEFT] != params[P_TILES]:
        errors.append(f"temples: {temples_on_map} on the map + {int(state[L.TEMPLES_LEFT])} left")
    errors += _check_cards(state, players)
    return errors


def _check_cards(state: np.ndarray, players: int) -> list[str]:
    """Every one of the 96 cards in exactly one place, the piles consistent."""
    errors = []
    loc = state[L.CARD_LOC : L.CARD_LOC + T.N_CARDS]
    deck = [int(c) for c in state[L.DECK : L.DECK + int(state[L.DECK_N])]]
    disc = [int(c) for c in state[L.DISC : L.DISC + int(state[L.DISC_N])]]
    cols = []
    for p in range(players):
        for colour in range(T.N_COLOURS):
            n = int(state[L.col_n(p, colour)])
            ids = [int(c) for c in state[L.col(p, colour) : L.col(p, colour) + n]]
            cols += ids
            for c in ids:
                if T.DESIGN_COLOUR[T.CARD_DESIGN[c]] != colour:
                    errors.append(f"card {c} in the wrong column {colour}")
                if loc[c] != L.LOC_COLUMN0 + p:
                    errors.append(f"card {c} in seat {p}'s column has location {int(loc[c])}")
    hands = [c for c in range(T.N_CARDS) if L.LOC_HAND0 <= loc[c] < L.LOC_HAND0 + players]
    pending = [c for c in range(T.N_CARDS) if loc[c] == L.LOC_PENDING]
    every = deck + disc + cols + hands + pending
    if sorted(every) != list(range(T.N_CARDS)):
        errors.append(f"cards not conserved: {len(every)} placed, {len(set(every))} distinct")
    for c in deck:
        if loc[c] != L.LOC_DECK:
            errors.append(f"deck card {c} has location {int(loc[c])}")
    for c in disc:
        if loc[c] != L.LOC_DISCARD:
            errors.append(f"discard card {c} has location {int(loc[c])}")
    return errors
