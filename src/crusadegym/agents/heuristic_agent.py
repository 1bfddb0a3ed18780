"""The heuristic agent: plays its game's registered strategy (:mod:`.heuristics`) by the
greedy lookahead (:mod:`.heuristics.lookahead`), never the same move twice from one
position of a game (:mod:`.repetition`), and a random move now and then once the game
has stalled (:mod:`.stall`)."""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

from .base import Agent
from .heuristics import Heuristic, greedy_action, resolve_heuristic
from .learned_value import LearnedValue
from .repetition import RepetitionGuard
from .stall import EXPLORE, PATIENCE, StallBreaker


class HeuristicAgent(Agent):
    """Plays the heuristic registered for the game it is asked about."""

    name = "heuristic"

    def __init__(
        self,
        seed: int = 0,
        value: str | None = None,
        patience: int = PATIENCE,
        explore: float = EXPLORE,
    ) -> None:
        super().__init__(seed)
        self.heuristic: Heuristic | None = None
        """``None``: the game's own; ``heuristic:value=PATH.npz``: a learned evaluation
        (:mod:`crusadegym.agents.learned_value`) in the same greedy lookahead."""
        if value is not None:
            self.heuristic = LearnedValue.load(value).heuristic()
        self.repetition = RepetitionGuard()
        """The moves played from each position of this game: never the same twice."""
        self.stall = StallBreaker(patience, explore)
        """``heuristic:patience=N:explore=P``: a random move with probability P once the game
        has made no progress for N turns a seat (``patience=0``: never)."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.repetition.reset()
        self.stall.reset()

    def act_state(self, game: Game, state: np.ndarray) -> int:
        heuristic = resolve_heuristic(game, self.heuristic)
        if heuristic.choose is not None:
            return int(heuristic.choose(game, state, self.rng))
        explored = self.stall.act(game, state, self.rng)
        if explored is not None:
            return explored
        key = self.repetition.key(game, state)
        action = greedy_action(game, state, heuristic, self.rng, self.repetition.tried(key))
        return self.repetition.record(key, action)
