"""Replays and state files (core/records.py): round trips, and every way a record can be bad."""

from __future__ import annotations

import dataclasses
import json

import conformance as kit
import numpy as np
import pytest
import tinygame
from conftest import SMALL_GAMES as SMALL

from crusadegym.core import make_game, registry
from crusadegym.core.records import (
    RecordError,
    load_replay,
    load_state,
    make_replay,
    replay,
    save_replay,
    save_state,
    state_sha256,
)


@pytest.fixture(params=SMALL, ids=[n for n, _ in SMALL])
def game(request):
    return make_game(request.param[0], **request.param[1])


@pytest.fixture
def tiny():
    return make_game("tiny_tictactoe")


@pytest.fixture
def recorded(tiny, tmp_path):
    """A finished tiny game saved as a replay: (path, actions, states)."""
    actions, states, _ = kit.play_random(tiny, 3, np.random.default_rng(0), record=True)
    path = tmp_path / "game.json"
    save_replay(path, tiny, 3, actions)
    return path, actions, states


def edit_json(path, **changes) -> None:
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def expect_record_error(fragment: str, fn, *args) -> None:
    with pytest.raises(RecordError, match=fragment):
        fn(*args)


# -- replays: round trip ----------------------------------------------------------------


def test_replay_reproduces_every_state_bit_for_bit(game, tmp_path):
    actions, states, _ = kit.play_random(game, 11, np.random.default_rng(1), record=True)
    rec = save_replay(tmp_path / "r.json", game, 11, actions)
    assert rec.final_state_sha256 == state_sha256(states[-1])
    loaded = load_replay(tmp_path / "r.json")
    assert loaded == rec
    again, replayed = replay(loaded)
    assert again.layout_hash() == game.layout_hash()
    assert replayed.dtype == np.int32 and replayed.shape == (len(actions) + 1, game.state_size)
    assert np.array_equal(replayed, np.stack(states))


def test_replay_file_names_game_version_config_and_seed(recorded, tiny):
    path, actions, _ = recorded
    data = json.loads(path.read_text())
    assert data["format"] == "crusadegym-replay/1"
    assert data["game"] == "tiny_tictactoe" and data["spec_version"] == tiny.spec.version
    assert data["config"] == {} and data["layout_hash"] == tiny.layout_hash()
    assert data["seed"] == 3 and data["actions"] == actions
    assert data["crusadegym_version"]


def test_partial_game_replays_and_can_be_checked_against_a_game(recorded, tiny):
    _, actions, states = recorded
    rec = make_replay(tiny, 3, actions[:2])
    _, replayed = replay(rec, tiny)
    assert np.array_equal(replayed[-1], states[2])


def test_saving_an_illegal_action_list_names_the_step(tiny, tmp_path):
    state = tiny.new_state(0)
    first = int(tiny.legal_actions(state)[0])
    expect_record_error("illegal action at step 1", save_replay, tmp_path / "x.json", tiny, 0,
                        [first, first])  # fmt: skip


def test_unverified_replay_with_an_illegal_action_fails_on_replay(tiny, tmp_path):
    state = tiny.new_state(0)
    first = int(tiny.legal_actions(state)[0])
    save_replay(tmp_path / "x.json", tiny, 0, [first, first], verify=False)
    rec = load_replay(tmp_path / "x.json")
    assert rec.final_state_sha256 is None
    expect_record_error(r"illegal action at step 1: .*is illegal", replay, rec)


def test_final_state_that_the_actions_do_not_reach_is_rejected(tiny):
    with pytest.raises(RecordError, match="final_state is not the state"):
        make_replay(tiny, 0, [], final_state=tiny.new_state(1))


# -- replays: bad files -----------------------------------------------------------------


def test_wrong_format_is_rejected(recorded):
    path, _, _ = recorded
    edit_json(path, format="some-other-format/3")
    expect_record_error("wrong format 'some-other-format/3'", load_replay, path)


def test_unknown_game_is_rejected(recorded):
    path, _, _ = recorded
    edit_json(path, game="chess_960")
    expect_record_error("unknown game 'chess_960'", replay, load_replay(path))


def test_replay_from_an_older_spec_version_is_rejected(recorded, monkeypatch):
    path, _, _ = recorded
    newer = dataclasses.replace(tinygame.SPEC, version=tinygame.SPEC.version + 1)
    monkeypatch.setitem(registry._SPECS, "tiny_tictactoe", newer)
    expect_record_error("replay from an older version", replay, load_replay(path))


def test_replay_from_a_newer_spec_version_is_rejected(recorded):
    path, _, _ = recorded
    edit_json(path, spec_version=99)
    expect_record_error("replay from a different version", replay, load_replay(path))


def test_layout_hash_that_does_not_match_the_config_is_rejected(recorded):
    path, _, _ = recorded
    edit_json(path, layout_hash="0123456789abcdef")
    expect_record_error("config mismatch", replay, load_replay(path))


def test_config_the_game_does_not_accept_is_rejected(recorded):
    path, _, _ = recorded
    edit_json(path, config={"bogus": 1})
    expect_record_error(r"config .*rejected.*unknown option", replay, load_replay(path))


def test_illegal_action_in_file_names_its_step(recorded):
    path, actions, _ = recorded
    bad = actions[:2] + [actions[1]] + actions[3:]  # cell 1 is already taken at step 2
    edit_json(path, actions=bad, final_state_sha256=None)
    expect_record_error("illegal action at step 2", replay, load_replay(path))


def test_edited_actions_fail_the_final_state_hash(recorded, tiny):
    path, actions, _ = recorded
    state = tiny.new_state(3)
    other = [a for a in tiny.legal_actions(state) if a != actions[0]][0]
    edit_json(path, actions=[int(other)])
    expect_record_error("final state differs", replay, load_replay(path))


@pytest.mark.parametrize(
    "field,value,fragment",
    [
        ("actions", [1, "2"], "action at step 1 must be an integer"),
        ("actions", [1.5], "action at step 0 must be an integer"),
        ("actions", [True], "action at step 0 must be an integer"),
        ("actions", "1,2", "'actions' must be a list"),
        ("seed", "7", "'seed' must be an integer"),
        ("spec_version", 1.0, "'spec_version' must be an integer"),
        ("config", [], "'config' must be an object"),
        ("game", 3, "'game' must be a string"),
        ("layout_hash", None, "'layout_hash' must be a string"),
        ("final_state_sha256", 5, "'final_state_sha256' must be a string"),
    ],
)
def test_badly_typed_fields_are_rejected(recorded, field, value, fragment):
    path, _, _ = recorded
    edit_json(path, **{field: value})
    expect_record_error(fragment, load_replay, path)


def test_missing_field_is_rejected(recorded):
    path, _, _ = recorded
    data = json.loads(path.read_text())
    del data["seed"]
    path.write_text(json.dumps(data))
    expect_record_error(r"missing field\(s\) \['seed'\]", load_replay, path)


@pytest.mark.parametrize(
    "mangle",
    [lambda t: t[: len(t) // 2], lambda t: "", lambda t: t.replace("{", "[", 1), lambda t: "nul"],
    ids=["truncated", "empty", "corrupt", "not-json"],
)
def test_truncated_or_corrupt_json_is_rejected(recorded, mangle):
    path, _, _ = recorded
    path.write_text(mangle(path.read_text()))
    expect_record_error("corrupt or truncated replay JSON", load_replay, path)


def test_json_that_is_not_an_object_is_rejected(recorded):
    path, _, _ = recorded
    path.write_text("[1, 2, 3]")
    expect_record_error("must be a JSON object", load_replay, path)


def test_binary_garbage_is_rejected(recorded):
    path, _, _ = recorded
    path.write_bytes(b"\xff\xfe\x00garbage\x80")
    expect_record_error("not a replay file", load_replay, path)


def test_replay_checked_against_another_game_is_rejected(recorded, monkeypatch):
    path, _, _ = recorded
    other = dataclasses.replace(tinygame.SPEC, name="tiny_other")
    monkeypatch.setitem(registry._SPECS, "tiny_other", other)
    expect_record_error("recorded for game 'tiny_tictactoe'", replay, load_replay(path),
                        make_game("tiny_other"))  # fmt: skip


def test_record_error_is_a_value_error():
    assert issubclass(RecordError, ValueError)


# -- state files ------------------------------------------------------------------------


def test_state_file_round_trip(game, tmp_path):
    _, states, _ = kit.play_random(game, 5, np.random.default_rng(2), record=True)
    mid = states[len(states) // 2]
    save_state(tmp_path / "s.npz", game, mid)
    loaded_game, state = load_state(tmp_path / "s.npz")
    assert loaded_game.layout_hash() == game.layout_hash()
    assert np.array_equal(state, mid) and state.dtype == np.int32
    assert state.flags.writeable and state.flags.c_contiguous
    same_game, again = load_state(tmp_path / "s.npz", game)
    assert same_game is game and np.array_equal(again, mid)


def test_state_file_loaded_into_another_game_is_rejected(tiny, tmp_path, monkeypatch):
    save_state(tmp_path / "s.npz", tiny, tiny.new_state(0))
    monkeypatch.setitem(registry._SPECS, "tiny_other",
                        dataclasses.replace(tinygame.SPEC, name="tiny_other"))  # fmt: skip
    expect_record_error("recorded for game 'tiny_tictactoe', not 'tiny_other'", load_state,
                        tmp_path / "s.npz", make_game("tiny_other"))  # fmt: skip


def test_state_file_from_an_older_version_is_rejected(tiny, tmp_path, monkeypatch):
    save_state(tmp_path / "s.npz", tiny, tiny.new_state(0))
    newer = dataclasses.replace(tinygame.SPEC, version=tinygame.SPEC.version + 1)
    monkeypatch.setitem(registry._SPECS, "tiny_tictactoe", newer)
    expect_record_error("state file from an older version", load_state, tmp_path / "s.npz")


def test_state_file_of_another_config_is_rejected(tmp_path):
    two = make_game("deus_lo_vult", players=2, rounds=1)
    three = make_game("deus_lo_vult", players=3, rounds=1)
    save_state(tmp_path / "s.npz", two, two.new_state(0))
    expect_record_error("config mismatch", load_state, tmp_path / "s.npz", three)


def test_saving_a_bad_state_raises_state_error(tiny, tmp_path):
    with pytest.raises(ValueError, match="dtype must be int32"):
        save_state(tmp_path / "s.npz", tiny, tiny.new_state(0).astype(np.int64))


@pytest.mark.parametrize(
    "mangle,fragment",
    [
        (lambda b: b[: len(b) // 2], "corrupt or truncated state file"),
        (lambda b: b"", "corrupt or truncated state file"),
        (lambda b: b"PK\x03\x04" + b"\x00" * 40, "corrupt or truncated state file"),
        (lambda b: b"not a zip file at all", "corrupt or truncated state file"),
    ],
    ids=["truncated", "empty", "bad-zip", "text"],
)
def test_corrupt_state_file_is_rejected(tiny, tmp_path, mangle, fragment):
    path = tmp_path / "s.npz"
    save_state(path, tiny, tiny.new_state(0))
    path.write_bytes(mangle(path.read_bytes()))
    expect_record_error(fragment, load_state, path)


def test_state_file_with_tampered_contents_is_rejected(tiny, tmp_path):
    path = tmp_path / "s.npz"
    save_state(path, tiny, tiny.new_state(0))
    with np.load(path) as npz:
        header, state = npz["header"], npz["state"].copy()
    state[5] += 1
    np.savez(path, header=header, state=state)
    expect_record_error("do not match the header's sha256", load_state, path)


def test_state_file_with_wrong_array_shape_is_rejected(tiny, tmp_path):
    path = tmp_path / "s.npz"
    save_state(path, tiny, tiny.new_state(0))
    with np.load(path) as npz:
        header = npz["header"]
    np.savez(path, header=header, state=np.zeros(3, np.int32))
    expect_record_error(r"state array is int32\[3\], expected int32\[15\]", load_state, path)


def test_npz_without_header_is_rejected(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, state=np.zeros(15, np.int32))
    expect_record_error("not a crusadegym state file", load_state, path)


def test_npz_with_another_format_is_rejected(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, header=np.array(json.dumps({"format": "x"})), state=np.zeros(15, np.int32))
    expect_record_error("wrong format 'x'", load_state, path)


def test_npz_with_pickled_header_is_rejected(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, header=np.array([{"format": "x"}], dtype=object), state=np.zeros(1))
    expect_record_error("corrupt or truncated state file", load_state, path)


def test_missing_state_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such state file"):
        load_state(tmp_path / "nope.npz")
