"""Deus (Sebastien Dujardin, Pearl Games 2014), compiled; 2-4 players, hidden hands.

``SPEC`` plugs the game into the suite's protocol (``crusadegym.core.protocol``). The card
list and tile faces are mostly stand-ins, isolated in ``tables.py``.
"""

from __future__ import annotations

import numpy as np

from ..protocol import GameSpec, Kernels
from . import actions, cards, invariant_kernel, observe, rules, tables
from .config import P_MAX_TURNS, DeusConfig, make_params
from .layout import RNG, STATE_SIZE, TURN

# Longest possible turn, in steps: a build (card, region, one payment choice per cost
# resource) then a column of up to 16 cards, each with at most 16 sub-decisions (the most
# any template asks: 15 pieces of the personal supply, 4 army moves of 2 steps, 6 sales);
# an offering is at most 10 cards + done + a god + 10 resources (or, Minerva, at most
# 5 extra draws and a done: the hand holds 10).
STEPS_PER_TURN = 2 + 5 + tables.COLUMN_CAP * 16


def _sizes(params: np.ndarray) -> dict:
    from .config import P_MAX_TURNS, P_PLAYERS

    return {
        "state": STATE_SIZE,
        "actions": actions.N_ACTIONS,
        "players": int(params[P_PLAYERS]),
        "obs": observe.OBS_SIZE,
        "max_steps": int(params[P_MAX_TURNS]) * STEPS_PER_TURN,
        "obs_low": 0.0,
        "obs_high": 1.0,
    }


def _render(state: np.ndarray, params: np.ndarray) -> str:
    from .notation import format_position

    return format_position(state, params)


def _render_view(state: np.ndarray, params: np.ndarray, seat: int) -> str:
    from .notation import format_view

    return format_view(state, params, seat)


def _action_view(action: int, state: np.ndarray, params: np.ndarray, seat: int) -> str:
    from .notation import action_view

    return action_view(action, state, params, seat)


def _invariants(state: np.ndarray, params: np.ndarray) -> list:
    from .invariants import check

    return check(state, params)


SPEC = GameSpec(
    name="deus",
    version=1,
    turn_limit_slot=P_MAX_TURNS,
    turn_slot=TURN,
    rng_slot=RNG,
    config_cls=DeusConfig,
    make_params=make_params,
    sizes=_sizes,
    kernels=Kernels(
        init=rules.init,
        legal_mask=rules.legal_mask,
        step=rules.step,
        current_player=rules.current_player,
        is_terminal=rules.is_terminal,
        is_truncated=rules.is_truncated,
        returns=rules.returns,
        observe=observe.observe,
    ),
    action_to_str=actions.action_to_str,
    parse_action=actions.parse_action,
    render_ansi=_render,
    render_view=_render_view,
    action_view=_action_view,
    stand_in_data=True,
    hidden_information=True,
    description="Deus (Pearl Games): build, offer to the gods, raid barbarian villages. "
    + tables.STAND_IN_NOTE,
    max_players=tables.MAX_PLAYERS,
    test_configs=(
        {"players": 2, "max_turns": 40},
        {"players": 3, "max_turns": 40, "payment": "resources_first"},
        {"players": 4, "max_turns": 40, "escape": "always", "tie_break": "leftovers"},
    ),
    invariants=_invariants,
    invariant_kernel=invariant_kernel.violation,
    invariant_messages=invariant_kernel.VIOLATIONS,
    determinize=cards.determinize,
)
