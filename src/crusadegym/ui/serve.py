"""``crusadegym serve``: a local web page to play any game against any agent and watch replays.

The stack is the standard library's :mod:`http.server` and one static page
(``ui/static/``): no framework, no build step. The server is **stateless**: the page
keeps the whole game (game, options, seed, seat specs, actions) in its URL and in
localStorage and sends it with every request; the server replays the actions, checks
the new move, lets the agent seats answer, and returns the position. A reload, a
restarted server or a second tab therefore never loses or corrupts a game.

API (JSON in, JSON out; an error is ``{"error": "one line"}`` with a 4xx status and the
page's game is left as it was):

* ``GET /api/meta``: games, agent names, the replay files of ``--replays DIR``;
* ``POST /api/play``: ``{game, options, seed, seats, actions, move?, text?, click?,
  undo?}``: play ``move`` (an action id), ``text`` (typed as in the terminal seat) or
  ``click`` (``[x, y]`` on the board picture, :mod:`.clicks`) for the human to move, or
  ``undo`` the last human move; the agent seats then move until a human is
  to move or the game is over;
* ``POST /api/replay``: ``{replay, step}`` (a replay's JSON, or ``{name}`` of a file in
  ``--replays``): the position after ``step`` actions;

Agents' moves are seeded from the game seed and the move number, so the same request
always gets the same answer (search agents with a time budget aside).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from crusadegym.agents.base import select_action
from crusadegym.agents.human import explain_illegal, legal_listing, read_move
from crusadegym.agents.options import make_game_with_players
from crusadegym.agents.pretrained import check_pretrained_specs
from crusadegym.agents.registry import AGENT_TYPES, make_agent
from crusadegym.core import Game, available_games, get_spec
from crusadegym.core.records import RecordError, load_replay, replay, replay_from_json
from crusadegym.core.turn_cap import ending
from crusadegym.envs.render import render_rgb
from crusadegym.errors import UserError

from .clicks import click_map

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
HUMAN = "human"
MAX_BODY = 2_000_000
"""Largest request body accepted (bytes): a replay of many thousand actions fits."""
MAX_SEED = 2**63 - 1
REPLAY_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,120}\.json$")
SUGGESTED_AGENTS = ("random", "heuristic", "mcts", "pretrained")


class RequestError(Exception):
    """A bad request: answered with ``status`` and a one-line message, never a traceback."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


# -- building blocks -----------------------------------------------------------------------


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{what} must be an integer, got {json.dumps(value)[:40]}")
    return value


def _game(name: Any, options: Any, players: int) -> Game:
    if not isinstance(name, str) or name not in available_games():
        raise RequestError(f"unknown game {name!r}; available: {', '.join(available_games())}")
    if not isinstance(options, dict):
        raise RequestError("options must be an object of game options")
    try:
        return make_game_with_players(name, players, options)
    except (KeyError, ValueError, TypeError) as e:
        raise RequestError(f"{name}: {str(e).strip(chr(39))}") from e


def _seats(seats: Any) -> list[str]:
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise RequestError("seats must be a list of agent specs, one per seat, e.g. human,random")
    return [s.strip() for s in seats]


def board_png(game: Game, state: np.ndarray, seat: int | None = None) -> str:
    """The rgb_array rendering of ``state`` (as ``seat`` sees it) as a PNG data URL."""
    buf = io.BytesIO()
    Image.fromarray(render_rgb(game, state, seat)).save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _replay_actions(
    game: Game, seed: int, actions: Any, viewer: int | None = None
) -> tuple[np.ndarray, list[dict]]:
    """The state after ``actions`` and the move history; a stale or malformed list is refused."""
    if not isinstance(actions, list):
        raise RequestError("actions must be a list of action ids")
    state = game.new_state(seed)
    history = []
    for k, a in enumerate(actions):
        a = _int(a, f"action {k + 1}")
        if game.is_terminal(state) or not (0 <= a < game.num_actions and game.legal_mask(state)[a]):
            raise RequestError(
                f"stale game: move {k + 1} (id {a}) is not legal in the position it was played "
                "in (the rules or options changed, or the link was edited); start a new game",
                HTTPStatus.CONFLICT,
            )
        seat = game.current_player(state)
        label = game.action_label(a, state, None if viewer == seat else viewer)
        history.append({"step": k + 1, "seat": seat, "label": label})
        game.step(state, a)
    return state, history


def view(game: Game, state: np.ndarray, history: list[dict], seats: list[str] | None) -> dict:
    """What the page shows of a position: board, status, legal actions of a human to move."""
    over = game.is_terminal(state)
    seat = -1 if over else game.current_player(state)
    human_turn = seats is not None and not over and seats[seat].split(":")[0] == HUMAN
    # Hidden information stays hidden: a user playing a seat sees that seat's view (the
    # human to move; otherwise the first human seat). Spectating a replay (seats None)
    # or the finished game shows everything.
    humans = [] if seats is None else [i for i, s in enumerate(seats) if s.split(":")[0] == HUMAN]
    viewer = None if over or not humans else (seat if human_turn else humans[0])
    return {
        "game": game.name,
        "step": len(history),
        "to_move": seat,
        "human_to_move": human_turn,
        "over": over,
        "truncated": game.is_truncated(state) if over else False,
        "ending": ending(game.is_truncated(state)) if over else None,
        "returns": [float(r) for r in game.returns(state)] if over else None,
        "board_png": board_png(game, state, viewer),
        "board_text": game.render(state, viewer),
        "legal": [{"id": a, "label": lab} for a, lab in legal_listing(game, state)]
        if human_turn
        else [],
        "history": history,
        "layout_hash": game.layout_hash(),
        "stand_in_data": bool(game.spec.stand_in_data),
        "hidden_information": bool(game.spec.hidden_information),
        "clickable": click_map(game.name) is not None,
    }


class AgentCache:
    """Agents built once per spec (loading a policy takes seconds) and reseeded per move."""

    def __init__(self) -> None:
        self._agents: dict[str, Any] = {}

    def move(self, spec: str, game: Game, state: np.ndarray, seed: int, step: int) -> int:
        if spec not in self._agents:
            try:
                self._agents[spec] = make_agent(spec, 0)
            except (KeyError, ValueError, TypeError, FileNotFoundError, ImportError) as e:
                raise RequestError(f"agent {spec!r}: {str(e).strip(chr(39))}") from e
        agent = self._agents[spec]
        agent.reset(seed=int(np.random.SeedSequence([seed & MAX_SEED, step]).generate_state(1)[0]))
        return select_action(agent, game, state)


# -- the two game endpoints ----------------------------------------------------------------


def play(body: dict, agents: AgentCache) -> dict:
    """``POST /api/play`` (see the module docstring)."""
    seats = _seats(body.get("seats"))
    game = _game(body.get("game"), body.get("options", {}), len(seats))
    seed = _int(body.get("seed", 0), "seed")
    if not 0 <= seed <= MAX_SEED:
        raise RequestError(f"seed must be in 0..{MAX_SEED}")
    for spec in seats:
        name = spec.split(":")[0]
        if name != HUMAN and name != "policy" and name not in AGENT_TYPES:
            raise RequestError(f"unknown agent {spec!r}; built-in: {', '.join(AGENT_TYPES)}")
    try:
        check_pretrained_specs(seats, game.name)
    except UserError as e:
        raise RequestError(str(e)) from e
    actions = list(body.get("actions", []))
    is_human = [s.split(":")[0] == HUMAN for s in seats]
    # history labels as the (first) human seat sees them: a rival's face-down card unnamed
    viewer = is_human.index(True) if any(is_human) else None
    state, history = _replay_actions(game, seed, actions, viewer)
    if body.get("undo"):
        keep = [h["step"] - 1 for h in history if is_human[h["seat"]]]
        if not keep:
            raise RequestError("nothing to undo: no human move yet")
        actions = actions[: keep[-1]]
        state, history = _replay_actions(game, seed, actions, viewer)
    elif "move" in body or "text" in body or "click" in body:
        if game.is_terminal(state):
            raise RequestError("the game is over; start a new game")
        seat = game.current_player(state)
        if not is_human[seat]:
            raise RequestError(f"it is seat {seat}'s turn ({seats[seat]}), not a human's")
        if "click" in body:
            body = {**body, "text": _clicked_text(game, body["click"])}
        if "text" in body:
            if not isinstance(body["text"], str):
                raise RequestError("text must be a string")
            typed = read_move(game, state, body["text"])
            if typed.action is None:
                raise RequestError(typed.error or "type an action, e.g. its number")
            action = typed.action
        else:
            action = _int(body["move"], "move")
            if not 0 <= action < game.num_actions:
                raise RequestError(f"move {action} is not an action id (0..{game.num_actions - 1})")
            if not game.legal_mask(state)[action]:
                raise RequestError(explain_illegal(game, state, action))
        label = game.action_label(action, state, viewer)
        history.append({"step": len(actions) + 1, "seat": seat, "label": label})
        game.step(state, action)
        actions.append(action)
    # the agent seats answer until a human is to move or the game is over
    for _ in range(game.max_steps + 1):
        if game.is_terminal(state) or is_human[game.current_player(state)]:
            break
        seat = game.current_player(state)
        action = agents.move(seats[seat], game, state, seed, len(actions))
        label = game.action_label(action, state, viewer)
        history.append({"step": len(actions) + 1, "seat": seat, "label": label})
        game.step(state, action)
        actions.append(action)
    return {**view(game, state, history, seats), "actions": actions, "seats": seats, "seed": seed}


def _clicked_text(game: Game, click: Any) -> str:
    """The action text of a click ``[x, y]`` on the board picture (see :mod:`.clicks`)."""
    hook = click_map(game.name)
    if hook is None:
        raise RequestError(f"{game.name}'s board is not clickable; use the action buttons")
    if not isinstance(click, list) or len(click) != 2:
        raise RequestError("click must be [x, y], pixels of the board picture")
    x, y = (_int(v, "click coordinate") for v in click)
    text = hook(game, x, y)
    if text is None:
        raise RequestError("that click is off the board; click a cell or an action button")
    return text


def watch(body: dict, replay_dir: Path | None) -> dict:
    """``POST /api/replay`` (see the module docstring)."""
    source = body.get("replay")
    try:
        if isinstance(source, dict) and set(source) == {"name"}:
            rec = load_replay(_replay_file(source["name"], replay_dir))
        elif isinstance(source, dict):
            rec = replay_from_json(json.dumps(source))
        elif isinstance(source, str):
            rec = replay_from_json(source)
        else:
            raise RequestError('replay must be a replay\'s JSON or {"name": FILE}')
        game, states = replay(rec)
    except RecordError as e:
        raise RequestError(f"cannot watch this replay: {e}") from e
    step = _int(body.get("step", 0), "step")
    if not 0 <= step <= len(rec.actions):
        raise RequestError(f"step must be in 0..{len(rec.actions)}, got {step}")
    history = [
        {"step": k + 1, "seat": game.current_player(states[k]),
         "label": game.action_to_str(a, states[k])}
        for k, a in enumerate(rec.actions[:step])
    ]  # fmt: skip
    out = view(game, states[step], history, None)
    return {**out, "total": len(rec.actions), "seed": rec.seed, "note": rec.note}


def _replay_file(name: Any, replay_dir: Path | None) -> Path:
    if replay_dir is None:
        raise RequestError("this server has no replay folder (start it with --replays DIR)")
    if not isinstance(name, str) or not REPLAY_NAME.match(name):
        raise RequestError(f"malformed replay id {str(name)[:60]!r}")
    path = replay_dir / name
    if not path.is_file():
        raise RequestError(f"no replay named {name!r}", HTTPStatus.NOT_FOUND)
    return path


def meta(replay_dir: Path | None) -> dict:
    """``GET /api/meta``: the games (with their seat counts), agents and replay files."""
    games = []
    for name in available_games():
        try:
            spec = get_spec(name)
        except ImportError:
            continue  # a game whose module does not import yet is left out of the menu
        games.append(
            {"name": name, "description": spec.description, "max_players": spec.max_players}
        )
    replays = sorted(p.name for p in replay_dir.glob("*.json")) if replay_dir else []
    agents = [HUMAN] + [a for a in SUGGESTED_AGENTS if a in AGENT_TYPES]
    agents += sorted(set(AGENT_TYPES) - set(agents))
    return {"games": games, "agents": agents, "replays": replays}


# -- HTTP ----------------------------------------------------------------------------------


def make_handler(replay_dir: Path | None) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to ``replay_dir`` and one agent cache."""
    agents = AgentCache()
    lock = threading.Lock()  # one game computation at a time (numba, torch and the cache)

    class Handler(BaseHTTPRequestHandler):
        server_version = "crusadegym-serve"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass  # quiet; errors are returned to the page

        def _send(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: dict) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if path in STATIC_FILES:
                name, ctype = STATIC_FILES[path]
                self._send(HTTPStatus.OK, (STATIC_DIR / name).read_bytes(), ctype)
            elif path == "/api/meta":
                self._json(HTTPStatus.OK, meta(replay_dir))
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": f"no page {path!r}"})

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            path = self.path.split("?", 1)[0]
            try:
                body = self._body()
                with lock:
                    if path == "/api/play":
                        result = play(body, agents)
                    elif path == "/api/replay":
                        result = watch(body, replay_dir)
                    else:
                        raise RequestError(f"no endpoint {path!r}", HTTPStatus.NOT_FOUND)
                self._json(HTTPStatus.OK, result)
            except RequestError as e:
                self._json(e.status, {"error": str(e)})
            except Exception as e:  # noqa: BLE001 - the page gets a line, the server lives on
                msg = f"server error: {type(e).__name__}: {e}".splitlines()[0][:300]
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": msg})

        def _body(self) -> dict:
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError as e:
                raise RequestError("bad Content-Length") from e
            if not 0 < length <= MAX_BODY:
                raise RequestError(f"request body must be 1..{MAX_BODY} bytes of JSON")
            try:
                body = json.loads(self.rfile.read(length))
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise RequestError(f"request body is not JSON ({e})") from e
            if not isinstance(body, dict):
                raise RequestError("request body must be a JSON object")
            return body

    return Handler


def make_server(
    host: str = "127.0.0.1", port: int = 8000, replay_dir: str | Path | None = None
) -> ThreadingHTTPServer:
    """The HTTP server (not started); ``port=0`` picks a free port (``server.server_port``)."""
    folder = None if replay_dir is None else Path(replay_dir)
    if folder is not None and not folder.is_dir():
        raise UserError(f"--replays {folder}: no such folder")
    return ThreadingHTTPServer((host, port), make_handler(folder))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crusadegym serve",
        description="A local web page to play any game against any agent and to watch "
        "replays step by step. The page keeps each game in its address, so a reload never "
        "loses it. Stop the server with Ctrl-C.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: %(default)s, this machine only; "
                        "0.0.0.0 opens the page to your network)")  # fmt: skip
    p.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    p.add_argument("--replays", default=None, metavar="DIR",
                   help="folder of replay files to list in the Watch tab, e.g. the replays/ "
                        "of crusadegym play or arena --save-replays")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port must be in 0..65535, got {args.port}")
    try:
        server = make_server(args.host, args.port, args.replays)
    except OSError as e:
        raise UserError(f"cannot listen on {args.host}:{args.port} ({e.strerror})") from e
    host, port = server.server_address[:2]
    print(f"crusadegym serve: open http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
