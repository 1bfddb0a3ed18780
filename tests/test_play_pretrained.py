"""The policy shipped in the package (``pretrained``) and the packing that makes it small."""

from __future__ import annotations

import io
import json
import sys

import numpy as np
import pytest

from crusadegym.agents.arena import play_game
from crusadegym.agents.base import select_action
from crusadegym.agents.network import PolicyValueNet
from crusadegym.agents.pretrained import (
    CHECKPOINTS,
    PRETRAINED_DIR,
    check_pretrained_specs,
    expert_network_path,
    pretrained_path,
    shipped_games,
)
from crusadegym.agents.registry import make_agent
from crusadegym.core import make_game

MAX_BYTES = 5_000_000
SHIPPED_SUFFIXES = {".zip", ".json", ".npz"}
"""The shipped policy must stay a few MB (the issue's limit)."""

pytest.importorskip("sb3_contrib", reason="policies need the train extra")


def _tiny_checkpoint(tmp_path) -> str:
    """An untrained MaskablePPO checkpoint of the tiny game, with its sidecar."""
    from sb3_contrib import MaskablePPO

    from crusadegym.training.checkpoint import save_checkpoint
    from crusadegym.training.env import SelfPlayEnv
    from crusadegym.training.policy import policy_kwargs_for
    from crusadegym.training.pool import OpponentPool

    game = make_game("tiny_tictactoe")
    env = SelfPlayEnv("tiny_tictactoe", OpponentPool(["random"]))
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0,
                        policy_kwargs=policy_kwargs_for(game))  # fmt: skip
    return save_checkpoint(model, str(tmp_path / "ttt.zip"), game)


def test_packing_keeps_the_moves_and_shrinks_the_file(tmp_path):
    from crusadegym.agents.neural import load_policy_agent
    from crusadegym.agents.pretrained.pack import pack

    original = _tiny_checkpoint(tmp_path)
    out = tmp_path / "packed"
    out.mkdir()
    packed = pack(original, "tiny_tictactoe", "a test", out)
    assert packed.stat().st_size < 0.5 * (tmp_path / "ttt.zip").stat().st_size
    info = json.loads(packed.with_suffix(".json").read_text())
    assert info["training_command"] == "a test" and info["weights"] == "float16"
    a, b = load_policy_agent(original), load_policy_agent(str(packed))
    game, rng, moves = make_game("tiny_tictactoe"), np.random.default_rng(0), 0
    for seed in range(20):
        state = game.new_state(seed)
        while not game.is_terminal(state):
            assert select_action(a, game, state) == select_action(b, game, state)
            moves += 1
            game.step(state, int(rng.choice(game.legal_actions(state))))
    assert moves > 100
    with pytest.raises(ValueError, match="does not name game 'deus_lo_vult'"):
        pack(original, "deus_lo_vult", "a test", out)


def test_the_checkpoint_and_its_sidecar_are_shipped_and_small():
    path = pretrained_path("deus_lo_vult")
    assert path == CHECKPOINTS["deus_lo_vult"]
    sidecar = path.with_suffix(".json")
    assert path.stat().st_size + sidecar.stat().st_size < MAX_BYTES
    info = json.loads(sidecar.read_text())
    assert info["game"] == "deus_lo_vult" and info["advice"] == "heuristic"
    assert info["training_command"].startswith("crusadegym train deus_lo_vult")


def test_pretrained_plays_a_game_to_the_end():
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=6)
    agents = [make_agent("pretrained", 0), make_agent("random", 1)]
    record = play_game(game, agents, seed=11)
    assert record["steps"] > 0 and len(record["returns"]) == 2
    assert agents[0].name == "pretrained"


def test_play_against_pretrained_from_the_command_line(monkeypatch, capsys, tmp_path):
    from crusadegym.agents.match import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40 + "quit\n"))
    argv = ["deus_lo_vult", "--vs", "pretrained", "--seat", "1", "--save-replays", str(tmp_path)]
    assert main([*argv, "-o", "rounds=1", "-o", "max_turns=4"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (pretrained) plays" in out and "replay saved" in out


def test_everything_shipped_fits_the_wheel_budget():
    """All shipped agents together (checkpoints, sidecars, networks, fitted parts) < 5 MB."""
    total = sum(p.stat().st_size for p in PRETRAINED_DIR.iterdir() if p.suffix in SHIPPED_SUFFIXES)
    assert total < MAX_BYTES


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_the_shipped_networks_play_their_game_to_the_end(name):
    """``pretrained`` in Deus and Crusaders is the expert-iteration network (numpy only)."""
    assert name in shipped_games()
    net = PolicyValueNet.load(expert_network_path(name))
    game = make_game(name)
    net.check_game(game)
    assert net.meta["command"].startswith(f"crusadegym expert {name}")
    agents = [make_agent("pretrained", 0), make_agent("random", 1)]
    record = play_game(game, agents, seed=5)
    assert record["steps"] > 0 and not record["truncated"]
    check_pretrained_specs(["pretrained"], name)  # no refusal where a network is shipped
