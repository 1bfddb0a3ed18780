"""Where the cycles of a batched Deus lo Vult random-play step go (issue #23).

Usage (from the repository root)::

    python -m crusadegym.benchmarks.profile                  # 2 players, default config
    python -m crusadegym.benchmarks.profile --players 3 --games 4 --out runs/bench/profile.json
    python -m crusadegym.benchmarks.profile --game deus_lo_vult_campaign --option preset=kyivan

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

The Campaign (``--game deus_lo_vult_campaign``, options such as ``preset=NAME``) gets
the same rows, with the mask split into the Duel's mask under Campaign params and the
Campaign's own actions (``extras.turn_extras``; ``extras.unit_extras`` of the selection,
or probed on every cell in stage 1), and three more step kinds: Campaign actions of a
selection, Campaign turn actions, Gravediggers reactions (a window's mask is its own
row). Its Battle ends and Glory fall in the step row of the action that ended the
Battle.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from crusadegym.agents.options import parse_options
from crusadegym.core.deus_lo_vult import actions as A
from crusadegym.core.deus_lo_vult.campaign import extras as X
from crusadegym.core.deus_lo_vult.campaign import gravediggers as GD
from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options
from crusadegym.core.deus_lo_vult.layout import PH_PICK, PHASE, SEL
from crusadegym.core.deus_lo_vult.rules import label_bands, legal_mask, stampede_scan_near
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
    "Campaign action of the selection",
    "Campaign turn action (stage 1)",
    "Gravediggers reaction (bury / pass)",
)


def category(phase: int, selected: int, action: int, window: bool = False) -> int:
    """Index into :data:`CATEGORIES` of a corpus step (``window``: a Gravediggers
    reaction window is open)."""
    if window:
        return 11
    if action >= N_ACTIONS:
        return 9 if selected >= 0 else 10
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
def _loop_step(step_fn, states, acts, idx, params, scratch, rewards):
    s = 0
    for i in idx:
        scratch[:] = states[i]
        step_fn(scratch, params, acts[i], rewards)
        s += scratch[0]
    return s


@kjit
def _loop_legal(mask_fn, states, idx, params, mask):
    s = 0
    for i in idx:
        s += mask_fn(states[i], params, mask)
    return s


@kjit
def _loop_turn_extras(states, idx, params, mask):
    s = 0
    for i in idx:
        s += X.turn_extras(states[i], params, mask)
    return s


@kjit
def _loop_unit_extras(states, idx, params, mask, every_cell):
    """Campaign actions of the selection (stage 2), or (``every_cell``) stage 1's scan of
    every cell for a selection whose only follow-ups are Campaign actions."""
    s = 0
    for i in idx:
        if every_cell:  # as campaign.game.legal_mask: no cell yet selectable by the Duel
            mask[:] = 0
            s += X.stage1_selections(states[i], params, mask)
        else:
            s += X.unit_extras(states[i], params, states[i, SEL], mask, False)
    return s


@kjit
def _loop_init(init_fn, idx, params, scratch):
    s = 0
    for i in idx:
        init_fn(scratch, params, i)
        s += scratch[0]
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
def _loop_observe(observe_fn, states, idx, params, obs):
    s = 0.0
    for i in idx:
        observe_fn(states[i], params, states[i, 2], obs)
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
    k, params = game.k, game.params
    campaign = game.name != "deus_lo_vult"
    states, acts = record_corpus(game, n_games, seed)
    n = len(states)
    phase, sel = states[:, PHASE], states[:, SEL]
    window = np.array([campaign and GD.pending(st, params) for st in states], bool)
    cats = np.array([category(phase[i], sel[i], acts[i], window[i]) for i in range(n)])
    scratch = np.empty(states.shape[1], states.dtype)
    rewards = np.zeros(game.num_players, np.float32)
    mask = np.zeros(game.num_actions, np.uint8)
    masks = np.zeros((n, (game.num_actions + 7) // 8 * 8), np.uint8)  # as mask_buffer's
    counts = np.array(
        [k.legal_mask(states[i], params, masks[i, : game.num_actions]) for i in range(n)],
        np.int64,
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

    def timed(fn, *args) -> float:
        return _time(fn, *args, min_seconds=min_seconds)

    copy = timed(_loop_copy, states, np.arange(n), scratch) / n
    stage = np.where(window, 3, np.where(phase == PH_PICK, 0, np.where(sel < 0, 1, 2)))
    stages = ("pick phase", "stage 1 (no selection)", "stage 2 (selected)",
              "Gravediggers window")  # fmt: skip
    for s, name in enumerate(stages):
        idx = np.flatnonzero(stage == s)
        if len(idx):
            row("legal_mask", name, idx, timed(_loop_legal, k.legal_mask, states, idx, params,
                                               mask))  # fmt: skip
    idx1 = np.flatnonzero(stage == 1)
    idx2 = np.flatnonzero(stage == 2)
    if campaign:  # the Campaign mask = the Duel's (Campaign hooks) + Campaign actions
        for group, idx in (("  inside stage 1", idx1), ("  inside stage 2", idx2)):
            row(group, "Duel mask (choices.legal_mask, Campaign params)", idx,
                timed(_loop_legal, legal_mask, states, idx, params, mask))  # fmt: skip
        row("  inside stage 1", "turn_extras", idx1,
            timed(_loop_turn_extras, states, idx1, params, mask))  # fmt: skip
        row("  inside stage 1", "stage1_selections (unit_extras probe, every cell)", idx1,
            timed(_loop_unit_extras, states, idx1, params, mask, True))  # fmt: skip
        row("  inside stage 2", "unit_extras of the selection", idx2,
            timed(_loop_unit_extras, states, idx2, params, mask, False))  # fmt: skip
    else:
        bands = np.empty((3, 145), np.int64)
        row("  inside stage 1", "label_bands x2 (army + Saracen)", idx1,
            timed(_loop_bands, states, idx1, bands))  # fmt: skip
    for c, name in enumerate(CATEGORIES):
        idx = np.flatnonzero(cats == c)
        if len(idx):
            t = timed(_loop_step, k.step, states, acts, idx, params, scratch, rewards)
            row("step", name, idx, max(t - copy * len(idx), 0.0))
    if not campaign:
        placing = np.flatnonzero((cats == 3) | (cats == 7) | (cats == 8))
        out = np.empty(145, np.int64)
        row("  inside step", "stampede_scan_near (before each placement)", placing,
            timed(_loop_stampede, states, acts, placing, params, out))  # fmt: skip
    every = np.arange(n)
    row("sample", "pick_legal (RNG + second mask pass)", every,
        timed(_loop_sample, masks.view(np.uint64), counts, every, 1))  # fmt: skip
    starts = np.arange(n_games)  # the driver restarts a game once per game played
    t = timed(_loop_init, k.init, starts, params, scratch)
    rows.append({"group": "init", "what": "init (a restart per finished game)",
                 "calls_per_step": n_games / n, "us_per_call": 1e6 * t / n_games,
                 "us_per_step": 1e6 * t / n})  # fmt: skip
    obs = np.zeros(game.obs_size, np.float32)
    row("not in playouts", "observe (for comparison)", every,
        timed(_loop_observe, k.observe, states, every, params, obs))  # fmt: skip
    kernel_us = sum(
        r["us_per_step"] for r in rows if r["group"] in ("legal_mask", "step", "sample", "init")
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
    lines.append(f"| **total** | legal_mask + step + sample + init | | | **{total:.3f}** | 100 |")
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
    p.add_argument(
        "--game", default="deus_lo_vult", choices=("deus_lo_vult", "deus_lo_vult_campaign")
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game option, repeatable (e.g. preset=kyivan)",
    )
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=6, help="random games in the corpus")
    p.add_argument("--seconds", type=float, default=0.3, help="minimum seconds per kernel")
    p.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = p.parse_args(argv)
    if args.games < 1 or args.seconds <= 0:
        p.error("--games must be >= 1 and --seconds > 0")
    try:
        options = {"players": args.players, **parse_options(args.option)}
    except ValueError as e:
        p.error(str(e))
    game = game_from_options(args.game, options)
    result = profile(game, args.games, args.seconds)
    result["options"] = options
    print(format_markdown(result))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
