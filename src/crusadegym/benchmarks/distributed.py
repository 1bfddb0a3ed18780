"""Self-play throughput: the local SB3 trainer beside RLlib with 1 and 2 env runners, in one run.

Usage (needs ``pip install 'crusadegym[distributed]'``)::

    python -m crusadegym.benchmarks.distributed --steps 1024 --out bench_out/distributed

Every backend trains the same network (the game's SB3 policy, :func:`~crusadegym.training.
policy.policy_spec`) against the same embedded opponent (``--opponents``, default
``random``, so every env step is a learner decision), on the same game options, without
shaping. Two rates per backend, both after a warm-up (actors started, numba compiled):

* **env steps/s**: sampling only: games stepped with the policy choosing the moves
  (SB3: the time inside ``collect_rollouts``; RLlib: one synchronous parallel sample of
  ``--steps`` env steps shared by all runners, which sample in parallel);
* **training steps/s**: env steps per wall second of whole PPO iterations (sampling,
  then learning on them), over ``--steps`` env steps.

A local Ray bound to 127.0.0.1 with ``--num-cpus`` CPUs runs the RLlib rows. It prints a
table and writes ``distributed.json`` into ``--out``. See ``docs/distributed.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

from crusadegym.cli_help import command_parser
from crusadegym.errors import USAGE_EXIT_CODE, UserError

BENCH_OPTIONS = {"players": 2, "rounds": 1, "max_turns": 15}
"""Deus lo Vult as the local trainer plays it by default (training/train_args.py TRAIN_DEFAULTS)."""


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("python -m crusadegym.benchmarks.distributed", __doc__)
    p.add_argument("--game", default="deus_lo_vult", help="game name")
    p.add_argument("--steps", type=int, default=1024, help="env steps measured per row")
    p.add_argument("--n-steps", type=int, default=128, help="PPO rollout per env per update")
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts")
    p.add_argument("--n-envs", type=int, nargs="+", default=[1, 4],
                   help="games per env runner (one RLlib row per runners x n-envs)")  # fmt: skip
    p.add_argument("--opponents", default="random", help="opponent kinds (as in train)")
    p.add_argument("--num-cpus", type=int, default=2, help="CPUs of the local Ray")
    p.add_argument("--seed", type=int, default=0, help="seed of every backend")
    p.add_argument("--out", default="bench_out/distributed", help="output folder")
    return p


def _train_args(ns: argparse.Namespace, runners: int, n_envs: int = 1) -> Any:
    from crusadegym.training.selfplay import TrainArgs

    options = BENCH_OPTIONS if ns.game == "deus_lo_vult" else {"players": 2}
    return TrainArgs(
        game=ns.game, backend="rllib", n_envs=n_envs, n_steps=ns.n_steps, batch_size=ns.n_steps,
        n_epochs=1, num_env_runners=runners, opponents=ns.opponents, options=dict(options),
        shaping="none", seed=ns.seed, bc_games=0, eval_games=0, progress=False,
        snapshot_every=0, checkpoint_every=0,
    )  # fmt: skip


def measure_sb3(ns: argparse.Namespace) -> dict:
    """MaskablePPO in this process: one env, the same rollout length and network."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from crusadegym.agents.options import make_game_with_players
    from crusadegym.training.env import make_vec_env
    from crusadegym.training.policy import policy_spec

    args = _train_args(ns, 0)
    torch.set_num_threads(1)
    game = make_game_with_players(args.game, args.players, args.game_options())
    kinds = args.opponents.split(",")
    env = make_vec_env(args.game, kinds, 1, args.seed, "none", game.config_dict())
    policy, kwargs = policy_spec(game)
    model = MaskablePPO(policy, env, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=1, policy_kwargs=kwargs, seed=args.seed, device="cpu")  # fmt: skip

    class RolloutClock(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.seconds, self._t = 0.0, 0.0

        def _on_rollout_start(self) -> None:
            self._t = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.seconds += time.perf_counter() - self._t

        def _on_step(self) -> bool:
            return True

    model.learn(args.n_steps)  # warm-up: numba compile, first update
    clock = RolloutClock()
    start = time.perf_counter()
    model.learn(ns.steps, callback=clock, reset_num_timesteps=True)
    seconds = time.perf_counter() - start
    steps = int(model.num_timesteps)
    env.close()
    return {
        "backend": "sb3 (local MaskablePPO)",
        "env_runners": 0,
        "n_envs": 1,
        "steps": steps,
        "env_steps_per_s": steps / clock.seconds,
        "train_steps_per_s": steps / seconds,
    }


def measure_rllib(ns: argparse.Namespace, runners: int, n_envs: int) -> dict:
    """PPO on RLlib with ``runners`` env runners (``n_envs`` games each) on the local Ray."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    from crusadegym.agents.options import make_game_with_players
    from crusadegym.training import rllib_backend as rb

    args = _train_args(ns, runners, n_envs)
    game = make_game_with_players(args.game, args.players, args.game_options())
    kinds = rb.check_args(args)
    t0 = time.perf_counter()
    algorithm = rb.build_config(args, game, kinds).build_algo()
    try:
        algorithm.train()  # warm-up: runners up, numba compiled, first update
        startup = time.perf_counter() - t0
        start = time.perf_counter()
        share = -(-ns.steps // runners)  # every runner samples its share, in parallel
        per_runner = algorithm.env_runner_group.foreach_env_runner(
            lambda runner: runner.sample(num_timesteps=share), local_env_runner=False
        )
        sample_seconds = time.perf_counter() - start
        sampled = sum(e.env_steps() for episodes in per_runner for e in episodes)
        first = last = None
        start = time.perf_counter()
        while last is None or last - first < ns.steps:
            result = algorithm.train()
            lifetime = int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME])
            if first is None:
                first, start = lifetime, time.perf_counter()  # time whole iterations only
            else:
                last = lifetime
        seconds = time.perf_counter() - start
    finally:
        algorithm.stop()
    return {"backend": "rllib", "env_runners": runners, "n_envs": n_envs,
            "steps": last - first,
            "env_steps_per_s": sampled / sample_seconds,
            "train_steps_per_s": (last - first) / seconds, "startup_s": startup}  # fmt: skip


def format_table(rows: list[dict]) -> str:
    head = ["backend", "env runners", "games/runner", "env steps/s", "train steps/s"]
    lines = [f"{head[0]:<24} {head[1]:>11} {head[2]:>12} {head[3]:>12} {head[4]:>14}"]
    for r in rows:
        lines.append(f"{r['backend']:<24} {r['env_runners']:>11} {r['n_envs']:>12} "
                     f"{r['env_steps_per_s']:>12.0f} {r['train_steps_per_s']:>14.1f}")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ns = build_parser().parse_args(argv)
    try:
        return run(ns, argv)
    except UserError as e:
        print(f"crusadegym.benchmarks.distributed: {e}", file=sys.stderr)
        return USAGE_EXIT_CODE


def run(ns: argparse.Namespace, argv: list[str]) -> int:
    """Measure every row, print the table, write the JSON."""
    if ns.steps < 1 or min(ns.runners) < 1 or min(ns.n_envs) < 1:
        raise UserError("--steps and every --runners and --n-envs value must be >= 1")
    from crusadegym.training import rllib_backend as rb  # UserError when the extra is absent

    rows = [measure_sb3(ns)]
    print(format_table(rows), flush=True)
    with rb.connect(None, ns.num_cpus):
        for runners in ns.runners:
            for n_envs in ns.n_envs:
                rows.append(measure_rllib(ns, runners, n_envs))
            print(format_table(rows[-1:]).splitlines()[-1], flush=True)
    os.makedirs(ns.out, exist_ok=True)
    meta = {"command": "python -m crusadegym.benchmarks.distributed " + " ".join(argv),
            "game": ns.game, "options": BENCH_OPTIONS, "opponents": ns.opponents,
            "cpus": os.cpu_count(), "machine": platform.machine(),
            "python": platform.python_version(),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}  # fmt: skip
    path = os.path.join(ns.out, "distributed.json")
    with open(path, "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    print(f"\n{format_table(rows)}\n\nwrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
