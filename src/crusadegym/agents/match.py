"""``crusadegym play``: a short match between built-in agents, printed as it ends.

``crusadegym play`` plays two games of Deus lo Vult (2 players, random vs
heuristic), printing each final board and the scores. Options choose the game,
the agents (one spec per seat, or two specs rotated over the seats), the number
of games and the seed; ``-o key=value`` passes game options.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from .arena import play_out
from .options import make_game_with_players, parse_options
from .registry import make_agent


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crusadegym play", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="deus_lo_vult")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--agents", default="random,heuristic",
                   help="comma-separated agent specs, rotated over the seats "
                        "(default: %(default)s)")  # fmt: skip
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="game option, repeatable (e.g. -o rounds=1)")  # fmt: skip
    p.add_argument("--no-board", action="store_true", help="do not print the final boards")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    specs = [a for a in args.agents.split(",") if a]
    try:
        if args.games < 1 or not specs:
            raise ValueError("need --games >= 1 and at least one agent")
        game = make_game_with_players(args.game, args.players, parse_options(args.option))
        for spec in specs:
            make_agent(spec)
    except (KeyError, ValueError, TypeError) as e:
        print(f"crusadegym play: {e}", file=sys.stderr)
        return 2
    totals: dict[str, list[float]] = {s: [] for s in specs}
    for g in range(args.games):
        seats = [specs[(g + s) % len(specs)] for s in range(game.num_players)]
        agents = [make_agent(spec, args.seed * 1000 + 10 * g + s) for s, spec in enumerate(seats)]
        start = time.perf_counter()
        seed = args.seed * 1000 + g
        state = game.new_state(seed)
        steps = play_out(game, agents, state)
        elapsed = time.perf_counter() - start
        print(f"=== game {g + 1}/{args.games} (seed {seed}): {steps} steps, {elapsed:.1f} s"
              + (", truncated" if game.is_truncated(state) else ""))  # fmt: skip
        if not args.no_board:
            print(game.render(state))
        for s, (spec, r) in enumerate(zip(seats, game.returns(state), strict=True)):
            print(f"  seat {s}: {spec:<12} return {r:+.0f}")
            totals[spec].append(r)
    print("=== mean return per agent")
    for spec, rs in totals.items():
        if rs:
            print(f"  {spec:<12} {np.mean(rs):+.2f} over {len(rs)} seat(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
