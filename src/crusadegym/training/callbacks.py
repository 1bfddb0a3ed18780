"""The training callback: win rates, snapshots, checkpoints, progress bar, history.

Once per rollout :class:`SelfPlayCallback` logs to TensorBoard (next to SB3's own
losses and ``rollout/ep_rew_mean``):

* ``selfplay/win_rate_<kind>``: learner's win rate over its last ``window`` finished
  training games in which every opponent was of that kind (sampling policy, as trained);
* ``selfplay/win_rate_pool``: win rate against the whole pool since the last snapshot;
* ``selfplay/result_<kind>``: mean true (unshaped) game result against each kind
  (+1 win, 0 draw, -1 loss), which moves even while every game is still drawn or lost;
* ``selfplay/return_mean``: the same over all kinds; ``selfplay/snapshots``;
* ``time/steps_per_s``: env steps per wall-clock second since the run started.

With a ``deadline`` (a ``time.perf_counter()`` value) training stops at the first
step past it (``--max-minutes``).

Snapshots of the learner join the ``"self"`` kind of the opponent pool every
``snapshot_every`` steps, or sooner once the win rate against the pool reaches
``snapshot_threshold`` over at least ``snapshot_min_episodes`` games. Checkpoints
are written every ``checkpoint_every`` steps (and handed to ``on_checkpoint``, e.g.
:meth:`.validate.CheckpointValidator.submit`). Only the last ``keep_checkpoints``
checkpoints and the ``keep_snapshots`` snapshots still in the pool stay on disk
(about 16 MB each with the optimiser state). Every logged row is also kept in
:attr:`SelfPlayCallback.history` for the learning-curve plot.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from crusadegym.core import Game

from .checkpoint import save_checkpoint, sidecar_path
from .pool import SELF


class SelfPlayCallback(BaseCallback):
    """See the module docstring."""

    def __init__(
        self,
        game: Game,
        out_dir: str,
        kinds: list[str],
        total_timesteps: int,
        snapshot_every: int,
        snapshot_threshold: float,
        snapshot_min_episodes: int = 20,
        checkpoint_every: int = 0,
        window: int = 100,
        progress: bool = True,
        keep_snapshots: int = 5,
        keep_checkpoints: int = 3,
        deadline: float | None = None,
        on_checkpoint: Callable[[str, int], Any] | None = None,
    ) -> None:
        super().__init__()
        self.on_checkpoint = on_checkpoint
        self.deadline = deadline  # time.perf_counter() value at which training stops
        self.game = game
        self.out_dir = out_dir
        self.kinds = list(kinds)
        self.total_timesteps = int(total_timesteps)
        self.snapshot_every = int(snapshot_every)
        self.snapshot_threshold = float(snapshot_threshold)
        self.snapshot_min_episodes = int(snapshot_min_episodes)
        self.checkpoint_every = int(checkpoint_every)
        self.results = {k: deque(maxlen=window) for k in self.kinds}
        self.returns: deque = deque(maxlen=window)
        self.since_snapshot: list[float] = []
        self.history: list[dict] = []
        self.snapshots: list[str] = []
        self.checkpoints: list[str] = []
        self.progress = progress
        self.keep_snapshots = int(keep_snapshots)
        self.keep_checkpoints = int(keep_checkpoints)
        self.episodes = 0

    # -- SB3 hooks ------------------------------------------------------------------
    def _on_training_start(self) -> None:
        self.start_time = time.perf_counter()
        self.start_steps = self.model.num_timesteps
        self.last_snapshot = self.last_checkpoint = self.model.num_timesteps
        self.bar = tqdm(
            total=self.total_timesteps, initial=0, unit="step", desc="train",
            disable=not self.progress, dynamic_ncols=True,
        )  # fmt: skip
        if SELF in self.kinds:
            self.snapshot()  # the initial policy: "self" is drawable from the start

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "selfplay" in info:
                self._record(info["selfplay"])
        self.bar.update(self.training_env.num_envs)
        if self.checkpoint_every and (
            self.model.num_timesteps - self.last_checkpoint >= self.checkpoint_every
        ):
            self.checkpoint()
        return self.deadline is None or time.perf_counter() < self.deadline

    def _on_rollout_end(self) -> None:
        row = self.log_row()
        for key, value in row.items():
            if key != "timesteps":
                self.logger.record(key, value)
        self.history.append(row)
        self.bar.set_postfix(
            {k.removeprefix("selfplay/win_rate_"): f"{v:.2f}" for k, v in row.items()
             if k.startswith("selfplay/win_rate_")}
        )  # fmt: skip
        if SELF in self.kinds and self.snapshot_due():
            self.snapshot()

    def _on_training_end(self) -> None:
        self.bar.close()
        self.write_history()

    # -- bookkeeping ----------------------------------------------------------------
    def _record(self, result: dict) -> None:
        won = 1.0 if result["outcome"] == "win" else 0.0
        kind = result["kind"]
        if kind in self.results:
            self.results[kind].append((won, result["return"]))
        self.returns.append(result["return"])
        self.since_snapshot.append(won)
        self.episodes += 1

    def log_row(self) -> dict:
        """The scalars of this rollout (see the module docstring)."""
        elapsed = time.perf_counter() - self.start_time
        row = {
            "timesteps": int(self.model.num_timesteps),
            "time/steps_per_s": (self.model.num_timesteps - self.start_steps) / max(elapsed, 1e-9),
            "selfplay/episodes": self.episodes,
            "selfplay/snapshots": len(self.snapshots),
        }
        for kind, results in self.results.items():
            if results:
                row[f"selfplay/win_rate_{kind}"] = sum(w for w, _ in results) / len(results)
                row[f"selfplay/result_{kind}"] = sum(r for _, r in results) / len(results)
        if self.since_snapshot:
            row["selfplay/win_rate_pool"] = sum(self.since_snapshot) / len(self.since_snapshot)
        if self.returns:
            row["selfplay/return_mean"] = sum(self.returns) / len(self.returns)
        return row

    def snapshot_due(self) -> bool:
        """True on the schedule, or when the learner beats the current pool often enough."""
        if self.model.num_timesteps - self.last_snapshot >= self.snapshot_every > 0:
            return True
        n = len(self.since_snapshot)
        return n >= self.snapshot_min_episodes and sum(self.since_snapshot) / n >= (
            self.snapshot_threshold
        )

    def snapshot(self) -> str:
        """Freeze the learner into the pool of every env; return the snapshot path."""
        t = self.model.num_timesteps
        path = os.path.join(self.out_dir, "snapshots", f"self_{t:09d}.zip")
        save_checkpoint(self.model, path, self.game, {"role": "snapshot"})
        self.training_env.env_method("add_snapshot", path)
        self.snapshots.append(path)
        prune(self.snapshots, self.keep_snapshots)  # the pool drops the same oldest ones
        self.last_snapshot = t
        self.since_snapshot = []
        return path

    def checkpoint(self) -> str:
        """Write a resumable checkpoint (and the history so far); return its path."""
        t = self.model.num_timesteps
        path = os.path.join(self.out_dir, "checkpoints", f"ckpt_{t:09d}.zip")
        save_checkpoint(self.model, path, self.game, {"role": "checkpoint"})
        self.checkpoints.append(path)
        if self.on_checkpoint is not None:
            self.on_checkpoint(path, t)
        prune(self.checkpoints, self.keep_checkpoints)
        self.last_checkpoint = t
        self.write_history()
        return path

    def write_history(self) -> str:
        path = os.path.join(self.out_dir, "history.json")
        os.makedirs(self.out_dir, exist_ok=True)
        with open(path, "w") as f:
            json.dump(self.history, f, indent=1)
        return path


def prune(paths: list[str], keep: int) -> None:
    """Delete the files (and sidecars) of all but the last ``keep`` of ``paths`` (0: keep all).

    ``paths`` keeps every name, so the run summary still lists what was written.
    """
    if keep <= 0:
        return
    for path in paths[:-keep]:
        for name in (path, sidecar_path(path)):
            if os.path.exists(name):
                os.remove(name)
