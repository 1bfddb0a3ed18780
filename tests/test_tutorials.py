"""The official tutorials' core calls, with only the env id / import swapped in.

* PettingZoo's "SB3: Action Masked PPO for Connect Four": the AEC env from PettingZoo's
  registry (``pettingzoo.make("aec", id)``), the tutorial's Gymnasium-like wrapper,
  sb3-contrib's ``ActionMasker``, ``MaskablePPO.learn``, then its evaluation loop
  (``agent_iter`` / ``last`` / ``action_space(agent).sample(mask)`` /
  ``model.predict(observation, action_masks=mask)``).
* sb3-contrib's documented MaskablePPO example: ``gymnasium.make(id)``, ``learn``,
  ``evaluate_policy``, save / load, and the ``get_action_masks`` -> ``predict`` ->
  ``env.step(action)`` loop, where ``action`` is the 0-d array ``predict`` returns.
* A ``SubprocVecEnv`` whose spawned workers know nothing of crusadegym until the
  ``"crusadegym.envs:<id>"`` form imports it.

Each runs a few hundred steps on a small config (a test of the calls, not of learning).
"""

from __future__ import annotations

import dataclasses
import importlib
import warnings

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.evaluation import evaluate_policy  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402

from crusadegym.core import get_spec  # noqa: E402
from crusadegym.envs.registration import AEC_IDS, SINGLE_AGENT_IDS  # noqa: E402

SHORT_GAME_TURNS = 4
"""Turn cap of the tests' games: a short game keeps the loops cheap."""


def small(game_name: str) -> dict:
    """The game's first test config, cut to a few turns when the config has a turn cap."""
    spec = get_spec(game_name)
    config = dict(spec.test_configs[0])
    if "max_turns" in {f.name for f in dataclasses.fields(spec.config_cls)}:
        config["max_turns"] = SHORT_GAME_TURNS
    return config


def aec_game(env_id: str) -> str:
    """The game of a PettingZoo id (its per-game module's ``GAME``)."""
    return importlib.import_module(AEC_IDS[env_id].split(":")[0]).GAME


PPO = {"n_steps": 64, "batch_size": 32, "n_epochs": 1, "seed": 0, "device": "cpu"}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def pettingzoo_tutorial_wrapper(aec_env):
    """The connect-four tutorial's ``SB3ActionMaskWrapper``, written from its description."""
    import pettingzoo.utils

    class TutorialWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            first = self.possible_agents[0]
            self.observation_space = super().observation_space(first)["observation"]
            self.action_space = super().action_space(first)
            return self.observe(self.agent_selection), {}

        def step(self, action):
            mover = self.agent_selection
            super().step(action)
            return (
                self.observe(self.agent_selection),
                self._cumulative_rewards[mover],
                self.terminations[mover],
                self.truncations[mover],
                self.infos[mover],
            )

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    return TutorialWrapper(aec_env)


@pytest.mark.parametrize("env_id", sorted(AEC_IDS))
def test_pettingzoo_sb3_action_mask_tutorial(env_id, tmp_path):
    import pettingzoo

    config = small(aec_game(env_id))
    env = pettingzoo_tutorial_wrapper(pettingzoo.make("aec", env_id, **config))
    env.reset(seed=0)  # the tutorial resets once to define the spaces
    env = ActionMasker(env, lambda e: e.action_mask())
    model = MaskablePPO(MaskableActorCriticPolicy, env, **PPO)
    model.set_random_seed(0)
    model.learn(total_timesteps=256)
    model.save(tmp_path / "policy")
    model = MaskablePPO.load(tmp_path / "policy")

    # The tutorial's evaluation: random seat 0 against the model in seat 1.
    env = pettingzoo.make("aec", env_id, **config)
    games = steps = 0
    for game in range(3):
        env.reset(seed=game)
        env.action_space(env.possible_agents[0]).seed(game)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            observation, action_mask = obs.values()
            if termination or truncation:
                games += 1
                break
            if agent == env.possible_agents[0]:
                act = env.action_space(agent).sample(action_mask)
            else:
                act, _ = model.predict(observation, action_masks=action_mask, deterministic=True)
                act = int(act)
            env.step(act)
            steps += 1
    assert games == 3 and steps > 3 * SHORT_GAME_TURNS
    assert not any(i.get("illegal_action") is not None for i in env.infos.values())


@pytest.mark.parametrize("env_id", sorted(SINGLE_AGENT_IDS))
def test_sb3_contrib_maskable_ppo_example(env_id, tmp_path):
    env = gymnasium.make(env_id, **small(SINGLE_AGENT_IDS[env_id]))
    model = MaskablePPO("MlpPolicy", env, gamma=0.4, verbose=0, **PPO)
    model.learn(256)
    mean, _ = evaluate_policy(model, env, n_eval_episodes=2, warn=False)
    assert np.isfinite(mean)
    model.save(tmp_path / "ppo_mask")
    del model
    model = MaskablePPO.load(tmp_path / "ppo_mask")

    obs, _ = env.reset(seed=0)
    episodes = 0
    for _ in range(300):
        action_masks = get_action_masks(env)
        action, _states = model.predict(obs, action_masks=action_masks)
        assert isinstance(action, np.ndarray)  # stepped as it comes, no int() needed
        obs, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
    assert episodes >= 1


def test_subproc_workers_find_the_id_through_the_module_form():
    """Spawned workers import nothing of ours until ``"crusadegym.envs:<id>"`` does."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    env_id = "crusadegym/DeusLoVult-v0"
    vec = make_vec_env(
        f"crusadegym.envs:{env_id}",
        n_envs=2,
        seed=0,
        env_kwargs=small(SINGLE_AGENT_IDS[env_id]),
        vec_env_cls=SubprocVecEnv,
        vec_env_kwargs={"start_method": "spawn"},
    )
    try:
        vec.reset()
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.shape == (2, vec.action_space.n) and masks.any(axis=1).all()
        actions = np.array([np.flatnonzero(m)[0] for m in masks])
        vec.step(actions)
    finally:
        vec.close()
