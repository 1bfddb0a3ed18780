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

``deus_lo_vult_select.npz`` is a selection prior (:mod:`crusadegym.agents.select_prior`)
fitted for that value by ``python -m crusadegym.training.selectfit``:
``mcts:value=pretrained:select_prior=pretrained`` (compiled MCTS).
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
        shipped = sorted(g for g, p in CHECKPOINTS.items() if p.is_file())
        raise UserError(
            f"no pretrained policy is shipped for {game!r} (shipped: {shipped or 'none'}); "
            "train one with `crusadegym train` and use policy:PATH.zip"
        )
    return path


def PretrainedAgent(seed: int = 0, game: str = "deus_lo_vult", deterministic: bool = True):  # noqa: N802 - an agent factory named like the agent classes
    """The shipped policy of ``game`` as an agent (a ``PolicyAgent``)."""
    from crusadegym.agents.neural import load_policy_agent

    agent = load_policy_agent(pretrained_path(game), seed=seed, deterministic=deterministic)
    agent.name = "pretrained"
    return agent


def check_pretrained_specs(specs: list[str], game: str) -> None:
    """Refuse ``pretrained`` seats in a game no policy is shipped for (one line, not a crash)."""
    for spec in specs:
        name, _, rest = spec.partition(":")
        if name == "pretrained":
            trained_for = "deus_lo_vult"
            for part in rest.split(":"):
                key, _, value = part.partition("=")
                if key == "game":
                    trained_for = value
            if trained_for != game:
                raise UserError(
                    f"the pretrained policy plays {trained_for}, not {game}; "
                    "choose another agent, e.g. heuristic"
                )
            pretrained_path(game)
