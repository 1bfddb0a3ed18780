"""Search distillation into the linear evaluation (training/searchfit.py)."""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.agents.heuristics import action_values, get_heuristic
from crusadegym.agents.heuristics import deus_lo_vult_features as F
from crusadegym.agents.learned_value import LearnedValue
from crusadegym.core import make_game
from crusadegym.training import searchfit as S

OPTIONS = {"players": 2, "rounds": 1, "max_turns": 8}


@pytest.fixture(scope="module")
def game():
    return make_game("deus_lo_vult", **OPTIONS)


@pytest.fixture(scope="module")
def recorded():
    return S.record(("deus_lo_vult", OPTIONS, "mcts:iterations=8", "heuristic", 0, 600.0, 4))


def test_child_rows_are_what_the_lookahead_scores(game):
    """tanh(MARGIN . row) of every action's completed child is the hand-written lookahead's
    value of that action (one ply, or two for a select)."""
    heuristic = get_heuristic("deus_lo_vult")
    rng = np.random.default_rng(0)
    checked = 0
    state = game.new_state(4)
    for _ in range(120):
        if game.is_terminal(state):
            break
        actions = game.legal_actions(state)
        rows = S.child_rows(game, state, actions)
        if rows is not None and len(actions) > 1:
            expected = action_values(game, state, heuristic)[actions]
            np.testing.assert_allclose(np.tanh(rows @ F.MARGIN), expected, atol=1e-5)
            checked += 1
        game.step(state, int(rng.choice(actions)))
    assert checked > 20


def test_recorded_decisions_are_distributions(recorded):
    d = recorded
    assert len(d["G"]) > 10 and d["X"].shape == (len(d["P"]), F.N_FEATURES)
    sums = np.bincount(d["D"], weights=d["P"])
    np.testing.assert_allclose(sums, 1.0, atol=1e-5)
    assert np.all(np.diff(d["D"]) >= 0)


def test_fit_learns_a_preference_the_hand_written_value_lacks(recorded):
    """A teacher that always picks the child with the most units in a band: the fit must
    beat the hand-written start on held-out decisions."""
    d = dict(recorded)
    band = d["X"][:, F.FEATURE_NAMES.index("own_in_band")]
    shares = np.zeros_like(d["P"])
    for k in np.unique(d["D"]):
        rows = np.flatnonzero(d["D"] == k)
        best = rows[band[rows] == band[rows].max()]
        shares[best] = 1.0 / len(best)
    d["P"] = shares
    model, metrics = S.fit(d, "deus_lo_vult", l2=1e-4, steps=200)
    start, fitted = metrics["start"], metrics["fitted"]
    assert fitted["held_out_cross_entropy"] < start["held_out_cross_entropy"] - 0.05
    assert isinstance(model, LearnedValue) and model.form == "linear"
    assert np.any(model.parameters != 0)


def test_bad_arguments_get_one_line_errors(capsys, tmp_path):
    assert S.main(["deus_lo_vult", "--workers", "0"]) == 2
    assert S.main(["deus", "--minutes", "1"]) == 2
    assert S.main(["deus_lo_vult", "--data", str(tmp_path / "none.npz")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("searchfit: ") for line in err)
