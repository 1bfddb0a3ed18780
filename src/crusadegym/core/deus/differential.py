"""Run the compiled Deus engine and the plain-Python reference side by side.

:func:`compare_game` plays one game on both (the same actions; the RNG lives in the
state, so both shuffle alike) and checks, before every step, that the legal action sets
are equal, and after every step that the two states are equal slot for slot (the first
differing slots are named by ``reference_game.SLOT_NAMES``), that the rewards agree,
and at the end that the terminal flags and the final scores agree. Used by
``tests/test_deus_differential.py`` (a CI slice) and by ``crusadegym soak
--differential`` (at scale; the soak finds this module by its name).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .layout import EFF_KIND, OVER, PHASE
from .reference_game import Reference, differences
from .scoring import final_scores


@dataclass
class Outcome:
    """One compared game: how many steps, and the first disagreement ("" if none)."""

    steps: int
    legal_checks: int
    problem: str = ""
    actions: list[int] | None = None
    """The actions played (the last one is where the sides first disagreed)."""
    seen: set[tuple[int, int]] = field(default_factory=set)
    """The (phase, pending choice kind) pairs the game went through (coverage)."""


def engine_scores(game, state: np.ndarray) -> list[int]:
    """The engine's final score of each seat (``scoring.final_scores``)."""
    out = np.zeros(game.num_players, np.int64)
    final_scores(state, game.params, out)
    return [int(x) for x in out]


def compare_game(
    game,
    state: np.ndarray,
    rng: np.random.Generator,
    max_steps: int | None = None,
    ref: Reference | None = None,
) -> Outcome:
    """Play ``state`` to its end on the engine and the reference, uniformly random
    legal actions drawn with ``rng``; report the first difference. ``state`` is
    modified in place (it ends as the engine's final state)."""
    ref = ref or Reference(game.params)
    mirror = state.tolist()
    limit = max_steps or game.max_steps
    played: list[int] = []
    seen: set[tuple[int, int]] = set()

    def outcome(k: int, problem: str = "") -> Outcome:
        return Outcome(k, k, problem, played, seen)

    for k in range(limit + 1):
        over = game.is_terminal(state)
        if over or mirror[OVER]:
            if over != bool(mirror[OVER]):
                return outcome(k, f"step {k}: only one side says the game is over")
            scores, expected = engine_scores(game, state), ref.final_scores(mirror)
            if scores != expected:
                return outcome(k, f"final scores {scores} != reference {expected}")
            return outcome(k)
        legal = np.flatnonzero(game.legal_mask(state))
        got, expected = set(legal.tolist()), ref.legal(mirror)
        if got != expected:
            return outcome(
                k,
                f"step {k}: legal actions differ: only engine "
                f"{[game.action_to_str(a) for a in sorted(got - expected)]}, only reference "
                f"{[game.action_to_str(a) for a in sorted(expected - got)]}\n" + game.render(state),
            )
        seen.add((int(state[PHASE]), int(state[EFF_KIND])))
        a = int(rng.choice(legal))
        played.append(a)
        before = state.copy()
        rewards = [float(x) for x in game.step(state, a)]
        ref_rewards = ref.step(mirror, a)
        diff = differences(state, mirror)
        if diff:
            return outcome(
                k + 1,
                f"step {k + 1} ({game.action_to_str(a)}): states differ (engine != reference): "
                + "; ".join(diff[:8])
                + (f" and {len(diff) - 8} more" if len(diff) > 8 else "")
                + f"\nbefore:\n{game.render(before)}",
            )
        if rewards != ref_rewards:
            return outcome(k + 1, f"step {k + 1}: rewards {rewards} != reference {ref_rewards}")
    return outcome(limit, f"game did not end within {limit} steps")


def compare_new_game(game, seed: int, rng: np.random.Generator, **kw) -> Outcome:
    """A fresh game from ``seed``: the setups compared too, then :func:`compare_game`."""
    ref = Reference(game.params)
    state = game.new_state(seed)
    diff = differences(state, ref.new_game(seed))
    if diff:
        return Outcome(0, 0, f"seed {seed}: setups differ: " + "; ".join(diff[:8]), [])
    return compare_game(game, state, rng, ref=ref, **kw)
