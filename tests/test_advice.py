"""Heuristic advice as a policy input (agents/advice.py) and the residual policy over it."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from crusadegym.agents import RandomAgent, load_policy_agent  # noqa: E402
from crusadegym.agents.advice import (  # noqa: E402
    GAP_CLIP,
    advice_for_size,
    check_advice,
    heuristic_advice,
    policy_input,
)
from crusadegym.agents.arena import play_game  # noqa: E402
from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics import action_values, get_heuristic  # noqa: E402
from crusadegym.agents.neural import AdvisedPolicyAgent  # noqa: E402
from crusadegym.core import make_game  # noqa: E402
from crusadegym.training.checkpoint import load_model, save_checkpoint, sidecar_path  # noqa: E402
from crusadegym.training.env import SelfPlayEnv  # noqa: E402
from crusadegym.training.policy import policy_spec  # noqa: E402
from crusadegym.training.pool import OpponentPool  # noqa: E402
from crusadegym.training.selfplay import TrainArgs, train  # noqa: E402

TINY = {"rounds": 1, "max_turns": 10}


def game_positions(game, n_games: int = 2, every: int = 7) -> list[np.ndarray]:
    """States from heuristic-vs-random games, every ``every``-th decision."""
    states = []
    for g in range(n_games):
        agents = [HeuristicAgent(seed=g), RandomAgent(seed=100 + g)]
        state = game.new_state(g)
        step = 0
        while not game.is_terminal(state):
            if step % every == 0:
                states.append(state.copy())
            mover = game.current_player(state)
            action = (
                agents[mover].act_state(game, state)
                if mover == 0
                else agents[mover].act(game.observe(state, mover), game.legal_mask(state))
            )
            game.step(state, action)
            step += 1
    return states


def advised_model(game):
    from sb3_contrib import MaskablePPO

    env = SelfPlayEnv("deus_lo_vult", OpponentPool(["random"]), advice="heuristic", **TINY)
    policy, kwargs = policy_spec(game, "heuristic")
    model = MaskablePPO(policy, env, n_steps=32, batch_size=32, policy_kwargs=kwargs,
                        seed=0, device="cpu")  # fmt: skip
    return env, model


def test_advice_marks_the_heuristics_best_actions_and_orders_the_rest():
    """Differential check against the heuristic's own lookahead values."""
    game = make_game("deus_lo_vult", players=2, **TINY)
    n = game.num_actions
    states = game_positions(game)
    assert len(states) > 10
    for state in states:
        before = state.copy()
        advice = heuristic_advice(game, state)
        best, gap = advice[:n], advice[n:]
        values = action_values(game, state, get_heuristic(game.name))
        legal = np.isfinite(values)
        assert np.array_equal(legal, game.legal_mask(state).astype(bool))
        top = values[legal].max()
        assert set(np.flatnonzero(best)) == set(np.flatnonzero(legal & (values >= top - 1e-9)))
        assert np.all(gap[best > 0] == 0) and np.all(gap[~legal] == 1)
        assert gap.min() >= 0 and gap.max() <= 1
        idx = np.flatnonzero(legal)
        # a lower lookahead value never gets a smaller gap
        for a in idx:
            assert np.all(gap[idx[values[idx] < values[a]]] >= gap[a])
        np.testing.assert_array_equal(state, before)  # the advice left the state alone
        # values the caller already has (behaviour cloning's labels) give the same advice
        np.testing.assert_array_equal(heuristic_advice(game, state, values), advice)
    assert GAP_CLIP > 0


def test_policy_input_is_the_observation_then_the_advice_of_the_mover():
    game = make_game("deus_lo_vult", players=2, **TINY)
    state = game_positions(game, 1)[3]
    mover = game.current_player(state)
    full = policy_input(game, state, mover, "heuristic")
    assert full.shape == (game.obs_size + 2 * game.num_actions,)
    np.testing.assert_array_equal(full[: game.obs_size], game.observe(state, mover))
    np.testing.assert_array_equal(full[game.obs_size :], heuristic_advice(game, state))
    np.testing.assert_array_equal(
        policy_input(game, state, mover, "none"), game.observe(state, mover)
    )
    with pytest.raises(ValueError, match="seat to move"):
        policy_input(game, state, 1 - mover, "heuristic")


def test_advice_kinds_and_sizes_are_checked(tmp_path):
    game = make_game("deus_lo_vult", players=2, **TINY)
    with pytest.raises(ValueError, match="advice is one of none, heuristic"):
        check_advice("oracle")
    assert advice_for_size(game, game.obs_size) == "none"
    assert advice_for_size(game, game.obs_size + 2 * game.num_actions) == "heuristic"
    with pytest.raises(ValueError, match="matches no advice kind"):
        advice_for_size(game, game.obs_size + 5)
    with pytest.raises(ValueError, match="advice is one of"):
        train(TrainArgs(advice="oracle", out=str(tmp_path), progress=False))


def test_selfplay_env_appends_the_learners_advice():
    game = make_game("deus_lo_vult", players=2, **TINY)
    env = SelfPlayEnv("deus_lo_vult", OpponentPool(["heuristic"]), seed=1, advice="heuristic",
                      **TINY)  # fmt: skip
    assert env.observation_space.shape == (game.obs_size + 2 * game.num_actions,)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(40):
        state = env.core_state()
        seat = env.unwrapped.seat
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(obs, policy_input(env.game, state, seat, "heuristic"))
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, _, terminated, _, _ = env.step(action)
        if terminated:
            assert not obs[game.obs_size :].any()  # no advice once the game is over
            break


def test_untrained_advised_policy_plays_the_heuristics_best_actions():
    """The residual policy starts as the heuristic: its most likely action is one the
    heuristic rates best, and it puts most of its probability on that set."""
    import torch

    game = make_game("deus_lo_vult", players=2, **TINY)
    _, model = advised_model(game)
    n = game.num_actions
    for state in game_positions(game):
        mover = game.current_player(state)
        obs = policy_input(game, state, mover, "heuristic")
        mask = game.legal_mask(state).astype(bool)
        best = obs[game.obs_size : game.obs_size + n] > 0
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert best[int(action)]
        dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
        probs = dist.distribution.probs.detach().numpy()[0]
        if best.sum() < mask.sum():
            assert probs[best].sum() > 0.5


def test_advised_checkpoint_loads_as_an_agent_that_reads_the_state(tmp_path):
    game = make_game("deus_lo_vult", players=2, **TINY)
    _, model = advised_model(game)
    path = save_checkpoint(model, str(tmp_path / "advised.zip"), game)
    side = json.load(open(sidecar_path(path)))
    assert side["advice"] == "heuristic"
    assert side["obs_size"] == game.obs_size + 2 * game.num_actions
    agent = load_policy_agent(path)
    assert isinstance(agent, AdvisedPolicyAgent)
    record = play_game(game, [agent, RandomAgent(seed=1)], seed=3)
    assert record["steps"] > 0 and len(record["returns"]) == 2
    state = game.new_state(0)
    with pytest.raises(NotImplementedError, match="needs the core state"):
        agent.act(game.observe(state, 0), game.legal_mask(state))
    with pytest.raises(ValueError, match="trained with advice='heuristic'"):
        load_model(path, game, advice="none")
    load_model(path, game, advice="heuristic")


def test_tiny_advised_run_trains_against_advised_snapshots(tmp_path):
    args = TrainArgs(
        game="deus_lo_vult", timesteps=256, n_envs=1, options=dict(TINY), n_steps=64,
        batch_size=64, n_epochs=1, snapshot_every=128, checkpoint_every=0, eval_games=2,
        out=str(tmp_path), progress=False, bc_games=2, bc_epochs=1, bc_replay_steps=1,
        opponents="heuristic,self", advice="heuristic",
    )  # fmt: skip
    run = train(args)
    assert json.load(open(sidecar_path(run["final"])))["advice"] == "heuristic"
    assert json.load(open(tmp_path / "bc.json"))["advice"] == "heuristic"
    assert run["bc"]["held_out_acc"] > 0.9  # the advice alone names the heuristic's best set
    assert run["evaluation"]["vs"]["heuristic"]["games"] == 2
    pool = OpponentPool(["self"])  # snapshots join the pool as advised agents
    game = make_game("deus_lo_vult", players=2, **TINY)
    pool.add_snapshot(run["snapshots"][-1], game)
    snapshot = pool.snapshots[0][1]
    assert isinstance(snapshot, AdvisedPolicyAgent) and not snapshot.deterministic
    record = play_game(game, [RandomAgent(seed=5), snapshot], seed=6)
    assert record["steps"] > 0
    with pytest.raises(ValueError, match="trained with advice='heuristic'"):
        train(TrainArgs(**{**vars(args), "resume": run["final"], "advice": "none",
                           "out": str(tmp_path / "resumed")}))  # fmt: skip


def test_a_game_without_a_board_layout_reads_the_advice_as_inputs(tmp_path):
    """tiny_tictactoe trains an MLP; with advice the MLP simply gets 2 x 9 more inputs."""
    from sb3_contrib import MaskablePPO

    game = make_game("tiny_tictactoe")
    env = SelfPlayEnv("tiny_tictactoe", OpponentPool(["random"]), advice="heuristic")
    policy, kwargs = policy_spec(game, "heuristic")
    assert policy == "MlpPolicy"
    model = MaskablePPO(policy, env, n_steps=32, batch_size=32, policy_kwargs=kwargs,
                        seed=0, device="cpu")  # fmt: skip
    model.learn(64)
    path = save_checkpoint(model, str(tmp_path / "ttt.zip"), game)
    agent = load_policy_agent(path)
    assert isinstance(agent, AdvisedPolicyAgent)
    assert play_game(game, [agent, RandomAgent(seed=1)], seed=2)["steps"] >= 5
