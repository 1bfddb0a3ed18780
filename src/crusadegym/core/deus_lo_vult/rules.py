"""Deus lo Vult Duel rules as numba kernels over the flat state (see ``layout.py``).

The rules live in one short module per rule family; this module gathers the public
kernels (the ``SPEC`` and older callers import them from here):

=================  ============================================================
module             rule family (sections of Part 1, Duel Rules 2.0)
=================  ============================================================
``pieces.py``      tokens, edges, camps, Army Points ("Unit Anatomy", "Unit Types")
``bands.py``       bands, move destinations, the Stampede ("Unit Movement")
``combat.py``      attacks and the Combat Results Table ("Attack")
``purgatory.py``   wounds, deaths, the Purgatory ("Purgatory")
``coins.py``       plunder, carrying, passing, securing, stealing ("Plunder ...")
``choices.py``     the legal mask: deploy, spawn, every unit's follow-ups
``setup.py``       set up and the start of a round ("Set Up")
``turns.py``       applying actions, turns, round transitions ("Actions", "End of
                   the Round")
``scoring.py``     terminal checks and the result ("Winning")
=================  ============================================================

Interpretations are listed in ``docs/rules/deus_lo_vult.md``; ``reference_game.py`` is
a plain-Python twin of the whole step that the tests compare against.
"""

from __future__ import annotations

from .bands import (
    add_moves,
    apply_stampede,
    band_member,
    label_bands,
    placement_tramples,
    refugee_faction,
    stampede_scan,
    stampede_scan_near,
    trampled_at,
)
from .carry import free_capacity
from .choices import legal_mask, unit_options
from .coins import do_give, give_ok
from .combat import (
    STRIKE_COMBAT,
    STRIKE_KILL_REFUGEE,
    STRIKE_NONE,
    STRIKE_PLUNDER,
    STRIKE_STEAL,
    classify_strike,
    do_strike,
    resolve_combat,
    strike_target,
)
from .pieces import (
    army_points_used,
    camp_owner,
    edge_icon,
    is_camp_centre,
    is_crusader,
    is_quarter,
    is_refugee,
    is_saracen,
)
from .purgatory import damage, kill, purgatory_push
from .scoring import current_player, is_terminal, is_truncated, returns, winners
from .setup import init
from .turns import end_turn, round_transition, step

__all__ = [
    "STRIKE_COMBAT",
    "STRIKE_KILL_REFUGEE",
    "STRIKE_NONE",
    "STRIKE_PLUNDER",
    "STRIKE_STEAL",
    "add_moves",
    "apply_stampede",
    "army_points_used",
    "band_member",
    "camp_owner",
    "classify_strike",
    "current_player",
    "damage",
    "do_give",
    "do_strike",
    "edge_icon",
    "end_turn",
    "free_capacity",
    "give_ok",
    "init",
    "is_camp_centre",
    "is_crusader",
    "is_quarter",
    "is_refugee",
    "is_saracen",
    "is_terminal",
    "is_truncated",
    "kill",
    "label_bands",
    "legal_mask",
    "placement_tramples",
    "purgatory_push",
    "refugee_faction",
    "resolve_combat",
    "returns",
    "round_transition",
    "stampede_scan",
    "stampede_scan_near",
    "step",
    "strike_target",
    "trampled_at",
    "unit_options",
    "winners",
]
