"""crusadegym serve treats every request as untrusted: a bounded fuzz and load test.

Bad input gets a 4xx and one line (never a traceback or a 500); no request names a file
path (``policy:``, ``value=``, replay names) or learns whether one exists; agent options
and game options are bounded; agents-only play stops after a bounded number of agent
moves a request and continues on the next; and the server keeps serving after all of it.
Loopback only. Work is asserted as counted agent moves, never as wall-clock time
(performance is measured, not asserted).
"""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request

import numpy as np
import pytest

from crusadegym.ui import serve
from crusadegym.ui.serve import AgentCache, RequestError, check_agent_spec, make_server


@pytest.fixture(scope="module")
def policy_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("policies")
    (folder / "mine.zip").write_bytes(b"not a checkpoint")
    (folder / "notes.txt").write_text("not offered")
    return folder


@pytest.fixture(scope="module")
def url(policy_dir):
    server = make_server("127.0.0.1", 0, None, [policy_dir])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    call(base, "/api/play", TINY)  # warm up: compile the tiny game's kernels once
    yield base
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def closed_url():
    """A server started without --policy-dir: no policy file is ever loaded."""
    server = make_server("127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def agent_moves(monkeypatch):
    """A list that gets one entry per agent move the server plays (the request's work)."""
    moves: list[str] = []
    real_move = AgentCache.move

    def counted_move(self, spec, *args, **kwargs):
        moves.append(spec)
        return real_move(self, spec, *args, **kwargs)

    monkeypatch.setattr(AgentCache, "move", counted_move)
    return moves


def call(url, path, body=None, raw: bytes | None = None, timeout=60):
    """(status, JSON) of a GET (no body) or a POST of ``body`` (or ``raw`` bytes); the
    timeout only keeps a hung server from hanging the test run."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def assert_one_line_4xx(status, data):
    assert 400 <= status < 500, (status, data)
    error = data["error"]
    assert error and "\n" not in error and "Traceback" not in error and len(error) < 400


TINY = {"game": "tiny_tictactoe", "options": {}, "seed": 5, "seats": ["human", "random"]}


# -- no file path from a request ------------------------------------------------------------


@pytest.mark.parametrize(
    "seat",
    [
        "policy:/etc/passwd",
        "policy:/etc/no-such-file",
        "policy:../../../etc/passwd",
        "policy:mine.zip/../../etc/passwd",
        "puct:/etc/passwd",
        "mcts:value=/etc/passwd",
        "mcts:select_prior=/etc/passwd",
        "heuristic:value=/etc/passwd",
        "pretrained:game=/etc/passwd",
    ],
)
def test_no_request_names_a_file(url, closed_url, seat):
    for base in (url, closed_url):
        status, data = call(base, "/api/play", {**TINY, "seats": ["human", seat]})
        assert_one_line_4xx(status, data)
        assert "exist" not in data["error"] and "No such file" not in data["error"]


def test_the_error_does_not_tell_whether_a_path_exists(url, closed_url):
    for base in (url, closed_url):
        errors = []
        for path in ("/etc/passwd", "/etc/no-such-file-here"):
            data = call(base, "/api/play", {**TINY, "seats": ["human", f"policy:{path}"]})[1]
            errors.append(data["error"].replace(path, "PATH"))
        assert errors[0] == errors[1], errors


def test_policies_only_from_the_policy_dirs_by_bare_name(url, closed_url, policy_dir):
    meta = call(url, "/api/meta")[1]
    assert "policy:mine" in meta["agents"] and "policy:notes" not in meta["agents"]
    assert str(policy_dir) not in json.dumps(meta)
    assert not any(a.startswith("policy:") for a in call(closed_url, "/api/meta")[1]["agents"])
    status, data = call(closed_url, "/api/play", {**TINY, "seats": ["human", "policy:mine"]})
    assert_one_line_4xx(status, data)
    assert "loads no policy files" in data["error"] and "--policy-dir" in data["error"]
    status, data = call(url, "/api/play", {**TINY, "seats": ["human", "policy:other"]})
    assert_one_line_4xx(status, data)
    assert "unknown policy 'other'" in data["error"] and "policy:mine" in data["error"]
    with pytest.raises(RequestError, match="unknown policy"):
        check_agent_spec("policy:mine.zip", {"mine": policy_dir / "mine.zip"})
    assert check_agent_spec("policy:mine", {"mine": policy_dir / "mine.zip"})[1]["name"] == "mine"


def test_a_broken_policy_file_is_one_line_without_its_path(policy_dir):
    with pytest.raises(RequestError) as err:
        AgentCache([policy_dir]).move("policy:mine", None, None, 0, 0)
    assert str(policy_dir) not in str(err.value) and "\n" not in str(err.value)


def test_replay_names_are_bare(url):
    for name in ("../../etc/passwd", "/etc/passwd", "a/b.json", "x" * 300 + ".json"):
        status, data = call(url, "/api/replay", {"replay": {"name": name}, "step": 0})
        assert_one_line_4xx(status, data)
        assert "passwd" not in data["error"] or "malformed" in data["error"]


# -- bounded work per request ---------------------------------------------------------------


@pytest.mark.parametrize(
    "change,fragment",
    [
        ({"seats": ["human", "mcts:iterations=100000000"]}, "iterations must be an integer in"),
        ({"seats": ["human", "mcts:seconds=600"]}, "seconds must be a number in"),
        ({"seats": ["human", "mcts:rollout_depth=99999999"]}, "rollout_depth must be"),
        ({"seats": ["human", "mcts:determinizations=100000"]}, "determinizations must be"),
        ({"seats": ["human", "mcts:bogus=1"]}, "no option 'bogus'"),
        ({"seats": ["human", "random:iterations=5"]}, "no option 'iterations'"),
        ({"seats": ["human", "mcts:iterations"]}, "expected key=value"),
        ({"seats": ["human"] * 5}, "2..4 seats"),
        ({"seats": ["human"]}, "2..4 seats"),
        ({"seats": ["human", "r" * 500]}, "at most 200 characters"),
        ({"options": {"max_turns": 100000}}, "max_turns must be in"),
        ({"options": {"max_turns": 0}}, "max_turns must be in"),
        ({"options": {"max_turns": 1e308}}, "max_turns must be in"),
        ({"options": {"players": 9}}, "players=9"),
        ({"options": {"x" * 100: 1}}, "bad option name"),
        ({"options": {"k": "v" * 1000}}, "at most 60 characters"),
        ({"options": {"k": {"nested": 1}}}, "option k"),
        ({"options": [1, 2]}, "options must be an object"),
        ({"actions": [0] * (serve.MAX_ACTIONS + 1)}, "at most"),
        ({"actions": "012"}, "actions must be a list"),
        ({"seed": 2**80}, "seed must be in"),
        ({"game": {"a": 1}}, "unknown game"),
    ],
)
def test_bounds_are_4xx_one_line_and_refused_before_any_agent_moves(
    url, agent_moves, change, fragment
):
    status, data = call(url, "/api/play", {**TINY, "actions": [], **change})
    assert_one_line_4xx(status, data)
    assert fragment in data["error"], data["error"]
    assert agent_moves == []  # refused before any agent was asked for a move


def test_agents_only_play_is_bounded_per_request(url, agent_moves, monkeypatch):
    """A long agents-only game comes in slices of at most MAX_AGENT_MOVES agent moves (the
    time budget is lifted so only that bound can cut); the page asks again."""
    bound = 2
    monkeypatch.setattr(serve, "MAX_AGENT_MOVES", bound)
    monkeypatch.setattr(serve, "AGENT_SECONDS", 1e9)
    body = {**TINY, "seats": ["random", "random"]}
    actions, requests, pending = [], 0, True
    while pending:
        agent_moves.clear()
        status, v = call(url, "/api/play", {**body, "actions": actions})
        assert status == 200, v
        played = len(v["actions"]) - len(actions)
        assert len(agent_moves) == played <= bound  # the request's work, counted
        assert played == bound or not v["agents_pending"]  # a slice is cut only at the bound
        assert played > 0  # every request makes progress
        actions, pending, requests = v["actions"], v["agents_pending"], requests + 1
        assert requests < 50
    assert v["over"] and requests >= 3  # a 5..9-move game did not fit in one request


def test_the_page_is_told_the_move_bound(url):
    limits = call(url, "/api/meta")[1]["limits"]
    assert limits["agent_moves_per_request"] == serve.MAX_AGENT_MOVES > 0


def test_mcts_on_the_page_is_capped_in_time(monkeypatch):
    built = AgentCache()._build("mcts:iterations=20000")
    assert built.config.iterations == 20000 and built.config.seconds == serve.MAX_MCTS_SECONDS
    assert AgentCache()._build("mcts:seconds=0.5").config.seconds == 0.5


# -- fuzz and load ---------------------------------------------------------------------------


def _junk(rng: np.random.Generator, depth: int = 0):
    """A random JSON value, now and then a plausible field of a request."""
    kind = rng.integers(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return bool(rng.integers(2))
    if kind == 2:
        return int(rng.choice([0, 1, -1, 9, 2**31, -(2**63), 10**30]))
    if kind == 3:
        return float(rng.choice([0.5, -1e300, 1e308]))
    if kind == 4:
        return str(rng.choice(["", "human", "random", "mcts:iterations=9", "policy:x", "../x",
                               "deus_lo_vult", "tiny_tictactoe", "\x00", "é" * 5]))  # fmt: skip
    if kind == 5:
        return "z" * int(rng.integers(0, 3000))
    if kind == 6:
        return [_junk(rng, depth + 1) for _ in range(rng.integers(0, 6))]
    keys = ["game", "options", "seed", "seats", "actions", "move", "text", "click", "undo",
            "replay", "step", "name", "max_turns", "players"]  # fmt: skip
    return {str(rng.choice(keys)): _junk(rng, depth + 1) for _ in range(rng.integers(0, 6))}


def test_fuzzed_requests_get_4xx_lines_never_a_traceback(url, agent_moves):
    rng = np.random.default_rng(39)
    for i in range(240):
        body = _junk(rng)
        if i % 2 and isinstance(body, dict):
            body = {**TINY, **body}  # most fields good, a few junk
        path = "/api/play" if i % 3 else "/api/replay"
        agent_moves.clear()
        status, data = call(url, path, body if body is not None else {})
        assert len(agent_moves) <= serve.MAX_AGENT_MOVES
        if status != 200:
            assert_one_line_4xx(status, data)
    for raw in [b"{", b"[]", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b'{"game": NaN}']:
        status, data = call(url, "/api/play", raw=raw)
        assert_one_line_4xx(status, data)
    assert call(url, "/api/meta")[0] == 200  # still serving


def test_oversized_and_slow_clients_do_not_stop_the_server(url):
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as big:
        big.sendall(b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n{")
        assert b" 400 " in big.recv(4096).split(b"\r\n")[0] + b" "
    with socket.create_connection((host, int(port)), timeout=10) as slow:
        slow.sendall(b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{")
        status, v = call(url, "/api/play", TINY)  # served while that one dawdles
        assert status == 200, v


def test_concurrent_load_then_still_serving(url):
    bodies = [TINY, {**TINY, "seats": ["random", "random"]}, {**TINY, "actions": [99]},
              {**TINY, "seats": ["human", "policy:/etc/passwd"]}, {**TINY, "game": "nope"},
              {**TINY, "seats": ["human", "mcts:iterations=50"]}]  # fmt: skip
    results: list[int] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        for j in range(6):
            status, data = call(url, "/api/play", bodies[(k + j) % len(bodies)])
            if status != 200:
                assert_one_line_4xx(status, data)
            with lock:
                results.append(status)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 48 and all(s in (200, 400, 409) for s in results)
    status, v = call(url, "/api/play", TINY)
    assert status == 200, v


def test_serve_refuses_a_missing_policy_dir(tmp_path, capsys):
    from crusadegym.cli import main as cli

    assert cli(["serve", "--port", "0", "--policy-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err.strip()
    assert "--policy-dir" in err and "no such folder" in err and "\n" not in err
