"""A fast masked-PPO learner fed straight from the batched engine: ``crusadegym fastppo``.

Why PPO and not AlphaZero-style search here (measured, ``docs/training.md``, "The fast
learner"): on this 2-core machine the network's forward pass costs 94 us a position
for the ``small`` net (624 us for the default conv stack), so a PUCT search of even 32
simulations per move costs ~3 ms of network time per learner step, while PPO costs one
forward in the rollout plus ``n_epochs`` forward+backward passes (~0.5 ms). The
bottleneck the issue names is the learner, so the learner here is PPO without the
per-env Python objects of the SB3 path:

* **Games as one array.** ``n_games`` games live in one ``[B, S]`` int32 array, stepped
  by the core's compiled drivers (:mod:`crusadegym.core.drivers`: ``batch_observe``,
  ``batch_step`` with auto-reset). No Gymnasium env, no ``DummyVecEnv``, no per-game
  opponent objects.
* **Every seat a learner can be.** Each game draws an opponent kind when it starts
  (:data:`OPPONENT_KINDS`): ``self`` (the current policy in every seat, all of them
  learning: mirror self-play), ``snapshot`` (the learner in one random seat, a frozen
  copy of an earlier learner, sampling, in the others), ``random`` or ``heuristic``
  (the heuristic is played game by game through ``act_state``, so it is the slow kind).
  All learner seats of all games move in one batched forward pass per engine step.
* **Chained transitions** (:mod:`.fastbuffer`): a transition's reward is its seat's
  reward until that seat's next decision, plus potential-based shaping with the
  heuristic's evaluation (as ``crusadegym train --shaping heuristic``); GAE is compiled.
* **Same network, same checkpoint.** The model is an sb3-contrib ``MaskablePPO`` with
  the game's policy (:func:`~.policy.policy_spec`, optionally a lighter trunk, see
  :data:`NETS`); this module only replaces the training loop. Checkpoints are written
  by :func:`~.checkpoint.save_checkpoint` (zip + sidecar, the sidecar also records
  ``"learner": "fastppo"`` and the net), so ``policy:PATH`` in the arena, ``crusadegym
  play`` and :func:`crusadegym.agents.load_policy_agent` load them like any other.
* **Masked priors.** Logits of illegal actions are replaced before the softmax
  (sb3-contrib's ``MaskableCategorical``), so sampling, log-probabilities and entropy
  put no mass on them (tested).

Output (``--out``): ``final.zip`` + ``final.json``, ``checkpoints/``, ``history.json``
(one row per rollout: steps, steps/s, win rate and mean result per opponent kind over
the last 100 games, losses), ``learning_curve.png``, ``summary.json``, and with
``--eval-games`` an arena gauntlet in ``eval/``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import deque
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from crusadegym.agents.options import make_game_with_players, parse_options
from crusadegym.cli_help import command_parser
from crusadegym.core import Game
from crusadegym.core.drivers import batch_init, batch_legal_masks, batch_observe, batch_step
from crusadegym.core.protocol import MASK_DTYPE, OBS_DTYPE, STATE_DTYPE

from .callbacks import prune
from .fastbuffer import ChainBuffer, batch_potentials
from .train_args import run_dir, training_options

OPPONENT_KINDS = ("self", "snapshot", "random", "heuristic")
"""What a game's other seats are (drawn uniformly from ``--opponents`` when it starts)."""

NETS: dict[str, dict] = {
    "default": {},
    "small": {"channels": 16, "layers": 2, "flat_dim": 64, "scalar_dim": 32},
}
"""Trunk overrides of the spatial extractor per ``--net`` (games with a board layout; the
MLP of other games is the same for every net). ``default`` is the conv stack of
``crusadegym train`` (:class:`~.spatial.SpatialExtractor`, about 1.1 M parameters);
``small`` is :class:`~.fastnet.CompactExtractor` (a 1x1 stem to 16 channels, two 3x3
convs, about 0.2 M parameters), several times cheaper a position (the costs are measured
by :mod:`crusadegym.benchmarks.learner`)."""

SEED_BOUND = 0x7FFFFFFFFFFFFFFF


@dataclass
class FastArgs:
    """Every knob of a fast run (the command line fills these; see ``--help``)."""

    game: str = "deus_lo_vult"
    players: int = 2
    options: dict = field(default_factory=dict)
    timesteps: int = 100_000
    max_minutes: float = 0.0
    n_games: int = 64
    rollout: int = 4096
    n_epochs: int = 2
    batch_size: int = 1024
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    net: str = "small"
    opponents: str = "self,snapshot"
    snapshot_every: int = 20_000
    max_snapshots: int = 5
    shaping: str = "heuristic"
    shaping_weight: float = 1.0
    bc_games: int = 20  # the default of crusadegym train; 0: PPO from scratch
    bc_epochs: int = 2
    dagger_rounds: int = 0
    dagger_games: int = 0
    bc_replay_steps: int = 0
    checkpoint_every: int = 50_000
    keep_checkpoints: int = 3
    eval_games: int = 0
    seed: int = 0
    torch_threads: int = 1
    resume: str = ""
    out: str = ""
    quiet: bool = False

    def game_options(self) -> dict:
        return training_options(self.game, self.options)

    def out_dir(self) -> str:
        return run_dir(self.game, self.out, "fastppo")

    def kinds(self) -> list[str]:
        kinds = [k for k in self.opponents.split(",") if k]
        bad = [k for k in kinds if k not in OPPONENT_KINDS]
        if not kinds or bad:
            raise ValueError(f"--opponents takes a comma list of {OPPONENT_KINDS}, got {bad}")
        return kinds

    def check(self) -> None:
        """A one-line ValueError for any knob out of range (before anything is built)."""
        positive = ("timesteps", "n_games", "rollout", "n_epochs", "batch_size", "torch_threads")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 1")
        for name in ("bc_games", "bc_epochs", "dagger_rounds", "dagger_games", "bc_replay_steps"):
            if getattr(self, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 0")
        if self.net not in NETS:
            raise ValueError(f"--net must be one of {sorted(NETS)}, got {self.net!r}")
        if self.shaping not in ("none", "heuristic"):
            raise ValueError(f"--shaping must be 'none' or 'heuristic', got {self.shaping!r}")
        self.kinds()


# -- the model -----------------------------------------------------------------------------
def _spaces_env(game: Game, obs_size: int) -> Any:
    """A Gymnasium env that only carries the spaces (MaskablePPO wants one; never stepped)."""
    import gymnasium as gym

    class SpacesOnly(gym.Env):
        observation_space = gym.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32)
        action_space = gym.spaces.Discrete(game.num_actions)

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
            return np.zeros(obs_size, np.float32), {}

        def step(self, action: int) -> tuple:
            raise RuntimeError("the fast learner steps the core batch, not this env")

    return SpacesOnly()


def build_model(game: Game, net: str = "small", learning_rate: float = 3e-4, seed: int = 0) -> Any:
    """A fresh ``MaskablePPO`` with the game's policy and the ``net`` trunk (:data:`NETS`)."""
    from sb3_contrib import MaskablePPO

    from .fastnet import CompactExtractor
    from .policy import policy_spec

    policy, kwargs = policy_spec(game)
    if NETS[net] and policy != "MlpPolicy":
        kwargs = {**kwargs, "features_extractor_class": CompactExtractor,
                  "features_extractor_kwargs": {**kwargs["features_extractor_kwargs"],
                                                **NETS[net]}}  # fmt: skip
    return MaskablePPO(
        policy, _spaces_env(game, game.obs_size), learning_rate=learning_rate,
        policy_kwargs=kwargs, seed=seed, device="cpu", verbose=0,
    )  # fmt: skip


def masked_distribution(policy: Any, obs: Any, masks: Any) -> Any:
    """The policy's action distribution with illegal actions masked out (torch tensors)."""
    dist = policy.get_distribution(obs, action_masks=masks)
    return dist.distribution  # torch Categorical over the masked logits


# -- the learner -----------------------------------------------------------------------------
def use_workqueue_threads() -> str:
    """Run numba's parallel drivers on its ``workqueue`` layer in this process, if still free.

    Measured (``docs/training.md``, "The fast learner"): once numba's OpenMP layer has run a
    ``prange`` driver with 2 threads, every torch forward pass in the same process costs
    about 20x more CPU (9 ms -> 204 ms for the small net on 64 positions), with torch at
    one thread. The workqueue layer (or one numba thread) leaves torch alone. The layer is
    chosen at the first parallel launch, so this only helps before one; returns the layer.
    """
    import numba

    try:
        return numba.threading_layer()  # already chosen
    except ValueError:
        numba.config.THREADING_LAYER = "workqueue"
        return "workqueue"


class FastPPO:
    """PPO over ``n_games`` batched games; see the module docstring."""

    def __init__(self, args: FastArgs, model: Any = None, replay: Any = None) -> None:
        import torch

        args.check()
        self.threading_layer = use_workqueue_threads()
        if self.threading_layer == "omp":
            from crusadegym.core.jit import set_threads

            set_threads(1)  # OpenMP already running: one thread keeps torch at full speed
        self.args = args
        self.torch = torch
        torch.manual_seed(args.seed)
        torch.set_num_threads(args.torch_threads)
        self.game = make_game_with_players(args.game, args.players, args.game_options())
        g = self.game
        self.model = model if model is not None else build_model(
            g, args.net, args.learning_rate, args.seed)  # fmt: skip
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self.rng = np.random.default_rng(args.seed)
        self.kinds = args.kinds()
        B, P = args.n_games, g.num_players
        self.states = np.zeros((B, g.state_size), STATE_DTYPE)
        self.masks = np.zeros((B, g.num_actions), MASK_DTYPE)
        self.players = np.zeros(B, np.int64)
        self.step_rewards = np.zeros((B, P), OBS_DTYPE)
        self.dones = np.zeros(B, np.bool_)
        self.phi = np.zeros((B, P), np.float32)
        self.episode_return = np.zeros((B, P), np.float32)
        self.kind = np.zeros(B, np.int64)
        self.hero = np.zeros(B, np.int64)  # the learner's seat (snapshot/random/heuristic games)
        self.learner = np.zeros((B, P), np.bool_)
        self.snap_of = np.zeros(B, np.int64)
        self.snapshots: list[Any] = []
        self.buffer = ChainBuffer(args.rollout + B, g.obs_size, g.num_actions, B, P)
        self.results: dict[str, deque] = {k: deque(maxlen=100) for k in self.kinds}
        self.timesteps = int(getattr(self.model, "num_timesteps", 0))
        self.history: list[dict] = []
        self.replay = replay  # an ImitationReplay of the warm start's demonstrations, or None
        self._value = None
        if args.shaping == "heuristic":
            from crusadegym.agents.heuristics import value_kernel

            self._value = value_kernel(g)
        self._heuristic = None
        self.snapshot()
        self._restart(np.arange(B))

    # -- games ----------------------------------------------------------------------------
    def _restart(self, rows: np.ndarray) -> None:
        """Start fresh games in ``rows`` with a new opponent kind and learner seat each."""
        g = self.game
        seeds = self.rng.integers(0, SEED_BOUND, rows.size, dtype=np.int64)
        sub = np.zeros((rows.size, g.state_size), STATE_DTYPE)
        batch_init(g.k.init, sub, g.params, seeds)
        self.states[rows] = sub
        masks = np.zeros((rows.size, g.num_actions), MASK_DTYPE)
        batch_legal_masks(g.k.legal_mask, sub, g.params, masks)
        self.masks[rows] = masks
        self.players[rows] = [g.k.current_player(s, g.params) for s in sub]
        self._assign(rows)

    def _assign(self, rows: np.ndarray) -> None:
        """Draw each game's opponent kind, learner seat and snapshot."""
        P = self.game.num_players
        self.kind[rows] = self.rng.integers(0, len(self.kinds), rows.size)
        self.hero[rows] = self.rng.integers(0, P, rows.size)
        self.snap_of[rows] = self.rng.integers(0, len(self.snapshots), rows.size)
        self.learner[rows] = False
        self.learner[rows, self.hero[rows]] = True
        mirror = np.array([self.kinds[k] == "self" for k in self.kind[rows]], bool)
        self.learner[rows[mirror]] = True
        self.episode_return[rows] = 0.0

    def snapshot(self) -> None:
        """Freeze a copy of the current policy into the snapshot pool (oldest out first)."""
        snap = type(self.policy)(**self.policy._get_constructor_parameters())
        snap.load_state_dict(self.policy.state_dict())
        snap.set_training_mode(False)
        self.snapshots.append(snap)
        if len(self.snapshots) > self.args.max_snapshots:
            self.snapshots.pop(0)
            self.snap_of = np.minimum(self.snap_of, len(self.snapshots) - 1)

    def _potentials(self) -> np.ndarray:
        if self._value is not None:
            g = self.game
            batch_potentials(self._value, g.k.is_terminal, self.states, g.params, self.phi)
        return self.phi

    def _observe(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        g = self.game
        obs = np.zeros((rows.size, g.obs_size), OBS_DTYPE)
        batch_observe(g.k.observe, self.states[rows], g.params,
                      np.ascontiguousarray(seats, np.int64), obs)  # fmt: skip
        return obs

    def _sample(self, policy: Any, obs: np.ndarray, masks: np.ndarray) -> tuple:
        torch = self.torch
        with torch.no_grad():
            o = torch.as_tensor(obs)
            actions, values, logp = policy.forward(o, deterministic=False, action_masks=masks)
        return actions.numpy(), values.numpy().reshape(-1), logp.numpy()

    def _opponent_actions(self, rows: np.ndarray, obs: np.ndarray) -> np.ndarray:
        """Moves of the non-learner seats in ``rows`` (their observations ``obs``)."""
        acts = np.zeros(rows.size, np.int64)
        masks = self.masks[rows].astype(bool)
        kinds = np.array([self.kinds[k] for k in self.kind[rows]])
        for j in np.flatnonzero(kinds == "random"):
            acts[j] = self.rng.choice(np.flatnonzero(masks[j]))
        if np.any(kinds == "heuristic"):
            from crusadegym.agents.heuristic_agent import HeuristicAgent

            if self._heuristic is None:
                self._heuristic = HeuristicAgent(seed=self.args.seed)
            for j in np.flatnonzero(kinds == "heuristic"):
                acts[j] = self._heuristic.act_state(self.game, self.states[rows[j]])
        snap_rows = np.flatnonzero(kinds == "snapshot")
        for s in np.unique(self.snap_of[rows[snap_rows]]):
            sel = snap_rows[self.snap_of[rows[snap_rows]] == s]
            acts[sel] = self._sample(self.snapshots[s], obs[sel], masks[sel])[0]
        return acts

    # -- one rollout -----------------------------------------------------------------------
    def collect(self) -> dict:
        """Play until the buffer holds ``rollout`` learner decisions; bootstrap open chains."""
        g, buf, B, w = self.game, self.buffer, self.args.n_games, self.args.shaping_weight
        buf.start()
        all_rows = np.arange(B)
        finished = 0
        while buf.n < self.args.rollout:
            phi = self._potentials()
            obs = self._observe(all_rows, self.players)
            mine = self.learner[all_rows, self.players]
            acts = np.zeros(B, np.int64)
            rows = np.flatnonzero(mine)
            if rows.size:
                masks = self.masks[rows].astype(bool)
                a, v, lp = self._sample(self.policy, obs[rows], masks)
                acts[rows] = a
                seats = self.players[rows]
                buf.add(rows, seats, obs[rows], masks, a, lp, v, phi[rows, seats], w)
            others = np.flatnonzero(~mine)
            if others.size:
                acts[others] = self._opponent_actions(others, obs[others])
            seeds = self.rng.integers(0, SEED_BOUND, B, dtype=np.int64)
            batch_step(g.k.step, g.k.is_terminal, g.k.current_player, g.k.legal_mask, g.k.init,
                       self.states, g.params, acts, self.step_rewards, self.dones, seeds, True,
                       self.masks, self.players)  # fmt: skip
            buf.reward(self.step_rewards)
            self.episode_return += self.step_rewards
            ended = np.flatnonzero(self.dones)
            if ended.size:
                buf.end_games(ended, w)
                self._record(ended)
                self._assign(ended)  # batch_step already started their next game
                finished += ended.size
        self._close_chains()
        n = buf.n
        self.timesteps += n
        return {"decisions": n, "games_finished": finished}

    def _close_chains(self) -> None:
        buf, w = self.buffer, self.args.shaping_weight
        games, seats, idx = buf.pending()
        if idx.size == 0:
            return
        phi = self._potentials()[games, seats]
        obs = self._observe(games, seats)
        torch = self.torch
        with torch.no_grad():
            values = self.policy.predict_values(torch.as_tensor(obs)).numpy().reshape(-1)
        buf.close(idx, phi, values, w)

    def _record(self, rows: np.ndarray) -> None:
        """Log the learner's result in each ended game (per opponent kind)."""
        for i in rows:
            kind = self.kinds[self.kind[i]]
            ret = self.episode_return[i]
            mine = ret[self.hero[i]]
            best = ret.max()
            win = float(mine == best and not np.all(ret == best))
            result = 1.0 if win else (0.0 if np.all(ret == best) else -1.0)
            self.results[kind].append((win, result))

    # -- one update ------------------------------------------------------------------------
    def update(self) -> dict:
        """``n_epochs`` passes of clipped PPO over the rollout in minibatches."""
        torch, a, buf = self.torch, self.args, self.buffer
        adv, ret = buf.advantages(a.gamma, a.gae_lambda)
        n = buf.n
        obs = torch.as_tensor(buf.obs[:n])
        masks = torch.as_tensor(buf.masks[:n])
        actions = torch.as_tensor(buf.actions[:n])
        old_logp = torch.as_tensor(buf.logp[:n])
        adv_t, ret_t = torch.as_tensor(adv), torch.as_tensor(ret)
        policy = self.policy
        policy.set_training_mode(True)
        for group in policy.optimizer.param_groups:
            group["lr"] = a.learning_rate
        stats = {"loss/policy": 0.0, "loss/value": 0.0, "loss/entropy": 0.0, "approx_kl": 0.0}
        batches = 0
        for _ in range(a.n_epochs):
            order = torch.as_tensor(self.rng.permutation(n))
            for start in range(0, n, a.batch_size):
                idx = order[start : start + a.batch_size]
                values, logp, entropy = policy.evaluate_actions(
                    obs[idx], actions[idx], action_masks=masks[idx])  # fmt: skip
                b_adv = adv_t[idx]
                if b_adv.numel() > 1:
                    b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
                ratio = torch.exp(logp - old_logp[idx])
                clipped = torch.clamp(ratio, 1 - a.clip_range, 1 + a.clip_range)
                pg = -torch.min(ratio * b_adv, clipped * b_adv).mean()
                vf = torch.nn.functional.mse_loss(values.flatten(), ret_t[idx])
                ent = -entropy.mean()
                loss = pg + a.vf_coef * vf + a.ent_coef * ent
                policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), a.max_grad_norm)
                policy.optimizer.step()
                with torch.no_grad():
                    kl = ((ratio - 1) - torch.log(ratio)).mean().item()
                for key, v in (("loss/policy", pg.item()), ("loss/value", vf.item()),
                               ("loss/entropy", ent.item()), ("approx_kl", kl)):  # fmt: skip
                    stats[key] += v
                batches += 1
        policy.set_training_mode(False)
        return {k: v / max(1, batches) for k, v in stats.items()}

    # -- the run ---------------------------------------------------------------------------
    def win_rates(self) -> dict:
        row = {}
        for kind, res in self.results.items():
            if res:
                row[f"selfplay/win_rate_{kind}"] = float(np.mean([r[0] for r in res]))
                row[f"selfplay/result_{kind}"] = float(np.mean([r[1] for r in res]))
        return row

    def save(self, path: str, extra: dict | None = None) -> str:
        from .checkpoint import save_checkpoint

        self.model.num_timesteps = self.timesteps
        a = self.args
        info = {"learner": "fastppo", "net": a.net, "shaping": a.shaping,
                "shaping_weight": a.shaping_weight, **(extra or {})}  # fmt: skip
        return save_checkpoint(self.model, path, self.game, info)

    def write_history(self, out: str) -> str:
        """Write the rows so far to ``out/history.json`` (after every rollout)."""
        path = os.path.join(out, "history.json")
        with open(path, "w") as f:
            json.dump(self.history, f, indent=1)
        return path

    def learn(self, out: str | None = None, deadline: float | None = None) -> dict:
        """Train until ``timesteps`` more learner decisions (or the deadline); log rows."""
        a = self.args
        target = self.timesteps + a.timesteps
        start = time.perf_counter()
        cpu_start = time.process_time()
        start_steps = self.timesteps
        next_snap = self.timesteps + a.snapshot_every
        next_ckpt = self.timesteps + a.checkpoint_every
        checkpoints: list[str] = []
        while self.timesteps < target:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            rollout = self.collect()
            losses = self.update()
            if self.replay is not None:
                losses["bc/replay_loss"] = self.replay.apply(self.policy)
            seconds = time.perf_counter() - start
            row = {"timesteps": self.timesteps, "seconds": seconds,
                   "steps_per_s": (self.timesteps - start_steps) / seconds,
                   "cpu_seconds": time.process_time() - cpu_start,
                   "snapshots": len(self.snapshots), **rollout, **losses,
                   **self.win_rates()}  # fmt: skip
            self.history.append(row)
            if out:  # a run stopped early keeps its curve
                self.write_history(out)
            if not a.quiet:
                rates = " ".join(f"{k.split('_')[-1]}={v:.2f}" for k, v in row.items()
                                 if k.startswith("selfplay/win_rate_"))  # fmt: skip
                print(f"[fastppo] {self.timesteps} steps {row['steps_per_s']:.0f}/s "
                      f"kl={losses['approx_kl']:.1e} {rates}", flush=True)  # fmt: skip
            if self.timesteps >= next_snap:
                self.snapshot()
                next_snap = self.timesteps + a.snapshot_every
            if out and self.timesteps >= next_ckpt:
                path = os.path.join(out, "checkpoints", f"ckpt_{self.timesteps:09d}.zip")
                checkpoints.append(self.save(path, {"role": "checkpoint"}))
                prune(checkpoints, a.keep_checkpoints)
                next_ckpt = self.timesteps + a.checkpoint_every
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        return {"steps": self.timesteps - start_steps, "seconds": seconds, "cpu_seconds": cpu,
                "steps_per_s": (self.timesteps - start_steps) / max(seconds, 1e-9),
                "checkpoints": [p for p in checkpoints if os.path.isfile(p)]}  # fmt: skip


def warm_start_model(args: FastArgs, game: Game, out: str) -> tuple[Any, Any, dict]:
    """A fresh model cloned from the heuristic (``--bc-games``, ``--dagger-rounds``).

    The same warm start as ``crusadegym train`` (:func:`~.warmstart.warm_start`: teacher
    games, masked cross-entropy plus the value head, DAgger rounds; ``bc.zip`` in
    ``out``). PPO from scratch never secures a coin in Deus lo Vult within these budgets
    (``docs/training.md``), so a run starts from the heuristic's play. Returns the model,
    an :class:`~.warmstart.ImitationReplay` of the demonstrations (``--bc-replay-steps``
    minibatches after every update; None without) and the warm start's metrics.
    """
    from .warmstart import ImitationReplay, warm_start

    model = build_model(game, args.net, args.learning_rate, args.seed)
    metrics, demos = warm_start(
        model, game, out, args.bc_games, args.bc_epochs, dagger_rounds=args.dagger_rounds,
        dagger_games=args.dagger_games, dagger_epochs=1, shaping=args.shaping,
        shaping_weight=args.shaping_weight, options=args.game_options(), seed=args.seed,
        progress=not args.quiet,
    )  # fmt: skip
    replay = None
    if args.bc_replay_steps > 0:
        replay = ImitationReplay(demos, args.bc_replay_steps, seed=args.seed)
    return model, replay, metrics


def train(args: FastArgs) -> dict:
    """One fast run (see the module docstring); returns the summary written to ``--out``."""
    args.check()
    out = args.out_dir()
    os.makedirs(out, exist_ok=True)
    run_start = time.perf_counter()
    use_workqueue_threads()  # before the warm start's first parallel launch (see FastPPO)
    game = make_game_with_players(args.game, args.players, args.game_options())
    model, replay, warm = None, None, {}
    if args.resume:
        from .checkpoint import load_model

        model = load_model(args.resume, game)
    elif args.bc_games > 0:
        model, replay, warm = warm_start_model(args, game, out)
    learner = FastPPO(args, model, replay)
    with open(os.path.join(out, "args.json"), "w") as f:
        json.dump(asdict(args) | {"config": learner.game.config_dict()}, f, indent=1)
    deadline = run_start + 60 * args.max_minutes if args.max_minutes > 0 else None
    run = learner.learn(out, deadline)
    final = learner.save(os.path.join(out, "final.zip"), {"role": "final"})
    learner.write_history(out)
    summary: dict[str, Any] = {"out": out, "final": final, "timesteps": learner.timesteps, **run}
    if warm:
        summary["warm_start"] = {k: v for k, v in warm.items() if k != "rounds"}
    try:
        from .plots import plot_learning_curve

        summary["learning_curve"] = plot_learning_curve(
            learner.history, os.path.join(out, "learning_curve.png"),
            title=f"{args.game} fastppo ({args.net} net), {learner.timesteps} steps")  # fmt: skip
    except ImportError:  # matplotlib is optional
        pass
    if args.eval_games > 0:
        from .evaluate import evaluate_checkpoint, format_evaluation

        result = evaluate_checkpoint(
            final, args.game, ["random", "heuristic"], args.eval_games,
            learner.game.num_players, args.game_options(), out_dir=os.path.join(out, "eval"),
            seed=args.seed + 1, progress=not args.quiet,
        )  # fmt: skip
        summary["evaluation"] = {k: result[k] for k in ("vs", "summary", "ratings")}
        summary["evaluation_table"] = format_evaluation(result)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


# -- the command line ---------------------------------------------------------------------
HELP = {
    "players": "seats per game",
    "timesteps": "learner decisions to train for",
    "max_minutes": "stop after this many minutes (0: no limit)",
    "n_games": "games stepped together in one batch",
    "rollout": "learner decisions per rollout (one PPO update each)",
    "n_epochs": "PPO passes over each rollout",
    "batch_size": "minibatch size of the PPO update",
    "learning_rate": "Adam step size",
    "gamma": "discount per learner decision",
    "gae_lambda": "GAE lambda",
    "clip_range": "PPO ratio clip",
    "ent_coef": "entropy bonus weight",
    "vf_coef": "value loss weight",
    "max_grad_norm": "gradient norm clip",
    "net": f"policy trunk, one of {sorted(NETS)}; default is the conv stack of crusadegym train",
    "opponents": f"comma list of opponent kinds drawn per game: {', '.join(OPPONENT_KINDS)}",
    "snapshot_every": "freeze the learner into the snapshot pool every N decisions",
    "max_snapshots": "snapshots kept in the pool",
    "shaping": "'heuristic' (potential-based, the heuristic's evaluation) or 'none'",
    "shaping_weight": "scale of the shaping potential",
    "bc_games": "heuristic games cloned before PPO (0: PPO from scratch)",
    "bc_epochs": "behaviour-cloning epochs over the teacher's decisions",
    "dagger_rounds": "rounds of: the clone plays, the heuristic labels, clone again",
    "dagger_games": "games per DAgger round (0: bc_games)",
    "bc_replay_steps": "imitation minibatches after every PPO update (0: none)",
    "checkpoint_every": "write checkpoints/ckpt_<steps>.zip every N decisions",
    "keep_checkpoints": "checkpoints kept on disk (0: all)",
    "eval_games": "arena games per baseline (random, heuristic) at the end (0: none)",
    "seed": "seeds games, sampling and the network",
    "torch_threads": "torch CPU threads",
    "resume": "continue from this checkpoint (.zip with its sidecar)",
    "out": "output directory (default runs/<game>-fastppo-<UTC time>)",
}


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym fastppo", __doc__)
    d = FastArgs()
    p.add_argument("game", help="game name, e.g. deus_lo_vult")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="game option, repeatable (deus_lo_vult defaults: rounds=1, max_turns=15)",
    )
    for f in fields(FastArgs):
        if f.name in ("game", "options", "quiet"):
            continue
        flag = "--" + f.name.replace("_", "-")
        default = getattr(d, f.name)
        p.add_argument(flag, type=type(default), default=default, help=HELP[f.name])
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    return p


def parse_args(argv: list[str] | None) -> FastArgs:
    ns = build_parser().parse_args(argv)
    values = {f.name: getattr(ns, f.name) for f in fields(FastArgs) if hasattr(ns, f.name)}
    values["options"] = parse_options(ns.option)
    return FastArgs(**values)


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        summary = train(args)
    except (ValueError, FileNotFoundError) as e:
        print(f"crusadegym fastppo: {e}", file=sys.stderr)
        return 2
    print(f"trained {summary['steps']} steps in {summary['seconds']:.0f} s "
          f"({summary['steps_per_s']:.0f} learner steps/s)")  # fmt: skip
    print(f"final checkpoint : {summary['final']}")
    if "evaluation_table" in summary:
        print(summary["evaluation_table"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
