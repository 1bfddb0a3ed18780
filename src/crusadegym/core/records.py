"""Game records: JSON replays and ``.npz`` state files, for any game of the protocol.

A **replay** is everything needed to reproduce a game bit for bit: the game's
name, spec version and config, the seed, and the list of actions. Because every
game keeps its RNG inside the state array, ``new_state(seed)`` followed by the
same actions gives the same states on any machine. The file is plain JSON::

    {"format": "crusadegym-replay/1", "crusadegym_version": "0.1.0",
     "game": "deus_lo_vult", "spec_version": 1, "config": {...},
     "layout_hash": "3f2a...", "seed": 7, "actions": [12, 140, ...],
     "final_state_sha256": "9b1c..." (optional), "note": "..." (optional),
     "turn_cap": "per_seat"}

``turn_cap`` says how the config's ``max_turns`` counts (``core/turn_cap.py``): files
written since the cap became per seat say ``"per_seat"``; a file without it was recorded
when ``max_turns`` counted the turns of all seats together, and is loaded with that
limit put into the compiled params as it was, so it still replays bit for bit.

A **state file** stores one state array with a header naming the game, spec
version, config and layout hash, so that it cannot be loaded into another game.

Every problem with a record raises :class:`RecordError` (a ``ValueError``) with
a message that says what is wrong: wrong format, unknown game, a replay from an
older version, a config that does not match its layout hash, an illegal action
at step *k*, a corrupt or truncated file.

>>> rec = save_replay("game.json", game, seed=7, actions=[3, 1, 4])   # doctest: +SKIP
>>> game, states = replay(load_replay("game.json"))                  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .protocol import STATE_DTYPE, Game, IllegalActionError
from .registry import get_spec, make_game

REPLAY_FORMAT = "crusadegym-replay/1"
STATE_FORMAT = "crusadegym-state/1"
_REPLAY_FIELDS = ("game", "spec_version", "config", "layout_hash", "seed", "actions")
TURN_CAP_PER_SEAT = "per_seat"
"""``turn_cap`` of records written now: ``max_turns`` counts each seat's turns."""
TURN_CAP_ALL_SEATS = "all_seats"
"""``turn_cap`` of records without the field: ``max_turns`` counted all seats' turns."""
TURN_CAPS = (TURN_CAP_PER_SEAT, TURN_CAP_ALL_SEATS)


class RecordError(ValueError):
    """A replay or state file that cannot be read, or does not fit the game it names."""


@dataclass(frozen=True)
class Replay:
    """One recorded game: identity of the game and config, the seed, and the actions."""

    game: str
    spec_version: int
    config: dict
    layout_hash: str
    seed: int
    actions: tuple[int, ...]
    final_state_sha256: str | None = None
    crusadegym_version: str = ""
    note: str = ""
    extra: dict = field(default_factory=dict)
    turn_cap: str = TURN_CAP_PER_SEAT

    def to_json(self) -> dict:
        """The replay as a JSON-ready dict (the on-disk format)."""
        data = {
            "format": REPLAY_FORMAT,
            "crusadegym_version": self.crusadegym_version,
            "game": self.game,
            "spec_version": self.spec_version,
            "config": self.config,
            "layout_hash": self.layout_hash,
            "seed": self.seed,
            "actions": list(self.actions),
            "turn_cap": self.turn_cap,
        }
        if self.final_state_sha256 is not None:
            data["final_state_sha256"] = self.final_state_sha256
        if self.note:
            data["note"] = self.note
        if self.extra:
            data["extra"] = self.extra
        return data


def _package_version() -> str:
    from crusadegym import __version__

    return __version__


def state_sha256(state: np.ndarray) -> str:
    """sha256 of a state's int32 contents (little-endian, so equal on every machine)."""
    return hashlib.sha256(np.ascontiguousarray(state, dtype="<i4").tobytes()).hexdigest()


# -- replays ----------------------------------------------------------------------------


def make_replay(
    game: Game,
    seed: int,
    actions: Sequence[int],
    *,
    final_state: np.ndarray | None = None,
    verify: bool = True,
    note: str = "",
) -> Replay:
    """Build a :class:`Replay` of ``actions`` played from ``game.new_state(seed)``.

    With ``verify`` (the default) the actions are replayed now: an illegal one
    raises :class:`RecordError`, and the final state's hash is stored (and must
    equal ``final_state`` when given). Without it, only ``final_state`` is hashed
    (if given); use this to record a game whose last step crashed.
    """
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    acts = tuple(_check_action_list(list(actions)))
    rec = Replay(
        game=game.name,
        spec_version=int(game.spec.version),
        config=_jsonable_config(game),
        layout_hash=game.layout_hash(),
        seed=int(seed),
        actions=acts,
        crusadegym_version=_package_version(),
        note=note,
    )
    digest = None if final_state is None else state_sha256(game.check_state(final_state))
    if verify:
        _, states = replay(rec, game)
        replayed = state_sha256(states[-1])
        if digest is not None and digest != replayed:
            raise RecordError("final_state is not the state the actions lead to")
        digest = replayed
    return replace(rec, final_state_sha256=digest)


def save_replay(
    path: str | os.PathLike,
    game: Game,
    seed: int,
    actions: Sequence[int],
    *,
    final_state: np.ndarray | None = None,
    verify: bool = True,
    note: str = "",
) -> Replay:
    """Write a replay of ``actions`` from ``seed`` to ``path`` (JSON); return it.

    See :func:`make_replay` for ``final_state`` and ``verify``.
    """
    rec = make_replay(game, seed, actions, final_state=final_state, verify=verify, note=note)
    write_replay(path, rec)
    return rec


def write_replay(path: str | os.PathLike, rec: Replay) -> None:
    """Write an existing :class:`Replay` to ``path`` as JSON, one field per line."""
    items = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in rec.to_json().items()]
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(items) + "\n}\n")


def load_replay(path: str | os.PathLike) -> Replay:
    """Read a replay file; raise :class:`RecordError` if it is corrupt or not a replay."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a replay file (not UTF-8 text)") from e
    return replay_from_json(text, source=str(path))


def replay_from_json(text: str, source: str = "replay") -> Replay:
    """Parse the JSON text of a replay (see :func:`load_replay`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{source}: corrupt or truncated replay JSON ({e})") from e
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a replay must be a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != REPLAY_FORMAT:
        raise RecordError(f"{source}: wrong format {fmt!r}, expected {REPLAY_FORMAT!r}")
    missing = [k for k in _REPLAY_FIELDS if k not in data]
    if missing:
        raise RecordError(f"{source}: missing field(s) {missing}")
    if not isinstance(data["game"], str):
        raise RecordError(f"{source}: 'game' must be a string")
    for key in ("spec_version", "seed"):
        if not _is_int(data[key]):
            raise RecordError(f"{source}: {key!r} must be an integer, got {data[key]!r}")
    if not isinstance(data["config"], dict):
        raise RecordError(f"{source}: 'config' must be an object")
    if not isinstance(data["layout_hash"], str):
        raise RecordError(f"{source}: 'layout_hash' must be a string")
    if not isinstance(data["actions"], list):
        raise RecordError(f"{source}: 'actions' must be a list")
    final = data.get("final_state_sha256")
    if final is not None and not isinstance(final, str):
        raise RecordError(f"{source}: 'final_state_sha256' must be a string")
    return Replay(
        game=data["game"],
        spec_version=data["spec_version"],
        config=data["config"],
        layout_hash=data["layout_hash"],
        seed=data["seed"],
        actions=tuple(_check_action_list(data["actions"], source)),
        final_state_sha256=final,
        crusadegym_version=str(data.get("crusadegym_version", "")),
        note=str(data.get("note", "")),
        extra=data.get("extra") if isinstance(data.get("extra"), dict) else {},
        turn_cap=_turn_cap(data, source),
    )


def _turn_cap(header: dict, source: Any) -> str:
    """How a record's ``max_turns`` counts; a record without the field predates per-seat caps."""
    cap = header.get("turn_cap", TURN_CAP_ALL_SEATS)
    if cap not in TURN_CAPS:
        raise RecordError(f"{source}: 'turn_cap' must be one of {TURN_CAPS}, got {cap!r}")
    return cap


def game_for(rec: Replay) -> Game:
    """The :class:`Game` a replay was recorded with; :class:`RecordError` if it cannot exist."""
    return _game_for_header(
        rec.game, rec.spec_version, rec.config, rec.layout_hash, "replay", turn_cap=rec.turn_cap
    )


def replay(rec: Replay, game: Game | None = None) -> tuple[Game, np.ndarray]:
    """Play a replay back; return ``(game, states)`` with ``states[k]`` the state after k actions.

    ``states`` is an ``[len(actions) + 1, S]`` int32 array. An illegal action
    raises :class:`RecordError` naming its step; a stored final-state hash is
    verified. Pass ``game`` to check the replay against an existing game.
    """
    if game is not None:
        _check_same_game(game, rec.game, rec.spec_version, rec.layout_hash, "replay")
    if game is None or rec.turn_cap != TURN_CAP_PER_SEAT:
        game = game_for(rec)
    states = np.zeros((len(rec.actions) + 1, game.state_size), STATE_DTYPE)
    state = game.new_state(rec.seed)
    states[0] = state
    for k, a in enumerate(rec.actions):
        try:
            game.step(state, a)
        except IllegalActionError as e:
            raise RecordError(f"replay: illegal action at step {k}: {e}") from e
        states[k + 1] = state
    project = game.state_projection(rec.layout_hash)  # an earlier layout: its own hash
    final = rec.final_state_sha256
    if final is not None and state_sha256(project(state)) != final:
        raise RecordError(
            "replay: final state differs from the recorded one (sha256 mismatch); "
            "the rules changed since it was recorded, or the file was edited"
        )
    return game, states


# -- state files ------------------------------------------------------------------------


def save_state(path: str | os.PathLike, game: Game, state: np.ndarray) -> None:
    """Write ``state`` of ``game`` to ``path`` (.npz) with a header naming game and config."""
    game.check_state(state)
    header = {
        "format": STATE_FORMAT,
        "crusadegym_version": _package_version(),
        "game": game.name,
        "spec_version": int(game.spec.version),
        "config": _jsonable_config(game),
        "layout_hash": game.layout_hash(),
        "state_size": game.state_size,
        "state_sha256": state_sha256(state),
        "turn_cap": TURN_CAP_PER_SEAT,
    }
    with open(path, "wb") as f:
        np.savez(f, header=np.array(json.dumps(header)), state=state)


def load_state(path: str | os.PathLike, game: Game | None = None) -> tuple[Game, np.ndarray]:
    """Read a state file; return ``(game, state)``.

    With ``game`` given, the file must belong to that game and config (else
    :class:`RecordError`) and the same ``game`` is returned. The state is a fresh,
    writable int32 array.
    """
    header, state = _read_npz(path)
    if game is None:
        game = _game_for_header(
            header["game"],
            header["spec_version"],
            header["config"],
            header["layout_hash"],
            path,
            "state file",
            turn_cap=_turn_cap(header, path),
        )
    else:
        _check_same_game(
            game, header["game"], header["spec_version"], header["layout_hash"], path, "state file"
        )
    if state.dtype != STATE_DTYPE or state.shape != (game.state_size,):
        raise RecordError(
            f"{path}: state array is {state.dtype}{list(state.shape)}, "
            f"expected int32[{game.state_size}]"
        )
    if state_sha256(state) != header["state_sha256"]:
        raise RecordError(f"{path}: state contents do not match the header's sha256 (corrupt)")
    return game, np.array(state, dtype=STATE_DTYPE, order="C", copy=True)


def _read_npz(path: str | os.PathLike) -> tuple[dict, np.ndarray]:
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such state file: {path}")
    try:
        with np.load(path, allow_pickle=False) as npz:
            if "header" not in npz.files or "state" not in npz.files:
                raise RecordError(f"{path}: not a crusadegym state file (no header/state)")
            header_text = str(npz["header"][()])
            state = npz["state"]
    except RecordError:
        raise
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as e:
        raise RecordError(f"{path}: corrupt or truncated state file ({e})") from e
    try:
        header = json.loads(header_text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: corrupt state header ({e})") from e
    if not isinstance(header, dict) or header.get("format") != STATE_FORMAT:
        got = header.get("format") if isinstance(header, dict) else header
        raise RecordError(f"{path}: wrong format {got!r}, expected {STATE_FORMAT!r}")
    missing = [
        k
        for k in ("game", "spec_version", "config", "layout_hash", "state_sha256")
        if k not in header
    ]
    if missing:
        raise RecordError(f"{path}: state header misses field(s) {missing}")
    if not isinstance(header["game"], str) or not isinstance(header["config"], dict):
        raise RecordError(f"{path}: state header has a malformed 'game' or 'config'")
    return header, state


# -- shared checks ----------------------------------------------------------------------


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _check_action_list(actions: list, source: str = "replay") -> list[int]:
    for k, a in enumerate(actions):
        if not _is_int(a):
            raise RecordError(f"{source}: action at step {k} must be an integer, got {a!r}")
    return [int(a) for a in actions]


def _jsonable_config(game: Game) -> dict:
    """The config as JSON would return it (tuples become lists), for exact comparison."""
    return json.loads(json.dumps(game.config_dict()))


def _game_for_header(
    name: str,
    version: Any,
    config: dict,
    layout_hash: str,
    source: Any,
    kind: str = "replay",
    turn_cap: str = TURN_CAP_PER_SEAT,
) -> Game:
    try:
        spec = get_spec(name)
    except KeyError as e:
        raise RecordError(f"{source}: unknown game {name!r}") from e
    except ImportError as e:
        raise RecordError(f"{source}: game {name!r} cannot be imported ({e})") from e
    _check_version(spec.name, spec.version, version, source, kind)
    try:
        game = make_game(name, **config)
    except (TypeError, ValueError) as e:
        raise RecordError(f"{source}: config {config} rejected by {name}: {e}") from e
    if game.state_projection(layout_hash) is None:
        raise RecordError(
            f"{source}: config mismatch: {name} with config {config} has layout hash "
            f"{game.layout_hash()}, the file says {layout_hash}"
        )
    if turn_cap == TURN_CAP_ALL_SEATS:
        with_all_seats_turn_limit(game, config)
    return game


def with_all_seats_turn_limit(game: Game, config: dict) -> Game:
    """Give ``game`` the turn cap a record without ``turn_cap`` was played with: its
    ``max_turns`` then counted the turns of all seats together (``core/turn_cap.py``)."""
    slot = game.spec.turn_limit_slot
    if slot >= 0 and "max_turns" in config:
        game.params[slot] = int(config["max_turns"])
    return game


def _check_same_game(
    game: Game, name: str, version: Any, layout_hash: str, source: Any, kind: str = "replay"
) -> None:
    if game.name != name:
        raise RecordError(f"{source}: recorded for game {name!r}, not {game.name!r}")
    _check_version(name, game.spec.version, version, source, kind)
    if game.state_projection(layout_hash) is None:
        raise RecordError(
            f"{source}: config mismatch: recorded with layout hash {layout_hash}, "
            f"this {name} config has {game.layout_hash()}"
        )


def _check_version(name: str, current: int, recorded: Any, source: Any, kind: str) -> None:
    if recorded == current:
        return
    age = "an older" if _is_int(recorded) and recorded < current else "a different"
    raise RecordError(
        f"{source}: {name} {kind} from {age} version (spec version {recorded}, "
        f"this crusadegym has {current})"
    )
