"""Self-play training: a tiny run end to end, resume, checkpoint errors, reward seat."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from crusadegym.agents import RandomAgent, load_policy_agent  # noqa: E402
from crusadegym.agents.arena import play_game  # noqa: E402
from crusadegym.core import make_game  # noqa: E402
from crusadegym.training.checkpoint import load_model, save_checkpoint, sidecar_path  # noqa: E402
from crusadegym.training.env import SelfPlayEnv  # noqa: E402
from crusadegym.training.policy import (  # noqa: E402
    BoardExtractor,
    obs_layout,
    policy_kwargs_for,
    policy_spec,
)
from crusadegym.training.pool import OpponentPool, parse_opponents  # noqa: E402
from crusadegym.training.selfplay import TrainArgs, main, train  # noqa: E402

TINY = {"rounds": 1, "max_turns": 10}


def tiny_args(out: str, **changes) -> TrainArgs:
    """A run of a few hundred steps on a one-round, ten-turn Deus lo Vult."""
    base = dict(
        game="deus_lo_vult", timesteps=256, n_envs=2, options=dict(TINY), n_steps=64,
        batch_size=64, n_epochs=1, snapshot_every=128, checkpoint_every=128,
        eval_games=2, out=out, progress=False, bc_games=0,
    )  # fmt: skip
    return TrainArgs(**{**base, **changes})


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> dict:
    return train(tiny_args(str(tmp_path_factory.mktemp("run"))))


def test_tiny_run_writes_everything(tiny_run):
    out = tiny_run["out"]
    assert tiny_run["timesteps"] >= 256
    for name in ("final.zip", "final.json", "history.json", "learning_curve.png", "args.json"):
        assert os.path.isfile(os.path.join(out, name)), name
    assert tiny_run["checkpoints"] and all(os.path.isfile(p) for p in tiny_run["checkpoints"])
    assert len(tiny_run["snapshots"]) >= 2  # the initial policy plus scheduled ones
    assert any(f.startswith("events.") for _, _, fs in os.walk(tiny_run["tensorboard"]) for f in fs)
    side = json.load(open(os.path.join(out, "final.json")))
    game = make_game("deus_lo_vult", players=2, **TINY)
    assert side["game"] == "deus_lo_vult"
    assert (side["obs_size"], side["num_actions"]) == (game.obs_size, game.num_actions)
    assert side["config"]["max_turns"] == 10
    vs = tiny_run["evaluation"]["vs"]
    assert set(vs) == {"random", "heuristic"} and all(v["games"] == 2 for v in vs.values())


def test_checkpoint_loads_as_agent_and_plays_a_game(tiny_run):
    game = make_game("deus_lo_vult", players=2, **TINY)
    agent = load_policy_agent(tiny_run["final"])
    record = play_game(game, [agent, RandomAgent(seed=1)], seed=3)
    assert record["steps"] > 0 and len(record["returns"]) == 2


def test_arena_workers_play_a_trained_policy(tiny_run, tmp_path):
    """Forked arena workers used to hang in torch's inherited thread pool (the parent had
    loaded the policy to check the spec); the CLI must finish, within a generous limit."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "crusadegym.cli", "arena", "deus_lo_vult", "--agents",
           f"policy:{tiny_run['final']},random", "--games", "4", "--workers", "2",
           "-o", "rounds=1", "-o", "max_turns=10", "--out", str(tmp_path), "--quiet",
           "--no-plots"]  # fmt: skip
    subprocess.run(cmd, check=True, timeout=240, capture_output=True)
    assert len(json.load(open(os.path.join(tmp_path, "results.json")))["records"]) == 4


def test_resume_continues_from_checkpoint(tiny_run, tmp_path):
    first = json.load(open(sidecar_path(tiny_run["final"])))["timesteps"]
    resumed = train(tiny_args(str(tmp_path), resume=tiny_run["final"], timesteps=128,
                              eval_games=0))  # fmt: skip
    assert resumed["timesteps"] >= first + 128


def test_missing_and_corrupt_checkpoints_give_clear_errors(tmp_path):
    game = make_game("deus_lo_vult", players=2, **TINY)
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        load_model(tmp_path / "missing.zip", game)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"this is not a zip file")
    with pytest.raises(ValueError, match="not a readable MaskablePPO checkpoint"):
        load_model(bad, game)
    args = ["deus_lo_vult", "--resume", str(bad), "--out", str(tmp_path / "o"), "--quiet"]
    assert main(args + ["--max-turns", "10", "--timesteps", "64"]) == 2


def tictactoe_checkpoint(tmp_path) -> str:
    """An (untrained) MaskablePPO checkpoint for tiny_tictactoe, with its sidecar."""
    from sb3_contrib import MaskablePPO

    game = make_game("tiny_tictactoe")
    env = SelfPlayEnv("tiny_tictactoe", OpponentPool(["random"]))
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16,
                        policy_kwargs=policy_kwargs_for(game))  # fmt: skip
    return save_checkpoint(model, str(tmp_path / "ttt.zip"), game)


def test_incompatible_checkpoint_gives_clear_error(tmp_path):
    path = tictactoe_checkpoint(tmp_path)
    dlv = make_game("deus_lo_vult", players=2, **TINY)
    with pytest.raises(ValueError, match="trained for game 'tiny_tictactoe'"):
        load_model(path, dlv)
    os.remove(sidecar_path(path))  # no sidecar: the model's own spaces are checked
    with pytest.raises(ValueError, match="expects observations"):
        load_model(path, dlv)


def test_reward_is_the_learner_seats_own():
    """Summed rewards equal the learner seat's final return, whichever seat moved last."""
    env = SelfPlayEnv("tiny_tictactoe", OpponentPool(["random"]), seed=0)
    rng = np.random.default_rng(0)
    seats, results = set(), set()
    for episode in range(30):
        env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        result = info["selfplay"]
        assert total == pytest.approx(result["return"])
        assert result["outcome"] == {1.0: "win", 0.0: "draw", -1.0: "loss"}[result["return"]]
        seats.add(result["seat"])
        results.add(result["return"])
    assert seats == {0, 1} and {1.0, -1.0} <= results


def test_feature_extractor_uses_planes_when_the_game_has_them():
    import torch
    from gymnasium import spaces

    dlv = make_game("deus_lo_vult", players=2, **TINY)
    layout = obs_layout(dlv)
    assert layout is not None and layout.size == dlv.obs_size
    box = spaces.Box(-np.inf, np.inf, (dlv.obs_size,), np.float32)
    ext = BoardExtractor(box, **policy_kwargs_for(dlv)["features_extractor_kwargs"])
    assert ext.board is not None
    assert ext(torch.zeros(3, dlv.obs_size)).shape == (3, ext.features_dim)
    assert obs_layout(make_game("tiny_tictactoe")) is None
    with pytest.raises(ValueError, match="does not match"):
        BoardExtractor(box, planes=1, height=2, width=2, n_scalars=1)


def test_opponent_pool_draws_self_only_once_a_snapshot_exists():
    pool = OpponentPool(["random", "self"])
    rng = np.random.default_rng(0)
    assert {pool.draw(rng, {})[0] for _ in range(20)} == {"random"}
    with pytest.raises(ValueError, match="twice"):
        parse_opponents("random,random")
    with pytest.raises(ValueError, match="unknown agent"):
        parse_opponents("random,nobody")


@pytest.mark.parametrize("kind", ["coins", "heuristic"])
def test_shaping_sums_to_the_result_minus_the_start_potential(kind):
    """Potential-based shaping moves credit earlier but adds only a constant per game."""
    env = SelfPlayEnv("deus_lo_vult", OpponentPool(["random"]), shaping=kind, players=2, **TINY)
    rng = np.random.default_rng(1)
    env.reset(seed=5)
    seat = env.unwrapped.seat
    phi0 = float(env.shaper.potential(env.core_state())[seat]) if kind == "heuristic" else 0.0
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total == pytest.approx(info["selfplay"]["return"] - phi0, abs=1e-4)
    with pytest.raises(ValueError, match="shaping must be one of"):
        SelfPlayEnv("deus_lo_vult", OpponentPool(["random"]), shaping="magic", **TINY)


def test_turn_cap_ends_the_episode_as_terminal():
    """SB3 bootstraps truncated episodes; a game ended by its turn cap is over, so terminal."""
    env = SelfPlayEnv("deus_lo_vult", OpponentPool(["random"]), players=2, rounds=1, max_turns=2)
    rng = np.random.default_rng(2)
    env.reset(seed=0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, _, terminated, truncated, info = env.step(action)
    assert info["selfplay"]["turn_cap"] and terminated and not truncated


def test_prune_keeps_only_the_newest_checkpoint_files(tmp_path):
    from crusadegym.training.callbacks import prune

    paths = []
    for t in range(3):
        path = tmp_path / f"ckpt_{t}.zip"
        path.write_bytes(b"x")
        (tmp_path / f"ckpt_{t}.json").write_text("{}")
        paths.append(str(path))
    prune(paths, keep=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt_2.json", "ckpt_2.zip"]
    assert len(paths) == 3  # the run summary still lists every checkpoint written


def spatial_model():
    """An untrained MaskablePPO with the spatial policy on a tiny Deus lo Vult."""
    from sb3_contrib import MaskablePPO

    game = make_game("deus_lo_vult", players=2, **TINY)
    env = SelfPlayEnv("deus_lo_vult", OpponentPool(["random"]), players=2, **TINY)
    policy, kwargs = policy_spec(game)
    model = MaskablePPO(policy, env, n_steps=32, batch_size=32, policy_kwargs=kwargs,
                        seed=0, device="cpu")  # fmt: skip
    return game, env, model


def test_spatial_policy_gives_cell_logits_and_respects_masks(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from crusadegym.training.bc import masked_logits
    from crusadegym.training.spatial import SpatialPolicy

    game, env, model = spatial_model()
    assert isinstance(model.policy, SpatialPolicy)
    assert policy_spec(make_game("tiny_tictactoe"))[0] == "MlpPolicy"
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    batch = torch.as_tensor(np.stack([obs, obs]))
    logits = masked_logits(model.policy, batch, torch.as_tensor(np.stack([mask, mask])))
    assert logits.shape == (2, game.num_actions)
    assert torch.all(logits[:, ~torch.as_tensor(mask)] < -1e7)
    heads = model.policy.mlp_extractor
    features = model.policy.extract_features(batch[:1], model.policy.features_extractor)
    assert heads.forward_actor(features).shape == (1, game.num_actions)
    dist = model.policy.get_distribution(batch[:1], action_masks=mask[None])
    probs = dist.distribution.probs.detach().numpy()[0]
    assert probs[~mask].max() == 0 and probs[mask].sum() == pytest.approx(1, abs=1e-5)
    for _ in range(20):
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)]
    path = save_checkpoint(model, str(tmp_path / "spatial.zip"), game)
    loaded = MaskablePPO.load(path, device="cpu")
    assert isinstance(loaded.policy, SpatialPolicy)
    same = masked_logits(loaded.policy, batch, torch.as_tensor(np.stack([mask, mask])))
    assert torch.allclose(same, logits)
    agent = load_policy_agent(path)
    record = play_game(game, [RandomAgent(seed=2), agent], seed=4)
    assert record["steps"] > 0 and len(record["returns"]) == 2
    load_model(path, game)  # the sidecar still matches


def test_behaviour_cloning_raises_teacher_agreement():
    import torch

    from crusadegym.training import bc

    torch.manual_seed(0)
    game, _, model = spatial_model()
    demos = bc.collect(game, 4, seed=3)
    assert len(demos) > 50 and demos.masks[np.arange(len(demos)), demos.actions].all()
    assert set(np.unique(demos.game_ids)) == {0, 1, 2, 3}
    metrics = bc.clone(model.policy, demos, epochs=4, lr=2e-3, batch_size=64, holdout=0.25)
    assert metrics["rows"] + metrics["held_out_rows"] == len(demos)
    assert metrics["train_acc"] > metrics["train_acc_before"] + 0.1, metrics
    assert bc.agreement(model.policy, demos) > metrics["train_acc_before"]


def test_warm_start_runs_before_ppo(tmp_path):
    run = train(tiny_args(str(tmp_path), bc_games=2, bc_epochs=1, dagger_rounds=1,
                          dagger_games=1, bc_replay_steps=1, timesteps=128, eval_games=0,
                          expert="mcts:iterations=3", expert_games=2, expert_epochs=1,
                          expert_targets="visits"))  # fmt: skip
    assert os.path.isfile(os.path.join(tmp_path, "bc.zip"))
    assert run["bc"]["rows"] > 0 and len(run["bc"]["rounds"]) == 2
    expert = run["bc"]["expert"]  # MCTS played both games in a worker and labelled its moves
    assert expert["teacher"] == "mcts:iterations=3" and expert["rows"] > 0
    assert expert["targets"] == "visits"
    assert json.load(open(os.path.join(tmp_path, "warm_start.json")))["games"] == 2
    load_model(os.path.join(tmp_path, "bc.zip"), make_game("deus_lo_vult", **TINY))  # its sidecar
    assert run["timesteps"] >= 128


def test_collect_shares_are_the_serial_games():
    """Game i is seeded from i alone, so worker shares (start, stride) and the spawned
    workers of start_collecting record exactly the serial run's rows."""
    from crusadegym.training import bc

    game = make_game("tiny_tictactoe")
    serial = bc.collect(game, 6, seed=1, teacher="heuristic")
    odd = bc.collect(game, 6, seed=1, teacher="heuristic", start=1, stride=2)
    rows = serial.game_ids % 2 == 1
    assert np.array_equal(odd.actions, serial.actions[rows])
    assert np.array_equal(odd.obs, serial.obs[rows])
    assert np.array_equal(odd.results, serial.results[rows])
    assert set(np.unique(odd.game_ids)) == {1, 3, 5}
    parallel = bc.start_collecting(game, 6, 2, seed=1, teacher="heuristic").result()
    order = np.argsort(serial.game_ids % 2, kind="stable")  # worker 0's games, then worker 1's
    assert np.array_equal(parallel.actions, serial.actions[order])
    assert np.array_equal(parallel.obs, serial.obs[order])
    with pytest.raises(ValueError, match="start < stride"):
        bc.collect(game, 6, start=2, stride=2)


def test_mcts_teacher_records_its_visit_shares():
    """A searching teacher's label is its move plus its root visit shares (the soft
    target); ``soft=False`` keeps the move only."""
    from crusadegym.training import bc

    game = make_game("tiny_tictactoe")
    demos = bc.collect(game, 2, seed=2, teacher="mcts:iterations=30", opponents=("random",))
    rows = np.arange(len(demos))
    totals = demos.targets.astype(np.float32).sum(1)
    searched = demos.masks.sum(1) > 1  # a forced move needs no search: no visits, no target
    assert np.allclose(totals[searched], 1.0, atol=1e-2) and np.all(totals[~searched] == 0)
    assert np.all(demos.targets[~demos.masks] == 0)  # visits only on legal actions
    chosen = demos.targets[rows, demos.actions]
    assert np.all(chosen[searched] == demos.targets[searched].max(1))  # it plays the most visited
    assert np.any((demos.targets[searched] > 0).sum(1) > 1)  # and the shares say more than that
    hard = bc.collect(game, 2, seed=2, teacher="mcts:iterations=30", opponents=("random",),
                      soft=False)  # fmt: skip
    assert not hard.targets.any() and np.array_equal(hard.actions, demos.actions)


def test_teacher_loss_is_soft_cross_entropy_or_the_set_loss():
    import torch

    from crusadegym.training import bc

    logits = torch.log(torch.tensor([[0.5, 0.25, 0.25], [0.5, 0.25, 0.25]]))
    best = torch.tensor([[True, False, False], [False, True, True]])
    targets = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    # row 0: -log 0.25 (its target); row 1 has no target: -log P(one of the best) = -log 0.5
    expected = (-np.log(0.25) - np.log(0.5)) / 2
    assert bc.teacher_loss(logits, best, targets).item() == pytest.approx(expected, rel=1e-5)


def test_expert_needs_a_valid_spec_and_games(tmp_path):
    from crusadegym.training.warmstart import warm_start

    game, _, model = spatial_model()
    with pytest.raises(ValueError, match="expert"):
        warm_start(model, game, str(tmp_path), 1, 1, expert_games=3)
    with pytest.raises(ValueError, match="expert"):
        warm_start(model, game, str(tmp_path), 1, 1, expert="mcts", expert_games=0)
    with pytest.raises(ValueError, match="no_such_agent|unknown"):
        warm_start(model, game, str(tmp_path), 1, 1, expert="no_such_agent", expert_games=2)


def test_validation_score_and_pick():
    from crusadegym.training.validate import pick_best, score

    vs = {"random": {"games": 4, "wins": 3, "draws": 1}, "heuristic": {"games": 4, "wins": 1,
                                                                     "draws": 0}}  # fmt: skip
    assert score(vs) == pytest.approx(((3 + 0.5) / 4 + 1 / 4) / 2)
    rows = [{"steps": 100, "score": 0.5}, {"steps": 200, "score": 0.7},
            {"steps": 300, "score": 0.7}, {"steps": 400, "score": 0.6}]  # fmt: skip
    assert pick_best(rows)["steps"] == 300  # the best score; the later of two equal ones
    with pytest.raises(ValueError, match="no validated checkpoints"):
        pick_best([])


def test_validation_series_per_baseline_in_step_order(tmp_path):
    from crusadegym.training.plots import plot_learning_curve, validation_series

    def result(rate: float) -> dict:
        return {"win_rate": rate, "win_rate_ci95": [rate - 0.1, rate + 0.05]}

    rows = [{"steps": 200, "vs": {"heuristic": result(0.7), "random": result(0.9)}},
            {"steps": 100, "vs": {"heuristic": result(0.4), "random": result(1.0)}}]  # fmt: skip
    series = validation_series(rows)
    assert series["heuristic"] == [(100, 0.4, pytest.approx(0.3), 0.45),
                                   (200, 0.7, pytest.approx(0.6), 0.75)]  # fmt: skip
    assert [p[:2] for p in series["random"]] == [(100, 1.0), (200, 0.9)]
    validation = {"rows": rows, "best_steps": 200, "games_per_baseline": 10}
    history = [{"timesteps": 50, "selfplay/win_rate_heuristic": 0.5}]
    path = plot_learning_curve(history, str(tmp_path / "curve.png"), validation=validation)
    assert os.path.getsize(path) > 0


def test_validation_keeps_the_best_checkpoint_and_evaluates_it(tmp_path):
    run = train(tiny_args(str(tmp_path), validate_games=2, checkpoint_every=128,
                          keep_checkpoints=1, opponents="random,heuristic", bc_games=2,
                          bc_epochs=1))  # fmt: skip
    validation = json.load(open(tmp_path / "validation.json"))
    steps = [row["steps"] for row in validation["rows"]]
    assert steps[0] == 0  # the warm-start clone, before PPO
    assert steps[-1] == run["timesteps"] and len(set(steps)) == len(steps)
    assert len(steps) >= len(run["checkpoints"]) + 1  # the clone, each checkpoint, the final
    summary = json.load(open(tmp_path / "summary.json"))  # keep_checkpoints=1 pruned some
    assert summary["checkpoints_written"] > len(summary["checkpoints"]) >= 1
    listed = summary["checkpoints"] + summary["snapshots"]
    assert all(os.path.isfile(p) for p in listed), "summary.json lists a pruned file"
    assert all(set(row["vs"]) == {"random", "heuristic"} for row in validation["rows"])
    assert all(v["games"] == 2 for row in validation["rows"] for v in row["vs"].values())
    best = max(validation["rows"], key=lambda r: (r["score"], r["steps"]))
    assert validation["best_steps"] == best["steps"]
    assert run["validation"]["best"] == str(tmp_path / "best.zip")
    assert json.load(open(tmp_path / "best.json"))["timesteps"] == best["steps"]
    assert not [f for f in os.listdir(tmp_path / "validation") if f.endswith(".zip")]
    load_policy_agent(tmp_path / "best.zip")
    assert run["evaluation"]["vs"]["heuristic"]["games"] == 2  # the evaluation played best.zip
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(os.path.join(run["tensorboard"], "validation"))
    events.Reload()
    logged = [(e.step, e.value) for e in events.Scalars("validation/win_rate_heuristic")]
    rows = sorted(validation["rows"], key=lambda r: r["steps"])
    assert logged == [(r["steps"], pytest.approx(r["vs"]["heuristic"]["win_rate"])) for r in rows]
    with pytest.raises(ValueError, match="--validate-games needs"):
        train(tiny_args(str(tmp_path / "x"), validate_games=2, checkpoint_every=0))
