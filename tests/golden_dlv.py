"""Golden Deus lo Vult Duel games: fingerprints recorded before engine changes.

``fingerprint(game, seed, actions)`` replays a game and hashes, step by step, what a
player of the Duel can observe: the position as text (``format_position``, independent
of the state layout), the legal mask, every seat's observation and the rewards. The
file ``tests/data/dlv_golden.json`` was written by ``python tests/golden_dlv.py`` from
the engine as it stood before the Campaign and performance work; the test compares the
current engine against it, so a refactor that changes any Duel behaviour fails.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

GOLDEN = Path(__file__).parent / "data" / "dlv_golden.json"
CONFIGS = (
    {"players": 2, "rounds": 1, "max_turns": 30},
    {"players": 2},
    {"players": 3, "rounds": 1, "max_turns": 40, "deployment": "saracenic", "robbing": True},
    {
        "players": 4,
        "rounds": 2,
        "max_turns": 40,
        "deployment": "campaign",
        "saracen_placement": "tactical",
        "stampede": "chivalrous",
        "double_arrow_adjacent": True,
        "double_arrow_vs_shield": "wound",
        "weaken_cost": "action_point",
        "secure_coins": "all",
        "tie_rule": "shared",
    },
)
GAMES_PER_CONFIG = 6


def fingerprint(game, seed: int, actions: list[int]) -> tuple[str, list[str]]:
    """(final digest, per-step digests) of ``actions`` played from ``seed``."""
    from crusadegym.core.deus_lo_vult.notation import format_position

    state = game.new_state(seed)
    steps: list[str] = []
    chain = hashlib.sha256()

    def snap(rewards) -> str:
        h = hashlib.sha256()
        h.update(format_position(state, game.params).encode())
        h.update(game.legal_mask(state).tobytes() if not game.is_terminal(state) else b"T")
        for seat in range(game.num_players):
            h.update(np.ascontiguousarray(game.observe(state, seat)).tobytes())
        h.update(np.asarray(rewards, np.float32).tobytes())
        return h.hexdigest()[:16]

    steps.append(snap(np.zeros(game.num_players, np.float32)))
    for a in actions:
        r = game.step(state, int(a))
        steps.append(snap(r))
    for s in steps:
        chain.update(s.encode())
    chain.update(np.asarray(game.returns(state), np.float32).tobytes())
    return chain.hexdigest(), steps


def _random_actions(game, seed: int) -> list[int]:
    rng = np.random.default_rng(seed + 1000)
    state = game.new_state(seed)
    actions = []
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        a = int(rng.choice(legal))
        actions.append(a)
        game.step(state, a)
    return actions


def record() -> None:
    from crusadegym.core import make_game

    games = []
    for cfg in CONFIGS:
        game = make_game("deus_lo_vult", **cfg)
        for seed in range(GAMES_PER_CONFIG):
            actions = _random_actions(game, seed)
            final, steps = fingerprint(game, seed, actions)
            games.append(
                {"config": cfg, "seed": seed, "actions": actions, "final": final, "steps": steps}
            )
    GOLDEN.write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")
    print(f"wrote {len(games)} games to {GOLDEN}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    record()
