#!/usr/bin/env bash
# Set up a virtualenv, install crusadegym with its test, training, distributed (Ray RLlib) and web
# (Playwright) extras, lint, and run the tests. The browser test drives the system Chromium,
# which this script installs as .ci/run does (scripts/install_browser.sh, from the Debian
# archive); when it cannot, it stops with one line saying how, so that test never skips
# silently. CRUSADEGYM_CHROMIUM=PATH names another Chromium; CRUSADEGYM_SKIP_BROWSER=1 skips
# the browser test on purpose (and says so).
set -euo pipefail
EXTRAS="dev,train,distributed,web" source "$(dirname "$0")/_venv.sh"
if [ "${CRUSADEGYM_SKIP_BROWSER:-0}" = "1" ]; then
    echo "test.sh: CRUSADEGYM_SKIP_BROWSER=1: the browser test (tests/test_serve_browser.py) is skipped"
elif [ -n "${CRUSADEGYM_CHROMIUM:-}" ]; then
    export CRUSADEGYM_REQUIRE_BROWSER=1  # that Chromium, or the test fails (never a skip)
elif bash scripts/install_browser.sh; then
    export CRUSADEGYM_REQUIRE_BROWSER=1
else
    echo "test.sh: the browser test needs Chromium at /usr/bin/chromium: run" \
        "\`sudo bash scripts/install_browser.sh\` (or set CRUSADEGYM_CHROMIUM=PATH," \
        "or CRUSADEGYM_SKIP_BROWSER=1 to skip it)" >&2
    exit 1
fi
# CI slice of the fuzz harness: 4,000 compiled random games per Deus lo Vult test config
# (12,000 in all) with final-state invariants, plus 10 per config checked after every step.
export CRUSADEGYM_SOAK_GAMES="${CRUSADEGYM_SOAK_GAMES:-4000}"
export CRUSADEGYM_SOAK_CHECKED="${CRUSADEGYM_SOAK_CHECKED:-10}"
# Two pytest workers (pytest-xdist), one test file each at a time: most of the suite's time
# is numba compiling, which one process does on one core. CRUSADEGYM_TEST_WORKERS=0 runs
# it in this process.
WORKERS="${CRUSADEGYM_TEST_WORKERS:-2}"
ruff check .
ruff format --check .
if [ "$WORKERS" = "0" ]; then
    python -m pytest -q "$@"
else
    python -m pytest -q -n "$WORKERS" --dist loadfile "$@"
fi
