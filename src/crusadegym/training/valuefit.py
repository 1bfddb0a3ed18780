"""Fit a learned evaluation (:mod:`crusadegym.agents.learned_value`) from self-play.

1. **Games.** ``--workers`` processes play the heuristic against itself for
   ``--minutes``, each move the greedy lookahead's except, with probability
   ``--epsilon``, a uniformly random legal one (so the data also holds the kind of
   positions a search visits off the greedy line). Every position is recorded for both
   seats: the seat's feature row and the game's final result for that seat (win +1,
   draw 0, loss -1).
2. **Fit.** A ``[n_in, hidden, hidden, 1]`` tanh network by mean squared error on the
   results (with ``--residual``, added to the heuristic's own margin before the final
   ``tanh``, starting from the heuristic's value), a tenth of the *games* held out; the
   held-out error is reported beside a constant predictor's, and the epoch with the best
   held-out error is kept.
3. **Output** (``--out``): ``value.npz`` (load with ``mcts:value=PATH`` in the arena),
   ``data.npz`` (the positions, reusable with ``--data``) and ``summary.json``.

    python -m crusadegym.training.valuefit deus_lo_vult --features heuristic \\
        --minutes 10 --workers 2 -o rounds=1 -o max_turns=15 --out runs/value-heuristic
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from crusadegym.agents.heuristics import get_heuristic
from crusadegym.agents.heuristics.lookahead import greedy_action
from crusadegym.agents.learned_value import LearnedValue, feature_module
from crusadegym.agents.options import parse_options
from crusadegym.core import make_game
from crusadegym.training.processes import worker_pool


def play_positions(
    game_name: str,
    options: dict,
    seed: int,
    seconds: float,
    epsilon: float,
    max_games: int | None = None,
) -> dict[str, np.ndarray]:
    """Heuristic self-play with ``epsilon``-random moves for ``seconds`` (or ``max_games``
    games, whichever ends first): feature rows ``X``, results ``Y`` and game ids ``G``
    (seeds ``seed * 1_000_000 + i``)."""
    game = make_game(game_name, **options)
    if game.num_players != 2:
        raise ValueError("learned evaluations are two-player: pass -o players=2")
    fm = feature_module(game_name)
    heuristic = get_heuristic(game_name)
    rng = np.random.default_rng(seed)
    mask = np.zeros(game.num_actions, np.uint8)
    pair = np.zeros((2, fm.N_FEATURES), np.float64)
    result = np.zeros(2, np.float32)
    xs, ys, gs = [], [], []
    deadline, g = time.perf_counter() + seconds, 0
    while time.perf_counter() < deadline and (max_games is None or g < max_games):
        state = game.new_states(np.array([seed * 1_000_000 + g], np.int64))[0]
        rows, seats = [], []
        while not game.is_terminal(state):
            fm.features(state, game.params, pair)
            rows.extend(pair.copy())
            seats.extend((0, 1))
            if rng.random() < epsilon:
                game.k.legal_mask(state, game.params, mask)
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = greedy_action(game, state, heuristic, rng)
            game.step(state, action)
        game.k.returns(state, game.params, result)
        xs.extend(rows)
        ys.extend(result[s] for s in seats)
        gs.extend([seed * 1_000_000 + g] * len(rows))
        g += 1
    return {
        "X": np.array(xs, np.float32).reshape(-1, fm.N_FEATURES),
        "Y": np.array(ys, np.float32),
        "G": np.array(gs, np.int64),
    }


def _play(job: tuple) -> dict[str, np.ndarray]:
    return play_positions(*job)


def collect(
    game_name: str, options: dict, seconds: float, workers: int, epsilon: float, seed: int
) -> dict[str, np.ndarray]:
    """:func:`play_positions` in ``workers`` processes, concatenated."""
    jobs = [(game_name, options, seed + w, seconds, epsilon) for w in range(workers)]
    with worker_pool(workers) as pool:
        parts = pool.map(_play, jobs)
    return {k: np.concatenate([p[k] for p in parts]) for k in ("X", "Y", "G")}


def fit(
    data: dict[str, np.ndarray],
    game_name: str,
    feature_set: str,
    hidden: int = 32,
    epochs: int = 10,
    seed: int = 0,
    lr: float = 1e-3,
    max_positions: int = 2_000_000,
    residual: bool = False,
) -> tuple[LearnedValue, dict]:
    """Fit the network on ``data`` (see the module docstring); returns it and metrics."""
    import torch

    fm = feature_module(game_name)
    if feature_set not in fm.FEATURE_SETS:
        raise ValueError(f"unknown feature set {feature_set!r}; have {list(fm.FEATURE_SETS)}")
    cols = list(fm.FEATURE_SETS[feature_set])
    rng = np.random.default_rng(seed)
    keep = np.arange(len(data["Y"]))
    if len(keep) > max_positions:  # consecutive positions say nearly the same: subsample
        keep = np.sort(rng.choice(keep, max_positions, replace=False))
    raw, Y, G = data["X"][keep].astype(np.float64), data["Y"][keep], data["G"][keep]
    X = raw[:, cols]
    if residual and feature_set != "heuristic":
        raise ValueError("--residual adds to the heuristic's value: use --features heuristic")
    margin = torch.tensor((raw @ fm.MARGIN).astype(np.float32))
    games = np.unique(G)
    if len(games) < 10:
        raise ValueError(f"only {len(games)} games of data; play longer (--minutes)")
    held = np.isin(G, rng.choice(games, max(1, len(games) // 10), replace=False))
    mean, scale = X[~held].mean(0), X[~held].std(0) + 1e-6
    Xn = ((X - mean) / scale).astype(np.float32)
    torch.manual_seed(seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(len(cols), hidden), torch.nn.Tanh(),
        torch.nn.Linear(hidden, hidden), torch.nn.Tanh(),
        torch.nn.Linear(hidden, 1),
    )  # fmt: skip
    skip = torch.nn.Parameter(torch.tensor(1.0 if residual else 0.0))
    if residual:  # start at the heuristic's own value
        with torch.no_grad():
            net[-1].weight.mul_(0.01)
            net[-1].bias.zero_()
    params = list(net.parameters()) + ([skip] if residual else [])
    opt = torch.optim.Adam(params, lr)
    xt, yt, mt = torch.tensor(Xn[~held]), torch.tensor(Y[~held]), margin[~held]
    xv, yv, mv = torch.tensor(Xn[held]), torch.tensor(Y[held]), margin[held]

    def predict(x, m):
        return torch.tanh(net(x).squeeze(1) + skip * m)

    with torch.no_grad():
        start_mse = float(((predict(xv, mv) - yv) ** 2).mean())
    baseline = float(((yv - yt.mean()) ** 2).mean())
    best, best_state, curve = np.inf, None, []
    for _ in range(epochs):
        perm = torch.randperm(len(yt))
        for i in range(0, len(perm), 512):
            b = perm[i : i + 512]
            loss = ((predict(xt[b], mt[b]) - yt[b]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            held_mse = float(((predict(xv, mv) - yv) ** 2).mean())
        curve.append(held_mse)
        if held_mse < best:
            best = held_mse
            best_state = [p.detach().numpy().astype(np.float64).copy() for p in net.parameters()]
            best_skip = float(skip.detach())
    model = LearnedValue(game_name, feature_set, best_state, mean, scale, best_skip)
    metrics = {
        "positions": int(len(data["Y"])),
        "positions_fitted": int(len(Y)),
        "games": int(len(games)),
        "held_out_games": int(len(np.unique(G[held]))),
        "held_out_mse": best,
        "held_out_mse_at_start": start_mse,
        "skip": best_skip,
        "constant_mse": baseline,
        "held_out_mse_by_epoch": curve,
        "draw_share": float((Y == 0).mean()),
    }
    return model, metrics


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m crusadegym.training.valuefit",
                                 description=__doc__.split("\n\n")[0])  # fmt: skip
    ap.add_argument("game")
    ap.add_argument("--features", default="heuristic", help="feature set (state, heuristic)")
    ap.add_argument("--minutes", type=float, default=2.0, help="self-play time per worker")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--epsilon", type=float, default=0.1, help="share of random moves")
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument(
        "--max-positions",
        type=int,
        default=2_000_000,
        help="fit on at most this many positions, drawn at random",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--residual",
        action="store_true",
        help="learn a correction to the heuristic's value (heuristic features)",
    )
    ap.add_argument("--data", help="reuse the data.npz of an earlier run instead of playing")
    ap.add_argument("-o", "--option", action="append", help="game option key=value")
    ap.add_argument("--out", default=None, help="output directory")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    options = parse_options(args.option)
    feature_module(args.game)
    if args.workers < 1 or args.minutes <= 0:
        raise SystemExit("error: need --workers >= 1 and --minutes > 0")
    out = Path(args.out or f"runs/{args.game}-value-{args.features}-{time.strftime('%H%M%S')}")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.data:
        data = dict(np.load(args.data))
    else:
        data = collect(args.game, options, args.minutes * 60, args.workers, args.epsilon,
                       args.seed)  # fmt: skip
        np.savez_compressed(out / "data.npz", **data)
    played = time.perf_counter() - t0
    model, metrics = fit(
        data,
        args.game,
        args.features,
        args.hidden,
        args.epochs,
        args.seed,
        max_positions=args.max_positions,
        residual=args.residual,
    )
    model.meta = {"options": options, "epsilon": args.epsilon}
    model.save(out / "value.npz")
    summary = {"game": args.game, "features": args.features, "options": options,
               "play_seconds": played, "fit_seconds": time.perf_counter() - t0 - played,
               **metrics}  # fmt: skip
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"{metrics['games']} games, {metrics['positions']} positions; held-out MSE "
          f"{metrics['held_out_mse']:.4f} (constant {metrics['constant_mse']:.4f}); "
          f"{out / 'value.npz'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
