"""The linear learned evaluation and its evolution-strategies learner
(agents/learned_value.py ``form="linear"``, training/evolve.py)."""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import random_positions

from crusadegym.agents.heuristics import deus_lo_vult_features as F
from crusadegym.agents.heuristics import get_heuristic
from crusadegym.agents.learned_value import LearnedValue
from crusadegym.agents.registry import make_agent
from crusadegym.core import make_game
from crusadegym.training import evolve as E

OPTIONS = {"rounds": 1, "max_turns": 8}
N_IN = len(F.FEATURE_SETS["heuristic"])


@pytest.fixture(scope="module")
def game():
    return make_game("deus_lo_vult", **OPTIONS)


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(1)
    return LearnedValue.linear("deus_lo_vult", "heuristic", rng.normal(size=N_IN),
                               rng.uniform(0.5, 2.0, N_IN))  # fmt: skip


def test_linear_value_starts_as_the_hand_written_evaluation(game, model):
    """With zero weights the linear value is the heuristic's value, seat by seat."""
    model.set_parameters(np.zeros_like(model.parameters))
    ours, theirs = np.zeros(2, np.float32), np.zeros(2, np.float32)
    hand_written = get_heuristic("deus_lo_vult").value
    for state in random_positions(game, 3, 120):
        model.kernel()(state, game.params, ours)
        hand_written(state, game.params, theirs)
        np.testing.assert_allclose(ours, theirs, atol=1e-6)


def test_new_weights_reach_the_compiled_kernel_without_a_recompile(game, model):
    kernel = model.kernel()
    pair, out = np.zeros((2, F.N_FEATURES)), np.zeros(2, np.float32)
    states = list(random_positions(game, 2, 80, seed=5))[::7]
    for seed in (2, 3):
        model.set_parameters(np.random.default_rng(seed).normal(0, 0.3, model.parameters.size))
        assert model.kernel() is kernel
        for state in states:
            F.features(state, game.params, pair)
            kernel(state, game.params, out)
            np.testing.assert_allclose(out, model.predict(pair), atol=1e-5)
    # the turn products matter: the same position at another clock reads differently
    theta = np.zeros(model.parameters.size)
    theta[N_IN:2 * N_IN] = 1.0  # fmt: skip
    model.set_parameters(theta)
    early, late = pair.copy(), pair.copy()
    early[:, F.FEATURE_NAMES.index("turn")], late[:, F.FEATURE_NAMES.index("turn")] = 0.0, 1.0
    assert not np.allclose(model.predict(early), model.predict(late))


def test_linear_checkpoint_round_trip(tmp_path, model):
    model.set_parameters(np.linspace(-1, 1, model.parameters.size))
    back = LearnedValue.load(model.save(tmp_path / "linear.npz"))
    assert back.form == "linear" and back.skip == 1.0
    np.testing.assert_array_equal(back.parameters, model.parameters)
    with pytest.raises(ValueError, match="parameters"):
        back.set_parameters(np.zeros(3))
    with pytest.raises(ValueError, match="form"):
        LearnedValue("deus_lo_vult", "heuristic", [], np.zeros(1), np.ones(1), form="cubic")


def test_centred_ranks_share_ties():
    r = E.centred_ranks(np.array([3.0, 1.0, 3.0, 2.0]))
    np.testing.assert_allclose(r, [(2.5 / 3) - 0.5, -0.5, (2.5 / 3) - 0.5, (1 / 3) - 0.5])


def test_es_climbs_a_known_objective():
    """The gradient estimate and Adam find the top of a noisy quadratic."""
    rng = np.random.default_rng(0)
    target = rng.normal(size=12)
    theta, adam, sigma = np.zeros(12), E.Adam(12, 0.05), 0.1

    def fitness(t):
        return -np.sum((t - target) ** 2) + rng.normal(0, 0.1)

    start = np.linalg.norm(theta - target)
    for _ in range(150):
        e = rng.standard_normal((8, 12))
        plus = np.array([fitness(theta + sigma * d) for d in e])
        minus = np.array([fitness(theta - sigma * d) for d in e])
        theta = theta + adam.step(E.es_gradient(e, plus, minus, sigma))
    assert np.linalg.norm(theta - target) < 0.25 * start


def test_paired_deals_cancel_between_equal_players(game):
    """Every deal is played from both seats: equal players score exactly even."""
    reference = get_heuristic("deus_lo_vult")
    results, margins = E.play_games(game, reference, reference, np.arange(3))
    assert results.shape == (6,)
    np.testing.assert_array_equal(results[0::2], -results[1::2])
    np.testing.assert_array_equal(margins[0::2], -margins[1::2])


def test_a_tiny_run_writes_a_value_the_agents_load(tmp_path, game):
    out = tmp_path / "evolve"
    argv = ["deus_lo_vult", "-o", "rounds=1", "-o", "max_turns=8", "--iterations", "2",
            "--pairs", "2", "--games", "2", "--eval-every", "1", "--eval-games", "2",
            "--norm-games", "3", "--workers", "1", "--out", str(out)]  # fmt: skip
    assert E.main(argv) == 0
    for name in ("value.npz", "best.npz", "history.json", "learning_curve.png"):
        assert (out / name).is_file()
    tuned = LearnedValue.load(out / "value.npz")
    assert tuned.form == "linear" and np.any(tuned.parameters != 0)
    for spec in (f"heuristic:value={out / 'value.npz'}",
                 f"mcts:value={out / 'value.npz'}:iterations=5"):  # fmt: skip
        state = game.new_state(0)
        mask = game.legal_mask(state)
        assert mask[make_agent(spec, seed=0).act_state(game, state)]


def test_bad_arguments_get_one_line_errors(capsys):
    assert E.main(["deus_lo_vult", "--pairs", "0"]) == 2
    assert E.main(["deus", "--iterations", "1", "--norm-games", "1", "--workers", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[0].startswith("evolve: --pairs") and "deus" in err[1]


def test_the_kernel_keeps_its_weights_alive(game):
    """The compiled kernel reads the weights' memory: it must outlive the model object."""
    import gc

    model = LearnedValue.linear("deus_lo_vult", "heuristic", np.zeros(N_IN), np.ones(N_IN))
    model.set_parameters(np.full(model.parameters.size, 0.01))
    state, before, after = game.new_state(1), np.zeros(2, np.float32), np.zeros(2, np.float32)
    kernel = model.kernel()
    kernel(state, game.params, before)
    del model
    gc.collect()
    clutter = [np.full(2 * N_IN + 1, 1e9) for _ in range(1000)]  # reuse freed memory
    kernel(state, game.params, after)
    assert len(clutter) == 1000
    np.testing.assert_array_equal(before, after)
