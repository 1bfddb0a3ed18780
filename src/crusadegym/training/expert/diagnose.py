"""Can the network represent its teacher? An offline check of the recipe's two heads.

``python -m crusadegym.training.expert.diagnose deus --teacher heuristic --games 300``

1. **Teacher's own agreement.** On positions of the teacher's games, the teacher is asked
   ``draws`` times with different seeds (a heuristic that determinizes what its seat cannot
   see, or breaks ties at random, does not always answer alike). The share of its modal
   answer is the most top-1 agreement any imitator can expect.
2. **Fit.** The same network as the recipe (:class:`.model.PolicyValueModel`) is fitted
   offline to the teacher's games (``SelfPlay.play_teacher``: the teacher's move one-hot,
   the result from the mover's seat), games split 9:1 into train and held-out.
3. **Report.** Held-out cross-entropy and top-1 agreement, overall and per action kind (the
   first word of ``action_to_str``) beside the teacher's own agreement; the value head's
   held-out squared error per fifth of the game, beside 1.0, the error of always saying 0
   (a draw) for a +1/-1 result.

If top-1 stays far under the teacher's agreement on the training games as well, the
network underfits (its input or its shape); if the value error is not under 1.0 late in
the game, search with that value head steers by noise.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import numpy as np
import torch

from crusadegym.agents.base import select_action
from crusadegym.agents.options import make_game_with_players
from crusadegym.agents.registry import make_agent
from crusadegym.core import Game

from .model import PolicyValueModel, loss_terms
from .selfplay import FinishedGame, SelfPlay

FIFTHS = 5
"""The value error is reported per fifth of a game."""


def action_kind(game: Game, action: int) -> str:
    """The action's kind: the first word of its text (``offer``, ``pay``, ``build``...)."""
    return game.action_to_str(int(action)).split()[0]


def teacher_games(game: Game, teacher: str, games: int, seed: int) -> list[FinishedGame]:
    """``games`` finished games of ``teacher`` in every seat, as recipe samples."""
    play = SelfPlay(game, batch=16, simulations=1, max_considered=1, seed=seed)
    agent = make_agent(teacher, seed)
    finished: list[FinishedGame] = []
    while len(finished) < games:
        finished += play.play_teacher(agent, 50)
    return finished[:games]


def teacher_agreement(
    game: Game, teacher: str, positions: int, draws: int, seed: int
) -> dict[str, float]:
    """Per action kind: the mean share of the modal answer among ``draws`` differently
    seeded teachers asked the same position (positions with two or more legal moves)."""
    rng = np.random.default_rng(seed)
    askers = [make_agent(teacher, seed + 1 + d) for d in range(draws)]
    shares: dict[str, list[float]] = defaultdict(list)
    n, deal = 0, seed
    while n < positions:
        state = game.new_state(deal)
        deal += 1
        while not game.is_terminal(state) and n < positions:
            if len(game.legal_actions(state)) > 1 and rng.random() < 0.1:
                answers = [select_action(a, game, state) for a in askers]
                values, counts = np.unique(answers, return_counts=True)
                shares[action_kind(game, values[counts.argmax()])].append(counts.max() / draws)
                n += 1
            game.step(state, select_action(askers[0], game, state))
    every = [s for v in shares.values() for s in v]
    return {"all": float(np.mean(every)), **{k: float(np.mean(v)) for k, v in shares.items()}}


def fit_and_report(
    game: Game, games: list[FinishedGame], hidden: int, epochs: int, seed: int
) -> dict:
    """Fit the recipe's network to ``games`` (every tenth game held out); the held-out
    figures of :func:`main`'s report."""
    torch.manual_seed(seed)
    obs = torch.from_numpy(np.concatenate([g.obs for g in games]).astype(np.float32))
    masks = torch.from_numpy(np.concatenate([g.masks for g in games]))
    targets = torch.from_numpy(np.concatenate([g.targets for g in games]).astype(np.float32))
    results = torch.from_numpy(np.concatenate([g.results for g in games]).astype(np.float32))
    held = np.concatenate([np.full(len(g.obs), i % 10 == 0) for i, g in enumerate(games)])
    stage = np.concatenate([np.arange(len(g.obs)) * FIFTHS // len(g.obs) for g in games])
    train, test = np.flatnonzero(~held), np.flatnonzero(held)
    model = PolicyValueModel(obs.shape[1], masks.shape[1], results.shape[1], hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        for rows in np.array_split(rng.permutation(train), max(1, len(train) // 256)):
            policy, value = loss_terms(model, obs[rows], masks[rows], targets[rows], results[rows])
            optimiser.zero_grad()
            (policy + value).backward()
            optimiser.step()

    def heads(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        with torch.no_grad():  # the cross-entropy is the recipe's own policy loss
            ce, _ = loss_terms(model, obs[rows], masks[rows], targets[rows], results[rows])
            logits, values = model(obs[rows], masks[rows])
        hits = (logits.argmax(1) == targets[rows].argmax(1)).numpy()
        errors = ((values - results[rows]) ** 2).mean(1).numpy()
        return hits, errors, float(ce)

    train_hits, _, train_ce = heads(train[: len(test) * 4])
    hits, errors, ce = heads(test)
    kinds = np.array([action_kind(game, a) for a in targets[test].argmax(1).numpy()])
    order = sorted(set(kinds), key=lambda k: -(kinds == k).sum())
    return {
        "samples": [len(train), len(test)],
        "train": {"ce": train_ce, "top1": float(train_hits.mean())},
        "held_out": {"ce": ce, "top1": float(hits.mean())},
        "top1_by_kind": {
            k: (float(hits[kinds == k].mean()), int((kinds == k).sum())) for k in order
        },
        "value_error_by_fifth": [float(errors[stage[test] == f].mean()) for f in range(FIFTHS)],
    }


def report(fit: dict, agreement: dict[str, float]) -> str:
    """The findings as a few markdown lines."""
    lines = [
        f"samples: {fit['samples'][0]} train, {fit['samples'][1]} held out",
        f"policy: train CE {fit['train']['ce']:.3f} top-1 {fit['train']['top1']:.3f}; "
        f"held-out CE {fit['held_out']['ce']:.3f} top-1 {fit['held_out']['top1']:.3f}; "
        f"teacher's own agreement {agreement['all']:.3f}",
        "",
        "| action kind | held-out positions | network top-1 | teacher's own agreement |",
        "|---|---:|---:|---:|",
    ]
    for kind, (top1, n) in fit["top1_by_kind"].items():
        own = agreement.get(kind)
        lines.append(f"| {kind} | {n} | {top1:.3f} | {'—' if own is None else f'{own:.3f}'} |")
    errors = " / ".join(f"{e:.2f}" for e in fit["value_error_by_fifth"])
    lines += ["", f"value head, held-out squared error by fifth of the game: {errors} "
              "(always 0 scores 1.00)"]  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m crusadegym.training.expert.diagnose", description=__doc__.split("\n")[0]
    )
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teacher", default="heuristic")
    parser.add_argument("--games", type=int, default=300, help="teacher games to fit")
    parser.add_argument("--positions", type=int, default=1000, help="for the agreement")
    parser.add_argument("--draws", type=int, default=8, help="teachers asked per position")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    try:
        game = make_game_with_players(args.game, args.players, {})
        agreement = teacher_agreement(game, args.teacher, args.positions, args.draws, args.seed)
        games = teacher_games(game, args.teacher, args.games, args.seed)
    except ValueError as err:
        print(f"diagnose: {err}", file=sys.stderr)
        return 2
    print(report(fit_and_report(game, games, args.hidden, args.epochs, args.seed), agreement))
    return 0


if __name__ == "__main__":
    sys.exit(main())
