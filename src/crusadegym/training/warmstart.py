"""The warm start of a run: behaviour cloning (+ DAgger) before PPO, and BC replay during it.

:func:`warm_start` runs, on a fresh model, the steps of :mod:`.bc`: collect the
teacher's decisions, clone them, then ``dagger_rounds`` times let the cloned policy
play (sampling) while the teacher labels its states, and clone again on everything
for ``dagger_epochs``. With an ``expert`` (a stronger, slower agent such as MCTS),
``expert_workers`` processes play ``expert_games`` games with the expert labelling its
own moves *while* the heuristic is cloned; the clone is then fitted to the expert's
choices for ``expert_epochs`` (expert iteration's distillation step): with
``expert_soft``, to a searcher's root visit shares rather than its single move. The clone
breaks the heuristic's ties the way the expert's deeper search does, and takes the
expert's moves where the two disagree.
It saves the cloned policy as ``bc.zip`` (with sidecar) and, with ``eval_games``,
plays it against random in the arena, so the effect of PPO can be told apart from
the effect of cloning.

:class:`BCReplayCallback` keeps PPO from forgetting the clone: after every rollout
it takes ``steps`` minibatch steps of masked cross-entropy on the demonstrations,
scaled by ``coef`` (an auxiliary imitation loss, interleaved with PPO's updates).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback

from crusadegym.agents import make_agent
from crusadegym.agents.neural import make_policy_agent
from crusadegym.core import Game

from . import bc


def warm_start(
    model: Any,
    game: Game,
    out_dir: str,
    games: int,
    epochs: int,
    lr: float = 1e-3,
    batch_size: int = 256,
    dagger_rounds: int = 0,
    dagger_games: int = 0,
    dagger_epochs: int = 1,
    shaping: str = "heuristic",
    shaping_weight: float = 1.0,
    eval_games: int = 0,
    expert: str = "",
    expert_games: int = 0,
    expert_epochs: int = 2,
    expert_workers: int = 1,
    expert_soft: bool = False,
    advice: str = "none",
    options: dict | None = None,
    seed: int = 0,
    progress: bool = False,
) -> tuple[dict, bc.Demonstrations]:
    """Clone the heuristic into ``model.policy`` (see the module docstring).

    Returns the metrics (also written to ``out_dir/warm_start.json``; ``bc.json`` is
    the sidecar of ``bc.zip``) and the demonstrations
    (the expert's when there is an expert: those are what imitation replay keeps).
    """
    from .checkpoint import save_checkpoint

    start = time.perf_counter()
    pending = None
    if expert_games < 0 or (expert_games > 0) != bool(expert):
        raise ValueError(f"give an expert together with expert_games > 0 (got expert={expert!r}, "
                         f"expert_games={expert_games})")  # fmt: skip
    if expert:
        make_agent(expert, seed)  # a bad spec fails now, not after the cloning
        pending = bc.start_collecting(game, expert_games, expert_workers, seed=seed + 7919,
                                      teacher=expert, opponents=(expert, "heuristic"),
                                      soft=expert_soft, advice=advice)  # fmt: skip
    demos = bc.collect(game, games, seed=seed, progress=progress, advice=advice)
    metrics: dict[str, Any] = {"games": games, "collect_seconds": time.perf_counter() - start}
    fit = dict(lr=lr, batch_size=batch_size, shaping=shaping, shaping_weight=shaping_weight,
               seed=seed, progress=progress)  # fmt: skip
    rounds = [bc.clone(model.policy, demos, epochs=epochs, **fit)]
    for r in range(dagger_rounds):
        t = time.perf_counter()
        actor = make_policy_agent(model.policy, advice, seed=seed + r)
        actor.deterministic = False  # sample, as PPO will; no reseeding of torch's RNG
        more = bc.collect(game, dagger_games or games, seed=seed + 1 + r, actor=actor,
                          opponents=("random", "heuristic"), progress=progress,
                          advice=advice)  # fmt: skip
        demos = bc.Demonstrations.concat([demos, more])
        result = bc.clone(model.policy, demos, epochs=dagger_epochs, **fit)
        result["collect_seconds"] = time.perf_counter() - t - result["seconds"]
        rounds.append(result)
    metrics.update(
        rounds=rounds, rows=len(demos), held_out_acc=rounds[-1]["held_out_acc"],
        train_acc=rounds[-1]["train_acc"],
    )  # fmt: skip
    if pending is not None:
        t = time.perf_counter()
        demos = pending.result()
        waited = time.perf_counter() - t
        result = bc.clone(model.policy, demos, epochs=expert_epochs, **fit)
        about = {
            "teacher": expert,
            "games": expert_games,
            "workers": expert_workers,
            "targets": "visits" if expert_soft else "choice",
        }
        metrics["expert"] = result | about | {"wait_seconds": waited}
    metrics["seconds"] = time.perf_counter() - start
    path = save_checkpoint(model, os.path.join(out_dir, "bc.zip"), game, {"role": "bc"})
    metrics["checkpoint"] = path
    if eval_games > 0:
        from .evaluate import evaluate_checkpoint

        t = time.perf_counter()
        result = evaluate_checkpoint(path, game.name, ["random"], eval_games, game.num_players,
                                     options or {}, seed=seed + 2, progress=progress)  # fmt: skip
        metrics["vs"] = result["vs"]
        metrics["eval_seconds"] = time.perf_counter() - t
    with open(os.path.join(out_dir, "warm_start.json"), "w") as f:
        json.dump(metrics, f, indent=1)
    return metrics, demos


class ImitationReplay:
    """``steps`` minibatches of ``coef`` x masked cross-entropy on ``demos``, per call.

    Called after each PPO update (by :class:`BCReplayCallback` for the SB3 path, by
    :class:`~.fastppo.FastPPO` directly), with its own Adam optimizer.
    """

    def __init__(
        self, demos: bc.Demonstrations, steps: int, coef: float = 1.0, lr: float = 1e-4,
        batch_size: int = 256, seed: int = 0,
    ) -> None:  # fmt: skip
        self.demos = demos
        self.steps = int(steps)
        self.coef = float(coef)
        self.lr = float(lr)
        self.batch_size = int(batch_size)
        self.rng = np.random.default_rng(seed)
        self.optim: torch.optim.Optimizer | None = None
        self.last_loss = float("nan")

    def apply(self, policy: Any) -> float:
        """Take the steps on ``policy``; return the last loss (nan if nothing to replay)."""
        if self.steps < 1 or len(self.demos) == 0:
            return self.last_loss
        if self.optim is None:
            self.optim = torch.optim.Adam(policy.parameters(), lr=self.lr)
        policy.set_training_mode(True)
        for _ in range(self.steps):
            rows = self.rng.integers(len(self.demos), size=self.batch_size)
            obs, masks, best, targets = bc.teacher_batch(self.demos, rows)
            loss = self.coef * bc.teacher_loss(bc.masked_logits(policy, obs, masks), best, targets)
            self.optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            self.optim.step()
            self.last_loss = loss.item()
        policy.set_training_mode(False)
        return self.last_loss


class BCReplayCallback(BaseCallback):
    """After each rollout, ``steps`` minibatches of ``coef`` x masked cross-entropy."""

    def __init__(
        self, demos: bc.Demonstrations, steps: int, coef: float = 1.0, lr: float = 1e-4,
        batch_size: int = 256, seed: int = 0,
    ) -> None:  # fmt: skip
        super().__init__()
        self.replay = ImitationReplay(demos, steps, coef, lr, batch_size, seed)

    @property
    def last_loss(self) -> float:
        return self.replay.last_loss

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.replay.steps < 1 or len(self.replay.demos) == 0:
            return
        self.logger.record("bc/replay_loss", self.replay.apply(self.model.policy))
