"""crusadegym play: sit at a game against an agent, or watch agents play each other.

Human against an agent (the default when no --seats is given):

    crusadegym play deus_lo_vult --vs heuristic
    crusadegym play deus_lo_vult --vs pretrained --seat 1

shows the board with a legend and the legal actions numbered; type a number, an action
(`cell a1`), a unique abbreviation (`a1`), `undo`, `board`, `help` or `quit`. The game
is saved as a replay (watch it with `crusadegym replay FILE --gif out.gif`).

Agents only (no human seat), the old behaviour:

    crusadegym play deus_lo_vult --seats random,heuristic --games 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from crusadegym.core import Game
from crusadegym.core.records import save_replay
from crusadegym.core.turn_cap import ENDED_AT_CAP
from crusadegym.errors import UserError

from .base import select_action
from .human import HumanAgent, QuitGame, UndoRequest
from .narrate import narrate_action
from .options import make_game_with_players, parse_options, with_preset
from .pretrained import check_pretrained_specs
from .registry import make_agent

HUMAN = "human"
DEFAULT_REPLAY_DIR = "replays"


@dataclass
class PlayedGame:
    """One game played by :func:`play_session`: its seed, actions and how it ended."""

    game: Game
    seed: int
    seats: list[str]
    actions: list[int] = field(default_factory=list)
    state: np.ndarray | None = None
    quit: bool = False
    undos: int = 0


def _rewind(game: Game, seed: int, actions: list[int]) -> np.ndarray:
    """The state after ``actions`` from ``seed`` (states are cheap to rebuild)."""
    state = game.new_state(seed)
    for a in actions:
        game.step(state, a)
    return state


def _undo_point(game: Game, seed: int, actions: list[int], seats: list) -> int | None:
    """How many actions to keep so the human who asked moves again (None: nothing to undo).

    Goes back past the opponents' replies to just before the last decision a human took.
    """
    state = game.new_state(seed)
    human_moves = []
    for k, a in enumerate(actions):
        if isinstance(seats[game.current_player(state)], HumanAgent):
            human_moves.append(k)
        game.step(state, a)
    return human_moves[-1] if human_moves else None


def play_session(
    game: Game, seats: list, seed: int, out: TextIO | None = None, verbose: bool = True
) -> PlayedGame:
    """Play one game from ``seed`` with ``seats[seat]`` (agents, some may be humans).

    Human seats may ``undo`` (the game rewinds to before their last move) and ``quit``
    (the game stops where it is; ``quit`` is then set on the result).
    """
    out = out or sys.stdout
    names = [getattr(a, "name", type(a).__name__) for a in seats]
    played = PlayedGame(game, seed, names)
    state = game.new_state(seed)
    while not game.is_terminal(state):
        seat = game.current_player(state)
        agent = seats[seat]
        try:
            action = select_action(agent, game, state)
        except QuitGame:
            played.quit = True
            break
        except UndoRequest:
            keep = _undo_point(game, seed, played.actions, seats)
            if keep is None:
                out.write("nothing to undo yet\n")
                continue
            del played.actions[keep:]
            played.undos += 1
            state = _rewind(game, seed, played.actions)
            out.write(f"undone: back to step {keep}\n")
            continue
        if verbose and not isinstance(agent, HumanAgent):
            # as the (first) human seat sees it: a rival's face-down card is not named
            viewer = next((i for i, x in enumerate(seats) if isinstance(x, HumanAgent)), None)
            line = narrate_action(game, state, action, viewer)  # "seat S plays X: outcome"
            out.write(line.replace(f"seat {seat} plays", f"seat {seat} ({names[seat]}) plays", 1))
            out.write("\n")
        game.step(state, action)
        played.actions.append(action)
    played.state = state
    return played


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crusadegym play",
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="game name, e.g. deus_lo_vult")
    p.add_argument("--vs", default="heuristic", metavar="AGENT",
                   help="the agent you play against, in every other seat: heuristic, mcts, "
                        "random, policy:PATH.zip, pretrained, or any agent spec such as "
                        "mcts:iterations=400 (default: %(default)s)")  # fmt: skip
    p.add_argument("--seat", type=int, default=0,
                   help="your seat, 0 to players-1 (default: 0); with --games N the "
                        "seats rotate from game to game")  # fmt: skip
    p.add_argument("--seats", default=None, metavar="A,B,...",
                   help="one agent spec per seat instead of --vs/--seat, rotated over the "
                        "seats from game to game; `human` may take any seat; without a human "
                        "the agents play each other (e.g. --seats random,heuristic)")  # fmt: skip
    p.add_argument("--games", type=int, default=1, help="games to play (default: 1)")
    p.add_argument("--players", type=int, default=2, help="seats per game (default: 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default: 0)")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="game option, repeatable (e.g. -o rounds=1)")  # fmt: skip
    p.add_argument("--preset", default=None, metavar="NAME",
                   help="a Deus lo Vult Campaign preset by name, e.g. kyivan (the same as "
                        "-o preset=NAME)")  # fmt: skip
    p.add_argument("--save-replays", default=None, metavar="DIR",
                   help="directory for one replay file per game (default: "
                        f"{DEFAULT_REPLAY_DIR}/ when a human plays, none otherwise)")  # fmt: skip
    p.add_argument("--no-save", action="store_true", help="do not save replays")
    p.add_argument("--no-board", action="store_true",
                   help="agents only: do not print the final boards")  # fmt: skip
    return p


def _seat_specs(args: argparse.Namespace, players: int) -> list[str]:
    if args.seats is not None:
        specs = [s.strip() for s in args.seats.split(",") if s.strip()]
        if not specs:
            raise UserError("--seats needs at least one agent spec, e.g. --seats human,random")
        return specs
    if not 0 <= args.seat < players:
        raise UserError(f"--seat must be in 0..{players - 1}, got {args.seat}")
    return [HUMAN if s == args.seat else args.vs for s in range(players)]


def _build_agents(specs: list[str], seed: int) -> list:
    agents = []
    for s, spec in enumerate(specs):
        if spec.split(":", 1)[0] == HUMAN:
            agent = HumanAgent(seed=seed + s, allow_undo=True)
            agent.name = spec
        else:
            agent = make_agent(spec, seed + s)
        agents.append(agent)
    return agents


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.games < 1:
            raise UserError(f"--games must be >= 1, got {args.games}")
        options = with_preset(parse_options(args.option), args.preset)
        game = make_game_with_players(args.game, args.players, options)
        specs = _seat_specs(args, game.num_players)
        check_pretrained_specs(specs, game.name)
        for spec in specs:
            if spec.split(":", 1)[0] != HUMAN:
                make_agent(spec)  # fail fast on a bad spec
    except (KeyError, ValueError, TypeError, FileNotFoundError, ImportError) as e:
        raise UserError(str(e).strip("'\"")) from e
    has_human = any(s.split(":", 1)[0] == HUMAN for s in specs)
    replay_dir = None if args.no_save else args.save_replays
    if replay_dir is None and has_human and not args.no_save:
        replay_dir = DEFAULT_REPLAY_DIR
    totals: dict[str, list[float]] = {s: [] for s in specs}
    for g in range(args.games):
        seat_specs = [specs[(g + s) % len(specs)] for s in range(game.num_players)]
        seed = args.seed + g
        agents = _build_agents(seat_specs, seed * 100)
        start = time.perf_counter()
        played = play_session(game, agents, seed, verbose=has_human)
        state = played.state
        elapsed = time.perf_counter() - start
        how = ", stopped (quit)" if played.quit else ""
        how += f", {ENDED_AT_CAP}" if game.is_truncated(state) else ""
        print(f"=== game {g + 1}/{args.games} (seed {seed}): {len(played.actions)} steps, "
              f"{elapsed:.1f} s{how}")  # fmt: skip
        if not args.no_board or has_human:
            # A game stopped mid-way keeps its secrets: a human sees their own seat's view.
            humans = [s for s, sp in enumerate(seat_specs) if sp.split(":", 1)[0] == HUMAN]
            viewer = humans[0] if humans and not game.is_terminal(state) else None
            print(game.render(state, viewer))
        if not played.quit:
            for s, (spec, r) in enumerate(zip(seat_specs, game.returns(state), strict=True)):
                print(f"  seat {s}: {spec:<12} return {r:+.0f}")
                totals[spec].append(r)
        if replay_dir is not None:
            os.makedirs(replay_dir, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = os.path.join(replay_dir, f"{game.name}-seed{seed}-{stamp}-g{g + 1}.json")
            note = "seats: " + ",".join(seat_specs)
            note += " (quit before the end)" if played.quit else ""
            save_replay(path, game, seed, played.actions, final_state=state, note=note)
            print(f"replay saved: {path} (watch: crusadegym replay {path} --gif game.gif)")
        if played.quit:
            break
    if args.games > 1 and any(totals.values()):
        print("=== mean return per agent")
        for spec, rs in totals.items():
            if rs:
                print(f"  {spec:<12} {np.mean(rs):+.2f} over {len(rs)} seat(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
