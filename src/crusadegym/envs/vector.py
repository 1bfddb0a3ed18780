"""Batched envs over a ``[B, S]`` state array, stepped by the compiled core drivers.

:class:`CrusadeVectorEnv` is the multi-agent batch: every game's seat to move acts;
``step`` returns that seat's observation, the legal masks, per-seat rewards, dones
and the seats to move, and ended games restart at once (their final rewards stay in
that step's ``rewards``). Actions are checked against the masks the caller was shown.

:class:`CrusadeVectorSingleAgentEnv` is a Gymnasium ``VectorEnv`` for single-agent
training: the learner plays ``seat`` in every game, embedded random (or any
``act_batch``) opponents move in batch, ``action_masks()`` is ``[B, A]`` bool.

Seeding: ``seed=s`` starts game ``i`` from core seed ``s + i`` (so ``num_envs=1`` plays
the same game as the AEC env's ``reset(seed=s)``); restarts draw their seeds from a
generator seeded with ``s``.

Illegal actions follow :mod:`.common` (default ``"loss"``); every end of a game, a turn
cap of the game's config included, is reported as terminated (``infos["turn_cap"]``
tells them apart), never truncated.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from crusadegym.core.drivers import batch_init, batch_legal_masks, batch_observe, batch_step
from crusadegym.core.protocol import MASK_DTYPE, OBS_DTYPE, STATE_DTYPE

from .common import (
    DEFAULT_ILLEGAL,
    SEED_BOUND,
    batch_illegal_error,
    build_game,
    check_batch_actions,
    check_illegal_mode,
    env_metadata,
    forfeit_rewards,
    illegal_rows,
    observation_box,
    warn_illegal_once,
)
from .opponents import resolve_opponent


class VectorStep(NamedTuple):
    """What :class:`CrusadeVectorEnv` returns from ``reset`` and ``step``."""

    obs: np.ndarray  # [B, O] float32, observation of the seat to move
    masks: np.ndarray  # [B, A] uint8, legal actions of the seat to move
    rewards: np.ndarray  # [B, P] float32, this transition's reward per seat
    dones: np.ndarray  # [B] bool, the game ended (and was restarted)
    players: np.ndarray  # [B] int64, seat to move


class CrusadeVectorEnv:
    """``num_envs`` games of ``game_name`` stepped together; ended games restart at once.

    ``illegal``: ``"loss"`` (default: that game ends, -1 for the seat to move, +1 shared
    by the others) or ``"raise"`` (a ``ValueError`` listing the bad env indices).
    """

    def __init__(
        self,
        game_name: str,
        num_envs: int,
        seed: int | None = None,
        illegal: str = DEFAULT_ILLEGAL,
        **config: Any,
    ) -> None:
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.game = build_game(game_name, config)
        self.illegal = check_illegal_mode(illegal)
        self.metadata = env_metadata(self.game)
        self.num_envs = int(num_envs)
        g, B = self.game, self.num_envs
        self.states = np.zeros((B, g.state_size), STATE_DTYPE)
        self.masks = np.zeros((B, g.num_actions), MASK_DTYPE)
        self.players = np.zeros(B, np.int64)
        self.rewards = np.zeros((B, g.num_players), OBS_DTYPE)
        self.dones = np.zeros(B, np.bool_)
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self._started = False

    # -- low-level operations on rows (used by both batch envs) ---------------------
    def draw_seeds(self, n: int) -> np.ndarray:
        return self._rng.integers(0, SEED_BOUND, n, dtype=np.int64)

    def init_rows(self, rows: np.ndarray, seeds: np.ndarray) -> None:
        """Start fresh games in ``rows`` from ``seeds``; refresh their masks and seats."""
        k, p = self.game.k, self.game.params
        sub = np.zeros((rows.size, self.game.state_size), STATE_DTYPE)
        batch_init(k.init, sub, p, np.ascontiguousarray(seeds, np.int64) & SEED_BOUND)
        self.states[rows] = sub
        masks = np.zeros((rows.size, self.game.num_actions), MASK_DTYPE)
        batch_legal_masks(k.legal_mask, sub, p, masks)
        self.masks[rows] = masks
        self.players[rows] = [k.current_player(s, p) for s in sub]

    def step_rows(self, rows: np.ndarray | None, actions: np.ndarray, auto_reset: bool) -> None:
        """Step the games in ``rows`` (all when ``None``) with already-checked ``actions``.

        Fills ``rewards``, ``dones``, ``masks`` and ``players`` of those rows.
        """
        k, p = self.game.k, self.game.params
        if rows is None:
            seeds = self.draw_seeds(self.num_envs)
            batch_step(
                k.step,
                k.is_terminal,
                k.current_player,
                k.legal_mask,
                k.init,
                self.states,
                p,
                actions,
                self.rewards,
                self.dones,
                seeds,
                auto_reset,
                self.masks,
                self.players,
            )
            return
        states, rewards = self.states[rows], self.rewards[rows]
        dones, masks, players = self.dones[rows], self.masks[rows], self.players[rows]
        batch_step(
            k.step,
            k.is_terminal,
            k.current_player,
            k.legal_mask,
            k.init,
            states,
            p,
            np.ascontiguousarray(actions, np.int64),
            rewards,
            dones,
            self.draw_seeds(rows.size),
            auto_reset,
            masks,
            players,
        )
        self.states[rows], self.rewards[rows], self.dones[rows] = states, rewards, dones
        self.masks[rows], self.players[rows] = masks, players

    def observe(
        self, seats: np.ndarray | None = None, rows: np.ndarray | None = None
    ) -> np.ndarray:
        """Observations ``[len(rows), O]`` of ``seats`` (default: each game's seat to move).

        ``rows`` selects games (default: all); ``seats`` is aligned with ``rows``.
        """
        states = self.states if rows is None else self.states[rows]
        if seats is None:
            seats = self.players if rows is None else self.players[rows]
        seats = np.maximum(np.ascontiguousarray(seats, np.int64), 0)  # ended games: seat 0
        obs = np.zeros((states.shape[0], self.game.obs_size), OBS_DTYPE)
        batch_observe(self.game.k.observe, states, self.game.params, seats, obs)
        return obs

    def _result(self) -> VectorStep:
        return VectorStep(
            self.observe(),
            self.masks.copy(),
            self.rewards.copy(),
            self.dones.copy(),
            self.players.copy(),
        )

    # -- the batch API --------------------------------------------------------------
    def reset(self, seed: int | None = None) -> VectorStep:
        """Start every game (``seed`` as in the module docstring; default: the constructor's)."""
        if seed is None and not self._started:
            seed = self._seed  # the constructor's seed applies to the first reset
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            seeds = int(seed) + np.arange(self.num_envs, dtype=np.int64)
        else:
            seeds = self.draw_seeds(self.num_envs)
        self.init_rows(np.arange(self.num_envs), seeds)
        self.rewards[:] = 0.0
        self.dones[:] = False
        self._started = True
        return self._result()

    def check_actions(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """Checked int64 actions and the rows whose action is illegal (raises under "raise")."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = check_batch_actions(actions, self.masks)
        bad = illegal_rows(acts, self.masks)
        if bad.size:
            error = batch_illegal_error(acts, self.masks, bad)
            if self.illegal == "raise":
                raise error
            warn_illegal_once(self, int(self.players[bad[0]]), str(error))
        return acts, bad

    def forfeit_rows(self, rows: np.ndarray) -> None:
        """End the games in ``rows`` as lost by their seat to move (illegal="loss")."""
        for i in rows:
            self.rewards[i] = forfeit_rewards(self.game.num_players, int(self.players[i]))
        self.dones[rows] = True

    def step(self, actions: Any) -> VectorStep:
        """Play one action per game (seat to move); ended games restart at once."""
        acts, bad = self.check_actions(actions)
        if bad.size == 0:
            self.step_rows(None, acts, auto_reset=True)
        else:
            good = np.setdiff1d(np.arange(self.num_envs), bad)
            self.step_rows(good, acts[good], auto_reset=True)
            self.forfeit_rows(bad)
            self.init_rows(bad, self.draw_seeds(bad.size))
        return self._result()


class CrusadeVectorSingleAgentEnv(VectorEnv):
    """Gymnasium ``VectorEnv``: the learner plays ``seat`` in ``num_envs`` batched games.

    Opponents (``"random"`` or anything with ``act_batch(obs, masks)``) move in batch
    until every game waits for the learner. Ended games restart in the same step
    (``AutoresetMode.SAME_STEP``): ``infos["final_obs"]`` holds their last observation.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game_name: str,
        num_envs: int,
        seat: int = 0,
        opponents: Any = "random",
        seed: int | None = None,
        illegal: str = DEFAULT_ILLEGAL,
        **config: Any,
    ) -> None:
        self.vec = CrusadeVectorEnv(game_name, num_envs, seed=seed, illegal=illegal, **config)
        g = self.game = self.vec.game
        if (
            isinstance(seat, bool)
            or not isinstance(seat, (int, np.integer))
            or not (0 <= seat < g.num_players)
        ):
            raise ValueError(f"seat must be an int in [0, {g.num_players}), got {seat!r}")
        self.seat = int(seat)
        self.opponent = resolve_opponent(opponents, seed)
        if not callable(getattr(self.opponent, "act_batch", None)):
            raise TypeError("batched opponents need act_batch(observations, masks)")
        self.num_envs = self.vec.num_envs
        self.metadata = {**env_metadata(g), "autoreset_mode": AutoresetMode.SAME_STEP}
        self.single_observation_space = observation_box(g)
        self.single_action_space = spaces.Discrete(g.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _advance(self, active: np.ndarray, rewards: np.ndarray) -> None:
        """Opponents move in the ``active`` games until the learner is to move or they end.

        Adds the learner's rewards to ``rewards``; games that end leave ``active`` and
        are marked in ``vec.dones``.
        """
        vec = self.vec
        while True:
            rows = np.flatnonzero(active & (vec.players != self.seat))
            if rows.size == 0:
                return
            obs = vec.observe(rows=rows)
            acts = np.asarray(self.opponent.act_batch(obs, vec.masks[rows]), np.int64)
            bad = illegal_rows(acts, vec.masks[rows])
            if bad.size:
                raise batch_illegal_error(acts, vec.masks[rows], bad)
            vec.step_rows(rows, acts, auto_reset=False)
            rewards[rows] += vec.rewards[rows, self.seat]
            active[rows[vec.dones[rows]]] = False

    def _restart(self, rows: np.ndarray) -> None:
        """New games in ``rows``, advanced to the learner's first move."""
        while rows.size:
            self.vec.init_rows(rows, self.vec.draw_seeds(rows.size))
            active = np.zeros(self.num_envs, bool)
            active[rows] = True
            self._advance(active, np.zeros(self.num_envs, np.float32))
            rows = rows[~active[rows]]  # games that ended before the learner moved

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        self.vec.reset(seed)
        if seed is not None and callable(getattr(self.opponent, "reset", None)):
            self.opponent.reset(seed=seed)
        active = np.ones(self.num_envs, bool)
        self._advance(active, np.zeros(self.num_envs, np.float32))
        self._restart(np.flatnonzero(~active))
        return self.vec.observe(np.full(self.num_envs, self.seat)), {}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        vec, B = self.vec, self.num_envs
        acts, bad = vec.check_actions(actions)
        rewards = np.zeros(B, np.float32)
        if bad.size:
            good = np.setdiff1d(np.arange(B), bad)
            vec.step_rows(good, acts[good], auto_reset=False)
        else:
            vec.step_rows(None, acts, auto_reset=False)
        vec.forfeit_rows(bad)
        rewards += vec.rewards[:, self.seat]
        active = ~vec.dones
        self._advance(active, rewards)
        ended = np.flatnonzero(~active)
        terminated = ~active  # a turn cap of the game's config is a scored end too
        truncated = np.zeros(B, bool)
        infos: dict[str, Any] = {}
        if ended.size:
            final = vec.observe(np.full(ended.size, self.seat), rows=ended)
            k, p = self.game.k, self.game.params
            turn_cap = np.zeros(B, bool)
            for i in ended:
                turn_cap[i] = i not in bad and bool(k.is_truncated(vec.states[i], p))
            infos["turn_cap"], infos["_turn_cap"] = turn_cap, ~active
            infos["final_obs"] = np.full(B, None, dtype=object)
            infos["_final_obs"] = ~active
            for j, i in enumerate(ended):
                infos["final_obs"][i] = final[j]
            self._restart(ended)
        obs = vec.observe(np.full(B, self.seat))
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """``[B, A]`` bool legal actions of the learner in every game."""
        return self.vec.masks != 0
