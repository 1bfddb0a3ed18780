#!/usr/bin/env bash
# Set up a virtualenv, install crusadegym with its test/training extras, lint, and run the tests.
set -euo pipefail
EXTRAS="dev,train" source "$(dirname "$0")/_venv.sh"
ruff check .
ruff format --check .
python -m pytest -q "$@"
