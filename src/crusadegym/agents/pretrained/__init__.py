"""The policy and the learned evaluation shipped with the package.

``deus_lo_vult.zip`` is a MaskablePPO checkpoint with its sidecar ``deus_lo_vult.json``
(the training command, its config and the game it was trained on), loadable as the agent
``pretrained``; see ``docs/arena.md`` for how it was trained and how strong it measured.
Loading it needs the ``train`` extra (torch, sb3-contrib), like any ``policy:PATH`` agent.

``deus_lo_vult_value.npz`` is a ``linear`` learned evaluation
(:mod:`crusadegym.agents.learned_value`) fitted by ``python -m
crusadegym.training.searchfit`` (``docs/training.md`` gives the command and how it
measured); ``mcts:value=pretrained``
and ``heuristic:value=pretrained`` search with it (numpy only, no extra needed).

``deus_expert.npz`` and ``crusaders_expert.npz`` are networks trained by expert iteration
(``crusadegym expert``, :mod:`crusadegym.agents.network`; numpy only): ``pretrained`` in
Deus and Crusaders plays them alone (``pretrained:simulations=32`` searches with them).
``docs/training.md`` gives their commands and measured strength.

``deus_lo_vult_select.npz`` is a selection prior (:mod:`crusadegym.agents.select_prior`)
fitted for that value by ``python -m crusadegym.training.selectfit``:
``mcts:value=pretrained:select_prior=pretrained`` (compiled MCTS).

This package only names the files (it imports no agent, so any agent module may look a
file up here); :mod:`crusadegym.agents.pretrained_agent` plays them.
"""

from __future__ import annotations

from pathlib import Path

from crusadegym.errors import UserError

PRETRAINED_DIR = Path(__file__).resolve().parent
CHECKPOINTS = {"deus_lo_vult": PRETRAINED_DIR / "deus_lo_vult.zip"}
"""Game name -> shipped checkpoint."""
VALUE = PRETRAINED_DIR / "deus_lo_vult_value.npz"
"""The shipped learned evaluation (``value=pretrained``)."""
SELECT_PRIOR = PRETRAINED_DIR / "deus_lo_vult_select.npz"
"""The shipped selection prior (``select_prior=pretrained``), fitted for ``VALUE``."""


def pretrained_path(game: str = "deus_lo_vult") -> Path:
    """The shipped checkpoint of ``game``; a one-line :class:`UserError` if there is none."""
    path = CHECKPOINTS.get(game)
    if path is None or not path.is_file():
        raise UserError(
            f"no pretrained policy is shipped for {game!r} (shipped: "
            f"{', '.join(shipped_games()) or 'none'}); "
            "train one with `crusadegym train` and use policy:PATH.zip"
        )
    return path


def expert_networks() -> dict[str, Path]:
    """Game name -> its shipped expert-iteration network (``GAME_expert.npz`` files)."""
    return {p.name.removesuffix("_expert.npz"): p for p in PRETRAINED_DIR.glob("*_expert.npz")}


def expert_network_path(game: str) -> Path | None:
    """The shipped network of ``game``, if any (looked up among the shipped files, never
    a path made from ``game``)."""
    return expert_networks().get(game)


def shipped_games() -> list[str]:
    """The games a ``pretrained`` agent is shipped for (a network or a checkpoint)."""
    games = set(expert_networks()) | {g for g, p in CHECKPOINTS.items() if p.is_file()}
    return sorted(games)


def check_pretrained_specs(specs: list[str], game: str) -> None:
    """Refuse ``pretrained`` seats in a game nothing is shipped for (one line, not a crash)."""
    for spec in specs:
        name, _, rest = spec.partition(":")
        if name != "pretrained":
            continue
        for part in rest.split(":"):
            key, _, value = part.partition("=")
            if key == "game" and value != game:
                raise UserError(f"pretrained:game={value} plays {value}, not {game}")
        if game not in shipped_games():
            raise UserError(
                f"no pretrained agent is shipped for {game!r} (shipped: "
                f"{', '.join(shipped_games()) or 'none'}); choose another agent, e.g. heuristic"
            )
