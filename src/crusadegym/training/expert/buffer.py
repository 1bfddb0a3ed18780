"""The replay buffer: the newest ``capacity`` samples of finished self-play games."""

from __future__ import annotations

import numpy as np


class ReplayBuffer:
    """Ring arrays of observations (float16), masks, search policies and results."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int, num_players: int):
        self.capacity = int(capacity)
        self.obs = np.zeros((capacity, obs_size), np.float16)
        self.masks = np.zeros((capacity, num_actions), np.bool_)
        self.targets = np.zeros((capacity, num_actions), np.float16)
        self.results = np.zeros((capacity, num_players), np.float32)
        self.size = 0
        self.next = 0
        self.added = 0

    def add(
        self, obs: np.ndarray, masks: np.ndarray, targets: np.ndarray, results: np.ndarray
    ) -> None:
        """Append rows (the oldest are overwritten once the buffer is full)."""
        for i in range(len(obs)):
            j = self.next
            self.obs[j], self.masks[j] = obs[i], masks[i]
            self.targets[j], self.results[j] = targets[i], results[i]
            self.next = (j + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)
        self.added += len(obs)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        """``n`` rows drawn uniformly (with replacement) from what the buffer holds."""
        rows = rng.integers(0, self.size, n)
        return (
            self.obs[rows].astype(np.float32),
            self.masks[rows],
            self.targets[rows].astype(np.float32),
            self.results[rows],
        )
