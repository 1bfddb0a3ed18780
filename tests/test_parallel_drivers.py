"""The batched drivers' parallel build gives the same games as the plain build.

The suite compiles the drivers without numba's parallel lowering (``tests/conftest.py``,
``core/jit.py: PARALLEL``), about four times faster to compile. Users get the parallel
build, so one child process compiles it and plays the same batches: batched stepping
must equal single stepping there too, and its random playouts must end in exactly the
states the plain build reaches here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from crusadegym.core import drivers, jit, make_game

OPTIONS = {"players": 2, "rounds": 1, "max_turns": 30}
SEEDS = list(range(8))
STEPS = 400

CHILD = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import conformance as kit
from crusadegym.core import drivers, jit, make_game
from test_parallel_drivers import OPTIONS, SEEDS, playout_finals
assert jit.PARALLEL and drivers.batch_step.targetoptions["parallel"]
game = make_game("deus_lo_vult", **OPTIONS)
kit.check_batched_equals_single(game, n_games=4)
print("RESULT " + json.dumps(playout_finals(game).tolist()))
"""


def playout_finals(game) -> np.ndarray:
    """Steps played and a checksum of every game's state after :data:`STEPS` random
    compiled steps from the seeds :data:`SEEDS`."""
    seeds = np.array(SEEDS, np.int64)
    states = game.new_states(seeds)
    steps, finished, empty = drivers.random_playouts(
        game.k.init, game.k.legal_mask, game.k.step, game.k.is_terminal, states,
        game.params, seeds + 1000, STEPS, game.num_actions, game.num_players,
    )  # fmt: skip
    weights = np.arange(1, states.shape[1] + 1, dtype=np.int64)
    return np.stack([steps, finished, empty, states.astype(np.int64) @ weights], 1)


def test_the_suite_compiles_the_plain_drivers():
    assert os.environ[jit.PARALLEL_ENV] == "0"
    assert not jit.PARALLEL and not drivers.batch_step.targetoptions["parallel"]


def test_the_parallel_build_plays_the_same_games():
    tests = Path(__file__).parent
    env = {**os.environ, jit.PARALLEL_ENV: "1", "NUMBA_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(tests)], env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    parallel = np.array(json.loads(line[len("RESULT ") :]))
    plain = playout_finals(make_game("deus_lo_vult", **OPTIONS))
    assert plain[:, 0].min() > 0 and not plain[:, 2].any()
    assert np.array_equal(parallel, plain)
