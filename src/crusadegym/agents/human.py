"""A human seat: the board, the legal actions numbered, and a move read from a text stream.

:class:`HumanAgent` is an agent like any other (``act_state(game, state) -> int``), so
``human`` can sit wherever an agent spec is accepted: ``crusadegym play``, the arena,
the Gymnasium envs' opponents. It writes to ``output`` (default stdout) and reads
lines from ``input`` (default stdin). Everything here works for every game through the
protocol alone: ``render_ansi`` for the board, ``action_to_str``/``parse_action`` for
the actions.

What a player may type (:func:`read_move` turns a line into a :class:`Move`):

* a number ``1..N`` from the numbered list of legal actions;
* an action as listed (``cell a1``, ``deploy pilgrim``) or in the game's notation;
* a unique abbreviation: leading words (``deploy pil``) or trailing words (``a1``);
* a command: ``undo`` (take back your last move, where the caller allows it), ``quit``,
  ``board`` (show the board again), ``legend``, ``help`` (the input forms and what each
  action legal now does), ``help ACTION`` (one action kind, from :mod:`.action_help`).

Around each decision it says what changed (:mod:`.narrate`, public fields only): what
the seat's own action did, and what the others' moves did since then. The legend is
shown with the first board and on request, not after every move.

An input that names an action which is not legal now is refused with the reason
(:func:`explain_illegal`); one that cannot be read lists the accepted forms.
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from crusadegym.core import Game
from crusadegym.errors import UserError

from .action_help import ACTION_HELP, help_for, help_table
from .base import Agent
from .narrate import changes, summary

COMMANDS = {
    "undo": "undo",
    "u": "undo",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "board": "board",
    "b": "board",
    "help": "help",
    "h": "help",
    "?": "help",
    "legend": "legend",
    "l": "legend",
}
"""Typed word -> command name."""

LIST_COLUMNS = 4
"""Columns of the numbered action list."""

LEGENDS: dict[str, str] = {
    "deus_lo_vult": (
        "Legend: rows 1-12 top to bottom, columns a-l.  .  empty   #  camp centre   "
        "$n  n loose coins\n"
        "  0P..3C  a seat's Crusader: P pilgrim, F footman, A archer, V pavesier, "
        "K foot knight, C cavalry\n"
        "  sg..sx  a Saracen (g ghazi, f footman, a archer, m mamluk, c cavalry, "
        "n nubian archer, e elephant, x naffatun)\n"
        "  Q9  city quarter 9   R9  its refugee   modifiers: ' weak side, ^>v< facing, "
        "*n coins carried, +n coins under, ! moved\n"
        "  Marks: [0P] the selected unit   +  an empty cell you may choose now (deploy "
        "zone, move or spawn cell)   x  a unit `strike` can hit\n"
        "  Actions: select a unit with `cell a1`, then act with it (`cell b2` moves there, "
        "`strike N`, `deploy pilgrim`, `end` ends the turn); `help ACTION` explains one."
    ),
    "deus": (
        "Legend: the map is drawn hex by hex (regions that touch are neighbours); "
        "region:terrain[seat pieces]\n"
        "  terrain F field, W forest, S swamp, M mountain, s sea, Vn village with n VP "
        "left (x: attacked)\n"
        "  pieces after the seat: c civil, y scientific, m maritime, a military, "
        "p production, T temple\n"
        "  res = wheat,wood,clay,stone   board = pieces left on the player board per type "
        "(civil..production)\n"
        "  hand: each card with its colour, cost and effect; columns: the cards played, "
        "bottom to top; `pay` shows the price still to pay"
    ),
    "crusaders": (
        "Legend: wheel = wedges clockwise from 1, <first><second>:<tokens> with T travel, "
        "M muster, C crusade, I influence, B build; ^ upgraded, g giant token\n"
        "  seat line: score = influence, troops = troops mustered, coats = Coat-of-Arms "
        "markers left, tiles = influence tiles kept, end = end-game (7) tiles, capt = "
        "enemies beaten (prussian,slav,saracen)\n"
        "  board = levels (1-4) of each building type still on the player board; knights = "
        "region of each knight (- off the map)\n"
        "  once = one-time +1 tiles per action (T,M,C,I,B; `boost` flips one), perm = "
        "permanent +1 per action (T,M,C,I,B)\n"
        "  map: region, enemy (P prussian, S slav, A saracen, . none), k = knights by "
        "seat, b = buildings, c = Coat-of-Arms owner\n"
        "  regions: enemy=A<shows> (t troop, ca ch fa ba building); bld = owner + building "
        "(Ca castle, Ch church, Fa farm, Ba bank, Ke keep, Cp chapel, Mi mill, Va vault) "
        "+ level; bonus = build discount tile (type-discount); inf = influence tile "
        "(kind:action/cost); coat = owner"
    ),
}
"""Text legend shown under each game's board (games without one get a generic line)."""
LEGENDS["deus_lo_vult_campaign"] = LEGENDS["deus_lo_vult"] + (
    "\n  Campaign: the lines under the board hold the Campaign's state "
    "(docs/rules/deus_lo_vult.md, Part 2)."
)


HIDDEN_NOTES: dict[str, str] = {
    "deus": "Note: the board shows only what the seat to move may see (rivals' hands as "
    "counts, their VP as ?).",
    "crusaders": "Note: the board shows only what the seat to move may see (rivals' "
    "undecided Knight Orders are not shown).",
}
"""A game's note on hidden information (shown with the legend)."""

HIDDEN_NOTE = (
    "Note: this game has hidden information; the board shows only what the seat to move may see."
)
"""The note for a game with hidden information and no entry in :data:`HIDDEN_NOTES`."""

TEXT_BOARDS: dict[str, str] = {
    "deus_lo_vult": "crusadegym.envs.render_dlv:text_board",
    "deus_lo_vult_campaign": "crusadegym.envs.render_dlv:text_board",
    "deus": "crusadegym.envs.render_deus:text_board",
    "crusaders": "crusadegym.envs.render_crusaders:text_board",
}
"""Terminal board per game (``text_board(game, state, seat) -> str``); others use
``game.render(state, seat)``. These views add to the notation; they never replace it."""


def text_board(game: Game, state: np.ndarray, seat: int | None) -> str:
    """The board the terminal shows to ``seat`` (a game's terminal view, or its notation)."""
    hook = TEXT_BOARDS.get(game.name)
    if hook:
        import importlib

        module, func = hook.split(":")
        try:
            return getattr(importlib.import_module(module), func)(game, state, seat)
        except (ImportError, AttributeError):
            pass
    return game.render(state, seat)


def hidden_note(game: Game) -> str:
    """The hidden-information note of ``game`` ("" when it has none)."""
    if not game.spec.hidden_information:
        return ""
    return HIDDEN_NOTES.get(game.name, HIDDEN_NOTE)


class QuitGame(UserError):
    """The human asked to stop the game (``quit``, or the input stream ended).

    A :class:`~crusadegym.errors.UserError`, so a command that cannot stop cleanly (the
    arena) reports it as one line; ``crusadegym play`` catches it and saves the game.
    """


class UndoRequest(Exception):
    """The human asked to take back their last move (raised only where undo is allowed)."""


@dataclass(frozen=True)
class Move:
    """What one input line means: an action id, or a command (``undo``, ``quit``, ...)."""

    action: int | None = None
    command: str | None = None
    error: str | None = None


def register_legend(game_name: str, text: str) -> None:
    """Show ``text`` under the board of ``game_name`` for human players."""
    LEGENDS[game_name] = text


def legend(game: Game) -> str:
    """The legend of a game's text board."""
    return LEGENDS.get(
        game.name,
        f"Legend: the board is {game.name}'s text notation (docs/rules/{game.name}.md).",
    )


def legal_listing(game: Game, state: np.ndarray) -> list[tuple[int, str]]:
    """The legal actions as ``(action id, label)``, in id order (the numbering shown)."""
    return [(int(a), game.action_to_str(int(a), state)) for a in game.legal_actions(state)]


def format_listing(listing: list[tuple[int, str]], columns: int = LIST_COLUMNS) -> str:
    """The numbered legal actions in columns, e.g. ``  1) cell a1      2) cell b1``."""
    cells = [f"{i + 1:>3}) {label}" for i, (_, label) in enumerate(listing)]
    width = max((len(c) for c in cells), default=0) + 2
    rows = [cells[i : i + columns] for i in range(0, len(cells), columns)]
    return "\n".join("".join(c.ljust(width) for c in row).rstrip() for row in rows)


def _norm(text: str) -> list[str]:
    return text.strip().lower().split()


def explain_illegal(game: Game, state: np.ndarray, action: int) -> str:
    """Why ``action`` is refused in ``state``, in one line (uses a game hook when present).

    A game spec may define ``explain_illegal(action, state, params) -> str | None`` with
    the rule that forbids the move; otherwise the answer says what is legal instead.
    """
    label = game.action_to_str(action, state)
    if game.is_terminal(state):
        return f"`{label}` is refused: the game is over"
    hook = getattr(game.spec, "explain_illegal", None)
    if callable(hook):
        reason = hook(action, state, game.params)
        if reason:
            return f"`{label}` is refused: {reason}"
    listing = legal_listing(game, state)
    kind = label.split()[0] if label.split() else label
    same = [lab for _, lab in listing if lab.split()[:1] == [kind]]
    if same:
        shown = ", ".join(same[:8]) + (", ..." if len(same) > 8 else "")
        return f"`{label}` is not legal in this position; the legal `{kind}` actions: {shown}"
    kinds: dict[str, int] = {}
    for _, lab in listing:
        head = lab.split()[0] if lab.split() else lab
        kinds[head] = kinds.get(head, 0) + 1
    shown = ", ".join(f"{k} ({n})" for k, n in kinds.items())
    return f"`{label}` is not legal in this position: no `{kind}` action is; legal now: {shown}"


def accepted_forms(listing: list[tuple[int, str]]) -> str:
    """The forms an input may take, with examples from this position's legal actions."""
    examples = [lab for _, lab in listing[:2]]
    eg = " or ".join(f"`{e}`" for e in examples) if examples else "`...`"
    return (
        f"type a number 1..{len(listing)}, an action as listed (e.g. {eg}), a unique "
        "abbreviation (its first or last words), or a command: undo, quit, board, help"
    )


def _match_words(listing: list[tuple[int, str]], words: list[str]) -> list[tuple[int, str]]:
    """Legal actions whose leading words start with ``words`` or whose trailing words are them."""
    hits = []
    for a, label in listing:
        lw = label.lower().split()
        prefix = len(words) <= len(lw) and all(lw[i].startswith(w) for i, w in enumerate(words))
        suffix = len(words) <= len(lw) and lw[len(lw) - len(words) :] == words
        if prefix or suffix:
            hits.append((a, label))
    return hits


def read_move(game: Game, state: np.ndarray, text: str) -> Move:
    """Interpret one input line in ``state`` (see the module docstring for the forms)."""
    words = _norm(text)
    if not words:
        return Move(error="empty input; " + accepted_forms(legal_listing(game, state)))
    joined = " ".join(words)
    if joined in COMMANDS:
        return Move(command=COMMANDS[joined])
    listing = legal_listing(game, state)
    if joined.isdigit():
        n = int(joined)
        if 1 <= n <= len(listing):
            return Move(action=listing[n - 1][0])
        return Move(error=f"there is no action number {n}; choose 1..{len(listing)}")
    for a, label in listing:
        if label.lower().split() == words:
            return Move(action=a)
    try:
        parsed = game.parse_action(text.strip(), state)
    except (ValueError, KeyError, IndexError):
        parsed = None
    if parsed is not None:
        if 0 <= parsed < game.num_actions and parsed in {a for a, _ in listing}:
            return Move(action=parsed)
        if 0 <= parsed < game.num_actions:
            return Move(error=explain_illegal(game, state, parsed))
    hits = _match_words(listing, words)
    if len(hits) == 1:
        return Move(action=hits[0][0])
    if hits:
        shown = ", ".join(lab for _, lab in hits[:8]) + (", ..." if len(hits) > 8 else "")
        return Move(error=f"`{text.strip()}` is ambiguous: it matches {shown}")
    return Move(error=f"cannot read `{text.strip()}`; " + accepted_forms(listing))


HELP = (
    "Enter the number of an action, or the action itself as listed. Abbreviations work "
    "when unique (`a1` for `cell a1`). Commands: undo (take back your last move), "
    "quit (stop; the game so far is saved), board (show the board), legend, help, "
    "help ACTION (what an action does, e.g. `help withdraw`)."
)


def help_text(game: Game, state: np.ndarray, topic: str = "") -> str:
    """``help`` (input syntax + what each action kind legal now does) or ``help ACTION``."""
    if topic:
        line = help_for(game, topic)
        if line:
            return line
        return f"no help for `{topic}` in {game.name}; " + (
            "the action kinds: " + ", ".join(ACTION_HELP[game.name])
            if game.name in ACTION_HELP
            else f"see docs/rules/{game.name}.md"
        )
    kinds = []
    for _, label in legal_listing(game, state):
        head = label.split()[0] if label.split() else label
        if head not in kinds:
            kinds.append(head)
    text = HELP
    if game.name in ACTION_HELP:
        text += "\nThe actions legal now:\n" + help_table(game, kinds)
    return text


def _changed_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines of ``after`` that are not in ``before`` at their place (a line diff)."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [line for tag, _, _, j0, j1 in matcher.get_opcodes() if tag != "equal"
            for line in after[j0:j1]]  # fmt: skip


class HumanAgent(Agent):
    """A person at the keyboard: shows the position, reads moves from a text stream.

    ``allow_undo``: whether ``undo`` may be typed (the caller must then catch
    :class:`UndoRequest` and rewind); elsewhere ``undo`` is refused with a message.
    ``quit`` and the end of the input raise :class:`QuitGame`.
    """

    name = "human"

    def __init__(
        self,
        seed: int = 0,
        input: TextIO | None = None,  # noqa: A002 - the stream a person types into
        output: TextIO | None = None,
        allow_undo: bool = False,
    ) -> None:
        super().__init__(seed)
        self.input = input
        self.output = output
        self.allow_undo = allow_undo
        self._legend_shown = False
        self._after: np.ndarray | None = None  # the state after this seat's last action
        self._board: tuple[int, list[str]] | None = None  # (seat, lines) last printed

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._legend_shown = False
        self._after = None
        self._board = None

    def _write(self, text: str) -> None:
        out = self.output or sys.stdout
        out.write(text + "\n")
        out.flush()

    def _readline(self) -> str:
        line = (self.input or sys.stdin).readline()
        if not line:
            raise QuitGame("the human player's input ended")
        return line

    def show_legend(self, game: Game) -> None:
        """Print the legend (and the game's hidden-information note)."""
        self._write(legend(game))
        note = hidden_note(game)
        if note:
            self._write(note)
        self._legend_shown = True

    def show(
        self,
        game: Game,
        state: np.ndarray,
        with_legend: bool | None = None,
        whole: bool | None = None,
    ) -> None:
        """Print the board, whose move it is and the numbered legal actions.

        The legend comes with the first board (and on ``legend``, ``help``, ``board``),
        not after every move. The whole board is printed when a seat's turn comes (and on
        ``board``); between two decisions of the same seat only the lines that changed
        (issue #39: the Crusaders board is some 36 lines, and a decision changes a few).
        ``whole``: print it whole (``None``: when the seat to move is not the one the
        last board was printed for).
        """
        seat = game.current_player(state)
        self._write("")
        # Only what the seat to move may see (the human's seat; with several humans at
        # one keyboard, whoever is to move).
        lines = text_board(game, state, seat).rstrip("\n").split("\n")
        last = self._board
        self._board = (seat, lines)
        if whole is None:
            whole = last is None or last[0] != seat
        if with_legend or whole or last is None:
            self._write("\n".join(lines))
        else:
            changed = _changed_lines(last[1], lines)
            kept = len(lines) - len(changed)
            note = f"({kept} board lines unchanged; `board` prints it whole)"
            self._write("\n".join([*changed, note]))
        if with_legend or (with_legend is None and not self._legend_shown):
            self.show_legend(game)
        self._write(f"Seat {seat} to move ({self.name}). Legal actions:")
        self._write(format_listing(legal_listing(game, state)))

    def _narrate_since(self, game: Game, state: np.ndarray, seat: int) -> None:
        """One line on what the others' moves changed since this seat's last action."""
        before, self._after = self._after, None
        if before is None or before.shape != state.shape or np.array_equal(before, state):
            return
        line = summary(changes(game, before, state, seat), limit=10)
        if line:
            self._write(f"Since your last move: {line}")

    def _narrate_own(self, game: Game, state: np.ndarray, action: int, seat: int) -> None:
        """Step a copy: say what this seat's own action did, and keep the state after it."""
        after = state.copy()
        game.step(after, action)
        line = summary(changes(game, state, after, seat))
        label = game.action_to_str(action, state)
        self._write(f"You play {label}" + (f": {line}" if line else ""))
        self._after = after

    def act_state(self, game: Game, state: np.ndarray) -> int:
        """Show the position and read lines until one names a legal action."""
        seat = game.current_player(state)
        turn_goes_on = self._after is not None and np.array_equal(self._after, state)
        self._narrate_since(game, state, seat)
        self.show(game, state, whole=not turn_goes_on)  # whole when the others have moved
        while True:
            self.output_prompt(f"seat {seat}> ")
            line = self._readline()
            words = line.strip().split(None, 1)
            if len(words) == 2 and COMMANDS.get(words[0].lower()) == "help":
                self._write(help_text(game, state, words[1]))
                continue
            move = read_move(game, state, line)
            if move.action is not None:
                self._narrate_own(game, state, move.action, seat)
                return move.action
            if move.command == "quit":
                raise QuitGame("the human player quit")
            if move.command == "undo":
                if self.allow_undo:
                    self._after = None
                    raise UndoRequest()
                self._write("undo is not available here (only in `crusadegym play`)")
            elif move.command == "board":
                self.show(game, state, with_legend=True)
            elif move.command == "legend":
                self.show_legend(game)
            elif move.command == "help":
                self._write(help_text(game, state))
                self.show_legend(game)
            else:
                self._write(move.error or "?")

    def output_prompt(self, prompt: str) -> None:
        out = self.output or sys.stdout
        out.write(prompt)
        out.flush()
