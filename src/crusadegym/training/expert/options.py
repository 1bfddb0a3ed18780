"""The options of an expert-iteration run, declared once: the parser is built from them."""

from __future__ import annotations

import argparse
from dataclasses import MISSING, dataclass, field, fields
from typing import Any


def declare(default: Any, help: str, **extra: Any) -> Any:  # noqa: A002 - argparse's word
    """A dataclass field carrying its command-line help (and argparse extras)."""
    return field(default=default, metadata={"help": help, **extra})


@dataclass
class ExpertOptions:
    """Expert iteration: self-play guided by the compiled Gumbel search, for any game
    (the same defaults for every game)."""

    game: str = declare(
        MISSING,
        "the game to train (deus_lo_vult, deus_lo_vult_campaign, deus, crusaders, tictactoe)",
        positional=True,
    )
    players: int = declare(2, "seats in the game")
    option: list[str] = declare(
        None, "a game option KEY=VALUE (repeatable), e.g. preset=kyivan", action="append"
    )
    minutes: float = declare(
        10.0,
        "training budget in CPU minutes of this process (self-play and learning; "
        "checkpoint measurements and the one-off compile not counted)",
    )
    rounds: int = declare(
        0,
        "stop after this many rounds of play and learning (0: only the time budget; "
        "a round budget makes a run reproducible)",
    )
    teacher: str = declare(
        "heuristic",
        "agent whose games open the run (a curriculum step; 'none': start from self-play)",
    )
    teacher_share: float = declare(
        0.2, "share of the time budget spent learning from the teacher's games"
    )
    teacher_follow: float = declare(
        0.0,
        "in the teacher's share: share of the moves played by the network's own draw "
        "(DAgger: the teacher labels the positions the network reaches)",
    )
    teacher_games: float = declare(
        0.5,
        "after the teacher's share: share of self-play games where the teacher plays "
        "one seat (an early opponent)",
    )
    batch_games: int = declare(32, "games played at once (their leaves share one network pass)")
    simulations: int = declare(16, "search simulations per move in self-play")
    max_considered: int = declare(16, "root actions sequential halving starts from")
    q_scale: str = declare(
        "minmax",
        "how the search scales values before sigma: minmax (mctx: each node's values "
        "rescaled to [0, 1]) or fixed (the value range [-1, 1] mapped to [0, 1])",
        choices=("minmax", "fixed"),
    )
    hidden: int = declare(128, "width of each of the network's two hidden layers")
    learning_rate: float = declare(1e-3, "Adam learning rate")
    train_batch: int = declare(256, "samples per gradient step")
    sample_reuse: float = declare(4.0, "gradient passes over each sample on average")
    value_weight: float = declare(1.0, "weight of the value loss beside the policy loss")
    buffer: int = declare(30000, "replay buffer capacity (samples)")
    moves_per_round: int = declare(64, "search moves per game between learning rounds")
    checkpoint_minutes: float = declare(5.0, "save a numbered checkpoint this often")
    eval_games: int = declare(
        20, "games against the heuristic at each checkpoint (network alone; 0: none)"
    )
    eval_vs: str = declare("heuristic", "opponents of the checkpoint measurements, comma-separated")
    seed: int = declare(0, "seed of games, search noise and network initialisation")
    out: str = declare("runs/expert", "output folder (a sub-folder per game)")
    threads: int = declare(1, "torch threads")

    def game_options(self) -> dict:
        """``--option KEY=VALUE`` pairs as a dict (values parsed as numbers when they are)."""
        from crusadegym.agents.options import parse_value

        out: dict = {}
        for item in self.option or []:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise ValueError(f"bad --option {item!r}; expected KEY=VALUE")
            out[key] = parse_value(value)
        return out


def build_parser(
    cls: type = ExpertOptions, prog: str = "crusadegym expert"
) -> argparse.ArgumentParser:
    """The parser of ``cls``'s fields: a positional for ``positional=True``, else ``--name``."""
    parser = argparse.ArgumentParser(prog=prog, description=(cls.__doc__ or "").strip())
    for f in fields(cls):
        meta = dict(f.metadata)
        help_text = meta.pop("help", "")
        if meta.pop("positional", False):
            parser.add_argument(f.name, help=help_text)
            continue
        kind = meta.pop("action", None)
        flag = "--" + f.name.replace("_", "-")
        if kind == "append":
            parser.add_argument(flag, dest=f.name, action="append", default=None, help=help_text)
        else:
            parser.add_argument(
                flag,
                dest=f.name,
                type=type(f.default),
                default=f.default,
                help=f"{help_text} (default {f.default})",
                **meta,
            )
    return parser


def command_line(opts: ExpertOptions) -> str:
    """The ``crusadegym expert`` command that gives ``opts`` (non-default options only)."""
    words = ["crusadegym", "expert", opts.game]
    for f in fields(opts):
        value = getattr(opts, f.name)
        if f.metadata.get("positional") or value == f.default:
            continue
        flag = "--" + f.name.replace("_", "-")
        for item in value if isinstance(value, list) else [value]:
            words += [flag, str(item)]
    return " ".join(words)


def parse_options(argv: list[str] | None = None) -> ExpertOptions:
    """The options of ``argv`` (the command line when ``None``)."""
    return ExpertOptions(**vars(build_parser().parse_args(argv)))
