"""Bad input at every public entry point of every game: a clear exception, never a crash.

Each case names the exception type and a fragment of its message. Two gaps the
suite found (an unchecked ``out`` buffer for ``legal_mask`` that a short array let
the kernel write past, and non-integer seats accepted by ``observe``) are fixed in
``core/protocol.py`` and stay covered here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import SMALL_GAMES as SMALL

from crusadegym.core import IllegalActionError, StateError, make_game
from crusadegym.core.records import (
    RecordError,
    load_replay,
    load_state,
    replay,
    save_replay,
    save_state,
)

DLV = "deus_lo_vult"
TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

# every Game method that takes a state (and only the state, or the state plus one argument)
STATE_METHODS = {
    "legal_mask": lambda g, s: g.legal_mask(s),
    "legal_actions": lambda g, s: g.legal_actions(s),
    "step": lambda g, s: g.step(s, 0),
    "current_player": lambda g, s: g.current_player(s),
    "is_terminal": lambda g, s: g.is_terminal(s),
    "is_truncated": lambda g, s: g.is_truncated(s),
    "returns": lambda g, s: g.returns(s),
    "observe": lambda g, s: g.observe(s, 0),
    "check_invariants": lambda g, s: g.check_invariants(s),
    "render": lambda g, s: g.render(s),
}


def _noncontiguous(s: np.ndarray) -> np.ndarray:
    return np.repeat(s, 2)[::2]


def _readonly(s: np.ndarray) -> np.ndarray:
    s = s.copy()
    s.setflags(write=False)
    return s


# bad state -> message fragment of the StateError
BAD_STATES = {
    "list": (lambda s: s.tolist(), "must be a numpy array"),
    "int64": (lambda s: s.astype(np.int64), "dtype must be int32, got int64"),
    "float32": (lambda s: s.astype(np.float32), "dtype must be int32, got float32"),
    "uint8": (lambda s: s.astype(np.uint8), "dtype must be int32, got uint8"),
    "short": (lambda s: s[:-1].copy(), "state shape must be"),
    "long": (lambda s: np.append(s, np.int32(0)), "state shape must be"),
    "2d": (lambda s: s[None, :].copy(), "state shape must be"),
    "0-d": (lambda s: np.zeros((), np.int32), "state shape must be"),
    "numpy-scalar": (lambda s: np.int32(0), "must be a numpy array"),
    "non-contiguous": (_noncontiguous, "writable C-contiguous"),
    "read-only": (_readonly, "writable C-contiguous"),
}


@pytest.fixture(scope="module", params=SMALL, ids=[n for n, _ in SMALL])
def game(request):
    return make_game(request.param[0], **request.param[1])


@pytest.fixture(scope="module")
def other(game):
    """A game of another kind, whose states must be rejected by ``game``."""
    name = DLV if game.name != DLV else "tiny_tictactoe"
    return make_game(name, **dict(SMALL)[name])


def legal_and_illegal(game, state) -> tuple[int, int | None]:
    mask = game.legal_mask(state)
    illegal = np.flatnonzero(mask == 0)
    return int(np.flatnonzero(mask)[0]), (int(illegal[0]) if illegal.size else None)


# -- states -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", list(STATE_METHODS))
@pytest.mark.parametrize("kind", list(BAD_STATES))
def test_bad_state_raises_state_error(game, method, kind):
    make_bad, fragment = BAD_STATES[kind]
    bad = make_bad(game.new_state(0))
    with pytest.raises(StateError, match=fragment):
        STATE_METHODS[method](game, bad)


@pytest.mark.parametrize("method", list(STATE_METHODS))
def test_state_of_another_game_is_rejected(game, other, method):
    with pytest.raises(StateError, match=f"{game.name}: state shape must be"):
        STATE_METHODS[method](game, other.new_state(0))


def test_state_errors_are_value_errors():
    assert issubclass(StateError, ValueError) and issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(
    "bad,fragment",
    [
        (lambda g: np.zeros((2, g.state_size), np.int64), "int32 numpy array"),
        (lambda g: np.zeros((2, g.state_size + 1), np.int32), "batch shape must be"),
        (lambda g: np.zeros(g.state_size, np.int32), "batch shape must be"),
        (lambda g: np.zeros((g.state_size, 2), np.int32).T, "writable and C-contiguous"),
        (lambda g: [[0] * g.state_size], "int32 numpy array"),
    ],
    ids=["int64", "wide", "1d", "transposed", "list"],
)
def test_bad_batch_is_rejected(game, bad, fragment):
    with pytest.raises(StateError, match=fragment):
        game.check_batch(bad(game))


# -- actions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action,fragment",
    [
        (-1, "out of range"),
        (10**9, "out of range"),
        (np.int64(-5), "out of range"),
        (1.5, "must be an integer, got float"),
        (np.float64(1.0), "must be an integer, got float64"),
        ("3", "must be an integer, got str"),
        (None, "must be an integer, got NoneType"),
        (True, "must be an integer, got bool"),
        (np.bool_(True), "must be an integer, got bool"),
        ([1], "must be an integer, got list"),
        (np.array([1, 2]), "must be an integer, got ndarray of dtype int64 and shape"),
        (np.array([1.0]), "must be an integer, got ndarray of dtype float64"),
        (np.array([[1]]), r"must be an integer, got ndarray of dtype int64 and shape \(1, 1\)"),
    ],
)
def test_bad_action_type_or_range_is_rejected(game, action, fragment):
    state = game.new_state(1)
    before = state.copy()
    with pytest.raises(IllegalActionError, match=fragment):
        game.step(state, action)
    assert np.array_equal(state, before)


@pytest.mark.parametrize("wrap", [np.int32, np.array, lambda a: np.array([a], np.uint16)])
def test_integer_scalars_and_one_element_arrays_are_actions(game, wrap):
    """What ``model.predict(obs)`` returns (a 0-d or shape-(1,) array) steps as its integer."""
    state, expected = game.new_state(1), game.new_state(1)
    action = int(game.legal_actions(state)[0])
    game.step(expected, action)
    game.step(state, wrap(action))
    assert np.array_equal(state, expected)


def test_action_equal_to_num_actions_is_out_of_range(game):
    with pytest.raises(IllegalActionError, match=rf"out of range \[0, {game.num_actions}\)"):
        game.step(game.new_state(1), game.num_actions)


def test_illegal_action_is_rejected_and_named(game):
    state = game.new_state(2)
    _, illegal = legal_and_illegal(game, state)
    assert illegal is not None
    text = game.action_to_str(illegal, state)
    with pytest.raises(IllegalActionError, match=f"action {illegal} \\({text}\\) is illegal"):
        game.step(state, illegal)


def test_action_after_the_end_is_rejected(game):
    state = game.new_state(3)
    rng = np.random.default_rng(0)
    while not game.is_terminal(state):
        game.step(state, int(rng.choice(game.legal_actions(state))))
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.step(state, 0)


@pytest.mark.parametrize("player", [-1, 99])
def test_observe_out_of_range_player_is_rejected(game, player):
    with pytest.raises(ValueError, match=r"player must be in \[0, "):
        game.observe(game.new_state(0), player)


@pytest.mark.parametrize("player", [1.5, True, "1"])
def test_observe_non_integer_player_is_rejected(game, player):
    with pytest.raises(TypeError, match="player must be an int"):
        game.observe(game.new_state(0), player)


def test_legal_mask_wrong_dtype_out_buffer_is_rejected(game):
    with pytest.raises((TypeError, ValueError), match="out"):
        game.legal_mask(game.new_state(0), out=np.zeros(game.num_actions, np.float32))


def test_legal_mask_short_out_buffer_is_rejected(game):
    # in a child process: before the check, the kernel wrote past the buffer (heap corruption)
    code = (
        f"import sys; sys.path.insert(0, {TESTS_DIR!r}); import conftest, numpy as np\n"
        "from crusadegym.core import make_game\n"
        f"g = make_game({game.name!r}, **{game.config_dict()!r})\n"
        "try:\n"
        "    g.legal_mask(g.new_state(0), out=np.zeros(3, np.uint8))\n"
        "except ValueError as e:\n"
        "    sys.exit(0 if 'out' in str(e) else 3)\n"
        "sys.exit(4)\n"
    )
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300)
    assert child.returncode == 0, child.stderr.decode()[-500:]


@pytest.mark.parametrize("seed", ["7", 1.5, None, True, [1]])
def test_bad_seed_is_rejected(game, seed):
    with pytest.raises(TypeError, match="seed must be an int"):
        game.new_state(seed)


def test_batch_seeds_must_be_one_dimensional(game):
    with pytest.raises(ValueError, match="seeds must be a 1-D array"):
        game.new_states(np.zeros((2, 2), np.int64))


# -- action text (Deus lo Vult's notation; the tiny game is a bare test fixture) ------------


@pytest.mark.parametrize("action", [-1, 175, 10**6])
def test_dlv_action_to_str_out_of_range(action):
    game = make_game(SMALL[1][0], **SMALL[1][1])
    with pytest.raises(ValueError, match="out of range"):
        game.action_to_str(action if action != 175 else game.num_actions)


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty action text"),
        ("   ", "empty action text"),
        ("fly north", "cannot parse action 'fly north'"),
        ("cell", "cannot parse action"),
        ("cell m1", "not a cell"),
        ("cell a13", "row out of range"),
        ("cell a0", "row out of range"),
        ("strike up", "cannot parse action"),
        ("deploy dragon", "cannot parse action"),
        ("end now", "cannot parse action"),
    ],
)
def test_dlv_parse_action_rejects_garbage(text, fragment):
    game = make_game(SMALL[1][0], **SMALL[1][1])
    with pytest.raises(ValueError, match=fragment):
        game.parse_action(text)


# -- configs ------------------------------------------------------------------------------


def test_unknown_game_is_a_key_error():
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        make_game("chess")


def test_unknown_option_is_rejected(game):
    with pytest.raises(ValueError, match=r"unknown option\(s\) .*\['bogus'\]"):
        make_game(game.name, bogus=1)


def test_config_object_and_options_together_are_rejected(game):
    with pytest.raises(ValueError, match="not both"):
        make_game(game.name, game.config, bogus=1)


def test_config_of_another_game_is_a_type_error(game, other):
    with pytest.raises(TypeError, match="config must be a"):
        make_game(game.name, other.config)


@pytest.mark.parametrize(
    "options,fragment",
    [
        ({"players": 5}, r"players must be an integer in \[2, 4\], got 5"),
        ({"players": 1}, r"players must be an integer in \[2, 4\]"),
        ({"players": 0}, r"players must be an integer in \[2, 4\]"),
        ({"players": -3}, r"players must be an integer in \[2, 4\]"),
        ({"players": "2"}, r"players must be an integer .* got '2'"),
        ({"players": 2.0}, r"players must be an integer .* got 2.0"),
        ({"players": True}, r"players must be an integer .* got True"),
        ({"players": None}, r"players must be an integer"),
        ({"rounds": 0}, r"rounds must be an integer in \[1, 3\]"),
        ({"rounds": 4}, r"rounds must be an integer in \[1, 3\]"),
        ({"max_turns": 0}, r"max_turns must be an integer in \[1, "),
        ({"max_turns": 10**9}, r"max_turns must be an integer in \[1, "),
        ({"predeploy_units": 0}, r"predeploy_units must be an integer"),
        ({"predeploy_points": 99}, r"predeploy_points must be an integer"),
        ({"deployment": "viking"}, r"deployment must be one of .* got 'viking'"),
        ({"deployment": None}, r"deployment must be one of"),
        ({"saracen_placement": "random"}, r"saracen_placement must be one of"),
        ({"stampede": "gentle"}, r"stampede must be one of"),
        ({"tie_rule": "coin_flip"}, r"tie_rule must be one of"),
        ({"double_arrow_vs_shield": "x"}, r"double_arrow_vs_shield must be one of"),
        ({"coin_facing": "up"}, r"coin_facing must be one of"),
        ({"robbing": "yes"}, r"robbing must be a bool, got 'yes'"),
        ({"robbing": 1}, r"robbing must be a bool, got 1"),
        ({"double_arrow_adjacent": 0}, r"double_arrow_adjacent must be a bool"),
    ],
)
def test_dlv_config_out_of_range_is_a_value_error(options, fragment):
    make_game(SMALL[1][0], **SMALL[1][1])
    with pytest.raises(ValueError, match=fragment):
        make_game(DLV, **options)


# -- record files -------------------------------------------------------------------------


def test_truncated_replay_is_rejected(game, tmp_path):
    state = game.new_state(0)
    first, _ = legal_and_illegal(game, state)
    path = tmp_path / "r.json"
    save_replay(path, game, 0, [first])
    path.write_text(path.read_text()[:-20])
    with pytest.raises(RecordError, match="corrupt or truncated replay JSON"):
        load_replay(path)


def test_replay_with_out_of_range_action_names_its_step(game, tmp_path):
    path = tmp_path / "r.json"
    save_replay(path, game, 0, [])
    data = json.loads(path.read_text())
    data.update(actions=[game.num_actions + 7], final_state_sha256=None)
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="illegal action at step 0: .*out of range"):
        replay(load_replay(path))


def test_state_file_of_another_game_is_rejected(game, other, tmp_path):
    path = tmp_path / "s.npz"
    save_state(path, other, other.new_state(0))
    with pytest.raises(RecordError, match=f"recorded for game '{other.name}'"):
        load_state(path, game)


def test_garbage_state_file_is_rejected(tmp_path):
    path = tmp_path / "s.npz"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(RecordError, match="corrupt or truncated state file"):
        load_state(path)
