"""Run the compiled engine and the plain-Python reference side by side.

:func:`compare_game` plays one game on both (the same actions; the RNG lives in the
state, so both draw the same dice) and checks after every step that the decoded
states are identical, that the rewards agree, and (on ``legal_every`` steps) that
the legal action sets agree. Used by ``tests/test_dlv_differential.py`` (a CI slice)
and by ``crusadegym soak --differential`` (at scale).

Random play almost never secures a round's last coin, so :data:`LATE_ROUND` gives
positions where carriers stand next to their camp centres and :func:`pick_action`
can lean toward coin actions; games from there cross round transitions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import actions as A
from . import layout as L
from . import tables as T
from .config import P_CAMP_CENTRE
from .notation import parse_position
from .reference_game import Reference, decode, differences

LATE_ROUND = """seat=0 ap=7 phase=army
 1 .    .    .    .    .    .    .    .    .    .    .    .
 2 0F   #    0F*1 .    .    .    .    .    .    .    .    .
 3 .    0P*2 .    .    .    .    .    .    .    .    .    .
 4 .    .    .    .    .    .    .    .    .    .    .    .
 5 .    .    .    .    .    R0   .    .    .    .    .    .
 6 .    .    .    .    .    sg   sf   R1   .    .    .    .
 7 .    .    .    .    R3   .    .    .    .    .    .    .
 8 .    .    .    .    .    .    R2   .    .    .    .    .
 9 .    .    .    .    .    .    .    .    .    .    .    .
10 .    .    .    .    .    .    .    .    .    .    1F*1 .
11 .    .    .    .    .    .    .    .    .    1P*2 #    1F
12 .    .    .    .    .    .    .    .    .    .    .    .
"""
"""Two seats' carriers next to their camp centres hold the round's last 6 coins."""


@dataclass
class Outcome:
    """One compared game: how many steps, and the first disagreement ("" if none)."""

    steps: int
    legal_checks: int
    problem: str = ""
    actions: list[int] | None = None
    """The actions played (the last one is where the sides first disagreed)."""


def late_round_state(game, seed: int) -> np.ndarray:
    """:data:`LATE_ROUND` for ``game``'s config, its dice seeded with ``seed``."""
    text = LATE_ROUND.replace("seat=0", f"seed={seed} seat=0", 1)
    if game.num_players != 2:
        raise ValueError("the late-round position is a 2-player position")
    return parse_position(text, game.config)


def pick_action(
    state: np.ndarray,
    params: np.ndarray,
    legal: np.ndarray,
    rng: np.random.Generator,
    lean: float,
) -> int:
    """A random legal action; with probability ``lean``, a coin-minded one if any:
    select a unit carrying coins, then secure a coin (else plunder, pass or drop)."""
    if lean > 0 and rng.random() < lean:
        if state[L.SEL] < 0:
            carriers = [
                a
                for a in legal
                if a < A.STRIKE0
                and state[L.BOARD + a] >= 0
                and state[L.TOK_COINS + state[L.BOARD + a]] > 0
            ]
            if carriers:
                return int(rng.choice(carriers))
        else:
            centre = params[P_CAMP_CENTRE + state[L.CUR]]
            secure = [
                a
                for a in legal
                if A.GIVE0 <= a < A.TAKE0 and T.NEIGH[state[L.SEL], a - A.GIVE0] == centre
            ]
            if secure:
                return int(rng.choice(secure))
            coin_minded = [a for a in legal if A.STRIKE0 <= a < A.TAKE0]
            if coin_minded:
                return int(rng.choice(coin_minded))
    return int(rng.choice(legal))


def compare_game(
    game,
    state: np.ndarray,
    rng: np.random.Generator,
    lean: float = 0.0,
    legal_every: int = 1,
    max_steps: int | None = None,
) -> Outcome:
    """Play ``state`` to its end on the engine and the reference; report the first
    difference. ``state`` is modified in place (it ends as the engine's final state)."""
    ref = Reference(game.params)
    duel = decode(state)
    limit = max_steps or game.max_steps
    legal_checks = 0
    played: list[int] = []

    def outcome(k: int, problem: str = "") -> Outcome:
        return Outcome(k, legal_checks, problem, played)

    for k in range(limit + 1):
        if game.is_terminal(state) or duel.over:
            if game.is_terminal(state) != duel.over:
                return outcome(k, f"step {k}: only one side says the game is over")
            return outcome(k)
        legal = np.flatnonzero(game.legal_mask(state))
        if k % legal_every == 0:
            legal_checks += 1
            expected = ref.legal(duel)
            got = set(legal.tolist())
            if got != expected:
                return outcome(
                    k,
                    f"step {k}: legal actions differ: only engine {sorted(got - expected)}, "
                    f"only reference {sorted(expected - got)}\n{game.render(state)}",
                )
        a = pick_action(state, game.params, legal, rng, lean)
        played.append(a)
        before = state.copy()
        rewards = game.step(state, a)
        ref_rewards = ref.step(duel, a)
        diff = differences(decode(state), duel)
        if diff:
            return outcome(
                k + 1,
                f"step {k + 1} ({game.action_to_str(a)}): states differ: "
                + "; ".join(diff[:6])
                + f"\nbefore:\n{game.render(before)}",
            )
        if [float(x) for x in rewards] != ref_rewards:
            return outcome(k + 1, f"step {k + 1}: rewards {rewards} != {ref_rewards}")
    return outcome(limit, f"game did not end within {limit} steps")


def compare_new_game(game, seed: int, rng: np.random.Generator, **kw) -> Outcome:
    """A fresh game from ``seed``: setup compared too, then :func:`compare_game`."""
    state = game.new_state(seed)
    diff = differences(decode(state), Reference(game.params).new_game(seed))
    if diff:
        return Outcome(0, 0, f"seed {seed}: setups differ: " + "; ".join(diff[:6]), [])
    return compare_game(game, state, rng, **kw)
