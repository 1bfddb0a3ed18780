"""The fast learner's rollout storage: flat transitions chained per (game, seat), and GAE.

The batched learner (:mod:`.fastppo`) steps ``B`` games at once. In a turn game a
seat's consecutive decisions are separated by its rivals' moves (and a multi-action
turn gives one seat several decisions in a row), so transitions are not ``[T, B]``
rows: each is stored once, flat, and linked to the *next decision of the same seat in
the same game* (``next_idx``). A transition's reward is everything its seat receives
from its own action until its next decision (the rivals' replies included), plus the
potential-based shaping term ``weight * (phi(next decision) - phi(this decision))``
with ``phi = 0`` once the game is over (:mod:`.shaping`: it sums to a constant over a
game, so it never changes which policy is better).

:func:`gae` is compiled; it walks the flat buffer backwards, which visits every chain
from its end because a link always points forward.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core.jit import jit, pjit, prange


@jit
def gae(rewards, values, dones, next_idx, boot, gamma, lam, adv):
    """Generalised advantage estimation over chained transitions (fills ``adv``).

    ``dones[i]``: the game ended before the seat's next decision; ``next_idx[i]``: that
    decision's index (-1: none stored, the rollout ended first, so the chain is
    bootstrapped with ``boot[i]``, the value of the seat's view at the rollout's end).
    """
    for i in range(rewards.shape[0] - 1, -1, -1):
        if dones[i]:
            next_v = 0.0
            next_adv = 0.0
        elif next_idx[i] >= 0:
            next_v = values[next_idx[i]]
            next_adv = adv[next_idx[i]]
        else:
            next_v = boot[i]
            next_adv = 0.0
        delta = rewards[i] + gamma * next_v - values[i]
        adv[i] = delta + gamma * lam * next_adv


@pjit
def batch_potentials(value, is_terminal, states, params, out):
    """``out[i]`` = the evaluation ``value`` per seat of game ``i`` (0 once it is over)."""
    for i in prange(states.shape[0]):
        out[i, :] = 0.0
        if not is_terminal(states[i], params):
            value(states[i], params, out[i])


class ChainBuffer:
    """Flat transitions of one rollout, each linked to its seat's next decision."""

    def __init__(self, capacity: int, obs_size: int, n_actions: int, games: int, seats: int):
        self.capacity = capacity
        self.obs = np.zeros((capacity, obs_size), np.float32)
        self.masks = np.zeros((capacity, n_actions), np.bool_)
        self.actions = np.zeros(capacity, np.int64)
        self.logp = np.zeros(capacity, np.float32)
        self.values = np.zeros(capacity, np.float32)
        self.rewards = np.zeros(capacity, np.float32)
        self.phi = np.zeros(capacity, np.float32)
        self.dones = np.zeros(capacity, np.bool_)
        self.next_idx = np.full(capacity, -1, np.int64)
        self.boot = np.zeros(capacity, np.float32)
        self.last = np.full((games, seats), -1, np.int64)
        """Index of each (game, seat)'s latest transition still waiting for its successor."""
        self.n = 0

    def start(self) -> None:
        """Empty the buffer for a new rollout (chains do not carry over)."""
        self.n = 0
        self.next_idx[:] = -1
        self.dones[:] = False
        self.rewards[:] = 0.0
        self.boot[:] = 0.0
        self.last[:] = -1

    @property
    def full(self) -> bool:
        return self.n >= self.capacity

    def add(self, rows, seats, obs, masks, actions, logp, values, phi, weight: float) -> None:
        """Store one decision per ``(rows[j], seats[j])``; link each to its predecessor.

        The predecessor's reward gets the shaping term ``weight * (phi - phi_before)``.
        """
        k = rows.size
        idx = np.arange(self.n, self.n + k)
        self.obs[idx], self.masks[idx], self.actions[idx] = obs, masks, actions
        self.logp[idx], self.values[idx], self.phi[idx] = logp, values, phi
        prev = self.last[rows, seats]
        has = prev >= 0
        self.next_idx[prev[has]] = idx[has]
        self.rewards[prev[has]] += weight * (phi[has] - self.phi[prev[has]])
        self.last[rows, seats] = idx
        self.n += k

    def reward(self, rewards: np.ndarray) -> None:
        """Credit each pending transition with its seat's reward ``rewards[game, seat]``."""
        g, s = np.nonzero(self.last >= 0)
        self.rewards[self.last[g, s]] += rewards[g, s]

    def end_games(self, rows: np.ndarray, weight: float) -> None:
        """Games ``rows`` ended: close their seats' chains (final potential 0)."""
        last = self.last[rows]
        g, s = np.nonzero(last >= 0)
        idx = last[g, s]
        self.dones[idx] = True
        self.rewards[idx] -= weight * self.phi[idx]
        self.last[rows] = -1

    def pending(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(games, seats, indices)`` of chains still open at the rollout's end."""
        g, s = np.nonzero(self.last >= 0)
        return g, s, self.last[g, s]

    def close(self, indices, phi_now, values_now, weight: float) -> None:
        """Bootstrap open chains with the value of their seat's view now."""
        self.rewards[indices] += weight * (phi_now - self.phi[indices])
        self.boot[indices] = values_now

    def advantages(self, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
        """``(advantages, returns)`` of the stored transitions."""
        n = self.n
        adv = np.zeros(n, np.float32)
        gae(self.rewards[:n], self.values[:n], self.dones[:n], self.next_idx[:n],
            self.boot[:n], np.float32(gamma), np.float32(lam), adv)  # fmt: skip
        return adv, adv + self.values[:n]
