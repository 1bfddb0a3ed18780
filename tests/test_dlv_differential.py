"""Compiled Deus lo Vult kernels against the plain-Python reference, on random positions.

Positions come from random playouts in several configs (all home rules exercised).
Across the parametrised cases more than 10,000 positions are compared.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import rules
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.reference import (
    View,
    ref_band,
    ref_combat_icons,
    ref_legal_actions,
    ref_stampede,
)

CONFIGS = [
    {"players": 2},
    {"players": 3, "stampede": "chivalrous", "deployment": "saracenic"},
    {
        "players": 4,
        "deployment": "campaign",
        "saracen_placement": "tactical",
        "robbing": True,
        "double_arrow_adjacent": True,
        "double_arrow_vs_shield": "wound",
        "coin_facing": "out",
    },
]


def random_positions(game, n, seed):
    """n positions visited by random play (new games started as needed)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(n):
        if game.is_terminal(state):
            state = game.new_state(int(rng.integers(1 << 30)))
        yield state
        game.step(state, int(rng.choice(game.legal_actions(state))))


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{o['players']}p")
def test_legal_mask_matches_reference(options):
    game = make_game("deus_lo_vult", max_turns=60, **options)
    compared = 0
    for state in random_positions(game, 3500, seed=options["players"]):
        expected = ref_legal_actions(state, game.params)
        got = set(np.flatnonzero(game.legal_mask(state)).tolist())
        assert got == expected, (
            f"mask differs: only compiled {sorted(got - expected)}, only reference "
            f"{sorted(expected - got)}\n{game.render(state)}"
        )
        compared += 1
    assert compared == 3500


@pytest.mark.parametrize("options", CONFIGS[:2], ids=lambda o: f"{o['players']}p")
def test_bands_and_stampede_match_reference(options):
    game = make_game("deus_lo_vult", max_turns=60, **options)
    victims = np.zeros(5, np.int64)
    bands = np.zeros((3, T.N_CELLS + 1), np.int64)
    for state in random_positions(game, 400, seed=10 + options["players"]):
        view = View(state, game.params)
        seat = int(state[L.CUR])
        for saracen in (False, True):
            rules.label_bands(state, seat, saracen, bands)
            for c in view.cells:
                k = bands[0, c]
                got = set(bands[1, bands[2, k] : bands[2, k + 1]].tolist()) if k >= 0 else set()
                assert got == ref_band(view, c, seat, saracen)
        for c in view.cells:
            k = rules.stampede_victims(state, c, victims)
            assert set(victims[:k].tolist()) == ref_stampede(view.cells, c)


@pytest.mark.parametrize("dbl", ["blocked", "wound"])
def test_combat_table_matches_rulebook_rows(dbl):
    game = make_game("deus_lo_vult", double_arrow_vs_shield=dbl)
    for att in (T.ICON_S, T.ICON_A, T.ICON_D, T.ICON_X):
        for dfd in (T.ICON_S, T.ICON_A, T.ICON_D, T.ICON_X, T.ICON_SH, T.ICON_H):
            for charge in (False, True):
                got = rules.resolve_combat(game.params, att, dfd, charge)
                assert tuple(int(x) for x in got) == ref_combat_icons(att, dfd, charge, game.params)
