"""1,000 complete random Deus lo Vult games per player count, with invariants checked.

Games run through the compiled batch driver (``core.drivers.random_games``); the
final state of every game is checked, and a slice of games is stepped through the
checked API with invariants verified after every single step.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L

DEPLOYMENTS = {2: "latin", 3: "saracenic", 4: "campaign"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousand_random_games_end_and_keep_invariants(players):
    game = make_game(
        "deus_lo_vult", players=players, deployment=DEPLOYMENTS[players], rounds=3, max_turns=40
    )
    seeds = np.arange(1000, dtype=np.int64) + 1000 * players
    states = game.new_states(seeds)
    steps, empty = game.play_random_games(states, seeds)
    assert empty.sum() == 0, "a running game had no legal action"
    assert np.all(states[:, L.OVER] == 1), "a game did not end within max_steps"
    assert np.all(steps <= game.max_steps)
    for i in range(len(states)):
        errors = game.check_invariants(states[i])
        assert not errors, f"seed {seeds[i]}: {errors[:3]}"
    returns = np.array([game.returns(s) for s in states])
    assert np.all(np.isin(returns, (-1.0, 0.0, 1.0)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_step(players):
    game = make_game(
        "deus_lo_vult", players=players, deployment=DEPLOYMENTS[players], rounds=1, max_turns=30
    )
    rng = np.random.default_rng(players)
    for seed in range(3):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            game.step(state, int(rng.choice(game.legal_actions(state))))
            errors = game.check_invariants(state)
            assert not errors, errors[:3]


LATE_ROUND = {  # carriers next to their camp centres hold the round's last coins
    "b3": "0P*2",
    "c2": "0F*1",
    "a2": "0F",
    "j11": "1P*2",
    "k10": "1F*1",
    "l11": "1F",
    "f5": "R0",
    "h6": "R1",
    "g8": "R2",
    "e7": "R3",
    "f6": "sg",
    "g6": "sf",
}


def _secures(game, state, action):
    clone = state.copy()
    game.step(clone, action)
    return clone[L.SCORE : L.SCORE + 4].sum() > state[L.SCORE : L.SCORE + 4].sum()


def test_round_transitions_keep_invariants():
    """Random play from a late-round position crosses round ends; invariants hold after."""
    crossed = sum(_play_from_late_round(seed) for seed in range(8))
    assert crossed >= 4, f"only {crossed} of 8 games ended a round"


def _play_from_late_round(seed: int) -> bool:
    from dlv_helpers import position

    game, state = position(LATE_ROUND, "seat=0 ap=7 phase=army", rounds=3, max_turns=80)
    rng = np.random.default_rng(seed)
    rounds_seen = {int(state[L.ROUND])}
    while not game.is_terminal(state):
        legal = [int(a) for a in game.legal_actions(state)]
        pick = rng.choice(legal)
        if state[L.SEL] < 0 and rng.random() < 0.5:
            carriers = [
                a
                for a in legal
                if a < 144
                and state[L.TOK_COINS + state[L.BOARD + a]] > 0
                and state[L.BOARD + a] >= 0
            ]
            pick = rng.choice(carriers) if carriers else pick
        elif state[L.SEL] >= 0:
            secure = [a for a in legal if _secures(game, state, a)]
            pick = rng.choice(secure) if secure and rng.random() < 0.8 else pick
        before = int(state[L.ROUND])
        game.step(state, int(pick))
        rounds_seen.add(int(state[L.ROUND]))
        if int(state[L.ROUND]) > before and not game.is_terminal(state):
            assert int(state[L.ROUND_LEFT]) > 0  # four fresh quarters with their coins
        if int(state[L.ROUND]) > 0:  # coins of past rounds are real from here on
            errors = [e for e in game.check_invariants(state) if "not conserved" not in e]
            assert not errors, errors[:3]
    return len(rounds_seen) >= 2


def test_compiled_invariants_agree_with_the_python_ones():
    """The soak's compiled checker flags exactly the states the readable one flags."""
    from crusadegym.core.deus_lo_vult import tables as T
    from crusadegym.core.deus_lo_vult.invariant_kernel import violation

    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=6, saracen_cap=12)
    rng = np.random.default_rng(7)
    corruptions = [
        (L.SCORE, 1),  # a coin from nowhere
        (L.ROUND_LEFT, 1),  # the coins-left counter disagrees with the board
        (L.AP, 9),
        (L.PURG, 5),  # a slot names a token that is not in Purgatory
        (L.TOK_LOC + 90, -3),  # a Saracen discarded while the board still shows it
        (L.TOK_LOC + T.SARACEN_TOKEN0 + 19, 3),  # Greek fire (LOC_OFF + 3) on cell a1
        (L.GROUND + 70, -1),
        (L.TOK_SIDE + 3, 2),
    ]
    flagged = 0
    for seed in range(6):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            assert violation(state, game.params) == 0
            assert not game.check_invariants(state)
            for slot, delta in corruptions:
                bad = state.copy()
                bad[slot] += delta
                python_says = bool(game.check_invariants(bad))
                assert (violation(bad, game.params) != 0) == python_says, (slot, delta)
                flagged += python_says
            game.step(state, int(rng.choice(game.legal_actions(state))))
    assert flagged > 1000
