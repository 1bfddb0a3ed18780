#!/usr/bin/env bash
# Set up a virtualenv, then run the main job on small defaults: expert iteration (self-play
# guided by the compiled Gumbel search, from the game's own observation) on Deus for a few
# CPU minutes, measured against random and the heuristic before and after
# (see docs/training.md, "The command").
set -euo pipefail
EXTRAS="train" source "$(dirname "$0")/_venv.sh"
crusadegym expert deus --minutes 3 --checkpoint-minutes 3 --eval-vs random,heuristic --eval-games 20 "$@"
