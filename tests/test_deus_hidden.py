"""Hidden information in Deus: an observation holds only what its seat can see, and
determinization resamples exactly the rest.

Hidden from a seat [R]: rivals' hands, the deck order, cards hidden under an offering.
(Every seat's VP are public: the tokens are hidden, "do not show them!", but every VP
change is a public event; docs/rules/deus.md.) The tests resample all of that in plain Python (not
with the kernel under test) and check the seat's observation is bit-identical; a control
shows the same comparison does see a change of something visible.
"""

from __future__ import annotations

import numpy as np
import pytest
from deus_helpers import game, play, position

from crusadegym.core.deus import layout as L
from crusadegym.core.deus import tables as T


def _random_positions(g, n_games: int, seed: int, every: int = 7):
    """Mid-game states from random play (every few steps, all phases)."""
    rng = np.random.default_rng(seed)
    for k in range(n_games):
        s = g.new_state(seed * 1000 + k)
        step = 0
        while not g.is_terminal(s):
            if step % every == 0:
                yield s.copy()
            g.step(s, int(rng.choice(g.legal_actions(s))))
            step += 1


def resample_hidden(
    state: np.ndarray,
    seat: int,
    players: int,
    rng: np.random.Generator,
    vp_and_dice: bool = True,
) -> np.ndarray:
    """Plain Python: shuffle every card ``seat`` does not know among the places those cards
    occupy (each place keeps who knows it), and re-randomise the RNG. (Every seat's VP are
    public: a seat that remembers the game knows them; docs/rules/deus.md.)"""
    s = state.copy()
    unseen = [
        c
        for c in range(T.N_CARDS)
        if not (s[L.KNOWN + c] >> seat) & 1
        and (s[L.CARD_LOC + c] in (L.LOC_DECK, L.LOC_DISCARD) or s[L.CARD_LOC + c] >= L.LOC_HAND0)
    ]
    places = []
    for c in unseen:
        loc = int(s[L.CARD_LOC + c])
        idx = -1
        if loc == L.LOC_DECK:
            idx = int(np.flatnonzero(s[L.DECK : L.DECK + s[L.DECK_N]] == c)[0])
        elif loc == L.LOC_DISCARD:
            idx = int(np.flatnonzero(s[L.DISC : L.DISC + s[L.DISC_N]] == c)[0])
        places.append((loc, idx, int(s[L.KNOWN + c])))
    for c, (loc, idx, known) in zip(rng.permutation(unseen), places, strict=True):
        s[L.CARD_LOC + c] = loc
        s[L.KNOWN + c] = known
        if loc == L.LOC_DECK:
            s[L.DECK + idx] = c
        elif loc == L.LOC_DISCARD:
            s[L.DISC + idx] = c
    if vp_and_dice:
        s[L.RNG : L.RNG + 2] = rng.integers(1, 2**31, size=2)
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resampling_what_a_seat_cannot_see_leaves_its_observation_identical(players):
    g = game(players=players, max_turns=60)
    rng = np.random.default_rng(players)
    n = 0
    changed = 0
    for s in _random_positions(g, 3, players):
        for seat in range(players):
            other = resample_hidden(s, seat, players, rng)
            changed += int(not np.array_equal(other, s))
            assert np.array_equal(g.observe(other, seat), g.observe(s, seat))
            assert not g.check_invariants(other)
            if g.current_player(s) == seat:  # what the seat may do depends on its view only
                assert np.array_equal(g.legal_mask(other), g.legal_mask(s))
            n += 1
    assert n > 50 and changed > n // 2


@pytest.mark.parametrize("players", [2, 4])
def test_visible_changes_do_change_the_observation(players):
    """Control: the comparison above would catch a leak -- a change of the seat's own
    hand, its VP, a rival's VP or a rival's gold shows in its observation."""
    g = game(players=players)
    s = g.new_state(1)
    for seat in range(players):
        obs = g.observe(s, seat)
        mine = s.copy()
        mine[L.player(seat) + L.VP] += 1
        assert not np.array_equal(g.observe(mine, seat), obs)
        gold = s.copy()
        gold[L.player((seat + 1) % players) + L.GOLD] += 1
        assert not np.array_equal(g.observe(gold, seat), obs)
        theirs = s.copy()
        theirs[L.player((seat + 1) % players) + L.VP] += 1
        assert not np.array_equal(g.observe(theirs, seat), obs)
        hand = s.copy()  # swap one of my cards with a deck card of another design
        c = int(np.flatnonzero(s[L.CARD_LOC : L.CARD_LOC + T.N_CARDS] == L.LOC_HAND0 + seat)[0])
        deck = s[L.DECK : L.DECK + s[L.DECK_N]]
        i = int(np.flatnonzero(T.CARD_DESIGN[deck] != T.CARD_DESIGN[c])[0])
        d = int(deck[i])
        hand[L.DECK + i] = c
        hand[L.CARD_LOC + c], hand[L.CARD_LOC + d] = L.LOC_DECK, L.LOC_HAND0 + seat
        hand[L.KNOWN + c], hand[L.KNOWN + d] = 0, 1 << seat
        assert not g.check_invariants(hand)
        assert not np.array_equal(g.observe(hand, seat), obs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_the_view_and_the_invariants(players):
    """Game.determinize: the seat's observation is unchanged, every invariant holds, its own
    hand stays, and rivals' hands do get resampled."""
    g = game(players=players, max_turns=60)
    differs = 0
    n = 0
    for s in _random_positions(g, 2, 10 + players):
        for seat in range(players):
            d = s.copy()
            g.determinize(d, seat)
            assert np.array_equal(g.observe(d, seat), g.observe(s, seat))
            assert not g.check_invariants(d)
            loc_s = s[L.CARD_LOC : L.CARD_LOC + T.N_CARDS]
            loc_d = d[L.CARD_LOC : L.CARD_LOC + T.N_CARDS]
            assert np.array_equal(loc_d == L.LOC_HAND0 + seat, loc_s == L.LOC_HAND0 + seat)
            rival = L.LOC_HAND0 + (seat + 1) % players
            differs += int(not np.array_equal(loc_d == rival, loc_s == rival))
            n += 1
    assert differs > n // 2


def test_determinize_keeps_what_the_seat_knows_under_its_own_offering():
    """Cards a seat put under its own offering stay known to it (and stay put)."""
    g = game()
    s = position(g, "hand 0 harbour forum shrine mill")
    play(g, s, "offer harbour", "offer forum", "done")
    under = int(s[L.DISC + s[L.DISC_N] - 2])
    assert T.DESIGN_NAMES[T.CARD_DESIGN[under]] == "Forum"
    replaced = 0
    for seed in range(5):
        d = s.copy()
        d[L.RNG] = seed + 1
        g.determinize(d, 0)
        assert int(d[L.DISC + d[L.DISC_N] - 2]) == under
        d1 = s.copy()
        d1[L.RNG] = seed + 1
        g.determinize(d1, 1)  # seat 1 does not know it: it is resampled
        replaced += int(d1[L.DISC + d1[L.DISC_N] - 2]) != under
    assert replaced >= 4


def test_determinize_is_deterministic_given_the_state_and_checks_its_seat():
    g = game()
    s = g.new_state(5)
    a, b = s.copy(), s.copy()
    g.determinize(a, 0)
    g.determinize(b, 0)
    assert np.array_equal(a, b)
    with pytest.raises(ValueError, match="seat must be in"):
        g.determinize(s, 2)
    with pytest.raises(TypeError):
        g.determinize(s, "0")


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_depends_only_on_the_seat_view(players):
    """Two states that differ only in cards ``seat`` cannot see determinize identically."""
    g = game(players=players, max_turns=60)
    rng = np.random.default_rng(7)
    n = 0
    for s in _random_positions(g, 2, 20 + players, every=11):
        for seat in range(players):
            other = resample_hidden(s, seat, players, rng, vp_and_dice=False)
            a, b = s.copy(), other.copy()
            g.determinize(a, seat)
            g.determinize(b, seat)
            assert np.array_equal(a, b)
            n += int(not np.array_equal(s, other))
    assert n > 20
