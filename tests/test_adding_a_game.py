"""docs/adding_a_game.md, followed for the tests' tiny game: the proof that a game joins
the envs, the arena and the ladder by the page's steps, and by no others.

The game is ``tests/tinygame.py`` under a name nothing in the package knows
(``tiny_added``): ``tiny_tictactoe`` itself is registered by ``tests/conftest.py``
(``register(tinygame.SPEC)``) and its heuristic by a line in
``agents/heuristics/__init__.py``, which would hide a missing step. This module plays the
roles of the files the page names: the game's module (``SPEC``), its heuristic module
(``HEURISTIC``) and its ``envs/<game>_v0.py`` (``raw_env``, ``env``).

The steps that are a line in a package file (``core/registry.py``,
``envs/registration.py``, ``agents/heuristics/__init__.py``) are done by the ``added``
fixture on copies of those registries, so no other test sees the game; the Gymnasium
and PettingZoo ids are removed after each test.
"""

from __future__ import annotations

import dataclasses
import io
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
import tinygame
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from crusadegym.agents import action_help, heuristics, human, ladder, narrate
from crusadegym.agents.arena import run_arena
from crusadegym.agents.heuristics import tictactoe
from crusadegym.core import available_games, make_game, registry
from crusadegym.envs import registration, render, shaping
from crusadegym.envs.aec import make_raw_env, wrap
from crusadegym.ui import clicks, legend

NAME = "tiny_added"
GYM_ID = "crusadegym/TinyAdded-v0"
AEC_ID = "crusadegym/tiny_added-v0"

# Step 1, the game's folder: a module exporting SPEC (here the tiny game, renamed).
SPEC = dataclasses.replace(tinygame.SPEC, name=NAME)

# Step 4, agents/heuristics/<game>.py: a module exporting HEURISTIC (optional).
HEURISTIC = dataclasses.replace(tictactoe.HEURISTIC, game=NAME)


# Step 3, envs/<game>_v0.py: the PettingZoo module, two functions.
def raw_env(**kwargs):
    """The unwrapped AEC env."""
    return make_raw_env(NAME, **kwargs)


def env(**kwargs):
    """The AEC env with PettingZoo's order-enforcing wrapper."""
    return wrap(raw_env(**kwargs))


REGISTRIES = [
    (registry, "_SPECS"),
    (registry, "_BUILTIN"),
    (registration, "SINGLE_AGENT_IDS"),
    (registration, "AEC_IDS"),
    (heuristics, "_MODULES"),
    (heuristics, "_LOADED"),
    (shaping, "SCORES"),
    (shaping, "SCORE_WEIGHTS"),
    (shaping, "POTENTIALS"),
    (render, "DRAWERS"),
    (human, "LEGENDS"),
    (action_help, "ACTION_HELP"),
    (clicks, "CLICK_MAPS"),
    (narrate, "DIFFS"),
    (legend, "LEGENDS"),
]
"""Every registry a step of the page writes to (each replaced by a copy per test)."""


@pytest.fixture
def added(monkeypatch):
    """The required steps of docs/adding_a_game.md, on copies of the registries."""
    for module, attr in REGISTRIES:
        monkeypatch.setattr(module, attr, dict(getattr(module, attr)))
    registry._BUILTIN[NAME] = __name__  # step 2: core/registry.py
    registration.SINGLE_AGENT_IDS[GYM_ID] = NAME  # step 3: envs/registration.py
    registration.AEC_IDS[AEC_ID] = f"{__name__}:env"
    heuristics._MODULES[NAME] = __name__  # step 4: agents/heuristics/__init__.py
    registration.register_envs()
    try:
        yield NAME
    finally:
        gymnasium.registry.pop(GYM_ID, None)
        pettingzoo.aec_registry.pop(AEC_ID, None)


@pytest.fixture(autouse=True)
def _quiet_checker_warnings():
    """The checkers warn about the one forfeit they provoke; that is expected."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def test_the_game_is_made_by_name(added):
    assert NAME in available_games()
    game = make_game(NAME)
    assert (game.num_actions, game.obs_size, game.num_players) == (9, 27, 2)
    assert heuristics.get_heuristic(NAME) is HEURISTIC  # loaded by name, not GENERIC


def test_the_pettingzoo_env_passes_api_test(added):
    api_test(pettingzoo.make("aec", AEC_ID), num_cycles=100)
    api_test(env(), num_cycles=20)


def test_the_gymnasium_env_passes_check_env(added):
    check_env(gymnasium.make(GYM_ID).unwrapped)
    single = gymnasium.make(GYM_ID, opponents="heuristic", render_mode="rgb_array")
    obs, info = single.reset(seed=0)
    assert obs.shape == (9 * 3,) and info["action_mask"].any()
    assert single.render().ndim == 3  # no drawer: the text board, drawn (envs/render.py)
    terminated = False
    while not terminated:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, truncated, info = single.step(action)
    assert info["turn_cap"] is False and not truncated


def test_the_arena_plays_random_against_heuristic(added):
    result = run_arena(NAME, ["random", "heuristic"], games_per_lineup=6, progress=False)
    assert len(result["records"]) == 6 and result["cap_endings"] == 0
    summary = result["summary"]
    assert summary["heuristic"]["win_rate"] > summary["random"]["win_rate"]


def test_the_ladder_writes_its_section(added, tmp_path):
    doc = tmp_path / "arena.md"
    doc.write_text("# Agents and the arena\n\nText the ladder leaves alone.\n")
    argv = ["--game", NAME, "--games", "2", "--out", str(tmp_path / "runs"), "--doc", str(doc)]
    assert ladder.main([*argv, "--quiet"]) == 0
    text = doc.read_text()
    assert "Text the ladder leaves alone." in text
    section = text.split(f"<!-- ladder:{NAME} -->", 1)[1].split(f"<!-- /ladder:{NAME} -->")[0]
    assert f"### {NAME}" in section and f"crusadegym ladder --game {NAME}" in section
    for agent in ("random", "heuristic", "mcts"):
        assert f"| {agent} |" in section
    assert (tmp_path / "runs" / NAME / "results.json").is_file()


def _marks(game, state):
    """A running score for the optional reward hooks: each seat's marks on the board."""
    cells = state[tinygame.CELLS : tinygame.CELLS + 9]
    return np.array([(cells == seat).sum() for seat in range(game.num_players)], np.float32)


def test_the_optional_hooks(added):
    """envs/shaping.py, agents/human.py, agents/action_help.py, envs/render.py,
    ui/clicks.py, agents/narrate.py and ui/legend.py: each has a default, and a register
    function for a game's own."""
    with pytest.raises(ValueError, match="declares no running score"):
        raw_env(reward="score")
    shaping.register_score(NAME, _marks, weight=0.1)
    shaping.register_potential(NAME, lambda game, state: 0.05 * shaping.zero_sum_lead(
        _marks(game, state)))  # fmt: skip
    for kwargs in ({"reward": "score"}, {"shaped_rewards": True}):
        api_test(env(**kwargs), num_cycles=20)

    game = make_game(NAME)
    assert human.legend(game).startswith("Legend: the board is tiny_added's text notation")
    human.register_legend(NAME, "Legend: X and O are the seats' marks, # a blocked cell.")
    action_help.register_action_help(NAME, {"mark": "mark ROW,COL: put your mark there."})
    out = io.StringIO()
    seat = human.HumanAgent(input=io.StringIO("help mark\n1\n"), output=out)
    state = game.new_state(0)
    assert game.legal_mask(state)[seat.act_state(game, state)]
    assert "X and O are the seats' marks" in out.getvalue()
    assert "put your mark there" in out.getvalue()

    assert clicks.click_map(NAME) is None  # played with the action buttons
    clicks.register_click_map(NAME, lambda game, x, y: f"mark {y // 40},{x // 40}")
    assert game.parse_action(clicks.click_map(NAME)(game, 50, 10)) == 1
    render.register_drawer(NAME, render.draw_text)
    assert render.render_rgb(game, state).shape[2] == 3

    played = int(game.legal_actions(state)[0])
    assert (
        narrate.narrate_action(game, state, played)
        == f"seat {game.current_player(state)} plays {game.action_to_str(played, state)}"
    )
    narrate.register_diff(NAME, lambda game, before, after, viewer: ["a mark placed"])
    assert narrate.narrate_action(game, state, played).endswith(": a mark placed")
    assert legend.picture_legend(game) == []
    legend.register_picture_legend(NAME, lambda game: [legend.legend_item("X: seat 0", mark="X")])
    assert legend.picture_legend(game)[0]["text"] == "X: seat 0"
