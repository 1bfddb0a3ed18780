"""The contract every game module fulfils, and the checked Python front over it.

A game is described by a :class:`GameSpec`: its name and version, its config
dataclass, and a handful of compiled kernels that work on ONE flat ``int32``
state array (see each game's ``layout.py``):

=====================  ===============================================================
kernel                 signature (all ``@njit``)
=====================  ===============================================================
``init``               ``init(state, params, seed) -> None``: a fresh game
``legal_mask``         ``legal_mask(state, params, out_uint8[A]) -> n_legal``
``step``               ``step(state, params, action, rewards_f32[P]) -> None``;
                       ``rewards`` receives this transition's reward per seat
``current_player``     ``current_player(state, params) -> seat`` (-1 when over)
``is_terminal``        ``is_terminal(state, params) -> bool`` (ended or truncated)
``is_truncated``       ``is_truncated(state, params) -> bool`` (ended by the length cap)
``returns``            ``returns(state, params, out_f32[P]) -> None``: final result
``observe``            ``observe(state, params, seat, out_f32[O]) -> None``
=====================  ===============================================================

Kernels never raise on bad input; the :class:`Game` front checks everything
(dtype, shape, range, legality, game over) and raises a readable error first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

STATE_DTYPE = np.int32
MASK_DTYPE = np.uint8
OBS_DTYPE = np.float32


class IllegalActionError(ValueError):
    """Raised when an action is out of range or not legal in the given state."""


class StateError(ValueError):
    """Raised when a state array has the wrong dtype, shape, or belongs to another game."""


def action_int(action: Any) -> int | None:
    """``action`` as a Python int, or ``None`` if it is not one integer.

    Accepted: ``int``, numpy integer scalars, and integer numpy arrays of shape ``()``
    or ``(1,)`` (``model.predict(obs)`` returns such an array). Booleans are refused.
    """
    if isinstance(action, np.ndarray):
        if action.dtype.kind not in "iu" or action.size != 1 or action.ndim > 1:
            return None
        return int(action.reshape(()))
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


def _describe(action: Any) -> str:
    """The type of a refused action, with dtype and shape for arrays."""
    if isinstance(action, np.ndarray):
        return f"ndarray of dtype {action.dtype} and shape {action.shape}"
    return type(action).__name__


@dataclass(frozen=True)
class Kernels:
    """The compiled kernels of one game (see the module docstring for signatures)."""

    init: Any
    legal_mask: Any
    step: Any
    current_player: Any
    is_terminal: Any
    is_truncated: Any
    returns: Any
    observe: Any


@dataclass(frozen=True)
class LegacyLayout:
    """An earlier state layout of a game whose replays still replay.

    A replay stores its layout hash and the hash of its final state. When a game's state
    layout changes without changing its rules, the spec lists the old layout here:
    ``state_size`` recomputes the old layout hash, and ``project(state)`` maps a state of
    today's layout to the old one, so the old final-state hash can still be checked.
    """

    state_size: int
    project: Callable[[np.ndarray], np.ndarray]
    note: str = ""


@dataclass(frozen=True)
class GameSpec:
    """Everything the suite needs to know about one game, independent of config.

    ``sizes(params)`` returns a dict with the keys ``state``, ``actions``, ``players``,
    ``obs`` and ``max_steps`` (and optionally ``obs_low``/``obs_high``, the bounds every
    observation entry stays within). ``action_to_str(action, state, params)`` and
    ``parse_action(text, state, params)`` are the one encode/decode pair of the
    game's action space. ``render_ansi(state, params)`` draws the board as text.
    """

    name: str
    version: int
    config_cls: type
    make_params: Callable[[Any], np.ndarray]
    sizes: Callable[[np.ndarray], dict]
    kernels: Kernels
    action_to_str: Callable[[int, np.ndarray | None, np.ndarray], str]
    parse_action: Callable[[str, np.ndarray | None, np.ndarray], int]
    render_ansi: Callable[[np.ndarray, np.ndarray], str]
    stand_in_data: bool
    hidden_information: bool
    description: str = ""
    max_players: int = 2
    """Most seats any config of the game allows (env metadata)."""
    test_configs: tuple = ({},)
    """Small configs (as option dicts) the conformance kit runs the game under."""
    invariants: Callable[[np.ndarray, np.ndarray], list] | None = None
    """Plain-Python checker: ``invariants(state, params) -> list of violation strings``."""
    invariant_kernel: Any = None
    """Optional ``@njit`` twin of ``invariants``: ``(state, params) -> int``, 0 when sound
    (the soak checks every state with it); ``invariant_messages[code]`` names a code."""
    invariant_messages: tuple = ()
    determinize: Callable[[np.ndarray, np.ndarray, int], None] | None = None
    """Hidden-information games: ``determinize(state, params, seat) -> None`` (``@njit``)
    resamples in place everything ``seat`` cannot see, consistently with its view (its
    observation is unchanged), drawing chance from the state's RNG. ``None``: nothing hidden."""
    render_view: Callable[[np.ndarray, np.ndarray, int], str] | None = None
    """Hidden-information games: ``render_view(state, params, seat) -> str``, the text board
    as ``seat`` may see it (rivals' hidden things as counts or ``?``). ``None``: perfect
    information, ``render_ansi`` is already every seat's view."""
    legacy_layouts: tuple = ()
    """:class:`LegacyLayout` entries: earlier state layouts whose replays still replay."""
    action_view: Callable[[int, np.ndarray, np.ndarray, int], str] | None = None
    """Optional ``action_view(action, state, params, seat) -> str``: the label of an action
    played in ``state`` as ``seat`` may see it (a rival's face-down card is not named).
    ``None``: ``action_to_str`` is public."""
    turn_limit_slot: int = -1
    """The params slot holding the turn cap over all seats (``core/turn_cap.py``: the
    ``max_turns`` option counts per seat); -1 for a game without a cap."""
    turn_slot: int = -1
    """The state slot counting the turns played over all seats (what the cap is compared
    with; the arena reports game lengths from it); -1 for a game without one."""
    rng_slot: int = -1
    """The first of the ``rng.RNG_SLOTS`` state slots holding the game's generator (its
    dice and shuffles to come; a search of hidden information reseeds it); -1: none."""
    clock_slots: tuple = ()
    """State slots besides ``turn_slot`` that only count time (steps played): two states
    that differ only in these and ``turn_slot`` are the same position (the agents'
    repetition guard, ``agents/repetition.py``)."""
    progress_slots: tuple = ()
    """Public state slots whose change is progress toward the game's end (scores, coins
    left, the round): an agent that sees none of them change for long is stalled and
    explores (``agents/stall.py``). Empty: the agents never treat the game as stalled."""


class Game:
    """One game with one config: a checked, Pythonic front over the compiled kernels.

    >>> from crusadegym.core import make_game
    >>> g = make_game("deus_lo_vult", players=2)            # doctest: +SKIP
    >>> s = g.new_state(seed=0)                              # doctest: +SKIP
    >>> a = int(np.flatnonzero(g.legal_mask(s))[0])          # doctest: +SKIP
    >>> r = g.step(s, a)                                     # doctest: +SKIP
    """

    def __init__(self, spec: GameSpec, config: Any) -> None:
        if not isinstance(config, spec.config_cls):
            raise TypeError(f"{spec.name}: config must be a {spec.config_cls.__name__}")
        self.spec = spec
        self.config = config
        self.params = spec.make_params(config)
        sizes = spec.sizes(self.params)
        self.state_size: int = int(sizes["state"])
        self.num_actions: int = int(sizes["actions"])
        self.num_players: int = int(sizes["players"])
        self.obs_size: int = int(sizes["obs"])
        self.max_steps: int = int(sizes["max_steps"])
        self.k = spec.kernels
        self._mask = np.zeros(self.num_actions, MASK_DTYPE)
        self._rewards = np.zeros(self.num_players, OBS_DTYPE)

    # -- identity -----------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    def config_dict(self) -> dict:
        """The config as a plain dict (for replays, checkpoints, env metadata)."""
        return asdict(self.config)

    def layout_hash(self, state_size: int | None = None) -> str:
        """A short hash naming game, version, config and state size; changes when any does.

        ``state_size`` gives the hash an earlier layout of that size had (see
        :class:`LegacyLayout`)."""
        size = self.state_size if state_size is None else state_size
        text = f"{self.spec.name}|{self.spec.version}|{sorted(self.config_dict().items())}"
        text += f"|{size}|{self.num_actions}|{self.obs_size}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def state_projection(self, layout_hash: str) -> Callable[[np.ndarray], np.ndarray] | None:
        """How to map a state to the layout named by ``layout_hash``: the identity for
        today's layout, a :class:`LegacyLayout`'s ``project`` for an earlier one, else None."""
        if layout_hash == self.layout_hash():
            return lambda state: state
        for legacy in self.spec.legacy_layouts:
            if layout_hash == self.layout_hash(legacy.state_size):
                return legacy.project
        return None

    # -- checks -------------------------------------------------------------------
    def check_state(self, state: np.ndarray) -> np.ndarray:
        """Raise :class:`StateError` unless ``state`` is a writable int32 array of this game."""
        if not isinstance(state, np.ndarray):
            raise StateError(
                f"{self.name}: state must be a numpy array, got {type(state).__name__}"
            )
        if state.dtype != STATE_DTYPE:
            raise StateError(f"{self.name}: state dtype must be int32, got {state.dtype}")
        if state.shape != (self.state_size,):
            raise StateError(
                f"{self.name}: state shape must be ({self.state_size},), got {state.shape}"
            )
        if not state.flags.c_contiguous or not state.flags.writeable:
            raise StateError(f"{self.name}: state must be a writable C-contiguous array")
        return state

    def check_action(self, state: np.ndarray, action: Any, mask: np.ndarray | None = None) -> int:
        """Return ``action`` as an int if legal in ``state``; else raise IllegalActionError.

        ``mask`` may be the legal mask of this very state when the caller already has it
        (an env that computed it for the observation); it is then not recomputed.
        A 0-d or one-element integer numpy array counts as its integer (what
        ``model.predict`` returns for one observation).
        """
        a = action_int(action)
        if a is None:
            raise IllegalActionError(
                f"{self.name}: action must be an integer, got {_describe(action)}"
            )
        if not 0 <= a < self.num_actions:
            raise IllegalActionError(
                f"{self.name}: action {a} out of range [0, {self.num_actions})"
            )
        if self.is_terminal(state):
            raise IllegalActionError(f"{self.name}: the game is over; no action is legal")
        if mask is None:
            mask = self.legal_mask(state)
        if not mask[a]:
            raise IllegalActionError(
                f"{self.name}: action {a} ({self.action_to_str(a, state)}) is illegal here; "
                f"{int(mask.sum())} legal actions, e.g. "
                + ", ".join(self.action_to_str(int(x), state) for x in np.flatnonzero(mask)[:5])
            )
        return a

    # -- the protocol, checked ------------------------------------------------------
    def new_state(self, seed: int = 0) -> np.ndarray:
        """A fresh game from ``seed`` (any int; the same seed gives the same game)."""
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        state = np.zeros(self.state_size, STATE_DTYPE)
        self.k.init(state, self.params, np.int64(int(seed) & 0x7FFFFFFFFFFFFFFF))
        return state

    def legal_mask(self, state: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """uint8 mask of legal actions (all zero once the game is over)."""
        self.check_state(state)
        if out is None:
            out = np.zeros(self.num_actions, MASK_DTYPE)
        elif (
            not isinstance(out, np.ndarray)
            or out.dtype != MASK_DTYPE
            or out.shape != (self.num_actions,)
            or not out.flags.c_contiguous
            or not out.flags.writeable
        ):
            raise ValueError(
                f"{self.name}: out must be a writable uint8 array of shape ({self.num_actions},)"
            )
        self.k.legal_mask(state, self.params, out)
        return out

    def legal_actions(self, state: np.ndarray) -> np.ndarray:
        """Indices of the legal actions."""
        return np.flatnonzero(self.legal_mask(state))

    def step(self, state: np.ndarray, action: int, mask: np.ndarray | None = None) -> np.ndarray:
        """Apply a legal ``action`` in place; return this transition's reward per seat.

        ``mask``: the legal mask of this very state, if the caller already has it.
        """
        self.check_state(state)
        a = self.check_action(state, action, mask)
        rewards = np.zeros(self.num_players, OBS_DTYPE)
        self.k.step(state, self.params, a, rewards)
        return rewards

    def current_player(self, state: np.ndarray) -> int:
        self.check_state(state)
        return int(self.k.current_player(state, self.params))

    def is_terminal(self, state: np.ndarray) -> bool:
        self.check_state(state)
        return bool(self.k.is_terminal(state, self.params))

    def is_truncated(self, state: np.ndarray) -> bool:
        self.check_state(state)
        return bool(self.k.is_truncated(state, self.params))

    def returns(self, state: np.ndarray) -> np.ndarray:
        """Final reward per seat (zeros while the game is running)."""
        self.check_state(state)
        out = np.zeros(self.num_players, OBS_DTYPE)
        self.k.returns(state, self.params, out)
        return out

    def observe(self, state: np.ndarray, player: int) -> np.ndarray:
        """Observation vector of ``player`` (float32, length ``obs_size``)."""
        self.check_state(state)
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise TypeError(f"player must be an int, got {type(player).__name__}")
        if not 0 <= int(player) < self.num_players:
            raise ValueError(f"player must be in [0, {self.num_players}), got {player}")
        out = np.zeros(self.obs_size, OBS_DTYPE)
        self.k.observe(state, self.params, int(player), out)
        return out

    def action_to_str(self, action: int, state: np.ndarray | None = None) -> str:
        return self.spec.action_to_str(int(action), state, self.params)

    def action_label(self, action: int, state: np.ndarray, seat: int | None = None) -> str:
        """The label of ``action`` played in ``state``, as ``seat`` may see it (None: all)."""
        if seat is None or self.spec.action_view is None:
            return self.action_to_str(action, state)
        return self.spec.action_view(int(action), state, self.params, int(seat))

    def parse_action(self, text: str, state: np.ndarray | None = None) -> int:
        return int(self.spec.parse_action(text, state, self.params))

    def check_invariants(self, state: np.ndarray) -> list[str]:
        """Violations of the game's invariants in ``state`` (empty list when sound)."""
        self.check_state(state)
        if self.spec.invariants is None:
            return []
        return list(self.spec.invariants(state, self.params))

    def determinize(self, state: np.ndarray, seat: int) -> None:
        """Resample in place what ``seat`` cannot see (no-op for perfect-information games).

        Search agents call this on a copy of the root so they never read a rival's hidden
        cards; ``seat``'s observation of the state is unchanged.
        """
        self.check_state(state)
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat must be an int, got {type(seat).__name__}")
        if not 0 <= int(seat) < self.num_players:
            raise ValueError(f"seat must be in [0, {self.num_players}), got {seat}")
        if self.spec.determinize is not None:
            self.spec.determinize(state, self.params, int(seat))

    def render(self, state: np.ndarray, seat: int | None = None) -> str:
        """The text board; with ``seat``, only what that seat may see."""
        self.check_state(state)
        if seat is None:
            return self.spec.render_ansi(state, self.params)
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat must be an int, got {type(seat).__name__}")
        if not 0 <= int(seat) < self.num_players:
            raise ValueError(f"seat must be in [0, {self.num_players}), got {seat}")
        if self.spec.render_view is None:
            return self.spec.render_ansi(state, self.params)
        return self.spec.render_view(state, self.params, int(seat))

    # -- batches --------------------------------------------------------------------
    def new_states(self, seeds: np.ndarray) -> np.ndarray:
        """A ``[B, S]`` batch of fresh games, one per seed, built in parallel."""
        from .drivers import batch_init

        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        if seeds.ndim != 1:
            raise ValueError("seeds must be a 1-D array")
        states = np.zeros((seeds.shape[0], self.state_size), STATE_DTYPE)
        batch_init(self.k.init, states, self.params, seeds & 0x7FFFFFFFFFFFFFFF)
        return states

    def play_random_games(
        self, states: np.ndarray, seeds: np.ndarray, max_steps: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play every game of a ``[B, S]`` batch to its end with random legal moves (compiled).

        ``seeds[i]`` seeds game i's move choices (not its dice). Returns per game the
        steps played and a flag set if a running game ever had no legal action.
        """
        from .drivers import random_games

        self.check_batch(states)
        seeds = np.ascontiguousarray(seeds, dtype=np.int64)
        if seeds.shape != (states.shape[0],):
            raise ValueError(f"seeds must have shape ({states.shape[0]},), got {seeds.shape}")
        k = self.k
        return random_games(
            k.legal_mask,
            k.step,
            k.is_terminal,
            states,
            self.params,
            seeds,
            max_steps or self.max_steps,
            self.num_actions,
            self.num_players,
        )

    def check_batch(self, states: np.ndarray) -> np.ndarray:
        if not isinstance(states, np.ndarray) or states.dtype != STATE_DTYPE:
            raise StateError(f"{self.name}: batch must be an int32 numpy array")
        if states.ndim != 2 or states.shape[1] != self.state_size:
            raise StateError(
                f"{self.name}: batch shape must be (B, {self.state_size}), got {states.shape}"
            )
        if not states.flags.c_contiguous or not states.flags.writeable:
            raise StateError(f"{self.name}: batch must be writable and C-contiguous")
        return states


def config_from_dict(config_cls: type, data: dict) -> Any:
    """Build a config dataclass from a dict, rejecting unknown keys with a clear error."""
    names = {f.name for f in fields(config_cls)}
    unknown = set(data) - names
    if unknown:
        raise ValueError(
            f"unknown option(s) for {config_cls.__name__}: {sorted(unknown)}; "
            f"valid: {sorted(names)}"
        )
    if hasattr(config_cls, "from_options"):  # a config class that expands named presets
        return config_cls.from_options(data)
    return config_cls(**data)
