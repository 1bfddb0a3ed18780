"""End-of-run evaluation: the trained policy in an arena gauntlet against the baselines.

The learner's checkpoint plays as :class:`~crusadegym.agents.PolicyAgent`
(deterministic: its most likely legal action) through the arena's
``policy:PATH`` spec, with seats rotated, against each baseline; the result adds
the learner's win rate and 95% Wilson interval per opponent.
"""

from __future__ import annotations

import os

from crusadegym.agents.arena import format_table, run_arena, write_results
from crusadegym.agents.stats import seat_outcomes, wilson_interval

HERO = "policy"
"""The trained policy's name in evaluation tables and plots."""


def win_rates_vs(records: list[dict], hero: str) -> dict[str, dict]:
    """Per opponent (line-up without ``hero``): hero's games, wins, draws, win rate, CI."""
    tally: dict[str, list[int]] = {}
    for rec in records:
        if hero not in rec["seats"]:
            continue
        others = "+".join(sorted(s for s in rec["seats"] if s != hero)) or hero
        outcomes = seat_outcomes(rec["returns"])
        seat = rec["seats"].index(hero)
        games_wins_draws = tally.setdefault(others, [0, 0, 0])
        games_wins_draws[0] += 1
        games_wins_draws[1] += outcomes[seat] == "win"
        games_wins_draws[2] += outcomes[seat] == "draw"
    out = {}
    for opp, (games, wins, draws) in tally.items():
        lo, hi = wilson_interval(wins, games)
        out[opp] = {"games": games, "wins": wins, "draws": draws,
                    "win_rate": wins / games, "win_rate_ci95": [lo, hi]}  # fmt: skip
    return out


def evaluate_checkpoint(
    checkpoint: str,
    game_name: str,
    baselines: list[str],
    games: int,
    players: int,
    options: dict,
    out_dir: str | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
) -> dict:
    """Gauntlet of ``policy:checkpoint`` vs each baseline, ``games`` games per line-up.

    The policy is called :data:`HERO` in the result. Returns the arena result plus
    ``"vs"`` (see :func:`win_rates_vs`) and ``"checkpoint"``; with
    ``out_dir``, writes ``results.json`` and the arena's rating/pairwise plots there.
    """
    if not baselines:
        raise ValueError("evaluation needs at least one baseline opponent")
    spec = "policy:" + os.path.abspath(checkpoint)
    result = run_arena(
        game_name, [spec, *baselines], games_per_lineup=games, players=players, seed=seed,
        mode="gauntlet", options=options, workers=workers, progress=progress,
    )  # fmt: skip
    result = rename_agent(result, spec, HERO)
    result["checkpoint"] = os.path.abspath(checkpoint)
    result["vs"] = win_rates_vs(result["records"], HERO)
    if out_dir:
        result["files"] = write_results(result, out_dir)
    return result


def rename_agent(result: dict, old: str, new: str) -> dict:
    """A copy of an arena result with agent ``old`` called ``new`` (tables, plots, records)."""

    def name(a: str) -> str:
        return new if a == old else a

    out = dict(result)
    out["agents"] = [name(a) for a in result["agents"]]
    for key in ("summary", "ratings"):
        out[key] = {name(a): v for a, v in result[key].items()}
    out["pairwise"] = {
        **result["pairwise"],
        "agents": [name(a) for a in result["pairwise"]["agents"]],
    }
    out["records"] = [{**r, "seats": [name(a) for a in r["seats"]]} for r in result["records"]]
    return out


def format_evaluation(result: dict) -> str:
    """The arena table, then the policy's win rate per opponent."""
    lines = [format_table(result), ""]
    for opp, s in result["vs"].items():
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"policy vs {opp:<10} win {s['win_rate']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  "
            f"({s['wins']} wins, {s['draws']} draws, {s['games']} games)"
        )
    return "\n".join(lines)
