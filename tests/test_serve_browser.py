"""crusadegym serve in a real headless browser: play to the end by clicking, reload, watch a replay.

Needs the system Chromium (``scripts/install_browser.sh``) and Playwright (the ``web``
extra); skipped, with the reason, when either is missing. Playwright's own browser
download is never used: the test launches ``/usr/bin/chromium``.
"""

from __future__ import annotations

import os
import shutil
import threading

import numpy as np
import pytest

from crusadegym.core import available_games, get_spec, make_game
from crusadegym.core.records import save_replay
from crusadegym.envs import render_dlv as R
from crusadegym.ui.serve import make_server

CHROMIUM = os.environ.get("CRUSADEGYM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TIMEOUT_MS = 120_000

REQUIRED = os.environ.get("CRUSADEGYM_REQUIRE_BROWSER") == "1"
"""Set by scripts/test.sh once it installed Chromium: a missing browser then fails the
test instead of skipping it."""

try:
    from playwright import sync_api
except ImportError:
    if REQUIRED:
        raise
    pytest.skip("playwright is not installed: pip install 'crusadegym[web]'",
                allow_module_level=True)  # fmt: skip
if not (os.path.isfile(CHROMIUM) or shutil.which("chromium")):
    if REQUIRED:
        raise RuntimeError(f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh")
    pytest.skip(
        f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh", allow_module_level=True
    )


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=6)
    state, actions, rng = game.new_state(4), [], np.random.default_rng(4)
    while not game.is_terminal(state):
        actions.append(int(rng.choice(game.legal_actions(state))))
        game.step(state, actions[-1])
    save_replay(folder / "dlv.json", game, 4, actions)
    server = make_server("127.0.0.1", 0, folder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/", actions
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        exe = CHROMIUM if os.path.isfile(CHROMIUM) else shutil.which("chromium")
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    yield pg
    context.close()


def _step(page) -> int:
    return int(page.get_attribute("#status", "data-step") or -1)


def _click_and_wait(page, selector: str) -> None:
    before = _step(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        f"Number(document.getElementById('status').dataset.step) > {before}", timeout=TIMEOUT_MS
    )


def _new_game(page, url, game, options="", seats=("human", "random")):
    page.goto(url)
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    for s, spec in enumerate(seats):
        page.fill(f"#seat-{s}", spec)
    page.fill("#options", options)
    page.click("#new")
    page.wait_for_function("document.getElementById('status').dataset.step !== undefined")


def test_play_tiny_game_to_the_end_by_clicking(page, url):
    _new_game(page, url[0], "tiny_tictactoe")
    for _ in range(10):
        if "Game over" in page.inner_text("#status"):
            break
        _click_and_wait(page, ".action")
    assert "Game over" in page.inner_text("#status")
    assert page.locator(".action").count() == 0
    assert page.locator("#history li").count() == _step(page) > 0


def test_play_deus_lo_vult_to_the_end_reload_and_bad_input(page, url, tmp_path):
    _new_game(page, url[0], "deus_lo_vult", "rounds=1, max_turns=4")
    page.wait_for_selector(".action")
    first = page.locator(".action").first.inner_text()  # e.g. "cell a1": click that cell
    col, row = "abcdefghijkl".index(first[5]), int(first[6:]) - 1
    before = _step(page)
    x, y = R.MARGIN + col * R.CELL + R.CELL // 2, R.HEADER + R.MARGIN + row * R.CELL + R.CELL // 2
    page.click("#board", position={"x": x, "y": y})
    page.wait_for_function(f"Number(document.getElementById('status').dataset.step) > {before}")
    assert page.locator("#history li").first.inner_text().endswith(first)
    for _ in range(3):
        _click_and_wait(page, ".action")
    board, moves = page.inner_text("#board-text"), page.locator("#history li").count()
    page.reload()  # the game lives in the address: nothing is lost
    page.wait_for_function(f"document.querySelectorAll('#history li').length === {moves}")
    assert page.inner_text("#board-text") == board
    # an illegal typed move: a clear error, and the game is unchanged
    page.fill("#move-text", "strike N")
    page.click("#typed button")
    page.wait_for_selector("#error:not([hidden])")
    assert "not legal" in page.inner_text("#error")
    assert page.locator("#history li").count() == moves
    for _ in range(600):
        if "Game over" in page.inner_text("#status"):
            break
        _click_and_wait(page, ".action")
    assert "Game over" in page.inner_text("#status")
    shot = tmp_path / "play.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000


def test_agents_only_game_continues_over_requests(page, url, monkeypatch):
    """Agent seats think a bounded time a request; the page asks again until the end.

    With no thinking time a request plays one agent move, so a fast machine cannot finish
    the game in a single request."""
    from crusadegym.ui import serve

    monkeypatch.setattr(serve, "AGENT_SECONDS", 0.0)
    requests, play = [], serve.play

    def counted(body, agents):
        requests.append(1)
        return play(body, agents)

    monkeypatch.setattr(serve, "play", counted)
    _new_game(page, url[0], "deus", "max_turns=40", seats=("random", "random"))
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('Game over')",
        timeout=TIMEOUT_MS,
    )
    assert page.locator("#history li").count() == _step(page) > 0
    assert not page.locator("#error").is_visible() and len(requests) >= 2


def test_stale_and_malformed_links_show_errors(page, url):
    page.goto(url[0] + "#mode=play&game=tiny_tictactoe&seed=0&seats=human,random&actions=99")
    page.wait_for_selector("#error:not([hidden])")
    assert "stale game" in page.inner_text("#error")
    page.goto(url[0] + "#mode=play&game=tiny_tictactoe&seed=0&seats=human,random&actions=x")
    page.reload()
    page.wait_for_selector("#error:not([hidden])")
    assert "must be an integer" in page.inner_text("#error")


def test_watch_a_replay(page, url):
    page.goto(url[0])
    page.click("#tab-watch")
    page.wait_for_selector("#replay-list option[value='dlv.json']", state="attached")
    page.select_option("#replay-list", "dlv.json")
    page.wait_for_function("document.getElementById('step-label').textContent.includes('/')")
    for k in range(1, 4):
        page.click("#next")
        page.wait_for_function(
            f"document.getElementById('step-label').textContent.startsWith('step {k} ')"
        )
    assert page.locator("#watch-history li").count() == 3
    page.click("#last")
    total = len(url[1])
    page.wait_for_function(
        f"document.getElementById('step-label').textContent === 'step {total} / {total}'"
    )
    assert "Game over" in page.inner_text("#watch-status")
    legend = page.inner_text("#watch-legend")  # the replay's marks are explained too
    assert "slot" in legend and "green cell" in legend and "camp" in legend
    page.reload()  # the step is in the address too
    page.wait_for_function(
        f"document.getElementById('step-label').textContent === 'step {total} / {total}'"
    )


def test_watch_a_replay_opened_from_disk(page, url, tmp_path):
    game = make_game("tiny_tictactoe")
    state, actions = game.new_state(1), []
    while not game.is_terminal(state):
        actions.append(int(game.legal_actions(state)[0]))
        game.step(state, actions[-1])
    save_replay(tmp_path / "mine.json", game, 1, actions)
    page.goto(url[0])
    page.click("#tab-watch")
    page.set_input_files("#replay-file", str(tmp_path / "mine.json"))
    label = f"step 0 / {len(actions)}"
    page.wait_for_function(f"document.getElementById('step-label').textContent === '{label}'")
    page.click("#autoplay")  # plays to the end by itself
    done = f"step {len(actions)} / {len(actions)}"
    page.wait_for_function(f"document.getElementById('step-label').textContent === '{done}'")
    page.reload()  # an uploaded replay is kept in localStorage
    page.wait_for_function(f"document.getElementById('step-label').textContent === '{done}'")


def test_a_link_opens_a_game_mid_way(page, url):
    """A game's address is the game: open one half-played, against the heuristic."""
    half = url[1][: len(url[1]) // 2]
    hash_ = (
        "#mode=play&game=deus_lo_vult&seed=4&seats=human,heuristic"
        '&options={"rounds":1,"max_turns":6}&actions=' + ".".join(map(str, half))
    )
    page.goto(url[0] + hash_)
    page.wait_for_selector(".action")
    assert page.locator("#history li").count() >= len(half)
    assert page.input_value("#seat-1") == "heuristic"
    docs_shot = os.environ.get("CRUSADEGYM_DOCS_SCREENSHOT")  # e.g. docs/img/play_browser.png
    if docs_shot:
        page.screenshot(path=docs_shot)


@pytest.mark.parametrize("name", available_games())
def test_every_game_opens_and_takes_a_click(page, url, name):
    opts = dict(get_spec(name).test_configs[0])
    players = opts.pop("players", 2)
    page.goto(url[0])
    page.wait_for_selector(f"#game option[value={name}]", state="attached")
    page.select_option("#game", name)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#options", ", ".join(f"{k}={v}" for k, v in opts.items()))
    page.click("#new")
    page.wait_for_selector(".action")
    _click_and_wait(page, ".action")
    assert page.locator("#history li").count() >= 1
    assert page.get_attribute("#board", "src").startswith("data:image/png")


FONT_PX = (
    "(sel) => [...document.querySelectorAll(sel)]"
    ".map((e) => parseFloat(getComputedStyle(e).fontSize))"
)


SWATCH_CONTRAST = (  # each legend swatch with a mark: |luma(mark colour) - luma(fill)|
    "() => [...document.querySelectorAll('#legend .swatch')].filter((e) => e.textContent)"
    ".map((e) => { const s = getComputedStyle(e);"
    " const luma = (c) => { const [r, g, b] = c.match(/[0-9.]+/g).map(Number);"
    " return 0.299 * r + 0.587 * g + 0.114 * b; };"
    " const fill = s.backgroundColor.startsWith('rgba(0, 0, 0, 0)') ? 'rgb(255,255,255)'"
    " : s.backgroundColor;"
    " return [e.textContent, Math.abs(luma(s.color) - luma(fill))]; })"
)
MIN_SWATCH_CONTRAST = 90
"""Luma difference (0-255) between a legend mark and its swatch: white marks on pale
fills (a Crusaders tile, a wheel wedge) were about 15."""


def _font_sizes(page, selector: str) -> list[float]:
    sizes = page.evaluate(FONT_PX, selector)
    assert sizes, f"nothing matches {selector}"
    return sizes


def test_start_page_no_broken_image_a_favicon_and_the_cli_defaults(page, url):
    """Before any game: no image without a picture, no 404 (the favicon), and the seats
    preset as `crusadegym play` sets them (you against its --vs agent)."""
    from crusadegym.agents.match import build_parser

    failed = []
    page.on("response", lambda r: failed.append((r.url, r.status)) if r.status >= 400 else None)
    page.goto(url[0])
    page.wait_for_selector("#game option[value=deus]", state="attached")
    page.wait_for_load_state("networkidle")
    broken = page.evaluate(
        "[...document.images].filter((i) => i.offsetParent !== null"
        " && (!i.getAttribute('src') || i.naturalWidth === 0)).length"
    )
    assert broken == 0
    assert page.is_visible("#board-empty") and not page.is_visible("#board")
    icon = page.get_attribute("link[rel=icon]", "href")
    resp = page.request.get(url[0].rstrip("/") + icon)
    assert resp.status == 200 and resp.headers["content-type"] == "image/svg+xml"
    assert page.request.get(url[0] + "favicon.ico").status == 200
    assert failed == []
    assert page.input_value("#seat-0") == "human"
    assert page.input_value("#seat-1") == build_parser().get_default("vs")
    assert page.input_value("#game") == "deus_lo_vult"


def test_deus_is_readable_cards_legend_sentences_and_one_hidden_note(page, url, tmp_path):
    _new_game(page, url[0], "deus", "", seats=("human", "heuristic"))
    page.wait_for_selector(".action .detail")  # the first turn: cards to build or offer
    cards = page.locator(".action .detail")
    assert " cost " in cards.first.inner_text()
    # readable: the panel, legend, card texts at 13 px or more
    for selector in ("#panel p", "#panel h3", "#legend li span", ".legal .detail"):
        assert min(_font_sizes(page, selector)) >= 13, selector
    panel = page.inner_text("#panel")
    assert "seat 0 (you)" in panel and " cost " in panel and "general supply" in panel
    legend = page.inner_text("#legend")
    for terrain in ("field", "forest", "swamp", "mountain", "sea", "village"):
        assert f"{terrain} region" in legend
    for _ in range(4):  # some moves: the history fills, the note stays single
        _click_and_wait(page, ".action")
    page.wait_for_selector(".action")
    assert min(_font_sizes(page, "#history li")) >= 13
    # the map is shown at its own pixels, so its 16 px labels stay 16 px (not shrunk)
    width, natural = page.evaluate("[board.clientWidth, board.naturalWidth]")
    assert width >= natural
    # the history in sentences, the raw action as the tooltip
    first = page.locator("#history li").first
    assert first.inner_text().startswith("seat 0 plays ")
    assert (first.get_attribute("title") or "").startswith("action ")
    # the hidden-information note once, under the board, not in the status
    assert "hidden information" not in page.inner_text("#status").lower()
    assert page.is_visible("#note")
    assert page.inner_text("body").count("Hidden information") == 1
    shot = tmp_path / "deus.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def _wait_for_turn_or_end(page) -> bool:
    """Wait until the human has actions or the game is over; True when it is over."""
    page.wait_for_function(
        "document.querySelector('.action') || "
        "document.getElementById('status').textContent.includes('Game over')"
    )
    return "Game over" in page.inner_text("#status")


def test_play_the_campaign_to_the_end_clicking_its_board(page, url):
    """The Campaign's Battles are drawn like the Duel and clicked the same way."""
    _new_game(page, url[0], "deus_lo_vult_campaign", "battles=1, max_turns=4",
              seats=("human", "heuristic"))  # fmt: skip
    clicks = 0
    for _ in range(300):
        if _wait_for_turn_or_end(page):
            break
        labels = page.locator(".action").all_inner_texts()
        cell = next((lab for lab in labels if lab.startswith("cell ")), None)
        before = _step(page)
        if cell and (clicks < 6 or "end" not in labels):
            col, row = "abcdefghijkl".index(cell[5]), int(cell[6:]) - 1
            x = R.MARGIN + col * R.CELL + R.CELL // 2
            y = R.HEADER + R.MARGIN + row * R.CELL + R.CELL // 2
            page.click("#board", position={"x": x, "y": y})
            clicks += 1
        else:
            page.locator(".action").nth(labels.index("end") if "end" in labels else 0).click()
        page.wait_for_function(
            f"Number(document.getElementById('status').dataset.step) > {before}"
            " || !document.getElementById('error').hidden"
        )
        assert not page.is_visible("#error"), page.inner_text("#error")
    assert "Game over" in page.inner_text("#status") and clicks >= 1
    assert page.locator("#history li").count() == _step(page)
    assert "slot" in page.inner_text("#legend")


def _play_to_the_end_by_buttons(page, limit: int) -> int:
    """Click the first action button until the game is over; the number of clicks."""
    clicks = 0
    for _ in range(limit):
        if _wait_for_turn_or_end(page):
            break
        _click_and_wait(page, ".action")
        assert not page.is_visible("#error"), page.inner_text("#error")
        clicks += 1
    assert "Game over" in page.inner_text("#status")
    assert page.locator(".action").count() == 0
    assert page.locator("#history li").count() == _step(page) > clicks
    return clicks


@pytest.mark.parametrize(
    ("name", "max_turns"), [("deus", 4), ("crusaders", 3)], ids=["deus", "crusaders"]
)
def test_play_deus_and_crusaders_to_the_end_by_clicking(page, url, name, max_turns):
    """Deus and Crusaders against random, a short game, every human move a button click."""
    _new_game(page, url[0], name, f"max_turns={max_turns}")
    assert _play_to_the_end_by_buttons(page, 200) >= 3
    assert page.get_attribute("#board", "src").startswith("data:image/png")


LEGEND_WORD = {  # a phrase each mode's picture legend must show
    "deus_lo_vult": "slot",
    "deus_lo_vult_campaign": "slot",
    "deus": "field region",
    "crusaders": "enemy disc",
}
READABLE_PX = 12
"""Smallest computed font size (CSS px) of the page's legend, panel, status and buttons."""


@pytest.mark.parametrize("name", list(LEGEND_WORD))
def test_every_mode_has_a_visible_legend_and_readable_text(page, url, name):
    """Each mode: a visible legend under the board naming its marks, each mark legible on
    its swatch, every legend, status, button and history text at 12 px or more, and the
    picture not shrunk below its pixels (its drawn labels keep their size)."""
    options = {"deus_lo_vult": "rounds=1", "deus_lo_vult_campaign": "battles=1"}.get(name, "")
    _new_game(page, url[0], name, options, seats=("human", "heuristic"))
    page.wait_for_selector(".action")
    page.wait_for_function("document.getElementById('board').complete")
    assert page.is_visible("#legend") and page.locator("#legend li").count() >= 5
    assert LEGEND_WORD[name] in page.inner_text("#legend")
    faint = [(m, c) for m, c in page.evaluate(SWATCH_CONTRAST) if c < MIN_SWATCH_CONTRAST]
    assert not faint, faint
    for selector in ("#legend li span", "#legend h2", "#status", ".legal button"):
        assert min(_font_sizes(page, selector)) >= READABLE_PX, selector
    _click_and_wait(page, ".action")
    assert min(_font_sizes(page, "#history li")) >= READABLE_PX
    width, natural = page.evaluate("[board.clientWidth, board.naturalWidth]")
    assert width >= natural, (width, natural)
