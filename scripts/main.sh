#!/usr/bin/env bash
# Set up a virtualenv, then run the main job on small defaults: a short self-play training
# run of Deus lo Vult followed by an arena evaluation (see docs/training.md).
set -euo pipefail
EXTRAS="train" source "$(dirname "$0")/_venv.sh"
crusadegym train deus_lo_vult "$@"
