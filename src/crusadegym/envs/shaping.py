"""Optional reward signals beyond the game result, for every game.

Each game declares its running score (:data:`SCORES`: Deus lo Vult's secured coins, the
Campaign's Glory in coins plus the Battle's coins, Deus's VP as if the game ended now,
Crusaders' influence) and two weights per unit of it (:data:`SCORE_WEIGHTS`,
:data:`POTENTIAL_WEIGHTS`), so that a learner gets a signal long before a game ends:

* **Shaping** (``shaped_rewards=True``): a game's potential ``phi(game, state) ->
  float32[P]`` (each seat's score lead over the other seats' mean, weighted) scores each
  seat's position; a transition adds ``phi(after) - phi(before)`` to the core rewards,
  with the potential of a finished game taken as zero. Summed over a game the shaping
  cancels out, so shaped returns equal the true returns (Ng et al., 1999, with gamma = 1).
* **The game's own score** (``reward="score"``, :class:`ScoreReward`): each step pays
  the change of each seat's zero-sum score lead, times the game's score weight, and the
  game result at the end. Unlike shaping it does not cancel: a game's return is its
  result plus the weight times the final score lead, so a learner is paid for every coin
  or point it gains even in a game that ends at the turn cap as a draw.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crusadegym.core import Game

COIN_WEIGHT = 0.05
"""Shaping reward per coin of lead (small against the +-1 game result)."""

SCORE_WEIGHT = 0.1
"""``reward="score"``: reward per coin of lead (a 10-coin lead is worth one game result)."""

POINT_SCORE_WEIGHT = 0.02
"""``reward="score"`` in the point-scoring games (Deus VP, Crusaders influence): a 50-point
lead, about what separates the winner of a heuristic game from the last, is worth one
game result."""

POINT_WEIGHT = 0.01
"""Shaping reward per point of lead in the point-scoring games (half of the score's)."""

REWARD_KINDS = ("result", "score")
"""``reward=``: the game result only (default), or the game's score lead plus the result."""


def zero_sum_lead(score: np.ndarray) -> np.ndarray:
    """Each seat's score minus the other seats' mean (sums to zero over the seats)."""
    score = np.asarray(score, np.float32)
    others = (score.sum() - score) / max(score.size - 1, 1)
    return score - others


def _deus_lo_vult_score(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's secured coins (Duel Rules 2.0, "End of the game": most coins wins)."""
    from crusadegym.core.deus_lo_vult import layout as L

    return state[L.SCORE : L.SCORE + game.num_players].astype(np.float32)


def _campaign_score(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's Glory in coins (5 coins = 1 Glory [R Part 2 "Campaign Mode"]) plus the
    coins it has secured in the Battle being fought."""
    from crusadegym.core.deus_lo_vult.campaign.battle import C_GLORY
    from crusadegym.core.deus_lo_vult.campaign.config import P_COINS_PER_GLORY

    n = game.num_players
    glory = state[C_GLORY : C_GLORY + n].astype(np.float32)
    return glory * np.float32(game.params[P_COINS_PER_GLORY]) + _deus_lo_vult_score(game, state)


def _deus_score(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's final score if the game ended now [R "End of Game and Scoring"]: VP
    gained, its temples' VP and the 2-VP majorities of each resource and gold, all of it
    public (``scoring.final_scores``)."""
    from crusadegym.core.deus.scoring import final_scores

    out = np.zeros(game.num_players, np.int64)
    final_scores(state, game.params, out)
    return out.astype(np.float32)


def _crusaders_score(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's influence on the score track [R "Scoring"]; the end-of-game points join
    it when the game ends (``scoring.score_game``), so the last step pays them."""
    from crusadegym.core.crusaders.layout import PL_SCORE, pl

    return np.array([state[pl(p) + PL_SCORE] for p in range(game.num_players)], np.float32)


SCORES: dict[str, Callable[[Game, np.ndarray], np.ndarray]] = {
    "deus_lo_vult": _deus_lo_vult_score,
    "deus_lo_vult_campaign": _campaign_score,
    "deus": _deus_score,
    "crusaders": _crusaders_score,
}
"""Per game: ``score(game, state) -> float32[P]``, the game's own running score per seat."""

SCORE_WEIGHTS: dict[str, float] = {
    "deus_lo_vult": SCORE_WEIGHT,
    "deus_lo_vult_campaign": SCORE_WEIGHT,
    "deus": POINT_SCORE_WEIGHT,
    "crusaders": POINT_SCORE_WEIGHT,
}
"""Per game: ``reward="score"``'s reward per unit of score lead."""

POTENTIAL_WEIGHTS: dict[str, float] = {
    "deus_lo_vult": COIN_WEIGHT,
    "deus_lo_vult_campaign": COIN_WEIGHT,
    "deus": POINT_WEIGHT,
    "crusaders": POINT_WEIGHT,
}
"""Per game: the shaping potential's weight per unit of score lead."""


def score_lead_potential(game: Game, state: np.ndarray) -> np.ndarray:
    """The shaping potential of every game with a running score: each seat's lead in it
    over the other seats' mean, times the game's :data:`POTENTIAL_WEIGHTS`."""
    weight = np.float32(POTENTIAL_WEIGHTS[game.name])
    return weight * zero_sum_lead(SCORES[game.name](game, state))


POTENTIALS: dict[str, Callable[[Game, np.ndarray], np.ndarray]] = {
    name: score_lead_potential for name in POTENTIAL_WEIGHTS
}
"""Per game: ``phi(game, state) -> float32[P]``, the shaping potential (``shaped_rewards``)."""


def register_score(
    game_name: str, fn: Callable[[Game, np.ndarray], np.ndarray], weight: float = SCORE_WEIGHT
) -> None:
    """Declare the running score of ``game_name`` (enables ``reward="score"``) and its
    reward per unit of lead."""
    SCORES[game_name] = fn
    SCORE_WEIGHTS[game_name] = weight


def check_reward_kind(kind: str, game: Game) -> str:
    """Return ``kind`` if it is one of :data:`REWARD_KINDS` and ``game`` supports it."""
    if kind not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {REWARD_KINDS}, got {kind!r}")
    if kind == "score" and game.name not in SCORES:
        raise ValueError(
            f"reward='score': {game.name!r} declares no running score; "
            f"games with one: {sorted(SCORES)}"
        )
    return kind


def register_potential(game_name: str, fn: Callable[[Game, np.ndarray], np.ndarray]) -> None:
    """Declare the shaping potential of ``game_name``."""
    POTENTIALS[game_name] = fn


class Shaper:
    """Tracks the potential along one game and returns the shaping term of each transition."""

    def __init__(self, game: Game) -> None:
        if game.name not in POTENTIALS:
            raise ValueError(
                f"shaped_rewards: no shaping potential for {game.name!r}; "
                f"games with one: {sorted(POTENTIALS)}"
            )
        self.game = game
        self.potential = POTENTIALS[game.name]
        self._phi = np.zeros(game.num_players, np.float32)

    def reset(self, state: np.ndarray) -> None:
        """Start tracking a fresh game."""
        self._phi = self.potential(self.game, state).astype(np.float32)

    def step(self, state: np.ndarray) -> np.ndarray:
        """Shaping of the transition that led to ``state`` (per seat)."""
        if self.game.is_terminal(state):
            phi = np.zeros(self.game.num_players, np.float32)
        else:
            phi = self.potential(self.game, state).astype(np.float32)
        delta, self._phi = phi - self._phi, phi
        return delta


class ScoreReward:
    """``reward="score"``: the change of each seat's zero-sum score lead, per transition."""

    def __init__(self, game: Game) -> None:
        check_reward_kind("score", game)
        self.game = game
        self.score = SCORES[game.name]
        self.weight = np.float32(SCORE_WEIGHTS[game.name])
        self._lead = np.zeros(game.num_players, np.float32)

    def reset(self, state: np.ndarray) -> None:
        """Start tracking a fresh game."""
        self._lead = zero_sum_lead(self.score(self.game, state))

    def step(self, state: np.ndarray) -> np.ndarray:
        """The game's score weight x the change of the lead over the transition to ``state``."""
        lead = zero_sum_lead(self.score(self.game, state))
        delta, self._lead = lead - self._lead, lead
        return self.weight * delta
