"""Deus lo Vult games end by the rules, not at the turn cap (issue #36).

The heuristic self-play of the Duel used to stall in round 1 until the cap: its
evaluation was worth less after plundering a round's last coin (every unit lost its
pull toward the loot) and after securing it (the round's end cleared the board), and a
seat that had lost would hold the last coin forever. The evaluation is also the MCTS
cutoff value (``agents/heuristics/deus_lo_vult.py``; figures in docs/rules/deus_lo_vult.md,
"Natural game length"). Each position below is written in the board notation; the
rules are the rulebook's [R "End of the Round / Winning"]; no rule changed.
"""

from __future__ import annotations

import numpy as np
import pytest
from dlv_helpers import at, greedy, position

from crusadegym.agents.base import select_action
from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics import greedy_action, resolve_heuristic
from crusadegym.agents.mcts import MCTSAgent
from crusadegym.core import make_game
from crusadegym.core.deus_lo_vult import layout as L
from crusadegym.core.deus_lo_vult import tables as T
from crusadegym.core.deus_lo_vult.actions import parse_cell
from crusadegym.core.deus_lo_vult.notation import parse_position

SMALL = {"players": 2, "rounds": 1, "max_turns": 400}  # max_turns: per seat, never reached
GAMES = 4


@pytest.mark.parametrize("seed", range(GAMES))
def test_heuristic_self_play_ends_by_the_rules(seed):
    """Every seeded one-round game of heuristic self-play ends with its last coin secured:
    not truncated, every coin of the round in a camp centre."""
    game = make_game("deus_lo_vult", **SMALL)
    state = game.new_state(seed)
    agents = [HeuristicAgent(seed=10 * seed + p) for p in range(2)]
    while not game.is_terminal(state):
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    assert not game.is_truncated(state)
    assert state[L.ROUND_LEFT] == 0 and state[L.ROUND] == 1
    assert int(state[L.TURN]) < SMALL["max_turns"] * SMALL["players"]


def test_the_last_coin_of_a_quarter_is_plundered():
    """The issue's position: the round's last coin in a quarter, a unit of the seat to move
    on its plunder spot (the Pilgrim on g7 faces south, onto the coin edge of the quarter
    on g8). The heuristic plunders it, though no coin is left for its other units."""
    fields = {"g7": "0P", "f7": "0F", "g8": "Q11*1", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army score=6,4 left=1")
    assert greedy(game, state, 2) == ["cell g7", "strike S"]
    assert at(state, "g7") == "pilgrim side=0 coins=1"


def test_the_rounds_last_coin_is_secured():
    """Securing the round's last coin ends the round and clears the board; the heuristic
    still secures it (a round played is worth more than the positions it clears)."""
    fields = {"b3": "0P*1", "c3": "0F", "d3": "0F", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army score=6,4 left=1")
    assert greedy(game, state, 2) == ["cell b3", "give N"]
    assert state[L.ROUND] == 1 and state[L.SCORE] == 7


def test_a_seat_that_has_lost_still_secures_the_games_last_coin():
    """Last round, seat 0 behind by 5 with the game's last coin next to its camp: the game
    is decided, and ending it (a loss) is no worse than going on, so it secures the coin
    and the game ends by the rules."""
    fields = {"b3": "0P*1", "c3": "0F", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army round=3 score=0,5 left=1")
    assert greedy(game, state, 2) == ["cell b3", "give N"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [-1.0, 1.0])


def test_a_seat_too_far_behind_secures_the_last_coin_of_an_earlier_round():
    """Round 2 of 3, seat 0 behind 0 to 18 with the round's last coin next to its camp:
    even with that coin and the richest quarters the last round can deal (16 coins, read
    from which quarters are left, not their order) it stays behind, so the game is
    decided already and securing the coin (which starts a last round it has lost) is no
    worse than holding it. Before, only the last round was ever decided, and the seat held
    the coin until the turn cap (self-play seed 1005)."""
    fields = {"b3": "0P*1", "c3": "0F", "k10": "1F", "k9": "1F"}
    game, state = position(fields, "seat=0 ap=7 phase=army round=2 score=0,18 left=1")
    assert greedy(game, state, 2) == ["cell b3", "give N"]
    assert state[L.ROUND] == 2 and state[L.SCORE] == 1


def test_a_unit_steps_off_a_plunder_spot_it_cannot_use():
    """Seat 1's Footman on f7, the only plunder spot of the Court on e7 (coin edge east;
    only seat 0's Foot Knight strikes west), blocks the quarter for good if it stays. With
    nothing else to do, the heuristic moves it off the spot."""
    fields = {"e7": "Q8*2", "f7": "1F", "g7": "1F", "b3": "0F", "c3": "0F"}
    game, state = position(fields, "seat=1 ap=7 phase=army")
    names = greedy(game, state, 14, seed=1)
    assert at(state, "f7") == "empty", names


def test_a_seat_out_of_the_race_ends_a_three_player_game():
    """Three players, last round: seats 0 and 1 tie at 10, seat 2 has none and carries the
    game's last coin next to its camp (k10, centre k11). It cannot finish first any more,
    so ending the game (a loss) is no worse for it than going on: it secures the coin."""
    fields = {"k10": "2P*1", "k9": "2F", "b3": "0F", "c3": "0F", "j2": "1F", "k3": "1F"}
    header = "seat=2 ap=7 phase=army players=3 round=3 score=10,10,0 left=1 last=0"
    game, state = position(fields, header, players=3)
    assert greedy(game, state, 2) == ["cell k10", "give S"]
    assert game.is_terminal(state) and not game.is_truncated(state)
    assert np.array_equal(game.returns(state), [1.0, -1.0, -1.0])


def test_a_seat_far_ahead_secures_the_coin_that_decides_the_game():
    """Round 2, seat 0 leads 21 to 0 and carries the round's last coin next to its camp
    (centre b2). Securing it ends the round and decides the game (the last round's coins
    cannot close the gap): the decided value must beat every undecided one, which a tanh
    of a 250-coin-unit margin (1 - 5e-4) used to exceed (a heuristic vs random game
    stalled here until the cap)."""
    fields = {"c1": "0K", "c2": "0K*1", "c3": "0F", "h8": "1P'", "i9": "1C'", "h10": "1A'"}
    header = "seat=0 ap=7 phase=army round=2 score=21,0 left=1 purgatory=0P,0A,0P,1P,1K,1P,1V"
    game, state = position(fields, header)
    assert greedy(game, state, 2) == ["cell c2", "give W"]
    assert state[L.ROUND] == 2 and state[L.SCORE] == 22


def test_a_carrier_two_steps_from_home_walks_its_coin_home():
    """Seat 1's wounded Archer on i10 carries a coin; its camp centre is k11 and the
    Refugee on j11 blocks the short way, so the coin goes home by k10. Each step home must
    pay more than the band's shape it costs (the band splits for a move): the heuristic
    used to move Saracens about instead, turn after turn, against a random seat."""
    fields = {"i9": "1K", "i10": "1A'*1", "j10": "1K", "j11": "R7", "c1": "0F", "c2": "0P'",
              "d3": "0P", "a5": "0P", "a6": "0F'", "f5": "Q8*4", "e7": "Q6*3"}  # fmt: skip
    header = "seat=1 ap=7 phase=army round=2 score=0,16 left=8 purgatory=0P,1F,1P,1A,0F"
    game, state = position(fields, header)
    names = greedy(game, state, 6, seed=1)  # this turn (it may heal the Archer at home first)
    assert state[L.SCORE + 1] == 17, names


def test_a_carrier_at_home_secures_its_coin_while_a_rival_still_carries_one():
    """Round 2, nothing left to plunder: each seat carries one coin next to its own camp
    centre (b2, k11), with its band around it. Seat 0's Pilgrim gives its coin. Before, the
    give cleared every escort's pull toward the carrier, more than a secured coin adds
    over a carried one at home, and both seats held their coins until the turn cap
    (self-play seed 1032, 13 coins to 8)."""
    fields = {"b1": "0K", "c1": "0A", "c2": "0P*1", "c3": "0K",
              "i10": "1V", "j10": "1A", "i11": "1F", "j11": "1P*1", "l11": "1P",
              "k12": "1C", "l12": "1A"}  # fmt: skip
    header = "seat=0 ap=7 phase=army round=2 score=13,8 left=2"
    game, state = position(fields, header)
    assert greedy(game, state, 2) == ["cell c2", "give W"]
    assert state[L.SCORE] == 14 and state[L.ROUND_LEFT] == 1


def test_a_seat_withdraws_units_to_deploy_the_kind_that_can_plunder_the_last_quarter():
    """The round's last coins lie in the quarter on e7, plundered only from f7 striking
    west; with seat 0's facing only a Foot Knight strikes west with its skull edge, and
    seat 0 has none on the board, its army at the 13 Army Points (Purgatory counts). It
    withdraws units from its camp to free 3 points and deploys a Foot Knight [R "Unit
    Deployment and Withdrawal"]. Before, no seat did, and the round never ended (Duel,
    MCTS vs heuristic, arena seed 2000: 3 of 20 games at the cap)."""
    fields = {"b1": "0P", "a3": "0F", "b3": "0V", "c3": "0V", "c2": "0A", "e7": "Q11*4",
              "k10": "1F", "k9": "1F"}  # fmt: skip
    header = "seat=0 ap=7 phase=army score=6,6 left=4 purgatory=0F,0F"
    game, state = position(fields, header)
    names = greedy(game, state, 6, seed=1)
    assert names.count("withdraw") == 2 and "deploy foot_knight" in names, names


def test_the_band_goes_to_fetch_a_lone_carrier():
    """Nothing is left to plunder; seat 0's wounded Foot Knight carries a coin alone on
    g2 and cannot move [R "A unit can't move alone"]; its army is at 13 Army Points, so
    nothing can be deployed. The band in the camp walks toward it (escorts are pulled to a
    carrier still away from home). When escorts were pulled
    home as soon as no coin was left to plunder, the band stayed in camp and the round
    never ended (one-round self-play, seed 2)."""
    fields = {"g2": "0K'*1", "b3": "0P", "c3": "0V", "c2": "0P", "g8": "1K*1", "k10": "1F",
              "k9": "1F"}  # fmt: skip
    game, state = position(fields, "seat=0 ap=7 phase=army score=6,5 left=2 purgatory=0F,0F,0A")
    g2 = parse_cell("g2")
    before = min(_dist(c, g2) for c in _own_cells(state, 0) if c != g2)
    greedy(game, state, 7, seed=1)
    after = min(_dist(c, g2) for c in _own_cells(state, 0) if c != g2)
    assert after < before


@pytest.mark.parametrize("finish_decided", [True, False])
def test_mcts_finishes_a_decided_game(finish_decided):
    """Last round, seat 1 leads 19 to 16 and carries the game's last coin two steps from
    its camp centre (k11; the Refugee on j11 blocks one way): the game is decided. Its
    values differ by about 1e-5, far below the search's exploration, and MCTS against the
    heuristic ended its turns here until the cap (arena game 1 of seed 2000). With
    ``finish_decided`` (the default) MCTS plays the greedy lookahead in a decided game,
    and seat 1 walks the coin home and gives it; without (and without ``greedy_beyond``,
    which would play greedily here too), the game does not end."""
    fields = {"b1": "0P", "c1": "0K", "c2": "0F", "j10": "1P", "k10": "1K", "l10": "1A",
              "h11": "1K", "i11": "1P*1", "j11": "R11", "l11": "1P", "l12": "1F"}  # fmt: skip
    game, state = position(fields, "seat=1 ap=7 phase=army round=3 score=16,19 left=1")
    greedy_beyond = None if not finish_decided else 0.905  # the Duel's default otherwise
    agents = [MCTSAgent(seed=seat, finish_decided=finish_decided, greedy_beyond=greedy_beyond)
              for seat in (1, 2)]  # fmt: skip
    for _ in range(40):
        if game.is_terminal(state):
            break
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    assert game.is_terminal(state) == finish_decided
    if finish_decided:
        assert np.array_equal(game.returns(state), [-1.0, 1.0])


@pytest.mark.parametrize("seed", range(2))
def test_the_band_fetches_a_lone_unit_that_alone_can_plunder_the_last_coin(seed):
    """Last round, 18 to 17, the game's last coin in the Court on e7 (coin edge east): of
    seat 0's units only its Foot Knight strikes west from f7, and it stands alone in its
    camp on c3, where it cannot move [R "Unit Movement"]. A lone unit's way to the loot
    counts the steps a friend needs to join it, and escorts are pulled to a looter on
    its way, so the band walks over to the Knight within the turn (the heuristic used to
    end its turns here until the cap)."""
    fields = {"c3": "0K", "d6": "0V", "e6": "0V", "d7": "0V'", "e7": "Q8*1", "g7": "1F'",
              "h7": "1P", "f8": "1P", "e9": "1V", "f9": "1P", "j10": "1F"}  # fmt: skip
    header = "seat=0 ap=7 phase=army round=3 score=18,17 left=1 purgatory=0K,0P,1A,1P"
    game, state = position(fields, header)
    agent, names = HeuristicAgent(seed=seed), []
    while state[L.CUR] == 0:
        action = select_action(agent, game, state)
        names.append(game.action_to_str(action, state))
        game.step(state, action)
    knight = [c for c in range(T.N_CELLS) if _own_kind(state, c) == "foot_knight"]
    assert len(knight) == 1, names
    assert any(n >= 0 and _own_kind(state, n) for n in T.NEIGH[knight[0]]), names


def _own_kind(state, cell: int) -> str:
    """The kind of seat 0's Crusader on ``cell`` ('' for anything else)."""
    t = int(state[L.BOARD + cell])
    if t < 0 or t >= T.SARACEN_TOKEN0 or T.TOKEN_OWNER[t] != 0:
        return ""
    return T.KIND_NAMES[T.TOKEN_KIND[t]]


def _dist(a: int, b: int) -> int:
    return abs(a // T.SIZE - b // T.SIZE) + abs(a % T.SIZE - b % T.SIZE)


def _own_cells(state: np.ndarray, seat: int) -> list[int]:
    """Cells holding seat's army units."""
    return [int(state[L.TOK_LOC + t]) for t in range(seat * T.ARMY_SIZE, (seat + 1) * T.ARMY_SIZE)
            if state[L.TOK_LOC + t] >= 0]  # fmt: skip


SARACEN_SHUFFLE = (
    "seat=0 ap=7 phase=army players=2 round=2 turn=1201/3800 score=18,4 "
    + """\
purgatory=sf,sf,0K,sn,0F,sn,1P,sc,1K
    a     b     c     d     e     f     g     h     i     j     k     l
 1  .     .     .     .     .     sa    .     .     .     .     sgv   .
 2  .     #     R2    .     .     .     .     .     .     sfv   .     .
 3  .     .     0P    .     .     .     .     .     .     .     .     .
 4  .     sg'   0K    0P    .     .     .     .     .     .     .     .
 5  .     .     .     sm'   .     .     .     0P'   0V    .     .     .
 6  se    .     sg    .     sa    .     .     Q4*1  sm>   .     .     sc
 7  .     .     .     sf<   .     .     .     1F    .     .     .     .
 8  .     .     .     .     .     .     .     .     .     .     .     .
 9  .     .     .     .     .     .     .     .     .     .     .     .
10  .     sav   .     .     sg    .     .     .     .     R3    .     R8
11  .     .     .     .     .     .     1P    1P    .     .     #     .
12  .     .     .     .     sa    .     .     1K    1A    .     .     .
"""
)
"""Duel ladder game 151 (seed 0, 2026-12-07) at turn 1201: the round's last coin in the
quarter on h6, whose spots are i6 (seat 0's side) and g6 (seat 1's). Each greedy seat's
best move is the Saracen from its own spot onto the rival's: seat 0 moves it i6 -> g6,
seat 1 moves it back, for the remaining 2,600 turns."""


def _clock_free(state: np.ndarray) -> bytes:
    key = state.copy()
    key[[L.TURN, L.STEP]] = 0
    return key.tobytes()


@pytest.mark.parametrize("guard", [True, False])
def test_the_repetition_guard_breaks_a_saracen_shuffle(guard, monkeypatch):
    """With the repetition guard (``agents/repetition.py``) a seat back in a position it
    has moved from plays its best move not yet tried there, and no position of this
    shuffle comes back more than twice in 300 steps; without it the same position comes
    back every six steps."""
    from crusadegym.agents.repetition import RepetitionGuard

    if not guard:
        monkeypatch.setattr(RepetitionGuard, "tried", lambda self, key: set())
    game = make_game("deus_lo_vult")
    state = parse_position(SARACEN_SHUFFLE)
    agents = [HeuristicAgent(seed=seat) for seat in range(2)]
    seen: dict[bytes, int] = {}
    for _ in range(300):
        key = _clock_free(state)
        seen[key] = seen.get(key, 0) + 1
        game.step(state, select_action(agents[game.current_player(state)], game, state))
    assert (max(seen.values()) <= 2) == guard
    if not guard:
        assert max(seen.values()) >= 300 // 6 - 1


def test_mcts_plays_the_greedy_lookahead_past_the_tanh():
    """Seat 0 leads 18 to 4 in the same position: its value (0.96) lies past the Duel's
    tanh (``greedy_beyond`` = tanh(TANH_SPAN / SCALE), 0.905), where moves differ by about
    3e-5 and the search's visits spread evenly over them. MCTS plays the greedy lookahead
    there without searching, and searches when the option is off."""
    game = make_game("deus_lo_vult")
    state = parse_position(SARACEN_SHUFFLE)
    agent = MCTSAgent(seed=0)
    assert agent.config_for(game).greedy_beyond == pytest.approx(0.905, abs=1e-3)
    assert select_action(agent, game, state) == greedy_action(
        game, state, resolve_heuristic(game), np.random.default_rng(0)
    )
    assert agent.last_iterations == 0
    searching = MCTSAgent(seed=0, greedy_beyond=None)
    select_action(searching, game, state)
    assert searching.last_iterations == 100


def test_greedy_beyond_must_be_a_value():
    with pytest.raises(ValueError, match="greedy_beyond"):
        MCTSAgent(greedy_beyond=1.5)
