"""Helpers that let Campaign rule tests read like the rulebook [R Part 2].

Mirrors ``dlv_helpers`` for Campaign configs: ``position({"e5": "0T"}, "seat=0 ap=7",
"campaign name=1,2", preset="kyivan")`` builds a Campaign state from notation (Duel
fields, Campaign tokens ``0T 0W 0G 0U 0Y 0Z`` / amenities ``mct ...``, and ``campaign``
lines of the modules' ``FIELDS``); ``play``, ``legal``, ``at`` work as in the Duel
helpers, through the checked API of the ``deus_lo_vult_campaign`` game.
"""

from __future__ import annotations

import numpy as np
from dlv_helpers import at, grid, legal, play, token  # game-agnostic, shared with the Duel

from crusadegym.core import Game
from crusadegym.core.deus_lo_vult.campaign.config import CampaignConfig, preset_config
from crusadegym.core.deus_lo_vult.notation import parse_position
from crusadegym.core.registry import make_game

GAME = "deus_lo_vult_campaign"
DEFAULTS = {"players": 2}
__all__ = ["at", "config", "field", "game", "legal", "play", "position", "random_games", "token"]


def config(preset: str | None = None, **options) -> CampaignConfig:
    """A CampaignConfig: from a preset by name when given, else from options alone."""
    if preset is not None:
        return preset_config(preset, **{**DEFAULTS, **options})
    return CampaignConfig(**{**DEFAULTS, **options})


def game(preset: str | None = None, **options) -> Game:
    """The ``deus_lo_vult_campaign`` game for a preset and/or options."""
    return make_game(GAME, config(preset, **options))


def position(
    fields: dict[str, str],
    header: str = "seat=0 ap=7 phase=army",
    campaign: str = "",
    preset: str | None = None,
    **options,
) -> tuple[Game, np.ndarray]:
    """(game, state) for a Campaign position given as {cell: notation field}.

    ``campaign``: extra ``campaign name=v ...`` lines (one or more, newline separated).
    """
    g = game(preset, **options)
    text = header + "\n" + grid(fields) + ("\n" + campaign if campaign else "")
    state = parse_position(text, g.config)
    return g, state


def field(state: np.ndarray, name: str) -> list[int]:
    """The values of a Campaign notation field (a module's ``FIELDS`` entry)."""
    from crusadegym.core.deus_lo_vult.campaign.notation import all_fields

    offset, length = all_fields()[name]
    return [int(v) for v in state[offset : offset + length]]


def random_games(game: Game, n: int, seed: int = 0, check: bool = True) -> list[np.ndarray]:
    """Play ``n`` uniformly random Campaigns to the end (checking invariants on every
    state when ``check``); return the final states."""
    rng = np.random.default_rng(seed)
    finals = []
    for i in range(n):
        state = game.new_state(seed=seed * 100_003 + i)
        while not (game.is_terminal(state) or game.is_truncated(state)):
            if check:
                problems = game.check_invariants(state)
                assert not problems, problems
            actions = game.legal_actions(state)
            game.step(state, int(rng.choice(actions)))
        finals.append(state)
    return finals
