"""The learned evaluation: its features, the fit, the compiled network, the checkpoint,
and search with it (agents/learned_value.py, training/valuefit.py)."""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import random_positions

from crusadegym.agents.heuristics import deus_lo_vult as H
from crusadegym.agents.heuristics import deus_lo_vult_features as F
from crusadegym.agents.learned_value import LearnedValue
from crusadegym.agents.registry import make_agent
from crusadegym.core import make_game

OPTIONS = {"rounds": 1, "max_turns": 8}


@pytest.fixture(scope="module")
def game():
    return make_game("deus_lo_vult", **OPTIONS)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    from crusadegym.training.valuefit import fit, play_positions

    data = play_positions("deus_lo_vult", OPTIONS, 3, 600.0, 0.3, max_games=40)
    model, metrics = fit(data, "deus_lo_vult", "heuristic", hidden=8, epochs=15)
    path = model.save(tmp_path_factory.mktemp("value") / "value.npz")
    return data, model, metrics, path


def test_heuristic_terms_reproduce_the_heuristic_score(game):
    """W_TERMS . seat terms == the hand-written seat_score, so the heuristic feature set
    holds everything the evaluation knows."""
    pair = np.zeros((2, F.N_FEATURES))
    for state in random_positions(game, 4, 150):
        F.features(state, game.params, pair)
        for p in (0, 1):
            row = pair[p]
            own = float(F.W_TERMS @ row[: F.N_SEAT_TERMS])
            rival = float(F.W_TERMS @ row[F.N_SEAT_TERMS : 2 * F.N_SEAT_TERMS])
            assert own == pytest.approx(H.seat_score(state, game.params, p, True), abs=1e-9)
            assert rival == pytest.approx(H.seat_score(state, game.params, 1 - p, True), abs=1e-9)


def test_feature_sets():
    names = F.FEATURE_NAMES
    assert len(set(names)) == F.N_FEATURES
    state_set, full = set(F.FEATURE_SETS["state"]), set(F.FEATURE_SETS["heuristic"])
    assert state_set < full
    assert not any(names[i].endswith(("loot", "escort", "ready", "in_band")) for i in state_set)


def test_fit_beats_a_constant_and_the_kernel_is_the_network(game, fitted):
    data, model, metrics, _ = fitted
    assert metrics["games"] >= 10
    assert metrics["held_out_mse"] < metrics["constant_mse"]
    value = model.kernel()
    out = np.zeros(2, np.float32)
    rows = np.zeros((2, F.N_FEATURES))
    for state in random_positions(game, 3, 60, seed=9):
        value(state, game.params, out)
        F.features(state, game.params, rows)
        v = model.predict(rows)
        assert out[0] == pytest.approx(0.5 * (v[0] - v[1]), abs=1e-5)
        assert out[0] == pytest.approx(-out[1], abs=1e-6)


def test_checkpoint_round_trip_and_errors(fitted, tmp_path):
    _, model, _, path = fitted
    back = LearnedValue.load(path)
    assert back.feature_set == model.feature_set
    assert LearnedValue.load(path) is back  # one compile per process and file
    for a, b in zip(back.weights, model.weights, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(FileNotFoundError, match="valuefit"):
        LearnedValue.load(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(3))
    with pytest.raises(ValueError, match="not a learned-value checkpoint"):
        LearnedValue.load(bad)
    renamed = tmp_path / "renamed.npz"
    z = dict(np.load(path))
    z["feature_names"] = z["feature_names"][::-1]
    np.savez(renamed, **z)
    with pytest.raises(ValueError, match="refit"):
        LearnedValue.load(renamed)


def test_search_and_lookahead_with_the_learned_value(game, fitted):
    _, _, _, path = fitted
    mask = np.zeros(game.num_actions, np.uint8)
    for spec in (f"mcts:value={path}:iterations=6", f"heuristic:value={path}"):
        agent = make_agent(spec, seed=1)
        state = game.new_states(np.array([5], np.int64))[0]
        for _ in range(12):
            if game.is_terminal(state):
                break
            a = agent.act_state(game, state)
            game.k.legal_mask(state, game.params, mask)
            assert mask[a] == 1
            game.step(state, a)
    with pytest.raises(ValueError, match="not deus"):
        make_agent(f"mcts:value={path}:iterations=2").act_state(
            make_game("deus"), make_game("deus").new_states(np.array([0], np.int64))[0]
        )


def test_residual_with_a_silent_network_is_the_heuristic(game):
    """skip=1 and all-zero weights: each seat's value is the hand-written evaluation's,
    made zero-sum (MARGIN . features is its tanh argument)."""
    n_in, hidden = len(F.FEATURE_SETS["heuristic"]), 4
    zeros = [np.zeros((hidden, n_in)), np.zeros(hidden), np.zeros((hidden, hidden)),
             np.zeros(hidden), np.zeros((1, hidden)), np.zeros(1)]  # fmt: skip
    model = LearnedValue("deus_lo_vult", "heuristic", zeros, np.zeros(n_in), np.ones(n_in), 1.0)
    value = model.kernel()
    out = np.zeros(2, np.float32)
    hand = np.zeros(2, np.float64)
    for state in random_positions(game, 3, 120, seed=4):
        value(state, game.params, out)
        H.evaluate(state, game.params, hand)
        assert out[0] == pytest.approx(0.5 * (hand[0] - hand[1]), abs=1e-6)


def test_residual_fit_starts_at_the_heuristic(fitted):
    from crusadegym.training.valuefit import fit

    data = fitted[0]
    model, metrics = fit(data, "deus_lo_vult", "heuristic", hidden=8, epochs=2, residual=True)
    assert model.skip != 0.0
    assert metrics["held_out_mse"] <= metrics["held_out_mse_at_start"]
    with pytest.raises(ValueError, match="--features heuristic"):
        fit(data, "deus_lo_vult", "state", hidden=8, epochs=1, residual=True)


def test_the_shipped_value_loads_by_name_and_searches(game):
    """``value=pretrained`` is the linear value shipped in the package (it must be in the
    wheel: scripts/wheel_smoke.sh loads it there too); on another game it is refused."""
    from crusadegym.agents.mcts import MCTSAgent
    from crusadegym.agents.pretrained import VALUE

    shipped = LearnedValue.load("pretrained")
    assert shipped is LearnedValue.load(VALUE)  # one object, one compile
    assert (shipped.game, shipped.form) == ("deus_lo_vult", "linear")
    assert shipped.meta["learner"] == "searchfit"  # the saved metadata is read back
    assert np.abs(shipped.parameters).max() > 0  # fitted, not the hand-written start
    agent = make_agent("mcts:value=pretrained:iterations=20", seed=0)
    state = game.new_state(0)
    assert game.legal_mask(state)[agent.act_state(game, state)]
    crusaders = make_game("crusaders", players=2)
    with pytest.raises(ValueError, match="for deus_lo_vult, not crusaders"):
        MCTSAgent(value="pretrained").act_state(crusaders, crusaders.new_state(0))
