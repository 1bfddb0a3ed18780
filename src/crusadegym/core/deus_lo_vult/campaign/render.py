"""Text lines the Campaign adds under the Duel board (``game.render``): the ``campaign
...`` notation lines (Battle, Glory, coins carried, every module's state), which parse
back with ``parse_position``."""

from __future__ import annotations

import numpy as np

from .notation import campaign_lines as field_lines


def campaign_lines(state: np.ndarray, params: np.ndarray) -> str:
    """The ``campaign ...`` lines of ``state`` (empty before anything happened)."""
    return field_lines(state)
