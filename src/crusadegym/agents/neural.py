"""Learned policies as agents.

:class:`PolicyAgent` wraps any object with
``predict(observation, action_masks=mask, deterministic=...) -> (action, state)``;
an sb3-contrib ``MaskablePPO`` model has exactly that. It is an
observation-only agent (no ``act_state``), so it sees what its seat sees.
:func:`load_policy_agent` loads a ``MaskablePPO`` checkpoint (``.zip``) as such an
agent, with a clear error for a missing or unreadable file.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from crusadegym.core import Game
from crusadegym.errors import MissingFileError, UserError, missing_extra

from .advice import check_advice, policy_input
from .base import Agent, legal_indices


class PolicyAgent(Agent):
    """An agent that asks a ``predict``-style policy for its move.

    ``deterministic=True`` (the default) plays the policy's most likely legal
    action, so matches are reproducible; with ``False`` the policy samples, from
    torch's global RNG (seeded from ``seed`` when torch is importable).
    """

    name = "policy"

    def __init__(self, policy: Any, seed: int = 0, deterministic: bool = True) -> None:
        if not callable(getattr(policy, "predict", None)):
            raise TypeError(f"policy must have a predict() method, got {type(policy).__name__}")
        super().__init__(seed)
        self.policy = policy
        self.deterministic = bool(deterministic)
        if not self.deterministic:
            _seed_torch(self.seed)

    source: str | None = None
    """The checkpoint file the policy was loaded from (set by :func:`load_policy_agent`)."""

    def check_input(self, size: int) -> None:
        """A readable error when the policy was trained on inputs of another size.

        The usual cause is a checkpoint copied without its ``.json`` sidecar, which
        records the advice the policy reads besides the observation.
        """
        space = getattr(self.policy, "observation_space", None)
        expected = getattr(space, "shape", None)
        if not expected or int(expected[-1]) == size:
            return
        where = f"{self.source}" if self.source else "this policy"
        hint = ""
        if self.source and not os.path.isfile(sidecar_path(self.source)):
            hint = (
                f"; its sidecar {sidecar_path(self.source)} is missing: copy the .json "
                "written next to the checkpoint along with it"
            )
        raise UserError(
            f"{where} was trained on inputs of size {int(expected[-1])}, got {size} "
            f"(another game or config?){hint}"
        )

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal_indices(action_mask)  # readable error on an empty mask
        self.check_input(int(np.shape(observation)[-1]))
        mask = np.asarray(action_mask, bool)
        action, _ = self.policy.predict(
            observation, action_masks=mask, deterministic=self.deterministic
        )
        return int(np.asarray(action).reshape(-1)[0])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One vectorised ``predict`` call over the batch."""
        masks = np.asarray(masks, bool)
        if masks.ndim != 2 or np.any(~masks.any(axis=1)):
            raise ValueError("masks must be [B, A] with at least one legal action per row")
        self.check_input(int(np.shape(observations)[-1]))
        actions, _ = self.policy.predict(
            np.asarray(observations), action_masks=masks, deterministic=self.deterministic
        )
        return np.asarray(actions, np.int64).reshape(-1)


class AdvisedPolicyAgent(PolicyAgent):
    """A policy whose input is the observation plus heuristic advice (:mod:`.advice`)."""

    def __init__(self, policy: Any, advice: str, seed: int = 0, deterministic: bool = True) -> None:
        super().__init__(policy, seed=seed, deterministic=deterministic)
        if check_advice(advice) == "none":
            raise ValueError("AdvisedPolicyAgent needs an advice kind other than 'none'")
        self.advice = advice

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise NotImplementedError(
            f"a policy trained with advice={self.advice!r} needs the core state: call "
            "act_state(game, state) (crusadegym.agents.select_action does this for you)"
        )

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.act(observations, masks)

    def act_state(self, game: Game, state: np.ndarray) -> int:
        seat = game.current_player(state)
        return PolicyAgent.act(
            self, policy_input(game, state, seat, self.advice), game.legal_mask(state)
        )


def make_policy_agent(
    policy: Any, advice: str = "none", seed: int = 0, deterministic: bool = True
) -> PolicyAgent:
    """A :class:`PolicyAgent`, or an :class:`AdvisedPolicyAgent` when ``advice`` is given."""
    if check_advice(advice) == "none":
        return PolicyAgent(policy, seed=seed, deterministic=deterministic)
    return AdvisedPolicyAgent(policy, advice, seed=seed, deterministic=deterministic)


def sidecar_path(checkpoint: str | os.PathLike) -> str:
    """``runs/x/final.zip`` -> ``runs/x/final.json`` (where a checkpoint's sidecar lives)."""
    root, _ = os.path.splitext(os.fspath(checkpoint))
    return root + ".json"


def read_sidecar(path: str | os.PathLike) -> dict | None:
    """The JSON sidecar of checkpoint ``path`` (``None`` if absent); ValueError if unreadable."""
    side = sidecar_path(path)
    if not os.path.isfile(side):
        return None
    try:
        with open(side) as f:
            info = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"checkpoint sidecar {side!r} is not readable JSON: {e}") from e
    if not isinstance(info, dict):
        raise ValueError(f"checkpoint sidecar {side!r} is not a JSON object")
    return info


def checkpoint_advice(path: str | os.PathLike) -> str:
    """The advice a checkpoint was trained with, from its sidecar (``"none"`` if absent)."""
    return check_advice((read_sidecar(path) or {}).get("advice", "none"))


def _seed_torch(seed: int) -> None:
    try:
        import torch
    except ImportError:  # a non-torch policy: nothing to seed
        return
    torch.manual_seed(seed)


def load_policy_agent(
    path: str | os.PathLike, seed: int = 0, deterministic: bool = True, device: str = "cpu"
) -> PolicyAgent:
    """A :class:`PolicyAgent` around the ``MaskablePPO`` checkpoint at ``path``
    (an :class:`AdvisedPolicyAgent` when its sidecar says it was trained with advice).

    Raises :class:`~crusadegym.errors.MissingFileError` (a ``FileNotFoundError``) for a
    missing file, a :class:`~crusadegym.errors.UserError` naming the extra when
    sb3-contrib is not installed (``pip install crusadegym[train]``) and ValueError
    for a file that is not a readable MaskablePPO checkpoint. All print as one line
    on the command line.
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise MissingFileError(
            f"no policy checkpoint at {path}; give the path of a .zip written by "
            "crusadegym train (e.g. runs/<run>/final.zip)"
        )
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise missing_extra("sb3-contrib (to load a policy)", "train") from e
    try:
        model = MaskablePPO.load(path, device=device)
    except Exception as e:  # zipfile, pickle and torch errors all mean "not a checkpoint"
        raise ValueError(f"{path!r} is not a readable MaskablePPO checkpoint: {e}") from e
    agent = make_policy_agent(model, checkpoint_advice(path), seed, deterministic)
    agent.name = f"policy:{os.path.basename(path)}"
    agent.source = path
    return agent
