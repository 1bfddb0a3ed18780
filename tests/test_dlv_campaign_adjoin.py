"""Eleanor's and Olivier's adjoined units [R Part 2 "Heroes"] as positions with expected
outcomes (``campaign/adjoin.py``, ``units.update_adjoined``), plus random Campaigns in
which the rule fires, with the invariants checked on every state.

Seat 0 is the Imperium Angevinium with Eleanor (or Corona Castelae with Olivier); seat 1
is the Regnum Francorum (or the Knights Templar). Seat 0's camp is a1..c3.
"""

from __future__ import annotations

import numpy as np
import pytest
from campaign_helpers import at, field, game, legal, play, position, token

from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.campaign import adjoin as A
from crusadegym.core.deus_lo_vult.campaign import units as U

ANGEVIN, FR = "imperium_angevinium", "regnum_francorum"
CASTILE, TEMPLAR = "corona_castelae", "knights_templar"
ELEANOR = {"heroes": ("eleanor_of_aquitaine", ""), "factions": (ANGEVIN, FR)}
# Eleanor (e5), one of her seat's footmen (e4), two French units joined to her (e6, e7)
# and one French unit apart (h8)
BOARD = {"e5": "0Y", "e4": "0F", "e6": "1F", "e7": "1K", "h8": "1F"}


def selectable(g, s) -> set[str]:
    return {a for a in legal(g, s) if a.startswith("cell ")}


def test_tapped_eleanor_adjoins_the_french_units_joined_to_her_band():
    """[R "Eleanor"] "Being tapped intentionally, Eleanor ... becomes able to adjoin French
    units to her band and use them just like her own during her turn": after her seat
    weakens her, the French units connected to her may be selected by her seat; a French
    unit apart from her band may not."""
    g, s = position(BOARD, **ELEANOR)
    assert not {"cell e6", "cell e7", "cell h8"} & selectable(g, s)
    play(g, s, "cell e5", "weaken")
    assert field(s, "tapped") == [1, 0]
    assert A.commander(s) == 0
    assert {"cell e6", "cell e7"} <= selectable(g, s)
    assert "cell h8" not in selectable(g, s)


def test_her_seat_moves_an_adjoined_unit_which_keeps_its_owner():
    """The adjoined footman moves in her band for her seat's Action Point; it stays a
    French token (its coins and camp are its own Army's)."""
    g, s = position(BOARD, **ELEANOR)
    play(g, s, "cell e5", "weaken")
    t = token(s, "e6")
    play(g, s, "cell e6", "cell d5")
    assert token(s, "d5") == t and T.TOKEN_OWNER[t] == 1
    assert at(s, "e6") == "empty"


def test_an_adjoined_unit_offers_no_weaken_withdraw_or_heal_to_her_seat():
    """Our reading: WEAKEN, WITHDRAW and HEAL act on the unit's own Army (its reserve, its
    camp, its owner's intent) and stay with its owner; moving, striking and carrying are
    "use"."""
    g, s = position(BOARD, **ELEANOR)
    play(g, s, "cell e5", "weaken", "cell e6")
    options = legal(g, s)
    assert "weaken" not in options and "withdraw" not in options and "heal" not in options
    assert any(a.startswith("cell ") for a in options)  # its moves


def test_an_adjoined_unit_strikes_for_her_seat():
    """ "use them just like her own": the adjoined knight attacks a Saracen for seat 0."""
    board = {"e5": "0Y", "e6": "1K<", "d6": "sf>"}
    g, s = position(board, **ELEANOR)
    play(g, s, "cell e5", "weaken", "cell e6")
    assert "strike W" in legal(g, s)


def test_her_seats_saracens_spare_her_adjoined_units():
    """Saracens played by a seat attack its "opponents' Crusader units" [R]: in her army
    phase an adjoined unit is hers, so her Saracen may not attack it."""
    board = {"e5": "0Y", "e6": "1K", "e7": "sf^"}
    g, s = position(board, **ELEANOR)
    play(g, s, "cell e7")
    assert "strike N" in legal(g, s)
    g, s = position(board, **ELEANOR)
    play(g, s, "cell e5", "weaken")
    assert "cell e7" not in selectable(g, s)  # its one follow-up was that strike


def test_adjoined_units_are_friends_for_the_stampede():
    """A French unit in her band standing in a T of her seat's units is trampled [R
    "surrounded by 3 friendly units"]: the move i4 -> i5 is open only through the
    adjoined h5 and puts h5 between h4, g5 and i5."""
    board = {"h4": "0Y'", "h5": "1F", "g5": "0F", "i4": "0F"}
    g, s = position(board, campaign="campaign tapped=1,0", **ELEANOR)
    assert A.commander(s) == 0 and A.is_adjoined(s, token(s, "h5"))
    play(g, s, "cell i4", "cell i5")
    assert at(s, "h5") == "empty"  # trampled
    g, s = position(board, **ELEANOR)  # weak by a wound, not tapped: no adjoining
    play(g, s, "cell i4")
    assert "cell i5" not in legal(g, s)


def test_adjoining_ends_with_her_turn():
    """ "during her turn": the next seat commands its own units again."""
    g, s = position(BOARD, **ELEANOR)
    play(g, s, "cell e5", "weaken", "end")
    assert A.commander(s) == -1
    assert not any(A.is_adjoined(s, t) for t in range(T.N_TOKENS))
    assert field(s, "tapped") == [1, 0]  # still tapped: her next turn adjoins again


def test_a_healed_or_wounded_eleanor_is_not_tapped():
    """Tapped = weakened by her own seat and still on her weak side: healed, the flag
    drops; weak from another seat's wound (no flag), she adjoins nothing."""
    g, s = position(BOARD, campaign="campaign tapped=1,0", **ELEANOR)  # strong again
    assert field(s, "tapped") == [0, 0] and A.commander(s) == -1
    board = dict(BOARD, e5="0Y'")
    g, s = position(board, **ELEANOR)
    assert A.commander(s) == -1 and "cell e6" not in selectable(g, s)


def test_a_french_eleanor_adjoins_nobody():
    """The rule joins French units to a non-French Army: with her seat French itself (no
    other French seat), nothing changes."""
    opts = {"heroes": ("eleanor_of_aquitaine", ""), "factions": (ANGEVIN, ANGEVIN)}
    g, s = position(BOARD, **opts)
    play(g, s, "cell e5", "weaken")
    assert A.commander(s) == -1 and "cell e6" not in selectable(g, s)


def test_olivier_adjoins_templar_units_until_he_passes_at_the_turns_end():
    """[R "Olivier"] "can adjoin the Templar units to his band the same way Queen Elanor
    adjoins the French units - when tapped intentionally. When wounded intentionally, he
    passes to the Templar faction": with ``olivier_passes="end_of_turn"`` (default) he
    adjoins them for the rest of the turn, then passes; with "at_once" he passes at once
    and the adjoining never acts."""
    opts = {"heroes": ("olivier_lo_templier", ""), "factions": (CASTILE, TEMPLAR)}
    board = {"e5": "0Y", "e6": "1F"}
    g, s = position(board, **opts)
    play(g, s, "cell e5", "weaken")
    assert T.TOKEN_OWNER[token(s, "e5")] == 0 and "cell e6" in selectable(g, s)
    play(g, s, "end")
    t = token(s, "e5")
    assert T.TOKEN_OWNER[t] == 1 and U.hero_of(s, t) == U.OLIVIER
    g, s = position(board, olivier_passes="at_once", **opts)
    play(g, s, "cell e5", "weaken")
    assert T.TOKEN_OWNER[token(s, "e5")] == 1 and A.commander(s) == -1


def test_a_bad_olivier_option_is_a_one_line_error():
    with pytest.raises(ValueError, match="olivier_passes must be one of"):
        game(olivier_passes="later")


def test_random_play_around_a_tapped_eleanor_keeps_the_invariants():
    """Random play from a crowded board with a tapped Eleanor among French units: after
    every step the adjoined set is what the position gives (``invariants.check_adjoined``,
    with every other Duel and Campaign invariant), and the rule fires on many of them."""
    board = {
        "e5": "0Y'",
        "e4": "0F",
        "d5": "0K",
        "e6": "1F",
        "e7": "1K",
        "f5": "1A",
        "d7": "1C",
        "h8": "1F",
        "i9": "1P",
    }
    g = game(**ELEANOR)
    rng = np.random.default_rng(5)
    fired = steps = 0
    for _game in range(8):
        _, s = position(board, campaign="campaign tapped=1,0", **ELEANOR)
        for _ in range(150):
            if g.is_terminal(s) or g.is_truncated(s):
                break
            problems = g.check_invariants(s)
            assert not problems, problems
            fired += A.commander(s) >= 0
            steps += 1
            g.step(s, int(rng.choice(g.legal_actions(s))))
    assert fired > steps // 20, (fired, steps)


def test_a_stale_adjoined_set_is_caught_by_both_invariant_checks():
    """``invariants.check_adjoined`` (readable) and the compiled ``invariant_kernel``
    (what the soak runs on every state) both flag a set the position does not give."""
    from crusadegym.core.deus_lo_vult import invariant_kernel as K

    g, s = position(BOARD, campaign="campaign tapped=0,0", **dict(ELEANOR, war_engines=True))
    play(g, s, "cell e5", "weaken")
    assert not g.check_invariants(s) and K.violation(s, g.params) == K.OK
    s[A.K_COMMANDER] = 0  # forget who commands them
    assert any("adjoined" in p for p in g.check_invariants(s))
    assert K.violation(s, g.params) == K.BAD_ADJOINED
