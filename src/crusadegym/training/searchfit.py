"""Teach the evaluation what a deeper search prefers (search distillation).

``python -m crusadegym.training.searchfit deus_lo_vult --minutes 20 --workers 2``

MCTS's strength grows steeply with its budget (400 iterations beat 100 in 17 of 20
games on the training config, docs/training.md), and its choices are shaped by the
evaluation it searches with: the priors of every node are that evaluation's one- or
two-ply lookahead. This learner fits a ``linear``
:class:`~crusadegym.agents.learned_value.LearnedValue` (the hand-written margin plus
``w . [x, turn * x]``, see its module) so that its lookahead ranks the moves the way a
*stronger* search (the teacher, default ``mcts:iterations=400``) shares out its visits.
Searching with it (``mcts:value=PATH``) then starts every node from the deeper search's
preferences (expert iteration with a linear evaluation: AlphaZero's policy target, the
lookahead as the policy).

1. **Record.** The teacher plays the opponent (default ``mcts``), seats alternating. At
   each of its decisions with two or more legal actions it records its root visit
   shares and, for every legal action, the mover's feature row after that action (after
   the hand-written lookahead's best follow-up for a two-stage "select", as the
   lookahead scores it).
2. **Fit.** The logit of an action is ``(MARGIN . f + w . [x, turn * x]) / tau`` (the
   value's argument before its ``tanh``, which keeps the order); ``w`` and the
   temperature ``tau`` minimise the cross-entropy to the visit shares plus ``l2 |w|^2``,
   a tenth of the games held out. With ``w = 0`` it is the hand-written evaluation, so
   the held-out loss and top-1 agreement at the start are the baseline.

Output under ``--out``: ``value.npz`` (use with ``mcts:value=PATH``), ``data.npz`` (reuse
with ``--data``), ``summary.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from crusadegym.agents.heuristics import action_values, extend_mask, get_heuristic
from crusadegym.agents.learned_value import LearnedValue, feature_module, linear_inputs
from crusadegym.agents.options import parse_options
from crusadegym.agents.registry import make_agent
from crusadegym.core import Game, make_game
from crusadegym.errors import UserError
from crusadegym.training.processes import worker_pool


def child_rows(game: Game, state: np.ndarray, actions: np.ndarray) -> np.ndarray | None:
    """The mover's feature row after each of ``actions``, completed as the hand-written
    lookahead scores it (a "select" by its best follow-up); ``None`` if one ends the game
    (then the lookahead reads the result, not the evaluation)."""
    fm = feature_module(game.name)
    heuristic = get_heuristic(game.name)
    mover = game.current_player(state)
    extend = extend_mask(game, state, heuristic)
    rows = np.zeros((len(actions), fm.N_FEATURES))
    pair = np.zeros((2, fm.N_FEATURES))
    for i, a in enumerate(actions):
        child = state.copy()
        game.step(child, int(a))
        if extend[a] and not game.is_terminal(child) and game.current_player(child) == mover:
            follow = action_values(game, child, heuristic)
            game.step(child, int(np.argmax(follow)))
        if game.is_terminal(child):
            return None
        fm.features(child, game.params, pair)
        rows[i] = pair[mover]
    return rows


def record(job: tuple) -> dict[str, np.ndarray]:
    """Teacher-vs-opponent games for ``seconds`` (and at most ``max_games``, the job's
    optional last entry; see the module docstring): per candidate action its feature row
    ``X[k, F]``, visit share ``P[k]`` and decision index ``D[k]``; per decision its game
    ``G``."""
    game_name, options, teacher_spec, opponent_spec, seed, seconds, *rest = job
    max_games = rest[0] if rest else None
    game = make_game(game_name, **options)
    xs, ps, ds, gs = [], [], [], []
    deadline, g, decision = time.perf_counter() + seconds, 0, 0
    while time.perf_counter() < deadline and (max_games is None or g < max_games):
        game_seed = seed * 1_000_000 + g
        teacher = make_agent(teacher_spec, seed=game_seed)
        opponent = make_agent(opponent_spec, seed=game_seed + 1)
        seat = g % 2
        state = game.new_state(game_seed)
        while not game.is_terminal(state) and time.perf_counter() < deadline:
            mover = game.current_player(state)
            if mover != seat:
                game.step(state, opponent.act_state(game, state))
                continue
            action = teacher.act_state(game, state)
            visits = teacher.last_visits
            actions = game.legal_actions(state)
            if len(actions) >= 2 and sum(visits.values()) > 0:
                rows = child_rows(game, state, actions)
                if rows is not None:
                    shares = np.array([visits.get(int(a), 0) for a in actions], np.float64)
                    xs.append(rows)
                    ps.append(shares / shares.sum())
                    ds.append(np.full(len(actions), decision))
                    gs.append(game_seed)
                    decision += 1
            game.step(state, action)
        g += 1
    fm = feature_module(game_name)
    return {
        "X": np.concatenate(xs).astype(np.float32) if xs else np.zeros((0, fm.N_FEATURES)),
        "P": np.concatenate(ps).astype(np.float32) if ps else np.zeros(0),
        "D": np.concatenate(ds).astype(np.int64) if ds else np.zeros(0, np.int64),
        "G": np.array(gs, np.int64),
    }


def collect(game_name: str, options: dict, teacher: str, opponent: str, seconds: float,
            workers: int, seed: int) -> dict[str, np.ndarray]:  # fmt: skip
    """:func:`record` in ``workers`` processes, decisions renumbered and concatenated."""
    jobs = [(game_name, options, teacher, opponent, seed + w, seconds) for w in range(workers)]
    with worker_pool(workers) as pool:
        parts = pool.map(record, jobs)
    offset, d = 0, []
    for part in parts:
        d.append(part["D"] + offset)
        offset += len(part["G"])
    return {
        "X": np.concatenate([p["X"] for p in parts]),
        "P": np.concatenate([p["P"] for p in parts]),
        "D": np.concatenate(d),
        "G": np.concatenate([p["G"] for p in parts]),
    }


def fit(
    data: dict[str, np.ndarray], game_name: str, l2: float = 1e-3, steps: int = 300,
    seed: int = 0,
) -> tuple[LearnedValue, dict]:  # fmt: skip
    """Fit ``w`` and the temperature (see the module docstring); returns the value and
    its held-out metrics beside the hand-written start's."""
    import torch

    fm = feature_module(game_name)
    cols = np.array(fm.FEATURE_SETS["heuristic"])
    X, P, D, G = (data[k] for k in ("X", "P", "D", "G"))
    n_dec = len(G)
    if n_dec < 20:
        raise ValueError(f"only {n_dec} decisions recorded; record longer (--minutes)")
    rng = np.random.default_rng(seed)
    games = np.unique(G)
    held_games = rng.choice(games, max(1, len(games) // 10), replace=False)
    held_dec = np.isin(G, held_games)
    raw = X.astype(np.float64)
    train_rows = ~held_dec[D]
    mean, scale = raw[train_rows][:, cols].mean(0), raw[train_rows][:, cols].std(0) + 1e-6
    inputs = torch.tensor(linear_inputs(game_name, raw, cols, mean, scale))
    margin = torch.tensor(raw @ fm.MARGIN)
    target = torch.tensor(P.astype(np.float64))
    dec = torch.tensor(D)
    w = torch.zeros(inputs.shape[1], dtype=torch.float64, requires_grad=True)
    log_tau = torch.tensor(np.log(0.01), dtype=torch.float64, requires_grad=True)

    def losses(weights, rows_mask):
        logits = (margin + inputs @ weights) / torch.exp(log_tau)
        top = torch.full((n_dec,), -np.inf, dtype=torch.float64).scatter_reduce(
            0, dec, logits, reduce="amax")  # fmt: skip
        z = torch.zeros(n_dec, dtype=torch.float64).index_add(0, dec, torch.exp(logits - top[dec]))
        logp = logits - top[dec] - torch.log(z[dec])
        ce = -(target * logp)
        per_dec = torch.zeros(n_dec, dtype=torch.float64).index_add(0, dec, ce)
        keep = torch.tensor(rows_mask)
        return per_dec[keep].mean(), logits

    def agreement(logits, dec_mask):
        """Share of decisions whose most-visited action has the top logit."""
        lg = logits.detach().numpy()
        best_logit = np.full(n_dec, -np.inf)
        np.maximum.at(best_logit, D, lg)
        best_share = np.zeros(n_dec)
        np.maximum.at(best_share, D, P)
        hit = np.zeros(n_dec, bool)
        np.logical_or.at(hit, D, (lg >= best_logit[D] - 1e-12) & (P >= best_share[D]))
        return float(hit[dec_mask].mean())

    # the hand-written start: fit the temperature only
    opt = torch.optim.Adam([log_tau], lr=0.05)
    for _ in range(steps):
        loss, _ = losses(torch.zeros_like(w), ~held_dec)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        start_loss, start_logits = losses(torch.zeros_like(w), held_dec)
    start = {"held_out_cross_entropy": float(start_loss), "tau": float(log_tau.detach().exp()),
             "held_out_top1": agreement(start_logits, held_dec)}  # fmt: skip
    opt = torch.optim.Adam([w, log_tau], lr=0.01)
    for _ in range(steps):
        loss, _ = losses(w, ~held_dec)
        loss = loss + l2 * (w**2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        held_loss, logits = losses(w, held_dec)
    model = LearnedValue.linear(game_name, "heuristic", mean, scale, {"learner": "searchfit"})
    model.set_parameters(np.concatenate([w.detach().numpy(), [0.0]]))
    metrics = {
        "decisions": int(n_dec),
        "games": int(len(games)),
        "held_out_games": int(len(held_games)),
        "start": start,
        "fitted": {
            "held_out_cross_entropy": float(held_loss),
            "tau": float(log_tau.detach().exp()),
            "held_out_top1": agreement(logits, held_dec),
        },  # fmt: skip
        "weight_norm": float(w.detach().norm()),
    }
    return model, metrics


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m crusadegym.training.searchfit",
                                 description=__doc__.split("\n\n")[0])  # fmt: skip
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                    help="game option (repeatable), e.g. -o rounds=1 -o max_turns=15")  # fmt: skip
    ap.add_argument("--teacher", default="mcts:iterations=400", help="the deeper search")
    ap.add_argument("--opponent", default="mcts", help="who the teacher plays")
    ap.add_argument("--minutes", type=float, default=5.0, help="recording budget")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--data", default=None, help="fit this data.npz instead of recording")
    ap.add_argument("--l2", type=float, default=1e-3, help="penalty on the weights")
    ap.add_argument("--steps", type=int, default=300, help="optimiser steps")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/searchfit")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.workers < 1 or args.minutes <= 0:
            raise UserError("need --workers >= 1 and --minutes > 0")
        options = {"players": 2, **parse_options(args.option)}
        feature_module(args.game)
        if make_game(args.game, **options).num_players != 2:
            raise UserError("search distillation is two-player: pass -o players=2")
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        if args.data:
            if not Path(args.data).is_file():
                raise UserError(f"no data at {args.data}; record some first (drop --data)")
            data = dict(np.load(args.data))
        else:
            data = collect(args.game, options, args.teacher, args.opponent,
                           60 * args.minutes, args.workers, args.seed)  # fmt: skip
            np.savez_compressed(out / "data.npz", **data)
        recorded = time.perf_counter() - t0
        model, metrics = fit(data, args.game, args.l2, args.steps, args.seed)
    except (UserError, ValueError) as e:
        print(f"searchfit: {e}", file=sys.stderr)
        return 2
    command = " ".join(["python -m crusadegym.training.searchfit", *(argv or sys.argv[1:])])
    model.meta.update(teacher=args.teacher, options=options, command=command)
    model.save(out / "value.npz")
    summary = {"game": args.game, "options": options, "teacher": args.teacher,
               "opponent": args.opponent, "record_seconds": recorded,
               "fit_seconds": time.perf_counter() - t0 - recorded, **metrics}  # fmt: skip
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
