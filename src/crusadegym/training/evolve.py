"""Tune a linear evaluation by playing: evolution strategies over game results.

``python -m crusadegym.training.evolve deus_lo_vult --minutes 40 --workers 2``

The fitted value of :mod:`crusadegym.training.valuefit` predicts results better than
the hand-written evaluation yet plays worse: a regression on whole-game results smooths
away the small differences between sibling moves that a lookahead needs. This learner
optimises play directly. Its model is a ``linear``
:class:`~crusadegym.agents.learned_value.LearnedValue`: the hand-written evaluation's
margin plus ``w . [x, turn * x] + b`` over the heuristic's terms ``x`` (normalised), so
it starts as the heuristic and may reweigh every term, and change the weights as the
game nears its end, which the hand-written one cannot.

Each iteration (OpenAI-style evolution strategies, Salimans et al. 2017):

1. draw ``pairs`` directions ``e ~ N(0, I)``;
2. the greedy lookahead with ``theta + sigma e`` and with ``theta - sigma e`` each play
   ``games`` games against the reference player (the hand-written heuristic), each deal
   once from each seat, on the same fresh deals (common random numbers);
3. a candidate's fitness is its mean result (+1 / 0 / -1) plus ``margin_weight`` times
   its mean coin margin (fewer ties in the ranking); fitnesses become centred ranks;
4. ``theta`` moves along ``sum (rank+ - rank-) e / (2 pairs sigma)`` with Adam.

Every ``eval_every`` iterations the current ``theta`` plays ``eval_games`` games on fixed
held-out seeds; the best of those evaluations is ``best.npz``, the last ``value.npz``.
Games run in ``workers`` processes; each compiles its kernels once and swaps weights in
place (:meth:`LearnedValue.set_parameters`). Output under ``--out``: ``value.npz``,
``best.npz``, ``history.json``, ``learning_curve.png``. Use the result with
``mcts:value=PATH`` or ``heuristic:value=PATH``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from crusadegym.agents.heuristics import Heuristic, get_heuristic
from crusadegym.agents.heuristics.lookahead import greedy_action
from crusadegym.agents.learned_value import LearnedValue, feature_module
from crusadegym.agents.options import parse_options
from crusadegym.core import Game, make_game
from crusadegym.errors import UserError
from crusadegym.training.processes import worker_pool

_WORKER: dict = {}
"""Per-process game, model and players (built once by :func:`_init_worker`)."""


def play_games(
    game: Game, learner: Heuristic, reference: Heuristic, seeds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Greedy lookahead with ``learner`` against ``reference``, every seed twice with the
    seats swapped (the deal favours one seat: swapping cancels it). Returns the learner's
    result and its margin of secured coins per game, ``2 * len(seeds)`` games."""
    seeds = np.repeat(np.asarray(seeds, np.int64), 2)
    results, margins = np.zeros(len(seeds)), np.zeros(len(seeds))
    out = np.zeros(game.num_players, np.float32)
    fm = feature_module(game.name)
    own, rival = fm.FEATURE_NAMES.index("own_secured"), fm.FEATURE_NAMES.index("rival_secured")
    rows = np.zeros((2, fm.N_FEATURES))
    for i, seed in enumerate(seeds):
        rng = np.random.default_rng(int(seed))
        seat = i % 2
        players = [reference, reference]
        players[seat] = learner
        state = game.new_state(int(seed))
        while not game.is_terminal(state):
            mover = game.current_player(state)
            game.step(state, greedy_action(game, state, players[mover], rng))
        game.k.returns(state, game.params, out)
        fm.features(state, game.params, rows)
        results[i] = out[seat]
        margins[i] = rows[seat, own] - rows[seat, rival]
    return results, margins


def _init_worker(game_name: str, options: dict, model_path: str) -> None:
    game = make_game(game_name, **options)
    model = LearnedValue.load(model_path)
    _WORKER.update(game=game, model=model, learner=model.heuristic(),
                   reference=get_heuristic(game_name))  # fmt: skip


def _evaluate(job: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    theta, seeds = job
    _WORKER["model"].set_parameters(theta)
    return play_games(_WORKER["game"], _WORKER["learner"], _WORKER["reference"], seeds)


def centred_ranks(x: np.ndarray) -> np.ndarray:
    """Ranks of ``x`` scaled to [-0.5, 0.5] (ties share their mean rank)."""
    order = np.argsort(x, kind="stable")
    ranks = np.empty(len(x))
    ranks[order] = np.arange(len(x), dtype=np.float64)
    for v in np.unique(x):  # equal fitness, equal rank
        ranks[x == v] = ranks[x == v].mean()
    return ranks / max(len(x) - 1, 1) - 0.5


class Adam:
    """Adam on a flat parameter vector (ascent)."""

    def __init__(self, size: int, lr: float, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.lr, self.b1, self.b2 = lr, beta1, beta2
        self.m, self.v, self.t = np.zeros(size), np.zeros(size), 0

    def step(self, gradient: np.ndarray) -> np.ndarray:
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * gradient
        self.v = self.b2 * self.v + (1 - self.b2) * gradient**2
        m_hat = self.m / (1 - self.b1**self.t)
        v_hat = self.v / (1 - self.b2**self.t)
        return self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def es_gradient(
    directions: np.ndarray, plus: np.ndarray, minus: np.ndarray, sigma: float
) -> np.ndarray:
    """The antithetic estimate of the fitness gradient from rank-shaped fitnesses."""
    ranks = centred_ranks(np.concatenate([plus, minus]))
    n = len(plus)
    return (ranks[:n] - ranks[n:]) @ directions / (2 * n * sigma)


def normalisation(game_name: str, options: dict, games: int, seed: int):
    """Mean and scale of the heuristic feature set over heuristic self-play positions."""
    from crusadegym.training.valuefit import play_positions

    data = play_positions(game_name, options, seed, 1e9, 0.1, max_games=games)
    cols = list(feature_module(game_name).FEATURE_SETS["heuristic"])
    x = data["X"][:, cols].astype(np.float64)
    return x.mean(0), x.std(0) + 1e-6


def evolve(args: argparse.Namespace) -> dict:
    """Run the search (see the module docstring); returns the summary."""
    options = {"players": 2, **parse_options(args.option)}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    game = make_game(args.game, **options)
    if game.num_players != 2:
        raise UserError("evolve tunes two-player evaluations: pass -o players=2")
    feature_module(args.game)  # one-line error for a game without features
    mean, scale = normalisation(args.game, options, args.norm_games, args.seed)
    start = LearnedValue.linear(args.game, "heuristic", mean, scale,
                                {"learner": "evolve", "options": options})  # fmt: skip
    if args.resume:
        start.set_parameters(LearnedValue.load(args.resume).parameters)
    start_path = start.save(out / "start.npz")
    theta = start.parameters
    adam = Adam(theta.size, args.lr)
    rng = np.random.default_rng(args.seed)
    deals = (args.games + 1) // 2  # each played from both seats
    eval_seeds = 10_000_000 + np.arange((args.eval_games + 1) // 2)
    history: list[dict] = []
    best = (-np.inf, theta.copy())
    t0 = time.perf_counter()
    init = (args.game, options, str(start_path))
    with worker_pool(args.workers, _init_worker, init) as pool:

        def run(thetas: list[np.ndarray], seeds: np.ndarray) -> list[tuple]:
            return pool.map(_evaluate, [(t, seeds) for t in thetas])

        def evaluate(it: int) -> None:
            """Play the current theta on the held-out deals; keep it if it is the best."""
            nonlocal best
            halves = np.array_split(eval_seeds, args.workers)
            parts = pool.map(_evaluate, [(theta, h) for h in halves])
            res = np.concatenate([p[0] for p in parts])
            mar = np.concatenate([p[1] for p in parts])
            score = float(np.mean((res + 1) / 2))
            history.append({"iteration": it, "eval_score": score,
                            "eval_margin": float(mar.mean()),
                            "seconds": time.perf_counter() - t0})  # fmt: skip
            print(f"[evolve] it {it}: held-out score {score:.3f} "
                  f"(margin {mar.mean():+.2f}) after {time.perf_counter() - t0:.0f} s",
                  flush=True)  # fmt: skip
            if score > best[0]:
                best = (score, theta.copy())

        evaluate(0)
        it = 0
        deadline = t0 + 60 * args.minutes
        while time.perf_counter() < deadline and (args.iterations is None or it < args.iterations):
            it += 1
            e = rng.standard_normal((args.pairs, theta.size))
            seeds = rng.integers(1 << 40, size=deals)
            thetas = [theta + args.sigma * d for d in e] + [theta - args.sigma * d for d in e]
            parts = run(thetas, seeds)
            fit = np.array([r.mean() + args.margin_weight * m.mean() for r, m in parts])
            theta = theta + adam.step(es_gradient(e, fit[: args.pairs], fit[args.pairs :],
                                                  args.sigma))  # fmt: skip
            history.append({"iteration": it, "mean_fitness": float(fit.mean()),
                            "theta_norm": float(np.linalg.norm(theta)),
                            "seconds": time.perf_counter() - t0})  # fmt: skip
            start.set_parameters(theta)
            start.save(out / "value.npz")
            if it % args.eval_every == 0:
                evaluate(it)
        if it % args.eval_every:
            evaluate(it)
    start.set_parameters(theta)
    start.save(out / "value.npz")
    start.set_parameters(best[1])
    start.save(out / "best.npz")
    summary = {
        "game": args.game,
        "options": options,
        "iterations": it,
        "games_played": it * 2 * args.pairs * 2 * deals,
        "seconds": time.perf_counter() - t0,
        "best_eval_score": best[0],
        "config": {k: v for k, v in vars(args).items() if k != "option"},
    }
    (out / "history.json").write_text(json.dumps({"summary": summary, "history": history},
                                                 indent=1))  # fmt: skip
    _plot(history, out / "learning_curve.png")
    return summary


def _plot(history: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ev = [h for h in history if "eval_score" in h]
    tr = [h for h in history if "mean_fitness" in h]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([h["iteration"] for h in ev], [h["eval_score"] for h in ev], "o-",
            label="held-out score vs reference")  # fmt: skip
    if tr:
        f = np.array([h["mean_fitness"] for h in tr])
        ax.plot([h["iteration"] for h in tr], (f + 1) / 2, alpha=0.4,
                label="candidates' mean fitness (rescaled)")  # fmt: skip
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("iteration")
    ax.set_ylabel("score (win 1, draw 1/2)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m crusadegym.training.evolve",
                                 description=__doc__.split("\n\n")[0])  # fmt: skip
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                    help="game option (repeatable), e.g. -o rounds=1 -o max_turns=15")  # fmt: skip
    ap.add_argument("--minutes", type=float, default=10.0, help="wall-clock budget")
    ap.add_argument("--iterations", type=int, default=None, help="stop after this many")
    ap.add_argument("--pairs", type=int, default=12, help="antithetic directions per iteration")
    ap.add_argument("--games", type=int, default=16, help="games per candidate (deals x 2 seats)")
    ap.add_argument("--sigma", type=float, default=0.02, help="perturbation size")
    ap.add_argument("--lr", type=float, default=0.01, help="Adam step size")
    ap.add_argument("--margin-weight", type=float, default=0.05,
                    help="fitness weight of the mean coin margin")  # fmt: skip
    ap.add_argument("--eval-every", type=int, default=5)
    ap.add_argument("--eval-games", type=int, default=128)
    ap.add_argument("--norm-games", type=int, default=100,
                    help="heuristic games whose positions set the input scale")  # fmt: skip
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--resume", default=None, help="start from this linear value (.npz)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/evolve")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for name in ("pairs", "games", "workers", "eval_every", "eval_games", "norm_games"):
        if getattr(args, name) < 1:
            print(f"evolve: --{name.replace('_', '-')} must be >= 1", file=sys.stderr)
            return 2
    try:
        summary = evolve(args)
    except (UserError, ValueError, FileNotFoundError) as e:
        print(f"evolve: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
