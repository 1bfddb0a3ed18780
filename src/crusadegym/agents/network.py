"""The policy-value network of expert iteration, evaluated with numpy alone.

One small multilayer perceptron reads a seat's own observation (``Game.observe``: only
what that seat may see) and gives

* ``logits[A]``: a prior over the actions; illegal ones are masked to
  :data:`ILLEGAL_LOGIT` before any softmax, so they get exactly zero probability;
* ``values[P]``: the expected result of every seat, **relative to the observer**:
  ``values[i]`` is the result of seat ``(observer + i) % P``, in ``[-1, 1]`` (``tanh``).

The same layers are trained in torch (:mod:`crusadegym.training.expert.model`) and
exported here as float arrays, so playing against a trained network needs numpy only
(no torch, no SB3): ``trunk`` is a list of ``(W, b)`` dense layers with ReLU, then the
policy head ``(Wp, bp)`` and the value head ``(Wv, bv)``.

A checkpoint is one ``.npz`` file: the arrays (stored as float16 to keep the shipped
networks small) and a JSON ``meta`` string (the game, its options, the shapes, the
training command and how long it trained).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from crusadegym.errors import UserError

ILLEGAL_LOGIT = -1e9
"""The logit an illegal action gets before the softmax (its probability is exactly 0)."""
FORMAT = "crusadegym-expert-network"
"""The ``meta["format"]`` of a network checkpoint."""


@dataclass
class PolicyValueNet:
    """The exported network: dense ReLU trunk, policy head, value head (float32)."""

    trunk: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    meta: dict = field(default_factory=dict)

    @property
    def obs_size(self) -> int:
        return int(self.trunk[0][0].shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.policy[0].shape[1])

    @property
    def num_players(self) -> int:
        return int(self.value[0].shape[1])

    def forward(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Masked logits ``[B, A]`` and observer-relative values ``[B, P]`` of a batch."""
        x = np.asarray(obs, np.float32)
        for weight, bias in self.trunk:
            x = np.maximum(x @ weight + bias, 0.0)
        logits = x @ self.policy[0] + self.policy[1]
        logits = np.where(np.asarray(masks, bool), logits, np.float32(ILLEGAL_LOGIT))
        values = np.tanh(x @ self.value[0] + self.value[1])
        return logits.astype(np.float32), values.astype(np.float32)

    def check_game(self, game: Any) -> None:
        """A one-line error when the network was not made for ``game``'s shapes."""
        want = (game.obs_size, game.num_actions, game.num_players)
        have = (self.obs_size, self.num_actions, self.num_players)
        if want != have:
            trained = self.meta.get("game", "?")
            raise UserError(
                f"the network was trained for {trained} with (observation, actions, players) "
                f"= {have}, but this game has {want}"
            )

    def save(self, path: str | Path) -> Path:
        """Write the network as one ``.npz`` (float16 arrays and the JSON ``meta``)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {}
        for i, (weight, bias) in enumerate(self.trunk):
            arrays[f"trunk{i}_w"], arrays[f"trunk{i}_b"] = weight, bias
        arrays["policy_w"], arrays["policy_b"] = self.policy
        arrays["value_w"], arrays["value_b"] = self.value
        meta = {**self.meta, "format": FORMAT, "layers": len(self.trunk)}
        with path.open("wb") as f:
            np.savez_compressed(
                f,
                meta=np.array(json.dumps(meta)),
                **{k: np.asarray(v, np.float16) for k, v in arrays.items()},
            )
        return path

    @classmethod
    def load(cls, path: str | Path) -> PolicyValueNet:
        """Read a network written by :meth:`save` (a one-line error otherwise)."""
        path = Path(path)
        if not path.is_file():
            raise UserError(f"no network file at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT:
                    raise UserError(f"{path} is not an expert-iteration network")

                def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
                    return (
                        data[f"{name}_w"].astype(np.float32),
                        data[f"{name}_b"].astype(np.float32),
                    )

                trunk = [pair(f"trunk{i}") for i in range(int(meta["layers"]))]
                return cls(trunk, pair("policy"), pair("value"), meta)
        except (OSError, KeyError, ValueError) as e:
            raise UserError(f"cannot read the network {path}: {e}") from e


def relative_to_absolute(values: np.ndarray, observer: int) -> np.ndarray:
    """Observer-relative values (``values[i]``: seat ``observer + i``) by absolute seat."""
    return np.roll(values, observer, axis=-1)


def absolute_to_relative(values: np.ndarray, observer: int) -> np.ndarray:
    """Per-seat values reordered so index 0 is ``observer`` (the network's targets)."""
    return np.roll(values, -observer, axis=-1)
