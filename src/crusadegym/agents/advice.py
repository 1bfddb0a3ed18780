"""Heuristic advice as a policy input: the heuristic's verdict on every action.

A policy trained with ``advice="heuristic"`` sees, after its seat's observation
(``game.observe``), two values per action id, from the heuristic agent's own lookahead
over the current state (:func:`~.heuristics.action_values`):

* ``best[a]``: 1 where the lookahead rates ``a`` as good as the best legal action (the
  set the heuristic picks from at random), else 0;
* ``gap[a]``: how far ``a``'s value lies below the best, in the evaluation's own units
  (coins for Deus lo Vult: the value is ``tanh(coins / scale)``, so ``gap`` is
  ``scale * (atanh(best) - atanh(value))``), clipped at :data:`GAP_CLIP` and divided by
  it, so in [0, 1]; 1 for illegal actions.

:class:`~.neural.AdvisedPolicyAgent` builds this input, and the spatial policy
(``training/spatial.py``) adds learned multiples of ``best`` and ``gap`` to its
logits: a *residual* policy over the heuristic. Untrained, it plays the heuristic's
best set; training decides which of the tied actions to take and when to overrule the
heuristic. Such a policy is not observation-only: the advice steps copies of the core
state, exactly as the heuristic agent does, so it sees what the heuristic sees (in
Deus lo Vult, a game of open information, that is the board; the one chance event,
the City Quarter draw at a round's start, lies beyond the lookahead of a turn).
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game

from .heuristics import action_values, get_heuristic

ADVICE_KINDS = ("none", "heuristic")
"""What a policy may get besides its observation (``--advice``)."""

GAP_CLIP = 4.0
"""Value gaps (in the evaluation's units) at and beyond which ``gap`` is 1."""

_TIE = 1e-9
_EDGE = 1.0 - 1e-6  # keeps atanh finite for won or lost positions (value +-1)


def check_advice(kind: str) -> str:
    """``kind`` if it is one of :data:`ADVICE_KINDS`; ValueError otherwise."""
    if kind not in ADVICE_KINDS:
        raise ValueError(f"advice is one of {', '.join(ADVICE_KINDS)}, not {kind!r}")
    return kind


def advice_size(game: Game, kind: str) -> int:
    """How many values ``kind`` appends to ``game``'s observation."""
    return 0 if check_advice(kind) == "none" else 2 * game.num_actions


def advice_for_size(game: Game, obs_size: int) -> str:
    """The advice kind whose policy input has ``obs_size`` values; ValueError if none."""
    for kind in ADVICE_KINDS:
        if game.obs_size + advice_size(game, kind) == obs_size:
            return kind
    raise ValueError(
        f"{game.name}: a policy input of {obs_size} values matches no advice kind "
        f"(observation {game.obs_size}, advice adds 0 or {2 * game.num_actions})"
    )


def heuristic_advice(game: Game, state: np.ndarray, values: np.ndarray | None = None) -> np.ndarray:
    """``[best (A), gap (A)]`` of the seat to move, float32 (see the module docstring).

    ``values``: the heuristic's :func:`~.heuristics.action_values` of ``state``, when the
    caller has them already (the lookahead is the costly part).
    """
    heuristic = get_heuristic(game.name)
    scale = float((heuristic.mcts_defaults or {}).get("scale", 1.0))
    if values is None:
        values = action_values(game, state, heuristic)
    legal = np.isfinite(values)
    out = np.zeros(2 * game.num_actions, np.float32)
    out[game.num_actions :] = 1.0
    if not legal.any():
        return out
    top = values[legal].max()
    out[: game.num_actions][legal] = values[legal] >= top - _TIE
    coins = scale * np.arctanh(np.clip(values[legal], -_EDGE, _EDGE))
    gap = np.clip(scale * np.arctanh(np.clip(top, -_EDGE, _EDGE)) - coins, 0.0, GAP_CLIP)
    out[game.num_actions :][legal] = gap / GAP_CLIP
    return out


def advice_features(
    game: Game, state: np.ndarray, kind: str, values: np.ndarray | None = None
) -> np.ndarray:
    """The advice of ``kind`` for the seat to move (an empty array for ``"none"``);
    ``values`` as in :func:`heuristic_advice`."""
    if check_advice(kind) == "none":
        return np.zeros(0, np.float32)
    return heuristic_advice(game, state, values)


def policy_input(
    game: Game, state: np.ndarray, seat: int, kind: str, values: np.ndarray | None = None
) -> np.ndarray:
    """What a policy with advice ``kind`` sees: ``seat``'s observation, then the advice.

    Advice is given to the seat to move only (ValueError for another seat). ``values``
    as in :func:`heuristic_advice`.
    """
    obs = np.asarray(game.observe(state, seat), np.float32)
    if check_advice(kind) == "none":
        return obs
    if game.current_player(state) != seat:
        raise ValueError(f"advice is for the seat to move, not seat {seat}")
    return np.concatenate([obs, advice_features(game, state, kind, values)])
