"""Run the compiled Crusaders engine and the plain-Python reference side by side.

:func:`compare_game` plays one game on both (the same actions; the dice live in the
state, so both draw the same) and checks before every step that the legal action sets
are equal, and after every step that the two flat states are equal slot for slot and
that the rewards agree. Used by ``tests/test_crusaders_differential.py`` (a CI slice)
and by ``crusadegym soak --differential`` (at scale; the soak finds this module by its
name, ``crusadegym.core.<game>.differential``).

Random Crusaders games are long (hundreds of turns per seat at the default supply), so
each game is cut after :data:`MAX_STEPS` steps unless it ends first; small supplies and
turn caps in the configs make most of them end, and be scored, within that.
:func:`pick_action` can lean away from "done" so that random play builds, crusades and
collects more often (Mills, Vaults, Saracen rewards, boosts).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import actions as A
from . import layout as L
from . import tables as T
from .reference_game import Reference, differences

MAX_STEPS = 1000
"""Steps after which a compared game is cut (not a failure); the CI slice uses fewer."""
LEAN = 0.5
"""How often :func:`pick_action` avoids "done" by default (the soak's games)."""
ADVANCED_GAMES = 0.5
"""The share of :func:`compare_new_game`'s games jumped ahead by :func:`advance_boards`."""
ADVANCE_SHARE = 0.7
"""The chance that each building of levels I-III leaves the board in :func:`advance_boards`."""


@dataclass
class Outcome:
    """One compared game: its steps, the first disagreement ("" if none), what it saw."""

    steps: int
    problem: str = ""
    actions: list[int] | None = None
    """The actions played (the last one is where the sides first disagreed)."""
    ended: bool = False
    phases: set[int] = field(default_factory=set)
    """The phases (``layout.PH_*``) in which a decision was compared."""


def pick_action(legal: np.ndarray, rng: np.random.Generator, lean: float = LEAN) -> int:
    """A uniformly random legal action; with probability ``lean``, one other than "done"
    when there is one (random play otherwise passes half its optional decisions)."""
    if lean > 0 and len(legal) > 1 and rng.random() < lean:
        legal = legal[legal != A.DONE]
    return int(rng.choice(legal))


def compare_game(
    game,
    state: np.ndarray,
    rng: np.random.Generator,
    lean: float = LEAN,
    max_steps: int = MAX_STEPS,
    reference: Reference | None = None,
    until_turn: bool = False,
) -> Outcome:
    """Play ``state`` on the engine and the reference until it ends or ``max_steps``
    (``until_turn``: or the setup is over, the first turn asked); report the first
    difference. ``state`` is modified in place (the engine's side)."""
    ref = reference or Reference(game.params)
    mine = [int(x) for x in state]
    out = Outcome(0, actions=[])
    for k in range(max_steps):
        if game.is_terminal(state):
            out.ended = True
            return out
        if until_turn and state[L.PHASE] == L.PH_TURN:
            return out
        legal = np.flatnonzero(game.legal_mask(state))
        expected = ref.legal(mine)
        got = set(legal.tolist())
        out.phases.add(int(state[L.PHASE]))
        if got != expected:
            phase = L.PHASE_NAMES[state[L.PHASE]]
            out.problem = (
                f"step {k} ({phase}): legal actions differ: only engine "
                f"{[game.action_to_str(a) for a in sorted(got - expected)]}, only reference "
                f"{[game.action_to_str(a) for a in sorted(expected - got)]}\n{game.render(state)}"
            )
            return out
        a = pick_action(legal, rng, lean)
        out.actions.append(a)
        before = state.copy()
        rewards = game.step(state, a)
        ref_rewards = ref.step(mine, a)
        out.steps = k + 1
        diff = differences(state, mine)
        if diff:
            out.problem = (
                f"step {k + 1} ({game.action_to_str(a)} in {L.PHASE_NAMES[before[L.PHASE]]}): "
                "states differ: " + "; ".join(diff) + f"\nbefore:\n{game.render(before)}"
            )
            return out
        if [float(x) for x in rewards] != ref_rewards:
            out.problem = f"step {k + 1}: rewards {rewards.tolist()} != {ref_rewards}"
            return out
    out.ended = bool(game.is_terminal(state))
    return out


def advance_boards(game, state: np.ndarray, rng: np.random.Generator) -> None:
    """Jump a game just past its setup toward its end: each seat's buildings of levels
    I-III leave its board with probability :data:`ADVANCE_SHARE` each (as a Mill removes
    them: no building on the map, the icons uncovered) and some of its troops are flipped,
    so that level IV buildings, their end-game scoring, high strengths, Mills of every
    level and Chapel/Vault IV come up in random play (they almost never do from the
    start: random games rarely build past level II)."""
    for p in range(game.num_players):
        b = L.pl(p)
        for t in range(T.N_BUILDING_TYPES):
            for level in range(T.LEVEL_IV):
                if state[b + L.PL_BOARD + t] >> level & 1 and rng.random() < ADVANCE_SHARE:
                    state[b + L.PL_BOARD + t] &= ~(1 << level)
        troops = T.EXPANSION_TROOPS if game.config.expansion else T.BASE_TROOPS
        state[b + L.PL_TROOPS] = int(rng.integers(troops + 1))


def compare_new_game(
    game, seed: int, rng: np.random.Generator, advanced: bool | None = None, **kw
) -> Outcome:
    """A fresh game from ``seed``: the setups compared, then :func:`compare_game`.

    ``advanced``: once the setup is played (both sides agreeing), jump the boards ahead
    (:func:`advance_boards`); None does so in a share :data:`ADVANCED_GAMES` of games."""
    ref = Reference(game.params)
    state = game.new_state(seed)
    diff = differences(state, ref.new_game(int(seed) & 0x7FFFFFFFFFFFFFFF))
    if diff:
        return Outcome(0, f"seed {seed}: setups differ: " + "; ".join(diff), [])
    if advanced is None:
        advanced = bool(rng.random() < ADVANCED_GAMES)
    if not advanced:
        return compare_game(game, state, rng, reference=ref, **kw)
    setup = compare_game(game, state, rng, reference=ref, until_turn=True, **kw)
    if setup.problem or setup.ended:
        return setup
    advance_boards(game, state, rng)
    out = compare_game(game, state, rng, reference=ref, **kw)
    out.steps += setup.steps
    out.actions = setup.actions + out.actions
    out.phases |= setup.phases
    return out
