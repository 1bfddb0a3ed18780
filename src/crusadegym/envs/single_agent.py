"""A Gymnasium env for one learner seat against embedded opponents.

The learner plays ``seat`` (or a random seat per episode with ``seat="random"``);
the other seats are played by opponents (see :mod:`.opponents`), advanced until it is
the learner's turn or the game ends. Observations are the learner's flat float32
vector; rewards are the learner's (summed over the opponents' moves in between);
:meth:`CrusadeSingleAgentEnv.action_masks` serves sb3-contrib's ``MaskablePPO`` (on an
env from ``gymnasium.make`` call ``env.unwrapped.action_masks()``, or
``sb3_contrib.common.maskable.utils.get_action_masks(env)``).

Every end of the game is reported as ``terminated``, including a turn cap set by the
game's config (``max_turns``): the cap is a rule that ends the game and pays its
result, so a learner must not bootstrap a value past it (``info["turn_cap"]`` tells the
two apart). ``truncated`` is left to limits imposed from outside the game, such as
``gymnasium.make(..., max_episode_steps=N)``.

Rewards: ``reward="result"`` (default) pays the game's result at the end;
``reward="score"`` also pays the change of the learner's coin lead each step (see
:class:`crusadegym.envs.shaping.ScoreReward`).

Seeding: ``reset(seed=s)`` starts core game ``s`` (the same game the AEC env starts
with ``reset(seed=s)``) and reseeds the opponents from ``s``; unseeded resets draw
their seeds from the env's ``np_random``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .common import (
    CLASS_METADATA,
    DEFAULT_ILLEGAL,
    build_game,
    check_illegal_mode,
    check_render_mode,
    draw_seed,
    env_metadata,
    forfeit_info,
    forfeit_rewards,
    legal_action,
    observation_box,
    render_state,
    warn_illegal_once,
)
from .opponents import opponent_action, reseed_opponents, resolve_opponents
from .shaping import ScoreReward, check_reward_kind


class CrusadeSingleAgentEnv(gym.Env):
    """One seat of ``game_name`` as a Gymnasium env; the others are embedded opponents.

    ``opponents``: an agent spec (``"random"``, ``"heuristic"``, ``"mcts"``,
    ``"mcts:iterations=200"``, ``"policy:PATH.zip"``; see :mod:`.opponents`), an agent /
    callable, or a list with one per other seat (in seat order, skipping the learner's).
    ``seat``: the learner's seat, or ``"random"``. ``illegal``: ``"loss"`` (default) or
    ``"raise"`` (see :mod:`.common`). ``reward``: ``"result"`` or ``"score"``.
    ``**config``: the game's rule options.
    """

    metadata = CLASS_METADATA

    def __init__(
        self,
        game_name: str,
        opponents: Any = "random",
        seat: int | str = 0,
        illegal: str = DEFAULT_ILLEGAL,
        render_mode: str | None = None,
        reward: str = "result",
        **config: Any,
    ) -> None:
        self.game = build_game(game_name, config)
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, (int, np.integer)) and 0 <= seat < n):
            raise ValueError(f"seat must be 'random' or an int in [0, {n}), got {seat!r}")
        self.seat_option = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.illegal = check_illegal_mode(illegal)
        self.render_mode = check_render_mode(render_mode)
        self.metadata = env_metadata(self.game)
        self.reward_kind = check_reward_kind(reward, self.game)
        self.score = ScoreReward(self.game) if reward == "score" else None
        self.opponents = resolve_opponents(opponents, n - 1)
        self.observation_space = observation_box(self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: np.ndarray | None = None
        self._over = False

    # -- helpers --------------------------------------------------------------------
    def _opponent_of(self, seat: int) -> Any:
        return self.opponents[seat if seat < self.seat else seat - 1]

    def _advance(self) -> float:
        """Let the opponents move until it is the learner's turn or the game is over."""
        reward = 0.0
        while not self.game.is_terminal(self.game_state):
            seat = self.game.current_player(self.game_state)
            if seat == self.seat:
                break
            action = opponent_action(self._opponent_of(seat), self.game, self.game_state)
            reward += self._step_core(action)
        return reward

    def _step_core(self, action: int) -> float:
        """Play ``action`` on the core state; the learner's reward for it."""
        reward = float(self.game.step(self.game_state, action)[self.seat])
        if self.score is not None:
            reward += float(self.score.step(self.game_state)[self.seat])
        return reward

    def _obs(self) -> np.ndarray:
        return self.game.observe(self.game_state, self.seat)

    def _info(self) -> dict[str, Any]:
        info = {"action_mask": self.action_masks(), "seat": self.seat}
        if self._over:
            info["turn_cap"] = self.game.is_truncated(self.game_state)
        return info

    # -- the Gymnasium API ----------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else draw_seed(self.np_random)
        reseed_opponents(self.opponents, self.np_random)
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(self.game.num_players))
        self.game_state = self.game.new_state(game_seed)
        self._over = False
        if self.score is not None:
            self.score.reset(self.game_state)
        self._advance()
        if self.game.is_terminal(self.game_state):
            raise RuntimeError(f"{self.game.name}: the game ended before the learner's first move")
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self.game_state is None:
            raise RuntimeError("call reset() before step()")
        if self._over or self.game.is_terminal(self.game_state):
            raise RuntimeError("the episode is over; call reset()")
        a, reason = legal_action(self.game, self.game_state, action, self.illegal)
        if a is None:
            warn_illegal_once(self, self.seat, reason)
            self._over = True
            reward = float(forfeit_rewards(self.game.num_players, self.seat)[self.seat])
            return self._obs(), reward, True, False, self._info() | forfeit_info(action, reason)
        reward = self._step_core(a) + self._advance()
        self._over = self.game.is_terminal(self.game_state)
        if self.render_mode == "human":
            self.render()
        # A turn cap of the game's config is a scored end: terminated, never truncated.
        return self._obs(), reward, self._over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal actions (all False once the episode is over)."""
        if self.game_state is None:
            raise RuntimeError("action_masks(): no game yet; call reset() first")
        if self._over:
            return np.zeros(self.game.num_actions, bool)
        return self.game.legal_mask(self.game_state).astype(bool)

    def render(self) -> str | np.ndarray | None:
        if self.game_state is None:
            raise RuntimeError("render(): no game yet; call reset() first")
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; returning None")
            return None
        return render_state(self.game, self.game_state, self.render_mode)
