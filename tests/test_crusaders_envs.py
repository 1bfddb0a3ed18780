"""Crusaders through every env type: PettingZoo, Gymnasium and SB3 checkers, renders,
registered ids, the batched env, and the AEC env replaying the core game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, render_test, seed_test

import crusadegym.envs  # noqa: F401  (registers the ids)
from crusadegym.core import make_game
from crusadegym.envs import crusaders_v0
from crusadegym.envs.single_agent import CrusadeSingleAgentEnv

CONFIGS = [
    {"players": 2, "supply": 40, "max_turns": 60},
    {"players": 3, "supply": 40, "max_turns": 60, "expansion": False},
    {"players": 4, "supply": 40, "max_turns": 40},
]
IDS = ["2p-expansion", "3p-base", "4p-expansion"]


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_api_and_seed(config):
    api_test(crusaders_v0.env(**config), num_cycles=300)
    seed_test(lambda: crusaders_v0.env(**config), num_cycles=100)


def test_pettingzoo_render_ansi_and_rgb():
    config = CONFIGS[0]
    render_test(lambda render_mode=None: crusaders_v0.env(render_mode=render_mode, **config))
    env = crusaders_v0.env(render_mode="rgb_array", **config)
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert env.metadata["stand_in_data"] is True


@pytest.mark.parametrize("config", CONFIGS[:2], ids=IDS[:2])
def test_gymnasium_and_sb3_checkers(config):
    gym_check_env(CrusadeSingleAgentEnv("crusaders", illegal="loss", **config))
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(CrusadeSingleAgentEnv("crusaders", illegal="loss", **config))


def test_gymnasium_id_plays_to_the_end_with_action_masks():
    env = gymnasium.make("crusadegym/Crusaders-v0", opponents="random", **CONFIGS[0])
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(100_000):
        mask = env.unwrapped.action_masks()
        assert mask.any()
        _, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_gymnasium_make_vec_builds_the_batched_env():
    env = gymnasium.make_vec(
        "crusadegym/Crusaders-v0", num_envs=2, vectorization_mode="vector_entry_point", **CONFIGS[0]
    )
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    assert env.action_masks().shape == (2, env.single_action_space.n)


def test_aec_env_replays_the_core_game():
    config = CONFIGS[2]
    game = make_game("crusaders", **config)
    env = crusaders_v0.env(**config)
    env.reset(seed=5)
    state = game.new_state(5)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = game.current_player(state)
        assert agent.endswith(str(seat))
        np.testing.assert_array_equal(obs["observation"], game.observe(state, seat))
        np.testing.assert_array_equal(obs["action_mask"], game.legal_mask(state))
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        game.step(state, a)
        env.step(a)
    assert game.is_terminal(state)


def test_replay_file_reproduces_a_game_bit_for_bit(tmp_path):
    from crusadegym.core.records import load_replay, replay, save_replay

    game = make_game("crusaders", **CONFIGS[1])
    rng = np.random.default_rng(2)
    state, states, actions = game.new_state(11), [], []
    states.append(state.copy())
    while not game.is_terminal(state):
        a = int(rng.choice(game.legal_actions(state)))
        game.step(state, a)
        actions.append(a)
        states.append(state.copy())
    save_replay(tmp_path / "r.json", game, 11, actions)
    _, replayed = replay(load_replay(tmp_path / "r.json"))
    assert np.array_equal(replayed, np.stack(states))
