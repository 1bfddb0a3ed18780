"""A learned evaluation: a small network over a game's features, compiled, for search.

A :class:`LearnedValue` maps a seat's feature vector (a game's ``features`` kernel and
a named column set, :data:`GAMES`) to the seat's expected result in [-1, 1], in one of
two forms (:data:`FORMS`):

* ``mlp``: a multilayer perceptron (two tanh hidden layers, tanh output), fitted to
  game results by :mod:`crusadegym.training.valuefit`; for two players it is made
  zero-sum: ``v[p] = (f(p) - f(q)) / 2``.
* ``linear``: ``v[p] = tanh(skip * MARGIN . f(p) + w . [x, turn * x] + b)`` per seat,
  where ``x`` are the normalised columns and ``turn`` the clock (so every weight may
  change as the game nears its end). With ``skip = 1`` and ``w = 0`` it *is* the
  hand-written evaluation; :mod:`crusadegym.training.evolve` tunes ``w`` by playing.
  Its weights live in one float64 buffer the compiled kernel reads at run time, so
  :meth:`LearnedValue.set_parameters` changes the evaluation without a recompile.

It is used the way the hand-written evaluation is: :meth:`LearnedValue.heuristic`
returns a :class:`~crusadegym.agents.heuristics.Heuristic` whose ``value`` is the
network, compiled with numba as a closure over its weights, so the greedy lookahead
(:class:`~crusadegym.agents.heuristic_agent.HeuristicAgent` priors) and the MCTS leaves
(:class:`~crusadegym.agents.mcts.MCTSAgent`) call it at the same cost as the heuristic.
In the arena: ``mcts:value=PATH.npz`` (and ``heuristic:value=PATH.npz``).

Fitted by :mod:`crusadegym.training.valuefit`; a checkpoint is one ``.npz`` file holding
the weights, the input normalisation, the game, the feature set and its column names
(checked against the game's on load, so a changed feature table fails loudly).
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from crusadegym.errors import MissingFileError

from .heuristics import Heuristic, get_heuristic
from .pretrained import VALUE

FORMS = ("mlp", "linear")

GAMES: dict[str, str] = {
    "deus_lo_vult": "crusadegym.agents.heuristics.deus_lo_vult_features",
}
"""Game -> module with ``features(state, params, out[2, N_FEATURES])``, ``N_FEATURES``,
``FEATURE_NAMES`` and ``FEATURE_SETS`` (two-player games)."""


_LOADED: dict[tuple[str, int], LearnedValue] = {}
"""Checkpoints read in this process, by (resolved path, modification time)."""


def feature_module(game: str) -> Any:
    """The features module of ``game`` (ValueError naming the games that have one)."""
    if game not in GAMES:
        raise ValueError(f"no learned evaluation for {game!r}; games with features: {list(GAMES)}")
    return importlib.import_module(GAMES[game])


def linear_inputs(
    game: str, x: np.ndarray, columns: np.ndarray, mean: np.ndarray, scale: np.ndarray
) -> np.ndarray:
    """A ``linear`` value's inputs ``[x, turn * x]`` for raw feature rows ``x[N, F]``: the
    normalised ``columns``, then the same times the clock (numpy; the compiled kernel
    computes them inline)."""
    h = (x[:, columns] - mean) / scale
    return np.concatenate([h, h * x[:, [feature_module(game).FEATURE_NAMES.index("turn")]]], 1)


@dataclass
class LearnedValue:
    """Weights of a value network over one feature set of one game."""

    game: str
    feature_set: str
    weights: list[np.ndarray]
    """``[W1, b1, W2, b2, ..., Wout, bout]``, ``W`` as ``[out, in]`` (torch's layout)."""
    mean: np.ndarray
    scale: np.ndarray
    skip: float = 0.0
    """Residual form: the output is ``tanh(skip * MARGIN . features + network)``, where
    ``MARGIN . features`` is the hand-written evaluation's argument (the features
    module's ``MARGIN``); 0 for a network on its own."""
    meta: dict = field(default_factory=dict)
    form: str = "mlp"
    """One of :data:`FORMS` (see the module docstring)."""
    _kernel: Any = field(default=None, repr=False, compare=False)
    _buffer: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ValueError(f"unknown form {self.form!r}; one of {FORMS}")
        if self.form == "linear":  # one buffer; the weights are views of it
            n = 2 * len(self.columns)
            w, b = (np.asarray(a, np.float64).ravel() for a in self.weights)
            if len(self.weights) != 2 or w.size != n or b.size != 1:
                raise ValueError(f"a linear value needs weights [w (1, {n}), b (1,)]")
            self._buffer = np.concatenate([w, b])
            self.weights = [self._buffer[:n].reshape(1, n), self._buffer[n:]]

    @classmethod
    def linear(cls, game: str, feature_set: str, mean: np.ndarray, scale: np.ndarray,
               meta: dict | None = None) -> LearnedValue:  # fmt: skip
        """A ``linear`` value at its start: exactly the hand-written evaluation."""
        n = 2 * len(feature_module(game).FEATURE_SETS[feature_set])
        weights = [np.zeros((1, n)), np.zeros(1)]
        return cls(game, feature_set, weights, mean, scale, 1.0, meta or {}, "linear")

    @property
    def parameters(self) -> np.ndarray:
        """A ``linear`` value's weights and bias, flat (a copy)."""
        if self.form != "linear":
            raise ValueError("only a linear value has a flat parameter vector")
        return self._buffer.copy()

    def set_parameters(self, theta: np.ndarray) -> None:
        """Overwrite a ``linear`` value's weights and bias in place; a compiled kernel
        reads them on its next call (no recompile)."""
        theta = np.asarray(theta, np.float64)
        if self.form != "linear" or theta.shape != self._buffer.shape:
            raise ValueError(f"need a linear value and {self._buffer.shape} parameters")
        self._buffer[:] = theta

    @property
    def columns(self) -> np.ndarray:
        return np.array(feature_module(self.game).FEATURE_SETS[self.feature_set], np.int64)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        names = feature_module(self.game).FEATURE_NAMES
        arrays = {f"w{i}": w for i, w in enumerate(self.weights)}
        np.savez(
            path,
            game=self.game,
            feature_set=self.feature_set,
            feature_names=np.array([names[c] for c in self.columns]),
            mean=self.mean,
            scale=self.scale,
            skip=np.array(self.skip),
            form=np.array(self.form),
            meta=np.array(repr(self.meta)),
            **arrays,
        )
        return path

    @classmethod
    def load(cls, path: str | Path) -> LearnedValue:
        """Read a checkpoint (FileNotFoundError / ValueError with what to do);
        ``"pretrained"`` names the one shipped with the package. The same
        unchanged file gives the same object, so its kernel compiles once per process
        (the arena builds its agents afresh for every game)."""
        if str(path) == "pretrained":
            path = VALUE
        return load_once(Path(path), _LOADED, cls._read)

    @classmethod
    def _read(cls, path: Path) -> LearnedValue:
        if not path.is_file():
            raise MissingFileError(f"no learned value at {path}; make one with "
                                    "`python -m crusadegym.training.valuefit` (or "
                                    "evolve, searchfit)")  # fmt: skip
        try:
            z = np.load(path, allow_pickle=False)
            game, feature_set = str(z["game"]), str(z["feature_set"])
            weights = [z[f"w{i}"] for i in range(sum(k.startswith("w") for k in z.files))]
            names = [str(n) for n in z["feature_names"]]
            skip = float(z["skip"]) if "skip" in z.files else 0.0
            form = str(z["form"]) if "form" in z.files else "mlp"
            meta = saved_meta(str(z["meta"])) if "meta" in z.files else {}
            out = cls(game, feature_set, weights, z["mean"], z["scale"], skip,
                      {**meta, "file": str(path)}, form)  # fmt: skip
        except (KeyError, ValueError, OSError) as e:
            raise ValueError(f"{path} is not a learned-value checkpoint ({e})") from e
        expected = [feature_module(game).FEATURE_NAMES[c] for c in out.columns]
        if names != expected:
            raise ValueError(f"{path}: its features {names} are not the game's {expected}; refit")
        return out

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The network on raw feature rows ``x[N, N_FEATURES]`` (numpy; for tests)."""
        fm = feature_module(self.game)
        if self.form == "linear":
            h = linear_inputs(self.game, x, self.columns, self.mean, self.scale)
        else:
            h = (x[:, self.columns] - self.mean) / self.scale
        for i in range(0, len(self.weights) - 2, 2):
            h = np.tanh(h @ self.weights[i].T + self.weights[i + 1])
        out = h @ self.weights[-2].T + self.weights[-1]
        return np.tanh(out[:, 0] + self.skip * (x @ fm.MARGIN))

    def kernel(self) -> Any:
        """The compiled ``value(state, params, out)`` (built once per object)."""
        if self._kernel is None:
            self._kernel = _compile_linear(self) if self.form == "linear" else _compile(self)
        return self._kernel

    def heuristic(self, **mcts_defaults: Any) -> Heuristic:
        """The game's heuristic with this network as its evaluation (lookahead, priors,
        MCTS leaves); the game's ``extend`` rule and MCTS defaults, updated by
        ``mcts_defaults``."""
        base = get_heuristic(self.game)
        return Heuristic(
            game=self.game,
            description=f"learned evaluation ({self.feature_set} features) over "
            f"{self.meta.get('file', 'memory')}",
            value=self.kernel(),
            extend=base.extend,
            mcts_defaults={**(base.mcts_defaults or {}), **mcts_defaults},
        )


def load_once(path: Path, cache: dict, read: Callable[[Path], Any]) -> Any:
    """``read(path)``, once per unchanged file and process (``cache`` is keyed by the
    resolved path and its modification time), so a checkpoint's kernels compile once; a
    missing file goes to ``read``, which says what to do."""
    if not path.is_file():
        return read(path)
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in cache:
        cache[key] = read(path)
    return cache[key]


def saved_meta(text: str) -> dict:
    """A checkpoint's metadata (saved as the ``repr`` of a dict of plain values); empty if
    it is not one."""
    try:
        meta = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _compile(model: LearnedValue) -> Any:
    """numba closure over the weights: two hidden layers (the fitted shape)."""
    if len(model.weights) != 6:
        raise ValueError("the compiled evaluation supports two hidden layers (6 arrays)")
    fm = feature_module(model.game)
    features, n_features = fm.features, fm.N_FEATURES
    cols = model.columns
    mean, scale = model.mean.astype(np.float64), model.scale.astype(np.float64)
    w1, b1, w2, b2, w3, b3 = (np.ascontiguousarray(w, np.float64) for w in model.weights)
    n_in, h1, h2 = len(cols), w1.shape[0], w2.shape[0]
    margin, skip = fm.MARGIN.astype(np.float64), float(model.skip)

    @numba.njit(nogil=True)
    def seat_value(f, x, a1, a2):
        for i in range(n_in):
            x[i] = (f[cols[i]] - mean[i]) / scale[i]
        for j in range(h1):
            s = b1[j]
            for i in range(n_in):
                s += w1[j, i] * x[i]
            a1[j] = np.tanh(s)
        for j in range(h2):
            s = b2[j]
            for i in range(h1):
                s += w2[j, i] * a1[i]
            a2[j] = np.tanh(s)
        s = b3[0]
        for i in range(h2):
            s += w3[0, i] * a2[i]
        if skip != 0.0:
            for i in range(n_features):
                s += skip * margin[i] * f[i]
        return np.tanh(s)

    @numba.njit(nogil=True)
    def value(state, params, out):
        f = np.empty((2, n_features))
        x = np.empty(n_in)
        a1 = np.empty(h1)
        a2 = np.empty(h2)
        features(state, params, f)
        v0 = seat_value(f[0], x, a1, a2)
        v1 = seat_value(f[1], x, a1, a2)
        out[0] = 0.5 * (v0 - v1)
        out[1] = 0.5 * (v1 - v0)

    return value


@intrinsic
def _f64_pointer(typingctx, address):
    """The address of a float64 buffer (an integer) as a pointer ``numba.carray`` reads."""
    signature = types.CPointer(types.float64)(address)

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], context.get_value_type(sig.return_type))

    return signature, codegen


def _compile_linear(model: LearnedValue) -> Any:
    """numba closure over a ``linear`` value: the weights are read from the model's
    buffer at every call (the kernel holds the buffer, so it outlives the model)."""
    fm = feature_module(model.game)
    features, n_features = fm.features, fm.N_FEATURES
    cols = model.columns
    mean, scale = model.mean.astype(np.float64), model.scale.astype(np.float64)
    n_in, turn = len(cols), fm.FEATURE_NAMES.index("turn")
    margin, skip = fm.MARGIN.astype(np.float64), float(model.skip)
    address, n_weights = model._buffer.ctypes.data, model._buffer.size

    @numba.njit(nogil=True)
    def seat_value(f, w):
        s = w[2 * n_in]
        t = f[turn]
        for i in range(n_in):
            x = (f[cols[i]] - mean[i]) / scale[i]
            s += (w[i] + w[n_in + i] * t) * x
        for i in range(n_features):
            s += skip * margin[i] * f[i]
        return np.tanh(s)

    @numba.njit(nogil=True)
    def value(state, params, out):
        w = numba.carray(_f64_pointer(address), (n_weights,))
        f = np.empty((2, n_features))
        features(state, params, f)
        out[0] = seat_value(f[0], w)
        out[1] = seat_value(f[1], w)

    value.weights_buffer = model._buffer  # the kernel keeps the memory it reads alive
    return value
