"""The learned selection prior (agents/select_prior.py), its place in the compiled search
(agents/tree_search.py) and its learner (training/selectfit.py)."""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import random_positions

from crusadegym.agents.heuristics import deus_lo_vult_select as F
from crusadegym.agents.heuristics import extend_mask, get_heuristic, value_kernel
from crusadegym.agents.kernels import bound_estimated_lookahead, bound_lookahead
from crusadegym.agents.mcts import MCTSAgent
from crusadegym.agents.select_prior import SelectPrior
from crusadegym.agents.tree_search import (
    E_ACTION,
    E_CHILD,
    E_EXTEND,
    E_PRIOR,
    ESTIMATED,
    N_COUNT,
    N_FIRST,
    N_RANKED,
    CompiledTree,
)  # fmt: skip
from crusadegym.core import make_game
from crusadegym.training import selectfit as S

SEARCH = {"c_uct": 0.005, "prior_visits": 20.0, "rollout_depth": 0, "rollouts_per_leaf": 1}


@pytest.fixture(scope="module")
def game():
    return make_game("deus_lo_vult", players=2, rounds=1, max_turns=30)


@pytest.fixture(scope="module")
def positions(game):
    """Positions where the seat to move selects, from random games."""
    heuristic = get_heuristic("deus_lo_vult")
    found = []
    for state in random_positions(game, 3, 200, seed=21):
        if (game.legal_mask(state) & extend_mask(game, state, heuristic)).sum() >= 2:
            found.append(state)
    return found[::6]


class AllExact(SelectPrior):
    """A prior that plays every follow-up out: its "guess" never decides anything."""

    def parts(self):
        features, weights, _ = super().parts()
        return features, weights, np.ones(F.N_ACTIONS, np.uint8)


def _tree(game, state, prior, iterations=120):
    heuristic = get_heuristic("deus_lo_vult")
    tree = CompiledTree(game, state, value_kernel(game, heuristic), heuristic.extend, 3,
                        shuffle_actions=False, prior=prior, **SEARCH)  # fmt: skip
    tree.search(iterations)
    return tree


def test_a_prior_that_plays_everything_out_is_the_exact_search(game, positions):
    """Every selection's value is then exact, so the search must not change at all."""
    prior = AllExact("deus_lo_vult", np.full(F.N_FEATURES, 0.3))
    assert len(positions) >= 6
    for state in positions:
        exact, estimated = _tree(game, state, None), _tree(game, state, prior)
        for a, b in zip(exact.root_statistics(), estimated.root_statistics(), strict=True):
            np.testing.assert_array_equal(a, b)
        assert estimated.depth == exact.depth


def test_estimated_values_match_a_plain_python_reading(game, positions):
    """A selection scores ``value(state) + w . features`` when some follow-up is left to
    the guess, maxed with the follow-ups the prior plays out; every other action one ply
    deep. Recomputed here with the game's API, one action at a time."""
    heuristic = get_heuristic("deus_lo_vult")
    value = value_kernel(game, heuristic)
    prior = SelectPrior.load("pretrained")
    estimate = bound_estimated_lookahead(game, value, prior)

    def mover_value(state, mover):
        vals = np.zeros(2, np.float32)
        (game.k.returns if game.is_terminal(state) else value)(state, game.params, vals)
        return float(vals[mover])

    checked = 0
    for state in positions:
        mover = game.current_player(state)
        marks = extend_mask(game, state, heuristic)
        out, flags = np.empty(game.num_actions), np.zeros(game.num_actions, np.uint8)
        estimate(state, game.params, game.num_actions, 2, marks, out, flags)
        for a in game.legal_actions(state):
            after = state.copy()
            game.step(after, int(a))
            if not marks[a] or game.is_terminal(after) or game.current_player(after) != mover:
                assert not flags[a] and out[a] == pytest.approx(mover_value(after, mover))
                continue
            follow = game.legal_mask(after)
            played = [b for b in np.flatnonzero(follow) if F.EXACT_FOLLOWUPS[b]]
            expected = -np.inf
            for b in played:
                s2 = after.copy()
                game.step(s2, int(b))
                expected = max(expected, mover_value(s2, mover))
            if len(played) < follow.sum():
                x = np.zeros(F.N_FEATURES)
                F.select_features(state, game.params, int(a), after, follow, x)
                expected = max(expected, mover_value(state, mover) + float(prior.weights @ x))
            assert flags[a] == 1 and out[a] == pytest.approx(expected, abs=1e-6)
            checked += 1
    assert checked > 30


def test_guesses_give_way_to_exact_values_once_expanded(game, positions):
    """Below the root a "select" starts from the guess; after its first expansion its
    prior is the exact two-ply value, and the root's priors are exact throughout."""
    heuristic = get_heuristic("deus_lo_vult")
    lookahead = bound_lookahead(game, value_kernel(game, heuristic))
    prior = SelectPrior.load("pretrained")
    corrected = guessed = 0
    for state in positions:
        tree = _tree(game, state, prior, iterations=200)
        for node in np.flatnonzero(tree.nodes[N_RANKED]):
            first, count = tree.nodes[N_FIRST, node], tree.nodes[N_COUNT, node]
            edges = np.arange(first, first + count)
            actions = tree.edges_i[E_ACTION, edges]
            legal = game.legal_actions(tree.states[node])
            assert sorted(actions) == sorted(legal)  # priors only over legal actions
            values = np.empty(game.num_actions)
            marks = extend_mask(game, tree.states[node], heuristic)
            lookahead(tree.states[node], game.params, game.num_actions, 2, marks, values)
            for e, a in zip(edges, actions, strict=True):
                mark = tree.edges_i[E_EXTEND, e]
                if node == 0 or tree.edges_i[E_CHILD, e] >= 0 or mark != ESTIMATED:
                    assert mark != ESTIMATED
                    assert tree.edges_f[E_PRIOR, e] == pytest.approx(values[a], abs=1e-6)
                    corrected += node != 0 and marks[a] == 1 and tree.edges_i[E_CHILD, e] >= 0
                else:
                    guessed += 1
    assert corrected > 20 and guessed > 20


def test_the_agent_plays_legal_reproducible_moves(game, positions):
    for state in positions[:4]:
        moves = [MCTSAgent(seed=4, select_prior="pretrained", iterations=60).act_state(game, state)
                 for _ in range(2)]  # fmt: skip
        assert moves[0] == moves[1] and game.legal_mask(state)[moves[0]]


def test_checkpoints_round_trip_and_bad_ones_fail_in_one_line(tmp_path, game):
    prior = SelectPrior.load("pretrained")
    assert prior is SelectPrior.load("pretrained")  # one object, one compile per process
    path = prior.save(tmp_path / "p.npz")
    again = SelectPrior.load(path)
    np.testing.assert_array_equal(again.weights, prior.weights)
    assert again.game == "deus_lo_vult" and again.value == prior.value
    with pytest.raises(FileNotFoundError, match="selectfit"):
        SelectPrior.load(tmp_path / "none.npz")
    np.savez(tmp_path / "bad.npz", game="deus_lo_vult", weights=np.zeros(3), value="heuristic",
             feature_names=np.array(F.FEATURE_NAMES), meta=np.array("{}"))  # fmt: skip
    with pytest.raises(ValueError, match="weights"):
        SelectPrior.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="no selection prior"):
        SelectPrior("deus", np.zeros(2))
    python = MCTSAgent(select_prior="pretrained", engine="python")
    with pytest.raises(ValueError, match="compiled engine only"):
        python.act_state(game, game.new_state(0))
    deus = make_game("deus")
    with pytest.raises(ValueError, match="compiled engine only|not deus"):
        MCTSAgent(select_prior="pretrained").act_state(deus, deus.new_state(0))


def test_the_fit_recovers_planted_weights():
    """Targets made by known weights: the fit must rank held-out selections as they do."""
    rng = np.random.default_rng(0)
    n_pos, per = 300, 6
    x = rng.normal(size=(n_pos * per, F.N_FEATURES))
    w_true = rng.normal(size=F.N_FEATURES) * 0.01
    base = np.repeat(rng.normal(size=n_pos) * 0.1, per)
    data = {"x": x, "y": base + x @ w_true, "exact": np.full(len(x), -np.inf), "base": base,
            "group": np.repeat(np.arange(n_pos), per)}  # fmt: skip
    prior, metrics = S.fit(data, "deus_lo_vult", "heuristic", l2=0.0)
    np.testing.assert_allclose(prior.weights, w_true, atol=1e-9)
    assert metrics["prior"]["top1"] == 1.0 and metrics["prior"]["regret"] == 0.0
    offset, _ = S.fit(data, "deus_lo_vult", "heuristic", l2=0.0, bias_only=True)
    assert np.all(offset.weights[1:] == 0)
    gain, first = data["y"] - base, x[:, 0]  # held-out positions are not fitted
    train = data["group"] < n_pos - n_pos // 10
    expected = (first[train] @ gain[train]) / (first[train] @ first[train])
    assert offset.weights[0] == pytest.approx(expected, rel=1e-9)


def test_a_tiny_recording_and_the_command(tmp_path, capsys):
    out = tmp_path / "sf"
    argv = ["deus_lo_vult", "-o", "rounds=1", "-o", "max_turns=6", "--games", "3"]
    argv += ["--out", str(out)]
    assert S.main(argv) == 0
    prior = SelectPrior.load(out / "select_prior.npz")
    assert np.all(np.isfinite(prior.weights)) and np.any(prior.weights != 0)
    d = dict(np.load(out / "data.npz"))
    rows = d["y"] > d["exact"]  # the selections the guess stands for
    gain = (d["y"] - d["base"])[rows]
    fitted = np.mean((gain - d["x"][rows] @ prior.weights) ** 2)
    assert rows.sum() > 50 and fitted < np.mean(gain**2)  # better than its start, no guess
    capsys.readouterr()
    assert S.main(["deus_lo_vult", "--games", "0"]) == 2
    assert S.main(["deus", "--games", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("selectfit: ") for line in err)


def test_a_missing_checkpoint_is_one_line_on_the_command_line(capsys):
    from crusadegym.cli import main

    for spec in ("mcts:select_prior=nope.npz", "mcts:value=nope.npz"):
        argv = ["arena", "deus_lo_vult", "--agents", f"{spec},random", "--games", "1", "--quiet"]
        assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("crusadegym arena: no ") for line in err)
