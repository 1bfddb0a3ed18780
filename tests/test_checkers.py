"""The standard checkers on every registered id, built with default arguments.

Gymnasium's ``check_env`` and SB3's ``check_env`` step sampled (unmasked) actions, so
they pass only because an illegal action ends the game as a loss by default
(PettingZoo classic's convention, :mod:`crusadegym.envs.common`). PettingZoo's
``api_test`` runs on every id of its registry. New games are covered as soon as
their ids are registered.
"""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from crusadegym.envs.registration import AEC_IDS, SINGLE_AGENT_IDS


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    """The checkers warn about unbounded boxes and the one forfeit; that is expected."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("env_id", sorted(SINGLE_AGENT_IDS))
def test_gymnasium_checker_passes_with_default_arguments(env_id):
    gym_check_env(gymnasium.make(env_id).unwrapped)


@pytest.mark.parametrize("env_id", sorted(SINGLE_AGENT_IDS))
def test_sb3_checker_passes_with_default_arguments(env_id):
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(gymnasium.make(env_id))


@pytest.mark.parametrize("env_id", sorted(SINGLE_AGENT_IDS))
def test_rgb_array_is_a_declared_render_mode(env_id):
    """``gymnasium.make`` reads the class metadata: no 'not in render_modes' warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3


@pytest.mark.parametrize("env_id", sorted(AEC_IDS))
def test_pettingzoo_api_test_passes_with_default_arguments(env_id):
    import pettingzoo
    from pettingzoo.test import api_test

    api_test(pettingzoo.make("aec", env_id), num_cycles=100)


def test_every_registered_crusadegym_id_is_listed():
    """Both registries hold exactly the ids the checks above run over."""
    import pettingzoo

    in_gym = {i for i in gymnasium.registry if i.startswith("crusadegym/")}
    assert in_gym == set(SINGLE_AGENT_IDS)
    in_pz = {i for i in pettingzoo.aec_registry if i.startswith("crusadegym/")}
    assert in_pz == set(AEC_IDS)
