"""Soak test: play many random games per game and config, looking for anything that breaks.

Two modes run for every (game, config):

* **compiled**: exactly ``n_games`` random games through the batched driver
  :func:`crusadegym.core.drivers.random_playouts`, chunk by chunk, one game a slot (a
  finished game is not restarted, so ``--n-games 200`` plays 200). It detects empty
  legal masks inside a running game and games longer than ``max_steps``. A game
  whose spec has a compiled ``invariant_kernel`` (Deus lo Vult) has its invariants
  checked on every state it reaches (:func:`_invariant_playouts`, the same action
  choices as the driver); other games on a sample of the final states of every chunk.
* **differential**: ``--differential`` random games per config played on the engine and
  on the game's plain-Python reference of the whole step (``core/<game>/differential.py``),
  which must agree on the decoded state and rewards after every step and on the legal
  actions before every step.
* **checked**: ``checked_games`` random games stepped one action at a time through
  the checked :class:`~crusadegym.core.Game` API, with ``game.check_invariants``
  after every step, plus masks, seats, rewards, observations, the end of the game
  (empty mask, seat -1, step rewards summing to the returns) and a replay of it.

Every failure is written as a minimal replay (seed + the actions up to the first
failing step, see :mod:`crusadegym.core.records`) to ``--out`` and listed in the
summary. A compiled-mode failure is reproduced by re-running its slot with
:func:`_trace_slot`, which mirrors the driver's action choice exactly.

    crusadegym soak --games deus_lo_vult --configs all --n-games 100000 --checked-games 200
    crusadegym soak --games deus_lo_vult_campaign --configs presets --n-games 1000
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field

import numba
import numpy as np
from tqdm import tqdm

from crusadegym import __version__
from crusadegym.cli_help import command_parser
from crusadegym.core import Game, available_games, get_spec, make_game
from crusadegym.core.drivers import random_playouts
from crusadegym.core.jit import kjit, pjit, prange, set_threads
from crusadegym.core.records import make_replay, replay, save_replay
from crusadegym.core.rng import next_u64, pick_uniform, stream

SEED_LIMIT = 1 << 62


@dataclass
class Failure:
    """One failing game: how to reproduce it and what went wrong."""

    mode: str
    seed: int
    actions: list[int]
    message: str
    final_state: np.ndarray | None = None
    legal_actions: bool = True
    """False when the last action crashed ``step``; the replay is then not re-verified."""


@dataclass
class CaseResult:
    """Counters of one (game, config, mode) run."""

    game: str
    config: str
    mode: str
    games: int = 0
    steps: int = 0
    invariant_checks: int = 0
    failures: int = 0
    seconds: float = 0.0
    replays: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


# -- configs ----------------------------------------------------------------------------


def parse_options(text: str) -> dict:
    """``"players=3,deployment=saracenic"`` -> options dict; ``"default"`` -> ``{}``."""
    if text in ("", "default"):
        return {}
    options = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"bad config {text!r}: expected key=value[,key=value...]")
        options[key.strip()] = _parse_value(value.strip())
    return options


def _parse_value(value: str) -> bool | int | str | tuple:
    """``true``/``false``, an integer, ``a/b/c`` (a tuple, e.g. one Hero per seat: ``heroes=
    eleanor_of_aquitaine//`` ; an empty entry is ""), else the text."""
    if "/" in value:
        return tuple(value.split("/"))
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    try:
        return int(value)
    except ValueError:
        return value


def config_name(options: dict) -> str:
    """The name of a config on the command line and in the summary."""

    def text(v) -> str:
        return "/".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)

    return ",".join(f"{k}={text(v)}" for k, v in options.items()) or "default"


def resolve_configs(game_name: str, selectors: list[str]) -> list[dict]:
    """Options dicts for ``selectors`` ('all' = the game's declared test configs;
    'presets' or 'presets:OPTIONS' = every Conventional Preset of the Campaign by name,
    each with OPTIONS, e.g. ``presets:battles=2,max_turns=40``)."""
    configs: list[dict] = []
    for sel in selectors:
        if sel == "all":
            configs += [dict(c) for c in get_spec(game_name).test_configs]
        elif sel.split(":", 1)[0] == "presets":
            configs += preset_configs(game_name, sel.partition(":")[2])
        else:
            configs.append(parse_options(sel))
    return configs


def preset_configs(game_name: str, options: str = "") -> list[dict]:
    """``{"preset": name, **options}`` for every Campaign preset (``campaign.tables``)."""
    from crusadegym.core.deus_lo_vult.campaign.presets import CAMPAIGN_GAME
    from crusadegym.core.deus_lo_vult.campaign.tables import PRESETS

    if game_name != CAMPAIGN_GAME:
        raise ValueError(f"--configs presets: only {CAMPAIGN_GAME} has presets, not {game_name}")
    return [{"preset": name, **parse_options(options)} for name in PRESETS]


def build_game(game_name: str, options: dict) -> Game:
    """The game of one soak case (``preset=`` builds a Campaign preset by name)."""
    if "preset" not in options:
        return make_game(game_name, **options)
    from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options

    return game_from_options(game_name, options)


def resolve_games(names: list[str] | None) -> list[str]:
    """Requested games, or every game that imports (games still in progress are skipped)."""
    if names:
        for name in names:
            get_spec(name)  # a clear KeyError / ImportError for a bad name
        return names
    games = []
    for name in available_games():
        try:
            spec = get_spec(name)
        except Exception as e:  # a built-in game still being written must not stop the soak
            print(f"soak: skipping {name}: cannot import it ({type(e).__name__}: {e})")
            continue
        if hasattr(spec, "kernels"):
            games.append(name)
    return games


# -- compiled mode ----------------------------------------------------------------------


@numba.njit(cache=False, nogil=True)
def _keep_finished(state, params, seed):  # pragma: no cover - compiled
    """The ``init`` the soak's drivers get: a finished game is left as it is, so each slot
    plays exactly one game (the driver then stops it at the game's empty legal mask)."""
    return


@kjit
def _trace_slot(
    init, legal_mask, step, is_terminal, state, params, seed, n_steps, n_actions, n_players, out
):
    """Re-run one slot of :func:`random_playouts` from its initial ``state``, recording actions.

    Returns ``(game_seed, n, status)``: the seed of the game in progress when it
    stopped (-1 for the slot's first game), its ``n`` actions in ``out[:n]`` and
    ``status`` 1 if it stopped at an empty legal mask, else 0. Mirrors the driver
    step for step, so ``state`` ends equal to the driver's final state.
    """
    mask = np.zeros(n_actions, np.uint8)
    rewards = np.zeros(n_players, np.float32)
    rng_state = stream(seed)
    game_seed = np.int64(-1)
    n = 0
    for _ in range(n_steps):
        if is_terminal(state, params):
            game_seed = np.int64(next_u64(rng_state, 0) >> np.uint64(2))
            init(state, params, game_seed)
            n = 0
        k = legal_mask(state, params, mask)
        if k == 0:
            return game_seed, n, 1
        a = pick_uniform(mask, k, rng_state)
        step(state, params, a, rewards)
        out[n] = a
        n += 1
    return game_seed, n, 0


@pjit
def _invariant_playouts(
    init, legal_mask, step, is_terminal, violation, states, params, seeds, n_steps, n_actions,
    n_players,
):  # fmt: skip
    """:func:`~crusadegym.core.drivers.random_playouts` with the compiled invariant checker
    run on every state (each initial state and after every step).

    Same action choices as the driver, step for step. A slot stops at its first
    violation. Returns ``(steps, finished, empty, checks, code)`` per slot; ``code`` is
    the first violation's code (0 = none), found after ``steps`` steps of the slot.
    """
    B = states.shape[0]
    steps = np.zeros(B, np.int64)
    finished = np.zeros(B, np.int64)
    empty = np.zeros(B, np.int64)
    checks = np.zeros(B, np.int64)
    code = np.zeros(B, np.int64)
    for i in prange(B):
        mask = np.zeros(n_actions, np.uint8)
        rewards = np.zeros(n_players, np.float32)
        rng_state = stream(seeds[i])
        checks[i] += 1
        code[i] = violation(states[i], params)
        for _ in range(n_steps):
            if code[i] != 0:
                break
            if is_terminal(states[i], params):
                finished[i] += 1
                init(states[i], params, np.int64(next_u64(rng_state, 0) >> np.uint64(2)))
                checks[i] += 1
                code[i] = violation(states[i], params)
                if code[i] != 0:
                    break
            n = legal_mask(states[i], params, mask)
            if n == 0:
                empty[i] += 1
                break
            a = pick_uniform(mask, n, rng_state)
            step(states[i], params, a, rewards)
            steps[i] += 1
            checks[i] += 1
            code[i] = violation(states[i], params)
    return steps, finished, empty, checks, code


def trace_slot(
    game: Game, init_seed: int, choice_seed: int, n_steps: int
) -> tuple[int, list[int], np.ndarray, bool]:
    """``(seed, actions, state, empty_mask)`` of the game a driver slot was playing at its end."""
    k = game.k
    state = game.new_state(init_seed)
    out = np.zeros(n_steps, np.int64)
    game_seed, n, status = _trace_slot(
        k.init,
        k.legal_mask,
        k.step,
        k.is_terminal,
        state,
        game.params,
        np.int64(choice_seed),
        n_steps,
        game.num_actions,
        game.num_players,
        out,
    )
    seed = init_seed if game_seed < 0 else int(game_seed)
    return seed, [int(a) for a in out[:n]], state, bool(status)


def first_violation(game: Game, seed: int, actions: list[int]) -> tuple[int, list[str]]:
    """Replay ``actions`` checking invariants; ``(k, violations)`` at the first bad state.

    ``k`` is the number of actions applied when the violation appeared, or -1 if none.
    """
    state = game.new_state(seed)
    bad = game.check_invariants(state)
    if bad:
        return 0, bad
    for k, a in enumerate(actions):
        game.step(state, a)
        bad = game.check_invariants(state)
        if bad:
            return k + 1, bad
    return -1, []


def _slot_failure(game: Game, init_seed: int, choice_seed: int, n_steps: int, why: str) -> Failure:
    seed, actions, state, _ = trace_slot(game, init_seed, choice_seed, n_steps)
    if why == "invariant":
        k, bad = first_violation(game, seed, actions)
        if k >= 0:
            actions = actions[:k]
            why = f"invariant violated after step {k}: " + "; ".join(bad[:5])
        else:
            why = "invariant violation seen in the batch did not reproduce in the trace"
        state = None
    elif why.startswith("game did not end"):
        actions, state = actions[: game.max_steps], None
    return Failure("compiled", seed, actions, why, state)


def soak_compiled(
    game: Game,
    n_games: int,
    rng: np.random.Generator,
    chunk: int = 4096,
    steps_per_slot: int = 256,
    sample_checks: int = 64,
    progress: tqdm | None = None,
    config: str = "default",
) -> tuple[CaseResult, list[Failure]]:
    """Play exactly ``n_games`` random games with the batched compiled driver (fewer only
    when games fail to finish: those are failures, not counted).

    Each batch has up to ``chunk`` slots, one game each, as many as games are still to
    play; a slot plays at most ``steps_per_slot`` random steps (at least ``max_steps +
    1``, so its game ends) and stops when its game ends.
    """
    res = CaseResult(game.name, config, "compiled")
    failures: list[Failure] = []
    k = game.k

    checker = game.spec.invariant_kernel

    def play(init_seeds: np.ndarray, choice_seeds: np.ndarray, n: int):
        """(states, steps, finished, empty, checks, codes) of one batch."""
        states = game.new_states(init_seeds)
        if checker is not None:  # every state checked by the compiled invariants
            out = _invariant_playouts(
                _keep_finished, k.legal_mask, k.step, k.is_terminal, checker, states, game.params,
                choice_seeds, n, game.num_actions, game.num_players,
            )  # fmt: skip
            return (states, *out)
        out = random_playouts(
            _keep_finished,
            k.legal_mask,
            k.step,
            k.is_terminal,
            states,
            game.params,
            choice_seeds,
            n,
            game.num_actions,
            game.num_players,
        )
        zeros = np.zeros(len(init_seeds), np.int64)
        return (states, *out, zeros, zeros)

    if n_games > 0:
        play(np.zeros(1, np.int64), np.zeros(1, np.int64), 1)  # compile outside the timing
    n_steps = max(game.max_steps + 1, steps_per_slot)  # every slot's game can end
    t0 = time.perf_counter()
    while res.games < n_games:
        b = int(min(chunk, n_games - res.games))  # one game a slot: exactly the count
        init_seeds = rng.integers(0, SEED_LIMIT, b, dtype=np.int64)
        choice_seeds = rng.integers(0, SEED_LIMIT, b, dtype=np.int64)
        states, steps, finished, empty, checks, codes = play(init_seeds, choice_seeds, n_steps)
        finished = np.minimum(finished, 1)
        # a finished game stops at its empty mask: that is the end, not a failure
        empty = np.where(finished > 0, 0, empty)
        res.games += int(finished.sum())
        res.steps += int(steps.sum())
        res.invariant_checks += int(checks.sum())
        for i in np.flatnonzero(codes):
            msg = "invariant"  # reproduced and cut at the first violating step
            failures.append(_slot_failure(game, init_seeds[i], choice_seeds[i], int(steps[i]), msg))
            failures[-1].message += f" (compiled check: {_code_text(game, codes[i])})"
        for i in np.flatnonzero(empty):
            msg = "empty legal mask in a running game"
            failures.append(_slot_failure(game, init_seeds[i], choice_seeds[i], n_steps, msg))
        for i in np.flatnonzero((finished == 0) & (empty == 0) & (codes == 0)):
            msg = f"game did not end within max_steps={game.max_steps}"
            failures.append(_slot_failure(game, init_seeds[i], choice_seeds[i], n_steps, msg))
        if checker is None and game.spec.invariants is not None:
            for i in rng.choice(b, size=min(b, sample_checks), replace=False):
                res.invariant_checks += 1
                if game.check_invariants(states[i]):
                    # traced for the steps the slot played: to its game's final state
                    n = int(steps[i])
                    failures.append(
                        _slot_failure(game, init_seeds[i], choice_seeds[i], n, "invariant")
                    )
        if progress is not None:
            progress.update(int(finished.sum()))
        if finished.sum() == 0:
            break  # nothing ends: the failures above say why; do not loop forever
    res.seconds = time.perf_counter() - t0
    res.failures = len(failures)
    return res, failures


def _code_text(game: Game, code: int) -> str:
    messages = game.spec.invariant_messages
    return messages[code] if 0 <= code < len(messages) else f"violation code {code}"


# -- checked mode -----------------------------------------------------------------------


def checked_game(
    game: Game, seed: int, rng: np.random.Generator
) -> tuple[int, int, Failure | None]:
    """One random game through the checked API; ``(steps, invariant_checks, failure)``."""
    state = game.new_state(seed)
    actions: list[int] = []
    total = np.zeros(game.num_players, np.float64)
    checks = 1

    def fail(msg: str, legal: bool = True) -> tuple[int, int, Failure]:
        failure = Failure("checked", seed, list(actions), msg, state.copy(), legal)
        return len(actions), checks, failure

    bad = game.check_invariants(state)
    if bad:
        return fail("invariant violated in the initial state: " + "; ".join(bad[:5]))
    for t in range(game.max_steps + 1):
        if game.is_terminal(state):
            problem = _end_problem(game, state, total, seed, actions)
            return fail(problem) if problem else (len(actions), checks, None)
        mask = game.legal_mask(state)
        if not mask.any():
            return fail(f"empty legal mask at step {t} in a running game")
        seat = game.current_player(state)
        if not 0 <= seat < game.num_players:
            return fail(f"current_player {seat} out of range at step {t}")
        if game.is_truncated(state):
            return fail(f"is_truncated but not is_terminal at step {t}")
        if not np.all(np.isfinite(game.observe(state, seat))):
            return fail(f"non-finite observation for seat {seat} at step {t}")
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        try:
            rewards = game.step(state, a)
        except Exception as e:  # any exception from a legal action is a bug to record
            return fail(f"step {t} ({game.action_to_str(a)}) raised {e!r}", legal=False)
        if not np.all(np.isfinite(rewards)):
            return fail(f"non-finite rewards {rewards} at step {t}")
        total += rewards
        checks += 1
        bad = game.check_invariants(state)
        if bad:
            return fail(f"invariant violated after step {t + 1}: " + "; ".join(bad[:5]))
    return fail(f"game did not end within max_steps={game.max_steps}")


def _end_problem(
    game: Game, state: np.ndarray, total: np.ndarray, seed: int, actions: list[int]
) -> str:
    """What is wrong with a finished game ("" if nothing): mask, seat, returns, replay."""
    if game.legal_mask(state).any():
        return "legal mask not empty after the end"
    if game.current_player(state) != -1:
        return "current_player is not -1 after the end"
    returns = game.returns(state)
    if not np.all(np.isfinite(returns)):
        return "non-finite returns at the end"
    if not np.allclose(total, returns):
        return f"step rewards sum to {total.tolist()}, returns are {returns.tolist()}"
    _, states = replay(make_replay(game, seed, actions, verify=False))
    if not np.array_equal(states[-1], state):
        return "replaying seed + actions does not reproduce the final state"
    return ""


def soak_checked(
    game: Game,
    n_games: int,
    rng: np.random.Generator,
    progress: tqdm | None = None,
    config: str = "default",
) -> tuple[CaseResult, list[Failure]]:
    """Play ``n_games`` random games through the checked API, invariants after every step."""
    res = CaseResult(game.name, config, "checked")
    failures: list[Failure] = []
    t0 = time.perf_counter()
    for _ in range(n_games):
        seed = int(rng.integers(0, SEED_LIMIT))
        steps, checks, failure = checked_game(
            game, seed, np.random.default_rng(rng.integers(1 << 62))
        )
        res.games += 1
        res.steps += steps
        res.invariant_checks += checks
        if failure is not None:
            failures.append(failure)
        if progress is not None:
            progress.update(1)
    res.seconds = time.perf_counter() - t0
    res.failures = len(failures)
    return res, failures


# -- differential mode ------------------------------------------------------------------


def differential_module(game_name: str):
    """The game's ``crusadegym.core.<game>.differential`` module (engine vs a plain-Python
    reference of the whole step), or None if the game has none."""
    import importlib

    try:
        return importlib.import_module(f"crusadegym.core.{game_name}.differential")
    except ModuleNotFoundError:
        return None


def soak_differential(
    game: Game,
    n_games: int,
    rng: np.random.Generator,
    progress: tqdm | None = None,
    config: str = "default",
) -> tuple[CaseResult, list[Failure]]:
    """Play ``n_games`` random games on the engine and the game's reference side by side:
    identical decoded states and rewards after every step, identical legal action sets
    before every step. ``invariant_checks`` counts the compared states."""
    res = CaseResult(game.name, config, "differential")
    failures: list[Failure] = []
    module = differential_module(game.name)
    if module is None or n_games <= 0:
        return res, failures
    t0 = time.perf_counter()
    for _ in range(n_games):
        seed = int(rng.integers(0, SEED_LIMIT))
        out = module.compare_new_game(game, seed, np.random.default_rng(rng.integers(1 << 62)))
        res.games += 1
        res.steps += out.steps
        res.invariant_checks += out.steps + 1
        if out.problem:
            failures.append(
                Failure("differential", seed, list(out.actions or []), out.problem.split("\n")[0])
            )
        if progress is not None:
            progress.update(1)
    res.seconds = time.perf_counter() - t0
    res.failures = len(failures)
    return res, failures


# -- reporting --------------------------------------------------------------------------


def write_failures(
    game: Game, res: CaseResult, failures: list[Failure], out_dir: str, limit: int
) -> None:
    """Save up to ``limit`` failures as replays into ``out_dir`` and note them in ``res``."""
    for n, f in enumerate(failures):
        res.messages.append(f"{f.mode} seed={f.seed} steps={len(f.actions)}: {f.message}")
        if n >= limit:
            continue
        os.makedirs(out_dir, exist_ok=True)
        cfg = res.config.replace(",", "_").replace("=", "-")
        path = os.path.join(out_dir, f"{game.name}-{cfg}-{f.mode}-{f.seed}.json")
        save_replay(
            path,
            game,
            f.seed,
            f.actions,
            final_state=f.final_state,
            verify=f.legal_actions,
            note=f.message,
        )
        res.replays.append(path)


def format_table(results: list[CaseResult]) -> str:
    """The summary as an aligned text table."""
    head = ("game", "config", "mode", "games", "steps", "inv. checks", "failures", "games/s")
    rows = [
        (
            r.game,
            r.config,
            r.mode,
            f"{r.games:,}",
            f"{r.steps:,}",
            f"{r.invariant_checks:,}",
            str(r.failures),
            f"{r.games_per_s:,.{0 if r.games_per_s >= 100 else 1}f}",
        )
        for r in results
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)) for row in rows]
    header = "  ".join(x.ljust(w) for x, w in zip(head, widths, strict=True))
    return "\n".join([header, "  ".join("-" * w for w in widths), *lines])


def summary_json(results: list[CaseResult], args: argparse.Namespace, seconds: float) -> dict:
    """The JSON written next to the replays."""
    cases = [{**asdict(r), "games_per_s": r.games_per_s} for r in results]
    return {
        "crusadegym_version": __version__,
        "args": vars(args),
        "seconds": seconds,
        "total_games": sum(r.games for r in results),
        "total_steps": sum(r.steps for r in results),
        "total_invariant_checks": sum(r.invariant_checks for r in results),
        "total_failures": sum(r.failures for r in results),
        "cases": cases,
    }


# -- command line -----------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = command_parser("crusadegym soak", __doc__)
    p.add_argument("game", nargs="*", help="game names (default: every game that imports)")
    p.add_argument("--games", nargs="+", default=[], help="the same, as an option")
    p.add_argument(
        "--configs",
        nargs="+",
        default=["all"],
        help="'all' (the game's test configs), 'default', key=value[,key=value] options "
        "(preset=kyivan builds a Campaign preset), or 'presets[:OPTIONS]' (every Campaign "
        "preset)",
    )
    p.add_argument("--n-games", type=int, default=10_000,
                   help="compiled games per config (exactly: one game a batch slot)")  # fmt: skip
    p.add_argument("--checked-games", type=int, default=100, help="checked games per config")
    p.add_argument(
        "--differential",
        type=int,
        default=0,
        help="games per config played on the engine and the plain-Python reference side by "
        "side (games with a reference: deus_lo_vult, crusaders)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk", type=int, default=4096, help="slots per compiled batch")
    p.add_argument(
        "--steps-per-slot",
        type=int,
        default=256,
        help="most random steps a slot plays its one game for (at least max_steps + 1)",
    )
    p.add_argument(
        "--sample-checks",
        type=int,
        default=64,
        help="final states of each compiled batch whose invariants are checked",
    )
    p.add_argument("--out", default="soak_out", help="directory for failure replays + JSON")
    p.add_argument("--json", default=None, help="summary JSON path (default: OUT/soak.json)")
    p.add_argument("--max-replays", type=int, default=10, help="replays written per case")
    p.add_argument("--threads", type=int, default=None, help="numba threads")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def run(args: argparse.Namespace) -> list[CaseResult]:
    """Run every (game, config) case of ``args``; return the results."""
    if args.n_games < 0 or args.checked_games < 0 or args.differential < 0 or args.chunk < 1:
        raise ValueError("--n-games, --checked-games and --differential must be >= 0, --chunk >= 1")
    if args.threads is not None:
        set_threads(args.threads)
    cases = [
        (g, o)
        for g in resolve_games((args.game + args.games) or None)
        for o in resolve_configs(g, args.configs)
    ]
    games = [(build_game(g, o), config_name(o)) for g, o in cases]
    total = len(games) * (args.n_games + args.checked_games + args.differential)
    results = []
    with tqdm(total=total, disable=args.no_progress, unit="game", file=sys.stderr) as bar:
        for idx, (game, name) in enumerate(games):
            bar.set_description(f"{game.name} {name}")
            rng = np.random.default_rng([args.seed, idx])
            res, failures = soak_compiled(
                game, args.n_games, rng, args.chunk, args.steps_per_slot, args.sample_checks,
                bar, name,
            )  # fmt: skip
            write_failures(game, res, failures, args.out, args.max_replays)
            results.append(res)
            res, failures = soak_checked(game, args.checked_games, rng, bar, name)
            write_failures(game, res, failures, args.out, args.max_replays)
            results.append(res)
            if args.differential:
                res, failures = soak_differential(game, args.differential, rng, bar, name)
                write_failures(game, res, failures, args.out, args.max_replays)
                results.append(res)
    return results


def main(argv: list[str] | None = None) -> int:
    """``crusadegym soak``: returns 0 when no failure was found, 1 otherwise."""
    args = build_parser().parse_args(argv)
    t0 = time.perf_counter()
    results = run(args)
    seconds = time.perf_counter() - t0
    print(format_table(results))
    for r in results:
        for m in r.messages[:10]:
            print(f"FAIL {r.game} {r.config}: {m}")
        for path in r.replays:
            print(f"  replay: {path}")
    summary = summary_json(results, args, seconds)
    path = args.json or os.path.join(args.out, "soak.json")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    print(
        f"{summary['total_games']:,} games, {summary['total_steps']:,} steps, "
        f"{summary['total_failures']} failures in {seconds:.1f} s; summary: {path}"
    )
    return 1 if summary["total_failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
