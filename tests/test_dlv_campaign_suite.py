"""The Campaign through the whole suite [R Part 2, issue #20]: every Conventional Preset
by name through the conformance kit, the envs and their checkers, the soak, the agents,
rendering, replays and the command line.

Configs are kept short (two Battles of a few turns) so the file stays cheap in CI; the
measured runs (100,000-game soak, heuristic vs random) are in docs/rules/deus_lo_vult.md
and docs/arena.md.
"""

from __future__ import annotations

import json
import warnings

import conformance as kit
import gymnasium
import numpy as np
import pytest
from campaign_helpers import position

from crusadegym.core.deus_lo_vult.campaign.config import CampaignConfig, preset_config
from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options
from crusadegym.core.deus_lo_vult.campaign.tables import PRESETS
from crusadegym.core.records import make_replay, replay, replay_from_json
from crusadegym.envs import register_envs

register_envs()  # the Gymnasium/PettingZoo ids, whichever test runs first

CAMPAIGN = "deus_lo_vult_campaign"
SHORT = {"battles": 2, "max_turns": 8}
"""Two Battles of at most 8 turns each: every module still gets to act, games stay short."""
PRESET_NAMES = sorted(PRESETS)


def short_game(preset: str, **options):
    return game_from_options(CAMPAIGN, {"preset": preset, **SHORT, **options})


def random_final(game, seed: int, rng: np.random.Generator) -> tuple[list[int], np.ndarray]:
    state = game.new_state(seed)
    actions: list[int] = []
    while not game.is_terminal(state):
        a = int(rng.choice(game.legal_actions(state)))
        game.step(state, a)
        actions.append(a)
    return actions, state


# -- presets by name --------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_by_name_builds_the_preset_contents(preset):
    game = game_from_options("deus_lo_vult", {"preset": preset})
    assert game.name == CAMPAIGN
    assert game.config == preset_config(preset)
    for key, value in PRESETS[preset].items():
        assert getattr(game.config, key) == value


def test_options_override_the_preset_and_no_preset_is_the_duel():
    game = game_from_options("deus_lo_vult", {"preset": "kyivan", "weather": "active"})
    assert (
        game.config.weather == "active" and game.config.amenities == PRESETS["kyivan"]["amenities"]
    )
    duel = game_from_options("deus_lo_vult", {"preset": None, "rounds": 1})
    assert duel.name == "deus_lo_vult" and not isinstance(duel.config, CampaignConfig)


@pytest.mark.parametrize(
    "game_name,options,fragment",
    [
        ("deus_lo_vult", {"preset": "byzantine"}, "unknown preset 'byzantine'; presets: plain"),
        ("crusaders", {"preset": "kyivan"}, "game 'crusaders' takes none"),
        ("deus_lo_vult", {"preset": "kyivan", "colour": 3}, "unknown campaign option(s)"),
        ("deus_lo_vult", {"preset": 3}, "preset must be a str"),
    ],
)
def test_bad_presets_are_one_line_errors(game_name, options, fragment):
    from crusadegym.envs.common import build_game

    with pytest.raises((ValueError, TypeError)) as err:
        build_game(game_name, options)
    assert fragment in str(err.value) and "\n" not in str(err.value)


# -- the conformance kit, preset by preset ----------------------------------------------


@pytest.fixture(scope="module", params=PRESET_NAMES)
def preset_game(request):
    return short_game(request.param)


@pytest.mark.parametrize("check", kit.ALL_CHECKS, ids=lambda f: f.__name__)
def test_conformance_kit_on_every_preset(preset_game, check):
    if check is kit.check_compiled_playouts:
        check(preset_game, n_games=4, n_steps=300)
    elif check is kit.check_batched_equals_single:
        check(preset_game, n_games=3)
    elif check is kit.check_random_games:
        check(preset_game, n_games=2)
    else:
        check(preset_game)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_campaigns_keep_the_invariants_and_end_after_their_battles(preset):
    from crusadegym.core.deus_lo_vult.campaign import battle as B

    game = short_game(preset)
    rng = np.random.default_rng(1)
    state = game.new_state(11)
    while not game.is_terminal(state):
        assert game.check_invariants(state) == []
        game.step(state, int(rng.choice(game.legal_actions(state))))
    assert game.check_invariants(state) == []
    assert state[B.C_OVER] == 1 and state[B.C_BATTLE] == SHORT["battles"]
    returns = game.returns(state)
    assert set(returns.tolist()) <= {-1.0, 0.0, 1.0}


# -- envs -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_pettingzoo_api_test_with_every_preset(preset):
    from pettingzoo.test import api_test

    from crusadegym.envs import deus_lo_vult_v0

    env = deus_lo_vult_v0.env(preset=preset, **SHORT)
    assert env.unwrapped.game.config == preset_config(preset, **SHORT)
    api_test(env, num_cycles=60)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_gymnasium_and_sb3_checkers_with_every_preset(preset):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("crusadegym/DeusLoVult-v0", preset=preset, **SHORT)
    check_env(env.unwrapped)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(gymnasium.make("crusadegym/DeusLoVultCampaign-v0", preset=preset))


def test_campaign_ids_and_module_and_metadata():
    import pettingzoo

    from crusadegym.envs import deus_lo_vult_campaign_v0, deus_lo_vult_v0
    from crusadegym.envs.registration import AEC_IDS, SINGLE_AGENT_IDS

    assert SINGLE_AGENT_IDS["crusadegym/DeusLoVultCampaign-v0"] == CAMPAIGN
    assert "crusadegym/deus_lo_vult_campaign-v0" in AEC_IDS
    env = pettingzoo.make("aec", "crusadegym/deus_lo_vult_campaign-v0")
    assert env.unwrapped.game.name == CAMPAIGN and env.unwrapped.game.config.preset == "plain"
    meta = deus_lo_vult_campaign_v0.env(preset="kerfuffle").metadata
    assert meta["name"] == "deus_lo_vult_campaign_v0" and meta["preset"] == "kerfuffle"
    assert meta["stand_in_data"] is True and "stand-in" in meta["stand_in_note"].lower()
    duel = deus_lo_vult_v0.env().metadata
    assert duel["name"] == "deus_lo_vult_v0" and "preset" not in duel


def test_single_agent_env_plays_a_preset_campaign_to_the_end():
    env = gymnasium.make(
        "crusadegym/DeusLoVult-v0", preset="seventh_crusade", opponents="heuristic", **SHORT
    )
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    assert total in (-1.0, 0.0, 1.0)


def test_batched_vector_env_with_a_preset():
    env = gymnasium.make_vec(
        "crusadegym/DeusLoVultCampaign-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        preset="kyivan",
        **SHORT,
    )
    obs, info = env.reset(seed=0)
    assert obs.shape == (3, env.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, term, trunc, info = env.step(actions)
        finished += int(np.sum(term | trunc))
        if finished >= 3:
            break
    assert finished >= 3
    env.close()


def test_score_reward_counts_glory():
    from crusadegym.core.deus_lo_vult import layout as L
    from crusadegym.envs.shaping import SCORES

    game, state = position({}, campaign="campaign glory=2,1,0,0", preset="plain")
    state[L.SCORE] = 3
    assert SCORES[CAMPAIGN](game, state).tolist() == [13.0, 5.0]


# -- soak -------------------------------------------------------------------------------


def test_soak_slice_over_every_preset(tmp_path):
    from crusadegym.benchmarks import soak

    out = tmp_path / "soak"
    code = soak.main(["--games", CAMPAIGN, "--configs", "presets:battles=2,max_turns=8",
                      "--n-games", "24", "--checked-games", "2", "--chunk", "16",
                      "--out", str(out), "--no-progress"])  # fmt: skip
    summary = json.loads((out / "soak.json").read_text())
    assert code == 0 and summary["total_failures"] == 0
    configs = {c["config"] for c in summary["cases"]}
    assert configs == {f"preset={p},battles=2,max_turns=8" for p in PRESETS}
    assert all(c["games"] >= (24 if c["mode"] == "compiled" else 2) for c in summary["cases"])


# -- agents -----------------------------------------------------------------------------


def test_heuristic_values_glory_and_plays_campaign_actions():
    from crusadegym.agents.heuristics import action_values, get_heuristic, value_kernel
    from crusadegym.core.deus_lo_vult.campaign.layout import N_DUEL_ACTIONS

    heuristic = get_heuristic(CAMPAIGN)
    assert heuristic.game == CAMPAIGN
    game, ahead = position({}, campaign="campaign glory=1,0,0,0", preset="plain")
    _, level = position({}, preset="plain")
    out_ahead, out_level = np.zeros(2, np.float32), np.zeros(2, np.float32)
    value_kernel(game)(ahead, game.params, out_ahead)
    value_kernel(game)(level, game.params, out_level)
    assert out_ahead[0] > out_level[0] and out_ahead[1] < out_level[1]
    assert np.all(np.abs(out_ahead) <= 1.0)
    # every legal action gets a finite lookahead value, the Campaign's ids >= 175 too
    seen_campaign_action = False
    for preset in PRESET_NAMES:
        game = short_game(preset)
        rng = np.random.default_rng(5)
        state = game.new_state(5)
        for _ in range(150):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            values = action_values(game, state, heuristic)
            assert np.all(np.isfinite(values[legal]))
            assert np.all(np.isinf(np.delete(values, legal)))
            seen_campaign_action |= bool(np.any(legal >= N_DUEL_ACTIONS))
            game.step(state, int(rng.choice(legal)))
    if not seen_campaign_action:
        pytest.skip("no Campaign action (id >= 175) met in these games: modules not in yet")


@pytest.mark.parametrize("agents", [("heuristic", "random"), ("mcts:iterations=8", "heuristic")])
def test_agents_play_a_preset_campaign(agents):
    from crusadegym.agents.arena import run_arena

    result = run_arena(CAMPAIGN, list(agents), games_per_lineup=2, progress=False,
                       options={"preset": "kyivan", "battles": 1, "max_turns": 4})  # fmt: skip
    records = result["records"]
    assert len(records) == 2 and {tuple(r["seats"]) for r in records} == {agents, agents[::-1]}
    assert all(r["steps"] > 0 and sorted(r["returns"]) in ([-1, 1], [0, 0]) for r in records)


def test_arena_and_play_command_lines_take_a_preset(tmp_path, capsys):
    from crusadegym.cli import main as cli

    rc = cli(["play", CAMPAIGN, "--preset", "kyivan", "--seats", "random,heuristic",
              "-o", "battles=1", "-o", "max_turns=4", "--no-board", "--no-save"])  # fmt: skip
    assert rc == 0 and "=== game" in capsys.readouterr().out
    rc = cli(["arena", CAMPAIGN, "--preset", "plain", "--agents", "random,heuristic",
              "--games", "1", "-o", "battles=1", "-o", "max_turns=4", "--no-plots",
              "--quiet", "--out", str(tmp_path)])  # fmt: skip
    assert rc == 0
    result = json.loads((tmp_path / "results.json").read_text())
    assert result["game"] == CAMPAIGN
    assert cli(["play", CAMPAIGN, "--preset", "nowhere"]) == 2
    assert "unknown preset 'nowhere'" in capsys.readouterr().err


# -- rendering and replays --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["plain", "kerfuffle"])
def test_render_modes_show_the_campaign(preset):
    from crusadegym.envs import deus_lo_vult_v0

    env = deus_lo_vult_v0.raw_env(preset=preset, render_mode="rgb_array", **SHORT)
    env.reset(seed=0)
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    env = deus_lo_vult_v0.raw_env(preset=preset, render_mode="ansi", **SHORT)
    env.reset(seed=0)
    first = env.render().splitlines()[0]
    assert first == f"Campaign {preset}: Battle 1/2  Glory 0-0"


def test_campaign_tokens_are_drawn():
    from crusadegym.envs.render_dlv import _status, cell_tokens

    game, state = position(
        {"e5": "0T", "f5": "1Z", "g5": "mct"}, campaign="campaign glory=1,0,0,0 battle=1",
        preset="kerfuffle",
    )  # fmt: skip
    views = cell_tokens(game, state)
    labels = {i: v.label for i, v in enumerate(views) if v is not None}
    assert sorted(labels.values()) == ["T", "Z", "mct"]
    line1, line2 = _status(game, state)
    assert line1.startswith("Deus lo Vult Campaign")
    assert line2.startswith("Campaign kerfuffle: Battle 2/3  Glory 1-0")


@pytest.mark.parametrize("preset", ["kyivan", "second_crusade"])
def test_replay_of_a_campaign_round_trips(preset):
    game = short_game(preset)
    actions, final = random_final(game, 21, np.random.default_rng(21))
    rec = make_replay(game, 21, actions, final_state=final)
    back = replay_from_json(json.dumps(rec.to_json()))
    assert back.game == CAMPAIGN and back.config["preset"] == preset
    again, states = replay(back)
    assert again.config == game.config
    assert np.array_equal(states[-1], final)
