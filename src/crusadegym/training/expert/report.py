"""A run's learning curve (``curve.json``) as a markdown table.

``python -m crusadegym.training.expert.report runs/expert/deus/curve.json`` prints one row
per checkpoint: CPU minutes of training, self-play games, gradient steps, and the network
alone's score against each measured opponent (Wilson 95% interval, and how many games
ended at the turn cap, zero included).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def curve_table(curve: dict) -> str:
    """The markdown table of a ``curve.json`` document."""
    points = curve["curve"]
    opponents = list(points[0].get("eval", {})) if points else []
    head = ["CPU min", "self-play games", "gradient steps"] + [f"vs {o}" for o in opponents]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in points:
        cells = [f"{p['minutes']:.1f}", str(p["selfplay_games"]), str(p["gradient_steps"])]
        for o in opponents:
            ev = p.get("eval", {}).get(o)
            if ev is None:
                cells.append("—")
                continue
            lo, hi = ev["score_ci95"]
            cells.append(
                f"{ev['score']:.2f} [{lo:.2f}, {hi:.2f}] "
                f"({ev['games']} games, {ev['cap_endings']} at cap)"
            )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m crusadegym.training.expert.report CURVE.json", file=sys.stderr)
        return 2
    path = Path(args[0])
    if not path.is_file():
        print(f"no curve file at {path}", file=sys.stderr)
        return 2
    print(curve_table(json.loads(path.read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
