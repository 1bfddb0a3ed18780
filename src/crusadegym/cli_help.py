"""Help texts of the ``crusadegym`` commands: plain text from docstrings, one default each.

Every command builds its parser with :func:`command_parser`, so ``--help`` reads the
same everywhere: the description is the first paragraph of the module docstring with
its reST markup removed (``crusadegym train <game>``, not ````crusadegym train````), and
each option's default is shown once, by :class:`HelpFormatter`, unless its help already
states it or there is none to show.
"""

from __future__ import annotations

import argparse
import re

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")


def plain(text: str) -> str:
    """``text`` without reST markup: roles keep their last name, literals their text."""
    text = _ROLE.sub(lambda m: m.group(1).split(".")[-1], text)
    text = _LITERAL.sub(r"\1", text)
    return _STRONG.sub(r"\1", text)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Adds ``(default: X)`` to an option's help once, when X says something."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or action.default in (None, False, argparse.SUPPRESS):
            return text
        if not action.option_strings and action.nargs not in ("?", "*"):
            return text  # a required positional has no default
        return f"{text} (default: %(default)s)" if text else "default: %(default)s"


def command_parser(prog: str, doc: str | None, **kwargs) -> argparse.ArgumentParser:
    """The parser of ``crusadegym <command>``, described by the first paragraph of ``doc``."""
    first = (doc or "").strip().split("\n\n")[0]
    return argparse.ArgumentParser(
        prog=prog, description=plain(first), formatter_class=HelpFormatter, **kwargs
    )
