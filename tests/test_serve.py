"""crusadegym serve's API: whole games over HTTP, stateless replays, clear errors for bad requests.

The server runs in a thread on a free loopback port; requests are plain urllib calls.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest

from crusadegym.core import available_games, get_spec, make_game
from crusadegym.core.records import save_replay
from crusadegym.ui.serve import make_server


@pytest.fixture(scope="module")
def replay_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    game = make_game("tiny_tictactoe")
    state, actions, rng = game.new_state(2), [], np.random.default_rng(2)
    while not game.is_terminal(state):
        actions.append(int(rng.choice(game.legal_actions(state))))
        game.step(state, actions[-1])
    save_replay(folder / "tiny.json", game, 2, actions)
    return folder


@pytest.fixture(scope="module")
def url(replay_dir):
    server = make_server("127.0.0.1", 0, replay_dir)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def call(url, path, body=None):
    """(status, JSON) of a GET (body None) or a POST."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def play(url, body):
    """``call(url, "/api/play", body)``, asked again while agents are still to move (a
    request lets the agent seats think for a bounded time; the page continues the same way)."""
    status, v = call(url, "/api/play", body)
    while status == 200 and v["agents_pending"]:
        body = {k: x for k, x in body.items() if k not in ("move", "text", "click", "undo")}
        status, v = call(url, "/api/play", {**body, "actions": v["actions"]})
    return status, v


TINY = {"game": "tiny_tictactoe", "options": {}, "seed": 5, "seats": ["human", "random"]}


def test_page_and_meta(url):
    with urllib.request.urlopen(url + "/", timeout=30) as resp:
        assert b"crusadegym" in resp.read() and resp.status == 200
    with urllib.request.urlopen(url + "/static/app.js", timeout=30) as resp:
        assert b"/api/play" in resp.read()
    status, meta = call(url, "/api/meta")
    assert status == 200 and "deus_lo_vult" in [g["name"] for g in meta["games"]]
    assert {"human", "random", "pretrained"} <= set(meta["agents"])
    assert meta["replays"] == ["tiny.json"]
    assert call(url, "/nothing")[0] == 404


@pytest.mark.parametrize("seats", [["human", "random"], ["random", "human"]])
def test_a_whole_game_against_random_and_stateless_replays(url, seats):
    game = make_game("tiny_tictactoe")
    body = {**TINY, "seats": seats, "actions": []}
    status, v = call(url, "/api/play", body)
    assert status == 200
    while not v["over"]:
        assert v["human_to_move"] and v["legal"]
        body = {**body, "actions": v["actions"], "move": v["legal"][-1]["id"]}
        status, v = call(url, "/api/play", body)
        assert status == 200
        # the same game replayed without a move is the same position (a reload)
        again = call(url, "/api/play", {**TINY, "seats": seats, "actions": v["actions"]})[1]
        assert again["board_text"] == v["board_text"] and again["actions"] == v["actions"]
    state = game.new_state(TINY["seed"])
    for a in v["actions"]:
        game.step(state, a)
    assert game.is_terminal(state) and v["returns"] == [float(r) for r in game.returns(state)]
    assert len(v["history"]) == len(v["actions"]) and v["board_png"].startswith("data:image/png")


def test_typed_moves_and_undo(url):
    v = call(url, "/api/play", {**TINY, "actions": []})[1]
    label = v["legal"][0]["label"]
    status, after = call(url, "/api/play", {**TINY, "actions": v["actions"], "text": label})
    assert status == 200 and after["history"][len(v["actions"])]["label"] == label
    status, undone = call(url, "/api/play", {**TINY, "actions": after["actions"], "undo": True})
    assert status == 200 and undone["actions"] == v["actions"]


@pytest.mark.parametrize(
    "change,status,fragment",
    [
        ({"move": 999}, 400, "is not an action id"),
        ({"text": "mark 9,9"}, 400, "cannot read"),
        ({"move": "a1"}, 400, "move must be an integer"),
        ({"actions": ["x"]}, 400, "action 1 must be an integer"),
        ({"actions": [99]}, 409, "stale game"),
        ({"game": "chess"}, 400, "unknown game 'chess'"),
        ({"seats": ["human", "nobody"]}, 400, "unknown agent 'nobody'"),
        ({"seats": ["human", "policy:/etc/passwd"]}, 400, "loads no policy files"),
        ({"seats": ["human", "mcts:iterations=100000000"]}, 400, "iterations must be"),
        ({"options": {"max_turns": 100000}}, 400, "max_turns must be in"),
        ({"seats": "human"}, 400, "seats must be a list"),
        ({"options": {"bogus": 1}}, 400, "unknown option"),
        ({"seed": -1}, 400, "seed must be in"),
        ({"undo": True}, 400, "nothing to undo"),
    ],
)
def test_bad_requests_get_one_line_errors(url, change, status, fragment):
    got, data = call(url, "/api/play", {**TINY, "actions": [], **change})
    assert got == status and fragment in data["error"] and "\n" not in data["error"]


def test_an_illegal_move_is_explained_and_changes_nothing(url):
    v = call(url, "/api/play", {**TINY, "actions": []})[1]
    taken = next(a for a in range(9) if a not in {x["id"] for x in v["legal"]})
    status, data = call(url, "/api/play", {**TINY, "actions": v["actions"], "move": taken})
    assert status == 400 and "not legal in this position" in data["error"]
    assert call(url, "/api/play", {**TINY, "actions": v["actions"]})[1]["actions"] == v["actions"]


def test_not_the_humans_turn(url):
    body = {**TINY, "seats": ["random", "random"], "actions": [], "move": 0}
    status, data = call(url, "/api/play", body)
    assert status == 400 and "not a human's" in data["error"]


def test_watching_a_replay_step_by_step(url, replay_dir):
    rec = json.loads((replay_dir / "tiny.json").read_text())
    n = len(rec["actions"])
    for step in (0, 1, n):
        status, v = call(url, "/api/replay", {"replay": {"name": "tiny.json"}, "step": step})
        assert status == 200 and v["step"] == step and v["total"] == n
        assert len(v["history"]) == step
    assert v["over"]
    uploaded = call(url, "/api/replay", {"replay": json.dumps(rec), "step": 1})[1]
    assert uploaded["step"] == 1 and uploaded["total"] == n
    for body, fragment in [
        ({"replay": {"name": "../etc/passwd"}, "step": 0}, "malformed replay id"),
        ({"replay": {"name": "none.json"}, "step": 0}, "no replay named"),
        ({"replay": {"name": "tiny.json"}, "step": n + 1}, "step must be in"),
        ({"replay": "{broken", "step": 0}, "corrupt or truncated replay JSON"),
        ({"replay": {**rec, "actions": [0, 0]}, "step": 0}, "illegal action at step"),
    ]:
        status, data = call(url, "/api/replay", body)
        assert status in (400, 404) and fragment in data["error"], data


def test_deus_lo_vult_plays_through_the_same_api(url):
    body = {"game": "deus_lo_vult", "options": {"rounds": 1, "max_turns": 4}, "seed": 1,
            "seats": ["human", "heuristic"], "actions": []}  # fmt: skip
    v = play(url, body)[1]
    for _ in range(400):
        if v["over"]:
            break
        move = {"actions": v["actions"], "move": v["legal"][0]["id"]}
        v = play(url, {**body, **move})[1]
    assert v["over"] and v["returns"] is not None
    assert v["ending"] == "ended at the turn cap"  # 4 turns a seat end no round


def test_clicks_on_the_board_are_read_like_typed_cells(url):
    from crusadegym.envs import render_dlv as R

    body = {"game": "deus_lo_vult", "options": {}, "seed": 1, "seats": ["human", "random"],
            "actions": []}  # fmt: skip
    v = call(url, "/api/play", body)[1]
    assert v["clickable"] and v["legal"][0]["label"] == "cell a1"
    centre = R.MARGIN + R.CELL // 2, R.HEADER + R.MARGIN + R.CELL // 2  # cell a1
    status, after = call(url, "/api/play", {**body, "click": list(centre)})
    assert status == 200 and after["history"][0]["label"] == "cell a1"
    far = R.MARGIN + 11 * R.CELL + 5, R.HEADER + R.MARGIN + 11 * R.CELL + 5  # l12
    status, data = call(url, "/api/play", {**body, "click": list(far)})
    assert status == 400 and "`cell l12` is not legal" in data["error"]
    for click, fragment in [([1, 1], "off the board"), ([1], "click must be [x, y]")]:
        status, data = call(url, "/api/play", {**body, "click": click})
        assert status == 400 and fragment in data["error"]
    status, data = call(url, "/api/play", {**TINY, "actions": [], "click": [1, 1]})
    assert status == 400 and "not clickable" in data["error"]


def test_serve_command_line_errors_are_one_line(tmp_path, capsys):
    import socket

    from crusadegym.cli import main as cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        for argv, fragment in [
            (["--port", "70000"], "--port must be in 0..65535"),
            (["--replays", str(tmp_path / "none")], "no such folder"),
            (["--port", str(port)], f"cannot listen on 127.0.0.1:{port}"),
        ]:
            assert cli(["serve", *argv]) == 2
            err = capsys.readouterr().err.strip()
            assert fragment in err and "\n" not in err


@pytest.mark.parametrize("name", available_games())
def test_every_game_plays_through_the_api(url, name):
    """A few human moves, then agents only to the end (requests continue them)."""
    opts = dict(get_spec(name).test_configs[0])
    players = opts.pop("players", 2)
    body = {"game": name, "options": opts, "seed": 3, "actions": [],
            "seats": ["human"] + ["random"] * (players - 1)}  # fmt: skip
    status, v = play(url, body)
    for _ in range(3):
        assert status == 200, v
        if v["over"]:
            break
        move = {"actions": v["actions"], "move": v["legal"][0]["id"]}
        status, v = play(url, {**body, **move})
    agents = {**body, "seats": ["random"] * players, "actions": v["actions"]}
    status, v = play(url, agents)
    assert status == 200 and v["over"] and len(v["returns"]) == players
    assert v["board_png"].startswith("data:image/png") and v["legal"] == []


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_clicks_on_hex_boards_name_the_region_under_them(url, name):
    """Play random games; whenever a `region X` action is legal, click that hex's centre."""
    from crusadegym.ui.clicks import click_map

    game = make_game(name, players=2)
    hook = click_map(name)
    rng, clicked = np.random.default_rng(0), 0
    state = game.new_state(2)
    actions = []
    while not game.is_terminal(state) and clicked < 3:
        labels = {game.action_to_str(int(a), state): int(a) for a in game.legal_actions(state)}
        regions = [lab for lab in labels if lab.startswith("region ")]
        if regions:
            target = regions[0]
            hit = next(
                (x, y) for x in range(0, 1400, 6) for y in range(0, 1200, 6)
                if hook(game, x, y) == target
            )  # fmt: skip
            body = {"game": name, "options": {}, "seed": 2, "actions": actions,
                    "seats": ["human", "human"], "click": list(hit)}  # fmt: skip
            status, v = call(url, "/api/play", body)
            assert status == 200 and v["history"][-1]["label"] == target, v.get("error")
            clicked += 1
        a = int(rng.choice(game.legal_actions(state)))
        game.step(state, a)
        actions.append(a)
    assert clicked == 3
