"""Helpers that let Deus lo Vult rule tests read like the rulebook.

``position({"e5": "0F", "e6": "0F"}, "seat=0 ap=7")`` builds a state from notation;
``play(game, state, "cell e5", "cell f5")`` applies actions through the checked API
(so every action must be legal); ``at(state, "e5")`` describes the token on a cell.
"""

from __future__ import annotations

import numpy as np

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.core import Game, make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import parse_cell
from crusadegym.core.deus_lo_vult.notation import parse_position

DEFAULTS = {"players": 2}


def grid(fields: dict[str, str]) -> str:
    rows = []
    for r in range(T.SIZE):
        row = []
        for c in range(T.SIZE):
            name = f"{'abcdefghijkl'[c]}{r + 1}"
            row.append(fields.get(name, "."))
        rows.append(f"{r + 1:>2} " + " ".join(f"{x:<5}" for x in row))
    return "\n".join(rows)


def position(fields: dict[str, str], header: str = "seat=0 ap=7 phase=army", **options):
    """(game, state) for a position given as {cell: notation field}."""
    game = make_game("deus_lo_vult", **{**DEFAULTS, **options})
    state = parse_position(header + "\n" + grid(fields), game.config)
    return game, state


def play(game: Game, state: np.ndarray, *moves: str) -> np.ndarray:
    """Apply actions written as text; return the summed rewards."""
    total = np.zeros(game.num_players, np.float32)
    for text in moves:
        total += game.step(state, game.parse_action(text, state))
    return total


def legal(game: Game, state: np.ndarray) -> set[str]:
    return {game.action_to_str(int(a), state) for a in game.legal_actions(state)}


def token(state: np.ndarray, cell: str) -> int:
    return int(state[L.BOARD + parse_cell(cell)])


def at(state: np.ndarray, cell: str) -> str:
    """'empty', or '<kind> side=<0|1> coins=<n>' for the token on a cell."""
    t = token(state, cell)
    if t < 0:
        return "empty"
    side, coins = int(state[L.TOK_SIDE + t]), int(state[L.TOK_COINS + t])
    return f"{T.KIND_NAMES[T.TOKEN_KIND[t]]} side={side} coins={coins}"


def ground(state: np.ndarray, cell: str) -> int:
    return int(state[L.GROUND + parse_cell(cell)])


def purgatory(state: np.ndarray) -> list[str]:
    return [T.KIND_NAMES[T.TOKEN_KIND[t]] for t in state[L.PURG : L.PURG + 9] if t >= 0]


def loc(state: np.ndarray, t: int) -> int:
    return int(state[L.TOK_LOC + t])


def random_positions(game: Game, n_games: int, steps: int, seed: int = 0):
    """Positions of ``n_games`` uniformly random games (seeds ``seed..``), at most
    ``steps`` each, every position before its move."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(game.num_actions, np.uint8)
    for state in game.new_states(np.arange(n_games, dtype=np.int64) + seed):
        for _ in range(steps):
            if game.is_terminal(state):
                break
            yield state.copy()
            game.k.legal_mask(state, game.params, mask)
            game.step(state, int(rng.choice(np.flatnonzero(mask))))


def greedy(game: Game, state: np.ndarray, n: int, seed: int = 0) -> list[str]:
    """Play ``n`` heuristic actions from ``state`` (in place, stopping at the end); their
    names."""
    agent, names = HeuristicAgent(seed=seed), []
    for _ in range(n):
        action = select_action(agent, game, state)
        names.append(game.action_to_str(action, state))
        game.step(state, action)
        if game.is_terminal(state):
            break
    return names
