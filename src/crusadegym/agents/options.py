"""Command-line helpers shared by ``crusadegym play`` and ``crusadegym arena``."""

from __future__ import annotations

from dataclasses import fields

from crusadegym.core import Game, get_spec, make_game


def parse_value(text: str) -> bool | int | float | str | None:
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"none"`` -> None, ``"true"`` -> True, else text."""
    lowered = text.lower()
    if lowered == "none":
        return None
    if lowered in {"true", "false"}:
        return lowered == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_options(pairs: list[str] | None) -> dict:
    """``["rounds=1", "deployment=latin"]`` -> ``{"rounds": 1, "deployment": "latin"}``."""
    options = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"bad game option {pair!r}; expected key=value")
        options[key] = parse_value(value)
    return options


def with_preset(options: dict, preset: str | None) -> dict:
    """``options`` plus ``preset`` from a ``--preset NAME`` flag (None: unchanged)."""
    if preset is None:
        return options
    if options.get("preset", preset) != preset:
        raise ValueError(f"--preset {preset} and -o preset={options['preset']} disagree")
    return {**options, "preset": preset}


def make_game_with_players(name: str, players: int | None, options: dict) -> Game:
    """``make_game`` that also sets ``players`` when the game's config has that option.

    A game with a fixed seat count accepts ``players`` only when it matches.
    ``preset=NAME`` (Deus lo Vult) builds the Campaign from that Conventional Preset
    (``campaign.presets.game_from_options``).
    """
    options = dict(options)
    spec = get_spec(name)
    if players is not None and "players" in {f.name for f in fields(spec.config_cls)}:
        options.setdefault("players", players)
    if "preset" in options:  # a Campaign preset by name (``-o preset=kyivan``)
        from crusadegym.core.deus_lo_vult.campaign.presets import game_from_options

        game = game_from_options(name, options)
    else:
        game = make_game(name, **options)
    if players is not None and game.num_players != players:
        raise ValueError(f"{name} is played by {game.num_players} players, not {players}")
    return game
