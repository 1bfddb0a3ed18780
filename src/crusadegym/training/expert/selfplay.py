"""Self-play: a batch of games, every move chosen by the Gumbel search.

``batch`` games run side by side and never pause between learning rounds: a game still
going when :meth:`SelfPlay.play` returns goes on in the next call (with the newer
network). Each move is one search of every game at once
(:class:`crusadegym.agents.gumbel_search.GumbelSearch`: one network pass per simulation
for all the games' leaves), from a root determinized for the seat to move; a position
with a single legal action is played without search and is not a sample. When a game
ends, each of its positions becomes a sample: the observation of the seat that moved,
the legal mask, the search's improved policy, and the game's result seen from that seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from crusadegym.agents.gumbel_search import GumbelSearch
from crusadegym.agents.mcts import determinized_roots
from crusadegym.agents.network import absolute_to_relative
from crusadegym.core import Game


@dataclass
class FinishedGame:
    """One finished self-play game: its samples and how it ended."""

    obs: np.ndarray
    masks: np.ndarray
    targets: np.ndarray
    results: np.ndarray
    returns: np.ndarray
    turns: int | None
    truncated: bool


class SelfPlay:
    """``batch`` games of ``game`` played by the search (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        batch: int,
        simulations: int,
        max_considered: int,
        seed: int,
        rescale: bool = True,
    ) -> None:
        self.game = game
        self.search = GumbelSearch(game, batch, simulations, max_considered, rescale)
        self.rng = np.random.default_rng(seed)
        self.next_seed = int(seed) * 1_000_003
        self.states = np.zeros((batch, game.state_size), np.int32)
        self.history: list[list[tuple]] = [[] for _ in range(batch)]
        self.teacher_seat = np.full(batch, -1, np.int64)
        """Per game, the seat the teacher plays (-1: none, pure self-play)."""
        self.teacher_games = 0.0
        self._mask = np.zeros(game.num_actions, np.uint8)
        self._rewards = np.zeros(game.num_players, np.float32)
        for slot in range(batch):
            self._new_game(slot)

    def _new_game(self, slot: int) -> None:
        """A fresh game in ``slot``, played up to its first real choice (a deal that ends
        before any choice is skipped: it has nothing to learn from)."""
        self.history[slot] = []
        share = self.teacher_games
        opponent = share > 0 and self.rng.random() < share
        self.teacher_seat[slot] = self.rng.integers(self.game.num_players) if opponent else -1
        for _ in range(1000):
            self.states[slot] = self.game.new_state(seed=self.next_seed)
            self.next_seed += 1
            self._play_forced(slot)
            if not self.game.k.is_terminal(self.states[slot], self.game.params):
                return
        raise RuntimeError(f"{self.game.name}: 1,000 deals in a row ended before any choice")

    def _play_forced(self, slot: int) -> None:
        """Play single legal actions until a real choice (or the end)."""
        k, params, state = self.game.k, self.game.params, self.states[slot]
        while not k.is_terminal(state, params):
            if k.legal_mask(state, params, self._mask) != 1:
                return
            k.step(state, params, int(np.argmax(self._mask)), self._rewards)

    def play(
        self, evaluate: Any, moves: int, teacher: Any = None, teacher_games: float = 0.0
    ) -> list[FinishedGame]:
        """``moves`` moves in every game, each searched, except that in a share
        ``teacher_games`` of the games (drawn when a game starts) one seat, drawn at
        random, is played by ``teacher`` (an early opponent; its moves are samples with
        their one-hot policy, as in :meth:`play_teacher`); returns the games that finished
        meanwhile."""
        game, batch = self.game, self.states.shape[0]
        finished: list[FinishedGame] = []
        self.teacher_games = teacher_games if teacher is not None else 0.0
        for _ in range(moves):
            movers = np.array([game.k.current_player(s, game.params) for s in self.states])
            active = movers != self.teacher_seat
            roots = np.stack(
                [
                    determinized_roots(game, self.states[s], 1, int(self.rng.integers(2**62)))[0]
                    if active[s]
                    else self.states[s]
                    for s in range(batch)
                ]
            )
            gumbel = self.rng.gumbel(size=(batch, game.num_actions))
            actions = self.search.run(roots, active, gumbel, evaluate)
            for slot in range(batch):
                state = self.states[slot]
                if active[slot]:
                    self.history[slot].append(
                        (
                            self.search.root_obs[slot].copy(),
                            self.search.root_masks[slot].copy(),
                            self.search.targets[slot].copy(),
                            int(movers[slot]),
                        )
                    )
                    action = int(actions[slot])
                else:  # the teacher's move is a sample too (its one-hot policy)
                    action = int(teacher.act_state(game, state))
                    self.history[slot].append(self._teacher_row(state, int(movers[slot]), action))
                self._advance(slot, action, finished)
        return finished

    def play_teacher(
        self, teacher: Any, moves: int, evaluate: Any = None, follow: float = 0.0
    ) -> list[FinishedGame]:
        """``moves`` moves in every game labelled by ``teacher`` (an agent with
        ``act_state``, e.g. the heuristic: a curriculum step, never an input of the
        network); the policy target of a position is the teacher's move. With
        ``follow > 0`` (DAgger, Ross et al. 2011), that share of the moves *played* is a
        draw from the network's prior (``evaluate``, one pass for all games), so the
        teacher labels the positions the network itself reaches, not only its own."""
        game, batch = self.game, self.states.shape[0]
        finished: list[FinishedGame] = []
        for _ in range(moves):
            own = self._network_moves(evaluate) if follow > 0 else None
            for slot in range(batch):
                state = self.states[slot]
                seat = game.k.current_player(state, game.params)
                action = int(teacher.act_state(game, state))
                self.history[slot].append(self._teacher_row(state, seat, action))
                if own is not None and self.rng.random() < follow:
                    action = int(own[slot])
                self._advance(slot, action, finished)
        return finished

    def _network_moves(self, evaluate: Any) -> np.ndarray:
        """A draw from the network's prior in every game (each seat's own view)."""
        game = self.game
        obs = np.stack(
            [game.observe(s, game.k.current_player(s, game.params)) for s in self.states]
        )
        masks = np.stack([game.legal_mask(s) for s in self.states])
        logits, _ = evaluate(obs, masks)
        z = np.exp(logits - logits.max(axis=1, keepdims=True)) * (masks > 0)
        z /= z.sum(axis=1, keepdims=True)
        draws = self.rng.random(len(z))[:, None]
        return np.minimum((z.cumsum(axis=1) < draws).sum(axis=1), masks.shape[1] - 1)

    def _advance(self, slot: int, action: int, finished: list[FinishedGame]) -> None:
        """Play ``action`` in ``slot``, then its forced moves; a game that ends there goes
        to ``finished`` (if it has samples) and a new one takes the slot."""
        game, state = self.game, self.states[slot]
        game.k.step(state, game.params, action, self._rewards)
        self._play_forced(slot)
        if game.k.is_terminal(state, game.params):
            if self.history[slot]:
                finished.append(self._finish(slot))
            self._new_game(slot)

    def _teacher_row(self, state: np.ndarray, seat: int, action: int) -> tuple:
        """A sample row of a teacher's move: the seat's view, the mask, the move one-hot."""
        target = np.zeros(self.game.num_actions, np.float32)
        target[action] = 1.0
        return (self.game.observe(state, seat), self.game.legal_mask(state), target, seat)

    def _finish(self, slot: int) -> FinishedGame:
        """The samples of the game in ``slot`` (which has just ended)."""
        game, state = self.game, self.states[slot]
        returns = game.returns(state)
        rows = self.history[slot]
        turn_slot = game.spec.turn_slot
        return FinishedGame(
            obs=np.stack([r[0] for r in rows]),
            masks=np.stack([r[1] for r in rows]).astype(bool),
            targets=np.stack([r[2] for r in rows]),
            results=np.stack([absolute_to_relative(returns, r[3]) for r in rows]),
            returns=returns,
            turns=int(state[turn_slot]) if turn_slot >= 0 else None,
            truncated=bool(game.is_truncated(state)),
        )
