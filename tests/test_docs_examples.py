"""Every ```python block of README.md and docs/**/*.md runs, so the examples cannot rot.

The blocks of one page run in order in one namespace (a later block may use what an
earlier one defined), in a temporary working directory (files an example writes land
there), with matplotlib on its non-interactive backend.

A block that must not run (a fragment, or one that trains for minutes) says so on the
line right before its fence, with a reason::

    <!-- docs-test: skip (a fragment: `game` and `actions` come from your own code) -->

A skip marker without a reason is an error, and so is a fence that names Python in
another way (```py, ```Python), so no example escapes the test by accident.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\S*)\s*$")
SKIP = re.compile(r"^<!--\s*docs-test:\s*skip\b(.*?)-->\s*$")


def python_blocks(page: Path) -> list[tuple[int, str, str | None]]:
    """``(line, code, skip reason or None)`` of each ```python block of ``page``."""
    lines = page.read_text().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match or not match.group(1):
            i += 1
            continue
        lang, start = match.group(1), i
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        if lang.lower() in {"py", "python3"} or (lang.lower() == "python" and lang != "python"):
            raise AssertionError(f"{page.name}:{start + 1}: write ```python, not ```{lang}")
        if lang == "python":
            before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
            skip = SKIP.match(before.strip())
            reason = None
            if skip:
                reason = skip.group(1).strip(" ():-")
                assert reason, f"{page.name}:{start + 1}: a docs-test skip needs a reason"
            blocks.append((start + 1, "\n".join(lines[start + 1 : end]), reason))
        i = end + 1
    return blocks


PAGES_WITH_CODE = [p for p in PAGES if python_blocks(p)]


def test_the_readme_has_examples():
    assert ROOT / "README.md" in PAGES_WITH_CODE


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": f"docs_example_{page.stem}"}
    ran = 0
    for line, code, reason in python_blocks(page):
        if reason is not None:
            continue
        try:
            exec(compile(code, f"{page.relative_to(ROOT)}:{line}", "exec"), namespace)
        except Exception as err:
            raise AssertionError(
                f"the example at {page.relative_to(ROOT)}:{line} fails: {type(err).__name__}: {err}"
            ) from err
        ran += 1
    capsys.readouterr()
    if ran == 0:
        pytest.skip("every example on this page is marked skip")
