"""The uniform random agent: every legal action equally likely."""

from __future__ import annotations

import numpy as np

from .base import Agent, legal_indices


class RandomAgent(Agent):
    """Plays a uniformly random legal action, from its own seeded RNG."""

    name = "random"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = legal_indices(action_mask)
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Vectorised: a uniform legal action per row (rows with no legal action raise)."""
        masks = np.asarray(masks)
        if masks.ndim != 2:
            raise ValueError(f"masks must be [B, A], got shape {masks.shape}")
        counts = (masks != 0).sum(axis=1)
        if np.any(counts == 0):
            empty = np.flatnonzero(counts == 0).tolist()
            raise ValueError(f"mask row(s) {empty} have no legal action")
        picks = self.rng.integers(0, counts)  # k-th legal action of each row
        cum = np.cumsum(masks != 0, axis=1)
        return np.argmax(cum > picks[:, None], axis=1).astype(np.int64)
