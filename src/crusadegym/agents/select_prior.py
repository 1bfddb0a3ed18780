"""A learned selection prior: the search's second ply, estimated instead of played.

In a "select, then act" game (Deus lo Vult) the evaluation's lookahead scores a
selection by the best of its follow-ups (:func:`.kernels.lookahead_values`), a second
ply played out for every selection of every node the search ranks. A profile of the
compiled search on Deus lo Vult found those ranks to be most of its time
(``docs/training.md``). A :class:`SelectPrior` replaces that ply below the root by

    ``guess(a) = value(state) + weights . features(state, a)``

(a linear model over what the selection offers: :data:`GAMES` names each game's
features module), maxed with the follow-ups its :attr:`exact` mask keeps playing out
(the few that take or secure coins, whose effect a linear guess misses). A guessed
edge is marked :data:`.tree_search.ESTIMATED`; when the search first expands it, the
guess gives way to the exact value (the expansion plays the follow-ups anyway). The
root's priors stay exact. So the guess only decides which selections the search looks
at first, and buys iterations: ``mcts:select_prior=PATH`` (compiled engine only).

Fitted by :mod:`crusadegym.training.selectfit` to the exact lookahead of the evaluation
it will search with; a checkpoint is one ``.npz`` (game, feature names, weights, the
evaluation it was fitted for), checked on load.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from crusadegym.errors import MissingFileError

from .learned_value import load_once, saved_meta
from .pretrained import SELECT_PRIOR

GAMES: dict[str, str] = {
    "deus_lo_vult": "crusadegym.agents.heuristics.deus_lo_vult_select",
}
"""Game -> module with ``select_features(state, params, action, after, after_mask, out)``,
``N_FEATURES``, ``FEATURE_NAMES`` and ``EXACT_FOLLOWUPS`` (a uint8 mask over actions)."""

_LOADED: dict[tuple[str, int], SelectPrior] = {}


def feature_module(game: str) -> Any:
    """The selection-features module of ``game`` (ValueError naming those that have one)."""
    if game not in GAMES:
        raise ValueError(f"no selection prior for {game!r}; games with one: {list(GAMES)}")
    return importlib.import_module(GAMES[game])


@dataclass(eq=False)  # hashed by identity: one compiled search per loaded checkpoint
class SelectPrior:
    """Weights of the linear guess over a game's selection features (see the module)."""

    game: str
    weights: np.ndarray
    value: str = "heuristic"
    """The evaluation whose lookahead it was fitted to (``heuristic`` or a value path)."""
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = feature_module(self.game).N_FEATURES
        self.weights = np.ascontiguousarray(self.weights, np.float64)
        if self.weights.shape != (n,):
            raise ValueError(f"a {self.game} selection prior has {n} weights, "
                             f"got shape {self.weights.shape}")  # fmt: skip

    def parts(self) -> tuple[Any, np.ndarray, np.ndarray]:
        """(features kernel, weights, exact follow-ups mask) for the compiled search."""
        module = feature_module(self.game)
        return module.select_features, self.weights, module.EXACT_FOLLOWUPS

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        np.savez(path, game=self.game, weights=self.weights, value=self.value,
                 feature_names=np.array(feature_module(self.game).FEATURE_NAMES),
                 meta=np.array(repr(self.meta)))  # fmt: skip
        return path

    @classmethod
    def load(cls, path: str | Path) -> SelectPrior:
        """Read a checkpoint (FileNotFoundError / ValueError saying what to do);
        ``"pretrained"`` names the one shipped with the package. The same unchanged file
        gives the same object, so its search compiles once per process."""
        if str(path) == "pretrained":
            path = SELECT_PRIOR
        return load_once(Path(path), _LOADED, cls._read)

    @classmethod
    def _read(cls, path: Path) -> SelectPrior:
        if not path.is_file():
            raise MissingFileError(f"no selection prior at {path}; make one with "
                                    "`python -m crusadegym.training.selectfit`")  # fmt: skip
        try:
            z = np.load(path, allow_pickle=False)
            game, names = str(z["game"]), [str(n) for n in z["feature_names"]]
            meta = saved_meta(str(z["meta"])) if "meta" in z.files else {}
            out = cls(game, z["weights"], str(z["value"]), {**meta, "file": str(path)})
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path} is not a selection-prior checkpoint ({e})") from e
        expected = list(feature_module(game).FEATURE_NAMES)
        if names != expected:
            raise ValueError(f"{path}: its features {names} are not the game's {expected}; refit")
        return out
