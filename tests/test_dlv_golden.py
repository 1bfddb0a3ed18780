"""The Duel plays exactly as before the Campaign and performance work.

Both files under ``tests/data`` were recorded from the engine before those changes:
``dlv_golden.json`` holds step-by-step fingerprints (position text, legal mask, every
seat's observation, rewards) of 24 random games over four configs; ``dlv_v1_replays``
holds replay files in the original format. A rule or layout change that alters any Duel
behaviour fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_dlv import GOLDEN, fingerprint

from crusadegym.core import make_game
from crusadegym.core.records import load_replay, replay, with_all_seats_turn_limit

DATA = Path(__file__).parent / "data"
GAMES = json.loads(GOLDEN.read_text())["games"]


RECORDED_TURN_LIMIT = 120
"""The Duel's default cap when the fingerprints were recorded: 120 turns over all seats."""


def recorded_game(config: dict):
    """The game a fingerprint was recorded with: its ``max_turns`` counted the turns of all
    seats together (per seat since issue #36; 40 turns over 3 seats has no per-seat equal),
    so the recorded limit goes into the compiled params as it was, as for old replays."""
    game = make_game("deus_lo_vult", **config)
    return with_all_seats_turn_limit(game, {"max_turns": RECORDED_TURN_LIMIT, **config})


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_duel_game_matches_golden_fingerprints(index: int) -> None:
    g = GAMES[index]
    game = recorded_game(g["config"])
    final, steps = fingerprint(game, g["seed"], g["actions"])
    if final != g["final"]:
        first = next(i for i, (a, b) in enumerate(zip(steps, g["steps"], strict=False)) if a != b)
        pytest.fail(f"config {g['config']} seed {g['seed']}: first differs at step {first}")


@pytest.mark.parametrize("path", sorted((DATA / "dlv_v1_replays").glob("*.json")), ids=str)
def test_replays_recorded_before_still_replay(path: Path) -> None:
    rec = load_replay(path)
    game, states = replay(rec)  # checks the stored final-state hash
    assert game.is_terminal(states[-1])
