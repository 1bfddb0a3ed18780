"""A CI slice of the Crusaders soak: compiled and checked random games over every test
config (the full >= 100,000-game run and its figure are in docs/rules/crusaders.md).

CI may raise the slice with ``CRUSADEGYM_SOAK_GAMES`` / ``CRUSADEGYM_SOAK_CHECKED``.
"""

from __future__ import annotations

import json
import os

from crusadegym.benchmarks import soak
from crusadegym.core import make_game

SLICE_GAMES = int(os.environ.get("CRUSADEGYM_SOAK_GAMES", "300"))
SLICE_CHECKED = int(os.environ.get("CRUSADEGYM_SOAK_CHECKED", "3"))


def test_crusaders_slice_has_no_failures(tmp_path):
    out = tmp_path / "soak"
    args = ["--games", "crusaders", "--configs", "all", "--n-games", str(SLICE_GAMES)]
    args += ["--checked-games", str(SLICE_CHECKED), "--sample-checks", "16"]
    code = soak.main([*args, "--out", str(out), "--no-progress"])
    summary = json.loads((out / "soak.json").read_text())
    messages = [m for case in summary["cases"] for m in case["messages"]]
    assert code == 0, messages
    assert {c["config"] for c in summary["cases"]} == {
        soak.config_name(dict(c)) for c in make_game("crusaders").spec.test_configs
    }
    assert sum(c["games"] for c in summary["cases"]) >= len(summary["cases"]) * SLICE_CHECKED
