"""The ``crusadegym`` command: one entry point, one sub-command per job.

Each sub-command lives in the module that owns the job and exposes
``main(argv: list[str]) -> int``; this file only dispatches.
"""

from __future__ import annotations

import importlib
import os
import sys

from .errors import USAGE_EXIT_CODE, UserError, extra_for

# sub-command -> (module, description)
COMMANDS = {
    "play": ("crusadegym.agents.match", "play against an agent in the terminal, or watch agents"),
    "replay": ("crusadegym.ui.animate", "print a replay, or draw it as a GIF/MP4 animation"),
    "serve": ("crusadegym.ui.serve", "a local web page to play any game and watch replays"),
    "arena": ("crusadegym.agents.arena", "round-robin/gauntlet between agents, with ratings"),
    "train": ("crusadegym.training.selfplay", "self-play training with MaskablePPO"),
    "fastppo": ("crusadegym.training.fastppo", "fast masked PPO over the batched engine"),
    "expert": ("crusadegym.training.expert.recipe", "expert iteration guided by Gumbel search"),
    "ladder": ("crusadegym.agents.ladder", "strength ladder of every game into docs/arena.md"),
    "bench": ("crusadegym.benchmarks.throughput", "step-throughput benchmark beside the peers"),
    "soak": ("crusadegym.benchmarks.soak", "fuzz many random games with invariants checked"),
    "warmup": ("crusadegym.benchmarks.warmup", "compile every game's rules ahead of first use"),
}


def _usage() -> str:
    lines = ["usage: crusadegym <command> [options]", "", "commands:"]
    lines += [f"  {name:<7} {desc}" for name, (_, desc) in COMMANDS.items()]
    lines += ["", "Run `crusadegym <command> --help` for the options of a command."]
    return "\n".join(lines)


SIGPIPE_EXIT_CODE = 141
"""Exit status when the reader of stdout went away (128 + SIGPIPE, as `yes | head` gives)."""


def main(argv: list[str] | None = None) -> int:
    """``crusadegym <command> ...``; a closed stdout pipe (``crusadegym replay F | head``)
    ends the command quietly, with no traceback, for every command."""
    try:
        try:
            code = _dispatch(argv)
        finally:  # also after --help's SystemExit: a pipe closed early fails here, not at exit
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The usual recipe: whatever is still buffered goes to devnull, so the flush at
        # interpreter exit cannot raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return SIGPIPE_EXIT_CODE


def _dispatch(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help"}:
        print(_usage())
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd not in COMMANDS:
        print(f"crusadegym: unknown command {cmd!r}\n\n{_usage()}", file=sys.stderr)
        return USAGE_EXIT_CODE
    module_name = COMMANDS[cmd][0]
    try:
        # a game's first, cold compile is announced on stderr (core/first_use.py)
        importlib.import_module("crusadegym.core.first_use").notify_on_stderr()
        module = importlib.import_module(module_name)
        return int(module.main(rest) or 0)
    except UserError as err:
        print(f"crusadegym {cmd}: {err}", file=sys.stderr)
        return USAGE_EXIT_CODE
    except ModuleNotFoundError as err:
        missing = extra_for(err)  # an optional dependency: say which extra installs it
        if missing is None:
            raise
        print(f"crusadegym {cmd}: {missing}", file=sys.stderr)
        return USAGE_EXIT_CODE


if __name__ == "__main__":
    raise SystemExit(main())
