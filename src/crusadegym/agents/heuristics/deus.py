"""Heuristic for Deus: a whole-turn greedy lookahead on a determinization of the state.

It acts only on what its seat sees: before looking ahead it determinizes a copy of the
state for its seat (``Game.determinize``: rivals' hands, the deck order and the cards
under offerings are resampled from what the seat knows), so draws in the lookahead come
from a sampled deck, never the real one.

Strategy: every legal action is stepped on the copy, then the rest of the same turn
(placement, payment, effect choices, the god of a Jupiter offering) is completed greedily,
one sub-decision at a time, each scored one ply ahead; the action whose completed turn
scores best for the mover is played. Evaluation, per seat, in VP:

* the final score as it stands (VP, temple cards capped at 12, the 2-VP majorities);
* gold at 1/4 VP up to 40 gold and each resource at 1/2 VP up to 5 (a resource is worth
  4 gold in a cost; beyond that a hoard scores only its majority);
* pieces on the player board (they allow building) and cards in hand (they allow
  building and feed offerings), each a small bonus;
* regions held and armies next to live barbarian villages (future raids);
* the cards counting toward the next temple's prerequisite, and a temple card held.

A seat's ``z = (own - best rival) / (SIGMA * sqrt(1 + turns left))`` measures its margin
against how much it can still move: the margin is taken as a random walk of step
``SIGMA`` per turn, so the same lead is worth more the nearer the end (rulebook "End of
Game": all temples built or all barbarian villages attacked, the round finished, one
more round). Turns left are exact once the end is triggered, else the turns the leader
needs to trigger it alone (its temple path or its village path, in builds, draws and
pieces gained), so the seat ahead builds temples and closes villages, and a seat behind
plays on -- but counts at most ``TRAILER_HORIZON`` turns, so a stall the leader cannot
break is no gain to it. Without that term nothing in a one-turn lookahead valued ending
the game and two greedy seats traded Vesta's 2 VP a turn for ever (issue #36). The
greedy lookahead compares ``z`` itself, which never saturates (``tanh`` of a large lead
rounds to 1 and made every action tie); the search's value is ``tanh(z / VALUE_SCALE)``
in [-1, 1]. Rivals' VP enter as totals a seat that remembers the game knows (every VP
change is a public event).

MCTS (:func:`evaluate_turn`, ``mcts_defaults``) scores a root action one round of
whole turns later: the rest of its own turn greedily, then every seat's next turn as
this heuristic plays it, on each determinized root, and plays the action most roots
rate best. A deeper tree scored worse the more it searched (issue #36): its leaves sit
at different points of the round, and the wider a node, the more a max over its
children's noisy values flatters it.
"""

from __future__ import annotations

import numpy as np

from crusadegym.core import Game
from crusadegym.core.deus import layout as L
from crusadegym.core.deus import tables as T
from crusadegym.core.deus.actions import N_ACTIONS
from crusadegym.core.deus.board import NEIGH, army_next_to, has_army, is_village, on_board
from crusadegym.core.deus.config import P_PLAYERS
from crusadegym.core.deus.effects import live_village
from crusadegym.core.deus.rules import current_player, is_terminal, legal_mask, step
from crusadegym.core.deus.scoring import final_scores
from crusadegym.core.jit import ajit, jit

from . import Heuristic

W_GOLD = 0.25
W_RESOURCE = 0.5
GOLD_USEFUL = 40
RESOURCE_USEFUL = 5
"""Gold and each resource count as material up to these: they score only through builds
(25 pieces a seat) and the 2-VP majority, so a hoard of Neptune's gold is no lead."""
W_PIECE = 0.3
W_CARD = 0.4
W_REGION = 0.6
W_RAID = 1.0
W_PREREQ = 1.5
"""Per card toward the next temple's prerequisite (n-1 of each colour for the n-th)."""
W_TEMPLE_CARD = 1.0
"""For holding a temple card (the first one only)."""
SIGMA = 2.0
"""Spread of the margin per turn of one seat, in VP: the random walk's step."""
TURNS_PER_TEMPLE = 6.0
"""Turns per seat a temple still in the general supply keeps the game going."""
TURNS_PER_STEP = 1.0
"""Turns per seat one step toward an end costs: a build, a card drawn, a piece gained."""
BLOCKED_GAP = 10.0
"""Steps charged for a build the seat cannot make (no piece of the type left, no chain
of empty regions to the place)."""
FINAL_ROUNDS = 1.5
"""Turns per seat after the end is triggered: the rest of the round, then one more."""
TRAILER_HORIZON = 10.0
"""Most turns left a seat behind counts (see :func:`scores`)."""
TERMINAL_Z = 5.0
"""z per VP of final margin once the game is over (a 1-VP win is already near-certain)."""
VALUE_SCALE = 3.0
"""z per unit of ``tanh`` in the search's value: a late lead of z 4 or 6 stays told apart."""
_TIE_NOISE = 1e-6


@jit
def seat_material(state, params, p, score):
    """Seat p's material in VP units (``score``: its final score as it stands)."""
    pb = L.player(p)
    v = float(score)
    v += W_GOLD * min(state[pb + L.GOLD], GOLD_USEFUL)
    for k in range(T.N_RESOURCES):
        v += W_RESOURCE * min(state[pb + L.RES + k], RESOURCE_USEFUL)
    for t in range(T.N_TYPES):
        v += W_PIECE * min(state[pb + L.ON_BOARD + t], 2)
    v += W_CARD * min(state[pb + L.HAND_N], 6)
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[L.OWNER + r] == p:
            v += W_REGION
    for r in range(T.N_REGIONS):
        if live_village(state, params, r) and army_next_to(state, params, p, r):
            v += W_RAID
    built = state[L.col_n(p, T.TEMPLE)]
    for colour in range(T.N_TYPES):
        v += W_PREREQ * min(state[L.col_n(p, colour)], built)
    if temple_cards_held(state, p) > 0:
        v += W_TEMPLE_CARD
    return v


@jit
def temple_cards_held(state, p):
    """Temple cards in seat p's hand."""
    held = 0
    for c in range(T.N_CARDS):
        in_hand = state[L.CARD_LOC + c] == L.LOC_HAND0 + p
        if in_hand and T.DESIGN_COLOUR[T.CARD_DESIGN[c]] == T.TEMPLE:
            held += 1
    return held


@jit
def _pieces_left(state, p, ptype):
    pb = L.player(p)
    return state[pb + L.ON_BOARD + ptype] + state[pb + L.IN_SUPPLY + ptype]


@jit
def _build_steps(builds, cards, pieces, left):
    """Steps to make ``builds`` builds of one kind: each build, a draw for each card the
    hand lacks (``cards`` held), a god's gift for each piece the player board lacks
    (``pieces`` there) [R A.1]; ``BLOCKED_GAP`` each when fewer than that are ``left``."""
    if builds <= 0:
        return 0.0
    if builds > left:
        return BLOCKED_GAP * builds
    return builds + max(0.0, builds - cards) + max(0.0, builds - pieces)


@ajit
def _hand_colours(state, p):
    out = np.zeros(T.N_COLOURS, np.int64)
    for c in range(T.N_CARDS):
        if state[L.CARD_LOC + c] == L.LOC_HAND0 + p:
            out[T.DESIGN_COLOUR[T.CARD_DESIGN[c]]] += 1
    return out


@ajit
def temple_turns(state, params, p):
    """Turns for seat p alone to build every temple left [R "End of Game"]: each temple,
    a draw for a temple card when the hand holds none, and the build steps
    (:func:`_build_steps`) of the cards its columns lack for the last one's prerequisite
    [R temples 2]."""
    left = state[L.TEMPLES_LEFT]
    if left == 0:
        return 0.0
    pb = L.player(p)
    need = state[L.col_n(p, T.TEMPLE)] + left - 1
    hand = _hand_colours(state, p)
    steps = 0.0 if hand[T.TEMPLE] > 0 else 1.0
    for colour in range(T.N_TYPES):
        steps += _build_steps(
            need - state[L.col_n(p, colour)],
            hand[colour],
            state[pb + L.ON_BOARD + colour],
            _pieces_left(state, p, colour),
        )
    return TURNS_PER_TEMPLE * left + TURNS_PER_STEP * steps


@ajit
def placements_to(state, params, p, out):
    """out[r] = placements seat p needs to occupy the empty region r: 1 next to one of
    its regions, one more per empty region between [R A.4 "adjacent to one you own"];
    ``BLOCKED_GAP`` when no chain of empty regions leads there. A seat with no region
    yet places its first building on any edge: 1 everywhere."""
    out[:] = BLOCKED_GAP
    queue = np.empty(T.N_REGIONS, np.int64)
    head, tail = 0, 0
    for r in range(T.N_REGIONS):
        if on_board(params, r) and state[L.OWNER + r] == p:
            out[r] = 0.0
            queue[tail] = r
            tail += 1
    if tail == 0:
        out[:] = 1.0
        return
    while head < tail:
        r = queue[head]
        head += 1
        for k in range(6):
            n = NEIGH[r, k]
            if (
                on_board(params, n)
                and state[L.OWNER + n] < 0
                and not is_village(state, n)
                and out[r] + 1.0 < out[n]
            ):
                out[n] = out[r] + 1.0
                queue[tail] = n
                tail += 1


@ajit
def village_turns(state, params, p):
    """Turns for seat p alone to have every live village attacked [R "Attacking a
    Barbarian Village"]: the build steps (:func:`_build_steps`) of a ship for each empty
    sea next to a live village, of land buildings for the other empty regions next to
    one and the regions on the way there (:func:`placements_to`), and of an army for each
    live village with none next to it."""
    reach = np.empty(T.N_REGIONS, np.float64)
    placements_to(state, params, p, reach)
    seas = 0.0
    lands = 0.0
    for r in range(T.N_REGIONS):
        if not on_board(params, r) or state[L.OWNER + r] >= 0 or is_village(state, r):
            continue
        for k in range(6):
            if live_village(state, params, NEIGH[r, k]):
                if state[L.TERRAIN + r] == T.SEA:
                    seas += 1.0
                    lands += reach[r] - 1.0
                else:
                    lands += reach[r]
                break
    no_army = 0.0
    for v in range(T.N_REGIONS):
        if live_village(state, params, v) and not any_army_next_to(state, params, v):
            no_army += 1.0
    pb = L.player(p)
    hand = _hand_colours(state, p)
    land_cards = 0
    land_board = 0
    land_left = 0
    for t in range(T.N_TYPES):
        if t != T.MARITIME:
            land_cards += hand[t]
            land_board += state[pb + L.ON_BOARD + t]
            land_left += _pieces_left(state, p, t)
    m, a = T.MARITIME, T.MILITARY
    steps = _build_steps(seas, hand[m], state[pb + L.ON_BOARD + m], _pieces_left(state, p, m))
    steps += _build_steps(lands, land_cards, land_board, land_left)
    steps += _build_steps(no_army, hand[a], state[pb + L.ON_BOARD + a], _pieces_left(state, p, a))
    return TURNS_PER_STEP * steps


@jit
def any_army_next_to(state, params, v):
    for k in range(6):
        n = NEIGH[v, k]
        if on_board(params, n) and state[L.OWNER + n] >= 0 and has_army(state, n):
            return True
    return False


@ajit
def turns_left(state, params, leader):
    """Turns per seat until the game ends [R "End of Game"]: exact once the end is
    triggered (``FINAL_LEFT``), else the time ``leader`` needs to trigger it alone (the
    nearer of the temple end and the village end; rivals behind it have no reason to
    help), plus the rounds after the trigger."""
    if state[L.OVER] != 0:
        return 0.0
    if state[L.END_TRIGGER] != 0:
        return state[L.FINAL_LEFT] / params[P_PLAYERS]
    return FINAL_ROUNDS + min(
        temple_turns(state, params, leader), village_turns(state, params, leader)
    )


@ajit
def scores(state, params, out):
    """out[p] = z, seat p's margin over the best rival per spread still to come (float64).

    Over: the final scores' margin times ``TERMINAL_Z``. Else the material margin over
    ``SIGMA * sqrt(1 + turns left)``, the turns the leader needs to end the game; a seat
    behind counts at most ``TRAILER_HORIZON`` of them (it gains from time only while the
    end is near: when the leader cannot end the game soon, nothing in a long stall moves
    the margin, and a seat behind that valued every extra turn would never end it).
    ``z`` is monotone in the value and never saturates, so the greedy lookahead compares
    it directly.
    """
    players = params[P_PLAYERS]
    score = np.zeros(players, np.int64)
    final_scores(state, params, score)
    mat = np.zeros(players, np.float64)
    per = np.full(players, TERMINAL_Z)
    if is_terminal(state, params):
        for p in range(players):
            mat[p] = score[p]
    else:
        leader = 0
        for p in range(players):
            mat[p] = seat_material(state, params, p, score[p])
            if mat[p] > mat[leader]:
                leader = p
        left = turns_left(state, params, leader)
        for p in range(players):
            t = left if p == leader else min(left, TRAILER_HORIZON)
            per[p] = 1.0 / (SIGMA * np.sqrt(1.0 + t))
    for p in range(players):
        rival = -np.inf
        for q in range(players):
            if q != p and mat[q] > rival:
                rival = mat[q]
        out[p] = (mat[p] - rival) * per[p]


@ajit
def evaluate(state, params, out):
    """Per-seat value in [-1, 1]: ``tanh(z / VALUE_SCALE)`` of :func:`scores`."""
    z = np.zeros(params[P_PLAYERS], np.float64)
    scores(state, params, z)
    for p in range(params[P_PLAYERS]):
        out[p] = np.tanh(z[p] / VALUE_SCALE)


@jit
def _same_turn(state, params, seat, turn):
    return not is_terminal(state, params) and state[L.CUR] == seat and state[L.TURN] == turn


@ajit
def _complete_turn(state, params, seat, turn):
    """Finish ``seat``'s turn greedily, each sub-decision scored one ply ahead."""
    mask = np.zeros(N_ACTIONS, np.uint8)
    rewards = np.zeros(params[P_PLAYERS], np.float32)
    z = np.zeros(params[P_PLAYERS], np.float64)
    trial = np.empty_like(state)
    while _same_turn(state, params, seat, turn):
        legal_mask(state, params, mask)
        best, best_a = -np.inf, -1
        for a in range(N_ACTIONS):
            if not mask[a]:
                continue
            trial[:] = state
            step(trial, params, a, rewards)
            scores(trial, params, z)
            if z[seat] > best:
                best, best_a = z[seat], a
        step(state, params, best_a, rewards)


@ajit
def turn_values(state, params, out):
    """out[a] = the mover's z (:func:`scores`) after action a and a greedy rest of the
    turn; -inf for illegal actions."""
    seat = current_player(state, params)
    turn = state[L.TURN]
    mask = np.zeros(N_ACTIONS, np.uint8)
    rewards = np.zeros(params[P_PLAYERS], np.float32)
    z = np.zeros(params[P_PLAYERS], np.float64)
    trial = np.empty_like(state)
    legal_mask(state, params, mask)
    for a in range(N_ACTIONS):
        out[a] = -np.inf
        if not mask[a]:
            continue
        trial[:] = state
        step(trial, params, a, rewards)
        _complete_turn(trial, params, seat, turn)
        scores(trial, params, z)
        out[a] = z[seat]


@ajit
def best_turn(state, params):
    """Play the mover's whole turn in place as the heuristic plays it: the first
    sub-decision by :func:`turn_values` (the whole-turn lookahead), the rest greedily."""
    seat = current_player(state, params)
    turn = state[L.TURN]
    values = np.empty(N_ACTIONS, np.float64)
    turn_values(state, params, values)
    best = 0
    for a in range(N_ACTIONS):
        if values[a] > values[best]:
            best = a
    step(state, params, best, np.zeros(params[P_PLAYERS], np.float32))
    _complete_turn(state, params, seat, turn)


@ajit
def evaluate_turn(state, params, out):
    """The MCTS value: :func:`evaluate` one round of whole turns later, on a copy.

    The current turn is finished greedily (a build is several sub-decisions: scoring
    the state halfway through would miss what the turn gains), then every seat plays
    one whole turn as the heuristic would (:func:`best_turn`), so the seat that moved
    last has also had its next turn: its action is scored against the rivals' best
    replies and what it sets up for itself. At a turn's start the turn before has
    just ended and the round starts there. The search reads it where every position
    it compares stands at the same point of the round: with one iteration per
    determinized root (``mcts_defaults``) the search scores each root action this
    way and votes over the roots (issue #36; docs/rules/deus.md, "Agent strength").
    """
    if is_terminal(state, params):
        evaluate(state, params, out)
        return
    trial = state.copy()
    if trial[L.PHASE] != L.PH_MAIN:
        _complete_turn(trial, params, trial[L.CUR], trial[L.TURN])
    for _ in range(params[P_PLAYERS]):
        if is_terminal(trial, params):
            break
        best_turn(trial, params)
    evaluate(trial, params, out)


def choose(game: Game, state: np.ndarray, rng: np.random.Generator) -> int:
    """The heuristic's action: whole-turn greedy lookahead on a determinized copy."""
    game.check_state(state)
    if game.is_terminal(state):
        raise ValueError(f"{game.name}: the game is over; no action to choose")
    seat = game.current_player(state)
    view = state.copy()
    game.determinize(view, seat)  # never look at what the seat cannot see
    values = np.empty(game.num_actions, np.float64)
    turn_values(view, game.params, values)
    legal = np.isfinite(values)
    values[legal] += rng.random(int(legal.sum())) * _TIE_NOISE
    return int(np.argmax(np.where(legal, values, -np.inf)))


HEURISTIC = Heuristic(
    game="deus",
    description=__doc__.split("\n\n", 1)[1],
    value=evaluate_turn,
    choose=choose,
    # one iteration per determinized root: each root scores every action with the
    # one-round lookahead (its priors) and expands the best; the roots vote (see the
    # module docstring: a deeper tree scored worse)
    mcts_defaults={
        "iterations": 2,
        "c_uct": 0.05,
        "rollout_depth": 0,
        "prior_visits": 8.0,
        "determinizations": 2,
    },
)
