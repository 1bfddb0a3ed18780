"""Behaviour-cloning warm start: copy a teacher agent's decisions into the policy.

1. :func:`collect` plays games and records, at every move of a *recorded* seat, the
   observation, the legal mask and the teacher's action (the teacher is any agent,
   by default the heuristic, asked through :func:`crusadegym.agents.select_action`).
   Line-ups alternate over ``opponents`` and seats. With ``actor`` given (DAgger),
   the actor plays the recorded seat while the teacher only labels its states, so
   the data covers the states the learner itself reaches.
2. :func:`clone` fits the policy's action logits to the teacher's choices by masked
   cross-entropy (on the set of actions the heuristic rates best, ties included, or on
   a searching teacher's visit shares, see :func:`teacher_loss`) and
   its value head to the return PPO will see from that state (the game result minus
   the shaping potential, see :func:`value_targets`), holding out a share of the
   games to measure top-1 agreement on unseen decisions.

Value targets: with potential-based shaping the discounted return from ``s`` is
about ``result - weight * phi(s)`` (the shaping telescopes to ``-phi(s)``), so a
value head fitted to that starts PPO with sensible advantages.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from crusadegym.agents import make_agent, select_action
from crusadegym.agents.advice import policy_input
from crusadegym.core import Game

from .shaping import PotentialShaper


@dataclass
class Demonstrations:
    """Recorded teacher decisions (one row each) and where they came from."""

    obs: np.ndarray  # float16 [N, obs_size] (observations lie in [0, 1]; halves memory)
    masks: np.ndarray  # bool [N, num_actions]
    actions: np.ndarray  # int64 [N], the teacher's choice
    best: np.ndarray  # bool [N, num_actions], every action the teacher rates as good as it
    results: np.ndarray  # float32 [N], the recorded seat's final result (+1 .. -1)
    potentials: np.ndarray  # float32 [N], the heuristic value of the state for that seat
    game_ids: np.ndarray  # int64 [N], which game the row came from
    targets: np.ndarray  # float16 [N, num_actions], the teacher's move distribution (MCTS
    # visit shares); an all-zero row means the teacher gave only ``best`` (see ``teacher_loss``)

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def concat(parts: Sequence[Demonstrations]) -> Demonstrations:
        """All rows of ``parts``, game ids kept distinct."""
        offset, ids = 0, []
        for p in parts:
            ids.append(p.game_ids + offset)
            offset += int(p.game_ids.max()) + 1 if len(p) else 0
        return Demonstrations(
            *(np.concatenate([getattr(p, k) for p in parts]) for k in
              ("obs", "masks", "actions", "best", "results", "potentials")),
            np.concatenate(ids), np.concatenate([p.targets for p in parts]),
        )  # fmt: skip

    def subset(self, rows: np.ndarray) -> Demonstrations:
        """The rows ``rows`` (an index or boolean array)."""
        return Demonstrations(self.obs[rows], self.masks[rows], self.actions[rows],
                              self.best[rows], self.results[rows], self.potentials[rows],
                              self.game_ids[rows], self.targets[rows])  # fmt: skip


def _labeller(game: Game, teacher: str, seed: int, soft: bool = True) -> Any:
    """``state -> (action, best, target, values)``: the teacher's move, the actions it
    rates as high, its distribution over actions (all zeros when it has none), and the
    greedy heuristic's lookahead values (``None`` for other teachers), which the
    heuristic advice reuses.

    The greedy heuristic scores every legal action and breaks ties at random; about
    half of its Deus lo Vult decisions are ties (four actions on average), so the whole
    tied set is the label (:func:`clone` maximises its total probability). Any other
    teacher labels the action it picks; a searcher that reports ``last_visits`` (MCTS)
    also gives, with ``soft``, the share of its root visits per action -- what
    AlphaZero-style distillation fits, and more than one choice says per decision.
    """
    from crusadegym.agents.heuristics import get_heuristic
    from crusadegym.agents.heuristics.lookahead import action_values

    agent = make_agent(teacher, seed)
    heuristic = None
    if teacher == "heuristic":
        heuristic = get_heuristic(game.name)
        if heuristic.choose is not None:
            heuristic = None

    def label(state: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray | None]:
        target = np.zeros(game.num_actions, np.float32)
        if heuristic is None:
            action = select_action(agent, game, state)
            best = np.zeros(game.num_actions, bool)
            best[action] = True
            visits = getattr(agent, "last_visits", None) if soft else None
            if visits and sum(visits.values()) > 0:
                for a, n in visits.items():
                    target[a] = n
                target /= target.sum()
            return action, best, target, None
        values = action_values(game, state, heuristic)
        legal = np.isfinite(values)
        best = legal & (values >= values[legal].max() - _TIE)
        return int(agent.rng.choice(np.flatnonzero(best))), best, target, values

    return label


_TIE = 1e-9
"""Lookahead values this close to the best count as ties."""


def collect(
    game: Game,
    n_games: int,
    seed: int = 0,
    teacher: str = "heuristic",
    opponents: Sequence[str] = ("random", "heuristic"),
    actor: Any = None,
    progress: bool = False,
    start: int = 0,
    stride: int = 1,
    soft: bool = True,
    advice: str = "none",
) -> Demonstrations:
    """Teacher decisions from games ``start, start + stride, ... < n_games``.

    Game ``i`` puts the recorded seat at ``i % players`` against
    ``opponents[(i // players) % len(opponents)]`` in every other seat, and is seeded
    from ``seed`` and ``i`` only, so a share of the games (``start``, ``stride``) is
    the same rows a full serial run records for them (see :func:`start_collecting`).
    When the opponent is the teacher itself and no ``actor`` is given, every seat is
    recorded. ``soft`` keeps a searching teacher's visit shares as ``targets``. The
    recorded input is what a policy with ``advice`` sees (:func:`policy_input`).
    """
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    if not 0 <= start < max(stride, 1) or stride < 1:
        raise ValueError(f"need 0 <= start < stride, got start={start}, stride={stride}")
    players = game.num_players
    potential = PotentialShaper(game, "heuristic").potential
    keys = ("obs", "masks", "actions", "best", "seat", "phi", "game", "targets")
    rows: dict[str, list] = {k: [] for k in keys}
    results: dict[int, np.ndarray] = {}
    indices = range(start, n_games, stride)
    bar = _bar(len(indices), "teacher games" if actor is None else "DAgger games", progress)
    for i in indices:
        seat = i % players
        opponent = opponents[(i // players) % len(opponents)]
        rng_seed = seed * 100_003 + i
        teach = _labeller(game, teacher, rng_seed, soft)
        agents = [make_agent(opponent, rng_seed + 7 + s) for s in range(players)]
        recorded = {seat}
        if actor is None and opponent == teacher:
            recorded = set(range(players))
        if actor is not None:
            agents[seat] = actor
        state = game.new_state(rng_seed)
        while not game.is_terminal(state):
            mover = game.current_player(state)
            if mover in recorded:
                label, best, target, values = teach(state)
                rows["best"].append(best)
                rows["targets"].append(target.astype(np.float16))
                obs = policy_input(game, state, mover, advice, values)
                rows["obs"].append(obs.astype(np.float16))
                rows["masks"].append(game.legal_mask(state).astype(bool))
                rows["actions"].append(label)
                rows["seat"].append(mover)
                rows["phi"].append(potential(state)[mover])
                rows["game"].append(i)
                action = label if actor is None else select_action(actor, game, state)
            else:
                action = select_action(agents[mover], game, state)
            game.step(state, action)
        results[i] = np.asarray(game.returns(state), np.float32)
        bar.update(1)
    bar.close()
    game_ids = np.asarray(rows["game"], np.int64)
    seats = np.asarray(rows["seat"], np.int64)
    return Demonstrations(
        obs=np.asarray(rows["obs"], np.float16),
        masks=np.asarray(rows["masks"], bool),
        actions=np.asarray(rows["actions"], np.int64),
        best=np.asarray(rows["best"], bool),
        results=np.asarray([results[g][s] for g, s in zip(game_ids, seats, strict=True)],
                           np.float32),
        potentials=np.asarray(rows["phi"], np.float32),
        game_ids=game_ids,
        targets=np.asarray(rows["targets"], np.float16).reshape(-1, game.num_actions),
    )  # fmt: skip


class PendingDemonstrations:
    """Teacher games being played in worker processes; :meth:`result` waits and joins them."""

    def __init__(self, futures: list, pool: Any) -> None:
        self._futures = futures
        self._pool = pool

    def result(self) -> Demonstrations:
        """All the workers' rows (waits for them), in worker order."""
        try:
            return Demonstrations.concat([f.result() for f in self._futures])
        finally:
            self._pool.shutdown()


def _collect_share(name: str, config: dict, kwargs: dict) -> Demonstrations:
    from crusadegym.core import make_game

    return collect(make_game(name, **config), **kwargs)


def start_collecting(
    game: Game,
    n_games: int,
    workers: int,
    seed: int = 0,
    teacher: str = "heuristic",
    opponents: Sequence[str] = ("random", "heuristic"),
    soft: bool = True,
    advice: str = "none",
) -> PendingDemonstrations:
    """Start :func:`collect` of ``n_games`` in ``workers`` processes; returns at once.

    Worker ``w`` plays games ``w, w + workers, ...``, so the rows are those of one
    serial :func:`collect` (regrouped by worker). The caller goes on (e.g. cloning a
    cheaper teacher) while a slow teacher such as MCTS plays.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    workers = min(workers, n_games)
    from crusadegym.agents.arena import fork_worker_init

    # fork, as the arena does: workers inherit the compiled kernels and registered games
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                               initializer=fork_worker_init)  # fmt: skip
    futures = [
        pool.submit(_collect_share, game.name, game.config_dict(),
                    dict(n_games=n_games, seed=seed, teacher=teacher,
                         opponents=tuple(opponents), start=w, stride=workers, soft=soft,
                         advice=advice))
        for w in range(workers)
    ]  # fmt: skip
    return PendingDemonstrations(futures, pool)


def value_targets(demos: Demonstrations, shaping: str, weight: float = 1.0) -> np.ndarray:
    """The return PPO's critic learns from each state: result, minus the shaping potential."""
    if shaping == "heuristic":
        return demos.results - weight * demos.potentials
    return demos.results.copy()


def split_by_game(demos: Demonstrations, holdout: float, seed: int = 0) -> tuple:
    """``(train, held_out)``: a share ``holdout`` of the games (at least one) held out."""
    games = np.unique(demos.game_ids)
    n_out = int(round(holdout * len(games)))
    if holdout > 0 and len(games) > 1:
        n_out = min(max(n_out, 1), len(games) - 1)
    out = np.random.default_rng(seed).choice(games, size=n_out, replace=False)
    held = np.isin(demos.game_ids, out)
    return demos.subset(~held), demos.subset(held)


def _logits(policy: Any, obs: torch.Tensor) -> torch.Tensor:
    """Unmasked action logits of an SB3 actor-critic policy (spatial or MLP)."""
    features = policy.extract_features(obs, policy.pi_features_extractor)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


def apply_mask(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """``logits`` with the actions where ``masks`` is false pushed to -1e8."""
    return torch.where(masks, logits, torch.full_like(logits, -1e8))


def masked_logits(policy: Any, obs: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """The policy's action logits with illegal actions pushed to -1e8."""
    return apply_mask(_logits(policy, obs), masks)


def teacher_loss(logits: torch.Tensor, best: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean imitation loss over rows (masked ``logits``): the cross-entropy to the teacher's
    distribution ``targets`` where a row has one, else ``-log P(one of the best)``."""
    log_p = torch.log_softmax(logits, 1)
    soft = -(targets * log_p).sum(1)
    hard = torch.logsumexp(logits, 1) - torch.logsumexp(apply_mask(logits, best), 1)
    return torch.where(targets.sum(1) > 0, soft, hard).mean()


def teacher_batch(demos: Demonstrations, rows: np.ndarray) -> tuple[torch.Tensor, ...]:
    """``(obs, masks, best, targets)`` tensors of ``rows``, ready for :func:`teacher_loss`."""
    return (torch.as_tensor(demos.obs[rows], dtype=torch.float32),
            torch.as_tensor(demos.masks[rows]), torch.as_tensor(demos.best[rows]),
            torch.as_tensor(demos.targets[rows], dtype=torch.float32))  # fmt: skip


@torch.no_grad()
def agreement(policy: Any, demos: Demonstrations, batch: int = 1024) -> float:
    """Share of rows where the policy's most likely legal action is one the teacher rates
    best (its choice, or one tied with it)."""
    if len(demos) == 0:
        return float("nan")
    policy.set_training_mode(False)
    hits = 0
    for i in range(0, len(demos), batch):
        obs = torch.as_tensor(demos.obs[i : i + batch], dtype=torch.float32)
        masks = torch.as_tensor(demos.masks[i : i + batch])
        pred = masked_logits(policy, obs, masks).argmax(1).numpy()
        hits += int(demos.best[np.arange(i, i + len(pred)), pred].sum())
    return hits / len(demos)


def clone(
    policy: Any,
    demos: Demonstrations,
    epochs: int = 4,
    lr: float = 1e-3,
    batch_size: int = 256,
    holdout: float = 0.1,
    shaping: str = "heuristic",
    shaping_weight: float = 1.0,
    value_coef: float = 0.5,
    seed: int = 0,
    progress: bool = False,
    max_probe: int = 10_000,
) -> dict:
    """Fit ``policy`` (an SB3 actor-critic policy) to ``demos``; return the metrics.

    Masked cross-entropy on the teacher's actions plus ``value_coef`` times the MSE of
    the value head to :func:`value_targets`. Metrics: top-1 agreement (:func:`agreement`)
    on the training rows (a sample of ``max_probe``) and on the held-out games, before
    and after, the final losses and seconds.
    """
    train, held = split_by_game(demos, holdout, seed)
    probe = train.subset(np.random.default_rng(seed).permutation(len(train))[:max_probe])
    targets = torch.as_tensor(value_targets(train, shaping, shaping_weight))
    metrics: dict[str, Any] = {
        "rows": len(train),
        "held_out_rows": len(held),
        "train_acc_before": agreement(policy, probe),
        "held_out_acc_before": agreement(policy, held),
    }
    optim = torch.optim.Adam(policy.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    start = time.perf_counter()
    steps = max(1, (len(train) + batch_size - 1) // batch_size)
    bar = _bar(epochs * steps, "behaviour cloning", progress)
    ce = vl = float("nan")
    for epoch in range(epochs):
        policy.set_training_mode(True)
        order = torch.randperm(len(train), generator=gen)
        for i in range(steps):
            rows = order[i * batch_size : (i + 1) * batch_size].numpy()
            obs, masks, best, soft = teacher_batch(train, rows)
            features = policy.extract_features(obs, policy.pi_features_extractor)
            latent_pi, latent_vf = policy.mlp_extractor(features)
            logits = apply_mask(policy.action_net(latent_pi), masks)
            ce_loss = teacher_loss(logits, best, soft)
            value = policy.value_net(latent_vf).squeeze(1)
            v_loss = torch.nn.functional.mse_loss(value, targets[rows])
            loss = ce_loss + value_coef * v_loss
            optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optim.step()
            ce, vl = ce_loss.item(), v_loss.item()
            bar.update(1)
            bar.set_postfix(epoch=epoch, ce=f"{ce:.3f}", v=f"{vl:.3f}")
    bar.close()
    policy.set_training_mode(False)
    metrics.update(
        epochs=epochs, lr=lr, seconds=time.perf_counter() - start, cross_entropy=ce,
        value_mse=vl, train_acc=agreement(policy, probe), held_out_acc=agreement(policy, held),
    )  # fmt: skip
    return metrics


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def set_postfix(self, **kw: Any) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, desc: str, progress: bool) -> Any:
    if not progress:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, leave=False)
