"""The arguments of a ``crusadegym train`` run (:class:`TrainArgs`) and the game options
training applies unless told otherwise (:data:`TRAIN_DEFAULTS`).

Their own module so that the trainers that read them (``selfplay``, ``rllib_backend``,
``fastppo``) need not import each other (issue #41: ``selfplay`` and ``rllib_backend`` were
an import cycle).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

TRAIN_DEFAULTS: dict[str, dict] = {"deus_lo_vult": {"rounds": 1, "max_turns": 15}}
"""Game options applied unless given: one round of at most 30 turns keeps a Deus lo Vult
episode short (about 150 learner moves instead of 600 at the 120-turn cap) while the
games stay decisive (the heuristic beats random in 9 of 10 such games)."""


@dataclass
class TrainArgs:
    """Every knob of a training run (the command line fills these; see ``--help``)."""

    game: str = "deus_lo_vult"
    timesteps: int = 30_000
    n_envs: int = 2
    seed: int = 0
    opponents: str = "random,heuristic,self"
    players: int = 2
    options: dict = field(default_factory=dict)  # game rule options, e.g. {"max_turns": 60}
    shaping: str = "heuristic"  # none | coins | heuristic (see training/shaping.py)
    shaping_weight: float = 1.0
    advice: str = "none"  # none | heuristic: the heuristic's verdict per action as an input
    snapshot_every: int = 10_000
    snapshot_threshold: float = 0.6
    snapshot_min_episodes: int = 20
    max_snapshots: int = 5
    checkpoint_every: int = 10_000
    keep_checkpoints: int = 3  # older checkpoint files are deleted (0: keep all)
    out: str | None = None
    resume: str | None = None
    eval_games: int = 10  # per baseline (seats rotated); 0 skips the evaluation
    eval_workers: int = 1
    n_steps: int = 512  # per env, per rollout
    batch_size: int = 256
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    ent_coef: float = 0.01
    clip_range: float = 0.2
    # behaviour-cloning warm start from the heuristic (training/bc.py, training/warmstart.py)
    bc_games: int = 20  # teacher games to clone before PPO (0: no warm start)
    bc_epochs: int = 2
    bc_lr: float = 1e-3
    bc_batch_size: int = 256
    dagger_rounds: int = 0  # rounds of "the clone plays, the teacher labels", then re-clone
    dagger_games: int = 0  # games per DAgger round (0: bc_games)
    dagger_epochs: int = 1  # epochs over all the data after each DAgger round
    bc_eval_games: int = 0  # games of the clone vs random before PPO (0: skip)
    expert: str = ""  # a stronger teacher (agent spec, e.g. "mcts") distilled after the clone
    expert_games: int = 0  # games the expert plays and labels (in worker processes)
    expert_epochs: int = 2  # epochs over the expert's decisions
    expert_workers: int = 1  # processes playing the expert's games, alongside the cloning
    expert_targets: str = "choice"  # "choice": fit the expert's move; "visits": its visit shares
    bc_replay_steps: int = 0  # BC minibatches after each PPO rollout (0: none)
    bc_replay_coef: float = 1.0
    bc_replay_lr: float = 1e-4
    max_minutes: float = 0.0  # stop PPO once the run (BC included) has trained this long
    validate_games: int = 0  # games per baseline for each checkpoint; the best is best.zip
    subproc: bool = False
    torch_threads: int = 1
    progress: bool = True
    backend: str = "sb3"  # sb3: local MaskablePPO | rllib: Ray RLlib (training/rllib_backend.py)
    address: str | None = None  # rllib: Ray cluster to join; None: a local Ray on 127.0.0.1
    num_env_runners: int = 2  # rllib: env runner actors (0: sample in the driver)

    def game_options(self) -> dict:
        """The game options: training defaults for the game, overridden by ``options``."""
        return training_options(self.game, self.options)

    def out_dir(self) -> str:
        return run_dir(self.game, self.out)


def training_options(game: str, options: dict) -> dict:
    """``game``'s options for training: :data:`TRAIN_DEFAULTS`, overridden by ``options``."""
    return {**TRAIN_DEFAULTS.get(game, {}), **options}


def run_dir(game: str, out: str | None, tag: str = "") -> str:
    """``out`` if given, else ``runs/GAME[-TAG]-<UTC time>``."""
    if out:
        return out
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return os.path.join("runs", "-".join([game, *([tag] if tag else []), stamp]))
