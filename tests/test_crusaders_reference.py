"""Crusaders kernels against the plain-Python reference, and random games with invariants.

Sowing (every order power), the majority awards and the build-site costs are compared
over many random positions reached by random play; every state of many random games
is checked against ``invariants.check``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders import tables as T
from crusadegym.core.crusaders.actions import SOWC_CCW, SOWC_DOUBLE1, SOWC_FROM_SELF, SOWC_SKIP1
from crusadegym.core.crusaders.build import NO_SITE, build_cost
from crusadegym.core.crusaders.invariants import check
from crusadegym.core.crusaders.reference import build_cost_ref, majority_ref, sow_ref
from crusadegym.core.crusaders.scoring import majority
from crusadegym.core.crusaders.wheel import sow

CONFIGS = [
    {"players": 2},
    {"players": 3, "expansion": False},
    {"players": 4, "wheel": "unpredictable", "orders": "free"},
]


def random_states(options: dict, n_games: int, seed: int):
    """Every state of ``n_games`` random games (the game, then states one by one)."""
    game = make_game("crusaders", **options)
    rng = np.random.default_rng(seed)
    for g in range(n_games):
        s = game.new_state(seed * 1000 + g)
        while not game.is_terminal(s):
            yield game, s
            game.step(s, int(rng.choice(game.legal_actions(s))))
        yield game, s


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
def test_random_games_keep_every_invariant(options):
    n = 0
    for game, s in random_states({**options, "max_turns": 80}, n_games=6, seed=1):
        errors = check(s, game.params)
        assert errors == [], (errors, game.render(s))
        n += 1
    assert n > 500


def test_sowing_matches_the_reference_for_every_power():
    rng = np.random.default_rng(0)
    modes = [("cw", 0, 0), ("ccw", 0, SOWC_CCW), ("self", 0, SOWC_FROM_SELF)]
    modes += [("skip", k, SOWC_SKIP1 + k - 1) for k in range(1, 7)]
    modes += [("double", k, SOWC_DOUBLE1 + k - 1) for k in range(1, 7)]
    state = np.zeros(L.STATE_SIZE, np.int32)
    b = L.pl(0)
    for _ in range(400):
        tokens = [int(x) for x in rng.integers(0, 6, T.N_WEDGES)]
        pos = int(rng.integers(T.N_WEDGES))
        tokens[pos] = max(tokens[pos], 1)
        giant = int(rng.choice([-1, pos, (pos + 1) % T.N_WEDGES]))
        for mode, k, code in modes:
            state[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES] = tokens
            state[b + L.PL_GIANT] = giant
            state[L.POWER_USED] = 0
            sow(state, 0, pos, code)
            want, want_giant = sow_ref(tokens, giant, pos, mode, k)
            got = state[b + L.PL_TOK : b + L.PL_TOK + T.N_WEDGES].tolist()
            assert (got, int(state[b + L.PL_GIANT])) == (want, want_giant), (tokens, pos, mode)
            assert sum(got) == sum(tokens)


def test_majority_matches_the_reference_on_every_small_count():
    for players in (2, 3, 4):
        for counts in itertools.product(range(4), repeat=players):
            out = np.zeros(4, np.int64)
            majority(np.array(list(counts) + [0] * (4 - players)), players, out)
            assert out[:players].tolist() == majority_ref(list(counts)), counts


def test_build_costs_match_the_reference_in_random_positions():
    compared = 0
    for game, s in random_states({"players": 3, "max_turns": 80}, n_games=3, seed=2):
        if s[L.STEP] % 7:
            continue
        for p in range(game.num_players):
            for t in range(T.N_BUILDING_TYPES):
                for r in range(T.N_REGIONS):
                    c = build_cost(s, game.params, p, t, r)
                    want = build_cost_ref(s, game.params, p, t, r)
                    assert (None if c == NO_SITE else c) == want, (p, t, r)
                    compared += want is not None
    assert compared > 50


def test_travel_and_crusade_masks_match_the_reference():
    from crusadegym.core.crusaders.actions import MOVE0, REGION0
    from crusadegym.core.crusaders.reference import crusade_targets_ref, travel_moves_ref

    seen = {"travel": 0, "crusade": 0}
    for options in CONFIGS:
        for game, s in random_states({**options, "max_turns": 120}, n_games=4, seed=3):
            phase = L.PHASE_NAMES[s[L.PHASE]] if not game.is_terminal(s) else "over"
            if phase not in seen:
                continue
            p = game.current_player(s)
            mask = game.legal_mask(s)
            if phase == "travel":
                moves = np.flatnonzero(mask[MOVE0:REGION0])
                got = {(int(a) % T.N_KNIGHTS, int(a) // T.N_KNIGHTS) for a in moves}
                assert got == travel_moves_ref(s, game.params, p)
            else:
                got = {int(a) for a in np.flatnonzero(mask[REGION0 : REGION0 + T.N_REGIONS])}
                assert got == crusade_targets_ref(s, game.params, p)
            seen[phase] += 1
    assert seen["travel"] > 20 and seen["crusade"] > 5, seen


def test_compiled_invariants_agree_with_the_python_check():
    from crusadegym.core.crusaders.invariant_kernel import violation

    rng = np.random.default_rng(5)
    sound = broken = 0
    for game, s in random_states({"players": 3, "max_turns": 80}, n_games=3, seed=4):
        assert violation(s, game.params) == 0 and check(s, game.params) == []
        sound += 1
        if s[L.STEP] % 13 == 0:  # break one invariant-relevant slot, both must notice
            bad = s.copy()
            p = int(rng.integers(3))
            corruptions = [
                (L.pl(p) + L.PL_TOK + int(rng.integers(6)), 1),
                (L.SUPPLY, -1 - int(s[L.SUPPLY])),
                (L.pl(p) + L.PL_CAPT + int(rng.integers(3)), 1),
                (L.ENEMY_LOC + int(rng.integers(T.N_ENEMY_TOKENS)), 100),
            ]
            off, delta = corruptions[int(rng.integers(len(corruptions)))]
            bad[off] += delta
            assert violation(bad, game.params) != 0 and check(bad, game.params) != []
            broken += 1
    assert sound > 300 and broken > 10
