"""Checkpoint selection: validation games on a spare core, and the best checkpoint kept.

PPO does not improve a policy monotonically. In the advised Deus lo Vult run
(``docs/training.md``) the snapshot at 64 k steps beat the heuristic 136-64, and the
final policy at 207 k steps only 117-83. With ``--validate-games N``, every checkpoint
the run writes is copied to ``<out>/validation/`` and played ``N`` games, seats
rotating, against each baseline of the pool. This happens in one forked background
process, so a run with one env process keeps its own core. The warm-start clone
(``bc.zip``, step 0) is validated first, so ``best.zip`` is the clone when PPO never
beats it, and the final policy is validated the same way when training ends.

The score of a checkpoint is its mean result against the baselines, counting a
win as 1 and a draw as 1/2. :meth:`CheckpointValidator.finish` waits for the games
still running, keeps the best checkpoint as ``best.zip`` (with its sidecar; the
latest wins a tie) and deletes the other copies. It writes every score to
``validation.json``. The validation games are seeded apart from the end-of-run
evaluation (``seed + VALIDATION_SEED``), so the evaluation of ``best.zip`` is not
played on the games that picked it.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import time
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .checkpoint import sidecar_path

VALIDATION_SEED = 7_777_777
"""Offset of the validation games' seed from the run's seed."""


def score(vs: dict[str, dict]) -> float:
    """Mean over opponents of (wins + draws / 2) / games (see :func:`.evaluate.win_rates_vs`)."""
    if not vs:
        raise ValueError("no validation games to score")
    return sum((s["wins"] + 0.5 * s["draws"]) / s["games"] for s in vs.values()) / len(vs)


def pick_best(rows: list[dict]) -> dict:
    """The row with the highest ``score``; among equal scores, the most trained one."""
    if not rows:
        raise ValueError("no validated checkpoints to pick from")
    return max(rows, key=lambda r: (r["score"], r["steps"]))


def _copy_checkpoint(src: str, dst: str) -> None:
    """Copy checkpoint ``src`` and its sidecar (when it has one) to ``dst``."""
    shutil.copyfile(src, dst)
    if os.path.isfile(sidecar_path(src)):
        shutil.copyfile(sidecar_path(src), sidecar_path(dst))


def _validate(path: str, game: str, baselines: list[str], games: int, players: int,
              options: dict, seed: int) -> dict:  # fmt: skip
    from .evaluate import evaluate_checkpoint

    result = evaluate_checkpoint(path, game, baselines, games, players, options, seed=seed,
                                 workers=1, progress=False)  # fmt: skip
    return result["vs"]


def write_validation_scalars(validation: dict, tb_dir: str) -> str:
    """Log each validated checkpoint's score and win rates to TensorBoard at its step.

    Written to ``<tb_dir>/validation`` once the validation is finished, as
    ``validation/score`` and ``validation/win_rate_<baseline>`` (the deterministic
    policy's games, beside the sampling policy's ``selfplay/win_rate_<kind>``).
    """
    from torch.utils.tensorboard import SummaryWriter

    path = os.path.join(tb_dir, "validation")
    with SummaryWriter(path) as writer:
        for row in sorted(validation["rows"], key=lambda r: r["steps"]):
            writer.add_scalar("validation/score", row["score"], row["steps"])
            for kind, result in row["vs"].items():
                writer.add_scalar(f"validation/win_rate_{kind}", result["win_rate"], row["steps"])
    return path


class CheckpointValidator:
    """Validates checkpoints in a background process; keeps the best (module docstring)."""

    def __init__(
        self, game: str, baselines: list[str], games: int, players: int, options: dict,
        out_dir: str, seed: int = 0,
    ) -> None:  # fmt: skip
        if games < 1:
            raise ValueError(f"validation needs games >= 1, got {games}")
        if not baselines:
            raise ValueError("validation needs at least one baseline opponent")
        from crusadegym.agents.arena import fork_worker_init

        self.job = dict(game=game, baselines=list(baselines), games=int(games),
                        players=int(players), options=dict(options),
                        seed=int(seed) + VALIDATION_SEED)  # fmt: skip
        self.out_dir = out_dir
        self.dir = os.path.join(out_dir, "validation")
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method),
                                        initializer=fork_worker_init)  # fmt: skip
        self.pending: list[tuple[int, str, Future]] = []

    def submit(self, checkpoint: str, steps: int) -> str:
        """Copy ``checkpoint`` (and sidecar) aside and queue its games; return the copy.

        A policy of the same step count as one already queued (the final policy right
        after a checkpoint) is the same policy, and is not played again.
        """
        for queued, copy, _ in self.pending:
            if queued == int(steps):
                return copy
        os.makedirs(self.dir, exist_ok=True)
        copy = os.path.join(self.dir, f"ckpt_{int(steps):09d}.zip")
        _copy_checkpoint(checkpoint, copy)
        future = self.pool.submit(_validate, copy, **self.job)
        self.pending.append((int(steps), copy, future))
        return copy

    def close(self) -> None:
        """Stop without waiting (the run failed or was interrupted)."""
        self.pool.shutdown(wait=False, cancel_futures=True)

    def finish(self) -> dict[str, Any]:
        """Wait for every validation, keep ``best.zip``; return ``{"best", "rows", ...}``."""
        start = time.perf_counter()
        rows = []
        try:
            for steps, copy, future in self.pending:
                vs = future.result()
                rows.append({"steps": steps, "checkpoint": copy, "score": score(vs), "vs": vs})
        finally:
            self.pool.shutdown()
        best = pick_best(rows)
        path = os.path.join(self.out_dir, "best.zip")
        _copy_checkpoint(best["checkpoint"], path)
        for row in rows:
            copy = row.pop("checkpoint")
            for name in (copy, sidecar_path(copy)):
                if os.path.exists(name):
                    os.remove(name)
        result = {"best": path, "best_steps": best["steps"], "best_score": best["score"],
                  "games_per_baseline": self.job["games"], "seed": self.job["seed"],
                  "wait_seconds": time.perf_counter() - start, "rows": rows}  # fmt: skip
        with open(os.path.join(self.out_dir, "validation.json"), "w") as f:
            json.dump(result, f, indent=1)
        return result
