"""Self-play training with MaskablePPO: ``crusadegym train <game> [options]``.

Read top to bottom: 1. the run's arguments (:class:`TrainArgs`, and the command line
that fills them), 2. seeding, 3. the model (fresh or resumed), 4. the run: the
vectorised envs, the training loop with its callback, then the final checkpoint, the
learning curve and an arena evaluation against the baselines.

The learner plays a random seat of the single-agent env each episode; the other
seats are drawn per episode from an opponent pool (:mod:`.pool`): baselines
(``random``, ``heuristic``, any agent spec) and frozen snapshots of the learner
(``self``), added every ``snapshot_every`` steps or sooner when the learner wins
``snapshot_threshold`` of its games against the current pool. The reward is the
learner's own seat's, plus potential-based shaping (:mod:`.shaping`; by default
the heuristic's evaluation, which sums to a constant over a game).

Everything lands in ``--out`` (default ``runs/<game>-<UTC timestamp>/``):
``final.zip`` (+ ``final.json`` sidecar), ``checkpoints/``, ``snapshots/``, ``tb/``
(TensorBoard), ``history.json``, ``learning_curve.png``, ``eval/`` (arena results and
plots) and ``args.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import asdict, fields
from typing import Any

import numpy as np

from crusadegym.agents.advice import ADVICE_KINDS, check_advice
from crusadegym.agents.options import make_game_with_players, parse_options
from crusadegym.cli_help import command_parser
from crusadegym.core import Game

from .shaping import SHAPING_KINDS
from .train_args import TrainArgs


def build_parser() -> argparse.ArgumentParser:
    d = TrainArgs()
    p = command_parser("crusadegym train", __doc__)
    p.add_argument("game", nargs="?", default=d.game, help="game name")
    p.add_argument("--timesteps", type=int, default=d.timesteps,
                   help="learner steps to train (with --resume: steps to add)")  # fmt: skip
    p.add_argument("--n-envs", type=int, default=d.n_envs, help="parallel envs")
    p.add_argument("--seed", type=int, default=d.seed, help="seed of envs, opponents, torch")
    p.add_argument("--opponents", default=d.opponents,
                   help="comma-separated opponent kinds: agent specs and/or 'self'")  # fmt: skip
    p.add_argument("--players", type=int, default=d.players, help="seats per game")
    p.add_argument("--rounds", type=int, help="game option rounds (deus_lo_vult: 1)")
    p.add_argument("--max-turns", type=int, help="game option max_turns (deus_lo_vult: 15)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="any game option, repeatable")  # fmt: skip
    p.add_argument(
        "--shaping",
        choices=SHAPING_KINDS,
        default=d.shaping,
        help="potential-based reward shaping ('none': game result only)",
    )
    p.add_argument("--shaping-weight", type=float, default=d.shaping_weight,
                   help="scale of the shaping potential")  # fmt: skip
    p.add_argument("--advice", choices=ADVICE_KINDS, default=d.advice,
                   help="'heuristic': the policy also sees the heuristic's verdict on every "
                   "action and adds it to its logits (a residual policy over the heuristic; "
                   "it then plays through the core state, see agents/advice.py)")  # fmt: skip
    p.add_argument("--snapshot-every", type=int, default=d.snapshot_every,
                   help="steps between learner snapshots joining the pool")  # fmt: skip
    p.add_argument("--snapshot-threshold", type=float, default=d.snapshot_threshold,
                   help="snapshot early when the win rate vs the pool reaches this")  # fmt: skip
    p.add_argument("--max-snapshots", type=int, default=d.max_snapshots,
                   help="snapshots kept in the pool (oldest dropped)")  # fmt: skip
    p.add_argument(
        "--checkpoint-every",
        type=int,
        default=d.checkpoint_every,
        help="steps between resumable checkpoints (0: none)",
    )
    p.add_argument("--keep-checkpoints", type=int, default=d.keep_checkpoints,
                   help="checkpoint files kept on disk, newest first (0: all)")  # fmt: skip
    p.add_argument("--out", help="output dir (default: runs/<game>-<UTC timestamp>)")
    p.add_argument("--resume", default=None, metavar="CKPT", help="continue from a .zip")
    p.add_argument("--eval-games", type=int, default=d.eval_games,
                   help="evaluation games per baseline (0: skip)")  # fmt: skip
    p.add_argument("--eval-workers", type=int, default=d.eval_workers,
                   help="parallel evaluation games (processes)")  # fmt: skip
    p.add_argument("--n-steps", type=int, default=d.n_steps, help="PPO rollout length per env")
    p.add_argument("--batch-size", type=int, default=d.batch_size, help="PPO minibatch")
    p.add_argument("--n-epochs", type=int, default=d.n_epochs, help="PPO epochs per rollout")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate, help="Adam step")
    p.add_argument("--gamma", type=float, default=d.gamma, help="discount")
    p.add_argument("--ent-coef", type=float, default=d.ent_coef, help="entropy bonus")
    p.add_argument("--clip-range", type=float, default=d.clip_range, help="PPO clip range")
    p.add_argument("--bc-games", type=int, default=d.bc_games,
                   help="heuristic games cloned before PPO (0: no warm start)")  # fmt: skip
    p.add_argument("--bc-epochs", type=int, default=d.bc_epochs, help="behaviour-cloning epochs")
    p.add_argument("--bc-lr", type=float, default=d.bc_lr, help="behaviour-cloning Adam step")
    p.add_argument("--bc-batch-size", type=int, default=d.bc_batch_size,
                   help="behaviour-cloning minibatch")  # fmt: skip
    p.add_argument("--dagger-rounds", type=int, default=d.dagger_rounds,
                   help="DAgger rounds (the clone plays, the heuristic labels)")  # fmt: skip
    p.add_argument("--dagger-games", type=int, default=d.dagger_games,
                   help="games per DAgger round (0: --bc-games)")  # fmt: skip
    p.add_argument("--dagger-epochs", type=int, default=d.dagger_epochs,
                   help="epochs over all the data after each DAgger round")  # fmt: skip
    p.add_argument("--bc-eval-games", type=int, default=d.bc_eval_games,
                   help="arena games of the clone vs random before PPO (0: skip)")  # fmt: skip
    p.add_argument("--expert", default=d.expert,
                   help="agent spec of a stronger teacher to distil after the heuristic "
                   "clone, e.g. 'mcts' or 'mcts:iterations=50' (empty: none)")  # fmt: skip
    p.add_argument("--expert-games", type=int, default=d.expert_games,
                   help="games the expert plays and labels")  # fmt: skip
    p.add_argument("--expert-epochs", type=int, default=d.expert_epochs,
                   help="epochs over the expert's decisions")  # fmt: skip
    p.add_argument(
        "--expert-workers",
        type=int,
        default=d.expert_workers,
        help="processes playing the expert's games while the heuristic is cloned",
    )
    p.add_argument("--expert-targets", choices=("visits", "choice"), default=d.expert_targets,
                   help="fit a searching expert's root visit shares, or only its move")  # fmt: skip
    p.add_argument("--bc-replay-steps", type=int, default=d.bc_replay_steps,
                   help="imitation minibatches after every PPO rollout (0: none)")  # fmt: skip
    p.add_argument("--bc-replay-coef", type=float, default=d.bc_replay_coef,
                   help="weight of the imitation loss in those steps")  # fmt: skip
    p.add_argument("--bc-replay-lr", type=float, default=d.bc_replay_lr,
                   help="Adam step of those imitation steps")  # fmt: skip
    p.add_argument("--max-minutes", type=float, default=d.max_minutes,
                   help="stop PPO once the run, BC included, is this old (0: never)")  # fmt: skip
    p.add_argument("--validate-games", type=int, default=d.validate_games,
                   help="play each checkpoint and the final policy this many games per "
                   "baseline in a background process; keep the best as best.zip and "
                   "evaluate that (0: off; needs --checkpoint-every)")  # fmt: skip
    p.add_argument("--subproc", action="store_true", help="SubprocVecEnv instead of Dummy")
    p.add_argument("--torch-threads", type=int, default=d.torch_threads, help="torch CPU threads")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--backend", choices=("sb3", "rllib"), default=d.backend,
                   help="sb3: local MaskablePPO; rllib: Ray RLlib, needs the distributed extra "
                   "(docs/distributed.md)")  # fmt: skip
    p.add_argument("--address", default=d.address, metavar="auto|HOST:PORT",
                   help="rllib: Ray cluster to join (default: local Ray on 127.0.0.1)")  # fmt: skip
    p.add_argument("--num-env-runners", type=int, default=d.num_env_runners,
                   help="rllib: env runner actors sampling games (0: in the driver)")  # fmt: skip
    return p


def parse_args(argv: list[str] | None) -> TrainArgs:
    """A :class:`TrainArgs` from command-line arguments."""
    ns = build_parser().parse_args(argv)
    options = parse_options(ns.option)
    if ns.rounds is not None:
        options["rounds"] = ns.rounds
    if ns.max_turns is not None:
        options["max_turns"] = ns.max_turns
    flags = {f.name: getattr(ns, f.name) for f in fields(TrainArgs) if hasattr(ns, f.name)}
    return TrainArgs(**flags, options=options, progress=not ns.quiet)


# -- 2. seeding -------------------------------------------------------------------------
def seed_everything(seed: int, torch_threads: int) -> None:
    """Seed Python, NumPy and torch; pin torch's thread count (CPU runs share cores)."""
    import torch
    from stable_baselines3.common.utils import set_random_seed

    random.seed(seed)
    np.random.seed(seed)
    set_random_seed(seed)
    torch.set_num_threads(max(1, torch_threads))


# -- 3. the model ----------------------------------------------------------------------
def build_model(args: TrainArgs, game: Game, env: Any, tb_dir: str) -> Any:
    """A fresh MaskablePPO with the game's policy (:func:`~.policy.policy_spec`), or the
    ``--resume`` checkpoint on ``env``."""
    from sb3_contrib import MaskablePPO

    from .checkpoint import load_model
    from .policy import policy_spec

    if args.resume:
        model = load_model(args.resume, game, env=env, advice=args.advice)
        model.tensorboard_log = tb_dir
        return model
    policy, policy_kwargs = policy_spec(game, args.advice)
    return MaskablePPO(
        policy, env, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.n_epochs, learning_rate=args.learning_rate, gamma=args.gamma,
        ent_coef=args.ent_coef, clip_range=args.clip_range, policy_kwargs=policy_kwargs,
        tensorboard_log=tb_dir, seed=args.seed, verbose=0, device="cpu",
    )  # fmt: skip


# -- 4. the run -------------------------------------------------------------------------
def train(args: TrainArgs) -> dict:
    """Run one training (see the module docstring); return paths and evaluation results."""
    from .callbacks import SelfPlayCallback
    from .checkpoint import save_checkpoint
    from .env import make_vec_env
    from .evaluate import evaluate_checkpoint, format_evaluation
    from .plots import plot_learning_curve
    from .pool import parse_opponents

    if args.timesteps < 1:
        raise ValueError(f"timesteps must be >= 1, got {args.timesteps}")
    if args.expert_targets not in ("visits", "choice"):
        raise ValueError(f"expert_targets is 'visits' or 'choice', not {args.expert_targets!r}")
    check_advice(args.advice)
    kinds = parse_opponents(args.opponents)
    options = args.game_options()
    game = make_game_with_players(args.game, args.players, options)
    config = game.config_dict()
    out = args.out_dir()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "args.json"), "w") as f:
        json.dump(asdict(args) | {"config": config}, f, indent=1)

    baselines = [k for k in kinds if k != "self"] or ["random"]
    validator = None
    if args.validate_games:
        if args.validate_games < 0 or args.checkpoint_every < 1:
            raise ValueError("--validate-games needs games >= 1 and --checkpoint-every >= 1")
        from .validate import CheckpointValidator, write_validation_scalars

        validator = CheckpointValidator(args.game, baselines, args.validate_games,
                                        game.num_players, options, out, args.seed)  # fmt: skip

    seed_everything(args.seed, args.torch_threads)
    run_start = time.perf_counter()
    env = make_vec_env(args.game, kinds, args.n_envs, args.seed, args.shaping, config,
                       subproc=args.subproc, max_snapshots=args.max_snapshots,
                       shaping_weight=args.shaping_weight, advice=args.advice)  # fmt: skip
    tb_dir = os.path.join(out, "tb")
    model = build_model(args, game, env, tb_dir)
    bc_metrics, callbacks = warm_start_phase(args, model, game, out)
    if validator is not None and bc_metrics.get("checkpoint"):
        validator.submit(bc_metrics["checkpoint"], model.num_timesteps)  # the clone, before PPO

    callback = SelfPlayCallback(
        game, out, kinds, args.timesteps, snapshot_every=args.snapshot_every,
        snapshot_threshold=args.snapshot_threshold,
        snapshot_min_episodes=args.snapshot_min_episodes,
        checkpoint_every=args.checkpoint_every, progress=args.progress,
        keep_snapshots=args.max_snapshots, keep_checkpoints=args.keep_checkpoints,
        deadline=run_start + 60 * args.max_minutes if args.max_minutes > 0 else None,
        on_checkpoint=validator.submit if validator else None,
    )  # fmt: skip
    start = time.perf_counter()
    try:
        model.learn(args.timesteps, callback=[callback, *callbacks], tb_log_name="selfplay",
                    reset_num_timesteps=not args.resume)  # fmt: skip
    except BaseException as e:
        if validator is not None:
            validator.close()
        if isinstance(e, KeyboardInterrupt):
            path = save_checkpoint(model, os.path.join(out, "interrupted.zip"), game)
            print(f"\ninterrupted: saved {path} (continue with --resume {path})", file=sys.stderr)
        raise
    finally:
        env.close()
    seconds = time.perf_counter() - start
    total_seconds = time.perf_counter() - run_start
    final = save_checkpoint(model, os.path.join(out, "final.zip"), game, {"role": "final"})
    hero = final
    validation = None
    if validator is not None:
        validator.submit(final, model.num_timesteps)
        validation = validator.finish()
        write_validation_scalars(validation, tb_dir)
        hero = validation["best"]
    curve = plot_learning_curve(
        callback.history, os.path.join(out, "learning_curve.png"),
        title=f"{args.game} self-play, {model.num_timesteps} steps, seed {args.seed}",
        validation=validation,
    )  # fmt: skip
    summary = {
        "out": out, "final": final, "validation": validation, "tensorboard": tb_dir,
        "learning_curve": curve,
        # Only the files still on disk (the oldest are pruned); the counts say how many
        # were written.
        "checkpoints": _existing(callback.checkpoints), "snapshots": _existing(callback.snapshots),
        "checkpoints_written": len(callback.checkpoints),
        "snapshots_written": len(callback.snapshots),
        "timesteps": int(model.num_timesteps), "train_seconds": seconds,
        "steps_per_s": (model.num_timesteps - callback.start_steps) / seconds,
        "total_train_seconds": total_seconds, "bc": bc_metrics, "history": callback.history,
    }  # fmt: skip
    if args.eval_games > 0:
        result = evaluate_checkpoint(
            hero, args.game, baselines, args.eval_games, game.num_players, options,
            out_dir=os.path.join(out, "eval"), seed=args.seed + 1,
            workers=args.eval_workers, progress=args.progress,
        )  # fmt: skip
        summary["evaluation"] = {k: result[k] for k in ("vs", "summary", "ratings", "files")}
        summary["evaluation_table"] = format_evaluation(result)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({k: v for k, v in summary.items() if k != "history"}, f, indent=1)
    return summary


def warm_start_phase(args: TrainArgs, model: Any, game: Game, out: str) -> tuple[dict, list]:
    """Behaviour cloning before PPO (fresh runs with ``bc_games``); the replay callbacks."""
    if args.resume or args.bc_games < 1:
        return {}, []
    from .warmstart import BCReplayCallback, warm_start

    metrics, demos = warm_start(
        model, game, out, args.bc_games, args.bc_epochs, lr=args.bc_lr,
        batch_size=args.bc_batch_size, dagger_rounds=args.dagger_rounds,
        dagger_games=args.dagger_games, dagger_epochs=args.dagger_epochs, shaping=args.shaping,
        shaping_weight=args.shaping_weight, eval_games=args.bc_eval_games,
        expert=args.expert, expert_games=args.expert_games, expert_epochs=args.expert_epochs,
        expert_workers=args.expert_workers, expert_soft=args.expert_targets == "visits",
        advice=args.advice,
        options=args.game_options(), seed=args.seed, progress=args.progress,
    )  # fmt: skip
    if args.bc_replay_steps < 1:
        return metrics, []
    replay = BCReplayCallback(demos, args.bc_replay_steps, args.bc_replay_coef,
                              args.bc_replay_lr, args.bc_batch_size, args.seed)  # fmt: skip
    return metrics, [replay]


def _existing(paths: list[str]) -> list[str]:
    """The paths whose files still exist (pruned checkpoints and snapshots are gone)."""
    return [p for p in paths if os.path.isfile(p)]


def report(summary: dict) -> str:
    """The end-of-run text: evaluation table, then where everything went."""
    lines, tb = [], summary["tensorboard"]
    if "evaluation_table" in summary:
        lines += ["", summary["evaluation_table"]]
    bc = summary.get("bc") or {}
    if bc:
        lines += [
            "",
            f"behaviour cloning: {bc['rows']} heuristic decisions from {bc['games']} games, "
            f"top-1 agreement {bc['train_acc']:.3f} (train) / {bc['held_out_acc']:.3f} "
            f"(held-out games), {bc['seconds']:.0f} s",
        ]
        if "expert" in bc:
            ex = bc["expert"]
            lines.append(
                f"expert distillation: {ex['rows'] + ex['held_out_rows']} {ex['teacher']} "
                f"decisions from {ex['games']} games, top-1 agreement "
                f"{ex['held_out_acc_before']:.3f} -> {ex['held_out_acc']:.3f} (held-out games), "
                f"{ex['seconds']:.0f} s fitting, "
                f"{ex['wait_seconds']:.0f} s waiting for the expert's games"
            )
        for opp, s in bc.get("vs", {}).items():
            lo, hi = s["win_rate_ci95"]
            lines.append(
                f"cloned policy vs {opp}: win {s['win_rate']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]"
                f"  ({s['wins']} wins, {s['draws']} draws, {s['games']} games)"
            )
    lines += [
        "",
        f"trained {summary['timesteps']} steps in {summary['train_seconds']:.0f} s "
        f"({summary['steps_per_s']:.0f} steps/s); {summary['total_train_seconds']:.0f} s "
        "with the warm start",
        f"final checkpoint : {summary['final']}",
        *_validation_lines(summary.get("validation")),
        f"checkpoints      : {os.path.join(summary['out'], 'checkpoints')} "
        f"({summary['checkpoints_written']} written, {len(summary['checkpoints'])} kept)",
        f"TensorBoard logs : {tb}  (view: tensorboard --logdir {tb})",
        f"learning curve   : {summary['learning_curve']}",
    ]
    for path in summary.get("evaluation", {}).get("files", []):
        lines.append(f"evaluation       : {path}")
    return "\n".join(lines)


def _validation_lines(validation: dict | None) -> list[str]:
    if not validation:
        return []
    scores = ", ".join(f"{r['steps']}: {r['score']:.3f}" for r in validation["rows"])
    return [
        f"best checkpoint  : {validation['best']} (step {validation['best_steps']}; evaluated "
        "above)",
        f"validation       : score per checkpoint over {validation['games_per_baseline']} "
        f"games per baseline (win 1, draw 1/2) -- {scores}",
    ]


def main(argv: list[str] | None = None) -> int:
    """``crusadegym train``: parse, train, evaluate, print the report; 2 on bad input."""
    try:
        args = parse_args(argv)
        if args.backend == "rllib":
            from .rllib_backend import main as rllib_main  # needs crusadegym[distributed]

            print(rllib_main(args))
            return 0
        summary = train(args)
    except (ValueError, KeyError, FileNotFoundError) as e:
        print(f"crusadegym train: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    print(report(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
