"""What the serve page shows beside the board (issue #39, browser goals), over HTTP:
a favicon shipped as package data, the CLI's default opponent, a history of sentences
with the raw action kept, Deus cards with cost and effect and its table as text, and a
legend for every mark of the pictures (the Duel's "slot" and green cells included)."""

from __future__ import annotations

import base64
import fnmatch
import io
import threading
import urllib.request
from pathlib import Path

import pytest
from PIL import Image
from test_serve import call, play

from crusadegym.agents.match import build_parser
from crusadegym.core import make_game
from crusadegym.core.records import save_replay
from crusadegym.envs import render_deus
from crusadegym.envs.render import render_rgb
from crusadegym.ui import serve
from crusadegym.ui.serve import make_server

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def url():
    server = make_server("127.0.0.1", 0, None)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("path", ["/favicon.ico", "/static/favicon.svg"])
def test_the_favicon_is_served(url, path):
    with urllib.request.urlopen(url + path, timeout=30) as resp:
        assert resp.status == 200 and resp.headers["Content-Type"] == "image/svg+xml"
        assert resp.read().startswith(b"<svg")
    with urllib.request.urlopen(url + "/", timeout=30) as resp:
        assert b'rel="icon" href="/static/favicon.svg"' in resp.read()


def test_every_static_file_is_package_data():
    """The wheel carries every file the page serves (pyproject's package-data globs)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["crusadegym"]
    for name, _ in set(serve.STATIC_FILES.values()):
        assert (serve.STATIC_DIR / name).is_file()
        assert any(fnmatch.fnmatch(f"ui/static/{name}", g) for g in globs), name


def test_the_page_defaults_to_the_cli_opponent(url):
    status, meta = call(url, "/api/meta")
    assert status == 200
    assert meta["defaults"]["opponent"] == build_parser().get_default("vs") == "heuristic"
    assert meta["defaults"]["game"] in [g["name"] for g in meta["games"]]


def test_history_reads_as_sentences_with_the_raw_action_kept(url):
    body = {"game": "deus_lo_vult", "options": {"rounds": 1, "max_turns": 4}, "seed": 0,
            "seats": ["human", "heuristic"]}  # fmt: skip
    status, v = play(url, {**body, "text": "a1"})
    status, v = play(url, {**body, "actions": v["actions"], "text": "deploy pilgrim"})
    assert status == 200, v
    first, second = v["history"][:2]
    assert first["text"] == "seat 0 plays cell a1" and first["label"] == "cell a1"
    assert isinstance(first["action"], int) and first["action"] == v["actions"][0]
    assert second["text"].startswith("seat 0 plays deploy pilgrim: ")
    assert "pilgrim entered at a1" in second["text"]  # the outcome, not only the action


def test_deus_cards_show_cost_and_effect_and_the_table_is_text(url):
    body = {"game": "deus", "options": {}, "seed": 0, "seats": ["human", "heuristic"]}
    status, v = play(url, body)
    assert status == 200 and v["human_to_move"]
    cards = [a for a in v["legal"] if a["detail"]]
    assert cards and all(" cost " in a["detail"] and ": " in a["detail"] for a in cards)
    assert all(a["detail"].split()[0] in a["label"] for a in cards)  # the card it names
    you, rival, table = v["panel"]
    assert you["title"].startswith("seat 0 (you): gold") and len(you["cards"]) >= 1
    assert all(" cost " in c for c in you["cards"])
    assert rival["cards"] == [] and "VP ?" not in rival["title"]  # the hand stays hidden;
    # VP are public (docs/rules/deus.md, "Hidden information")
    assert any(line.startswith("general supply") for line in table["lines"])
    # the picture is the map only (its panel is the text above), shown at its own pixels
    png = Image.open(io.BytesIO(base64.b64decode(v["board_png"].split(",", 1)[1])))
    game = make_game("deus", players=2)
    full = render_rgb(game, game.new_state(0), 0)
    assert png.width == full.shape[1] - render_deus.PANEL and v["board_scale"] == 1
    terrains = {item["text"] for item in v["legend"] if item["fill"]}
    assert {"field region", "forest region", "sea region", "village region"} <= terrains


@pytest.mark.parametrize("name", ["deus_lo_vult", "deus_lo_vult_campaign"])
def test_the_duel_legend_names_slots_green_cells_and_camps(name):
    from crusadegym.envs import render_dlv as R
    from crusadegym.ui.legend import picture_legend

    game = make_game(name, players=2)
    items = picture_legend(game)
    fills = {item["fill"] for item in items}
    hexes = {"#" + "".join(f"{v:02x}" for v in c) for c in (R.GREEN_CELL, R.SLOT_CELL)}
    assert hexes <= fills
    assert any(item["mark"] == "slot" for item in items)
    assert sum("camp:" in item["text"] for item in items) == 2
    assert all(item["text"] for item in items)


def test_watching_a_replay_tells_sentences_and_has_the_legend(url, tmp_path):
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=4)
    state, actions = game.new_state(3), []
    while not game.is_terminal(state) and len(actions) < 30:
        actions.append(int(game.legal_actions(state)[0]))
        game.step(state, actions[-1])
    save_replay(tmp_path / "r.json", game, 3, actions)
    text = (tmp_path / "r.json").read_text()
    status, v = call(url, "/api/replay", {"replay": text, "step": len(actions)})
    assert status == 200, v
    assert [h["action"] for h in v["history"]] == actions
    assert all(h["text"].startswith(f"seat {h['seat']} plays ") for h in v["history"])
    assert any(item["mark"] == "slot" for item in v["legend"])


def test_the_campaign_board_is_clicked_like_the_duel(url):
    from crusadegym.envs import render_dlv as R

    body = {"game": "deus_lo_vult_campaign", "options": {"battles": 1, "max_turns": 4},
            "seed": 1, "seats": ["human", "human"], "actions": []}  # fmt: skip
    clicks = 0
    while clicks < 3:
        status, v = call(url, "/api/play", body)
        assert status == 200 and v["clickable"] and not v["over"]
        cells = [a["label"] for a in v["legal"] if a["label"].startswith("cell ")]
        if not cells:  # e.g. deploy KIND after a camp cell: a button
            body = {**body, "actions": v["actions"] + [v["legal"][0]["id"]]}
            continue
        col, row = "abcdefghijkl".index(cells[0][5]), int(cells[0][6:]) - 1
        x = R.MARGIN + col * R.CELL + R.CELL // 2
        y = R.HEADER + R.MARGIN + row * R.CELL + R.CELL // 2
        status, after = call(url, "/api/play", {**body, "click": [x, y]})
        assert status == 200 and after["history"][-1]["label"] == cells[0], after.get("error")
        body, clicks = {**body, "actions": after["actions"]}, clicks + 1
