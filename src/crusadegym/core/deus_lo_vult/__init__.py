"""Deus lo Vult, Duel Rules 2.0 (Part 1 of the rulebook), compiled.

``SPEC`` plugs the game into the suite's protocol (``crusadegym.core.protocol``).
Component data the rulebook does not give are stand-ins, isolated in ``tables.py``.
"""

from __future__ import annotations

import numpy as np

from ..protocol import GameSpec, Kernels, LegacyLayout
from . import actions, invariant_kernel, observe, rules, tables
from .config import P_MAX_TURNS, DuelConfig, make_params
from .layout import PROGRESS_SLOTS, RNG, STATE_SIZE, STEP, TURN, V1_STATE_SIZE, project_v1

# Longest possible game, in steps: setup per round (up to 12 Saracen picks + up to 13
# units x 2 steps per seat) plus, per turn, 7 Action Points x 2 steps, one free weaken
# (2 steps) per unit on the board (at most 13) and END_TURN.
STEPS_PER_TURN = 2 * tables.ACTION_POINTS + 2 * tables.ARMY_POINT_CAP + 1


def _sizes(params: np.ndarray) -> dict:
    from .config import P_MAX_TURNS, P_PLAYERS, P_ROUNDS

    players = int(params[P_PLAYERS])
    per_round = tables.N_SARACEN_CELLS + players * 2 * tables.ARMY_POINT_CAP
    setup = int(params[P_ROUNDS]) * per_round
    return {
        "state": STATE_SIZE,
        "actions": actions.N_ACTIONS,
        "players": players,
        "obs": observe.OBS_SIZE,
        "max_steps": setup + int(params[P_MAX_TURNS]) * STEPS_PER_TURN,
        "obs_low": 0.0,
        "obs_high": 1.0,
    }


def _render(state: np.ndarray, params: np.ndarray) -> str:
    from .notation import format_position

    return format_position(state, params)


def _invariants(state: np.ndarray, params: np.ndarray) -> list:
    from .invariants import check

    return check(state, params)


SPEC = GameSpec(
    name="deus_lo_vult",
    version=1,
    turn_limit_slot=P_MAX_TURNS,
    turn_slot=TURN,
    rng_slot=RNG,
    clock_slots=(STEP,),
    progress_slots=PROGRESS_SLOTS,
    config_cls=DuelConfig,
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
    stand_in_data=True,
    hidden_information=False,
    description="Deus lo Vult Duel (Hiatus Games): bands, stampedes, combat, plunder. "
    + tables.STAND_IN_NOTE,
    max_players=4,
    test_configs=(
        {"players": 2, "rounds": 1, "max_turns": 30},
        {"players": 3, "rounds": 1, "max_turns": 30, "deployment": "saracenic"},
        {
            "players": 4,
            "rounds": 1,
            "max_turns": 30,
            "deployment": "campaign",
            "saracen_placement": "tactical",
            "stampede": "chivalrous",
        },
    ),
    invariants=_invariants,
    invariant_kernel=invariant_kernel.violation,
    invariant_messages=invariant_kernel.VIOLATIONS,
    legacy_layouts=(
        LegacyLayout(V1_STATE_SIZE, project_v1, "112 tokens, before the Campaign's tokens"),
    ),
)
