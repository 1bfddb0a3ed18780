"""The training env: the single-agent env against pool opponents, plus result bookkeeping.

:class:`SelfPlayEnv` wraps :class:`crusadegym.envs.single_agent.CrusadeSingleAgentEnv`
(learner in a random seat each episode, every other seat a
:class:`~.pool.PoolOpponent`). The reward is the **learner's seat's** reward only:
the inner env sums ``game.step(...)[seat]`` over the learner's move and the
opponents' replies, so a win by whichever seat happened to move last is never
credited to the learner (the pitfall of naive PettingZoo-to-SB3 self-play). With
``shaping="coins"`` or ``"heuristic"`` that seat's potential-based shaping term is
added (:mod:`.shaping`; it sums to a constant over a game).

With ``advice="heuristic"`` each observation is followed by the heuristic's verdict on
every action (:mod:`crusadegym.agents.advice`); the observation space grows to match.

A game that ends at the turn cap arrives *terminated* from the single-agent env (the
cap is a rule that ends the game and pays its result, so SB3 must not bootstrap a
value past it); this wrapper passes the flags through unchanged.

At the end of an episode ``info["selfplay"]`` reports the opponent kind (kinds joined
by ``+`` when the opponent seats drew different ones), the true
(unshaped) return and the outcome (``"win"``/``"draw"``/``"loss"``, as the arena
counts them), which :mod:`.callbacks` turns into win rates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from crusadegym.agents.advice import advice_features, advice_size
from crusadegym.agents.stats import seat_outcomes
from crusadegym.core import Game, make_game
from crusadegym.envs.single_agent import CrusadeSingleAgentEnv

from .pool import OpponentPool, PoolOpponent
from .shaping import PotentialShaper


class SelfPlayEnv(gym.Wrapper):
    """Learner vs pool opponents, reward of the learner's seat, outcome in ``info``."""

    def __init__(
        self,
        game_name: str,
        pool: OpponentPool,
        seed: int = 0,
        shaping: str = "none",
        shaping_weight: float = 1.0,
        advice: str = "none",
        **config: Any,
    ) -> None:
        n_opponents = make_game(game_name, **config).num_players - 1
        self.opponents = [PoolOpponent(pool, seed + i) for i in range(n_opponents)]
        super().__init__(
            CrusadeSingleAgentEnv(game_name, opponents=self.opponents, seat="random", **config)
        )
        self.pool = pool
        self.advice = advice
        n_advice = advice_size(self.game, advice)
        if n_advice:
            box = self.env.observation_space
            self.observation_space = gym.spaces.Box(
                min(float(np.min(box.low)), 0.0), max(float(np.max(box.high)), 1.0),
                (box.shape[0] + n_advice,), np.float32,
            )  # fmt: skip
        self.shaper = None
        if shaping != "none":
            self.shaper = PotentialShaper(self.game, shaping, shaping_weight)

    @property
    def game(self) -> Game:
        return self.env.unwrapped.game

    def core_state(self) -> np.ndarray:
        """The inner env's live core state (``game_state``; ``state`` in older envs)."""
        inner = self.env.unwrapped
        return inner.game_state if hasattr(inner, "game_state") else inner.state

    def _with_advice(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` followed by the advice for the learner (zeros once the game is over)."""
        if self.advice == "none":
            return obs
        state = self.core_state()
        if self.game.is_terminal(state):
            extra = np.zeros(advice_size(self.game, self.advice), np.float32)
        else:
            extra = advice_features(self.game, state, self.advice)
        return np.concatenate([obs, extra])

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset(**kwargs)
        if self.shaper is not None:
            self.shaper.reset(self.core_state())
        return self._with_advice(obs), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        inner = self.env.unwrapped
        if self.shaper is not None:
            reward += float(self.shaper.step(self.core_state())[inner.seat])
        if terminated or truncated:
            returns = self.game.returns(self.core_state())
            info["selfplay"] = {
                "turn_cap": bool(self.game.is_truncated(self.core_state())),
                "kind": "+".join(sorted({o.kind for o in self.opponents})),
                "opponent": "+".join(o.name for o in self.opponents),
                "seat": inner.seat,
                "return": float(returns[inner.seat]),
                "outcome": seat_outcomes(returns.tolist())[inner.seat],
            }
        return self._with_advice(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner (for MaskablePPO)."""
        return self.env.unwrapped.action_masks()

    def add_snapshot(self, path: str) -> None:
        """Add the checkpoint at ``path`` to this env's pool (called via ``env_method``)."""
        self.pool.add_snapshot(path, self.game)


def env_factory(
    game_name: str,
    kinds: list[str],
    seed: int,
    shaping: str,
    config: dict,
    max_snapshots: int = 5,
    shaping_weight: float = 1.0,
    advice: str = "none",
) -> Callable[[], SelfPlayEnv]:
    """A thunk building one :class:`SelfPlayEnv` with its own pool."""

    def make() -> SelfPlayEnv:
        pool = OpponentPool(kinds, max_snapshots=max_snapshots)
        return SelfPlayEnv(
            game_name, pool, seed=seed, shaping=shaping, shaping_weight=shaping_weight,
            advice=advice, **config,
        )  # fmt: skip

    return make


def make_vec_env(
    game_name: str,
    kinds: list[str],
    n_envs: int,
    seed: int,
    shaping: str,
    config: dict,
    subproc: bool = False,
    max_snapshots: int = 5,
    shaping_weight: float = 1.0,
    advice: str = "none",
) -> Any:
    """``n_envs`` :class:`SelfPlayEnv` in a ``DummyVecEnv`` (or ``SubprocVecEnv``) + VecMonitor."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if n_envs < 1:
        raise ValueError(f"n_envs must be >= 1, got {n_envs}")
    pool_and_env = dict(max_snapshots=max_snapshots, shaping_weight=shaping_weight, advice=advice)
    thunks = [
        env_factory(game_name, kinds, seed + 1000 * i, shaping, config, **pool_and_env)
        for i in range(n_envs)
    ]
    vec = SubprocVecEnv(thunks, start_method="fork") if subproc else DummyVecEnv(thunks)
    vec.seed(seed)
    return VecMonitor(vec)
