"""The compiled Crusaders engine against the plain-Python reference of the whole game.

``core/crusaders/reference_game.py`` re-implements setup, the legal actions and every
step from the rule text, importing no numba kernel (its dice too); here both play the
same random games (actions drawn from the engine's legal mask with a seeded numpy
generator) and must agree on the legal action set before every step and on the flat
state, slot for slot, and the rewards after every step. The configs cover 2, 3 and 4
players, the expansion on and off, and every value of every option. The soak runs the
same comparison at scale (``crusadegym soak crusaders --differential N``).
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import make_game
from crusadegym.core import rng as R
from crusadegym.core.crusaders import actions as A
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders import tables as T
from crusadegym.core.crusaders.differential import compare_game, compare_new_game
from crusadegym.core.crusaders.reference_game import Dice, Reference, differences, slot_name

STEPS = 400  # each random game is cut here (not a failure)
# Small supplies and turn caps so that most games end, and are scored, within STEPS.
CONFIGS = [
    {"players": 2, "supply": 15, "max_turns": 40},
    {"players": 3, "expansion": False, "supply": 20, "max_turns": 40},
    {"players": 4, "wheel": "unpredictable", "orders": "free", "supply": 20, "max_turns": 30},
    {
        "players": 2,
        "orders": "free",
        "split": "one_each",
        "skip_turn": "always",
        "muster_many": True,
        "supply": 25,
        "max_turns": 60,
    },
    {
        "players": 3,
        "orders": "none",
        "shared_start": True,
        "mill_effects": False,
        "supply": 30,
        "max_turns": 40,
    },
    {"players": 4, "expansion": False, "upgrades": False, "muster_many": True, "supply": 20},
    {"players": 2, "expansion": False, "orders": "free", "wheel": "unpredictable", "supply": 20},
    {"players": 2},  # the default config: long games, cut at STEPS
]
GAMES = 60
ALL_DECISIONS = set(range(L.N_PHASES)) - {L.PH_OVER}


def _name(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


@pytest.mark.parametrize("options", CONFIGS, ids=_name)
def test_random_games_match_the_reference(options):
    """Every other game jumps ahead after its setup (``advance_boards``): level IV
    buildings, Mills of every level and the end-game scoring come up in those."""
    game = make_game("crusaders", **options)
    steps = ended = 0
    for seed in range(GAMES):
        rng = np.random.default_rng(seed)
        out = compare_new_game(game, seed, rng, advanced=bool(seed % 2), max_steps=STEPS)
        assert not out.problem, f"seed {seed}: {out.problem}"
        steps += out.steps
        ended += out.ended
    assert steps > GAMES * 50
    if "supply" in options:
        assert ended >= GAMES // 2, "most small-supply games should end and be scored"


def test_every_kind_of_decision_is_compared():
    """Random games reach every phase: Mills, Vaults, Saracens, boosts, order powers ..."""
    seen: set[int] = set()
    for options in (CONFIGS[0], CONFIGS[3]):
        game = make_game("crusaders", **options)
        for seed in range(12):
            rng = np.random.default_rng(seed)
            seen |= compare_new_game(
                game, seed, rng, advanced=bool(seed % 2), max_steps=STEPS
            ).phases
    missing = {L.PHASE_NAMES[p] for p in ALL_DECISIONS - seen}
    assert not missing, f"never compared: {missing}"


@pytest.mark.parametrize("options", CONFIGS[:7], ids=_name)
def test_setups_match_for_many_seeds(options):
    game = make_game("crusaders", **options)
    ref = Reference(game.params)
    for seed in [*range(60), 2**31 - 1, 2**40 + 7, 2**63 - 1]:
        diff = differences(game.new_state(seed), ref.new_game(seed))
        assert not diff, (seed, diff)


def test_the_plain_python_dice_are_core_rng():
    state = np.zeros(2, np.int32)
    for seed in [0, 1, 5, 2**32 + 3, 2**63 - 1]:
        R.seed(state, 0, np.int64(seed))
        mine = [0, 0]
        dice = Dice(mine)
        dice.seed(seed)
        assert mine == state.tolist()
        for n in (1, 2, 6, 43, 1000):
            assert dice.below(n) == int(R.randint(state, 0, n))
        items = np.arange(30)
        R.shuffle(state, 0, items, 30)
        mine_items = list(range(30))
        dice.shuffle(mine_items)
        assert mine_items == items.tolist() and mine == state.tolist()


def test_every_slot_is_compared_and_named():
    """A one-slot change anywhere is a difference, reported by its layout name."""
    game = make_game("crusaders", players=4)
    state = game.new_state(3)
    base = [int(x) for x in state]
    for i in range(L.STATE_SIZE):
        changed = state.copy()
        changed[i] += 1
        diff = differences(changed, base)
        assert len(diff) == 1 and diff[0].startswith(slot_name(i)), (i, diff)
    assert slot_name(L.pl(2) + L.PL_TOK + 3) == "seat2.PL_TOK[3]"
    assert slot_name(L.R_ENEMY + T.REGION_NAMES.index("d2")) == "R_ENEMY[d2]"
    assert slot_name(L.SUPPLY) == "SUPPLY"


def test_a_disagreement_is_reported_with_the_slot():
    """The comparison can fail: a reference that gains one influence too many is caught."""
    game = make_game("crusaders", players=2, supply=15, max_turns=40)

    class Greedy(Reference):
        def gain(self, s, p, n):
            super().gain(s, p, n + 1 if n > 0 else n)

    state = game.new_state(1)
    out = compare_game(game, state, np.random.default_rng(1), reference=Greedy(game.params))
    assert "states differ" in out.problem and "PL_SCORE" in out.problem


# -- found by the reference ----------------------------------------------------------------


def _giant_alone_at_the_end(giant_tokens: int) -> tuple:
    """Seat 0 (Female Order of the Band) with its Chapel IV off the board and the giant
    token on a wedge with ``giant_tokens`` action tokens (the giant counted as one), about
    to end the game: its turn is the last (turn cap), and it upgrades a wedge and passes
    the optional distribution. Returns the game, the state and the two actions."""
    game = make_game("crusaders", players=2, orders="free", max_turns=1)
    state = game.new_state(0)
    game.step(state, A.ORDER0 + T.FEMALE_BAND)
    giant = int(np.flatnonzero(game.legal_mask(state))[0] - A.WEDGE0)
    game.step(state, A.WEDGE0 + giant)  # the giant token goes here
    game.step(state, A.ORDER0 + T.ALCANTARA)
    while state[L.PHASE] != L.PH_TURN:  # Alcantara's setup steps, then the knights
        game.step(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    b = L.pl(0)
    assert state[L.CUR] == 0 and state[b + L.PL_GIANT] == giant
    state[b + L.PL_TOK + giant] = giant_tokens
    state[b + L.PL_BOARD + T.CHAPEL] &= ~(1 << T.LEVEL_IV)  # the Chapel IV is built
    state[L.TURN] = 1  # the last turn before the cap
    other = next(i for i in range(T.N_WEDGES) if i != giant and not state[b + L.PL_UP + i])
    return game, state, [A.UPGRADE0 + other, A.DONE]


def _play_both(game, state, actions) -> list[str]:
    ref = Reference(game.params)
    mine = [int(x) for x in state]
    for a in actions:
        assert ref.legal(mine) == set(np.flatnonzero(game.legal_mask(state)).tolist())
        game.step(state, a)
        ref.step(mine, a)
    assert game.is_terminal(state)
    return differences(state, mine)


def test_chapel_iv_counts_a_wedge_with_the_giant_and_another_token():
    """The giant plus one action token: 2 tokens on the wedge, both sides score it."""
    assert _play_both(*_giant_alone_at_the_end(giant_tokens=2)) == []


def test_chapel_iv_does_not_count_the_giant_alone_as_two_tokens():
    """[R "Female Order of the Band"]: "The giant token counts as 2 tokens when resolving
    actions"; [R "Expansion Building Types"]: Chapel IV "2 Influence per action wedge with
    2+ action tokens at game end". A wedge holding only the giant holds one action token."""
    assert _play_both(*_giant_alone_at_the_end(giant_tokens=1)) == []
