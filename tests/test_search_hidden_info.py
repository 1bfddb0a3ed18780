"""Search never reads what its seat cannot see (issue #36, goal 4).

For the hidden-information games, two positions that give the searching seat the same
observation but differ in what it cannot see (rivals' hands and the deck order in Deus,
rivals' dealt orders in Crusaders, and the state's RNG: the dice and shuffles to come)
must get the same search: same move, same root visits, with the same seed. The twin of
a position is made by the game's own ``determinize`` for that seat, which resamples
exactly the hidden part. The check has teeth: searched as they are, without
determinizing, the same pairs of positions give different searches.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import crusadegym.agents.mcts as mcts
from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.mcts import MCTSAgent, determinized_roots
from crusadegym.agents.tree_search import CompiledTree
from crusadegym.core import Game, make_game
from crusadegym.core.rng import RNG_SLOTS

HIDDEN_GAMES = ("deus", "crusaders")
POSITIONS = 4
"""Decision points checked per game."""
SEARCH = {"iterations": 40, "rollout_depth": 3, "determinizations": 4}
"""A small search that still reaches below the root and plays rollouts."""


def _decision_points(game: Game, count: int, seed: int) -> Iterator[np.ndarray]:
    """Positions of heuristic play where the mover has a choice and the twin made by
    determinizing for the mover differs from the position (something is hidden)."""
    found = 0
    for game_seed in range(seed, seed + 50):
        state = game.new_state(game_seed)
        players = [HeuristicAgent(seed=game_seed + p) for p in range(game.num_players)]
        step = 0
        while not game.is_terminal(state) and step < 200:
            seat = game.current_player(state)
            if step % 7 == 0 and len(game.legal_actions(state)) > 1:
                yield state.copy()
                found += 1
                if found == count:
                    return
            game.step(state, players[seat].act_state(game, state))
            step += 1


def _twin(game: Game, state: np.ndarray) -> np.ndarray:
    """``state`` with everything its mover cannot see resampled (the RNG included)."""
    twin = state.copy()
    game.determinize(twin, game.current_player(state))
    return twin


def _hidden_part_differs(game: Game, state: np.ndarray, twin: np.ndarray) -> bool:
    """Whether ``twin`` differs from ``state`` beyond the RNG slots."""
    rest = np.ones(state.shape[0], bool)
    rng = game.spec.rng_slot
    rest[rng : rng + RNG_SLOTS] = False
    return not np.array_equal(state[rest], twin[rest])


def _search(game: Game, state: np.ndarray, engine: str = "compiled") -> MCTSAgent:
    agent = MCTSAgent(seed=11, engine=engine, **SEARCH)
    agent.choice = agent.act_state(game, state.copy())
    return agent


@pytest.fixture(scope="module", params=HIDDEN_GAMES)
def pairs(request) -> tuple[Game, list[tuple[np.ndarray, np.ndarray]]]:
    """Per game, positions and their twins: same view for the mover, other hidden part."""
    game = make_game(request.param)
    out = []
    for state in _decision_points(game, POSITIONS, seed=3):
        twin = _twin(game, state)
        seat = game.current_player(state)
        assert np.array_equal(game.observe(twin, seat), game.observe(state, seat))
        out.append((state, twin))
    assert len(out) == POSITIONS
    assert any(_hidden_part_differs(game, s, t) for s, t in out)
    return game, out


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_positions_a_seat_cannot_tell_apart_get_the_same_search(pairs, engine):
    game, positions = pairs
    for state, twin in positions:
        a, b = _search(game, state, engine), _search(game, twin, engine)
        assert a.choice == b.choice
        assert a.last_visits == b.last_visits
        assert a.last_depth == b.last_depth


def test_searched_as_they_are_the_same_positions_differ(pairs, monkeypatch):
    """Without determinizing (the search handed the true position as its only root),
    what the seat cannot see changes the search: the check above can fail."""
    game, positions = pairs
    monkeypatch.setattr(mcts, "determinized_roots", lambda game, state, count, seed: state[None])
    differ = 0
    for state, twin in positions:
        a, b = _search(game, state), _search(game, twin)
        differ += a.last_visits != b.last_visits
    assert differ > 0


def test_the_search_starts_from_determinizations_only(pairs, monkeypatch):
    """Every root handed to the compiled tree shows the seat its own view, none is the
    true position, and the roots differ from one another."""
    game, positions = pairs
    handed = []
    original = CompiledTree.__init__

    def spy(self, game_, root, *args, **kwargs):
        handed.append(np.atleast_2d(root).copy())
        original(self, game_, root, *args, **kwargs)

    monkeypatch.setattr(CompiledTree, "__init__", spy)
    for state, _ in positions:
        _search(game, state)
        roots = handed.pop()
        seat = game.current_player(state)
        assert roots.shape == (SEARCH["determinizations"], state.shape[0])
        view = game.observe(state, seat)
        for root in roots:
            assert np.array_equal(game.observe(root, seat), view)
            assert not np.array_equal(root, state)
        assert len({root.tobytes() for root in roots}) == len(roots)


def test_the_roots_do_not_depend_on_the_state_rng(pairs):
    """The dice and shuffles to come are hidden from every seat: the roots (and so the
    search) are drawn from the search's seed, not from the position's RNG."""
    game, positions = pairs
    state = positions[0][0]
    other = state.copy()
    other[game.spec.rng_slot : game.spec.rng_slot + RNG_SLOTS] ^= 0x5A5A
    np.testing.assert_array_equal(
        determinized_roots(game, state, 3, seed=7), determinized_roots(game, other, 3, seed=7)
    )
    assert not np.array_equal(
        determinized_roots(game, state, 3, seed=7), determinized_roots(game, state, 3, seed=8)
    )
