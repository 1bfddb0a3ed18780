"""Deus rules, one test per rulebook rule, written as positions in the Deus notation.

Section names cite ``shared/rulebooks/deus.txt``; readings are in ``docs/rules/deus.md``.
"""

from __future__ import annotations

import numpy as np
import pytest
from deus_helpers import BOARD, game, legal, legal_regions, play, position, region, seat_value

from crusadegym.core.deus import layout as L
from crusadegym.core.deus import reference
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.config import P_EDGE, P_ON_BOARD
from crusadegym.core.deus.scoring import final_scores

G2 = game()
GA = game(payment="resources_first")  # no payment sub-decisions


# ------------------------------------------------------------------ Preparation (Setup)
@pytest.mark.parametrize("players,tiles", [(2, 4), (3, 6), (4, 7)])
def test_setup_by_player_count(players, tiles):
    """Setup 1-6: 4/6/7 maps, no two villages adjacent, village VP = adjacent regions,
    temples = maps, 5 of each resource per player, 25 pieces with 2 per type on the board,
    5 gold, 1 of each resource, 5 VP, 5 cards."""
    g = game(players=players)
    for seed in range(20):
        s = g.new_state(seed)
        on = g.params[P_ON_BOARD : P_ON_BOARD + T.N_REGIONS] != 0
        assert on.sum() == 7 * tiles
        for r in np.flatnonzero(on):
            if s[L.TERRAIN + r] == T.VILLAGE:
                nbrs = [n for n in T.NEIGH[r] if n >= 0 and on[n]]
                assert all(s[L.TERRAIN + n] != T.VILLAGE for n in nbrs)
                assert s[L.VILLAGE_VP + r] == len(nbrs)
            assert 0 <= s[L.TERRAIN + r] < T.N_TERRAINS
        terr = s[L.TERRAIN : L.TERRAIN + T.N_REGIONS][on]
        assert (terr == T.VILLAGE).sum() == tiles and (terr == T.SEA).sum() == 2 * tiles
        assert s[L.TEMPLES_LEFT] == tiles
        assert list(s[L.SUPPLY : L.SUPPLY + 4]) == [4 * players] * 4
        for p in range(players):
            pb = L.player(p)
            assert s[pb + L.GOLD] == 5 and s[pb + L.VP] == 5 and s[pb + L.HAND_N] == 5
            assert list(s[pb + L.RES : pb + L.RES + 4]) == [1, 1, 1, 1]
            assert list(s[pb + L.ON_BOARD : pb + L.ON_BOARD + 5]) == [2] * 5
            assert list(s[pb + L.IN_SUPPLY : pb + L.IN_SUPPLY + 5]) == [3] * 5
        assert s[L.DECK_N] == 96 - 5 * players
        assert not g.check_invariants(s)


def test_boards_differ_between_seeds():
    """Setup 1: maps are oriented freely -- the random layouts are not all the same."""
    g = game()
    boards = {g.new_state(seed)[L.TERRAIN : L.TERRAIN + 28].tobytes() for seed in range(10)}
    assert len(boards) > 5


# ------------------------------------------------------------------ A. Build: placement
def test_first_building_on_an_empty_edge_region_two_regions_from_rivals():
    """A.4: the first building goes to an edge region; first buildings of different
    players are separated by at least two empty regions (hex distance >= 3)."""
    s = position(G2, "piece a1 1 civil\nhand 0 villa-forest")
    play(G2, s, "build villa-forest")
    regions = legal_regions(G2, s)
    assert regions, "the first building must have somewhere to go"
    ref = reference.placement_regions(s, G2.params, 0, T.CIVIL)
    assert regions == {f"{'abcd'[r // 7]}{r % 7}" for r in ref}
    for name in regions:
        r = region(name)
        assert G2.params[P_EDGE + r]  # an edge region
        assert T.HEX_DIST[r, region("a1")] >= 3
        assert s[L.TERRAIN + r] not in (T.SEA, T.VILLAGE)
    assert "a2" not in regions and "b3" not in regions  # next to a1
    assert "d3" in regions  # a far edge swamp


def test_later_buildings_in_own_or_adjacent_empty_regions():
    """A.4: in a region you control (a different type) or an empty adjacent one; never a
    village; other types than ships never at sea."""
    s = position(G2, "piece b3 0 civil\nhand 0 villa-swamp")
    play(G2, s, "build villa-swamp")
    # b3's neighbours: b2 (sea), a1 (field), b4 (swamp), b0 (field); b3 already has a civil
    assert legal_regions(G2, s) == {"a1", "b4", "b0"}


def test_ships_only_at_sea():
    """A.4: maritime buildings only in sea regions."""
    s = position(G2, "piece b3 0 civil\nhand 0 harbour")
    play(G2, s, "build harbour")
    assert legal_regions(G2, s) == {"b2"}


def test_one_building_of_each_type_per_region():
    """A.4: each building in a region must be of a different type."""
    s = position(G2, "piece b0 0 civil production\nhand 0 mill")
    play(G2, s, "build mill")
    regions = legal_regions(G2, s)
    assert "b0" not in regions and {"b3", "b4", "b5"} <= regions


def test_no_piece_on_the_player_board_no_construction():
    """A.1: without a piece of that type on the player board the card cannot be built."""
    s = position(G2, "piece b0 0 civil\nseat 0 board 0 2 2 2 2 supply 4 3 3 3 3\nhand 0 shrine")
    assert "build shrine" not in legal(G2, s)
    assert "offer shrine" in legal(G2, s)


def test_escape_when_blocked_costs_three_vp():
    """A.4: if blocked, a building may go to an empty edge region for 3 VP."""
    s = position(G2, "piece a2 0 civil\npiece a1 1 civil\npiece a3 1 civil\nhand 0 shrine")
    s[L.player(0) + L.FIRST] = region("a2")
    play(G2, s, "build shrine")
    regions = legal_regions(G2, s)
    ref = reference.placement_regions(s, G2.params, 0, T.CIVIL)
    assert all(ref.values()) and regions == {f"{'abcd'[r // 7]}{r % 7}" for r in ref}
    assert "d3" in regions and "a2" not in regions
    play(G2, s, "region d3", "pay resource")
    assert seat_value(s, 0, L.VP) == 5 - 3 + 1  # escape, then the Shrine's 1 VP


def test_escape_needs_three_vp():
    s = position(
        G2, "piece a2 0 civil\npiece a1 1 civil\npiece a3 1 civil\nseat 0 vp 2\nhand 0 shrine"
    )
    s[L.player(0) + L.FIRST] = region("a2")
    assert "build shrine" not in legal(G2, s)


# ------------------------------------------------------------------ A. Build: cost
def test_cost_in_resources_or_four_gold_each():
    """A.3: each resource of the cost may be replaced by 4 gold."""
    s = position(G2, "piece b3 0 civil\nhand 0 villa-forest")  # cost 1 wood; has 1 wood, 5 gold
    play(G2, s, "build villa-forest", "region b0")
    assert legal(G2, s) == {"pay resource", "pay gold"}
    play(G2, s, "pay gold")
    assert seat_value(s, 0, L.GOLD) == 5 - 4 + 3 * 1  # b3 is the only forest
    assert seat_value(s, 0, L.RES + 1) == 1


def test_unaffordable_card_cannot_be_built():
    s = position(G2, "piece b3 0 civil\nseat 0 gold 3 res 0 0 0 0\nhand 0 villa-forest")
    assert "build villa-forest" not in legal(G2, s)


def test_paid_resources_return_to_the_supply():
    s = position(G2, "piece b3 0 civil\nhand 0 villa-forest")
    play(G2, s, "build villa-forest", "region b0", "pay resource")
    assert s[L.SUPPLY + 1] == 9 and seat_value(s, 0, L.RES + 1) == 0


# ------------------------------------------------------------------ A. Build: activation
def test_whole_column_activates_bottom_to_top():
    """A.5: all cards of the column activate, the new card last."""
    s = position(G2, "piece b3 0 civil\ncolumn 0 shrine villa-forest\nhand 0 villa-field")
    play(G2, s, "build villa-field", "region b0")  # costs 2 gold
    # Shrine +1 VP, Villa (forest) 3 gold per forest (b3), Villa (field) 3 per field (b0)
    assert seat_value(s, 0, L.VP) == 6
    assert seat_value(s, 0, L.GOLD) == 5 - 2 + 3 + 3


def test_activation_order_matters_buy_before_sell():
    """A.5 bottom to top: the Galley (buy) resolves before the Merchantman (sell)."""
    s = position(G2, "piece b2 0 maritime\nseat 0 res 0 0 0 0\ncolumn 0 galley\nhand 0 merchantman")
    play(G2, s, "build merchantman", "region b1")  # no wood: 4 gold
    assert s[L.PHASE] == L.PH_EFFECT and "done" in legal(G2, s)  # the Galley asks first
    play(G2, s, "resource stone")  # 1 gold, the last: the Galley stops by itself
    assert legal(G2, s) == {"resource stone", "done"}  # the Merchantman sells
    play(G2, s, "resource stone")
    assert seat_value(s, 0, L.GOLD) == 5 - 4 - 1 + 3


def test_production_building_produces_its_region_resource():
    """Green cards: a production building produces only the resource of its region."""
    s = position(G2, "piece b4 0 production\nhand 0 small-production-building")
    play(G2, s, "build small-production-building", "region b5", "pay resource")
    assert legal_regions(G2, s) == {"b4", "b5"}
    play(G2, s, "region b4")
    assert seat_value(s, 0, L.RES + T.SWAMP) == 2


def test_exhausted_resources_cannot_be_gained():
    """Setup 3 note: an exhausted resource cannot be gained."""
    s = position(G2, "piece b4 0 production\nsupply 8 8 0 8\nhand 0 cooperative")
    play(G2, s, "build cooperative", "region b5")
    assert seat_value(s, 0, L.RES + T.SWAMP) == 1


# ------------------------------------------------------------------ Temples
def test_temple_prerequisites_and_cost():
    """Temples 2-3: the n-th temple needs n-1 cards of each colour; costs one of each."""
    s = position(GA, "piece b0 0 civil\ncolumn 0 temple-of-forests\nhand 0 temple-of-fields")
    assert "build temple-of-fields" not in legal(GA, s)
    s = position(
        GA,
        "piece b0 0 civil\ncolumn 0 temple-of-forests shrine library harbour "
        "legion mill\nhand 0 temple-of-fields",
    )
    assert "build temple-of-fields" in legal(GA, s)
    play(GA, s, "build temple-of-fields")
    assert legal_regions(GA, s) == {"b0"}  # one of your regions
    play(GA, s, "region b0")
    assert s[L.PIECES + region("b0")] & L.TEMPLE_BIT
    assert list(s[L.player(0) + L.RES : L.player(0) + L.RES + 4]) == [0, 0, 0, 0]
    assert s[L.TEMPLES_LEFT] == 3


def test_temple_card_playable_when_the_supply_is_empty():
    """Temples 4: with no temple piece left the card is played without a piece."""
    s = position(GA, "piece b0 0 civil\ntemples 0\nhand 0 temple-of-fields")
    play(GA, s, "build temple-of-fields")
    assert s[L.CUR] == 1 and s[L.col_n(0, T.TEMPLE)] == 1


def test_no_temple_in_a_sea_region():
    """Temples 4 "in one of your regions"; reading (docs/rules/deus.md): a land region,
    never a sea region, even one your ship holds."""
    s = position(GA, "piece b0 0 civil\npiece b1 0 maritime\nhand 0 temple-of-fields")
    play(GA, s, "build temple-of-fields")
    assert legal_regions(GA, s) == {"b0"}


def test_temple_card_needs_a_region_while_temples_remain():
    """Temples 4: while the supply holds temples the piece must be placed, so a seat with
    no land region to take it cannot play the card; with the supply empty it can
    ("you can still play the Temple card") -- reading in docs/rules/deus.md."""
    s = position(GA, "piece b1 0 maritime\nhand 0 temple-of-fields")
    assert "build temple-of-fields" not in legal(GA, s)
    s = position(GA, "piece b1 0 maritime\ntemples 0\nhand 0 temple-of-fields")
    assert "build temple-of-fields" in legal(GA, s)


def test_one_temple_per_region():
    s = position(GA, "piece b0 0 civil\ntemple b0\nhand 0 temple-of-fields")
    assert "build temple-of-fields" not in legal(GA, s)


def test_temple_vp_capped_at_twelve():
    """Scoring 2: max 12 VP per temple (4 VP per field, 4 fields would be 16)."""
    s = position(
        G2,
        "piece a1 0 civil\npiece b0 0 civil\npiece c2 0 civil\npiece d1 0 civil\n"
        "column 0 temple-of-fields",
    )
    scores = np.zeros(2, np.int64)
    final_scores(s, G2.params, scores)
    assert scores[0] == reference.final_scores(s, G2.params)[0]
    # 5 VP + 12 (capped) + majorities: gold and every resource tie -> 2 VP each
    assert scores[0] == 5 + 12 + 5 * 2


# ------------------------------------------------------------------ Villages
ATTACK = """
piece b0 0 military
piece b1 0 maritime
seat 0 first b0
hand 0 cohort
"""


def test_village_attacked_when_surrounded_with_an_army():
    """Attacking: all adjacent regions occupied and an army among them; most armies wins."""
    s = position(G2, ATTACK + "piece c2 1 civil\n")  # b6's neighbours: b1, b0, b5
    play(G2, s, "build cohort", "region b5")  # the last neighbour: the attack resolves
    assert s[L.ATTACKED + region("b6")] == 1 and s[L.VILLAGE_VP + region("b6")] == 0
    assert seat_value(s, 0, L.VP) == 5 + 3


def test_no_attack_without_an_army():
    s = position(G2, "piece b0 0 civil\npiece b1 0 maritime\nhand 0 shrine")
    play(G2, s, "build shrine", "region b5", "pay resource")
    assert s[L.ATTACKED + region("b6")] == 0 and s[L.VILLAGE_VP + region("b6")] == 3


def test_attack_tie_broken_by_buildings_then_split_rounded_down():
    """Attacking: a tie on armies goes to more buildings; still tied, VP split down."""
    # d0's neighbours d1..d6: one army each side, 4 buildings each once d6 is built
    text = (
        "piece d1 0 military\npiece d2 0 civil\npiece d3 0 production\n"
        "piece d4 1 military civil production\npiece d5 1 maritime\nvillage d0 5\n"
    )
    s = position(G2, text + "hand 0 harbour\nseat 0 first d1")
    play(G2, s, "build harbour")
    assert reference.attack(s, G2.params)[1] == []  # d6 still empty: no attack
    play(G2, s, "region d6")
    play(G2, s, "pay resource")
    assert s[L.ATTACKED + region("d0")] == 1 and s[L.VILLAGE_VP + region("d0")] == 0
    assert seat_value(s, 0, L.VP) == 5 + 2 and seat_value(s, 1, L.VP) == 5 + 2  # 5 // 2


def test_attack_reference_agrees_on_a_split():
    s = position(
        G2,
        "piece d1 0 military\npiece d2 0 civil\npiece d3 0 civil\npiece d4 1 "
        "military civil\npiece d5 1 maritime\npiece d6 1 maritime\n",
    )
    vp, hit = reference.attack(s, G2.params)
    assert hit == [region("d0")]
    # armies 1-1, buildings 3 (seat 0) vs 4 (seat 1): seat 1 takes all 6
    assert list(vp) == [5, 11]


# ------------------------------------------------------------------ Armies
def test_army_moves_into_empty_land_never_a_village_or_a_rival():
    """Red cards move armies; they may not end in a village or a rival's region."""
    s = position(G2, "piece b0 0 military civil\npiece b4 1 civil\nhand 0 legion")
    play(G2, s, "build legion", "region b3", "pay resource")
    assert s[L.PHASE] == L.PH_EFFECT
    assert legal_regions(G2, s) == {"b0", "b3"}  # the armies that can move
    assert "done" in legal(G2, s)
    play(G2, s, "region b0")  # b1, b2 sea without a ship, b4 rival, b6 village, b3 army
    assert legal_regions(G2, s) == {"b5"}
    play(G2, s, "region b5")
    assert s[L.OWNER + region("b5")] == 0 and s[L.PIECES + region("b0")] == 1 << T.CIVIL


def test_army_that_triggers_an_attack_moves_no_further():
    """An army whose move triggers a village attack cannot move any further [S5]."""
    # b6 (3 VP): neighbours b1 (own ship), b0 (own), b5 (empty); the army at b4 steps in
    s = position(
        GA,
        "piece b1 0 maritime\npiece b0 0 civil\npiece b4 0 military\n"
        "piece c2 0 civil\nhand 0 cohort",
    )
    play(GA, s, "build cohort", "region c2")  # a second army in c2; Cohort: 2 moves
    play(GA, s, "region b4", "region b5")  # b6 surrounded with an army: attacked
    assert s[L.ATTACKED + region("b6")] == 1 and seat_value(s, 0, L.VP) == 5 + 3
    assert "b5" not in legal_regions(GA, s)  # that army stops; the other may still move
    assert "c2" in legal_regions(GA, s)


def test_army_sharing_only_with_a_temple_cannot_move():
    s = position(G2, "piece b0 0 military\ntemple b0\npiece b3 0 civil\nhand 0 cohort")
    play(G2, s, "build cohort", "region b5", "pay resource")
    assert "b0" not in legal_regions(G2, s)


# ------------------------------------------------------------------ B. Offerings
@pytest.mark.parametrize(
    "top,n,gold,vp,pieces",
    [
        ("harbour", 2, 5 + 4, 5, (2, 2, 3, 2, 2)),  # Neptune: 2 gold per card + a ship
        ("shrine", 1, 5, 6, (3, 2, 2, 2, 2)),  # Vesta: 1 VP for one card + civil
        ("shrine", 3, 5, 7, (3, 2, 2, 2, 2)),  # Vesta: 2 VP for more than one
        ("library", 2, 5, 5, (2, 3, 2, 2, 2)),  # Minerva: scientific piece
    ],
)
def test_offering_powers(top, n, gold, vp, pieces):
    """B.3: the god of the top card; magnitude by the number of cards discarded."""
    under = ["mill", "forum", "outpost"][: n - 1]
    s = position(G2, f"hand 0 {top} {' '.join(under)} raiders")
    play(G2, s, f"offer {top}", *[f"offer {u}" for u in under], "done")
    extra = n if top == "library" else 0
    play(G2, s, *["draw"] * extra)  # Minerva: each extra card is the seat's choice
    pb = L.player(0)
    assert seat_value(s, 0, L.GOLD) == gold and seat_value(s, 0, L.VP) == vp
    assert tuple(s[pb + L.ON_BOARD : pb + L.ON_BOARD + 5]) == pieces
    assert s[pb + L.HAND_N] == 5 + extra  # refill to 5, + N with Minerva
    assert s[L.CUR] == 1


def test_minerva_extra_draw_is_a_choice():
    """B.3 Minerva: "You can draw an additional card in Step 4 for each card discarded":
    after the refill to 5 the seat draws each extra card (``draw``) or stops (``done``)."""
    s = position(G2, "hand 0 library forum shrine raiders")
    play(G2, s, "offer library", "offer forum", "offer shrine", "done")
    pb = L.player(0)
    assert s[pb + L.HAND_N] == 5 and s[L.CUR] == 0  # refilled to 5; 3 extra on offer
    assert legal(G2, s) == {"draw", "done"}
    play(G2, s, "draw")
    assert s[pb + L.HAND_N] == 6 and legal(G2, s) == {"draw", "done"}
    play(G2, s, "done")  # declines the other two
    assert s[pb + L.HAND_N] == 6 and s[L.CUR] == 1
    # Jupiter invoking Minerva offers the same choice
    s = position(G2, "hand 0 temple-of-fields forum raiders")
    play(G2, s, "offer temple-of-fields", "offer forum", "done", "god minerva")
    assert legal(G2, s) == {"draw", "done"}
    play(G2, s, "draw", "draw")
    assert s[pb + L.HAND_N] == 7 and s[L.CUR] == 1
    # option minerva_draw="always": the extra cards are drawn at once, no choice
    g = game(minerva_draw="always")
    s = position(g, "hand 0 library forum shrine raiders")
    play(g, s, "offer library", "offer forum", "offer shrine", "done")
    assert s[pb + L.HAND_N] == 8 and s[L.CUR] == 1


def test_ceres_resources_of_choice_and_mars_pieces_of_choice():
    s = position(G2, "hand 0 mill forum shrine")
    play(G2, s, "offer mill", "offer forum", "done")
    assert legal(G2, s) == {f"resource {r}" for r in T.RESOURCE_NAMES}
    play(G2, s, "resource stone", "resource stone")
    assert seat_value(s, 0, L.RES + 3) == 3 and s[L.CUR] == 1
    s = position(G2, "hand 0 legion forum shrine")
    play(G2, s, "offer legion", "offer forum", "done", "piece maritime", "piece maritime")
    assert s[L.player(0) + L.ON_BOARD + T.MARITIME] == 4


def test_jupiter_is_a_wildcard():
    """B.3: Jupiter uses the power of one other god (rulebook example: 3 cards, Ceres)."""
    s = position(G2, "hand 0 temple-of-fields forum shrine raiders")
    play(G2, s, "offer temple-of-fields", "offer forum", "offer shrine", "done")
    assert legal(G2, s) == {"god vesta", "god minerva", "god neptune", "god mars", "god ceres"}
    play(G2, s, "god ceres", "resource wheat", "resource wood", "resource wood")
    assert seat_value(s, 0, L.RES + 1) == 3
    assert s[L.player(0) + L.ON_BOARD + T.PRODUCTION] == 3


def test_only_the_top_card_is_public():
    """B.2: the discarded cards lie face up with only the top card visible."""
    s = position(G2, "hand 0 harbour forum shrine")
    play(G2, s, "offer harbour", "offer forum", "done")
    top = int(s[L.DISC + s[L.DISC_N] - 1])
    under = int(s[L.DISC + s[L.DISC_N] - 2])
    assert T.DESIGN_NAMES[T.CARD_DESIGN[top]] == "Harbour"
    assert s[L.KNOWN + top] == L.ALL_SEATS and s[L.KNOWN + under] == 1


def test_hand_limit_ten():
    """B.4: no more than 10 cards in hand."""
    s = position(
        G2, "hand 0 library library library forum shrine villa-field villa-swamp mill mine"
    )
    play(G2, s, "offer library", "offer library", "offer library", "done")
    play(G2, s, "draw", "draw", "draw")
    assert s[L.player(0) + L.HAND_N] == 9  # 6 left, 5 reached, +3 Minerva
    s = position(G2, "hand 0 library forum shrine villa-field villa-swamp mill mine cohort")
    play(G2, s, "offer library", "offer forum", "done", "draw", "draw")
    assert s[L.player(0) + L.HAND_N] == 8  # 6 left (>5), + 2 Minerva
    # 10 cards, 6 offered to Minerva: 4 left, refilled to 5, then 6 extra would make 11:
    # the fifth draw reaches 10 and closes the choice
    s = position(
        G2, "hand 0 library forum shrine villa-field villa-swamp mill mine cohort outpost raiders"
    )
    under = ("forum", "shrine", "villa-field", "villa-swamp", "mill")
    play(G2, s, "offer library", *[f"offer {u}" for u in under], "done")
    assert s[L.player(0) + L.HAND_N] == 5
    play(G2, s, "draw", "draw", "draw", "draw")
    assert s[L.player(0) + L.HAND_N] == 9 and legal(G2, s) == {"draw", "done"}
    play(G2, s, "draw")
    assert s[L.player(0) + L.HAND_N] == 10 and s[L.CUR] == 1


def test_empty_hand_draws_five_and_discards_are_reshuffled():
    """A "Important": no cards at the end of the action -> draw 5; an empty draw pile is
    the shuffled discard pile."""
    s = position(G2, "piece b3 0 civil\nhand 0 villa-forest")
    deck = int(s[L.DECK_N])
    play(G2, s, "build villa-forest", "region b0", "pay resource")
    assert s[L.player(0) + L.HAND_N] == 5 and s[L.DECK_N] == deck - 5
    s = position(G2, "hand 0 harbour")
    # move the whole deck but 2 cards to the discard pile
    n = int(s[L.DECK_N])
    for i in range(n - 2):
        c = s[L.DECK + i]
        s[L.DISC + i] = c
        s[L.CARD_LOC + c] = L.LOC_DISCARD
    s[L.DECK : L.DECK + 2] = s[L.DECK + n - 2 : L.DECK + n].copy()
    s[L.DECK + 2 : L.DECK + n] = -1
    s[L.DECK_N] = 2
    s[L.DISC_N] = n - 2
    play(G2, s, "offer harbour", "done")
    assert s[L.player(0) + L.HAND_N] == 5 and not G2.check_invariants(s)


# ------------------------------------------------------------------ End of game
def test_last_temple_triggers_the_end_round_plus_one():
    """End: all temples built -> finish the round, then one more round."""
    s = position(GA, "piece b0 0 civil\ntemples 1\nhand 0 temple-of-fields")
    play(GA, s, "build temple-of-fields", "region b0")
    assert s[L.END_TRIGGER] == 1 and not GA.is_terminal(s)
    turns = 0
    rng = np.random.default_rng(0)
    while not GA.is_terminal(s):
        before = s[L.TURN]
        GA.step(s, int(rng.choice(GA.legal_actions(s))))
        turns += int(s[L.TURN] != before)
    assert turns == 3  # seat 1 ends the round; then seat 0 and seat 1 play once more


def test_last_village_triggers_the_end():
    s = position(GA, ATTACK + "piece c2 1 civil\nvillage a0 0\nvillage c1 0\nvillage d0 0\n")
    play(GA, s, "build cohort", "region b5")
    while s[L.PHASE] != L.PH_MAIN:  # the Cohort may move armies; stop it
        play(GA, s, "done")
    assert s[L.END_TRIGGER] == 1


def test_majorities_two_vp_ties_all_score():
    """Scoring 3: the most of each resource and of gold (at least 1): 2 VP; ties all score."""
    s = position(G2, "seat 0 gold 9 res 2 0 1 0\nseat 1 gold 3 res 2 0 0 0")
    scores = np.zeros(2, np.int64)
    final_scores(s, G2.params, scores)
    # seat 0: gold, wheat (tie), clay = 6; seat 1: wheat (tie) = 2; nobody has wood/stone
    assert list(scores) == [5 + 6, 5 + 2] == reference.final_scores(s, G2.params)


@pytest.mark.parametrize("tie_break,expected", [("shared", [1, 1, -1]), ("leftovers", [1, -1, -1])])
def test_tied_leaders_share_the_win(tie_break, expected):
    """Scoring: "The player with the highest total VPs is the grand winner!" names no
    tie-break; reading (docs/rules/deus.md): tied leaders share the win. Option
    ``tie_break="leftovers"``: most resources + gold left among the tied."""
    g = game(players=3, tie_break=tie_break)
    s = g.new_state(0)
    # seat 0: 10 VP + majorities of gold and wheat and the three shared ones (10) = 20;
    # seat 1: 14 VP + the three shared majorities (6) = 20; seat 2: 5 VP + 6 = 11
    for p, vp in enumerate((10, 14, 5)):
        s[L.player(p) + L.VP] = vp
    s[L.player(0) + L.GOLD] += 1
    s[L.player(0) + L.RES] += 1
    scores = np.zeros(3, np.int64)
    final_scores(s, g.params, scores)
    assert list(scores) == [20, 20, 11]
    s[L.OVER] = 1
    assert list(g.returns(s)) == expected


def test_board_text_is_readable():
    s = position(G2, "piece b0 0 civil military")
    text = G2.render(s)
    assert "b0:F[0ca]" in text and "b6:V3" in text
    assert BOARD
