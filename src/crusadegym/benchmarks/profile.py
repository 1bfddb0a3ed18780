"""Where the cycles of a batched Deus lo Vult random-play step go (issue #23).

Usage (from the repository root)::

    python -m crusadegym.benchmarks.profile                  # 2 players, default config
    python -m crusadegym.benchmarks.profile --players 3 --games 4 --out runs/bench/profile.json

Method: random play records a fixed corpus of positions (every state of ``--games``
whole games, i.e. the positions the batched driver meets, in the proportions it meets
them) with the action taken in each. Then each kernel runs in its own compiled loop
over the corpus (or over the part of it where the driver calls that kernel), one
thread, and its time per call is the loop's time divided by its calls. A kernel's
share of a step is its time per call times its calls per step (how many corpus
positions it runs on, over the corpus size).

Rows: the legal mask by stage (pick phase, stage 1 = no unit selected, stage 2 = a unit
selected) and, inside it, the two band labellings of stage 1; ``step`` by action kind
(selection, move, strike, ...; a step that ends the turn carries its end-of-turn work);
the stampede scan of the cells a placement can affect (each placement runs it once
before, and looks for new victims once after); the driver's sampler
(RNG + the second pass over the mask); and, for comparison only, ``observe`` (random
playouts do not observe). The total is compared with the batched driver measured on
the same machine (``random_playouts`` at B=1 and B=1024, one thread); the difference
is the driver's own cost (loop, terminal check, restarts) plus cache effects.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import actions as A
from crusadegym.core.deus_lo_vult.layout import PH_PICK, PHASE, SEL
from crusadegym.core.deus_lo_vult.observe import observe
from crusadegym.core.deus_lo_vult.rules import (
    label_bands,
    legal_mask,
    stampede_scan_near,
    step,
)
from crusadegym.core.drivers import pick_legal
from crusadegym.core.jit import get_threads, kjit, set_threads
from crusadegym.core.rng import stream

from .batch import new_batch, playouts

N_ACTIONS = A.N_ACTIONS

# step categories: (name, test on (phase, selected, action))
CATEGORIES = (
    "pick (setup Saracen pick)",
    "select a cell (stage 1)",
    "end turn (stage 1)",
    "move",
    "strike (combat, plunder, steal, kill)",
    "give / take a coin",
    "withdraw / heal / realign / weaken",
    "deploy",
    "spawn a Saracen",
)


def category(phase: int, selected: int, action: int) -> int:
    """Index into :data:`CATEGORIES` of a corpus step."""
    if phase == PH_PICK:
        return 0
    if selected < 0:
        return 2 if action == A.END_TURN else 1
    if action < A.STRIKE0:
        return 3
    if action < A.GIVE0:
        return 4
    if action < A.WITHDRAW:
        return 5
    if action < A.DEPLOY0:
        return 6
    if action < A.PICK0:
        return 7
    return 8


def record_corpus(game, n_games: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Every state of ``n_games`` uniformly random games and the action taken in it."""
    rng = np.random.default_rng(seed)
    k, params = game.k, game.params
    mask = np.zeros(game.num_actions, np.uint8)
    rewards = np.zeros(game.num_players, np.float32)
    states, acts = [], []
    for g in range(n_games):
        state = game.new_state(seed + g)
        while not k.is_terminal(state, params):
            n = k.legal_mask(state, params, mask)
            a = int(np.flatnonzero(mask)[rng.integers(n)])
            states.append(state.copy())
            acts.append(a)
            k.step(state, params, a, rewards)
    return np.array(states), np.array(acts, np.int64)


# ---------------------------------------------------------------- compiled timing loops
@kjit
def _loop_copy(states, idx, scratch):
    s = 0
    for i in idx:
        scratch[:] = states[i]
        s += scratch[0]
    return s


@kjit
def _loop_step(states, acts, idx, params, scratch, rewards):
    s = 0
    for i in idx:
        scratch[:] = states[i]
        step(scratch, params, acts[i], rewards)
        s += scratch[0]
    return s


@kjit
def _loop_legal(states, idx, params, mask):
    s = 0
    for i in idx:
        s += legal_mask(states[i], params, mask)
    return s


@kjit
def _loop_bands(states, idx, bands):
    s = 0
    for i in idx:
        p = states[i, 2]  # CUR
        s += label_bands(states[i], p, False, bands)
        s += label_bands(states[i], p, True, bands)
    return s


@kjit
def _loop_stampede(states, acts, idx, params, out):
    s = 0
    for i in idx:  # a move lifts from the selected cell; a deploy or spawn only puts
        c, a = states[i, SEL], acts[i]
        src, dst = (c, a) if a < A.STRIKE0 else (-1, c)
        s += stampede_scan_near(states[i], params, src, dst, out)
    return s


@kjit
def _loop_observe(states, idx, params, obs):
    s = 0.0
    for i in idx:
        observe(states[i], params, states[i, 2], obs)
        s += obs[0]
    return s


@kjit
def _loop_sample(words, counts, idx, seed):
    rng_state = stream(seed)
    s = 0
    for i in idx:
        s += pick_legal(words[i], counts[i], rng_state)
    return s


def _time(fn, *args, min_seconds: float) -> float:
    """Seconds per corpus pass of ``fn(*args)`` (compiled first, repeated >= min_seconds)."""
    fn(*args)
    reps, t0 = 0, time.perf_counter()
    while True:
        fn(*args)
        reps += 1
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return dt / reps


def profile(game, n_games: int = 6, min_seconds: float = 0.3, seed: int = 0) -> dict:
    """Per-kernel times over a recorded corpus; see the module docstring."""
    before = get_threads()
    set_threads(1)
    try:
        return _profile(game, n_games, min_seconds, seed)
    finally:
        set_threads(before)


def _profile(game, n_games: int, min_seconds: float, seed: int) -> dict:
    states, acts = record_corpus(game, n_games, seed)
    params = game.params
    n = len(states)
    phase, sel = states[:, PHASE], states[:, SEL]
    cats = np.array([category(phase[i], sel[i], acts[i]) for i in range(n)])
    scratch = np.empty(states.shape[1], np.int32)
    rewards = np.zeros(game.num_players, np.float32)
    mask = np.zeros(N_ACTIONS, np.uint8)
    masks = np.zeros((n, (N_ACTIONS + 7) // 8 * 8), np.uint8)  # padded as mask_buffer's
    counts = np.array(
        [legal_mask(states[i], params, masks[i, :N_ACTIONS]) for i in range(n)], np.int64
    )
    rows: list[dict] = []

    def row(group: str, what: str, idx: np.ndarray, seconds_per_pass: float) -> None:
        calls = len(idx)
        rows.append(
            {
                "group": group,
                "what": what,
                "calls_per_step": calls / n,
                "us_per_call": 1e6 * seconds_per_pass / calls if calls else 0.0,
                "us_per_step": 1e6 * seconds_per_pass / n,
            }
        )

    copy = _time(_loop_copy, states, np.arange(n), scratch, min_seconds=min_seconds) / n
    stage = np.where(phase == PH_PICK, 0, np.where(sel < 0, 1, 2))
    for s, name in enumerate(("pick phase", "stage 1 (no selection)", "stage 2 (selected)")):
        idx = np.flatnonzero(stage == s)
        if len(idx):
            row("legal_mask", name, idx, _time(_loop_legal, states, idx, params, mask,
                                               min_seconds=min_seconds))  # fmt: skip
    idx1 = np.flatnonzero(stage == 1)
    bands = np.empty((3, 145), np.int64)
    row("  inside stage 1", "label_bands x2 (army + Saracen)", idx1,
        _time(_loop_bands, states, idx1, bands, min_seconds=min_seconds))  # fmt: skip
    for c, name in enumerate(CATEGORIES):
        idx = np.flatnonzero(cats == c)
        if len(idx):
            t = _time(_loop_step, states, acts, idx, params, scratch, rewards,
                      min_seconds=min_seconds)  # fmt: skip
            row("step", name, idx, max(t - copy * len(idx), 0.0))
    placing = np.flatnonzero((cats == 3) | (cats == 7) | (cats == 8))
    out = np.empty(145, np.int64)
    row("  inside step", "stampede_scan_near (before each placement)", placing,
        _time(_loop_stampede, states, acts, placing, params, out,
              min_seconds=min_seconds))  # fmt: skip
    every = np.arange(n)
    row("sample", "pick_legal (RNG + second mask pass)", every,
        _time(_loop_sample, masks.view(np.uint64), counts, every, 1,
              min_seconds=min_seconds))  # fmt: skip
    obs = np.zeros(game.obs_size, np.float32)
    row("not in playouts", "observe (for comparison)", every,
        _time(_loop_observe, states, every, params, obs, min_seconds=min_seconds))  # fmt: skip
    kernel_us = sum(
        r["us_per_step"] for r in rows if r["group"] in ("legal_mask", "step", "sample")
    )
    driver = {}
    for b in (1, 1024):
        batch = new_batch(game, b, seed)
        seeds = np.arange(b, dtype=np.int64)
        playouts(game, batch, seeds, 1)
        n_steps = max(1, 200_000 // b)
        t0 = time.perf_counter()
        steps = int(playouts(game, batch, seeds + 1, n_steps)[0].sum())
        driver[f"B={b}"] = 1e6 * (time.perf_counter() - t0) / steps
    return {
        "game": game.name,
        "players": game.num_players,
        "corpus_states": n,
        "corpus_games": n_games,
        "rows": rows,
        "kernels_us_per_step": kernel_us,
        "driver_us_per_step": driver,
    }


def format_markdown(result: dict) -> str:
    """The profile as a Markdown table plus the driver comparison."""
    total = result["kernels_us_per_step"]
    lines = [
        "| group | kernel | calls/step | µs/call | µs/step | % of kernels |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        share = "" if r["group"] == "not in playouts" else f"{100 * r['us_per_step'] / total:.1f}"
        lines.append(
            f"| {r['group'].strip()} | {r['what']} | {r['calls_per_step']:.3f} | "
            f"{r['us_per_call']:.3f} | {r['us_per_step']:.3f} | {share} |"
        )
    lines.append(f"| **total** | legal_mask + step + sample | | | **{total:.3f}** | 100 |")
    drv = ", ".join(f"{k}: {v:.3f} µs/step" for k, v in result["driver_us_per_step"].items())
    lines.append("")
    lines.append(
        f"Corpus: {result['corpus_states']:,} positions of {result['corpus_games']} random "
        f"{result['game']}/{result['players']} games. Batched driver, one thread: {drv}."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m crusadegym.benchmarks.profile",
                                description=__doc__.split("\n\n")[0])  # fmt: skip
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=6, help="random games in the corpus")
    p.add_argument("--seconds", type=float, default=0.3, help="minimum seconds per kernel")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = p.parse_args(argv)
    if args.games < 1 or args.seconds <= 0:
        p.error("--games must be >= 1 and --seconds > 0")
    game = make_game("deus_lo_vult", players=args.players)
    result = profile(game, args.games, args.seconds)
    print(format_markdown(result))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
