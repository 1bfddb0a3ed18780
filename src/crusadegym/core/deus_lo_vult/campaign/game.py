"""The Campaign as a game of the suite: ``deus_lo_vult_campaign`` (one RL episode is a
whole Campaign, Battle after Battle) [R Part 2].

The kernels wrap the Duel's: the Duel's mask and step for ids below 175, the modules'
Campaign actions (``extras.py``) above, and the flow between Battles (``flow.py``)
whenever the Duel part ends. With the Gravediggers, a step may open a reaction window
(``gravediggers.py``): the dead Unit's seat becomes the current player until it buries
another Unit or passes.
"""

from __future__ import annotations

import numpy as np

from ...jit import ajit, jit
from ...protocol import GameSpec, Kernels
from .. import actions as DA
from .. import invariant_kernel
from .. import tables as T
from ..choices import legal_mask as duel_legal_mask
from ..config import P_MAX_TURNS, P_PLAYERS, P_ROUNDS
from ..layout import AP, OVER, PH_DEPLOY, PH_PICK, PHASE, PROGRESS_SLOTS, RNG, SEL, STEP, TURN
from ..scoring import current_player, is_terminal, is_truncated
from ..setup import advance_setup
from ..turns import end_turn, round_transition
from ..turns import step as duel_step
from . import battle as B
from . import determinize, flow, observe, units
from . import extras as X
from . import gravediggers as GD
from .config import P_MAX_BATTLES, CampaignConfig, make_params
from .layout import CAMPAIGN_STATE_SIZE, N_CAMPAIGN_ACTIONS, N_DUEL_ACTIONS

NC = T.N_CELLS


@jit
def legal_mask(state, params, out):
    """The Duel's mask over ids < 175, then the Campaign actions; returns the count. In
    a Gravediggers window: "bury <cell>" (``CELL(c)``) or "gravediggers pass" only."""
    if GD.pending(state, params):
        out[:] = 0
        return GD.reaction_mask(state, params, out)
    n = duel_legal_mask(state, params, out[:N_DUEL_ACTIONS])
    out[N_DUEL_ACTIONS:] = 0
    if state[OVER] != 0 or state[PHASE] == PH_PICK:
        return n
    sel = state[SEL]
    if sel >= 0:
        return n + X.unit_extras(state, params, sel, out, False)
    n += X.stage1_selections(state, params, out)  # cells with only Campaign follow-ups
    out[N_DUEL_ACTIONS:] = 0  # the probes' marks
    return n + X.turn_extras(state, params, out)


@ajit
def step(state, params, action, rewards):
    """Apply one legal action; a Battle's end leads to the next Battle or the result.
    With the Gravediggers the action's deaths may open a window (``gravediggers.py``)."""
    grave = GD.on(params)
    before = state[:0].copy()
    if grave:
        before = state.copy()
    if grave and state[GD.G_SEAT] != 0:
        state[STEP] += 1
        if GD.react(state, params, action):
            before = state.copy()  # the turn's end may kill: queued below
            end_turn(state, params)
    elif action < N_DUEL_ACTIONS:
        duel_step(state, params, action, rewards)
    else:
        state[STEP] += 1
        sel = state[SEL]
        if sel >= 0:
            state[SEL] = -1
            ended = X.apply_unit_extra(state, params, sel, action)
        else:
            ended = X.apply_turn_extra(state, params, action)
        if state[OVER] == 0:
            if ended:
                round_transition(state, params)
            elif state[PHASE] == PH_DEPLOY:
                advance_setup(state, params)
            elif state[AP] <= 0:
                end_turn(state, params)
    if grave and before[GD.G_SEAT] == 0:
        GD.after_step(state, params, before)
    if state[OVER] != 0 and state[B.C_OVER] == 0:
        flow.end_battle(state, params)
    if units.any_on(params):
        units.update_adjoined(state, params)  # who commands which unit next action
    rewards[:] = 0.0
    if state[B.C_OVER] != 0:
        flow.campaign_returns(state, params, rewards)


def _sizes(params: np.ndarray) -> dict:
    from .. import STEPS_PER_TURN

    players = int(params[P_PLAYERS])
    per_round = T.N_SARACEN_CELLS + players * 2 * T.ARMY_POINT_CAP
    battle = int(params[P_ROUNDS]) * per_round + int(params[P_MAX_TURNS]) * STEPS_PER_TURN
    return {
        "state": CAMPAIGN_STATE_SIZE,
        "actions": N_CAMPAIGN_ACTIONS,
        "players": players,
        "obs": observe.OBS_SIZE,
        "max_steps": int(params[P_MAX_BATTLES]) * battle,
        "obs_low": 0.0,
        "obs_high": 1.0,
    }


def action_to_str(action: int, state: np.ndarray | None = None, params=None) -> str:
    """The Duel's names below 175, the modules' names above (``extras.ACTION_NAMES``)."""
    a = int(action)
    if 0 <= a < NC and state is not None and params is not None and GD.pending(state, params):
        return f"{GD.BURY_WORD} {DA.cell_name(a)}"
    if a < N_DUEL_ACTIONS:
        return DA.action_to_str(a, state, params)
    if a in X.ACTION_NAMES:
        return X.ACTION_NAMES[a]
    if a < N_CAMPAIGN_ACTIONS:
        return f"campaign {a}"
    raise ValueError(f"action {a} out of range [0, {N_CAMPAIGN_ACTIONS})")


def parse_action(text: str, state: np.ndarray | None = None, params=None) -> int:
    """Inverse of :func:`action_to_str`."""
    key = " ".join(text.strip().lower().split())
    for a, name in X.ACTION_NAMES.items():
        if name == key:
            return a
    words = key.split()
    if len(words) == 2 and words[0] == GD.BURY_WORD:
        return DA.CELL0 + DA.parse_cell(words[1])
    if len(words) == 2 and words[0] == "campaign" and words[1].isdigit():
        a = int(words[1])
        if N_DUEL_ACTIONS <= a < N_CAMPAIGN_ACTIONS:
            return a
    return DA.parse_action(text, state, params)


def render(state: np.ndarray, params: np.ndarray) -> str:
    from ..notation import format_position
    from .render import campaign_lines

    return format_position(state, params) + "\n" + campaign_lines(state, params)


def render_view(state: np.ndarray, params: np.ndarray, seat: int) -> str:
    """The text board as ``seat`` sees it: hidden Deeds blanked
    (:func:`.determinize.view_state`), one line names who holds one."""
    text = render(determinize.view_state(state, params, seat), params)
    hidden = determinize.hidden_seats(state, params, seat)
    if hidden:
        text += "\n# hidden Deeds held by seat(s) " + ",".join(str(q) for q in hidden)
    return text


def _invariants(state: np.ndarray, params: np.ndarray) -> list:
    from ..invariants import check
    from .invariants import check_campaign

    return check(state, params) + check_campaign(state, params)


SPEC = GameSpec(
    name="deus_lo_vult_campaign",
    version=1,
    turn_limit_slot=P_MAX_TURNS,
    turn_slot=TURN,
    rng_slot=RNG,
    progress_slots=(*PROGRESS_SLOTS, B.C_BATTLE, *range(B.C_GLORY, B.C_GLORY + 4)),
    config_cls=CampaignConfig,
    make_params=make_params,
    sizes=_sizes,
    kernels=Kernels(
        init=flow.campaign_init,
        legal_mask=legal_mask,
        step=step,
        current_player=current_player,
        is_terminal=is_terminal,
        is_truncated=is_truncated,
        returns=flow.campaign_returns,
        observe=observe.observe,
    ),
    action_to_str=action_to_str,
    parse_action=parse_action,
    render_ansi=render,
    stand_in_data=True,
    hidden_information=True,
    determinize=determinize.determinize,
    render_view=render_view,
    description="Deus lo Vult Campaign Rules 2.0 (Hiatus Games): Battles, Glory, Gauntlet "
    "Runs, Weather, Amenities, War Engines, Heroes, Deeds. The Deck of Deeds is a STAND-IN "
    "(deeds.DECK: 10 cards of our own; the rulebook prints none). " + T.STAND_IN_NOTE,
    max_players=4,
    test_configs=(
        {"players": 2, "max_turns": 12, "battles": 2},
        {"players": 3, "max_turns": 12, "battles": 2, "jerusalem": False, "rounds": 2},
    ),
    invariants=_invariants,
    invariant_kernel=invariant_kernel.violation,
    invariant_messages=invariant_kernel.VIOLATIONS,
)
