"""The compiled Deus engine against the plain-Python reference of the whole step.

``core/deus/reference_game.py`` re-implements setup, the legal actions and every step
from the rulebook in plain Python on the same flat layout; here both play the same
random games (same actions, same shuffles) and must agree on the legal action set
before every step, on every slot of the state and on the rewards after every step, and
on the terminal flag and the final scores at the end. The CI slice covers 2, 3 and 4
players and every option value; the soak (``crusadegym soak --games deus
--differential N``) runs the same comparison at scale (docs/reliability.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core import rng as engine_rng
from crusadegym.core.deus import layout as L
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.differential import compare_game, compare_new_game
from crusadegym.core.deus.reference_game import (
    SLOT_NAMES,
    Dice,
    Reference,
    differences,
)

# every value of every option appears in at least one config; (options, seeds)
CONFIGS = [
    ({"players": 2}, 40),
    ({"players": 2, "first_spacing": "strict", "minerva_draw": "always"}, 25),
    ({"players": 3}, 20),
    ({"players": 3, "payment": "resources_first", "escape": "always"}, 20),
    ({"players": 4, "escape": "always", "tie_break": "leftovers"}, 15),
    ({"players": 4, "first_spacing": "strict", "minerva_draw": "always"}, 10),
]
CHOICE_KINDS = {
    T.E_PRODUCE_ONE,
    T.E_PIECES,
    T.E_PIECES_PER_CITY,
    T.E_BUY,
    T.E_SELL_GOLD,
    T.E_SELL_VP,
    T.E_STEAL_VILLAGE,
    T.E_MOVE_ARMIES,
    40,  # Ceres
    41,  # Minerva's extra draws (minerva_draw="choose")
}


def _name(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize(("options", "seeds"), CONFIGS, ids=[_name(o) for o, _ in CONFIGS])
def test_whole_games_match_the_reference(options, seeds):
    game = make_game("deus", **options)
    steps, natural = 0, 0
    kinds: set[int] = set()
    for seed in range(seeds):
        state = game.new_state(seed)
        out = compare_new_game(game, seed, np.random.default_rng(100 + seed))
        assert not out.problem, out.problem
        steps += out.steps
        state = game.new_state(seed)  # replay to read how the game ended
        for a in out.actions or []:
            game.step(state, a)
        natural += int(not game.is_truncated(state))
        kinds |= {kind for phase, kind in out.seen if phase == L.PH_EFFECT}
    assert natural == seeds, "random games end by the rules at the default turn cap"
    assert steps > 300 * seeds
    if options == {"players": 2}:  # the default config alone meets every choice kind
        assert kinds == CHOICE_KINDS


def test_truncated_games_match_the_reference():
    """The turn cap: the games end truncated, scored as they stand, on both sides."""
    for players in (2, 3, 4):
        game = make_game("deus", players=players, max_turns=6)
        for seed in range(3):
            state = game.new_state(seed)
            out = compare_game(game, state, np.random.default_rng(seed))
            assert not out.problem, out.problem
            assert game.is_truncated(state)


def test_every_phase_is_compared():
    """The slice visits every phase the seat can be asked to act in."""
    game = make_game("deus", players=2)
    phases: set[int] = set()
    for seed in range(4):
        out = compare_new_game(game, seed, np.random.default_rng(seed))
        assert not out.problem, out.problem
        phases |= {phase for phase, _ in out.seen}
    wanted = {L.PH_MAIN, L.PH_PLACE, L.PH_TEMPLE, L.PH_PAY, L.PH_OFFER, L.PH_GOD, L.PH_EFFECT}
    assert phases == wanted


def test_differences_names_every_slot():
    """A one-slot change anywhere in the state is a difference, named by its slot."""
    game = make_game("deus", players=3)
    state = game.new_state(5)
    mirror = state.tolist()
    assert differences(state, mirror) == []
    for slot in (L.RNG, L.CUR, L.EFF_SEL, L.PAY + 4, L.PLAYER + 33, L.OWNER + 7, L.DISC + 95):
        changed = mirror.copy()
        changed[slot] += 1
        diff = differences(state, changed)
        assert len(diff) == 1 and diff[0].startswith(SLOT_NAMES[slot] + ":"), diff
    assert SLOT_NAMES[L.PLAYER + L.PLAYER_SIZE + L.GOLD] == "seat1.GOLD"
    assert SLOT_NAMES[L.OWNER + 7] == "OWNER[b0]"
    assert len(set(SLOT_NAMES)) == L.STATE_SIZE


def test_dice_match_the_engine_rng():
    """The reference's plain-Python dice draw what ``core/rng.py`` draws."""
    for seed in (0, 1, 12345, 2**62 + 7):
        engine = np.zeros(2, np.int32)
        engine_rng.seed(engine, 0, np.int64(seed))
        s = [0] * L.STATE_SIZE
        dice = Dice(s)
        dice.seed(seed)
        assert s[L.RNG : L.RNG + 2] == engine.tolist()
        for n in (1, 2, 6, 7, 96, 1000):
            assert dice.below(n) == int(engine_rng.randint(engine, 0, n))
            assert s[L.RNG : L.RNG + 2] == engine.tolist()
        items = list(range(30))
        arr = np.arange(30)
        dice.shuffle(items)
        engine_rng.shuffle(engine, 0, arr, 30)
        assert items == arr.tolist()


def test_reference_imports_no_kernel():
    """The reference shares data and slot numbers with the engine, never a kernel."""
    import crusadegym.core.deus.reference_game as ref

    kernels = [
        name
        for name, value in vars(ref).items()
        if type(value).__name__ in ("CPUDispatcher", "Dispatcher")
    ]
    assert kernels == []
    source = open(ref.__file__).read()
    for module in ("rules", "build", "board", "cards", "effects", "offering", "scoring"):
        assert f"from .{module} import" not in source and f"import {module}" not in source
    assert Reference(make_game("deus").params).players == 2
