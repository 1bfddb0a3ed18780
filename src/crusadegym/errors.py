"""The one exception type for mistakes a user can fix, shared by every command.

Raise :class:`UserError` (or a subclass) anywhere on a command-line path with a message that
says what went wrong and what to do; ``crusadegym <command>`` prints it as ONE line,
``crusadegym <command>: <message>``, and exits with status 2 (see :mod:`crusadegym.cli`).
Library callers get an ordinary exception (a ``ValueError``) with the same message.
"""

from __future__ import annotations

USAGE_EXIT_CODE = 2


class UserError(ValueError):
    """A mistake in the user's input (an unknown game, a missing file, a missing extra)."""


class UnknownNameError(UserError, KeyError):
    """An unknown name in a registry (a game, an env id): a ``KeyError`` that reads as text.

    ``KeyError`` prints its message in quotes (``'unknown game ...'``); this one prints it
    as written, so a command line shows one clean line.
    """

    def __str__(self) -> str:
        return BaseException.__str__(self)


class NotationError(UserError):
    """Text that is not a valid position in a game's notation (docs/notation.md)."""


class MissingFileError(UserError, FileNotFoundError):
    """A file the user named (a checkpoint, its sidecar) does not exist."""

    def __str__(self) -> str:
        return BaseException.__str__(self)


EXTRA_OF_MODULE = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
    "matplotlib": "arena",
    "openskill": "arena",
    "pyspiel": "bench",
    "chess": "bench",
    "pygame": "bench",
    "psutil": "bench",
}
"""Top-level module of an optional dependency -> the extra of pyproject.toml that installs it."""


def missing_extra(module: str, extra: str) -> UserError:
    """The error for an optional dependency that is not installed."""
    return UserError(
        f"{module} is not installed; install the extra with `pip install 'crusadegym[{extra}]'`"
    )


def extra_for(err: ModuleNotFoundError) -> UserError | None:
    """:func:`missing_extra` for an import of an optional dependency, else ``None``."""
    top = (err.name or "").split(".")[0]
    if top not in EXTRA_OF_MODULE:
        return None
    return missing_extra(top, EXTRA_OF_MODULE[top])
