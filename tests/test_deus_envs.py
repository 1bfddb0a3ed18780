"""Deus through the env layer: PettingZoo api/seed/render tests, Gymnasium's and SB3's
env checkers, the registered ids, the batched env, and both renderings."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, render_test, seed_test

import crusadegym.envs  # noqa: F401  (registers the ids)
from crusadegym.envs import deus_v0
from crusadegym.envs.aec import CrusadeAECEnv, wrap
from crusadegym.envs.single_agent import CrusadeSingleAgentEnv

CONFIGS = [{"players": 2, "max_turns": 30}, {"players": 3, "max_turns": 30}]


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p"])
def test_pettingzoo_api_and_seed(config):
    api_test(wrap(CrusadeAECEnv("deus", **config)), num_cycles=300)
    seed_test(lambda: wrap(CrusadeAECEnv("deus", **config)), num_cycles=100)


def test_pettingzoo_render():
    render_test(lambda render_mode=None: deus_v0.env(render_mode=render_mode, **CONFIGS[0]))


def test_module_convention_and_metadata():
    env = deus_v0.env(players=4, max_turns=20)
    env.reset(seed=0)
    assert env.metadata["name"] == "deus_v0"
    assert env.metadata["stand_in_data"] is True
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert isinstance(deus_v0.raw_env(), CrusadeAECEnv)


def test_gymnasium_and_sb3_env_checkers():
    gym_check_env(CrusadeSingleAgentEnv("deus", illegal="loss", **CONFIGS[0]))
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(CrusadeSingleAgentEnv("deus", illegal="loss", **CONFIGS[0]))


def test_gymnasium_make_plays_deus_to_the_end_with_action_masks():
    env = gymnasium.make("crusadegym/Deus-v0", opponents="random", render_mode="ansi", players=3)
    obs, _ = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    for _ in range(100_000):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)
    assert "seat 0" in env.render()


def test_gymnasium_make_vec_builds_the_batched_env():
    env = gymnasium.make_vec(
        "crusadegym/Deus-v0", num_envs=2, vectorization_mode="vector_entry_point", **CONFIGS[0]
    )
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    assert env.action_masks().shape == (2, env.single_action_space.n)


def test_rgb_array_render_draws_the_table():
    env = deus_v0.env(render_mode="rgb_array", **CONFIGS[1])
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    img = env.render()
    assert img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8
    assert img.shape[0] > 300 and img.shape[1] > 600
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 8  # terrain and seat colours
