"""Random-play loops with one shape: read the legal actions, pick one uniformly, step.

Each factory returns a ``chunk()`` for :func:`benchmarks.timing.measure`. A chunk
plays ``n`` moves (AEC: ``n`` agent turns, dead-agent ``None`` steps included in
the time but not counted as moves) and restarts finished games itself. The same
loops drive our game and the peers, so the ratios compare like with like.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .timing import Chunk

CHUNK_MOVES = 256


def core_checked_chunk(game: Any, seed: int, observe: bool = False, n: int = CHUNK_MOVES) -> Chunk:
    """The checked :class:`~crusadegym.core.Game` front: ``legal_mask`` + ``step``.

    With ``observe`` the mover's observation vector is also built every move
    (the shape of an RL loop, comparable with OpenSpiel's ``observation_tensor``).
    """
    rng = random.Random(seed)
    box = {"state": game.new_state(seed), "seed": seed}

    def chunk() -> tuple[int, int]:
        state, games = box["state"], 0
        for _ in range(n):
            if observe:
                game.observe(state, game.current_player(state))
            legal = np.flatnonzero(game.legal_mask(state))
            game.step(state, int(legal[rng.randrange(len(legal))]))
            if game.is_terminal(state):
                games += 1
                box["seed"] += 1
                state = box["state"] = game.new_state(box["seed"])
        return n, games

    return chunk


def core_raw_chunk(game: Any, seed: int, n: int = CHUNK_MOVES) -> Chunk:
    """The compiled kernels called directly from Python, without the checked front."""
    k, params = game.k, game.params
    state = game.new_state(seed)
    mask = np.zeros(game.num_actions, np.uint8)
    rewards = np.zeros(game.num_players, np.float32)
    rng = random.Random(seed)
    box = {"seed": seed}

    def chunk() -> tuple[int, int]:
        games = 0
        for _ in range(n):
            n_legal = k.legal_mask(state, params, mask)
            legal = np.flatnonzero(mask)
            k.step(state, params, legal[rng.randrange(n_legal)], rewards)
            if k.is_terminal(state, params):
                games += 1
                box["seed"] += 1
                k.init(state, params, np.int64(box["seed"]))
        return n, games

    return chunk


def _aec_mask(observation: Any, info: dict) -> np.ndarray:
    """The action mask of a PettingZoo AEC turn (observation dict first, then info)."""
    if isinstance(observation, dict) and "action_mask" in observation:
        return observation["action_mask"]
    if "action_mask" in info:
        return info["action_mask"]
    raise ValueError("AEC env exposes no action_mask in the observation or info")


def aec_chunk(env: Any, seed: int, n: int = CHUNK_MOVES) -> Chunk:
    """PettingZoo AEC random play: ``env.last()``, mask from the observation, ``env.step``."""
    rng = random.Random(seed)
    box = {"seed": seed}
    env.reset(seed=seed)

    def chunk() -> tuple[int, int]:
        moves = games = 0
        for _ in range(n):
            if not env.agents:
                games += 1
                box["seed"] += 1
                env.reset(seed=box["seed"])
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(_aec_mask(observation, info))
            env.step(int(legal[rng.randrange(len(legal))]))
            moves += 1
        return moves, games

    return chunk


def openspiel_chunk(game: Any, seed: int, observe: bool = False, n: int = CHUNK_MOVES) -> Chunk:
    """OpenSpiel from Python: ``legal_actions`` + ``apply_action`` (+ ``observation_tensor``)."""
    rng = random.Random(seed)
    box = {"state": game.new_initial_state()}

    def chunk() -> tuple[int, int]:
        state, games = box["state"], 0
        for _ in range(n):
            if state.is_terminal():
                games += 1
                state = box["state"] = game.new_initial_state()
            if observe:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        return n, games

    return chunk
