"""The compiled MCTS tree (agents/tree_search.py) against the Python tree it replaces.

Both engines draw a node's action order (the tie-break) and the rollout seeds from the
same generator in the same order, and a hidden-information game's determinized roots
from the same function, so the two searches must agree visit for visit, with
``shuffle=False`` (legal order) or not; the Python tree is the readable reference.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from dlv_helpers import random_positions
from tinygame import tiny_state

from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.heuristics import get_heuristic, value_kernel
from crusadegym.agents.mcts import MCTSAgent, MCTSConfig, determinized_roots
from crusadegym.agents.tree_search import (
    E_ACTION,
    E_EXTEND,
    E_SEAT_VALUES,
    N_COUNT,
    N_FIRST,
    CompiledTree,
)
from crusadegym.core import make_game


def _search(engine: str, game, state, **options) -> MCTSAgent:
    agent = MCTSAgent(seed=5, engine=engine, **{"shuffle": False, **options})
    agent.choice = agent.act_state(game, state.copy())
    return agent


def _same_search(game, state, **options) -> None:
    python, compiled = (_search(e, game, state, **options) for e in ("python", "compiled"))
    assert compiled.choice == python.choice
    assert compiled.last_visits == python.last_visits
    assert compiled.last_depth == python.last_depth
    assert compiled.last_iterations == python.last_iterations


@pytest.mark.parametrize(
    "options",
    [
        {},  # the game's defaults: priors from the two-ply lookahead, the value at the leaf
        {"prior_visits": 0.0, "c_uct": 0.3, "iterations": 80},  # plain UCT
        {"prior_visits": 3.0, "c_uct": 0.05, "iterations": 150},
    ],
    ids=["defaults", "plain-uct", "weak-priors"],
)
def test_the_engines_agree_visit_for_visit_on_deus_lo_vult(options):
    game = make_game("deus_lo_vult", players=2, rounds=1, max_turns=30)
    positions = list(random_positions(game, 2, 150, seed=11))[::25]
    assert len(positions) >= 8
    for state in positions:
        _same_search(game, state, **options)


def _heuristic_positions(game, count: int, every: int = 9) -> list[np.ndarray]:
    """Positions of one heuristic-vs-heuristic game where the mover has a choice."""
    state, out, step = game.new_state(2), [], 0
    players = [HeuristicAgent(seed=p) for p in range(game.num_players)]
    while not game.is_terminal(state) and len(out) < count:
        if step % every == 0 and len(game.legal_actions(state)) > 1:
            out.append(state.copy())
        state_seat = game.current_player(state)
        game.step(state, players[state_seat].act_state(game, state))
        step += 1
    return out


@pytest.mark.parametrize("name", ["deus", "crusaders"])
@pytest.mark.parametrize(
    "options",
    [
        {},  # the game's defaults
        {"iterations": 60, "rollout_depth": 6, "shuffle": True},  # rollouts, random order
        {"iterations": 60, "prior_visits": 0.0, "determinizations": 3, "rollout_depth": 2},
    ],
    ids=["defaults", "rollouts-shuffled", "plain-uct"],
)
def test_the_engines_agree_visit_for_visit_with_hidden_information(name, options):
    """Determinized roots (the same ones for both engines), searched in turn."""
    game = make_game(name)
    positions = _heuristic_positions(game, 4)
    assert len(positions) == 4
    for state in positions:
        _same_search(game, state, **options)


@pytest.mark.parametrize(
    "board, to_move", [(".........", 0), ("X...O....", 0), ("XX..O.O..", 1), ("XOXO.....", 0)]
)
def test_the_engines_agree_on_tiny_tictactoe(board, to_move):
    """No evaluation (zeros until the end), so only the search itself decides."""
    game, state = tiny_state(board, to_move=to_move)
    _same_search(game, state, iterations=300, rollout_depth=0)
    _same_search(game, state, iterations=300, rollout_depth=0, prior_visits=0.0)


def test_a_tree_that_grows_from_two_nodes_searches_as_one_sized_up_front():
    game, state = tiny_state(".........", to_move=0)
    heuristic = get_heuristic(game.name)
    search = {"seed": 1, "c_uct": 1.4, "prior_visits": 2.0, "rollout_depth": 40,
              "rollouts_per_leaf": 1, "shuffle_actions": True}  # fmt: skip
    value = value_kernel(game, heuristic)
    trees = [CompiledTree(game, state, value, None, nodes=size, **search) for size in (2, 4096)]
    for tree in trees:
        assert tree.search(500) == 500
    small, large = (tree.root_statistics() for tree in trees)
    for a, b in zip(small, large, strict=True):
        np.testing.assert_array_equal(a, b)
    assert trees[0].states.shape[0] > 2  # it did grow


def test_the_compiled_search_finds_the_win_and_blocks_the_loss():
    game, state = tiny_state("OO.XX....", to_move=0)  # X (seat 0) wins at 5
    assert MCTSAgent(seed=3, iterations=200, engine="compiled").act_state(game, state) == 5
    game, state = tiny_state("XX..O....", to_move=1)
    assert MCTSAgent(seed=0, iterations=400, engine="compiled").act_state(game, state) == 2


def test_same_seed_same_search_and_another_seed_may_differ():
    game, state = tiny_state(".........", to_move=0)
    runs = [MCTSAgent(seed=s, iterations=300, engine="compiled") for s in (4, 4, 5)]
    for agent in runs:
        agent.act_state(game, state)
    assert runs[0].last_visits == runs[1].last_visits
    assert sum(runs[2].last_visits.values()) == 300


def test_a_time_budget_runs_in_chunks_and_stops():
    game = make_game("tiny_tictactoe")
    agent = MCTSAgent(config=MCTSConfig(iterations=None, seconds=0.05, engine="compiled"))
    state = game.new_state(1)
    assert game.legal_mask(state)[agent.act_state(game, state)]
    assert agent.last_iterations >= 1
    capped = MCTSAgent(config=MCTSConfig(iterations=37, seconds=5.0, engine="compiled"))
    capped.act_state(game, state)
    assert capped.last_iterations == 37


def test_a_search_runs_at_least_one_iteration_even_past_its_deadline():
    """The first compiled search of a process compiles inside its time budget (seconds
    on a budget of milliseconds); it must still search, as the Python tree does."""
    cfg = MCTSConfig(iterations=None, seconds=0.01)
    past = time.perf_counter() - 1.0
    assert cfg.within_budget(0, past)
    assert not cfg.within_budget(1, past)
    assert MCTSConfig(iterations=3).within_budget(2, None)
    assert not MCTSConfig(iterations=3).within_budget(3, None)


def test_auto_picks_the_compiled_engine_for_every_game():
    for game in (make_game("deus", players=3), make_game("crusaders"),
                 make_game("tiny_tictactoe")):  # fmt: skip
        assert MCTSAgent().engine_for(game) == "compiled"
        assert MCTSAgent(engine="python").engine_for(game) == "python"
    with pytest.raises(ValueError, match="engine must be one of"):
        MCTSConfig(engine="gpu")


def test_several_roots_share_the_iterations_in_turn_and_pool_their_visits():
    """Root ``i % D`` runs iteration i; the decision sums the roots' visits per action."""
    game = make_game("deus")
    state = _heuristic_positions(game, 1)[0]
    roots = determinized_roots(game, state, 3, seed=4)
    heuristic = get_heuristic(game.name)
    search = {"seed": 2, "c_uct": 1.4, "prior_visits": 2.0, "rollout_depth": 2,
              "rollouts_per_leaf": 1, "shuffle_actions": True}  # fmt: skip
    tree = CompiledTree(game, roots, value_kernel(game, heuristic), heuristic.extend, **search)
    assert tree.search(31) == 31
    per_root = [tree._statistics_of(r) for r in range(3)]
    assert [int(n.sum()) for _, n, _ in per_root] == [11, 10, 10]
    actions, n, w = tree.root_statistics()
    assert list(actions) == sorted(game.legal_actions(state))
    for listed, _, _ in per_root:
        assert sorted(listed) == list(actions)  # the seat's actions: the same at every root
    for i, action in enumerate(actions):
        at_roots = [(v[listed == action][0], s[listed == action][0]) for listed, v, s in per_root]
        assert n[i] == sum(v for v, _ in at_roots)
        assert w[i] == pytest.approx(sum(s for _, s in at_roots))
    assert n.sum() == 31


def test_the_edges_keep_every_seats_value_of_the_position_they_lead_to():
    """What a new leaf reads instead of evaluating again (rollouts of depth 0): for every
    edge the lookahead scored one ply deep, the value of every seat after its action."""
    game = make_game("crusaders")
    state = _heuristic_positions(game, 1)[0]
    heuristic = get_heuristic(game.name)
    value = value_kernel(game, heuristic)
    search = {"seed": 2, "c_uct": 1.4, "prior_visits": 2.0, "rollout_depth": 0,
              "rollouts_per_leaf": 1, "shuffle_actions": False}  # fmt: skip
    tree = CompiledTree(game, state, value, heuristic.extend, **search)
    tree.search(20)
    first, count = int(tree.nodes[N_FIRST, 0]), int(tree.nodes[N_COUNT, 0])
    known = 0
    for e in range(first, first + count):
        stored = tree.edges_f[E_SEAT_VALUES:, e]
        if tree.edges_i[E_EXTEND, e]:
            continue  # a two-ply prior may or may not have a one-ply value behind it
        after = state.copy()
        game.step(after, int(tree.edges_i[E_ACTION, e]))
        expected = np.zeros(game.num_players, np.float32)
        (game.k.returns if game.is_terminal(after) else value)(after, game.params, expected)
        np.testing.assert_array_equal(stored, expected)
        known += 1
    assert known > 1
