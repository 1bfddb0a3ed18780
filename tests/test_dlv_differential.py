"""The compiled Deus lo Vult engine against the plain-Python reference of the whole step.

``core/deus_lo_vult/reference_game.py`` re-implements setup, the legal actions and
every step from the rulebook with dataclasses; here both play the same games (same
actions, same dice) and must agree on the decoded state after every step, on the
rewards, and on the legal action set. The CI slice covers every option value; the
soak (``crusadegym soak --differential``) runs the same comparison at scale.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import rules
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.config import DOUBLE_ARROW_SHIELD
from crusadegym.core.deus_lo_vult.differential import (
    compare_game,
    compare_new_game,
    late_round_state,
)
from crusadegym.core.deus_lo_vult.reference_game import Reference, decode, differences

SHORT = {"rounds": 1, "max_turns": 8}
# every value of every option appears in at least one config
CONFIGS = [
    {"players": 2},
    {"players": 3, "stampede": "chivalrous", "deployment": "saracenic", "predeploy_units": 8},
    {
        "players": 4,
        "deployment": "campaign",
        "saracen_placement": "tactical",
        "robbing": True,
        "double_arrow_adjacent": True,
        "double_arrow_vs_shield": "wound",
        "coin_facing": "out",
        "saracen_targets": "any",
        "weaken_cost": "action_point",
        "saracen_cap": 12,
        "secure_coins": "all",
        "tie_rule": "shared",
    },
    {"players": 2, "deployment": "latin", "predeploy_points": 13, "stampede": "chivalrous"},
]


def _name(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("options", CONFIGS, ids=_name)
def test_whole_games_match_the_reference(options):
    game = make_game("deus_lo_vult", **{**SHORT, **options})
    steps = 0
    seeds = 3 if options.get("stampede") == "chivalrous" else 6  # slow in plain Python
    for seed in range(seeds):
        out = compare_new_game(game, seed, np.random.default_rng(seed))
        assert not out.problem, out.problem
        steps += out.steps
    assert steps > 150


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"saracen_placement": "tactical", "deployment": "campaign", "secure_coins": "all"},
        {"deployment": "saracenic", "stampede": "chivalrous", "saracen_cap": 13},
        {"saracen_replenish": "fill"},
        {"saracen_placement": "tactical", "deployment": "campaign", "saracen_replenish": "fill"},
    ],
    ids=lambda o: _name(o) or "default",
)
def test_round_transitions_match_the_reference(options):
    """From a late-round position with coin-minded play, games cross round ends."""
    game = make_game("deus_lo_vult", rounds=3, max_turns=30, **options)
    rounds = 0
    for seed in range(6):
        state = late_round_state(game, seed)
        out = compare_game(game, state, np.random.default_rng(seed), lean=0.8, legal_every=4)
        assert not out.problem, out.problem
        rounds += int(state[L.ROUND])
    assert rounds >= 3, "the slice should cross round transitions"


def test_decode_sees_every_field():
    """A one-slot change anywhere in the state is a difference (the comparison can fail)."""
    game = make_game("deus_lo_vult", **SHORT)
    state = game.new_state(3)
    base = decode(state)
    for slot in list(range(L.RNG, L.SCORE + 4)) + [L.BOARD + 60, L.GROUND + 5, L.TOK_MOVED + 7]:
        if slot in (18, 19):  # unused scalar slots
            continue
        changed = state.copy()
        changed[slot] += 1
        assert differences(decode(changed), base), f"slot {slot} is not compared"


RULEBOOK_CRT = [  # the rulebook's Combat Results Table, row by row
    ("S", ["Sh"], (0, 0)),
    ("S", ["H", "A", "D"], (0, 1)),
    ("S", ["S", "X"], (1, 1)),
    ("A", ["Sh"], (0, 0)),
    ("A", ["H", "A", "D", "S"], (0, 1)),
]


def rulebook_combat(att: str, dfd: str, charge: bool, wound: bool) -> tuple[int, int]:
    """The table with our readings: X like the skull, D doubles the arrow, the home rules."""
    if att == "D" and wound:
        return (0, 1)  # "Double arrow breaks shields and inflicts 1 damage"
    if att == "S" and dfd == "Sh" and charge:
        return (0, 1)
    base = {"X": "S", "D": "A"}.get(att, att)
    target = "S" if (dfd == "X" and base == "A") else dfd
    for a, defenders, outcome in RULEBOOK_CRT:
        if a == base and target in defenders:
            return (0, 2 * outcome[1]) if att == "D" else outcome
    raise ValueError(f"no row for {att} vs {dfd}")


@pytest.mark.parametrize("dbl", DOUBLE_ARROW_SHIELD)
def test_combat_table_matches_rulebook_rows(dbl):
    game = make_game("deus_lo_vult", double_arrow_vs_shield=dbl)
    ref = Reference(game.params)
    for att in (T.ICON_S, T.ICON_A, T.ICON_D, T.ICON_X):
        for dfd in (T.ICON_S, T.ICON_A, T.ICON_D, T.ICON_X, T.ICON_SH, T.ICON_H):
            for charge in (False, True):
                got = tuple(int(x) for x in rules.resolve_combat(game.params, att, dfd, charge))
                codes = T.ICON_CODES[att], T.ICON_CODES[dfd]
                assert got == rulebook_combat(*codes, charge, dbl == "wound")
                assert got == ref.combat(att, dfd, charge)
