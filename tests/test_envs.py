"""The env wrappers: PettingZoo / Gymnasium / SB3 checkers, identical trajectories, illegal moves.

Runs every env type over the tiny example game and a small Deus lo Vult config.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from crusadegym.core import IllegalActionError, make_game
from crusadegym.envs.aec import CrusadeAECEnv, wrap
from crusadegym.envs.single_agent import CrusadeSingleAgentEnv

DLV = {"players": 2, "rounds": 1, "max_turns": 30}
CASES = [("tiny_tictactoe", {}), ("deus_lo_vult", DLV)]
IDS = [name for name, _ in CASES]


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    """The checkers warn about Dict observations and unbounded boxes; that is expected."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def case(request):
    name, config = request.param
    make_game(name, **config)  # compile (or load) the kernels once per module
    return name, dict(config)


def reference(name: str, config: dict, seed: int, n_steps: int = 400) -> list[dict]:
    """A random game through the core API: per step the seat, obs, mask, action, rewards."""
    game = make_game(name, **config)
    state, rng, out = game.new_state(seed), np.random.default_rng(seed), []
    while not game.is_terminal(state) and len(out) < n_steps:
        seat, mask = game.current_player(state), game.legal_mask(state)
        a = int(rng.choice(np.flatnonzero(mask)))
        out.append(
            {
                "seat": seat,
                "obs": game.observe(state, seat),
                "mask": mask,
                "action": a,
                "rewards": game.step(state, a),
            }
        )
    return out


# -- PettingZoo ------------------------------------------------------------------------
def test_pettingzoo_api(case):
    name, config = case
    api_test(wrap(CrusadeAECEnv(name, **config)), num_cycles=300)


def test_pettingzoo_seed(case):
    name, config = case
    seed_test(lambda: wrap(CrusadeAECEnv(name, **config)), num_cycles=100)


def test_pettingzoo_render(case):
    name, config = case
    render_test(
        lambda render_mode=None: wrap(CrusadeAECEnv(name, render_mode=render_mode, **config))
    )


def test_deus_lo_vult_module_follows_the_classic_convention():
    from crusadegym.envs import deus_lo_vult_v0

    env = deus_lo_vult_v0.env(**DLV)
    env.reset(seed=0)
    assert env.metadata["name"] == "deus_lo_vult_v0"
    assert env.metadata["stand_in_data"] is True and env.metadata["is_parallelizable"] is False
    assert env.possible_agents == ["player_0", "player_1"]
    assert isinstance(deus_lo_vult_v0.raw_env(**DLV), CrusadeAECEnv)
    debug = deus_lo_vult_v0.env(illegal="raise", **DLV)
    debug.reset(seed=0)
    illegal = np.flatnonzero(debug.observe(debug.agent_selection)["action_mask"] == 0)
    with pytest.raises(ValueError, match="illegal"):  # not swallowed by a wrapper
        debug.step(int(illegal[0]))


def test_aec_masks_are_the_core_masks_and_only_for_the_seat_to_move(case):
    name, config = case
    env = CrusadeAECEnv(name, **config)
    env.reset(seed=5)
    for rec in reference(name, config, 5):
        agent = env.agent_selection
        assert agent == f"player_{rec['seat']}"
        for other in env.agents:
            obs = env.observe(other)
            if other == agent:
                np.testing.assert_array_equal(obs["action_mask"], rec["mask"])
                np.testing.assert_array_equal(obs["observation"], rec["obs"])
            else:
                assert not obs["action_mask"].any()
        env.step(rec["action"])


def test_aec_final_rewards_and_flags_come_from_the_core(case):
    name, config = case
    ref = reference(name, config, 11, n_steps=10**6)
    env = CrusadeAECEnv(name, **config)
    env.reset(seed=11)
    for rec in ref:
        env.step(rec["action"])
    total = sum(r["rewards"] for r in ref)
    game = make_game(name, **config)
    state = game.new_state(11)
    for r in ref:
        game.step(state, r["action"])
    turn_cap = game.is_truncated(state)
    for i, agent in enumerate(env.possible_agents):
        assert env._cumulative_rewards[agent] == pytest.approx(float(total[i]))
        # A turn cap of the game's config is a scored end: terminated, never truncated.
        assert env.terminations[agent] and not env.truncations[agent]
        assert env.infos[agent]["turn_cap"] == turn_cap


def test_a_turn_cap_terminates_every_env_type():
    """max_turns ends the game with a result, so no env reports it as a truncation."""
    config = {"players": 2, "rounds": 1, "max_turns": 2}
    rng = np.random.default_rng(0)
    aec = CrusadeAECEnv("deus_lo_vult", **config)
    aec.reset(seed=0)
    while not aec.terminations[aec.agent_selection]:
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    assert all(aec.terminations.values()) and not any(aec.truncations.values())
    assert all(info["turn_cap"] for info in aec.infos.values())
    single = CrusadeSingleAgentEnv("deus_lo_vult", **config)
    single.reset(seed=0)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(single.action_masks())))
        _, _, terminated, truncated, info = single.step(action)
    assert terminated and not truncated and info["turn_cap"]


def test_unseeded_resets_follow_the_last_seed(case):
    name, config = case
    a, b = CrusadeAECEnv(name, **config), CrusadeAECEnv(name, **config)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    np.testing.assert_array_equal(a.game_state, b.game_state)


# -- illegal actions -----------------------------------------------------------------
def _an_illegal_action(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def test_illegal_action_raises_a_clear_value_error_when_asked_to(case):
    name, config = case
    env = CrusadeAECEnv(name, illegal="raise", **config)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = _an_illegal_action(mask)
    with pytest.raises(IllegalActionError, match=rf"action {bad} .*{int(mask.sum())} legal"):
        env.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10**6)
    single = CrusadeSingleAgentEnv(name, illegal="raise", **config)
    single.reset(seed=0)
    with pytest.raises(ValueError, match="illegal"):
        single.step(_an_illegal_action(single.action_masks()))


def test_an_illegal_action_loses_the_game_by_default(case):
    """PettingZoo classic's convention: the offender loses, info says why, one warning."""
    name, config = case
    env = CrusadeAECEnv(name, **config)
    env.reset(seed=0)
    offender = env.agent_selection
    bad = _an_illegal_action(env.observe(offender)["action_mask"])
    with pytest.warns(UserWarning, match="loss for seat") as caught:
        env.step(bad)
    assert len([w for w in caught if "loss for seat" in str(w.message)]) == 1
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert sum(env._cumulative_rewards.values()) == pytest.approx(0.0)
    assert env.infos[offender]["illegal_action"] == bad
    assert "is illegal here" in env.infos[offender]["illegal_reason"]
    single = CrusadeSingleAgentEnv(name, **config)
    for seed in (0, 1):  # the second illegal action of the same env does not warn again
        single.reset(seed=seed)
        bad = _an_illegal_action(single.action_masks())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _, reward, terminated, truncated, info = single.step(np.int64(bad))
        assert len([w for w in caught if "loss for seat" in str(w.message)]) == (seed == 0)
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert info["illegal_action"] == bad and info["illegal_reason"]
        assert not single.action_masks().any()


@pytest.mark.parametrize("make", [np.int64, np.array, lambda a: np.array([a], np.int32)])
def test_actions_may_be_numpy_integers_and_one_element_arrays(make):
    """``model.predict(obs)`` returns a 0-d array; the tutorials step it as it comes."""
    env = CrusadeSingleAgentEnv("tiny_tictactoe", illegal="raise")
    env.reset(seed=0)
    action = int(np.flatnonzero(env.action_masks())[0])
    env.step(make(action))
    assert env.game_state is not None and not env.action_masks()[action]
    for bad in (np.array([action, action]), np.array(float(action)), np.array([[action]])):
        with pytest.raises(ValueError, match="action must be an integer, got ndarray"):
            env.step(bad)


def test_masks_and_render_before_reset_say_call_reset():
    env = CrusadeSingleAgentEnv("tiny_tictactoe")
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.action_masks()
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(0)


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="illegal must be"):
        CrusadeAECEnv("tiny_tictactoe", illegal="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        CrusadeAECEnv("tiny_tictactoe", render_mode="svg")
    with pytest.raises(ValueError, match="seat"):
        CrusadeSingleAgentEnv("tiny_tictactoe", seat=2)
    with pytest.raises(ValueError, match="unknown opponent"):
        CrusadeSingleAgentEnv("tiny_tictactoe", opponents="grandmaster")
    with pytest.raises(ValueError, match="expected 1 opponents"):
        CrusadeSingleAgentEnv("tiny_tictactoe", opponents=["random", "random"])
    with pytest.raises(ValueError, match="no shaping potential"):
        CrusadeAECEnv("tiny_tictactoe", shaped_rewards=True)
    with pytest.raises(ValueError, match="reward must be one of"):
        CrusadeSingleAgentEnv("tiny_tictactoe", reward="coins")
    with pytest.raises(ValueError, match="declares no running score"):
        CrusadeSingleAgentEnv("tiny_tictactoe", reward="score")


# -- rendering -----------------------------------------------------------------------
def test_render_modes_return_text_and_images(case):
    name, config = case
    text = CrusadeAECEnv(name, render_mode="ansi", **config)
    text.reset(seed=1)
    assert isinstance(text.render(), str) and text.render().strip()
    image = CrusadeSingleAgentEnv(name, render_mode="rgb_array", **config)
    image.reset(seed=1)
    rgb = image.render()
    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
    assert rgb.shape[0] >= 16 and rgb.shape[1] >= 16
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 2  # something was drawn


# -- shaping -------------------------------------------------------------------------
def test_shaped_rewards_sum_to_the_true_result():
    ref = reference("deus_lo_vult", DLV, 4, n_steps=10**6)
    env = CrusadeAECEnv("deus_lo_vult", shaped_rewards=True, **DLV)
    env.reset(seed=4)
    for rec in ref:
        env.step(rec["action"])
    total = sum(r["rewards"] for r in ref)
    for i, agent in enumerate(env.possible_agents):
        assert env._cumulative_rewards[agent] == pytest.approx(float(total[i]), abs=1e-5)


# -- packaging -----------------------------------------------------------------------
def test_importing_envs_is_cheap_and_registers_the_ids():
    code = (
        "import sys, crusadegym.envs, gymnasium, pettingzoo\n"
        "assert 'crusadegym.envs.aec' not in sys.modules\n"
        "assert 'crusadegym.agents' not in sys.modules\n"
        "assert 'crusadegym/DeusLoVult-v0' in gymnasium.registry\n"
        "assert 'crusadegym/deus_lo_vult-v0' in pettingzoo.aec_registry\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_registry_ids_build_the_envs():
    """``pettingzoo.make("aec", id)`` and Gymnasium's ``module:id`` form, as tutorials call them."""
    import gymnasium
    import pettingzoo

    from crusadegym.envs.registration import AEC_IDS, SINGLE_AGENT_IDS

    for env_id in AEC_IDS:
        env = pettingzoo.make("aec", env_id)
        assert isinstance(env.unwrapped, CrusadeAECEnv)
        env.reset(seed=0)
        assert env.agent_selection in env.possible_agents
    for env_id in SINGLE_AGENT_IDS:
        env = gymnasium.make(f"crusadegym.envs:{env_id}")
        assert isinstance(env.unwrapped, CrusadeSingleAgentEnv)
