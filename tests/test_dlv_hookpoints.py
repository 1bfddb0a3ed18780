"""The Campaign hooks reach Duel kernels only through Campaign params (campaign/hookpoints)."""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult.campaign import hookpoints, hooks
from crusadegym.core.deus_lo_vult.campaign.config import PARAMS_DTYPE


def test_every_campaign_hook_has_a_duel_verdict():
    defined = {n for n, f in vars(hooks).items() if getattr(f, "py_func", None) is not None
               and f.py_func.__module__ == hooks.__name__}  # fmt: skip
    assert defined and defined <= set(hookpoints.DUEL_VERDICTS)
    assert all(callable(getattr(hookpoints, name)) for name in defined)


def test_duel_and_campaign_params_have_the_dtypes_the_kernels_dispatch_on():
    assert make_game("deus_lo_vult").params.dtype == np.int64
    assert make_game("deus_lo_vult_campaign").params.dtype == PARAMS_DTYPE != np.int64


def test_campaign_params_of_another_dtype_raise_instead_of_dropping_the_rules():
    """A Campaign played with its params converted to the Duel's dtype would compile the
    Duel's verdicts; the first hook it reaches raises instead."""
    game = make_game("deus_lo_vult_campaign", preset="kyivan")
    state = game.new_state(0)
    wrong = game.params.astype(np.int64)
    out = np.zeros(game.num_actions, np.uint8)
    with pytest.raises(ValueError, match="dtype"):
        for _ in range(200):
            game.k.legal_mask(state, wrong, out)
            game.k.step(state, wrong, int(np.flatnonzero(out)[0]), np.zeros(2, np.float32))


def test_hook_points_are_not_callable_from_python():
    with pytest.raises(TypeError, match="compiled"):
        hookpoints.may_move(None, None, 0, 0)
