"""A tiny example game that proves the protocol and the conformance kit end to end.

"Random-start tic-tac-toe": the state's RNG blocks one random cell and picks who
moves first; then plain tic-tac-toe on the remaining 8 cells. Not a real game of
the suite; it only exists so the kit is tested independently of the big games.

State layout (int32)::

    [0:2] RNG  [2] seat to move  [3] over  [4] winner (-1 none/draw)  [5] steps
    [6:15] cells: -1 empty, 0/1 a seat's mark, 2 blocked
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crusadegym.core import GameSpec, Kernels, make_game
from crusadegym.core import rng as R
from crusadegym.core.jit import jit

RNG, CUR, OVER, WINNER, STEPS, CELLS = 0, 2, 3, 4, 5, 6
STATE_SIZE = CELLS + 9
LINES = np.array(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]],
    np.int64,
)


@dataclass(frozen=True)
class TinyConfig:
    """No options; present so the tiny game follows the same protocol."""


@jit
def init(state, params, seed):
    state[:] = 0
    R.seed(state, RNG, seed)
    state[CELLS : CELLS + 9] = -1
    state[CELLS + R.randint(state, RNG, 9)] = 2
    state[CUR] = R.randint(state, RNG, 2)
    state[WINNER] = -1


@jit
def legal_mask(state, params, out):
    out[:] = 0
    if state[OVER]:
        return 0
    n = 0
    for c in range(9):
        if state[CELLS + c] == -1:
            out[c] = 1
            n += 1
    return n


@jit
def step(state, params, action, rewards):
    p = state[CUR]
    state[CELLS + action] = p
    state[STEPS] += 1
    for li in range(8):
        a, b, c = LINES[li, 0], LINES[li, 1], LINES[li, 2]
        if state[CELLS + a] == p and state[CELLS + b] == p and state[CELLS + c] == p:
            state[OVER] = 1
            state[WINNER] = p
    full = True
    for c in range(9):
        if state[CELLS + c] == -1:
            full = False
    if full:
        state[OVER] = 1
    state[CUR] = 1 - p
    if state[OVER]:
        returns(state, params, rewards)


@jit
def current_player(state, params):
    return -1 if state[OVER] else state[CUR]


@jit
def is_terminal(state, params):
    return state[OVER] != 0


@jit
def is_truncated(state, params):
    return False


@jit
def returns(state, params, out):
    out[:] = 0.0
    w = state[WINNER]
    if state[OVER] and w >= 0:
        out[w] = 1.0
        out[1 - w] = -1.0


@jit
def observe(state, params, player, out):
    out[:] = 0.0
    for c in range(9):
        v = state[CELLS + c]
        if v == player:
            out[c] = 1.0
        elif v == 2:
            out[18 + c] = 1.0
        elif v >= 0:
            out[9 + c] = 1.0


def _action_to_str(action, state, params):
    return f"mark {action // 3},{action % 3}"


def _parse_action(text, state, params):
    r, c = text.removeprefix("mark ").split(",")
    return int(r) * 3 + int(c)


def _render(state, params):
    sym = {-1: ".", 0: "X", 1: "O", 2: "#"}
    rows = ["".join(sym[int(state[CELLS + r * 3 + c])] for c in range(3)) for r in range(3)]
    return "\n".join(rows) + "\n"


SPEC = GameSpec(
    name="tiny_tictactoe",
    version=1,
    config_cls=TinyConfig,
    make_params=lambda cfg: np.zeros(1, np.int64),
    sizes=lambda params: {
        "state": STATE_SIZE,
        "actions": 9,
        "players": 2,
        "obs": 27,
        "max_steps": 8,
        "obs_low": 0.0,
        "obs_high": 1.0,
    },
    kernels=Kernels(
        init, legal_mask, step, current_player, is_terminal, is_truncated, returns, observe
    ),
    action_to_str=_action_to_str,
    parse_action=_parse_action,
    render_ansi=_render,
    stand_in_data=False,
    hidden_information=False,
    description="Protocol example game used by the test-suite only.",
)


def tiny_state(cells: str, to_move: int):
    """A tiny tic-tac-toe state from 9 characters (X/O/#/.) with seat ``to_move`` on turn."""
    game = make_game("tiny_tictactoe")
    state = game.new_state(0)
    for i, ch in enumerate(cells):
        state[CELLS + i] = {".": -1, "X": 0, "O": 1, "#": 2}[ch]
    state[CUR] = to_move
    return game, state
