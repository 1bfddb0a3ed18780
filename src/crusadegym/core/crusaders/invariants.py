"""Plain-Python invariant checks over a Crusaders state (reads the array only).

Used by the conformance kit, the soak harness and the random-game tests: action tokens
conserved on each wheel, influence supply never negative, one building per region
(plus an expansion building beside its matching base one), enemy tokens conserved,
knights and tiles where they may be.
"""

from __future__ import annotations

import numpy as np

from . import layout as L
from . import tables as T
from .config import P_ACTIVE, P_EXPANSION, P_PLAYERS, P_SUPPLY


def _seat(state: np.ndarray, p: int, off: int, n: int = 1) -> np.ndarray:
    b = L.pl(p) + off
    return state[b : b + n]


def check(state: np.ndarray, params: np.ndarray) -> list[str]:
    """Every violated invariant as a readable string (empty when the state is sound)."""
    errors: list[str] = []
    players = int(params[P_PLAYERS])
    expansion = bool(params[P_EXPANSION])
    supply = int(state[L.SUPPLY])
    if not 0 <= supply <= int(params[P_SUPPLY]):
        errors.append(f"influence supply {supply} outside [0, {int(params[P_SUPPLY])}]")
    if supply == 0 and not state[L.ENDING]:
        errors.append("supply is empty but the end is not triggered")
    for p in range(players):
        tok = _seat(state, p, L.PL_TOK, T.N_WEDGES)
        total = int(_seat(state, p, L.PL_TOKTOTAL)[0])
        if tok.min() < 0 or int(tok.sum()) != total:
            errors.append(f"seat {p}: wheel holds {tok.tolist()} but must hold {total} tokens")
        giant = int(_seat(state, p, L.PL_GIANT)[0])
        if not -1 <= giant < T.N_WEDGES:
            errors.append(f"seat {p}: the giant token is on wedge {giant}, off the wheel")
        elif giant >= 0 and tok[giant] < 1:
            errors.append(f"seat {p}: the giant token is on empty wedge {giant}")
        if int(_seat(state, p, L.PL_SCORE)[0]) < 0:
            errors.append(f"seat {p}: negative influence")
        troops = int(_seat(state, p, L.PL_TROOPS)[0])
        if not 0 <= troops <= (T.EXPANSION_TROOPS if expansion else T.BASE_TROOPS):
            errors.append(f"seat {p}: {troops} troops mustered")
        coats_used = int(np.sum(state[L.R_COAT : L.R_COAT + T.N_REGIONS] == p))
        coats = int(_seat(state, p, L.PL_COATS)[0])
        if expansion and coats + coats_used != T.COATS_OF_ARMS:
            errors.append(f"seat {p}: coats {coats} in hand + {coats_used} placed != 16")
        once = _seat(state, p, L.PL_ONCE, T.N_ACTION_TYPES)
        ntiles = int(_seat(state, p, L.PL_NTILES)[0])
        if once.min() < 0 or int(once.sum()) > ntiles:
            errors.append(f"seat {p}: face-up tiles {once.tolist()} exceed {ntiles} collected")
        for k in range(T.N_KNIGHTS):
            r = int(_seat(state, p, L.PL_KNIGHT + k)[0])
            if r != T.KNIGHT_AWAY and not (0 <= r < T.N_REGIONS and params[P_ACTIVE + r]):
                errors.append(f"seat {p}: knight {k} in invalid region {r}")
    coat_owners = state[L.R_COAT : L.R_COAT + T.N_REGIONS]
    if np.any((coat_owners < -1) | (coat_owners >= players)):
        errors.append(f"a Coat-of-Arms of no seat: {sorted(set(coat_owners.tolist()))}")
    # buildings: at most one per region, the second only an expansion one beside its pair
    placed = np.zeros((players, T.N_BUILDING_TYPES, T.N_LEVELS), np.int64)
    for r in range(T.N_REGIONS):
        a, b = int(state[L.R_BLD_A + r]), int(state[L.R_BLD_B + r])
        if b >= 0:
            if a < 0:
                errors.append(f"region {T.REGION_NAMES[r]}: second slot used, first empty")
            elif (b // 4) % 8 < T.N_BASE_TYPES:
                errors.append(f"region {T.REGION_NAMES[r]}: two base buildings")
        for c in (a, b):
            if c >= 0:
                if c // 32 >= players:
                    errors.append(f"region {T.REGION_NAMES[r]}: building of absent seat")
                    continue
                placed[c // 32, (c // 4) % 8, c % 4] += 1
                if state[L.R_ENEMY + r] >= 0:
                    errors.append(f"region {T.REGION_NAMES[r]}: building beside an enemy")
    for p in range(players):
        for t in range(T.N_BUILDING_TYPES):
            mask = int(_seat(state, p, L.PL_BOARD + t)[0])
            for lv in range(T.N_LEVELS):
                if placed[p, t, lv] > 1 or (placed[p, t, lv] and (mask >> lv) & 1):
                    errors.append(f"seat {p}: {T.BUILDING_NAMES[t]} {lv + 1} on board and map")
    # enemy tokens conserved: each in one place, region pointers agree, counts match
    loc = state[L.ENEMY_LOC : L.ENEMY_LOC + T.N_ENEMY_TOKENS]
    for r in range(T.N_REGIONS):
        e = int(state[L.R_ENEMY + r])
        if not -1 <= e < T.N_ENEMY_TOKENS:
            errors.append(f"region {T.REGION_NAMES[r]} holds enemy {e}, no such token")
        elif e >= 0 and int(loc[e]) != r:
            errors.append(f"region {T.REGION_NAMES[r]} holds enemy {e} located at {int(loc[e])}")
    for e in range(T.N_ENEMY_TOKENS):
        where = int(loc[e])
        if 0 <= where < T.N_REGIONS and int(state[L.R_ENEMY + where]) != e:
            errors.append(f"enemy {e} thinks it is in region {where}")
        invalid = where >= T.N_REGIONS or L.ELOC_CAPT0 < where < L.ELOC_TRACK
        if invalid or where < L.ELOC_CAPT0 - (players - 1):
            errors.append(f"enemy {e} has invalid location {where}")
    if int(np.sum(loc == L.ELOC_TRACK)) != 2:
        errors.append("the two track markers are not on their tracks")
    for p in range(players):
        for k in range(T.N_ENEMY_TYPES):
            held = int(np.sum((loc == L.ELOC_CAPT0 - p) & (T.ENEMY_TYPE == k)))
            if held != int(_seat(state, p, L.PL_CAPT + k)[0]):
                errors.append(f"seat {p}: keeps {held} {T.ENEMY_NAMES[k]}s, counter disagrees")
    for k in range(2):
        defeated = int(np.sum((loc <= L.ELOC_CAPT0) & (T.ENEMY_TYPE == k)))
        if defeated != int(state[L.TRACK + k]):
            errors.append(f"{T.ENEMY_NAMES[k]} track {int(state[L.TRACK + k])} != {defeated}")
    # influence tiles: each at most once on the board
    tiles = [int(t) for t in state[L.R_INF : L.R_INF + T.N_REGIONS] if t >= 0]
    if len(tiles) != len(set(tiles)):
        errors.append("an influence tile lies in two regions")
    taken = sum(int(_seat(state, p, L.PL_NTILES)[0]) for p in range(players))
    if taken + len(tiles) > int(np.sum(params[P_ACTIVE : P_ACTIVE + T.N_REGIONS])):
        errors.append(f"influence tiles: {taken} taken + {len(tiles)} left > one per region")
    return errors
