"""The fast batched learner (crusadegym.training.fastppo): masking, credit, learning, files."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from crusadegym.agents import load_policy_agent, select_action  # noqa: E402
from crusadegym.agents.arena import run_arena  # noqa: E402
from crusadegym.core import make_game  # noqa: E402
from crusadegym.training.checkpoint import load_model  # noqa: E402
from crusadegym.training.fastbuffer import ChainBuffer, gae  # noqa: E402
from crusadegym.training.fastppo import (  # noqa: E402
    FastArgs,
    FastPPO,
    build_model,
    main,
    masked_distribution,
)

DLV = {"players": 2, "rounds": 1, "max_turns": 30}


def tiny_args(**changes) -> FastArgs:
    base = dict(game="tiny_tictactoe", opponents="random", n_games=32, rollout=1024,
                batch_size=512, n_epochs=4, timesteps=1024, shaping="none",
                learning_rate=1e-3, quiet=True, seed=0)  # fmt: skip
    return FastArgs(**{**base, **changes})


def random_positions(game, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and legal masks of the seat to move along random games."""
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    state = game.new_state(seed)
    while len(obs) < n:
        if game.is_terminal(state):
            state = game.new_state(int(rng.integers(1 << 30)))
        mask = game.legal_mask(state)
        obs.append(game.observe(state, game.current_player(state)))
        masks.append(mask.astype(bool))
        game.step(state, int(rng.choice(np.flatnonzero(mask))))
    return np.array(obs), np.array(masks)


@pytest.mark.parametrize(("name", "options", "net"), [
    ("tiny_tictactoe", {}, "small"),
    ("deus_lo_vult", DLV, "small"),
    ("deus_lo_vult", DLV, "default"),
])  # fmt: skip
def test_masked_priors_put_no_mass_on_illegal_actions(name, options, net):
    game = make_game(name, **options)
    policy = build_model(game, net).policy
    obs, masks = random_positions(game, 40)
    with torch.no_grad():
        dist = masked_distribution(policy, torch.as_tensor(obs), masks)
        probs = dist.probs.numpy()
        sampled = dist.sample((20,)).numpy()  # [20, B]
    assert np.all(probs[~masks] == 0.0)
    assert np.allclose(probs.sum(1), 1.0, atol=1e-5)
    assert np.all(masks[np.arange(len(masks))[None, :], sampled])  # every sample is legal
    # an untrained policy is close to uniform over the legal actions
    assert np.all(probs.max(1) < 5.0 / masks.sum(1))


def test_collect_stores_only_legal_actions_and_pays_each_seat_its_result():
    """Mirror self-play with shaping off: a seat's rewards along its chain sum to its result."""
    learner = FastPPO(tiny_args(opponents="self", rollout=2000, n_games=16))
    learner.collect()
    buf = learner.buffer
    n = buf.n
    assert n >= 2000
    assert np.all(buf.masks[np.arange(n), buf.actions[:n]])
    # Follow every chain that started at a game's first move and ended with the game.
    heads = set(range(n)) - set(buf.next_idx[:n][buf.next_idx[:n] >= 0].tolist())
    sums = []
    for head in heads:
        i, total = head, 0.0
        while True:
            total += buf.rewards[i]
            if buf.dones[i] or buf.next_idx[i] < 0:
                break
            i = buf.next_idx[i]
        if buf.dones[i]:
            sums.append(total)
    assert len(sums) > 20
    assert set(np.round(sums, 5)) <= {-1.0, 0.0, 1.0}  # tic-tac-toe: +1 / 0 / -1, paid once


def test_shaping_telescopes_along_a_chain():
    buf = ChainBuffer(8, 3, 2, games=1, seats=1)
    buf.start()
    w = 0.5
    rows, seats = np.array([0]), np.array([0])
    for phi in (0.2, 0.6, -0.1):
        buf.add(rows, seats, np.zeros((1, 3)), np.ones((1, 2), bool), np.array([0]),
                np.zeros(1), np.zeros(1), np.array([phi], np.float32), w)  # fmt: skip
    buf.reward(np.array([[1.0]], np.float32))  # the game's result, on the last transition
    buf.end_games(np.array([0]), w)
    assert buf.next_idx[:3].tolist() == [1, 2, -1]
    assert buf.dones[:3].tolist() == [False, False, True]
    # w * (phi(end)=0 - phi(start)) + result
    assert buf.rewards[:3].sum() == pytest.approx(1.0 - w * 0.2)


def test_gae_follows_chains_and_bootstraps_open_ends():
    # two chains: 0 -> 2 (done), 1 -> 3 (open, bootstrapped with 0.5)
    rewards = np.array([0.0, 0.1, 1.0, 0.0], np.float32)
    values = np.array([0.2, 0.3, 0.4, 0.1], np.float32)
    dones = np.array([False, False, True, False])
    next_idx = np.array([2, 3, -1, -1])
    boot = np.array([0, 0, 0, 0.5], np.float32)
    gamma, lam = 0.9, 0.8
    adv = np.zeros(4, np.float32)
    gae(rewards, values, dones, next_idx, boot, np.float32(gamma), np.float32(lam), adv)
    d2 = 1.0 - 0.4
    d0 = 0.0 + gamma * 0.4 - 0.2
    d3 = 0.0 + gamma * 0.5 - 0.1
    d1 = 0.1 + gamma * 0.1 - 0.3
    expected = [d0 + gamma * lam * d2, d1 + gamma * lam * d3, d2, d3]
    assert adv == pytest.approx(expected, abs=1e-6)


def _score_vs_random(path: str, games: int = 200) -> float:
    result = run_arena("tiny_tictactoe", [f"policy:{path}", "random"], games_per_lineup=games,
                       mode="gauntlet", progress=False, seed=7)  # fmt: skip
    s = result["summary"][f"policy:{path}"]
    return (s["wins"] + 0.5 * s["draws"]) / s["games"]


def test_a_tiny_run_improves_over_its_start(tmp_path):
    learner = FastPPO(tiny_args(timesteps=12_000))
    before = _score_vs_random(learner.save(str(tmp_path / "start.zip")))
    learner.learn()
    after = _score_vs_random(learner.save(str(tmp_path / "end.zip")))
    # 200 games each: the Wilson half-width is about 0.07, so a 0.15 gain is real
    assert after > before + 0.15, (before, after)


def test_checkpoint_round_trips_and_loads_as_an_agent(tmp_path):
    learner = FastPPO(tiny_args(opponents="random,snapshot,self"))
    learner.learn()
    path = learner.save(str(tmp_path / "final.zip"), {"role": "final"})
    info = json.loads((tmp_path / "final.json").read_text())
    assert info["learner"] == "fastppo" and info["game"] == "tiny_tictactoe"
    assert info["timesteps"] == learner.timesteps
    game = make_game("tiny_tictactoe")
    model = load_model(path, game)
    obs, masks = random_positions(game, 30, seed=3)
    with torch.no_grad():
        want = masked_distribution(learner.policy, torch.as_tensor(obs), masks).probs
        got = masked_distribution(model.policy, torch.as_tensor(obs), masks).probs
    assert torch.allclose(want, got)
    agent = load_policy_agent(path)
    state = game.new_state(5)
    while not game.is_terminal(state):
        game.step(state, select_action(agent, game, state))
    assert game.is_terminal(state)


def test_deus_lo_vult_checkpoint_of_the_compact_net_plays_a_game(tmp_path):
    learner = FastPPO(FastArgs(game="deus_lo_vult", options={"max_turns": 6}, n_games=4,
                               rollout=64, batch_size=64, timesteps=64, quiet=True))  # fmt: skip
    learner.learn()
    path = learner.save(str(tmp_path / "dlv.zip"))
    game = make_game("deus_lo_vult", rounds=1, max_turns=6)
    agent = load_policy_agent(path)
    state = game.new_state(1)
    while not game.is_terminal(state):
        game.step(state, select_action(agent, game, state))


def test_the_command_writes_a_run(tmp_path, capsys):
    out = tmp_path / "run"
    flags = ["--timesteps", "512", "--rollout", "512", "--n-games", "8", "--shaping", "none"]
    code = main(
        ["tiny_tictactoe", *flags, "--checkpoint-every", "256", "--quiet", "--out", str(out)]
    )
    assert code == 0
    for name in ("final.zip", "final.json", "history.json", "summary.json", "args.json"):
        assert os.path.isfile(out / name), name
    assert os.listdir(out / "checkpoints")
    assert "learner steps/s" in capsys.readouterr().out


def test_warm_start_clones_the_heuristic_then_ppo_keeps_replaying_it(tmp_path):
    """``--bc-games``: the run starts from a clone (bc.zip) that agrees with the heuristic
    far more than the fresh net, and PPO's rows carry the imitation replay's loss."""
    from crusadegym.training import bc

    out = tmp_path / "warm"
    code = main(["tiny_tictactoe", "--timesteps", "512", "--rollout", "512", "--n-games", "8",
                 "--shaping", "none", "--bc-games", "100", "--bc-epochs", "20",
                 "--bc-replay-steps", "2", "--quiet", "--out", str(out)])  # fmt: skip
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    warm = json.loads((out / "warm_start.json").read_text())
    assert summary["warm_start"]["rows"] == warm["rows"] > 0
    first = warm["rounds"][0]
    assert first["held_out_acc"] > first["held_out_acc_before"] + 0.1
    assert os.path.isfile(out / "bc.zip")
    history = json.loads((out / "history.json").read_text())
    assert all(np.isfinite(row["bc/replay_loss"]) for row in history)
    game = make_game("tiny_tictactoe")
    demos = bc.collect(game, 10, seed=99)
    fresh = build_model(game, "small").policy
    assert bc.agreement(load_model(str(out / "bc.zip"), game).policy, demos) > bc.agreement(
        fresh, demos)  # fmt: skip


@pytest.mark.parametrize("argv", [
    ["tiny_tictactoe", "--bc-games", "-1"],
    ["tiny_tictactoe", "--opponents", "nobody"],
    ["tiny_tictactoe", "--net", "huge"],
    ["tiny_tictactoe", "--n-games", "0"],
    ["tiny_tictactoe", "--shaping", "coins"],
])  # fmt: skip
def test_bad_arguments_are_one_line_errors(argv, capsys, tmp_path):
    assert main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("crusadegym fastppo:") and "\n" not in err


# -- PUCT search over the network (crusadegym.agents.puct) ------------------------------


def test_puct_loads_a_checkpoint_and_plays_legal_moves(tmp_path):
    from crusadegym.agents.puct import PUCTAgent

    learner = FastPPO(tiny_args())
    path = learner.save(str(tmp_path / "p.zip"))
    game = make_game("tiny_tictactoe")
    agent = PUCTAgent(path, simulations=16)
    state = game.new_state(2)
    while not game.is_terminal(state):
        action = select_action(agent, game, state)
        assert game.legal_mask(state)[action]
        if len(game.legal_actions(state)) > 1:
            assert sum(agent.last_visits.values()) == 16
            assert set(agent.last_visits) == set(game.legal_actions(state).tolist())
        game.step(state, action)


def test_puct_finds_a_winning_move_with_an_untrained_net():
    """Positions where the mover can win at once: the search's value finds such a move."""
    from crusadegym.agents.puct import PUCTAgent

    game = make_game("tiny_tictactoe")
    agent = PUCTAgent(build_model(game, "small").policy, simulations=64)
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(200):
        state = game.new_state(seed)
        while not game.is_terminal(state) and checked < 10:
            seat, legal = game.current_player(state), game.legal_actions(state)
            wins = []
            for a in legal:
                child = state.copy()
                game.step(child, int(a))
                if game.is_terminal(child) and game.returns(child)[seat] > 0:
                    wins.append(int(a))
            if wins and len(wins) < len(legal):
                assert agent.act_state(game, state) in wins
                checked += 1
            game.step(state, int(rng.choice(legal)))
    assert checked == 10


def _deus_points(n: int):
    from deus_helpers import game as deus_game
    from test_deus_hidden import _random_positions

    from crusadegym.core.deus import layout as L

    g = deus_game(max_turns=40)
    found = []
    for s in _random_positions(g, 1, 50, every=5):
        if s[L.PHASE] == L.PH_MAIN and len(g.legal_actions(s)) > 2:
            found.append(s)
        if len(found) == n:
            break
    return g, found


def test_puct_move_ignores_what_its_seat_cannot_see():
    from test_deus_hidden import resample_hidden

    from crusadegym.agents.puct import PUCTAgent

    g, points = _deus_points(4)
    policy = build_model(g, "small").policy
    rng = np.random.default_rng(3)
    assert len(points) == 4
    for s in points:
        seat = g.current_player(s)
        other = resample_hidden(s, seat, 2, rng, vp_and_dice=False)
        assert not np.array_equal(other, s)
        a = PUCTAgent(policy, simulations=12, determinizations=3, seed=9)
        b = PUCTAgent(policy, simulations=12, determinizations=3, seed=9)
        assert a.act_state(g, s) == b.act_state(g, other)
        assert a.last_visits == b.last_visits


def test_puct_searches_determinized_roots_only(monkeypatch):
    import crusadegym.agents.puct as puct

    g, (s,) = _deus_points(1)
    seen = []
    original = puct._Node.__init__

    def spy(self, game_, state):
        seen.append(state.copy())
        original(self, game_, state)

    monkeypatch.setattr(puct._Node, "__init__", spy)
    puct.PUCTAgent(build_model(g, "small").policy, simulations=8, determinizations=4).act_state(
        g, s)  # fmt: skip
    seat = g.current_player(s)
    roots = seen[:4]
    assert all(not np.array_equal(r, s) for r in roots)
    assert all(np.array_equal(g.observe(r, seat), g.observe(s, seat)) for r in roots)
    assert not any(np.array_equal(x, s) for x in seen)  # no node is the true state


def test_puct_agent_spec_builds_the_search_for_arena_and_play(tmp_path):
    """``puct:PATH[:key=value]`` in the registry is the PUCT agent the arena and play load."""
    from crusadegym.agents.puct import PUCTAgent
    from crusadegym.agents.registry import make_agent

    path = FastPPO(tiny_args()).save(str(tmp_path / "p.zip"))
    agent = make_agent(f"puct:{path}:simulations=8:determinizations=2", seed=3)
    assert isinstance(agent, PUCTAgent) and agent.name.startswith("puct:")
    assert (agent.simulations, agent.determinizations) == (8, 2)
    game = make_game("tiny_tictactoe")
    state = game.new_state(0)
    assert game.legal_mask(state)[select_action(agent, game, state)]
    for bad in ("puct:", f"puct:{path}:sims=8", "puct:simulations=8"):
        with pytest.raises(ValueError):
            make_agent(bad)


def test_puct_one_pass_prior_and_value_match_the_two_sb3_calls():
    """``policy_value`` (one trunk pass) equals ``get_distribution`` + ``predict_values``."""
    from crusadegym.agents.puct import policy_value

    game = make_game("deus_lo_vult", **DLV)
    policy = build_model(game, "small").policy
    obs, masks = random_positions(game, 6)
    o = torch.as_tensor(obs)
    with torch.no_grad():
        probs, values = policy_value(policy, o, masks)
        want_p = masked_distribution(policy, o, masks).probs
        want_v = policy.predict_values(o)
    assert torch.allclose(probs, want_p, atol=1e-6)
    assert torch.allclose(values, want_v, atol=1e-6)
    assert float(probs[~torch.as_tensor(masks)].abs().max()) == 0.0


def test_puct_seconds_budget_stops_the_search_early():
    """A time budget ends the move after at least one simulation; a bad one is an error."""
    from crusadegym.agents.puct import PUCTAgent

    game = make_game("tiny_tictactoe")
    policy = build_model(game, "small").policy
    state = game.new_state(0)
    agent = PUCTAgent(policy, simulations=100_000, seconds=0.05)
    assert game.legal_mask(state)[agent.act_state(game, state)]
    assert 1 <= agent.last_simulations < 100_000
    assert sum(agent.last_visits.values()) == agent.last_simulations
    quick = PUCTAgent(policy, simulations=5, seconds=10.0)
    quick.act_state(game, state)
    assert quick.last_simulations == 5
    with pytest.raises(ValueError, match="seconds"):
        PUCTAgent(policy, seconds=0)
