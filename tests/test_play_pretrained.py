"""The policy shipped in the package (``pretrained``) and the packing that makes it small."""

from __future__ import annotations

import json

import numpy as np
import pytest

from crusadegym.agents.base import select_action
from crusadegym.core import make_game

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
