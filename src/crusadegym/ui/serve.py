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

A position's answer (:func:`view`) carries the picture, the text board, the legal
actions (a Deus card's cost and effect as ``detail``), the history (each entry ``label``,
the raw ``action`` and ``text``: a sentence with the visible outcome, as the terminal
narrates it), the picture's ``legend`` (:mod:`.legend`) and, for Deus, its players' table
as text (``panel``; the picture is then the map only).

Agents' moves are seeded from the game seed and the move number, so the same request
always gets the same answer (search agents with a time budget aside).

**Every request is untrusted** (``--host 0.0.0.0`` opens the page to a network): no file
path comes from a request, and each request's work is bounded. Agent specs come from an
allow-list with bounded options (:data:`AGENT_OPTIONS`: ``mcts`` at most
:data:`MAX_MCTS_ITERATIONS` iterations and :data:`MAX_MCTS_SECONDS` seconds a move);
``policy:NAME`` loads only ``NAME.zip`` from a folder named by ``--policy-dir`` when the
server started (none by default: no policy files at all), by its bare name. Game options
are range-checked (:func:`check_options`: ``max_turns`` at most the game's default, 2-4
seats), a game has at most :data:`MAX_ACTIONS` actions, and the agent seats think at
most :data:`AGENT_SECONDS` and :data:`MAX_AGENT_MOVES` moves per request: a longer
agents-only stretch answers ``agents_pending: true`` and the page asks again to
continue. Bad input gets a 4xx and one line, never a traceback.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import io
import json
import math
import re
import sys
import threading
import time
import traceback
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from crusadegym.agents.base import select_action
from crusadegym.agents.human import explain_illegal, legal_listing, legend, read_move
from crusadegym.agents.match import build_parser as build_play_parser
from crusadegym.agents.narrate import changes, summary
from crusadegym.agents.options import make_game_with_players
from crusadegym.agents.pretrained import check_pretrained_specs
from crusadegym.agents.registry import AGENT_TYPES, parse_agent_spec
from crusadegym.core import Game, available_games, get_spec
from crusadegym.core.records import RecordError, load_replay, replay, replay_from_json
from crusadegym.core.turn_cap import ending
from crusadegym.envs.render import render_rgb
from crusadegym.errors import UserError

from . import legend as page_legend
from .clicks import click_map

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
    "/static/favicon.svg": ("favicon.svg", "image/svg+xml"),
    "/favicon.ico": ("favicon.svg", "image/svg+xml"),
}
HUMAN = "human"
MAX_BODY = 2_000_000
"""Largest request body accepted (bytes): a replay of many thousand actions fits."""
MAX_SEED = 2**63 - 1
REPLAY_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,120}\.json$")
SUGGESTED_AGENTS = ("random", "heuristic", "mcts", "pretrained")
DEFAULT_GAME = "deus_lo_vult"
"""The game the page offers first (the README's first ``crusadegym play``)."""
BOARD_SCALE: dict[str, float] = {}
"""How much larger than its pixels the page draws a picture whose drawer writes labels in
the 11 px default font (a registered game's; the suite's drawers write theirs at 16 px
and need none)."""

# -- the bounds of a request (see the module docstring) --------------------------------------
MAX_MCTS_ITERATIONS = 20_000
MAX_MCTS_SECONDS = 5.0
"""Every web MCTS search stops after this many seconds (its ``seconds``, given or not)."""
AGENT_SECONDS = 2.0
"""Agent seats' thinking per request; the rest of their moves come with the next request."""
MAX_AGENT_MOVES = 1000
"""Agent moves per request (whatever time they take); the rest come with the next request."""
MAX_ACTIONS = 40_000
"""Longest game (actions) a request may carry; replaying it takes about a second."""
MAX_SEATS = 4
MAX_SPEC = 200
"""Longest agent spec (characters)."""
MAX_OPTION_INT = 1000
"""Bound of an integer game option other than ``max_turns``/``players`` (absolute value)."""
AGENT_CACHE_SIZE = 16
NARRATED = 1000
"""The history's most recent moves told as sentences with their outcomes (the older ones
as ``seat S plays LABEL``): bounded work per request."""
POLICY_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")
_PRETRAINED = ("pretrained",)

AGENT_OPTIONS: dict[str, dict[str, Any]] = {
    HUMAN: {},
    "random": {},
    "heuristic": {"value": _PRETRAINED},
    "mcts": {
        "iterations": (1, MAX_MCTS_ITERATIONS),
        "seconds": (0.01, MAX_MCTS_SECONDS),
        "c_uct": (0.0, 10.0),
        "rollout_depth": (0, 400),
        "rollouts_per_leaf": (1, 16),
        "prior_visits": (0.0, 1000.0),
        "determinizations": (1, 64),
        "engine": ("auto", "compiled", "python"),
        "shuffle": bool,
        "value": _PRETRAINED,
        "select_prior": _PRETRAINED,
    },
    "pretrained": {"game": None, "deterministic": bool},  # game: any game name
}
"""The agents a request may name and their options: ``(lo, hi)`` a number in that range,
a tuple of strings one of them, ``bool`` true/false, ``None`` a game name. Files
(``value=PATH``, ``select_prior=PATH``) only as ``pretrained``, the copies shipped."""


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
        shown = json.dumps(name)[:40] if not isinstance(name, str) else repr(name[:40])
        raise RequestError(f"unknown game {shown}; available: {', '.join(available_games())}")
    check_options(name, options, players)
    try:
        return make_game_with_players(name, players, options)
    except (KeyError, ValueError, TypeError, AttributeError, OverflowError) as e:
        raise RequestError(f"{name}: {_line(str(e).strip(chr(39)))}") from e


def _line(text: str, limit: int = 300) -> str:
    """``text`` as one line of at most ``limit`` characters."""
    return " ".join(text.split())[:limit]


def check_options(name: str, options: Any, players: int) -> None:
    """Range-check the game options of a request (the web's bounds, on top of the game's).

    ``max_turns`` at most the game's default cap, seats 2..4 (and the game's most),
    other integers within +-:data:`MAX_OPTION_INT`, text short, lists of short text.
    """
    if not isinstance(options, dict) or len(options) > 64:
        raise RequestError("options must be an object of game options")
    spec = get_spec(name)
    most = min(MAX_SEATS, max(2, int(spec.max_players)))
    if not 2 <= players <= most:
        raise RequestError(f"{name} on this server: 2..{most} seats, got {players}")
    defaults = {f.name: f.default for f in dataclasses.fields(spec.config_cls)}
    for key, value in options.items():
        if not isinstance(key, str) or not key or len(key) > 40:
            raise RequestError(f"bad option name {json.dumps(key)[:40]}")
        if isinstance(value, list):
            if len(value) > 32 or not all(isinstance(v, str) and len(v) <= 60 for v in value):
                raise RequestError(f"option {key}: a list of at most 32 short names")
            continue
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, str):
            if len(value) > 60:
                raise RequestError(f"option {key}: text of at most 60 characters")
            continue
        if isinstance(value, float) and not math.isfinite(value):
            raise RequestError(f"option {key} must be a finite number")
        if not isinstance(value, (int, float)):
            raise RequestError(f"option {key}: a number, text, true/false or a list of names")
        if key == "max_turns":
            cap = defaults.get("max_turns")
            cap = cap if isinstance(cap, int) and cap > 0 else MAX_OPTION_INT
            if not 1 <= value <= cap:
                raise RequestError(f"max_turns must be in 1..{cap} on this server, got {value}")
        elif key == "players":
            if value != players:
                raise RequestError(f"players={value} but {players} seats; give one spec a seat")
        elif not -MAX_OPTION_INT <= value <= MAX_OPTION_INT:
            raise RequestError(f"option {key} must be in -{MAX_OPTION_INT}..{MAX_OPTION_INT}")


def _seats(seats: Any) -> list[str]:
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise RequestError("seats must be a list of agent specs, one per seat, e.g. human,random")
    if not 2 <= len(seats) <= MAX_SEATS:
        raise RequestError(f"a game here has 2..{MAX_SEATS} seats, got {len(seats)}")
    if any(len(s) > MAX_SPEC for s in seats):
        raise RequestError(f"an agent spec has at most {MAX_SPEC} characters")
    return [s.strip() for s in seats]


def check_agent_spec(spec: str, policies: dict[str, Path]) -> tuple[str, dict]:
    """``(name, options)`` of a seat's spec if the allow-list admits it, else RequestError.

    ``policy:NAME`` must name a file of ``policies`` (the ``--policy-dir`` folders),
    ``NAME`` bare: the error lists what the server offers and never says whether some
    other path exists.
    """
    name = spec.split(":", 1)[0]
    if name == "policy":
        wanted = spec.removeprefix("policy:")
        if not policies:
            raise RequestError(
                "this server loads no policy files (its operator can start it with "
                "--policy-dir DIR); choose a built-in agent"
            )
        if not POLICY_NAME.match(wanted) or wanted not in policies:
            offered = ", ".join(f"policy:{n}" for n in sorted(policies)[:20])
            raise RequestError(f"unknown policy {wanted[:60]!r}; this server offers {offered}")
        return "policy", {"name": wanted}
    if name not in AGENT_OPTIONS or name not in (*AGENT_TYPES, HUMAN):
        allowed = ", ".join([*AGENT_OPTIONS, "policy:NAME"])
        raise RequestError(f"unknown agent {spec[:60]!r}; on this server: {allowed}")
    try:
        name, options = parse_agent_spec(spec)
    except ValueError as e:
        raise RequestError(_line(str(e))) from e
    allowed = AGENT_OPTIONS[name]
    for key, value in options.items():
        if key not in allowed:
            keys = ", ".join(allowed) or "none"
            raise RequestError(f"agent {name}: no option {key[:40]!r} here (options: {keys})")
        rule = allowed[key]
        if rule is bool:
            ok, want = isinstance(value, bool), "true or false"
        elif rule is None:
            ok, want = value in available_games(), "a game name"
        elif isinstance(rule[0], str):
            ok, want = value in rule, "one of " + ", ".join(rule)
        else:
            lo, hi = rule
            number = (int,) if isinstance(lo, int) else (int, float)
            ok = isinstance(value, number) and not isinstance(value, bool)
            ok = ok and math.isfinite(value) and lo <= value <= hi
            want = f"{'an integer' if isinstance(lo, int) else 'a number'} in {lo}..{hi}"
        if not ok:
            raise RequestError(f"agent {name}: {key} must be {want}, got {str(value)[:40]!r}")
    return name, options


def board_png(game: Game, state: np.ndarray, seat: int | None = None) -> str:
    """The rgb_array rendering of ``state`` (as ``seat`` sees it) as a PNG data URL.

    Deus's picture loses its side panel: the page shows that as text (``panel``)."""
    buf = io.BytesIO()
    picture = render_rgb(game, state, seat)
    if game.name == "deus":
        picture = page_legend.deus_map_only(picture)
    Image.fromarray(picture).save(buf, format="PNG", optimize=True)
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
        told = len(actions) - k <= NARRATED
        history.append(play_move(game, state, a, viewer, k + 1, told))
    return state, history


def move_entry(
    game: Game, before: np.ndarray, after: np.ndarray, action: int, viewer: int | None,
    step: int, told: bool = True,
) -> dict:  # fmt: skip
    """A history entry: ``label`` (the action as ``viewer`` may see it), ``text`` (a
    sentence with the visible outcome when ``told``) and the raw ``action``."""
    seat = game.current_player(before)
    label = game.action_label(action, before, None if viewer == seat else viewer)
    outcome = summary(changes(game, before, after, viewer)) if told else ""
    text = f"seat {seat} plays {label}" + (f": {outcome}" if outcome else "")
    return {"step": step, "seat": seat, "label": label, "text": text, "action": int(action)}


def play_move(
    game: Game, state: np.ndarray, action: int, viewer: int | None, step: int, told: bool = True
) -> dict:
    """Play ``action`` on ``state`` (in place) and return its history entry. Only a move
    told with its outcome needs the position before it kept: an untold one's entry reads
    the position before the step only."""
    if not told:
        entry = move_entry(game, state, state, action, viewer, step, told=False)
        game.step(state, action)
        return entry
    before = state.copy()
    game.step(state, action)
    return move_entry(game, before, state, action, viewer, step)


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
        "legal": [
            {"id": a, "label": lab, "detail": _detail(game, lab)}
            for a, lab in legal_listing(game, state)
        ]
        if human_turn
        else [],
        "history": history,
        "layout_hash": game.layout_hash(),
        "stand_in_data": bool(game.spec.stand_in_data),
        "hidden_information": bool(game.spec.hidden_information),
        "clickable": click_map(game.name) is not None,
        "legend": page_legend.picture_legend(game),
        "legend_text": legend(game),
        "panel": page_legend.deus_panel(game, state, viewer) if game.name == "deus" else [],
        "board_scale": BOARD_SCALE.get(game.name, 1.0),
    }


def _detail(game: Game, label: str) -> str:
    """What a legal action's button explains (a Deus card's cost and effect)."""
    return page_legend.deus_card_detail(game, label) if game.name == "deus" else ""


def policy_files(folders: list[Path] | tuple[Path, ...]) -> dict[str, Path]:
    """``NAME -> path`` of every ``NAME.zip`` in the ``--policy-dir`` folders (first wins)."""
    found: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.zip")):
            if path.is_file() and POLICY_NAME.match(path.stem):
                found.setdefault(path.stem, path)
    return found


class AgentCache:
    """Agents built once per spec (loading a policy takes seconds) and reseeded per move;
    the :data:`AGENT_CACHE_SIZE` most recently used are kept. Only specs that passed
    :func:`check_agent_spec` are built, and a policy only from ``policy_dirs``."""

    def __init__(self, policy_dirs: list[Path] | tuple[Path, ...] = ()) -> None:
        self._agents: OrderedDict[str, Any] = OrderedDict()
        self.policy_dirs = tuple(policy_dirs)

    def policies(self) -> dict[str, Path]:
        return policy_files(self.policy_dirs)

    def check(self, spec: str) -> tuple[str, dict]:
        return check_agent_spec(spec, self.policies() if spec.startswith("policy:") else {})

    def _build(self, spec: str) -> Any:
        name, options = self.check(spec)
        try:
            if name == "policy":
                from crusadegym.agents.neural import load_policy_agent

                agent = load_policy_agent(self.policies()[options["name"]], seed=0)
            elif name == "mcts":
                seconds = min(float(options.get("seconds", MAX_MCTS_SECONDS)), MAX_MCTS_SECONDS)
                agent = AGENT_TYPES[name](seed=0, **{**options, "seconds": seconds})
            else:
                agent = AGENT_TYPES[name](seed=0, **options)
        except UserError as e:  # a missing extra, no shipped policy: says what to do
            raise RequestError(f"agent {spec!r}: {_line(str(e))}") from e
        except (KeyError, ValueError, TypeError, OSError, ImportError) as e:
            # no path or library text reaches the page: it could tell what is on the disk
            raise RequestError(f"agent {spec!r} cannot be built ({type(e).__name__})") from e
        agent.name = spec
        return agent

    def move(self, spec: str, game: Game, state: np.ndarray, seed: int, step: int) -> int:
        if spec not in self._agents:
            self._agents[spec] = self._build(spec)
            while len(self._agents) > AGENT_CACHE_SIZE:
                self._agents.popitem(last=False)
        self._agents.move_to_end(spec)
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
        agents.check(spec)
    try:
        check_pretrained_specs(seats, game.name)
    except UserError as e:
        raise RequestError(_line(str(e))) from e
    actions = body.get("actions", [])
    if not isinstance(actions, list):
        raise RequestError("actions must be a list of action ids")
    if len(actions) > MAX_ACTIONS:
        raise RequestError(
            f"this game has {len(actions)} actions; this server plays games of at most "
            f"{MAX_ACTIONS} (start one with a lower max_turns)",
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        )
    actions = list(actions)
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
            if not isinstance(body["text"], str) or len(body["text"]) > 200:
                raise RequestError("text must be a string of at most 200 characters")
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
        history.append(play_move(game, state, action, viewer, len(actions) + 1))
        actions.append(action)
    # the agent seats answer until a human is to move or the game is over, for at most
    # AGENT_SECONDS and MAX_AGENT_MOVES a request: the page asks again (agents_pending)
    deadline = time.perf_counter() + AGENT_SECONDS
    pending = False
    for moved in range(game.max_steps + 1):
        if game.is_terminal(state) or is_human[game.current_player(state)]:
            break
        out_of_budget = moved >= MAX_AGENT_MOVES or (moved and time.perf_counter() > deadline)
        if out_of_budget or len(actions) >= MAX_ACTIONS:
            pending = len(actions) < MAX_ACTIONS
            if not pending:
                raise RequestError(f"this game reached {MAX_ACTIONS} actions, the most this "
                                   "server plays; start one with a lower max_turns",
                                   HTTPStatus.REQUEST_ENTITY_TOO_LARGE)  # fmt: skip
            break
        seat = game.current_player(state)
        action = agents.move(seats[seat], game, state, seed, len(actions))
        history.append(play_move(game, state, action, viewer, len(actions) + 1))
        actions.append(action)
    out = view(game, state, history, seats)
    return {**out, "actions": actions, "seats": seats, "seed": seed, "agents_pending": pending}


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
        if len(rec.actions) > MAX_ACTIONS:
            raise RequestError(f"this replay has {len(rec.actions)} actions; this server "
                               f"shows replays of at most {MAX_ACTIONS}",
                               HTTPStatus.REQUEST_ENTITY_TOO_LARGE)  # fmt: skip
        game, states = replay(rec)
    except RecordError as e:
        raise RequestError(f"cannot watch this replay: {_line(str(e))}") from e
    step = _int(body.get("step", 0), "step")
    if not 0 <= step <= len(rec.actions):
        raise RequestError(f"step must be in 0..{len(rec.actions)}, got {step}")
    history = [
        move_entry(game, states[k], states[k + 1], a, None, k + 1, step - k <= NARRATED)
        for k, a in enumerate(rec.actions[:step])
    ]
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


def meta(replay_dir: Path | None, policies: dict[str, Path] | None = None) -> dict:
    """``GET /api/meta``: the games (with their seat counts), agents (with the
    ``policy:NAME`` of the ``--policy-dir`` folders) and replay files."""
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
    agents += sorted(set(AGENT_TYPES) & set(AGENT_OPTIONS) - set(agents))
    agents += [f"policy:{name}" for name in sorted(policies or {})]
    limits = {"mcts_iterations": MAX_MCTS_ITERATIONS, "mcts_seconds": MAX_MCTS_SECONDS,
              "agent_seconds_per_request": AGENT_SECONDS,
              "agent_moves_per_request": MAX_AGENT_MOVES, "max_actions": MAX_ACTIONS,
              "seats": [2, MAX_SEATS]}  # fmt: skip
    names = [g["name"] for g in games]
    default_game = DEFAULT_GAME if DEFAULT_GAME in names else (names[0] if names else None)
    defaults = {"game": default_game, "opponent": cli_opponent()}
    return {"games": games, "agents": agents, "replays": replays, "limits": limits,
            "defaults": defaults}  # fmt: skip


def cli_opponent() -> str:
    """The agent ``crusadegym play`` sets against you by default (its ``--vs``): the
    page's default for the other seats, so the browser and the terminal agree."""
    return str(build_play_parser().get_default("vs"))


# -- HTTP ----------------------------------------------------------------------------------


def make_handler(
    replay_dir: Path | None, policy_dirs: tuple[Path, ...] = ()
) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to ``replay_dir``, ``policy_dirs`` and one agent cache."""
    agents = AgentCache(policy_dirs)
    lock = threading.Lock()  # one game computation at a time (numba, torch and the cache)

    class Handler(BaseHTTPRequestHandler):
        server_version = "crusadegym-serve"
        timeout = 20  # seconds a client may take to send its request (no slow-drip reads)

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
                self._json(HTTPStatus.OK, meta(replay_dir, agents.policies()))
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
                self._json(e.status, {"error": _line(str(e), 360)})
            except Exception as e:  # noqa: BLE001 - the page gets a line, the server lives on
                # the details (which may name files) go to the server's terminal only
                print(f"crusadegym serve: {path}: {type(e).__name__}", file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
                msg = f"server error ({type(e).__name__}); the server's terminal has the details"
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
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
                raise RequestError(f"request body is not JSON ({_line(str(e), 80)})") from e
            if not isinstance(body, dict):
                raise RequestError("request body must be a JSON object")
            return body

    return Handler


class Server(ThreadingHTTPServer):
    """The threading HTTP server; a connection that fails (a client gone, a read that
    timed out) is one line on the server's terminal, not a traceback."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        err = sys.exc_info()[1]
        if isinstance(err, (ConnectionError, TimeoutError)):
            return  # the client went away or dawdled past Handler.timeout
        print(f"crusadegym serve: a request from {client_address[0]} failed: "
              f"{type(err).__name__}", file=sys.stderr)  # fmt: skip


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    replay_dir: str | Path | None = None,
    policy_dirs: list[str | Path] | tuple[str | Path, ...] = (),
) -> ThreadingHTTPServer:
    """The HTTP server (not started); ``port=0`` picks a free port (``server.server_port``).

    ``policy_dirs``: the folders whose ``NAME.zip`` checkpoints a page may play as
    ``policy:NAME``; none (the default) means no policy file is ever loaded."""
    folder = None if replay_dir is None else Path(replay_dir)
    if folder is not None and not folder.is_dir():
        raise UserError(f"--replays {folder}: no such folder")
    policies = tuple(Path(d).resolve() for d in policy_dirs)
    for d in policies:
        if not d.is_dir():
            raise UserError(f"--policy-dir {d}: no such folder")
    return Server((host, port), make_handler(folder, policies))


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
    p.add_argument("--policy-dir", action="append", default=[], metavar="DIR",
                   help="folder of MaskablePPO checkpoints the page may play, NAME.zip as "
                        "policy:NAME (repeatable; by default no policy file is loaded, and a "
                        "page never names a path)")  # fmt: skip
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port must be in 0..65535, got {args.port}")
    try:
        server = make_server(args.host, args.port, args.replays, args.policy_dir)
    except OSError as e:
        raise UserError(f"cannot listen on {args.host}:{args.port} ({e.strerror})") from e
    host, port = server.server_address[:2]
    print(f"crusadegym serve: open http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    if args.policy_dir:
        names = ", ".join(sorted(policy_files([Path(d) for d in args.policy_dir]))) or "none"
        print(f"crusadegym serve: policies the page may play: {names}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
