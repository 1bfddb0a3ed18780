"""A CI slice of the Deus soak: compiled random games of every test config, invariants on
sampled states, checked games with invariants after every step (the full run of 100,000+
games is in docs/rules/deus.md)."""

from __future__ import annotations

import json

from crusadegym.benchmarks import soak
from crusadegym.core import make_game


def test_deus_soak_slice_has_no_failures(tmp_path):
    out = tmp_path / "soak"
    code = soak.main(
        ["--games", "deus", "--configs", "all", "--n-games", "300", "--checked-games", "3",
         "--sample-checks", "16", "--out", str(out), "--no-progress"]
    )  # fmt: skip
    summary = json.loads((out / "soak.json").read_text())
    messages = [m for case in summary["cases"] for m in case["messages"]]
    assert code == 0, messages
    configs = {soak.config_name(dict(c)) for c in make_game("deus").spec.test_configs}
    assert {c["config"] for c in summary["cases"]} == configs
    for case in summary["cases"]:
        assert case["failures"] == 0 and case["games"] >= (300 if case["mode"] == "compiled" else 3)
