"""Crusaders rules as positions in the game's text notation, each citing its rule.

[R] = the Divine Influence rulebook (``shared/rulebooks/crusaders_divine_influence.txt``),
[C] = a sourced base-game fact (``shared/research/crusaders_published_facts.md``).
Stand-in numbers are read from ``tables`` so the tests survive a real table.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.core import IllegalActionError, make_game
from crusadegym.core.crusaders import layout as L
from crusadegym.core.crusaders import tables as T
from crusadegym.core.crusaders.invariants import check
from crusadegym.core.crusaders.notation import format_position, parse_position
from crusadegym.core.crusaders.scoring import final_points, majority

BASE_WHEEL = "  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:2"
FULL_BOARD = ""


def position(text: str, **options):
    """(game, state) of a position; the game's config matches the header."""
    state, params = parse_position(text, **options)
    head = dict(w.split("=") for w in text.strip().split("\n")[0].split()[1:])
    game = make_game(
        "crusaders",
        players=int(head.get("players", 2)),
        expansion=head.get("expansion", "1") == "1",
        **options,
    )
    assert np.array_equal(game.params, params)
    assert check(state, params) == [], check(state, params)
    return game, state


def play(game, state, *moves: str) -> None:
    """Step the named actions, each of which must be legal."""
    for text in moves:
        game.step(state, game.parse_action(text, state))
        assert check(state, game.params) == [], (text, check(state, game.params))


def seat(state, p: int, off: int) -> int:
    return int(state[L.pl(p) + off])


def legal(game, state) -> set[str]:
    return {game.action_to_str(int(a), state) for a in game.legal_actions(state)}


def tile_id(kind: int, cost: int, action: int = -1) -> int:
    """First influence tile of this kind and cost (and action type)."""
    for i, (k, c, a, _) in enumerate(T.INF_TILES):
        if k == kind and c == cost and (action < 0 or a == action):
            return i
    raise AssertionError("no such tile")


# ------------------------------------------------------------------ A-1..A-3 Influence [R]
LEVEL_II = tile_id(T.TILE_ONCE, 4, T.MUSTER)
A1 = f"""
crusaders players=2 expansion=1 seat=0
seat 0 score=0
  wheel TB:2 TI:2 MC:2 CB:2 IM:4 BI:2
  knights d3 - - -
seat 1
  knights c3 - - -
region d3 inf={LEVEL_II}
region e3 inf={tile_id(T.TILE_ONCE, 5)}
region c3 inf={tile_id(T.TILE_PERMANENT, 6)}
"""


def test_a1_a2_influence_collects_the_tile_costing_x_or_less_and_scores_its_level():
    """A-1 Paula has 4 tokens for Influence; A-2 she collects the level II tile of her
    knight's region and 2 Influence points [R Influence 1-2]."""
    game, s = position(A1)
    play(game, s, "resolve 5")
    assert L.PHASE_NAMES[s[L.PHASE]] == "influence"
    # only the knight's region, and only a tile costing <= X = 4
    assert {a for a in legal(game, s) if a.startswith("region")} == {"region d3"}
    play(game, s, "region d3")
    assert seat(s, 0, L.PL_SCORE) == T.INF_TILES[LEVEL_II, 3] == 2
    assert seat(s, 0, L.PL_NTILES) == 1
    assert seat(s, 0, L.PL_ONCE + T.MUSTER) == 1  # a one-time tile kept face up [R]


def test_a3_coat_of_arms_replaces_the_tile_and_makes_leaving_cheaper():
    """A-3 a Coat-of-Arms replaces the tile; leaving that region costs 1 less [R Travel]."""
    game, s = position(A1)
    play(game, s, "resolve 5", "region d3")
    r = T.REGION_NAMES.index("d3")
    assert s[L.R_INF + r] == -1 and s[L.R_COAT + r] == 0
    assert seat(s, 0, L.PL_COATS) == T.COATS_OF_ARMS - 1
    # Travel with 1 token: leaving d3 costs 0 now, so two steps are possible
    play(game, s, "upgrade 1", "done")  # seat 1 upgrades a wedge and passes
    assert game.current_player(s) == 0
    tok_before = seat(s, 0, L.PL_TOK + 0)
    assert tok_before >= 1
    play(game, s, "resolve 1")  # TB wedge, basic side: Travel with X = its tokens
    left = int(s[L.TRAVEL_LEFT])
    play(game, s, "move 0 c3")
    assert int(s[L.TRAVEL_LEFT]) == left  # leaving d3 (coat, no enemy) cost 0


def test_coat_of_arms_with_an_enemy_costs_one():
    """ "1 movement point if an Enemy is present, 0 if not" [R Travel]."""
    text = """
crusaders players=2 expansion=1
seat 0
  wheel TB:1 TI:2 MC:2 CB:2 IM:2 BI:2
  knights d3 - - -
seat 1
  knights c3 - - -
region d3 enemy=P coat=0
"""
    game, s = position(text)
    play(game, s, "resolve 1")
    assert "move 0 c3" in legal(game, s)  # costs 1 = X
    play(game, s, "move 0 c3")
    assert int(s[L.TRAVEL_LEFT]) == 0


def test_leaving_an_enemy_region_costs_two_without_a_coat():
    """ "Travel costs 1 / 2 out of an enemy region" [C]."""
    text = """
crusaders players=2 expansion=0
seat 0
  wheel TB:1 TI:2 MC:2 CB:2 IM:2 BI:2
  knights d3 - - -
seat 1
  knights c3 - - -
region d3 enemy=S
"""
    game, s = position(text)
    play(game, s, "resolve 1")
    assert not any(a.startswith("move") for a in legal(game, s))  # X = 1 < 2
    assert game.current_player(s) == 1  # nothing to do: the wedge was sown, turn over


def test_a_paid_travel_takes_as_many_steps_as_its_points_pay_for():
    """ "Moving a knight to an adjacent region costs 1" [C]: a Travel of 14 points takes
    14 steps (no step limit beyond the points; the old engine stopped at 12)."""
    text = _two_seats("TB:14 TI:0 MC:0 CB:0 IM:0 BI:0", expansion=0)
    game, s = position(text)
    play(game, s, "resolve 1")  # TB wedge, basic side: Travel with X = 14 (+ bonuses)
    x = int(s[L.TRAVEL_LEFT])
    assert x >= 14
    for i in range(x):
        play(game, s, "move 0 c3" if i % 2 == 0 else "move 0 d3")
    assert int(s[L.TRAVEL_LEFT]) == 0 and game.current_player(s) == 1
    assert seat(s, 0, L.PL_KNIGHT) == T.REGION_NAMES.index("d3" if x % 2 == 0 else "c3")


def test_free_travel_steps_are_bounded_by_the_board():
    """Leaving your own Coat-of-Arms region with no enemy costs 0 [R Travel]; such steps
    are the only ones not bounded by the points, and the engine allows
    ``FREE_TRAVEL_STEPS`` of them per Travel (enough for every knight's cheapest route,
    which leaves each of your Coat-of-Arms regions at most once) so a Travel ends."""
    text = _two_seats("TB:1 TI:2 MC:2 CB:2 IM:2 BI:2", extra="region d3 coat=0\nregion c3 coat=0\n")
    game, s = position(text)
    play(game, s, "resolve 1")
    left = int(s[L.TRAVEL_LEFT])
    for i in range(T.FREE_TRAVEL_STEPS):
        play(game, s, "move 0 c3" if i % 2 == 0 else "move 0 d3")
    assert int(s[L.TRAVEL_LEFT]) == left  # every step was free
    # no free step left, and the knight in d3 (coat, free to leave) has no paid one:
    # the Travel is over, the wedge sown and the turn passed
    assert game.current_player(s) == 1
    assert seat(s, 0, L.PL_KNIGHT) == T.REGION_NAMES.index("d3")  # an even number of steps


def test_influence_cannot_take_a_tile_costing_more_than_x():
    game, s = position(A1.replace("IM:4", "IM:3"))
    play(game, s, "resolve 5")
    assert seat(s, 0, L.PL_NTILES) == 0 and game.current_player(s) == 1


def test_brandenburg_influences_one_region_away():
    """Bailiwick of Brandenburg: "Influence action in a region up to 1 region away" [R]."""
    text = A1.replace(f"region d3 inf={LEVEL_II}\n", "").replace(
        "region e3 inf=", f"region e3 inf={LEVEL_II}\nregion b1 inf="
    )
    game, s = position(text)
    play(game, s, "resolve 5")
    assert game.current_player(s) == 1  # e3 is next door: out of reach
    game, s = position(text.replace("seat 0 score=0", "seat 0 order=brandenburg"))
    play(game, s, "resolve 5")
    assert {a for a in legal(game, s) if a.startswith("region")} == {"region e3"}


# ------------------------------------------------------------------ B-1..B-5 Build [R]
B1 = """
crusaders players=2 expansion=1 seat=0
seat 0 score=0
  wheel TB:5^ TI:2 MC:2 CB:2 IM:2 BI:2
  board chapel=234
  knights d3 - - -
seat 1
  knights f5 - - -
region c3 bld=1Ch1
"""


def test_b2_five_tokens_build_a_level_one_keep_in_an_empty_region():
    """B-1 Greg has 5 tokens on his Travel/Build wedge; B-2 he could spend all of them
    on a level I Keep (cost 5) in this empty region [R Build]; with 4 he could not
    ("Keeps: Cost 5 (3 with a Castle)" [R Expansion Building Types])."""
    game, s = position(B1)
    play(game, s, "resolve 1", "split 1", "first second")  # Build first, with 4
    assert L.PHASE_NAMES[s[L.PHASE]] == "build-type"
    assert "build keep" not in legal(game, s)  # 4 < 5 in the empty region d3
    game, s = position(B1)
    play(game, s, "resolve 1", "split 0")  # 0 to Travel, 5 to Build
    assert "build keep" in legal(game, s)
    play(game, s, "build keep", "region d3")
    r = T.REGION_NAMES.index("d3")
    assert s[L.R_BLD_A + r] == 0 * 32 + T.KEEP * 4 + 0
    assert seat(s, 0, L.PL_SCORE) == 1  # Influence = the level [R]
    assert seat(s, 0, L.PL_TROOPS) == 1  # first 3 Keeps: next troop free [R]


def test_b3_b4_travel_then_a_level_two_chapel_beside_a_church():
    """B-3 1 token moves him beside a purple church, 4 build a level II Chapel (6, 4 with
    a Church); B-4 it gives an extra action token and 2 Influence points [R Build]."""
    game, s = position(B1)
    play(game, s, "resolve 1", "split 1", "first first", "move 0 c3")
    assert int(s[L.STRENGTH]) == 4 and "build chapel" in legal(game, s)
    play(game, s, "build chapel", "region c3")
    r = T.REGION_NAMES.index("c3")
    assert s[L.R_BLD_B + r] == T.CHAPEL * 4 + 1  # level II beside the Church
    assert seat(s, 0, L.PL_SCORE) == 2
    # sowing done; the Chapel's token lands on the wedge used this turn [R]
    assert seat(s, 0, L.PL_TOK + 0) == 1 and seat(s, 0, L.PL_TOKTOTAL) == T.BASE_TOKENS + 4
    assert game.current_player(s) == 1


def test_chapel_without_a_church_costs_full_price():
    game, s = position(B1.replace("region c3 bld=1Ch1", "region c3 bld=1Fa1"))
    play(game, s, "resolve 1", "split 1", "first first", "move 0 c3")
    assert "build chapel" not in legal(game, s)  # 6 > 4 and c3 is not empty


B5 = """
crusaders players=2 expansion=1 seat=0
seat 0 score=0 troops=3
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:8
  board mill=4 keep=234
  knights d3 - - -
seat 1
  knights f5 - - -
"""


def test_b5_level_four_mill_removes_any_building_but_the_level_four_bank():
    """B-5 Paula's level IV Mill removes her level IV Keep although Keeps II and III are
    still on her board; never the level IV Bank [R Expansion Building Types]."""
    game, s = position(B5)
    play(game, s, "resolve 6", "build mill", "region d3")
    options = {a for a in legal(game, s) if a.startswith("mill")}
    assert "mill keep IV" in options and "mill bank IV" not in options
    assert "mill castle IV" in options and "mill keep II" in options
    pts = np.zeros(4, np.int64)
    final_points(s, game.params, pts)
    assert pts[0] == 0  # no level IV building off the board yet, no majority
    play(game, s, "mill keep IV")
    assert seat(s, 0, L.PL_BOARD + T.KEEP) == 0b0110  # levels II and III stay
    final_points(s, game.params, pts)
    # "The level IV Keep scores 1 point for each Troop you have face-up" [R]: 3 troops
    assert seat(s, 0, L.PL_TROOPS) == 3 and pts[0] == 3


def test_lower_mill_removes_only_up_to_its_level():
    game, s = position(B5.replace("mill=4", "mill=1234").replace("BI:8", "BI:5"))
    play(game, s, "resolve 6", "build mill", "region d3")
    options = {a for a in legal(game, s) if a.startswith("mill")}
    assert options and all(a.endswith(" I") for a in options)


def test_no_building_in_an_enemy_region_and_one_per_region():
    """ "Buildings still cannot be erected in a region with an enemy token. Each region may
    only contain 1 building" [R]/[C]."""
    text = """
crusaders players=2 expansion=1
seat 0
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:8
  knights d3 c3 e3 -
seat 1
  knights f5 - - -
region d3 enemy=P
region c3 bld=1Ba1
"""
    game, s = position(text)
    play(game, s, "resolve 6", "build castle")
    assert {a for a in legal(game, s) if a.startswith("region")} == {"region e3"}


def test_castle_releases_a_knight_into_its_region():
    """ "A castle unlocks a knight, placed in that castle's region" [C]."""
    text = """
crusaders players=2 expansion=0
seat 0
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:3
  knights d3 - - -
seat 1
  knights f5 - - -
"""
    game, s = position(text)
    play(game, s, "resolve 6", "build castle", "region d3")
    knights = [seat(s, 0, L.PL_KNIGHT + k) for k in range(T.N_KNIGHTS)]
    released = T.REGION_NAMES.index("d3") if T.CASTLE_KNIGHT[0] else T.KNIGHT_AWAY
    assert knights[:2] == [T.REGION_NAMES.index("d3"), released]


def test_vault_flips_a_wedge_without_distributing():
    """ "When building the first 3 Vaults, you may immediately flip an action wedge to
    the upgraded side. Do not distribute any tokens" [R]."""
    text = B5.replace("board mill=4 keep=234", "board vault=1234").replace("BI:8", "BI:5")
    game, s = position(text)
    play(game, s, "resolve 6", "build vault", "region d3", "wedge 3")
    assert seat(s, 0, L.PL_UP + 2) == 1
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == [3, 3, 3, 3, 3, 0]


def test_dragon_builds_an_expansion_building_beside_any_building_for_one_less():
    """Order of the Dragon: -1 in an empty region; any one building counts as empty [R]."""
    text = """
crusaders players=2 expansion=1
seat 0 order=dragon
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:4
  knights d3 c3 - -
seat 1
  knights f5 - - -
region c3 bld=1Fa1
"""
    game, s = position(text)
    play(game, s, "resolve 6", "build keep")
    assert {a for a in legal(game, s) if a.startswith("region")} == {"region d3", "region c3"}


# ------------------------------------------------------------------ C-1 Distribute [R]
def test_c1_distribute_tile_sows_a_wedge_after_the_turn_without_its_action():
    """C-1 some tiles let you distribute one additional time at the end of your turn;
    do not resolve the action of that wedge [R Distribute]."""
    dist = tile_id(T.TILE_DISTRIBUTE, 3)
    text = f"""
crusaders players=2 expansion=1
seat 0
  wheel TB:2 TI:2 MC:3 CB:2 IM:3 BI:2
  knights d3 - - -
seat 1
  knights f5 - - -
region d3 inf={dist}
"""
    game, s = position(text)
    play(game, s, "resolve 5", "region d3")
    assert L.PHASE_NAMES[s[L.PHASE]] == "distribute" and game.current_player(s) == 0
    score = seat(s, 0, L.PL_SCORE)
    play(game, s, "wedge 3")  # the Muster wedge: sown, not mustered
    assert seat(s, 0, L.PL_TROOPS) == 0 and seat(s, 0, L.PL_SCORE) == score
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == [3, 3, 0, 3, 1, 4]
    assert game.current_player(s) == 1


def test_upgrade_a_wedge_then_optionally_distribute():
    """Upgrade a wedge: flip it, then optionally distribute any one wedge [C]."""
    text = "crusaders players=2 expansion=0\nseat 0\n" + BASE_WHEEL + "\n  knights d3 - - -"
    text += "\nseat 1\n  knights f5 - - -"
    game, s = position(text)
    play(game, s, "upgrade 2")
    assert seat(s, 0, L.PL_UP + 1) == 1 and L.PHASE_NAMES[s[L.PHASE]] == "distribute"
    play(game, s, "done")
    assert game.current_player(s) == 1


# ------------------------------------------------------------------ D-1 majorities [R]
def test_d1_influence_majorities_with_ties():
    """D-1 first set: Paula 1st, Omar & Beth tied 2nd share the 2nd tile's back; second
    set: all three tied 1st share the 1st tile's back and 2nd is not awarded [R Scoring]."""
    out = np.zeros(4, np.int64)
    majority(np.array([4, 2, 2, 0]), 4, out)  # Paula, Omar, Beth, a 4th without tiles
    assert out.tolist() == [T.MAJ_FIRST, T.TIE_SHARE_SECOND[2], T.TIE_SHARE_SECOND[2], 0]
    out[:] = 0
    majority(np.array([3, 3, 3, 1]), 4, out)
    assert out.tolist() == [T.TIE_SHARE_FIRST[3]] * 3 + [0]


def test_influence_majority_needs_at_least_one_tile():
    out = np.zeros(4, np.int64)
    majority(np.array([1, 0, 0, 0]), 4, out)
    assert out.tolist() == [T.MAJ_FIRST, 0, 0, 0]


def test_influence_majority_counts_tiles_at_game_end():
    text = """
crusaders players=3 expansion=1 supply=1
seat 0 tiles=3
  knights d3 - - -
seat 1 tiles=1
  knights c3 - - -
seat 2 tiles=1
  knights e3 - - -
"""
    game, s = position(text)
    pts = np.zeros(4, np.int64)
    final_points(s, game.params, pts)
    assert pts[:3].tolist() == [T.MAJ_FIRST, T.TIE_SHARE_SECOND[2], T.TIE_SHARE_SECOND[2]]


# ------------------------------------------------------------------ base actions [C]
def test_muster_costs_and_scores_the_lowest_troop():
    """Muster costs the level of your lowest unmustered troop and scores it [C]."""
    text = "crusaders players=2 expansion=0\nseat 0 troops=1\n  wheel TB:2 TI:2 MC:4 CB:2 IM:2 BI:2"
    text += "\n  knights d3 - - -\nseat 1\n  knights f5 - - -"
    game, s = position(text)
    play(game, s, "resolve 3")
    assert seat(s, 0, L.PL_TROOPS) == 2 and seat(s, 0, L.PL_SCORE) == T.TROOP_LEVEL[1]


def test_crusade_scores_the_strength_and_advances_the_track():
    """Prussians: gain their strength, then advance their track 1 space; keep it [C]."""
    text = """
crusaders players=2 expansion=1
seat 0
  wheel TB:2 TI:2 MC:2 CB:6 IM:2 BI:2
  knights d3 - - -
seat 1
  knights f5 - - -
region d3 enemy=P
"""
    game, s = position(text)
    play(game, s, "resolve 4", "region d3")
    assert seat(s, 0, L.PL_SCORE) == T.TRACK_EXPANSION[0, 0]
    assert s[L.TRACK] == 1 and seat(s, 0, L.PL_CAPT) == 1


def test_saracen_is_strength_six_and_offers_its_reward():
    """Saracens: always strength 6; build the shown building there, or 3 influence [C]."""
    text = """
crusaders players=2 expansion=0
seat 0
  wheel TB:2 TI:2 MC:2 CB:5 IM:2 BI:2
  knights d3 - - -
seat 1
  knights f5 - - -
region d3 enemy=Ach
"""
    game, s = position(text)
    play(game, s, "resolve 4")
    assert game.current_player(s) == 1  # 5 < 6: no target
    game, s = position(text.replace("CB:5", "CB:6"))
    play(game, s, "resolve 4", "region d3")
    assert legal(game, s) == {"saracen build", "saracen influence"}
    play(game, s, "saracen build")
    assert s[L.R_BLD_A + T.REGION_NAMES.index("d3")] == T.CHURCH * 4
    assert seat(s, 0, L.PL_SCORE) == 1


def test_end_trigger_finishes_the_round_and_earlier_seat_wins_ties():
    """The supply running out ends the game once the round is finished [C]; a tie goes
    to the player earlier in turn order [R]."""
    text = """
crusaders players=2 expansion=0 seat=0 supply=3
seat 0
  wheel TB:2 TI:2 MC:3 CB:2 IM:2 BI:2
  knights d3 - - -
seat 1 score=3
  wheel TB:2 TI:2 MC:2 CB:2 IM:2 BI:2
  knights f5 - - -
"""
    game, s = position(text)
    play(game, s, "resolve 3")  # muster the 3 troop: supply 0, end triggered
    assert s[L.ENDING] == 1 and not game.is_terminal(s)
    play(game, s, "upgrade 1", "done")  # seat 1 finishes the round
    assert game.is_terminal(s)
    assert game.returns(s).tolist() == [1.0, -1.0]  # 3 = 3: seat 0 is earlier


# ------------------------------------------------------------------ orders [C]/[R]
@pytest.mark.parametrize(
    ("order", "total"),
    [("calatrava", 6), ("holy_sepulchre", 14), ("templar", 10), ("female_band", 11)],
)
def test_order_setup_changes_the_tokens(order, total):
    game = make_game("crusaders", players=2, orders="free")
    s = game.new_state(1)
    play(game, s, f"order {order}")
    while L.PHASE_NAMES[s[L.PHASE]] == "setup":
        play(game, s, game.action_to_str(int(game.legal_actions(s)[0]), s))
    assert seat(s, 0, L.PL_TOKTOTAL) == total


def test_giant_token_counts_two_when_resolving():
    """Female Order of the Band: "The giant token counts as 2 tokens" [R]."""
    text = """
crusaders players=2 expansion=0
seat 0 order=female_band
  wheel TB:2 TI:2 MC:1g CB:2 IM:2 BI:2
  knights d3 - - -
seat 1
  knights f5 - - -
"""
    game, s = position(text)
    play(game, s, "resolve 3")  # X = 2 < 3: no troop; then the giant is sown onward
    assert seat(s, 0, L.PL_TROOPS) == 0 and seat(s, 0, L.PL_GIANT) == 3


def test_teutonic_may_sow_counter_clockwise():
    text = "crusaders players=2 expansion=0\nseat 0 order=teutonic\n" + BASE_WHEEL
    text += "\n  knights d3 - - -\nseat 1\n  knights f5 - - -"
    game, s = position(text)
    play(game, s, "resolve 3")
    assert legal(game, s) == {"sow normal", "sow ccw"}
    play(game, s, "sow ccw")
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == [3, 3, 0, 2, 2, 2]


def test_livonian_distribute_after_an_expansion_building():
    text = B5.replace("board mill=4 keep=234", "").replace(
        "seat 0 score=0", "seat 0 order=livonian"
    )
    game, s = position(text.replace("BI:8", "BI:5"))
    play(game, s, "resolve 6", "build keep", "region d3")
    assert L.PHASE_NAMES[s[L.PHASE]] == "distribute"


def test_illegal_action_is_refused_with_a_clear_message():
    game, s = position(A1)
    with pytest.raises(IllegalActionError, match="illegal here"):
        game.step(s, game.parse_action("region d3", s))


def test_notation_round_trip_of_a_worked_example():
    game, s = position(B1)
    assert format_position(*parse_position(format_position(s, game.params))) == format_position(
        s, game.params
    )


# ------------------------------------------------------------------ more base rules
def _two_seats(wheel: str, seat0: str = "seat 0", expansion: int = 1, extra: str = "") -> str:
    return (
        f"crusaders players=2 expansion={expansion}\n{seat0}\n  wheel {wheel}\n"
        f"  knights d3 - - -\nseat 1\n  knights f5 - - -\n{extra}"
    )


def test_base_influence_gains_x_plus_bonuses():
    """Base Influence: "Collect influence equal to the strength of the action + any
    influence bonuses" [C]; a built Church I uncovers an Influence bonus [I stand-in]."""
    text = _two_seats("TB:2 TI:2 MC:2 CB:2 IM:3 BI:2", expansion=0, extra="region c3 bld=0Ch1")
    game, s = position(text)
    play(game, s, "resolve 5")
    bonus = int(T.BUILDING_BONUS[T.CHURCH, 0] == T.INFLUENCE)
    assert seat(s, 0, L.PL_SCORE) == 3 + bonus


def test_one_time_tile_boosts_a_later_action_once():
    """One-time tiles: "turn them face down during a later action of the indicated type to
    add 1 bonus to that action for that turn" [R]."""
    text = _two_seats("TB:2 TI:2 MC:2 CB:2 IM:2 BI:2")
    text = text.replace("  knights d3", "  once 0,1,0,0,0\n  knights d3")
    text = text.replace("seat 0\n", "seat 0 tiles=1\n")
    game, s = position(text)
    play(game, s, "resolve 3")  # Muster with X = 2 < 3
    assert legal(game, s) == {"boost", "done"}
    play(game, s, "boost")  # 2 + 1 = 3: the first troop
    assert seat(s, 0, L.PL_TROOPS) == 1 and seat(s, 0, L.PL_ONCE + T.MUSTER) == 0
    assert seat(s, 0, L.PL_NTILES) == 1  # the face-down tile still counts [R]


def test_permanent_tile_adds_one_for_the_rest_of_the_game():
    perm = tile_id(T.TILE_PERMANENT, 6, T.MUSTER)
    text = _two_seats("TB:2 TI:2 MC:2 CB:2 IM:6 BI:2", extra=f"region d3 inf={perm}")
    game, s = position(text)
    play(game, s, "resolve 5", "region d3")
    assert seat(s, 0, L.PL_PERM + T.MUSTER) == 1
    from crusadegym.core.crusaders.board import action_bonus

    assert action_bonus(s, game.params, 0, T.MUSTER) == 1


def test_upgrade_tile_flips_a_wedge():
    up = tile_id(T.TILE_UPGRADE, 3)
    text = _two_seats("TB:2 TI:2 MC:2 CB:2 IM:3 BI:2", extra=f"region d3 inf={up}")
    game, s = position(text)
    play(game, s, "resolve 5", "region d3")
    assert L.PHASE_NAMES[s[L.PHASE]] == "tile-upgrade"
    play(game, s, "wedge 4")
    assert seat(s, 0, L.PL_UP + 3) == 1 and game.current_player(s) == 1


def test_skip_turn_and_distribute_only_when_every_wedge_is_upgraded():
    """Skip turn & distribute [C], allowed when all 6 wedges are upgraded [C1]/[I]."""
    game, s = position(_two_seats("TB:2 TI:2 MC:2 CB:2 IM:2 BI:2"))
    assert not any(a.startswith("wedge") for a in legal(game, s))
    game, s = position(_two_seats("TB:2^ TI:2^ MC:2^ CB:2^ IM:2^ BI:2^"))
    assert {a for a in legal(game, s) if a.startswith("wedge")} == {
        f"wedge {i}" for i in range(1, 7)
    }
    assert not any(a.startswith("upgrade") for a in legal(game, s))
    play(game, s, "wedge 1")
    assert game.current_player(s) == 1 and seat(s, 0, L.PL_TOK) == 0


def test_learning_game_forbids_upgrades():
    game, s = position(_two_seats("TB:2 TI:2 MC:2 CB:2 IM:2 BI:2"), upgrades=False)
    assert not any(a.startswith("upgrade") for a in legal(game, s))


def test_split_one_each_gives_every_action_a_token():
    text = _two_seats("TB:3^ TI:2 MC:2 CB:2 IM:2 BI:2")
    game, s = position(text, split="one_each")
    play(game, s, "resolve 1")
    assert legal(game, s) == {"split 1", "split 2"}
    game, s = position(text)
    play(game, s, "resolve 1")
    assert legal(game, s) == {f"split {k}" for k in range(4)}


def test_hospitaller_may_skip_and_templar_may_double():
    game, s = position(_two_seats("TB:2 TI:2 MC:3 CB:2 IM:2 BI:2", "seat 0 order=hospitaller"))
    play(game, s, "resolve 3")
    assert legal(game, s) == {"sow normal", "sow skip 1", "sow skip 2", "sow skip 3"}
    play(game, s, "sow skip 1")
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == [
        3,
        2,
        0,
        2,
        3,
        3,
    ]  # the 1st wedge reached is passed
    game, s = position(_two_seats("TB:2 TI:2 MC:3 CB:2 IM:2 BI:2", "seat 0 order=templar"))
    play(game, s, "resolve 3")
    assert legal(game, s) == {"sow normal", "sow double 1", "sow double 2"}
    play(game, s, "sow double 1")
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == [2, 2, 0, 4, 3, 2]


@pytest.mark.parametrize(
    "order,own,extra,before,after",
    [
        # own sowing: IM:3 passes BI, drops on TB, TI, MC (before)
        (
            "hospitaller",
            "sow skip 1",
            {"sow normal"} | {f"sow skip {k}" for k in range(1, 5)},
            [3, 3, 4, 2, 0, 2],
            [4, 4, 0, 2, 1, 3],  # MC:4 passes CB, drops on IM, BI, TB, TI
        ),
        (
            "templar",
            "sow double 1",
            {"sow normal", "sow double 1", "sow double 2"},
            [3, 2, 3, 2, 0, 4],  # own sowing: IM:3 drops 2 on BI, 1 on TB
            [3, 2, 0, 4, 1, 4],  # MC:3 drops 2 on CB, 1 on IM
        ),
    ],
)
def test_once_per_turn_sowing_power_again_on_an_extra_distribution(
    order, own, extra, before, after
):
    """ "You may use Knight Order abilities on this distribution" [R Distribute]: the
    Hospitaller's skip and the Templar's double, used once in the turn's own sowing [C],
    are offered again when a Distribute tile grants an extra distribution."""
    dist = tile_id(T.TILE_DISTRIBUTE, 3)
    text = _two_seats("TB:2 TI:2 MC:3 CB:2 IM:3 BI:2", f"seat 0 order={order}")
    game, s = position(text + f"region d3 inf={dist}\n")
    play(game, s, "resolve 5", "region d3")  # Influence collects the Distribute tile
    assert own in legal(game, s)  # the turn's own sowing of the Influence wedge
    play(game, s, own)
    assert L.PHASE_NAMES[s[L.PHASE]] == "distribute" and game.current_player(s) == 0
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == before
    play(game, s, "wedge 3")  # the Muster wedge: sown, not mustered
    assert legal(game, s) == extra
    play(game, s, own)
    assert [seat(s, 0, L.PL_TOK + i) for i in range(6)] == after
    assert game.current_player(s) == 1


def test_level_four_end_game_scores():
    """Castle IV 4 per set, Church IV 6, Farm IV 1 per knight and troop, Bank IV 4 per own
    level IV on the map [C]; Chapel IV 2 per wedge with 2+, Vault IV 1 per upgraded wedge,
    Vaults I-III their points, 7-cost tiles 1 per tile [R]."""
    text = (
        "crusaders players=2 expansion=1\n"
        "seat 0 troops=2 capt=2,1,1 tiles=3 end=1\n"
        "  wheel TB:2^ TI:2 MC:1 CB:2 IM:2 BI:3\n"
        "  board castle=123 church=123 farm=123 bank=123 chapel=123 vault=4 keep=123\n"
        "  knights d3 c3 - -\n"
        "seat 1\n  knights f5 - - -\n"
        "region b1 bld=0Ba4\nregion b2 bld=0Ca4\n"
    )
    game, s = position(text)
    pts = np.zeros(4, np.int64)
    final_points(s, game.params, pts)
    want = (
        T.CASTLE_IV_PER_SET * 1  # one full set of the three enemy types
        + T.CHURCH_IV_POINTS
        + (2 + 2)  # Farm IV: 2 knights on the board + 2 troops
        + T.BANK_IV_PER_LEVEL4 * 2  # the Bank IV and the Castle IV on the map
        + 2  # Keep IV: 2 face-up troops
        + T.CHAPEL_IV_PER_WEDGE * 5  # wedges holding 2+ tokens: all but MC:1
        + int(T.VAULT_POINTS.sum())  # Vaults I-III gone; Vault IV still on the board
        + 1 * 3  # one 7-cost tile x 3 tiles collected
    )
    maj = [T.MAJ_FIRST] * 4  # Prussian, Slav, Saracen and influence-tile majorities
    assert pts[0] == want + sum(maj)


def test_observation_hides_a_rivals_dealt_orders():
    """Dealt orders are secret; only kept orders are public (see docs, Hidden information)."""
    from crusadegym.core.crusaders.observe import SC_DEALT, SCALARS0

    game = make_game("crusaders", players=3)
    s = game.new_state(4)
    mine = {seat(s, 0, L.PL_DEALT), seat(s, 0, L.PL_DEALT + 1)}
    seen = np.flatnonzero(game.observe(s, 0)[SCALARS0 + SC_DEALT : SCALARS0 + SC_DEALT + 14])
    assert set(seen.tolist()) == mine
    other = s.copy()
    other[L.pl(1) + L.PL_DEALT] = (seat(s, 1, L.PL_DEALT) + 1) % T.N_ORDERS
    assert np.array_equal(game.observe(s, 0), game.observe(other, 0))
