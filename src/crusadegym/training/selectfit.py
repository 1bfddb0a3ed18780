"""Fit a selection prior to an evaluation's exact two-ply lookahead.

``python -m crusadegym.training.selectfit deus_lo_vult --value pretrained --games 200``

A :class:`~crusadegym.agents.select_prior.SelectPrior` guesses what a "select" is worth
(its best follow-up's value) from the selection's features, so that the search need
not play every follow-up of every selection (:mod:`crusadegym.agents.select_prior`).

1. **Record.** The evaluation's greedy lookahead plays itself, with a share of
   uniformly random moves for variety. At every position where the seat to move
   selects, for each legal selection: its features, the exact two-ply value
   (:func:`~crusadegym.agents.kernels.lookahead_values`), the best value over the
   follow-ups the prior keeps playing out, and the position's own value.
2. **Fit.** Least squares of ``exact - value(state)`` on the features (plus a small
   ridge), over the selections whose best follow-up is one the guess must stand for (a
   move); a tenth of the positions held out. Reported on them: how often the best
   selection by the prior is a truly best one (top-1), whether one is among its best
   three, and the mean value lost by playing the prior's pick (regret), beside the
   same figures for the exact follow-ups alone (no guess).

Output under ``--out``: ``select_prior.npz`` (``mcts:select_prior=PATH``), ``data.npz``,
``summary.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics import Heuristic, extend_mask, resolve_heuristic, value_kernel
from crusadegym.agents.kernels import bound_lookahead, read_selection
from crusadegym.agents.options import parse_options
from crusadegym.agents.select_prior import SelectPrior, feature_module
from crusadegym.core import Game, make_game
from crusadegym.core.jit import kjit
from crusadegym.errors import UserError


def evaluation(game: Game, value: str) -> tuple[Heuristic, str | None]:
    """The heuristic carrying evaluation ``value`` (``heuristic``: the game's own), and
    the ``value=`` option that gives it to an agent."""
    if value == "heuristic":
        return resolve_heuristic(game), None
    from crusadegym.agents.learned_value import LearnedValue

    return LearnedValue.load(value).heuristic(), value


def _bound_recorder(game: Game, value, features, exact):
    """A compiled pass over one position's selections (see :func:`record`)."""
    k = game.k
    legal_mask, step, current_player, is_terminal = (
        k.legal_mask, k.step, k.current_player, k.is_terminal)  # fmt: skip
    returns = k.returns

    @kjit
    def run(state, params, n_actions, n_players, extend, x, best_exact, base):
        mover = current_player(state, params)
        vals = np.zeros(n_players, np.float32)
        value(state, params, vals)
        base[0] = vals[mover]
        mask = np.zeros(n_actions, np.uint8)
        mask2 = np.zeros(n_actions, np.uint8)
        rewards = np.zeros(n_players, np.float32)
        s1, s2 = np.empty_like(state), np.empty_like(state)
        legal_mask(state, params, mask)
        for a in range(n_actions):
            best_exact[a] = -np.inf
            if not (mask[a] and extend[a]):
                continue
            s1[:] = state
            step(s1, params, a, rewards)
            # fmt: off
            _, best_exact[a] = read_selection(legal_mask, step, is_terminal, current_player,
                                              returns, value, features, exact, state, params, a,
                                              s1, mover, n_players, mask2, s2, x[a])
            # fmt: on

    return run


def record(game: Game, value: str, games: int, random_share: float, seed: int
           ) -> dict[str, np.ndarray]:  # fmt: skip
    """Features and targets of every selection at every selecting position (see above)."""
    module = feature_module(game.name)
    heuristic, option = evaluation(game, value)
    kernel = value_kernel(game, heuristic)
    lookahead = bound_lookahead(game, kernel)
    recorder = _bound_recorder(game, kernel, module.select_features, module.EXACT_FOLLOWUPS)
    player = HeuristicAgent(seed=seed, value=option)
    rng = np.random.default_rng(seed)
    n_a, n_p = game.num_actions, game.num_players
    xs, ys, exact, base, group = [], [], [], [], []
    exact_values, two_ply = np.empty(n_a), np.empty(n_a)
    for g in range(games):
        state = game.new_state(seed * 100_003 + g)
        while not game.is_terminal(state):
            extend = extend_mask(game, state, heuristic)
            selections = np.flatnonzero(game.legal_mask(state) & extend)
            if len(selections) >= 2:
                x = np.zeros((n_a, module.N_FEATURES))
                b = np.zeros(1)
                recorder(state, game.params, n_a, n_p, extend, x, exact_values, b)
                lookahead(state, game.params, n_a, n_p, extend, two_ply)
                xs.append(x[selections])
                ys.append(two_ply[selections])
                exact.append(exact_values[selections])
                base.append(np.full(len(selections), b[0]))
                group.append(np.full(len(selections), len(group)))
            legal = game.legal_actions(state)
            if rng.random() < random_share:
                action = int(rng.choice(legal))
            else:
                action = player.act_state(game, state)
            game.step(state, action)
    return {"x": np.concatenate(xs), "y": np.concatenate(ys), "exact": np.concatenate(exact),
            "base": np.concatenate(base), "group": np.concatenate(group)}  # fmt: skip


def rank_metrics(scores: np.ndarray, data: dict[str, np.ndarray], groups: np.ndarray
                 ) -> dict[str, float]:  # fmt: skip
    """Top-1, top-3 and mean regret of ranking each position's selections by ``scores``."""
    y, group = data["y"], data["group"]
    top1, top3, regret = [], [], []
    for g in groups:
        rows = np.flatnonzero(group == g)
        order = rows[np.argsort(-scores[rows], kind="stable")]
        best = y[rows].max()
        top1.append(y[order[0]] >= best)
        top3.append(bool((y[order[:3]] >= best).any()))
        regret.append(best - y[order[0]])
    return {"top1": float(np.mean(top1)), "top3": float(np.mean(top3)),
            "regret": float(np.mean(regret))}  # fmt: skip


def fit(data: dict[str, np.ndarray], game: str, value: str, l2: float, bias_only: bool = False
        ) -> tuple[SelectPrior, dict]:  # fmt: skip
    """The least-squares weights and their held-out ranking figures (see above);
    ``bias_only`` fits the constant column alone (the ablation: one offset, no features)."""
    x, y, exact, base, group = (data[k] for k in ("x", "y", "exact", "base", "group"))
    positions = int(group.max()) + 1
    train = group < positions - max(1, positions // 10)
    guessed = train & (y > exact)
    if guessed.sum() < x.shape[1]:
        raise UserError(f"only {int(guessed.sum())} training rows; record more games")
    columns = [0] if bias_only else list(range(x.shape[1]))
    a = x[guessed][:, columns]
    w = np.zeros(x.shape[1])
    w[columns] = np.linalg.solve(a.T @ a + l2 * len(a) * np.eye(len(columns)),
                                 a.T @ (y - base)[guessed])  # fmt: skip
    held = np.unique(group[~train])
    guess = np.maximum(exact, base + x @ w)
    metrics = {"positions": positions, "selections": len(y), "held_out_positions": len(held),
               "prior": rank_metrics(guess, data, held),
               "exact_followups_only": rank_metrics(exact, data, held)}  # fmt: skip
    return SelectPrior(game, w, value), metrics


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m crusadegym.training.selectfit",
                                 description=__doc__.split("\n\n")[0])  # fmt: skip
    ap.add_argument("game")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                    help="game option (repeatable), e.g. -o rounds=1 -o max_turns=15")  # fmt: skip
    ap.add_argument("--value", default="heuristic",
                    help="the evaluation it serves: heuristic, pretrained or a .npz")  # fmt: skip
    ap.add_argument("--games", type=int, default=200, help="games to record")
    ap.add_argument("--random", type=float, default=0.15, help="share of random moves")
    ap.add_argument("--l2", type=float, default=1e-4, help="ridge, per row")
    ap.add_argument("--bias-only", action="store_true",
                    help="fit one constant offset, no features (an ablation)")  # fmt: skip
    ap.add_argument("--data", default=None, help="fit this data.npz instead of recording")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/selectfit")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.games < 1 or not 0 <= args.random <= 1:
            raise UserError("need --games >= 1 and 0 <= --random <= 1")
        feature_module(args.game)
        game = make_game(args.game, **parse_options(args.option))
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        if args.data:
            if not Path(args.data).is_file():
                raise UserError(f"no data at {args.data}; record some first (drop --data)")
            data = dict(np.load(args.data))
        else:
            data = record(game, args.value, args.games, args.random, args.seed)
            np.savez_compressed(out / "data.npz", **data)
        recorded = time.perf_counter() - t0
        prior, metrics = fit(data, args.game, args.value, args.l2, args.bias_only)
    except (UserError, ValueError, FileNotFoundError) as e:
        print(f"selectfit: {e}", file=sys.stderr)
        return 2
    command = " ".join(["python -m crusadegym.training.selectfit", *(argv or sys.argv[1:])])
    prior.meta.update(command=command, options=game.config_dict())
    prior.save(out / "select_prior.npz")
    summary = {"game": args.game, "value": args.value, "record_seconds": recorded, **metrics}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
