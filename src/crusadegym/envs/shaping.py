"""Optional reward signals beyond the game result, one hook per game.

* **Shaping** (``shaped_rewards=True``): a game's potential ``phi(game, state) ->
  float32[P]`` scores each seat's position; a transition adds ``phi(after) -
  phi(before)`` to the core rewards, with the potential of a finished game taken as
  zero. Summed over a game the shaping cancels out, so shaped returns equal the true
  returns (Ng et al., 1999, with gamma = 1).
* **The game's own score** (``reward="score"``, :class:`ScoreReward`): each step pays
  the change of each seat's zero-sum score lead (its secured coins minus the other
  seats' mean, ``SCORE_WEIGHT`` per coin), and the game result at the end. Unlike
  shaping it does not cancel: a game's return is its result plus ``SCORE_WEIGHT``
  times the final coin lead, so a learner is paid for every coin it secures even in a
  game that ends at the turn cap as a draw.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crusadegym.core import Game

COIN_WEIGHT = 0.05
"""Shaping reward per coin of lead (small against the +-1 game result)."""

SCORE_WEIGHT = 0.1
"""``reward="score"``: reward per coin of lead (a 10-coin lead is worth one game result)."""

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


def _deus_lo_vult_potential(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's secured-coin lead over the other seats' mean, in COIN_WEIGHT units."""
    return np.float32(COIN_WEIGHT) * zero_sum_lead(_deus_lo_vult_score(game, state))


def _campaign_score(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's Glory in coins (5 coins = 1 Glory [R Part 2 "Campaign Mode"]) plus the
    coins it has secured in the Battle being fought."""
    from crusadegym.core.deus_lo_vult.campaign.battle import C_GLORY
    from crusadegym.core.deus_lo_vult.campaign.config import P_COINS_PER_GLORY

    n = game.num_players
    glory = state[C_GLORY : C_GLORY + n].astype(np.float32)
    return glory * np.float32(game.params[P_COINS_PER_GLORY]) + _deus_lo_vult_score(game, state)


def _campaign_potential(game: Game, state: np.ndarray) -> np.ndarray:
    """Each seat's lead in :func:`_campaign_score` over the other seats' mean."""
    return np.float32(COIN_WEIGHT) * zero_sum_lead(_campaign_score(game, state))


SCORES: dict[str, Callable[[Game, np.ndarray], np.ndarray]] = {
    "deus_lo_vult": _deus_lo_vult_score,
    "deus_lo_vult_campaign": _campaign_score,
}
"""Per game: ``score(game, state) -> float32[P]``, the game's own running score per seat."""


POTENTIALS: dict[str, Callable[[Game, np.ndarray], np.ndarray]] = {
    "deus_lo_vult": _deus_lo_vult_potential,
    "deus_lo_vult_campaign": _campaign_potential,
}


def register_score(game_name: str, fn: Callable[[Game, np.ndarray], np.ndarray]) -> None:
    """Declare the running score of ``game_name`` (enables ``reward="score"``)."""
    SCORES[game_name] = fn


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
        self._lead = np.zeros(game.num_players, np.float32)

    def reset(self, state: np.ndarray) -> None:
        """Start tracking a fresh game."""
        self._lead = zero_sum_lead(self.score(self.game, state))

    def step(self, state: np.ndarray) -> np.ndarray:
        """``SCORE_WEIGHT`` x the change of the lead over the transition that led to ``state``."""
        lead = zero_sum_lead(self.score(self.game, state))
        delta, self._lead = lead - self._lead, lead
        return np.float32(SCORE_WEIGHT) * delta
