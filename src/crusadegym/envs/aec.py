"""A PettingZoo AEC env for any registered game, following the classic-env conventions.

Agents are ``player_0 .. player_{n-1}`` (seat i = ``player_i``). Each observation is
``{"observation": float32[obs_size], "action_mask": int8[num_actions]}``; the mask is
all zero for every agent but the one to move. Rewards come from the core ``step``
(at game end for the suite's games) and are accumulated in ``_cumulative_rewards``;
a finished game sets ``terminations`` for all agents, which then leave through dead
steps. A turn cap set by the game's config (``max_turns``) is a scored end of the game,
so it too sets ``terminations`` (``infos[agent]["turn_cap"]`` is then True);
``truncations`` are left for limits imposed from outside the game.

An illegal action by default ends the game as a loss for the offender (PettingZoo
classic's convention; ``illegal="raise"`` raises instead; see :mod:`.common`).

Per-game modules (``deus_lo_vult_v0.py``) expose ``raw_env`` and ``env`` built with
:func:`make_raw_env` and :func:`wrap`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

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
from .shaping import ScoreReward, Shaper, check_reward_kind


class CrusadeAECEnv(AECEnv):
    """Turn-based multi-agent env over the core protocol of ``game_name``.

    ``illegal``: ``"loss"`` (default: the offender loses, -1, the others share +1, and
    ``infos`` say why) or ``"raise"`` (an illegal action raises ``IllegalActionError``,
    a ``ValueError``).
    ``shaped_rewards``: add the game's potential-based shaping (see :mod:`.shaping`).
    ``reward``: ``"result"`` (default) or ``"score"`` (also the change of each seat's
    coin lead every step; :class:`~.shaping.ScoreReward`).
    ``**config``: the game's rule options (``players=2, rounds=1`` ...).
    """

    metadata = CLASS_METADATA

    def __init__(
        self,
        game_name: str,
        render_mode: str | None = None,
        illegal: str = DEFAULT_ILLEGAL,
        shaped_rewards: bool = False,
        reward: str = "result",
        **config: Any,
    ) -> None:
        super().__init__()
        self.game = build_game(game_name, config)
        self.render_mode = check_render_mode(render_mode)
        self.illegal = check_illegal_mode(illegal)
        self.shaper = Shaper(self.game) if shaped_rewards else None
        check_reward_kind(reward, self.game)
        self.score = ScoreReward(self.game) if reward == "score" else None
        self.metadata = env_metadata(self.game)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        space = spaces.Dict(
            {
                "observation": observation_box(self.game),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        # One space object per agent, created once (api_test checks identity).
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.game_state: np.ndarray | None = None  # not `state`: AECEnv.state() is a method
        self._mask = np.zeros(self.game.num_actions, np.uint8)  # legal mask of game_state
        self._over = False

    # -- spaces ---------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the loop -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game; ``seed`` makes it (and later unseeded resets) reproducible."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = draw_seed(self._rng)
        self.game_state = self.game.new_state(game_seed)
        self._mask = self.game.legal_mask(self.game_state)  # once per state change
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        if self.shaper is not None:
            self.shaper.reset(self.game_state)
        if self.score is not None:
            self.score.reset(self.game_state)
        self.agent_selection = self.possible_agents[self.game.current_player(self.game_state)]
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        a, reason = legal_action(self.game, self.game_state, action, self.illegal, self._mask)
        if a is None:
            warn_illegal_once(self, seat, reason)
            self._end(forfeit_rewards(self.game.num_players, seat))
            self.infos[agent].update(forfeit_info(action, reason))
        else:
            rewards = self.game.step(self.game_state, a, self._mask)
            self.game.legal_mask(self.game_state, out=self._mask)
            if self.shaper is not None:
                rewards = rewards + self.shaper.step(self.game_state)
            if self.score is not None:
                rewards = rewards + self.score.step(self.game_state)
            if self.game.is_terminal(self.game_state):
                self._end(rewards)
            else:
                self._set_rewards(rewards)
                self.agent_selection = self.possible_agents[
                    self.game.current_player(self.game_state)
                ]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _set_rewards(self, rewards: np.ndarray) -> None:
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents)}

    def _end(self, rewards: np.ndarray) -> None:
        """Finish the game: final rewards, every agent terminated (a turn cap included)."""
        self._over = True
        self._set_rewards(rewards)
        self.terminations = {a: True for a in self.agents}
        turn_cap = self.game.is_truncated(self.game_state)
        for a in self.agents:
            self.infos[a]["turn_cap"] = turn_cap
        # Dead steps then start from the seat after the one that moved, as classic envs do.
        seat = self.agent_name_mapping[self.agent_selection]
        self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if not self._over and self.game.current_player(self.game_state) == seat:
            mask[:] = self._mask
        return {"observation": self.game.observe(self.game_state, seat), "action_mask": mask}

    def render(self) -> str | np.ndarray | None:
        if self.game_state is None:
            raise RuntimeError("render(): no game yet; call reset() first")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; returning None")
            return None
        return render_state(self.game, self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release (no window is ever opened)."""


def make_raw_env(game_name: str, **kwargs: Any) -> CrusadeAECEnv:
    """The unwrapped AEC env of ``game_name``."""
    return CrusadeAECEnv(game_name, **kwargs)


def wrap(env: CrusadeAECEnv) -> AECEnv:
    """PettingZoo's standard wrapping for classic envs, minus the two we do ourselves.

    ``TerminateIllegalWrapper``'s job is our ``illegal="loss"`` default (and it would
    swallow the error of ``illegal="raise"``); ``AssertOutOfBoundsWrapper`` would turn
    an out-of-range action into a bare ``AssertionError``. Only ``OrderEnforcingWrapper``
    is kept.
    """
    return wrappers.OrderEnforcingWrapper(env)
