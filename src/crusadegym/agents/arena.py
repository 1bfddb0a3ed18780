"""The arena: tournaments between agents on any game and player count, with ratings.

``crusadegym arena deus_lo_vult --agents random,heuristic,mcts --games 20 --out runs/arena``

* **Line-ups.** ``round-robin``: every set of ``players`` distinct agents (with
  repeats only when there are fewer agents than seats); ``gauntlet``: the first
  agent against every line-up of the others.
* **Seats rotated.** Game ``g`` of a line-up seats it rotated by ``g mod players``,
  so over ``players`` games every agent plays every seat once.
* **Reproducible.** Game ``t`` of the schedule gets its game seed and one seed per
  seat from ``SeedSequence([seed, t, ...])``, and agents are built fresh per game,
  so results do not depend on worker count or order (time-budgeted MCTS aside).
* **Results** (:mod:`.stats`): win rate with 95% Wilson interval, mean return
  margin, pairwise scores and OpenSkill Plackett-Luce ratings; ``results.json``
  plus ``arena_ratings.png`` and ``arena_pairwise.png`` in ``--out``. Ratings and plots
  need the ``arena`` extra (openskill, matplotlib); without it the command prints the
  rest and one line saying how to add them.
* **Cap endings** are counted everywhere: a game the config's turn cap stopped is no
  result of the rules, so the table has an "at cap" column, the command prints how
  many games the cap stopped, and ``results.json`` holds ``cap_endings`` in all, per
  agent (``summary``) and per pairing (``pairwise.cap_endings``); the games that ended by
  the rules give the natural game length in turns a seat (``natural_lengths``, in all and
  per agent: median, 99th percentile, longest).
* **Parallel** games with ``--workers N`` (a fork-based process pool).
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import os
import sys
import time
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from crusadegym.cli_help import command_parser
from crusadegym.core import Game
from crusadegym.core.records import save_replay

from .base import select_action
from .options import make_game_with_players, parse_options, with_preset
from .registry import make_agent
from .stats import (
    agent_summary,
    cap_endings,
    natural_lengths,
    natural_lengths_per_agent,
    openskill_ratings,
    pairwise_scores,
)

MODES = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: who sits where and every seed it needs."""

    index: int
    lineup: int
    seats: tuple[str, ...]
    game_seed: int
    agent_seeds: tuple[int, ...]


def lineups(agents: list[str], players: int, mode: str = "round-robin") -> list[tuple[str, ...]]:
    """The line-ups (agent per seat, before rotation) a tournament plays."""
    if len(set(agents)) != len(agents):
        raise ValueError(f"agent names must be distinct, got {agents}")
    if len(agents) < 2:
        raise ValueError("a tournament needs at least two agents")
    if mode == "round-robin":
        if len(agents) >= players:
            return list(itertools.combinations(agents, players))
        combos = itertools.combinations_with_replacement(agents, players)
        return [c for c in combos if len(set(c)) > 1]
    if mode == "gauntlet":
        hero, others = agents[0], agents[1:]
        return [(hero, *c) for c in itertools.combinations_with_replacement(others, players - 1)]
    raise ValueError(f"unknown mode {mode!r}; choose from {MODES}")


def _seed(*entropy: int) -> int:
    return int(np.random.SeedSequence(list(entropy)).generate_state(1, np.uint64)[0] >> 2)


def schedule(
    agents: list[str], players: int, games_per_lineup: int, seed: int, mode: str = "round-robin"
) -> list[GameTask]:
    """Every game of the tournament, seats rotated, seeds derived from ``seed``."""
    if games_per_lineup < 1:
        raise ValueError(f"games per line-up must be >= 1, got {games_per_lineup}")
    tasks = []
    for li, lineup in enumerate(lineups(agents, players, mode)):
        for g in range(games_per_lineup):
            r = g % players
            t = len(tasks)
            seats = lineup[r:] + lineup[:r]
            tasks.append(
                GameTask(
                    index=t,
                    lineup=li,
                    seats=seats,
                    game_seed=_seed(seed, t),
                    agent_seeds=tuple(_seed(seed, t, s + 1) for s in range(players)),
                )
            )
    return tasks


def play_out(
    game: Game,
    agents: list,
    state: np.ndarray,
    actions: list[int] | None = None,
    clock: np.ndarray | None = None,
) -> int:
    """Play ``state`` to the end in place with ``agents[seat]``; return the steps played.

    ``actions``, when given, receives every action played (to save a replay);
    ``clock``, a ``[players, 2]`` float array, gets each seat's thinking seconds and
    decisions added (the wall-clock time of its ``select_action`` calls).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    steps = 0
    while not game.is_terminal(state):
        if steps > game.max_steps:
            raise RuntimeError(f"{game.name} did not end within max_steps={game.max_steps}")
        seat = game.current_player(state)
        start = time.perf_counter()
        action = select_action(agents[seat], game, state)
        if clock is not None:
            clock[seat, 0] += time.perf_counter() - start
            clock[seat, 1] += 1
        game.step(state, action)
        if actions is not None:
            actions.append(action)
        steps += 1
    return steps


def play_game(game: Game, agents: list, seed: int, replay_path: str | None = None) -> dict:
    """Play one game from ``seed`` with ``agents[seat]``; return its record.

    ``replay_path``: also save the game there as a replay (:mod:`crusadegym.core.records`).
    """
    state = game.new_state(seed)
    actions: list[int] | None = None if replay_path is None else []
    clock = np.zeros((game.num_players, 2))
    steps = play_out(game, agents, state, actions, clock)
    if replay_path is not None:
        note = "arena seats: " + ",".join(getattr(a, "name", "?") for a in agents)
        save_replay(replay_path, game, seed, actions, final_state=state, note=note)
    turn_slot = game.spec.turn_slot
    return {
        "returns": [float(x) for x in game.returns(state)],
        "steps": steps,
        "truncated": game.is_truncated(state),
        "turns": int(state[turn_slot]) if turn_slot >= 0 else None,
        "think_seconds": [float(x) for x in clock[:, 0]],
        "decisions": [int(x) for x in clock[:, 1]],
    }


_WORKER_GAMES: dict[tuple, Game] = {}


def fork_worker_init() -> None:
    """Keep a forked worker's torch single-threaded.

    A worker forked from a process whose torch already ran (the policy agents are
    loaded once up front to fail fast on bad specs) inherits a dead OpenMP thread
    pool and hangs in its first multi-threaded op; one thread never enters it.
    """
    import sys

    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def _run_task(job: tuple) -> dict:
    """Play one scheduled game (in this process or a pool worker).

    ``job`` is ``(game name, options, task)`` or, to keep a replay of the game,
    ``(game name, options, task, replay directory)``.
    """
    name, options, task, *save_dir = job
    key = (name, tuple(sorted(options.items())))
    if key not in _WORKER_GAMES:
        _WORKER_GAMES[key] = make_game_with_players(name, len(task.seats), options)
    game = _WORKER_GAMES[key]
    agents = [make_agent(s, seed) for s, seed in zip(task.seats, task.agent_seeds, strict=True)]
    start = time.perf_counter()
    replay_path = None
    if save_dir and save_dir[0] is not None:
        replay_path = os.path.join(save_dir[0], f"game{task.index:05d}.json")
    record = play_game(game, agents, task.game_seed, replay_path)
    return {
        "index": task.index,
        "lineup": task.lineup,
        "seats": list(task.seats),
        "seed": task.game_seed,
        **record,
        "seconds": time.perf_counter() - start,
    }


def seconds_per_move(records: list[dict], agents: list[str]) -> dict[str, float | None]:
    """Per agent: its mean wall-clock seconds per decision over every seat it played."""
    out: dict[str, float | None] = {}
    for name in agents:
        spent = moves = 0.0
        for rec in records:
            for seat, who in enumerate(rec["seats"]):
                if who == name:
                    spent += rec["think_seconds"][seat]
                    moves += rec["decisions"][seat]
        out[name] = spent / moves if moves else None
    return out


def run_arena(
    game_name: str,
    agents: list[str],
    games_per_lineup: int = 10,
    players: int = 2,
    seed: int = 0,
    mode: str = "round-robin",
    options: dict | None = None,
    workers: int = 1,
    progress: bool = True,
    save_replays: str | None = None,
    ratings: bool | None = True,
) -> dict:
    """Run a tournament and return its results (see the module docstring).

    Everything but the ``timing`` entry and the per-game ``seconds`` and
    ``think_seconds`` (each seat's thinking time; ``decisions`` counts its moves) is a pure
    function of the arguments (with iteration-budgeted agents).

    ``ratings``: ``True`` needs openskill (the ``arena`` extra) and checks for it before
    any game is played; ``None`` rates when openskill is installed and otherwise leaves
    ``result["ratings"]`` ``None`` (win rates and their Wilson intervals stay); ``False``
    never rates.
    """
    options = dict(options or {})
    if ratings:  # required: fail before playing, naming the extra that installs openskill
        import openskill  # noqa: F401
    elif ratings is None:
        ratings = openskill_installed()
    make_game_with_players(game_name, players, options)  # fail fast on bad options
    for spec in agents:  # fail fast on bad agent specs
        make_agent(spec)
    tasks = schedule(agents, players, games_per_lineup, seed, mode)
    if save_replays is not None:
        os.makedirs(save_replays, exist_ok=True)
    jobs = [(game_name, options, t, save_replays) for t in tasks]
    start = time.perf_counter()
    bar = tqdm(total=len(jobs), desc=f"arena {game_name}", unit="game", disable=not progress)
    if workers > 1:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else None)
        with ctx.Pool(workers, initializer=fork_worker_init) as pool:
            records = []
            for rec in pool.imap_unordered(_run_task, jobs):
                records.append(rec)
                bar.update()
    else:
        records = []
        for job in jobs:
            records.append(_run_task(job))
            bar.update()
    bar.close()
    seconds = time.perf_counter() - start
    records.sort(key=lambda r: r["index"])
    return {
        "game": game_name,
        "options": options,
        "players": players,
        "agents": list(agents),
        "mode": mode,
        "games_per_lineup": games_per_lineup,
        "seed": seed,
        "cap_endings": cap_endings(records),
        "natural_lengths": natural_lengths(records),
        "natural_lengths_per_agent": natural_lengths_per_agent(records, agents),
        "summary": agent_summary(records, agents),
        "ratings": openskill_ratings(records, agents) if ratings else None,
        "pairwise": pairwise_scores(records, agents),
        "records": records,
        "timing": {
            "seconds": seconds,
            "workers": workers,
            "games_per_second": len(records) / seconds if seconds > 0 else None,
            "mean_steps": float(np.mean([r["steps"] for r in records])),
            "seconds_per_move": seconds_per_move(records, agents),
        },
    }


RATINGS_HINT = (
    "no ratings: openskill is not installed; add them with `pip install 'crusadegym[arena]'`"
)
"""The one line the arena prints when it ran without ratings."""


def openskill_installed() -> bool:
    """Whether the ratings can be computed (openskill, of the ``arena`` extra, imports)."""
    try:
        import openskill  # noqa: F401
    except ImportError:
        return False
    return True


def plots_installed() -> bool:
    """Whether matplotlib (of the ``arena`` extra) imports, for the two plots."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def format_table(result: dict) -> str:
    """A plain-text summary table: one row per agent, best rating first (without
    ratings: best win rate first, and no mu/sigma columns)."""
    ratings = result.get("ratings")
    if ratings:
        rows = sorted(result["agents"], key=lambda a: -ratings[a]["ordinal"])
    else:
        rows = sorted(result["agents"], key=lambda a: -result["summary"][a]["win_rate"])
    width = max(8, *(len(a) for a in rows))
    rated = "    mu     sigma" if ratings else ""
    lines = [f"{'agent':<{width}}  games  win rate  95% CI          margin{rated}  at cap"]
    for a in rows:
        s = result["summary"][a]
        lo, hi = s["win_rate_ci95"]
        mu = f"  {ratings[a]['mu']:>6.2f}  {ratings[a]['sigma']:>5.2f}" if ratings else ""
        lines.append(
            f"{a:<{width}}  {s['games']:>5}  {s['win_rate']:>8.3f}  [{lo:.3f}, {hi:.3f}]  "
            f"{s['mean_margin']:>+6.3f}{mu}  {s['cap_endings']:>6}"
        )
    return "\n".join(lines)


def format_cap_endings(result: dict) -> str:
    """One line: how many games the turn cap stopped (they are no result of the rules)."""
    n, capped = len(result["records"]), result["cap_endings"]
    line = f"{capped} of {n} games ended at the turn cap"
    line += " (scored as they stood; not a result of the rules)" if capped else ""
    return line + format_lengths(result["natural_lengths"])


def format_lengths(lengths: dict | None) -> str:
    """``; the N that ended by the rules lasted p50 X, p99 Y, max Z turns a seat``."""
    if not lengths or not lengths["games"]:
        return ""
    return (
        f"; the {lengths['games']} that ended by the rules lasted {lengths['p50']:.0f} "
        f"(median), {lengths['p99']:.0f} (99th percentile), {lengths['max']:.0f} (longest) "
        "turns a seat"
    )


def write_results(result: dict, out_dir: str, plots: bool = True) -> list[str]:
    """Write ``results.json`` (and the two plots) into ``out_dir``; return the paths."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "results.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
    paths = [path]
    if plots:
        from .plots import plot_pairwise, plot_ratings

        if result.get("ratings"):
            paths.append(plot_ratings(result, os.path.join(out_dir, "arena_ratings.png")))
        paths.append(plot_pairwise(result, os.path.join(out_dir, "arena_pairwise.png")))
    return paths


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym arena", __doc__)
    p.add_argument("game", help="game name, e.g. deus_lo_vult")
    p.add_argument("--agents", default="random,heuristic,mcts",
                   help="comma-separated agent specs (random, heuristic, mcts[:key=value...], "
                        "policy:PATH.zip)")  # fmt: skip
    p.add_argument("--games", type=int, default=10, help="games per line-up")
    p.add_argument("--players", type=int, default=2, help="seats per game")
    p.add_argument("--mode", choices=MODES, default="round-robin")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="parallel games (processes)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="game option, repeatable (e.g. -o rounds=1)")  # fmt: skip
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a Deus lo Vult Campaign preset by name, e.g. kyivan (the same as "
                        "-o preset=NAME)")  # fmt: skip
    p.add_argument("--out", default=None, help="directory for results.json and plots")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--save-replays", default=None, metavar="DIR",
                   help="keep every game as a replay file DIR/gameNNNNN.json (NNNNN: the "
                        "index in results.json); watch with crusadegym replay")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch CPU threads of policy agents played in this process "
                        "(one-position inference gains nothing from more, and two runs "
                        "sharing the cores with more were measured 10x slower)")  # fmt: skip
    return p


def format_move_times(per_agent: dict[str, float | None]) -> str:
    """One line: each agent's mean thinking time per decision, in milliseconds."""
    parts = [f"{a} {v * 1e3:.2f}" for a, v in per_agent.items() if v is not None]
    return "ms per decision: " + ", ".join(parts)


def pin_torch_threads(specs: list[str], threads: int) -> None:
    """Give torch ``threads`` CPU threads when a ``policy:`` or ``puct:`` agent plays here."""
    if threads < 1:
        raise ValueError(f"--torch-threads must be >= 1, got {threads}")
    if any(spec.startswith(("policy:", "puct:")) for spec in specs):
        import torch

        torch.set_num_threads(threads)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    specs = [a for a in args.agents.split(",") if a]
    try:
        pin_torch_threads(specs, args.torch_threads)
        result = run_arena(
            args.game,
            specs,
            games_per_lineup=args.games,
            players=args.players,
            seed=args.seed,
            mode=args.mode,
            options=with_preset(parse_options(args.option), args.preset),
            workers=args.workers,
            progress=not args.quiet,
            save_replays=args.save_replays,
            ratings=None,  # win rates without openskill; ratings when it is installed
        )
    except (KeyError, ValueError, TypeError) as e:
        print(f"crusadegym arena: {e}", file=sys.stderr)
        return 2
    print(format_table(result))
    if result["ratings"] is None:
        print(RATINGS_HINT)
    t = result["timing"]
    n = len(result["records"])
    print(f"{n} games in {t['seconds']:.1f} s, mean {t['mean_steps']:.0f} steps per game")
    print(format_cap_endings(result))
    print(format_move_times(t["seconds_per_move"]))
    if args.out:
        plots = not args.no_plots and plots_installed()
        if not args.no_plots and not plots:
            print("no plots: matplotlib is not installed; add them with "
                  "`pip install 'crusadegym[arena]'`")  # fmt: skip
        for path in write_results(result, args.out, plots=plots):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
