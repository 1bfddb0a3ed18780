"""Each env module's docstring is a table (PettingZoo classic's convention) whose figures
come from the code: action count, observation size, the default turn cap, the ids."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from crusadegym.core import get_spec, make_game
from crusadegym.envs import registration

ENVS = Path(__file__).resolve().parent.parent / "src" / "crusadegym" / "envs"
MODULES = sorted(p.stem for p in ENVS.glob("*_v0.py"))
ROWS = ("import", "game", "ids", "agents", "actions", "observation", "legal-action mask",
        "rewards", "turn cap", "version history")  # fmt: skip


def table(module) -> dict[str, str]:
    """The docstring's table: row name -> its text (continuation lines joined)."""
    lines = module.__doc__.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+ +=+", line)]
    assert len(rules) == 2, f"{module.__name__}: no table between two ===== rules"
    width = len(lines[rules[0]].split()[0]) + 2
    rows: dict[str, str] = {}
    name = ""
    for line in lines[rules[0] + 1 : rules[1]]:
        if line[:width].strip():
            name = line[:width].strip()
            rows[name] = line[width:].strip()
        else:
            rows[name] += " " + line.strip()
    return rows


def test_every_game_has_an_env_module():
    games = {importlib.import_module(f"crusadegym.envs.{m}").GAME for m in MODULES}
    assert games == set(registration.SINGLE_AGENT_IDS.values())


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_table_matches_the_code(name):
    module = importlib.import_module(f"crusadegym.envs.{name}")
    rows = table(module)
    assert tuple(rows) == ROWS
    spec = get_spec(module.GAME)
    game = make_game(module.GAME)
    assert f"``{module.GAME}``" in rows["game"]
    assert f"import {name}``" in rows["import"]

    actions = re.search(r"``Discrete\((\d+)\)``", rows["actions"])
    assert int(actions.group(1)) == game.num_actions
    obs = re.search(r"``Box\(([\d.]+), ([\d.]+), \((\d+),\), float32\)``", rows["observation"])
    sizes = spec.sizes(game.params)
    assert float(obs.group(1)) == sizes["obs_low"] and float(obs.group(2)) == sizes["obs_high"]
    assert int(obs.group(3)) == game.obs_size
    assert f"int8[{game.num_actions}]" in rows["legal-action mask"]
    # "in every config": the same sizes for every player count and declared test config
    configs = [{"players": n} for n in range(2, spec.max_players + 1)] + list(spec.test_configs)
    for options in configs:
        other = make_game(module.GAME, **options)
        assert (other.num_actions, other.obs_size) == (game.num_actions, game.obs_size)

    defaults = {f.name: f.default for f in dataclasses.fields(spec.config_cls)}
    cap = re.search(r"``max_turns=(\d+)``", rows["turn cap"])
    assert int(cap.group(1)) == defaults["max_turns"]
    in_all = re.search(r"(\d+) in all at 2 players", rows["turn cap"])
    if in_all:  # the cap over all seats (core/turn_cap.py)
        assert int(in_all.group(1)) == 2 * defaults["max_turns"]
    assert f"2 (default) to {spec.max_players}" in rows["agents"]
    assert defaults["players"] == 2
    gym_ids = [i for i, g in registration.SINGLE_AGENT_IDS.items() if g == module.GAME]
    aec_ids = [i for i, e in registration.AEC_IDS.items() if e.startswith(f"{module.__name__}:")]
    for env_id in gym_ids + aec_ids:
        assert f"``{env_id}``" in rows["ids"]
    assert rows["version history"].startswith("v0 ")
