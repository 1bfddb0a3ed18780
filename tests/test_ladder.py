"""The strength ladder (crusadegym.agents.ladder): line-ups, tables, and the page it writes."""

from __future__ import annotations

import pytest

from crusadegym.agents.arena import run_arena
from crusadegym.agents.ladder import (
    BEGIN,
    END,
    HEADING,
    ladder_agents,
    main,
    pair_counts,
    parse_budgets,
    parse_learned,
    parse_skip,
)

TINY = ["--game", "tiny_tictactoe", "--games", "4", "--budgets", "5,20", "--no-shipped",
        "--quiet"]  # fmt: skip


def test_every_game_gets_random_heuristic_mcts_budgets_and_its_learned_agents():
    agents = ladder_agents("deus_lo_vult", (25, 100), ["policy:a.zip"], shipped=True)
    assert agents == ["random", "heuristic", "mcts:iterations=25", "mcts:iterations=100",
                      "pretrained", "policy:a.zip"]  # fmt: skip
    assert ladder_agents("deus", (10,), [], shipped=True) == [
        "random", "heuristic", "mcts:iterations=10", "pretrained"]  # fmt: skip
    assert ladder_agents("deus", parse_budgets("default,50"), [], shipped=False) == [
        "random", "heuristic", "mcts", "mcts:iterations=50"]  # fmt: skip
    assert "pretrained" not in ladder_agents("tiny_tictactoe", (10,), [], shipped=True)
    with pytest.raises(ValueError, match="--budgets takes positive integers or default"):
        parse_budgets("100,lots")
    assert parse_learned(["deus=policy:x.zip", "deus=policy:y.zip"]) == {
        "deus": ["policy:x.zip", "policy:y.zip"]}  # fmt: skip
    with pytest.raises(ValueError, match="GAME=SPEC"):
        parse_learned(["policy:x.zip"])


def test_skip_shortens_the_line_up_and_refuses_names_not_on_it():
    skip = parse_skip("random, pretrained")
    assert ladder_agents("deus_lo_vult", ("default",), [], True, skip) == ["heuristic", "mcts"]
    with pytest.raises(ValueError, match="--skip mcts-7: not on deus"):
        ladder_agents("deus", ("default",), [], True, parse_skip("mcts-7"))
    with pytest.raises(ValueError, match="fewer than two agents"):
        ladder_agents("deus", ("default",), [], False, parse_skip("random,heuristic"))


def test_pair_counts_add_up_to_each_agents_games():
    agents = ["random", "heuristic", "mcts:iterations=5"]
    result = run_arena("tiny_tictactoe", agents, games_per_lineup=6, progress=False)
    for a in agents:
        w = sum(pair_counts(result["records"], a, b)[0] for b in agents if b != a)
        d = sum(pair_counts(result["records"], a, b)[2] for b in agents if b != a)
        assert w == result["summary"][a]["wins"]
        assert d == result["summary"][a]["draws"]
    w, l_, d = pair_counts(result["records"], "random", "heuristic")
    assert w + l_ + d == 6
    assert pair_counts(result["records"], "heuristic", "random") == (l_, w, d)


def test_the_page_keeps_its_text_and_each_games_section(tmp_path, capsys):
    doc = tmp_path / "arena.md"
    doc.write_text("# Agents and the arena\n\nHand-written text stays.\n")
    assert main([*TINY, "--doc", str(doc), "--out", str(tmp_path / "runs")]) == 0
    text = doc.read_text()
    assert text.startswith("# Agents and the arena\n\nHand-written text stays.\n")
    assert HEADING in text and BEGIN in text and END in text
    section = text.split("<!-- ladder:tiny_tictactoe -->")[1].split("<!-- /ladder:tiny")[0]
    for label in ("random", "heuristic", "mcts-5", "mcts-20"):
        assert f"| {label} | 12 |" in section  # 3 opponents x 4 games
        assert f"| **{label}** |" in section
    assert "crusadegym ladder --game tiny_tictactoe --games 4 --budgets 5,20" in section
    assert (tmp_path / "runs" / "tiny_tictactoe" / "results.json").is_file()

    # Rewriting replaces the game's section and leaves everything else as it was.
    doc.write_text(text.replace(END, END + "\n\nText after the ladder.\n"))
    assert main([*TINY, "--seed", "3", "--doc", str(doc), "--out", str(tmp_path / "r2")]) == 0
    again = doc.read_text()
    assert again.count("<!-- ladder:tiny_tictactoe -->") == 1
    assert again.count(HEADING) == 1
    assert "Hand-written text stays." in again and "Text after the ladder." in again
    assert "--seed 3" in again


def test_bad_arguments_are_one_line_errors(tmp_path, capsys):
    code = main([*TINY, "--learned", "nonsense", "--doc", str(tmp_path / "a.md")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("crusadegym ladder:") and "\n" not in err
    assert not (tmp_path / "a.md").exists()
