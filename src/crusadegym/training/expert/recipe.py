"""The expert-iteration loop: play with the search, learn its policy and the results.

Each round, every game of the self-play batch makes ``moves_per_round`` searched moves
(:mod:`.selfplay`); finished games go into the replay buffer (:mod:`.buffer`); then the
network takes ``sample_reuse`` gradient passes' worth of minibatches over the new samples
(:func:`.model.loss_terms`: the prior towards the search's improved policy, the values
towards the results). The network that plays self-play is always the newest one.

Every ``checkpoint_minutes`` (and at the start and the end) the network is written as
``GAME/net-NNN.npz`` (numpy; :mod:`crusadegym.agents.network`) and, with ``eval_games``,
measured in the arena against the heuristic (the network alone, one forward pass a move,
seats rotated, at the game's default config or the options given). ``GAME/curve.json``
collects those measurements (the learning curve), ``GAME/final.npz`` is the last network.
Play it with ``crusadegym arena GAME --agents expert:runs/expert/GAME/final.npz heuristic``
(add ``:simulations=16`` to search with it).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from crusadegym.agents.arena import run_arena
from crusadegym.agents.options import make_game_with_players
from crusadegym.agents.registry import make_agent
from crusadegym.agents.stats import wilson_interval
from crusadegym.core import Game

from .buffer import ReplayBuffer
from .model import PolicyValueModel, export, loss_terms
from .options import ExpertOptions, command_line, parse_options
from .selfplay import SelfPlay


def measure(
    game_name: str, players: int, options: dict, path: Path, opponent: str, games: int, seed: int
) -> dict:
    """The network alone against ``opponent`` in the arena (seats rotated)."""
    spec = f"expert:{path}"
    result = run_arena(
        game_name,
        [spec, opponent],
        games_per_lineup=games,
        players=players,
        seed=seed,
        options=options,
        progress=False,
    )
    summary = result["summary"][spec]
    points = summary["wins"] + 0.5 * summary["draws"]
    lo, hi = wilson_interval(points, summary["games"])  # a draw half a win, as the ladder
    return {
        "vs": opponent,
        "games": summary["games"],
        "wins": summary["wins"],
        "draws": summary["draws"],
        "score": points / max(summary["games"], 1),
        "score_ci95": [lo, hi],
        "cap_endings": result["cap_endings"],
    }


def describe(ev: dict) -> str:
    """One measurement as ``W-L-D, score S [lo, hi], N at cap``."""
    losses = ev["games"] - ev["wins"] - ev["draws"]
    lo, hi = ev["score_ci95"]
    return (
        f"{ev['wins']}-{losses}-{ev['draws']}, score {ev['score']:.2f} [{lo:.2f}, {hi:.2f}], "
        f"{ev['cap_endings']} at cap"
    )


PRINT_SECONDS = 15.0
"""A progress line at most this often (CPU seconds of training), and at each phase change."""


class Run:
    """One training run's state: game, network, optimiser, self-play, buffer, curve."""

    def __init__(self, opts: ExpertOptions) -> None:
        self.opts = opts
        self.options = opts.game_options()
        self.game: Game = make_game_with_players(opts.game, opts.players, self.options)
        game = self.game
        torch.manual_seed(opts.seed)
        torch.set_num_threads(opts.threads)
        self.model = PolicyValueModel(
            game.obs_size, game.num_actions, game.num_players, opts.hidden
        )
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opts.learning_rate)
        self.selfplay = SelfPlay(
            game,
            opts.batch_games,
            opts.simulations,
            opts.max_considered,
            opts.seed,
            rescale=opts.q_scale == "minmax",
        )
        self.buffer = ReplayBuffer(opts.buffer, game.obs_size, game.num_actions, game.num_players)
        self.rng = np.random.default_rng(opts.seed)
        self.out = Path(opts.out) / opts.game
        self.out.mkdir(parents=True, exist_ok=True)
        self.curve: list[dict] = []
        self.games = self.capped = self.steps = 0
        self.seconds = 0.0
        self.meta = {
            "game": game.name,
            "players": game.num_players,
            "options": self.options,
            "recipe": "expert iteration (Gumbel search)",
            "hidden": opts.hidden,
            "command": command_line(opts),
            "training_options": asdict(opts),
        }

    def learn(self, new_samples: int) -> tuple[float, float]:
        """Gradient steps over the buffer for ``new_samples`` fresh samples."""
        opts = self.opts
        steps = int(round(new_samples * opts.sample_reuse / opts.train_batch))
        policy_sum = value_sum = 0.0
        for _ in range(steps):
            obs, masks, targets, results = self.buffer.sample(self.rng, opts.train_batch)
            policy_loss, value_loss = loss_terms(
                self.model,
                torch.from_numpy(obs),
                torch.from_numpy(masks),
                torch.from_numpy(targets),
                torch.from_numpy(results),
            )
            loss = policy_loss + opts.value_weight * value_loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            policy_sum += policy_loss.item()
            value_sum += value_loss.item()
        self.steps += steps
        return policy_sum / max(steps, 1), value_sum / max(steps, 1)

    def checkpoint(self) -> dict:
        """Write the network (``net-NNN.npz``, numbered in order, and ``final.npz``),
        measure it, extend the curve."""
        meta = {
            **self.meta,
            "minutes": self.seconds / 60,
            "selfplay_games": self.games,
            "gradient_steps": self.steps,
        }
        net = export(self.model, meta)
        path = net.save(self.out / f"net-{len(self.curve):03d}.npz")
        net.save(self.out / "final.npz")
        point = {
            "minutes": round(self.seconds / 60, 2),
            "selfplay_games": self.games,
            "gradient_steps": self.steps,
            "checkpoint": path.name,
        }
        if self.opts.eval_games > 0:
            point["eval"] = {}
            for opponent in self.opts.eval_vs.split(","):
                ev = measure(
                    self.game.name,
                    self.game.num_players,
                    self.options,
                    path,
                    opponent,
                    self.opts.eval_games,
                    self.opts.seed + 7,
                )
                point["eval"][opponent] = ev
                print(
                    f"  checkpoint {path.name}: network alone vs {opponent} {describe(ev)}",
                    flush=True,
                )
        self.curve.append(point)
        (self.out / "curve.json").write_text(
            json.dumps({"meta": self.meta, "curve": self.curve}, indent=1)
        )
        return point

    def train(self) -> dict:
        """Play and learn until ``minutes`` of training have passed (checkpoints excluded)."""
        opts = self.opts
        print(
            f"expert iteration: {self.game.name}, {self.game.num_players} players, "
            f"options {self.options or 'default'}; {opts.batch_games} games at once, "
            f"{opts.simulations} simulations a move; out {self.out}",
            flush=True,
        )
        self.checkpoint()
        last_checkpoint = 0.0
        teacher = None if opts.teacher == "none" else make_agent(opts.teacher, seed=opts.seed)
        teacher_seconds = opts.minutes * 60 * opts.teacher_share if teacher else 0.0
        compiled = False
        rounds = 0
        last_print, last_phase = -PRINT_SECONDS, ""
        while self.seconds < opts.minutes * 60 and (opts.rounds == 0 or rounds < opts.rounds):
            rounds += 1
            start = time.process_time()
            teaching = self.seconds < teacher_seconds
            if teaching:
                finished = self.selfplay.play_teacher(
                    teacher, opts.moves_per_round, self.model.evaluate, opts.teacher_follow
                )
            else:
                finished = self.selfplay.play(
                    self.model.evaluate, opts.moves_per_round, teacher, opts.teacher_games
                )
                if not compiled:  # the one-off compile of the search is not training time
                    compiled = True
                    print(
                        f"  compiled the search and played its first round in "
                        f"{time.process_time() - start:.0f} s (not counted)",
                        flush=True,
                    )
                    start = time.process_time()
            new = 0
            for fg in finished:
                self.buffer.add(fg.obs, fg.masks, fg.targets, fg.results)
                new += len(fg.obs)
                self.capped += fg.truncated
            self.games += len(finished)
            policy_loss, value_loss = self.learn(new) if self.buffer.size else (0.0, 0.0)
            self.seconds += time.process_time() - start
            phase = "teacher" if teaching else "search"
            if self.seconds - last_print >= PRINT_SECONDS or phase != last_phase:
                last_print, last_phase = self.seconds, phase
                print(
                    f"  {self.seconds / 60:5.1f} min ({phase}): {self.games} games "
                    f"({self.capped} at cap), {self.buffer.added} samples, {self.steps} steps, "
                    f"policy loss {policy_loss:.3f}, value loss {value_loss:.3f}",
                    flush=True,
                )
            if self.seconds - last_checkpoint >= opts.checkpoint_minutes * 60:
                last_checkpoint = self.seconds
                self.checkpoint()
        if self.curve and self.curve[-1]["gradient_steps"] == self.steps:
            return self.curve[-1]  # the budget ran out at a checkpoint: no second one
        return self.checkpoint()


def main(argv: list[str] | None = None) -> int:
    """``crusadegym expert GAME [--minutes M] ...`` (see :mod:`.options`)."""
    opts = parse_options(argv)
    run = Run(opts)
    last = run.train() if opts.minutes > 0 else run.checkpoint()
    for opponent, end in (last.get("eval") or {}).items():
        start = run.curve[0]["eval"][opponent]
        print(
            f"network alone vs {opponent}: score {start['score']:.2f} at the start, "
            f"{end['score']:.2f} after {run.seconds / 60:.1f} min of training "
            f"({end['games']} games each; {describe(end)})"
        )
    print(f"wrote {run.out / 'final.npz'} and {run.out / 'curve.json'}")
    return 0
