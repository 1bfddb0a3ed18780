"""Games from options that may name a Conventional Preset [R Part 2 "Conventional
Presets/Builds"]: the one place the envs, the soak, the arena and the CLI turn
``preset="kyivan"`` into the Campaign game.

``make_game("deus_lo_vult_campaign", preset="kyivan")`` builds the preset too (through
``CampaignConfig.from_options``); :func:`game_from_options` adds the Duel's name:
``preset=`` given with ``deus_lo_vult`` means the Campaign. Both build the preset's
contents via :func:`.config.preset_config`, the other options overriding the preset's.
"""

from __future__ import annotations

from typing import Any

from ...protocol import Game

CAMPAIGN_GAME = "deus_lo_vult_campaign"
PRESET_GAMES = ("deus_lo_vult", CAMPAIGN_GAME)
"""Games that take ``preset=``: the Duel's name too (a preset means the Campaign)."""


def campaign_config(game_name: str, options: dict[str, Any]):
    """The ``CampaignConfig`` of ``options["preset"]`` plus the other options."""
    from .config import preset_config

    if game_name not in PRESET_GAMES:
        raise ValueError(
            f"preset= names a Deus lo Vult Campaign preset; game {game_name!r} takes none "
            f"(games with presets: {', '.join(PRESET_GAMES)})"
        )
    rest = dict(options)
    preset = rest.pop("preset")
    if not isinstance(preset, str):
        raise TypeError(f"preset must be a str, got {type(preset).__name__}")
    return preset_config(preset, **rest)


def game_from_options(game_name: str, options: dict[str, Any]) -> Game:
    """``make_game(game_name, **options)``, except that ``preset=<name>`` (not None) with
    ``deus_lo_vult`` or ``deus_lo_vult_campaign`` builds the Campaign from that preset;
    ``preset=None`` is dropped (``deus_lo_vult``: the Duel, unchanged)."""
    from ...registry import make_game

    if options.get("preset") is not None:
        return make_game(CAMPAIGN_GAME, campaign_config(game_name, options))
    return make_game(game_name, **{k: v for k, v in options.items() if k != "preset"})
