"""Learner throughput: today's SB3 MaskablePPO path beside the fast batched learner, one run.

``python -m crusadegym.benchmarks.learner deus_lo_vult --out runs/bench_learner``

What is measured, all in one process, one after the other, on the same game config:

* **sb3**: ``crusadegym train`` as it is (:func:`crusadegym.training.selfplay.train`:
  2 ``SelfPlayEnv`` in a ``DummyVecEnv``, heuristic shaping, no warm start, no
  evaluation) with the default conv policy and the pool ``random,self``; learner steps
  per second over its PPO phase, as the run reports it.
* **fastppo, <net>**: :class:`crusadegym.training.fastppo.FastPPO` over the batched
  engine with opponents ``random,snapshot`` (the same two kinds: a frozen snapshot of the
  learner is what ``self`` means in the SB3 pool) and heuristic shaping, with each net of
  ``--nets``. One rollout and update run first, untimed, so the compilation of the
  batched drivers (once per process, ~30 s) is not counted; it is reported apart.
* **network cost**: one forward pass per position (batch 256) and one forward+backward,
  per net: the figures behind the PPO-vs-AlphaZero choice (a PUCT search of ``S``
  simulations needs ``S`` forward passes per learner step).

"Learner steps" are decisions of the learning policy (opponents' moves are not
counted), in both paths. Rates are given per wall-clock second and per CPU-second of the
process (``time.process_time``, all its threads): on a machine shared with other jobs the
wall rate depends on the scheduler, the CPU rate on the work. Both use ``--torch-threads``
torch threads; the fast learner's batched drivers run on numba's ``workqueue`` layer with
numba's default thread count (see :func:`crusadegym.training.fastppo.use_workqueue_threads`).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from crusadegym.agents.options import make_game_with_players, parse_options
from crusadegym.cli_help import command_parser


@contextmanager
def _clocked_rows() -> Iterator[None]:
    """Add the wall and CPU clocks to every row ``crusadegym train`` logs (rollout ends)."""
    from crusadegym.training.callbacks import SelfPlayCallback

    original = SelfPlayCallback.log_row

    def log_row(self: SelfPlayCallback) -> dict:
        return {**original(self), "bench/wall": time.perf_counter(),
                "bench/cpu": time.process_time()}  # fmt: skip

    SelfPlayCallback.log_row = log_row
    try:
        yield
    finally:
        SelfPlayCallback.log_row = original


def sb3_rate(game: str, options: dict, steps: int, torch_threads: int, seed: int = 0) -> dict:
    """Learner steps/s of ``crusadegym train`` (PPO phase only) for ``steps`` steps.

    Timed from the end of the first rollout to the end of the last (the first rollout
    compiles the shaping and opponent kernels), by the wall and by this process's CPU.
    """
    from crusadegym.training.selfplay import TrainArgs, train

    with tempfile.TemporaryDirectory() as out, _clocked_rows():
        args = TrainArgs(
            game=game, options=dict(options), timesteps=steps, opponents="random,self",
            bc_games=0, eval_games=0, torch_threads=torch_threads, seed=seed, out=out,
            progress=False,
        )  # fmt: skip
        summary = train(args)
    rows = summary["history"]
    if len(rows) < 2:
        raise ValueError(f"--sb3-steps {steps} gives one rollout; give at least 2048")
    first, last = rows[0], rows[-1]
    n = last["timesteps"] - first["timesteps"]
    wall = last["bench/wall"] - first["bench/wall"]
    cpu = last["bench/cpu"] - first["bench/cpu"]
    return {"path": "sb3", "net": "default", "steps": n, "seconds": wall, "cpu_seconds": cpu,
            "steps_per_s": n / wall, "steps_per_cpu_s": n / cpu}  # fmt: skip


def fast_rate(
    game: str, options: dict, steps: int, net: str, torch_threads: int, seed: int = 0,
    n_games: int = 64, rollout: int = 4096,
) -> dict:  # fmt: skip
    """Learner steps/s of the fast learner with ``net``, compilation excluded."""
    from crusadegym.training.fastppo import FastArgs, FastPPO

    args = FastArgs(
        game=game, options=dict(options), net=net, opponents="random,snapshot",
        torch_threads=torch_threads, seed=seed, n_games=n_games, rollout=rollout,
        timesteps=steps, quiet=True,
    )  # fmt: skip
    start = time.perf_counter()
    learner = FastPPO(args)
    learner.collect()  # compiles the batched drivers; not timed
    learner.update()
    warmup = time.perf_counter() - start
    run = learner.learn()
    return {"path": "fastppo", "net": net, "steps": run["steps"], "seconds": run["seconds"],
            "cpu_seconds": run["cpu_seconds"], "steps_per_s": run["steps_per_s"],
            "steps_per_cpu_s": run["steps"] / run["cpu_seconds"], "warmup_seconds": warmup,
            "threading_layer": learner.threading_layer}  # fmt: skip


def network_cost(game: str, options: dict, net: str, batch: int = 256, reps: int = 5) -> dict:
    """Microseconds per position of one forward, and of one forward+backward, of ``net``."""
    import torch

    from crusadegym.training.fastppo import build_model

    g = make_game_with_players(game, None, options)
    policy = build_model(g, net).policy
    obs = torch.rand(batch, g.obs_size)
    masks = torch.ones(batch, g.num_actions, dtype=torch.bool)
    actions = torch.zeros(batch, dtype=torch.long)
    with torch.no_grad():
        policy.evaluate_actions(obs, actions, action_masks=masks)
        start = time.perf_counter()
        for _ in range(reps):
            policy.evaluate_actions(obs, actions, action_masks=masks)
        forward = (time.perf_counter() - start) / reps / batch
    start = time.perf_counter()
    for _ in range(reps):
        values, logp, entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
        loss = values.mean() - logp.mean() - entropy.mean()
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()
    both = (time.perf_counter() - start) / reps / batch
    params = sum(p.numel() for p in policy.parameters())
    return {"net": net, "parameters": int(params), "forward_us": forward * 1e6,
            "forward_backward_us": both * 1e6}  # fmt: skip


def run(
    game: str, options: dict, sb3_steps: int, fast_steps: int, nets: list[str],
    torch_threads: int = 1, seed: int = 0,
) -> dict:  # fmt: skip
    """Every measurement of the module docstring; ``ratio`` is each fast row over sb3."""
    import torch

    torch.set_num_threads(torch_threads)
    costs = [network_cost(game, options, net) for net in nets]
    rows = [sb3_rate(game, options, sb3_steps, torch_threads, seed)]
    rows += [fast_rate(game, options, fast_steps, net, torch_threads, seed) for net in nets]
    for key in ("steps_per_s", "steps_per_cpu_s"):
        base = rows[0][key]
        for row in rows:
            row[key.replace("steps_per", "ratio")] = row[key] / base
    return {"game": game, "options": options, "torch_threads": torch_threads,
            "load_avg": os.getloadavg(), "rows": rows, "network": costs}  # fmt: skip


def format_report(result: dict) -> str:
    """Markdown tables of the learner rates and the network costs."""
    lines = ["| path | net | learner steps | wall s | CPU s | steps/s (wall) | x sb3 "
             "| steps per CPU-s | x sb3 |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in result["rows"]:
        lines.append(f"| {r['path']} | {r['net']} | {r['steps']} | {r['seconds']:.1f} | "
                     f"{r['cpu_seconds']:.1f} | {r['steps_per_s']:.0f} | {r['ratio_s']:.1f} | "
                     f"{r['steps_per_cpu_s']:.0f} | {r['ratio_cpu_s']:.1f} |")  # fmt: skip
    lines += ["", "| net | parameters | forward, us/position | forward+backward, us/position |",
              "|---|---|---|---|"]  # fmt: skip
    for c in result["network"]:
        lines.append(f"| {c['net']} | {c['parameters']:,} | {c['forward_us']:.0f} | "
                     f"{c['forward_backward_us']:.0f} |")  # fmt: skip
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("python -m crusadegym.benchmarks.learner", __doc__)
    p.add_argument("game", nargs="?", default="deus_lo_vult")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="game option (deus_lo_vult defaults: rounds=1, max_turns=15)",
    )
    p.add_argument("--sb3-steps", type=int, default=3072)
    p.add_argument("--fast-steps", type=int, default=40960)
    p.add_argument("--nets", default="default,small")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="directory for learner.json")
    return p  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    from crusadegym.training.train_args import TRAIN_DEFAULTS

    args = build_parser().parse_args(argv)
    options = {**TRAIN_DEFAULTS.get(args.game, {}), **parse_options(args.option)}
    nets = [n for n in args.nets.split(",") if n]
    result = run(args.game, options, args.sb3_steps, args.fast_steps, nets,
                 args.torch_threads, args.seed)  # fmt: skip
    print(format_report(result))
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "learner.json")
        with open(path, "w") as f:
            json.dump(result, f, indent=1, default=lambda x: np.asarray(x).tolist())
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
