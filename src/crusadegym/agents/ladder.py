"""The strength ladder: every game's agents in one round-robin, written into docs/arena.md.

``crusadegym ladder --games 200 --workers 2`` (or ``python -m crusadegym.agents.ladder``)

For each game of :data:`LADDER_GAMES` (or ``--game``, repeatable), at its default config
(:data:`LADDER_OPTIONS`: the Campaign is played from the ``kyivan`` preset), it plays a
round-robin (:func:`crusadegym.agents.arena.run_arena`: seats rotated, seeded games,
OpenSkill Plackett-Luce ratings, Wilson intervals) between

* ``random`` and ``heuristic``;
* ``mcts`` at each budget of ``--budgets`` (iterations per decision, or ``default``: the
  plain ``mcts`` spec at the game's own budget; the game's tuned MCTS options otherwise,
  see ``Heuristic.mcts_defaults``);
* the game's shipped learned agent, if any (:func:`.pretrained.shipped_games`;
  ``--no-shipped`` leaves it out), and every learned agent given as ``--learned GAME=SPEC`` (e.g.
  ``deus_lo_vult=policy:runs/fast/final.zip``);

less the agents named by ``--skip`` (a shortened line-up, for games whose full
round-robin takes hours at the default config: the Duel's MCTS games last minutes).

It writes each game's ``results.json`` (and the arena's plots) under ``--out``, and
replaces the section between :data:`BEGIN` and :data:`END` in ``--doc`` (added at the
end of the file the first time) with, per game, the ratings table, the pairwise table
(wins-losses-draws and score of the row agent over the column agent) and the command
that made it. Every table counts the games the turn cap stopped (per agent and per
pairing: they are no result of the rules) and each agent's milliseconds per decision.
Nothing else in the page changes.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import time

from crusadegym.cli_help import command_parser

from .arena import format_lengths, pin_torch_threads, run_arena, write_results
from .options import parse_options
from .pretrained import shipped_games
from .stats import wilson_interval

LADDER_GAMES = ("deus_lo_vult", "deus_lo_vult_campaign", "deus", "crusaders")
"""The suite's games, in the order the ladder plays and prints them."""

LADDER_OPTIONS: dict[str, dict] = {"deus_lo_vult_campaign": {"preset": "kyivan"}}
"""Options a game is laddered with unless ``-o`` says otherwise (the rest: its defaults)."""

DEFAULT_BUDGET = "default"
"""A ``--budgets`` entry for MCTS at the game's own default budget (the spec ``mcts``)."""

DEFAULT_BUDGETS = (DEFAULT_BUDGET,)
"""MCTS budgets on the ladder: each game's own default (issue #36 measures search there)."""


BEGIN = "<!-- ladder:begin (written by crusadegym ladder; edits here are overwritten) -->"
END = "<!-- ladder:end -->"
HEADING = "## Strength ladder"


def mcts_spec(budget: int | str) -> str:
    """The MCTS spec of one ``--budgets`` entry."""
    return "mcts" if budget == DEFAULT_BUDGET else f"mcts:iterations={budget}"


def parse_budgets(text: str) -> tuple[int | str, ...]:
    """``"default,25,100"`` -> ``("default", 25, 100)``; a one-line error otherwise."""
    budgets: list[int | str] = []
    for item in (b.strip() for b in text.split(",")):
        if item == DEFAULT_BUDGET:
            budgets.append(item)
        elif item.isdigit() and int(item) > 0:
            budgets.append(int(item))
        elif item:
            raise ValueError(f"--budgets takes positive integers or {DEFAULT_BUDGET}, not {item!r}")
    return tuple(budgets)


def ladder_agents(
    game: str,
    budgets: tuple[int | str, ...],
    learned: list[str],
    shipped: bool,
    skip: tuple[str, ...] = (),
) -> list:
    """The agent specs of ``game``'s ladder, weakest kinds first, without those in
    ``skip`` (a shortened line-up: its section's command says so)."""
    agents = ["random", "heuristic", *(mcts_spec(b) for b in budgets)]
    if shipped and game in shipped_games():
        agents.append("pretrained")
    agents += [spec for spec in learned if spec not in agents]
    unknown = [spec for spec in skip if spec not in agents]
    if unknown:
        raise ValueError(f"--skip {','.join(unknown)}: not on {game}'s line-up {agents}")
    kept = [spec for spec in agents if spec not in skip]
    if len(kept) < 2:
        raise ValueError(f"{game}: fewer than two agents left after --skip {','.join(skip)}")
    return kept


def parse_skip(text: str | None) -> tuple[str, ...]:
    """``"random,pretrained"`` -> ``("random", "pretrained")`` (:func:`ladder_agents`
    refuses a name that is not on the line-up)."""
    return tuple(item.strip() for item in (text or "").split(",") if item.strip())


def parse_learned(pairs: list[str] | None) -> dict[str, list[str]]:
    """``["deus_lo_vult=policy:a.zip", ...]`` -> ``{"deus_lo_vult": ["policy:a.zip"]}``."""
    out: dict[str, list[str]] = {}
    for pair in pairs or []:
        game, sep, spec = pair.partition("=")
        if not sep or not game or not spec:
            raise ValueError(
                f"--learned takes GAME=SPEC (e.g. deus_lo_vult=policy:x.zip), got {pair!r}"
            )
        out.setdefault(game, []).append(spec)
    return out


def _label(spec: str) -> str:
    """A short table label: ``policy:runs/x/final.zip`` -> ``policy:x/final.zip`` (and
    the same for ``puct:``, whose options follow the path)."""
    for kind in ("policy:", "puct:"):
        if spec.startswith(kind):
            path, *options = spec.removeprefix(kind).split(":")
            return kind + ":".join(["/".join(path.split(os.sep)[-2:]), *options])
    return spec.replace("mcts:iterations=", "mcts-")


def pair_counts(records: list[dict], a: str, b: str) -> tuple[int, int, int]:
    """Wins, losses and draws of ``a`` against ``b`` over the games with both."""
    w = l_ = d = 0
    for rec in records:
        if a not in rec["seats"] or b not in rec["seats"]:
            continue
        ra = max(r for s, r in zip(rec["seats"], rec["returns"], strict=True) if s == a)
        rb = max(r for s, r in zip(rec["seats"], rec["returns"], strict=True) if s == b)
        w += ra > rb
        l_ += ra < rb
        d += ra == rb
    return w, l_, d


def game_section(result: dict, command: str) -> str:
    """The Markdown for one game's ladder: ratings table, pairwise table, timing."""
    agents = sorted(result["agents"], key=lambda a: -result["ratings"][a]["ordinal"])
    lines = [f"### {result['game']}", "", "```bash", command, "```", ""]
    t = result["timing"]
    total = len(result["records"])
    lines += [
        f"Options {result['options'] or '{}'} (the game's defaults otherwise), "
        f"{result['players']} players, {result['games_per_lineup']} games per pairing, seats "
        f"alternating, seed {result['seed']}; {total} games in "
        f"{t['seconds']:.0f} s with {t['workers']} worker(s), {t['mean_steps']:.0f} steps per "
        f"game. **{result['cap_endings']} of {total} games ended at the turn cap**"
        f"{format_lengths(result.get('natural_lengths'))}.",
        "",
        "| agent | games | win rate | 95% Wilson CI | mean margin | OpenSkill mu ± sigma "
        "| ordinal | at cap | ms per decision |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for a in agents:
        s, r = result["summary"][a], result["ratings"][a]
        lo, hi = s["win_rate_ci95"]
        ms = t["seconds_per_move"].get(a)
        lines.append(
            f"| {_label(a)} | {s['games']} | {s['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | "
            f"{s['mean_margin']:+.2f} | {r['mu']:.1f} ± {r['sigma']:.1f} | {r['ordinal']:.1f} | "
            f"{s['cap_endings']} | {'' if ms is None else f'{ms * 1e3:.2f}'} |"
        )
    lines += ["", "Pairwise: wins-losses-draws of the row agent against the column agent, "
              "its score (win 1, draw 1/2), the score's 95% Wilson interval, and how many "
              "of those games ended at the turn cap.", ""]  # fmt: skip
    pairwise = result["pairwise"]
    index = {a: i for i, a in enumerate(pairwise["agents"])}
    lines.append("| | " + " | ".join(_label(a) for a in agents) + " |")
    lines.append("|---" * (len(agents) + 1) + "|")
    for a in agents:
        cells = []
        for b in agents:
            if a == b:
                cells.append("—")
                continue
            w, l_, d = pair_counts(result["records"], a, b)
            n = w + l_ + d
            if n == 0:
                cells.append("")
                continue
            lo, hi = wilson_interval(w + d / 2, n)
            capped = pairwise["cap_endings"][index[a]][index[b]]
            cells.append(
                f"{w}-{l_}-{d}, {(w + d / 2) / n:.2f} [{lo:.2f}, {hi:.2f}], {capped} at cap"
            )
        lines.append(f"| **{_label(a)}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _game_marks(game: str) -> tuple[str, str]:
    return f"<!-- ladder:{game} -->", f"<!-- /ladder:{game} -->"


def read_sections(block: str) -> dict[str, str]:
    """The per-game sections already in a ladder block."""
    found = {}
    for game in re.findall(r"<!-- ladder:(\w+) -->", block):
        start, stop = _game_marks(game)
        if stop in block:
            found[game] = block.split(start, 1)[1].split(stop, 1)[0].strip("\n")
    return found


def write_doc(path: str, sections: dict[str, str], header: str) -> None:
    """Put ``sections`` (game -> Markdown) into the ladder block of ``path``.

    Games not in ``sections`` keep what the block already had; the block is added under
    :data:`HEADING` at the end of the page the first time. Nothing outside it changes.
    """
    text = open(path).read() if os.path.isfile(path) else "# Agents and the arena\n"
    old = ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        old, tail = rest.split(END, 1)
    else:
        head, tail = text.rstrip("\n") + f"\n\n{HEADING}\n\n", "\n"
    merged = {**read_sections(old), **sections}
    parts = [BEGIN, header]
    order = [g for g in LADDER_GAMES if g in merged] + sorted(set(merged) - set(LADDER_GAMES))
    for game in order:
        start, stop = _game_marks(game)
        parts.append(f"{start}\n{merged[game]}\n{stop}")
    with open(path, "w") as f:
        f.write(head + "\n\n".join(parts) + "\n" + END + tail)


def game_command(args: argparse.Namespace, game: str) -> str:
    """The command that regenerates ``game``'s section alone."""
    argv = [
        "crusadegym",
        "ladder",
        "--game",
        game,
        "--games",
        str(args.games),
        "--budgets",
        args.budgets,
        "--seed",
        str(args.seed),
        "--workers",
        str(args.workers),
    ]
    for pair in args.learned or []:
        if pair.startswith(game + "="):
            argv += ["--learned", pair]
    for pair in args.option or []:
        if pair.startswith(game + ":"):
            argv += ["-o", pair]
    if args.no_shipped:
        argv.append("--no-shipped")
    if args.skip:
        argv += ["--skip", args.skip]
    return shlex.join(argv)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym ladder", __doc__)
    p.add_argument(
        "--game",
        action="append",
        help=f"a game to rate (repeatable; default: all of {', '.join(LADDER_GAMES)})",
    )
    p.add_argument("--games", type=int, default=200, help="games per pairing")
    p.add_argument(
        "--budgets",
        default=",".join(map(str, DEFAULT_BUDGETS)),
        help="MCTS iterations per decision, comma-separated; 'default': the game's own budget",
    )
    p.add_argument(
        "--learned",
        action="append",
        metavar="GAME=SPEC",
        help="a learned agent for one game, e.g. deus_lo_vult=policy:runs/x/final.zip",
    )
    p.add_argument("--no-shipped", action="store_true", help="leave out the shipped policy")
    p.add_argument(
        "--skip",
        metavar="SPECS",
        help="leave these agents out, comma-separated (e.g. random): a shortened line-up for "
        "games whose full round-robin is hours long; the section's command says so",
    )
    p.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="GAME:KEY=VALUE",
        help="a game option for one game, e.g. deus_lo_vult:max_turns=15",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", default="runs/ladder", help="directory for each game's results")
    p.add_argument("--doc", default="docs/arena.md", help="the page to write the ladder into")
    p.add_argument("--no-doc", action="store_true", help="print the tables, leave the page alone")
    p.add_argument("--quiet", action="store_true")
    return p  # fmt: skip


def game_options(pairs: list[str] | None, game: str) -> dict:
    """The ``-o GAME:KEY=VALUE`` options of ``game``."""
    mine = []
    for pair in pairs or []:
        name, sep, option = pair.partition(":")
        if not sep or not name:
            raise ValueError(f"-o takes GAME:KEY=VALUE (deus_lo_vult:max_turns=15), not {pair!r}")
        if name == game:
            mine.append(option)
    return parse_options(mine)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    games = args.game or list(LADDER_GAMES)
    try:
        budgets = parse_budgets(args.budgets)
        learned = parse_learned(args.learned)
        skip = parse_skip(args.skip)
        sections: dict[str, str] = {}
        for game in games:
            agents = ladder_agents(game, budgets, learned.get(game, []), not args.no_shipped,
                                   skip)  # fmt: skip
            options = {**LADDER_OPTIONS.get(game, {}), **game_options(args.option, game)}
            pin_torch_threads(agents, 1)
            result = run_arena(game, agents, games_per_lineup=args.games, seed=args.seed,
                               options=options, workers=args.workers,
                               progress=not args.quiet)  # fmt: skip
            write_results(result, os.path.join(args.out, game), plots=False)
            sections[game] = game_section(result, game_command(args, game))
            print(sections[game], "\n", flush=True)
    except (KeyError, ValueError, TypeError) as e:
        print(f"crusadegym ladder: {e}", file=sys.stderr)
        return 2
    if not args.no_doc:
        stamp = time.strftime("%Y-%m-%d", time.gmtime())
        header = (
            "Every game's agents in one round-robin, regenerated by `crusadegym ladder` (all "
            "games, 200 games per pairing; `src/crusadegym/agents/ladder.py`) or by the "
            f"per-game command above each table. Last written {stamp} ({', '.join(games)})."
        )
        write_doc(args.doc, sections, header)
        print(f"wrote {args.doc}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
