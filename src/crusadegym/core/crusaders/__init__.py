"""Crusaders: Thy Will Be Done with the Divine Influence expansion, compiled.

``SPEC`` plugs the game into the suite's protocol (``crusadegym.core.protocol``).
``expansion=False`` plays the base game alone. Component data no source gives are
stand-ins, isolated in ``tables.py`` (see ``docs/rules/crusaders.md``).
"""

from __future__ import annotations

import numpy as np

from ..protocol import GameSpec, Kernels
from . import actions, invariant_kernel, observe, rules, tables
from .config import P_MAX_TURNS, CrusadersConfig, make_params
from .determinize import determinize
from .layout import RNG, STATE_SIZE, TURN

# Longest Travel, in steps: the paid ones, at most its strength (wedge value, plus at
# most one per influence tile -- permanent or boost -- per uncovered building bonus and
# the order's modifier), and the free ones (tables.FREE_TRAVEL_STEPS).
MAX_TRAVEL_STEPS = (
    tables.MAX_X
    + tables.N_INF_TILES
    + tables.N_BASE_TYPES * (tables.N_LEVELS - 1)
    + int(tables.ORDER_MOD.max())
    + tables.FREE_TRAVEL_STEPS
)
# Longest turn, in decisions: resolve, split, first, per action up to 24 one-time boosts
# plus the longest Travel and "done" (more than any other action), the sowing, and per
# extra distribution (at most 2 tiles + Livonian) a wedge and a sowing.
STEPS_PER_TURN = 3 + 2 * (24 + MAX_TRAVEL_STEPS + 1) + 1 + 2 * 3
SETUP_STEPS_PER_SEAT = 1 + tables.MAX_SETUP_STEPS + 1


def _sizes(params: np.ndarray) -> dict:
    from .config import P_MAX_TURNS, P_PLAYERS

    players = int(params[P_PLAYERS])
    return {
        "state": STATE_SIZE,
        "actions": actions.N_ACTIONS,
        "players": players,
        "obs": observe.OBS_SIZE,
        "max_steps": players * SETUP_STEPS_PER_SEAT + int(params[P_MAX_TURNS]) * STEPS_PER_TURN,
        "obs_low": 0.0,
        "obs_high": 1.0,
    }


def _render(state: np.ndarray, params: np.ndarray) -> str:
    from .notation import format_position

    return format_position(state, params)


def _render_view(state: np.ndarray, params: np.ndarray, seat: int) -> str:
    from .notation import format_view

    return format_view(state, params, seat)


def _invariants(state: np.ndarray, params: np.ndarray) -> list:
    from .invariants import check

    return check(state, params)


SPEC = GameSpec(
    name="crusaders",
    version=1,
    turn_limit_slot=P_MAX_TURNS,
    turn_slot=TURN,
    rng_slot=RNG,
    config_cls=CrusadersConfig,
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
    stand_in_data=True,
    hidden_information=True,
    determinize=determinize,
    description="Crusaders: Thy Will Be Done + Divine Influence (Seth Jaffee): the action "
    "wheel, knights, enemies, buildings, influence tiles. " + tables.STAND_IN_NOTE,
    max_players=4,
    # Small supplies so random play reaches the real end (supply out, round finished,
    # scoring) in almost every game; the last config ends by the turn cap instead.
    test_configs=(
        {"players": 2, "supply": 15, "max_turns": 200},
        {"players": 3, "supply": 20, "max_turns": 200, "expansion": False},
        {"players": 4, "supply": 20, "max_turns": 200, "wheel": "unpredictable"},
        {"players": 2, "supply": 20, "max_turns": 200, "expansion": False, "orders": "free"},
        {"players": 3, "supply": 15, "max_turns": 200, "split": "one_each"},
        {"players": 4, "supply": 40, "max_turns": 60, "expansion": False},
    ),
    invariants=_invariants,
    invariant_kernel=invariant_kernel.violation,
    invariant_messages=invariant_kernel.VIOLATIONS,
)
