"""PUCT search over a trained policy-value network, at play time (AlphaZero-style).

:class:`PUCTAgent` loads any ``MaskablePPO`` checkpoint of the suite (``crusadegym
train`` or ``crusadegym fastppo``) and searches with it:

* **Prior** ``P(a)``: the network's masked softmax at the node (illegal actions get
  exactly zero, as in :func:`~.fastppo.masked_distribution`).
* **Value** at a leaf: the network's value of the seat to move there, plus the shaping
  potential it was trained against (``V`` estimates the result *minus* the potential,
  :mod:`.shaping`), clipped to [-1, 1]; a finished game is scored by its ``returns``.
  The other seats get ``-v / (P - 1)`` (zero-sum).
* **Selection** (max^n like :mod:`crusadegym.agents.mcts`): at each node the seat to
  move maximises its own mean ``Q`` plus ``c_puct * P(a) * sqrt(N) / (1 + N(a))``;
  unvisited actions count as ``Q = 0``.
* **Hidden information**: the search never touches the true state. It builds
  ``determinizations`` roots, each resampled for the searching seat from the one before
  (``Game.determinize``: rivals' hands, the deck order), and simulation ``i`` runs on
  root ``i % determinizations``. Every observation the network reads inside the tree is
  of a determinized state; the move is the most visited action summed over the roots.
  For a perfect-information game the roots are plain copies.

Budget: ``simulations`` and/or ``seconds`` per move, whichever is reached first (at
least one simulation; only a simulation budget is reproducible), as for MCTS, so the two
can be compared at the same wall-clock time per move. ``last_simulations`` says how
many the last move ran.

The agent plays through ``act_state`` (it needs the state to step copies), so
:func:`crusadegym.agents.select_action` calls it; one position with a single legal
action is answered without search. ``last_visits`` holds the last root visit counts.
"""

from __future__ import annotations

import math
import os
import time
from typing import Any

import numpy as np

from crusadegym.core import Game

from .base import Agent
from .neural import read_sidecar


def policy_value(policy: Any, obs: Any, masks: np.ndarray) -> tuple:
    """Masked action probabilities and values of ``obs`` in one pass of the trunk.

    The same computation as sb3-contrib's ``MaskableActorCriticPolicy.forward`` up to the
    distribution; ``get_distribution`` and ``predict_values`` called one after the other
    would run the feature extractor twice (it is most of a small net's cost).
    """
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        pi_features, vf_features = features
        latent_pi = policy.mlp_extractor.forward_actor(pi_features)
        latent_vf = policy.mlp_extractor.forward_critic(vf_features)
    dist = policy._get_action_dist_from_latent(latent_pi)
    dist.apply_masking(masks)
    return dist.distribution.probs, policy.value_net(latent_vf)


class _Node:
    """One state of the tree: its seat, legal actions, priors and visit statistics."""

    __slots__ = ("state", "seat", "actions", "prior", "visits", "value", "children", "terminal")

    def __init__(self, game: Game, state: np.ndarray) -> None:
        self.state = state
        self.terminal = game.is_terminal(state)
        self.seat = -1 if self.terminal else game.current_player(state)
        self.actions = np.zeros(0, np.int64) if self.terminal else game.legal_actions(state)
        self.prior = np.zeros(self.actions.size)
        self.visits = np.zeros(self.actions.size)
        self.value = np.zeros(self.actions.size)  # summed value of this node's seat
        self.children: dict[int, _Node] = {}


class PUCTAgent(Agent):
    """PUCT search with a network's prior and value (see the module docstring)."""

    name = "puct"

    def __init__(
        self,
        checkpoint: str | os.PathLike | Any,
        simulations: int = 32,
        c_puct: float = 1.5,
        determinizations: int = 4,
        seed: int = 0,
        seconds: float | None = None,
    ) -> None:
        super().__init__(seed)
        if simulations < 1 or determinizations < 1:
            raise ValueError("simulations and determinizations must be >= 1")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be > 0, got {seconds}")
        self.simulations = int(simulations)
        self.seconds = None if seconds is None else float(seconds)
        self.last_simulations = 0
        self.c_puct = float(c_puct)
        self.determinizations = int(determinizations)
        self.shaping_weight = 0.0
        if isinstance(checkpoint, (str, os.PathLike)):
            from crusadegym.agents.neural import load_policy_agent

            info = read_sidecar(checkpoint) or {}
            if info.get("advice", "none") != "none":
                raise ValueError(f"{checkpoint}: PUCT needs an observation-only policy")
            self.policy = load_policy_agent(checkpoint).policy.policy
            self.shaping = info.get("shaping", "heuristic")
            self.shaping_weight = float(info.get("shaping_weight", 1.0))
        else:  # an SB3 policy object (tests, in-process use)
            self.policy = checkpoint
            self.shaping = "none"
        self.last_visits: dict[int, int] = {}
        self._value_fn = None

    # -- the network -------------------------------------------------------------------------
    def evaluate(self, game: Game, state: np.ndarray, seat: int, actions: np.ndarray) -> tuple:
        """``(priors over actions, value of seat)`` from ``seat``'s observation of ``state``."""
        import torch

        obs = torch.as_tensor(game.observe(state, seat)[None])
        mask = np.zeros((1, game.num_actions), bool)
        mask[0, actions] = True
        with torch.no_grad():
            probs, values = policy_value(self.policy, obs, mask)
        value = float(values.reshape(())) + self._potential(game, state, seat)
        return probs.numpy()[0][actions], max(-1.0, min(1.0, value))

    def _potential(self, game: Game, state: np.ndarray, seat: int) -> float:
        if self.shaping != "heuristic" or self.shaping_weight == 0.0:
            return 0.0
        if self._value_fn is None:
            from crusadegym.agents.heuristics import value_kernel

            self._value_fn = value_kernel(game)
        out = np.zeros(game.num_players, np.float32)
        self._value_fn(state, game.params, out)
        return self.shaping_weight * float(out[seat])

    # -- the search --------------------------------------------------------------------------
    def roots(self, game: Game, state: np.ndarray, seat: int) -> list[np.ndarray]:
        """The determinized copies of ``state`` the search runs on (never ``state`` itself)."""
        out, view = [], state.copy()
        for _ in range(self.determinizations):
            view = view.copy()
            game.determinize(view, seat)
            out.append(view)
        if game.spec.determinize is None:  # perfect information: one root is enough
            out = out[:1]
        return out

    def _leaf_values(self, game: Game, node: _Node) -> np.ndarray:
        P = game.num_players
        if node.terminal:
            return game.returns(node.state).astype(np.float64)
        prior, v = self.evaluate(game, node.state, node.seat, node.actions)
        node.prior = prior
        values = np.full(P, -v / max(1, P - 1))
        values[node.seat] = v
        return values

    def _simulate(self, game: Game, root: _Node) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while not node.terminal:
            total = node.visits.sum()
            q = np.where(node.visits > 0, node.value / np.maximum(node.visits, 1), 0.0)
            score = q + self.c_puct * node.prior * math.sqrt(total + 1) / (1 + node.visits)
            j = int(np.argmax(score + 1e-9 * self.rng.random(score.size)))
            path.append((node, j))
            a = int(node.actions[j])
            if a not in node.children:
                child_state = node.state.copy()
                game.step(child_state, a)
                child = _Node(game, child_state)
                node.children[a] = child
                values = self._leaf_values(game, child)
                break
            node = node.children[a]
        else:
            values = game.returns(node.state).astype(np.float64)
        for parent, j in path:
            parent.visits[j] += 1
            parent.value[j] += values[parent.seat]

    def act_state(self, game: Game, state: np.ndarray) -> int:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if legal.size == 1:
            self.last_visits = {int(legal[0]): 0}
            return int(legal[0])
        trees = []
        for view in self.roots(game, state, seat):
            root = _Node(game, view)
            self._leaf_values(game, root)
            trees.append(root)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.simulations:
            self._simulate(game, trees[done % len(trees)])
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_simulations = done
        visits: dict[int, float] = {}
        for root in trees:
            for a, n in zip(root.actions, root.visits, strict=True):
                visits[int(a)] = visits.get(int(a), 0.0) + n
        self.last_visits = {a: int(n) for a, n in visits.items()}
        best = max(visits.values())
        return int(min(a for a, n in visits.items() if n == best))
