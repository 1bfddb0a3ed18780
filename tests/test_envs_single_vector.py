"""Single-agent and batched envs: Gymnasium / SB3 checkers, registration, identical trajectories."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from gymnasium.vector import VectorEnv
from test_envs import CASES, DLV, IDS, reference

import crusadegym.envs  # noqa: F401  (registers the Gymnasium ids)
from crusadegym.core import make_game
from crusadegym.envs.single_agent import CrusadeSingleAgentEnv
from crusadegym.envs.vector import CrusadeVectorEnv, CrusadeVectorSingleAgentEnv


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def case(request):
    name, config = request.param
    make_game(name, **config)
    return name, dict(config)


class Script:
    """Plays a recorded game's actions in order, for whichever seat asks."""

    def __init__(self, ref: list[dict]) -> None:
        self.ref, self.i = ref, 0

    def next(self) -> int:
        self.i += 1
        return self.ref[self.i - 1]["action"]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.next()

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.i == len(self.ref):  # a restarted game after the recorded one
            return np.array([np.flatnonzero(masks[0])[0]], np.int64)
        return np.array([self.next()], np.int64)


def replay_as_learner(env, script: Script, seat: int, batched: bool) -> float:
    """Step ``env`` (learner ``seat``) through the script, checking every learner observation."""
    obs, _ = env.reset(seed=9)
    total = 0.0
    while True:
        rec = script.ref[script.i]
        assert rec["seat"] == seat
        np.testing.assert_array_equal(obs[0] if batched else obs, rec["obs"])
        mask = env.action_masks()
        np.testing.assert_array_equal(mask[0] if batched else mask, rec["mask"].astype(bool))
        action = script.next()
        obs, reward, terminated, truncated, _ = env.step(np.array([action]) if batched else action)
        total += float(reward[0] if batched else reward)
        if np.any(terminated) or np.any(truncated):
            return total


# -- single agent --------------------------------------------------------------------
def test_gymnasium_and_sb3_env_checkers(case):
    name, config = case
    gym_check_env(CrusadeSingleAgentEnv(name, illegal="loss", **config))
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    # SB3's checker steps unmasked random actions: "loss" mode turns them into forfeits.
    sb3_checker.check_env(CrusadeSingleAgentEnv(name, illegal="loss", **config))


@pytest.mark.parametrize("seat", [0, 1])
def test_single_agent_replays_the_core_game(case, seat):
    name, config = case
    ref = reference(name, config, 9, n_steps=10**6)
    script = Script(ref)
    env = CrusadeSingleAgentEnv(name, opponents=script, seat=seat, **config)
    total = replay_as_learner(env, script, seat, batched=False)
    assert script.i == len(ref)
    assert total == pytest.approx(float(sum(r["rewards"][seat] for r in ref)))


def test_random_seat_and_opponent_list(case):
    name, config = case
    env = CrusadeSingleAgentEnv(name, opponents=["random"], seat="random", **config)
    seats = set()
    for s in range(12):
        _, info = env.reset(seed=s)
        seats.add(info["seat"])
        assert env.game.current_player(env.game_state) == info["seat"]
    assert seats == {0, 1}


def test_gymnasium_make_plays_deus_lo_vult_to_the_end():
    env = gymnasium.make("crusadegym/DeusLoVult-v0", opponents="random", render_mode="ansi", **DLV)
    obs, info = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    for _ in range(100_000):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,) and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)
    assert isinstance(env.render(), str)


def test_opponents_may_search_on_the_core_state():
    class Searcher:
        """An opponent with the act_state hook (as MCTS agents have) gets the live state."""

        calls = 0

        def act_state(self, game, state):
            Searcher.calls += 1
            return int(game.legal_actions(state)[-1])

    env = CrusadeSingleAgentEnv("tiny_tictactoe", opponents=Searcher(), seat=1)
    env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = terminated or truncated
    assert Searcher.calls >= 2  # a tic-tac-toe game has at least 5 moves


def test_gymnasium_make_vec_builds_the_batched_env():
    env = gymnasium.make_vec(
        "crusadegym/DeusLoVult-v0", num_envs=2, vectorization_mode="vector_entry_point", **DLV
    )
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    assert env.action_masks().shape == (2, env.single_action_space.n)


def test_maskable_ppo_learns_a_few_steps():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = CrusadeSingleAgentEnv("tiny_tictactoe")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=64)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)]


# -- batched, multi-agent ------------------------------------------------------------
def test_vector_env_replays_the_core_games(case):
    name, config = case
    refs = [reference(name, config, 20 + i, n_steps=10**6) for i in range(3)]
    vec = CrusadeVectorEnv(name, 3, seed=20, **config)
    out = vec.reset()
    t = 0
    while any(t < len(r) for r in refs):
        actions = np.zeros(3, np.int64)
        for i, ref in enumerate(refs):
            if t < len(ref):
                rec = ref[t]
                assert out.players[i] == rec["seat"]
                np.testing.assert_array_equal(out.masks[i], rec["mask"])
                np.testing.assert_array_equal(out.obs[i], rec["obs"])
                actions[i] = rec["action"]
            else:  # that game is over; its restarted game plays on
                actions[i] = np.flatnonzero(out.masks[i])[0]
        out = vec.step(actions)
        for i, ref in enumerate(refs):
            if t < len(ref):
                np.testing.assert_array_equal(out.rewards[i], ref[t]["rewards"])
                assert out.dones[i] == (t == len(ref) - 1)
        t += 1


def test_vector_env_rejects_actions_the_masks_forbid(case):
    name, config = case
    vec = CrusadeVectorEnv(name, 4, seed=0, illegal="raise", **config)
    out = vec.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in out.masks])
    actions[[1, 3]] = [np.flatnonzero(out.masks[i] == 0)[0] for i in (1, 3)]
    before = vec.states.copy()
    with pytest.raises(ValueError, match=r"env\(s\) \[1, 3\]"):
        vec.step(actions)
    np.testing.assert_array_equal(vec.states, before)  # nothing was stepped
    with pytest.raises(ValueError, match="shape"):
        vec.step(actions[:2])


def test_vector_env_illegal_loss_forfeits_only_that_game(case):
    name, config = case
    vec = CrusadeVectorEnv(name, 3, seed=0, illegal="loss", **config)
    out = vec.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in out.masks])
    actions[2] = np.flatnonzero(out.masks[2] == 0)[0]
    offender = out.players[2]
    res = vec.step(actions)
    assert res.dones[2] and res.rewards[2, offender] == -1.0
    assert res.rewards[2].sum() == pytest.approx(0.0)
    assert res.masks[2].any() and res.players[2] >= 0  # restarted


# -- batched, single agent (Gymnasium VectorEnv) ---------------------------------------
def test_vector_single_agent_replays_the_core_game(case):
    name, config = case
    ref = reference(name, config, 9, n_steps=10**6)
    script = Script(ref)
    env = CrusadeVectorSingleAgentEnv(name, 1, opponents=script, **config)
    total = replay_as_learner(env, script, 0, batched=True)
    assert total == pytest.approx(float(sum(r["rewards"][0] for r in ref)))


@pytest.mark.parametrize("seat", [0, 1])
def test_vector_single_agent_random_play(case, seat):
    name, config = case
    env = CrusadeVectorSingleAgentEnv(name, 4, seat=seat, seed=1, **config)
    assert isinstance(env, VectorEnv)
    obs, _ = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape == (4, env.game.obs_size)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400 if name == "tiny_tictactoe" else 40):
        masks = env.action_masks()
        assert masks.shape == (4, env.game.num_actions) and masks.any(axis=1).all()
        assert (env.vec.players == seat).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        done = terminated | truncated
        assert not (rewards[~done]).any()  # these games score only at the end
        if done.any():
            ended += int(done.sum())
            assert (infos["_final_obs"] == done).all()
            for i in np.flatnonzero(done):
                assert infos["final_obs"][i].shape == (env.game.obs_size,)
    if name == "tiny_tictactoe":
        assert ended > 0
