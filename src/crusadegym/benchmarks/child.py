"""Run a measurement in a fresh Python process (clean caches, clean memory).

The child receives its arguments as JSON, re-registers a game that was registered
from outside the package (e.g. the test-suite's tiny game), runs ``code`` and
prints one ``RESULT {json}`` line, which :func:`run_child` returns as a dict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding the crusadegym package

PREAMBLE = r"""
import importlib, importlib.util, json, sys, time
args = json.loads(sys.argv[1])
def since():
    return time.time() - args["t_spawn"]
out = {}
sys.path.insert(0, args["root"])
import numpy as np
from crusadegym.core import make_game, register
from crusadegym.benchmarks.batch import new_batch, playouts
if args["spec_file"]:
    _spec = importlib.util.spec_from_file_location(args["spec_module"], args["spec_file"])
    _mod = importlib.util.module_from_spec(_spec)
    sys.modules[args["spec_module"]] = _mod
    _spec.loader.exec_module(_mod)
    register(_mod.SPEC)
"""


def spec_source(game: Any) -> tuple[str | None, str | None]:
    """(module name, file) of a game registered from outside the package, else (None, None)."""
    for name, module in list(sys.modules.items()):
        if getattr(module, "SPEC", None) is game.spec:
            if name.startswith("crusadegym."):
                return None, None
            return name, getattr(module, "__file__", None)
    return None, None


def run_child(
    code: str,
    game: Any,
    options: dict,
    extra: dict | None = None,
    env_updates: dict | None = None,
    timeout: float = 600,
) -> dict:
    """Run ``PREAMBLE + code`` in a new interpreter; return its ``RESULT`` dict.

    ``args`` in the child holds ``game``, ``options``, ``t_spawn`` (parent's spawn
    time, for :func:`since`) and ``extra``; ``env_updates`` are set in the child's
    environment (a value of None removes the variable).
    """
    spec_module, spec_file = spec_source(game)
    env = dict(os.environ)
    for key, value in (env_updates or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    args = {
        "game": game.name,
        "options": options,
        "spec_module": spec_module,
        "spec_file": spec_file,
        "extra": extra or {},
        "root": ROOT,
        "t_spawn": time.time(),
    }
    proc = subprocess.run(
        [sys.executable, "-c", PREAMBLE + code, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"benchmark child failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
