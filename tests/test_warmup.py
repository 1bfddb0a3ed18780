"""``crusadegym warmup``: one progress line per game with the seconds of each part."""

from __future__ import annotations

import re

from crusadegym import cli
from crusadegym.benchmarks import warmup
from crusadegym.errors import USAGE_EXIT_CODE


def test_warmup_is_a_command():
    assert cli.COMMANDS["warmup"][0] == "crusadegym.benchmarks.warmup"


def test_one_line_per_game_with_seconds(capsys):
    # the tiny test game: its search compiles for a minute on a loaded machine, so
    # kernels and the batched driver only (the parts share one code path)
    assert cli.main(["warmup", "tiny_tictactoe", "--only", "kernels,batched"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    pattern = r"warmup tiny_tictactoe: (cold cache, compiling|cache warm, checking): "
    pattern += r"kernels \d+\.\d s, batched \d+\.\d s; \d+\.\d s in all"
    assert re.fullmatch(pattern, out[0]), out


def test_default_games_are_the_shipped_ones():
    names = warmup.shipped_games()
    assert {"deus_lo_vult", "deus_lo_vult_campaign", "deus", "crusaders"} <= set(names)
    assert "tiny_tictactoe" not in names


def test_mistakes_are_one_line(capsys):
    for argv in (["warmup", "chess"], ["warmup", "deus", "--only", "kernels,fly"]):
        assert cli.main(argv) == USAGE_EXIT_CODE
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("crusadegym warmup: "), lines


def test_the_startup_table_has_a_cold_and_a_warm_column(capsys):
    """``python -m crusadegym.benchmarks.startup``: the cold/warm table of
    docs/benchmarks.md (here on the tiny game, registered by conftest)."""
    from crusadegym.benchmarks import startup

    assert startup.main(["tiny_tictactoe"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "| game | cold: first step (s) | warm: first step (s) |"
    (row,) = [line for line in lines if line.startswith("| tiny_tictactoe |")]
    cold, warm = (float(x) for x in row.strip("| ").split(" | ")[1:])
    assert cold > 0 and warm > 0
