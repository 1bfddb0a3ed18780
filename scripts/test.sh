#!/usr/bin/env bash
# Set up a virtualenv, install crusadegym with its test, training, distributed (Ray RLlib) and web
# (Playwright) extras, lint, and run the tests. The browser test drives the system Chromium,
# which scripts/install_browser.sh installs from the Debian archive (it skips, saying why, without).
set -euo pipefail
EXTRAS="dev,train,distributed,web" source "$(dirname "$0")/_venv.sh"
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
