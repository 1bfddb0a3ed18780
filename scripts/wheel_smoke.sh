#!/usr/bin/env bash
# Build the wheel, install it into a fresh venv outside the checkout, and use it from
# there as a new user would: import every module, `crusadegym --help` and `<command>
# --help` for every command, a game played through both registries, a 2-game arena.
#
# The fresh venv has no system site packages and no editable crusadegym. Its
# dependencies (the core ones + the `arena` extra, exactly as the wheel declares them)
# are the copies already installed in .venv, linked in by scripts/wheel_deps.py, so CI
# downloads nothing twice. WHEEL_SMOKE_INDEX=1 installs them from the package index
# instead (a slower, fully independent check).
# Usage: bash scripts/wheel_smoke.sh   (after scripts/_venv.sh has set up .venv)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
WORK="$(mktemp -d /tmp/crusadegym-wheel.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
EXTRAS="arena"

echo "== build the wheel"
# Reuse .venv's setuptools when it can build this pyproject (>= 77); else pip fetches one.
ISOLATION="--no-build-isolation"
"$PY" -c 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' \
  2>/dev/null || ISOLATION=""
"$PY" -m pip wheel --quiet --no-deps $ISOLATION -w "$WORK/dist" "$ROOT"
WHEEL="$(ls "$WORK"/dist/crusadegym-*.whl)"
echo "   $(basename "$WHEEL")"

echo "== fresh venv in $WORK/venv"
"$PY" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
if [ "${WHEEL_SMOKE_INDEX:-0}" = "1" ]; then
  "$VPY" -m pip install --quiet "${WHEEL}[${EXTRAS}]"
else
  "$PY" "$ROOT/scripts/wheel_deps.py" "$WHEEL" "$EXTRAS" "$WORK/deps"
  SITE="$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "$WORK/deps" > "$SITE/wheel_smoke_deps.pth"
  "$VPY" -m pip install --quiet --no-deps --no-index "$WHEEL"
fi

cd "$WORK"  # outside the checkout: nothing of it can be imported by accident
export PATH="$WORK/venv/bin:$PATH" MPLBACKEND=Agg

echo "== import every module"
"$VPY" - "$ROOT" <<'PY'
import importlib, pkgutil, sys
import crusadegym

root = sys.argv[1]
assert not crusadegym.__file__.startswith(root), f"imported the checkout: {crusadegym.__file__}"
from crusadegym.errors import EXTRA_OF_MODULE, UserError

# Modules of the extras not installed here may fail to import, but only by naming an
# optional dependency (or with the one-line error that names the extra to install).
ok, skipped = 0, []
for mod in pkgutil.walk_packages(crusadegym.__path__, "crusadegym."):
    try:
        importlib.import_module(mod.name)
        ok += 1
    except ModuleNotFoundError as err:
        if (err.name or "").split(".")[0] not in EXTRA_OF_MODULE:
            raise SystemExit(f"{mod.name}: {err} (a module the wheel should hold or declare)")
        skipped.append(f"{mod.name} (needs {err.name})")
    except UserError as err:
        if "pip install 'crusadegym[" not in str(err):
            raise
        skipped.append(f"{mod.name} ({err})")
print(f"   {ok} modules imported from {crusadegym.__file__}")
for line in skipped:
    print(f"   not imported, an extra is not installed: {line}")
PY

echo "== crusadegym --help, and --help of every command"
crusadegym --help > /dev/null
for cmd in $("$VPY" -c 'from crusadegym.cli import COMMANDS; print(*COMMANDS)'); do
  set +e
  out="$(crusadegym "$cmd" --help 2>&1)"
  rc=$?
  set -e
  if [ $rc -eq 0 ]; then
    echo "   $cmd --help: ok"
  elif [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "pip install"; then
    echo "   $cmd --help: needs an extra: $out"
  else
    echo "$out"
    echo "crusadegym $cmd --help failed (exit $rc)" >&2
    exit 1
  fi
done

echo "== a game through the core API and both registries"
# Each game compiles its kernels here from cold (the fresh venv has no numba cache), so
# two processes split the games: the Campaign (the longest compile) and the rest.
cat > "$WORK/games.py" <<'PY'
import sys
import gymnasium, numpy as np, pettingzoo
import crusadegym.envs
from crusadegym.core import available_games, make_game
from crusadegym.envs.registration import AEC_IDS, SINGLE_AGENT_IDS

# argv: game names, or "--except" and the names the other process plays
names = sys.argv[1:]
games = [g for g in available_games() if g not in names[1:]] if names[:1] == ["--except"] else names
assert games and set(games) <= set(available_games()), games
rng = np.random.default_rng(0)
for name in games:
    game = make_game(name)
    state = game.new_state(seed=0)
    steps = 0
    while not game.is_terminal(state):
        game.step(state, int(rng.choice(game.legal_actions(state))))
        steps += 1
    print(f"   {name}: {steps} steps, returns {game.returns(state).tolist()}", flush=True)
for env_id in AEC_IDS:
    env = pettingzoo.make("aec", env_id)
    if env.unwrapped.game.name not in games:
        continue
    env.reset(seed=0)
    for agent in env.agent_iter(max_iter=200):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    print(f"   pettingzoo.make('aec', {env_id!r}): 200 steps", flush=True)
for env_id in SINGLE_AGENT_IDS:
    env = gymnasium.make(env_id, opponents="heuristic")
    if env.unwrapped.game.name not in games:
        continue
    obs, _ = env.reset(seed=0)
    for _ in range(100):
        mask = env.unwrapped.action_masks()
        obs, r, term, trunc, _ = env.step(np.array(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            env.reset()
    print(f"   gymnasium.make({env_id!r}, opponents='heuristic'): 100 steps", flush=True)
PY
"$VPY" "$WORK/games.py" deus_lo_vult_campaign &
CAMPAIGN_PID=$!
"$VPY" "$WORK/games.py" --except deus_lo_vult_campaign
wait "$CAMPAIGN_PID"

echo "== crusadegym play: a game between agents"
crusadegym play deus_lo_vult --seats random,heuristic --games 1 --no-save --no-board \
  -o rounds=1 -o max_turns=15

echo "== a 2-game arena"
crusadegym arena deus_lo_vult --agents random,heuristic --games 2 -o rounds=1 -o max_turns=15 \
  --quiet --out "$WORK/arena"
test -s "$WORK/arena/results.json"

echo "== the shipped learned evaluation and selection prior (mcts:value=pretrained:select_prior=pretrained)"
"$VPY" -c 'from crusadegym.agents.learned_value import LearnedValue as V
from crusadegym.agents.select_prior import SelectPrior as P
v, p = V.load("pretrained"), P.load("pretrained")
print("   ", v.game, v.form, v.parameters.size, "weights;", p.game, "prior", p.weights.size, "weights")'

echo "== a user error is one line with exit status 2"
set +e
out="$(crusadegym arena nosuchgame 2>&1)"
rc=$?
set -e
echo "   $out"
[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "expected one line, exit 2" >&2; exit 1; }

echo "wheel smoke test passed"
