# Sourced by the other scripts: create .venv (once) and install crusadegym with extras.
# Usage: EXTRAS="dev,train" source scripts/_venv.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
# torch is pinned in the extras to the CPU build (2.13.0); install it first on its own so
# that no other package can pull a CUDA build.
if [[ ",${EXTRAS}," == *",train,"* ]]; then
  python -m pip install --quiet "torch==2.13.0"
fi
python -m pip install --quiet -e ".[${EXTRAS}]"
