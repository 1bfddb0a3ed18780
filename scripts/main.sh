#!/usr/bin/env bash
# Set up a virtualenv, then run the main job on small defaults: a short self-play training
# run of Deus lo Vult (a residual policy over the heuristic's advice, so a few minutes
# already give an opponent that beats random) followed by an arena evaluation
# (see docs/training.md, "The command").
set -euo pipefail
EXTRAS="train" source "$(dirname "$0")/_venv.sh"
crusadegym train deus_lo_vult --advice heuristic "$@"
