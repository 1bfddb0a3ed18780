"""Tournament statistics: win rates with Wilson intervals, margins, pairwise scores, ratings.

Inputs are plain game records: ``{"seats": [agent name per seat], "returns":
[final return per seat], ...}`` (as the arena writes them). Definitions:

* **win**: the seat's return is the highest and not every seat has the same
  return (shared first places all count as wins); **draw**: all returns equal.
* **margin**: the seat's return minus the mean return of the other seats.
* **pairwise score** of A over B: over every game with A and B in different
  seats, 1 if A's return beats B's, 0.5 if equal, 0 if lower (averaged).
* **cap ending**: a game the config's turn cap stopped (``"truncated"`` in its record):
  scored like any other by the game, but not a result of the rules, so every table
  counts them (per agent and per pairing) beside the scores.
* **rating**: OpenSkill Plackett-Luce (Weng & Lin, 2011) on the finishing order,
  games processed in record order. ``ordinal = mu - 3 sigma`` is the
  conservative skill. An agent in several seats of one game is rated once, by
  its best finish.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (``(0, 1)`` when ``trials == 0``)."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


def seat_outcomes(returns: list[float]) -> list[str]:
    """``"win"``, ``"draw"`` or ``"loss"`` per seat (see the module docstring)."""
    r = np.asarray(returns, np.float64)
    if np.all(r == r[0]):
        return ["draw"] * len(r)
    best = r.max()
    return ["win" if x == best else "loss" for x in r]


def agent_summary(records: list[dict], agents: list[str]) -> dict[str, dict]:
    """Per agent: games, wins, draws, win rate with Wilson 95% CI, mean margin, and how many
    of its games ended at the turn cap."""
    out = {}
    for name in agents:
        games = wins = draws = capped = 0
        margins = []
        for rec in records:
            outcomes = seat_outcomes(rec["returns"])
            r = np.asarray(rec["returns"], np.float64)
            for seat, who in enumerate(rec["seats"]):
                if who != name:
                    continue
                games += 1
                capped += ended_at_cap(rec)
                wins += outcomes[seat] == "win"
                draws += outcomes[seat] == "draw"
                others = np.delete(r, seat)
                margins.append(float(r[seat] - others.mean()))
        lo, hi = wilson_interval(wins, games)
        out[name] = {
            "games": games,
            "wins": wins,
            "draws": draws,
            "win_rate": wins / games if games else 0.0,
            "win_rate_ci95": [lo, hi],
            "mean_margin": float(np.mean(margins)) if margins else 0.0,
            "cap_endings": capped,
        }
    return out


def ended_at_cap(rec: dict) -> bool:
    """Whether a game record's game was stopped by the turn cap (``"truncated"``)."""
    return bool(rec.get("truncated", False))


def cap_endings(records: list[dict]) -> int:
    """How many of the games ended at the turn cap."""
    return sum(ended_at_cap(rec) for rec in records)


def natural_lengths(records: list[dict]) -> dict | None:
    """Turns per seat of the games that ended by the rules (``"turns"`` in a record counts
    all seats' turns): how many, and the 50th and 99th percentiles and the longest. ``None``
    when the records count no turns (a game without a turn counter)."""
    counted = [rec for rec in records if rec.get("turns") is not None]
    if not counted:
        return None
    turns = [rec["turns"] / len(rec["seats"]) for rec in counted if not ended_at_cap(rec)]
    if not turns:
        return {"games": 0, "p50": None, "p99": None, "max": None}
    p50, p99 = np.percentile(turns, [50, 99])
    return {"games": len(turns), "p50": float(p50), "p99": float(p99), "max": float(max(turns))}


def natural_lengths_per_agent(records: list[dict], agents: list[str]) -> dict:
    """:func:`natural_lengths` over the games each agent played."""
    return {a: natural_lengths([rec for rec in records if a in rec["seats"]]) for a in agents}


def pairwise_scores(records: list[dict], agents: list[str]) -> dict:
    """Matrix ``score[i][j]`` of agent i over agent j (None without games), the counts of
    games, and of those that ended at the turn cap (``cap_endings[i][j]``)."""
    n = len(agents)
    index = {a: i for i, a in enumerate(agents)}
    total = np.zeros((n, n))
    count = np.zeros((n, n), np.int64)
    capped = np.zeros((n, n), np.int64)
    for rec in records:
        r = rec["returns"]
        for s, a in enumerate(rec["seats"]):
            for t, b in enumerate(rec["seats"]):
                if s == t or a == b:
                    continue
                i, j = index[a], index[b]
                total[i, j] += 1.0 if r[s] > r[t] else 0.5 if r[s] == r[t] else 0.0
                count[i, j] += 1
                capped[i, j] += ended_at_cap(rec)
    score = [
        [float(total[i, j] / count[i, j]) if count[i, j] else None for j in range(n)]
        for i in range(n)
    ]
    return {
        "agents": list(agents),
        "score": score,
        "games": count.tolist(),
        "cap_endings": capped.tolist(),
    }


def finishing_ranks(seats: list[str], returns: list[float]) -> dict[str, int]:
    """Rank per distinct agent (1 = best; ties share a rank), by its best seat."""
    best: dict[str, float] = {}
    for who, r in zip(seats, returns, strict=True):
        best[who] = max(best.get(who, -math.inf), float(r))
    return {who: 1 + sum(v > r for v in best.values()) for who, r in best.items()}


def openskill_ratings(records: list[dict], agents: list[str]) -> dict[str, dict]:
    """OpenSkill Plackett-Luce ratings after all records: mu, sigma, ordinal per agent."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for rec in records:
        ranks = finishing_ranks(rec["seats"], rec["returns"])
        names = list(ranks)
        new = model.rate([[ratings[a]] for a in names], ranks=[ranks[a] for a in names])
        for a, team in zip(names, new, strict=True):
            ratings[a] = team[0]
    return {
        a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3.0 * r.sigma}
        for a, r in ratings.items()
    }
