"""Screenshots of the browser page, one per game mode: docs/img/play_<game>.png.

    python scripts/screenshots.py [--out docs/img] [--chromium /usr/bin/chromium]

Starts ``crusadegym serve``'s server in-process on loopback, opens a game of each mode
(you against the heuristic), plays a few moves by clicking the first listed action (the
Campaign: a seeded random one, never ``withdraw``), and saves the viewport (1280x900),
longer when the legend under the board reaches lower, as a 256-colour PNG. Needs
Playwright (the ``web`` extra) and the system Chromium (``scripts/install_browser.sh``).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
from pathlib import Path

from PIL import Image
from playwright import sync_api

from crusadegym.ui.serve import make_server

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
MODES = [  # game, options, moves to play before the shot, clicking the first action or not
    ("deus_lo_vult", "rounds=1", 8, True),
    ("deus_lo_vult_campaign", "preset=kyivan", 30, False),
    ("deus", "", 4, True),
    ("crusaders", "", 4, True),
]
TIMEOUT_MS = 180_000
VIEWPORT = {"width": 1280, "height": 900}


def _step(page) -> int:
    return int(page.get_attribute("#status", "data-step") or -1)


def shoot(page, url: str, game: str, options: str, moves: int, first: bool, path: Path) -> None:
    rng = random.Random(0)
    page.goto(url)
    page.wait_for_selector(f"#game option[value={game}]", state="attached")
    page.select_option("#game", game)
    page.fill("#players", "2")
    page.dispatch_event("#players", "change")
    page.fill("#seat-0", "human")
    page.fill("#seat-1", "heuristic")
    page.fill("#options", options)
    page.click("#new")
    for _ in range(moves):
        page.wait_for_function(
            "document.querySelector('.action') || "
            "document.getElementById('status').textContent.includes('Game over')"
        )
        if "Game over" in page.inner_text("#status"):
            break
        labels = page.locator(".action").all_inner_texts()
        pick = [k for k, lab in enumerate(labels) if not lab.startswith("withdraw")]
        before = _step(page)
        page.locator(".action").nth(0 if first or not pick else rng.choice(pick)).click()
        page.wait_for_function(f"Number(document.getElementById('status').dataset.step) > {before}")
    page.wait_for_selector(".action")
    page.wait_for_function("document.getElementById('board').complete")
    if page.is_visible("#error"):
        raise RuntimeError(f"{game}: {page.inner_text('#error')}")
    page.evaluate("window.scrollTo(0, 0)")
    # at least the viewport, and down to the legend's last line when it reaches lower
    bottom = page.evaluate(
        "Math.ceil(document.getElementById('legend').getBoundingClientRect().bottom)"
    )
    height = max(VIEWPORT["height"], bottom + 12)
    page.screenshot(
        path=str(path),
        full_page=True,
        clip={"x": 0, "y": 0, "width": VIEWPORT["width"], "height": height},
    )
    with Image.open(path) as im:  # 256 colours: a third of the size, the text unchanged
        im.convert("RGB").quantize(256).save(path, optimize=True)
    print(f"{path}: {path.stat().st_size // 1000} kB, {_step(page)} moves")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("docs/img"))
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--games", nargs="*", help="only these games")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    server = make_server("127.0.0.1", 0, Path(tempfile.mkdtemp()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for game, options, moves, first in MODES:
                if args.games and game not in args.games:
                    continue
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                shoot(page, url, game, options, moves, first, args.out / f"play_{game}.png")
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
