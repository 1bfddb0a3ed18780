"""Random Deus games: invariants after every step, and the compiled kernels against the
plain-Python reference (placement, village attacks, final scores)."""

from __future__ import annotations

import numpy as np
import pytest
from deus_helpers import game

from crusadegym.core.deus import layout as L
from crusadegym.core.deus import reference
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.actions import REGION0
from crusadegym.core.deus.board import attack_villages
from crusadegym.core.deus.scoring import final_scores


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "escape": "always", "first_spacing": "strict"},
        {"players": 4, "payment": "resources_first", "tie_break": "leftovers"},
        {"players": 2, "minerva_draw": "always"},
    ],
)
def test_random_games_keep_invariants_and_match_the_reference(options):
    g = game(**options)
    rng = np.random.default_rng(options["players"])
    placements = attacks = ends = 0
    for k in range(6):
        s = g.new_state(100 + k)
        while not g.is_terminal(s):
            if s[L.PHASE] == L.PH_PLACE:
                seat = int(s[L.CUR])
                ptype = int(T.DESIGN_COLOUR[T.CARD_DESIGN[s[L.PEND_CARD]]])
                want = set(reference.placement_regions(s, g.params, seat, ptype))
                got = {int(a) - REGION0 for a in g.legal_actions(s)}
                assert got == want, g.render(s)
                placements += 1
            vp, hit = reference.attack(s, g.params)
            if hit:  # a due attack left unresolved (the step that made it due must resolve it)
                attacks += 1
            copy = s.copy()
            attack_villages(copy, g.params)
            for p in range(options["players"]):
                assert copy[L.player(p) + L.VP] == vp[p]
            g.step(s, int(rng.choice(g.legal_actions(s))))
            errors = g.check_invariants(s)
            assert not errors, errors
        scores = np.zeros(options["players"], np.int64)
        final_scores(s, g.params, scores)
        assert list(scores) == reference.final_scores(s, g.params)
        ends += 1
    assert placements > 50 and ends == 6
    assert attacks == 0  # every due attack is resolved by the step that made it due


def test_attack_kernel_matches_the_reference_on_constructed_boards():
    """Random occupations of every village's surroundings, resolved both ways."""
    g = game(players=3)
    rng = np.random.default_rng(0)
    due = 0
    for k in range(300):
        s = g.new_state(k)
        for r in range(T.N_REGIONS):
            if s[L.TERRAIN + r] in (T.VILLAGE,) or s[L.TERRAIN + r] < 0:
                continue
            if rng.random() < 0.8:
                s[L.OWNER + r] = rng.integers(0, 3)
                s[L.PIECES + r] = rng.integers(1, 32)
        vp, hit = reference.attack(s, g.params)
        copy = s.copy()
        n = attack_villages(copy, g.params)
        assert n == len(hit)
        for p in range(3):
            assert copy[L.player(p) + L.VP] == vp[p]
        for v in hit:
            assert copy[L.ATTACKED + v] == 1 and copy[L.VILLAGE_VP + v] == 0
        due += len(hit)
    assert due > 20


def test_compiled_invariants_agree_with_the_python_ones():
    """invariant_kernel.violation == 0 exactly when invariants.check finds nothing, on
    random positions and on corrupted copies of them."""
    from crusadegym.core.deus.invariant_kernel import violation

    g = game(players=3, max_turns=60)
    rng = np.random.default_rng(4)
    slots = [L.SUPPLY, L.player(1) + L.GOLD, L.player(0) + L.HAND_N, L.player(2) + L.ON_BOARD,
             L.OWNER + 3, L.TEMPLES_LEFT, L.CARD_LOC + 17, L.DECK]  # fmt: skip
    bad = 0
    for k in range(3):
        s = g.new_state(k)
        while not g.is_terminal(s):
            assert violation(s, g.params) == 0 and not g.check_invariants(s)
            if rng.random() < 0.05:
                broken = s.copy()
                broken[slots[int(rng.integers(len(slots)))]] += int(rng.choice([-7, -1, 1, 3]))
                code = violation(broken, g.params)
                assert (code != 0) == bool(g.check_invariants(broken)), g.check_invariants(broken)
                bad += int(code != 0)
            g.step(s, int(rng.choice(g.legal_actions(s))))
    assert bad > 10
