"""Hidden information stays hidden on the boards people see: ``Game.render(state, seat)``."""

from __future__ import annotations

import io

import numpy as np
import pytest

from crusadegym.agents.human import HumanAgent
from crusadegym.core import make_game


def _midgame(game, seed: int, steps: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        game.step(state, int(rng.choice(game.legal_actions(state))))
    return state


@pytest.mark.parametrize(
    "name,opts",
    [("deus", {"players": 2}), ("deus", {"players": 3}), ("crusaders", {"players": 2})],
)
def test_view_depends_only_on_what_the_seat_sees(name, opts):
    game = make_game(name, **opts)
    for steps in (0, 3):
        state = _midgame(game, 1, steps)
        for seat in range(game.num_players):
            other = state.copy()
            game.determinize(other, seat)
            assert game.render(state, seat) == game.render(other, seat)
            assert np.array_equal(game.observe(state, seat), game.observe(other, seat))
            # Control: the states really differ in hidden things.
            assert not np.array_equal(state, other)
            if name == "deus":
                assert game.render(state) != game.render(other)


def test_deus_view_hides_rival_hand_and_shows_every_vp():
    """Rivals' hands are hidden; VP are public (every VP change is a public event;
    docs/rules/deus.md, "Hidden information")."""
    game = make_game("deus", players=2)
    state = game.new_state(0)
    full, view = game.render(state), game.render(state, 0)
    assert full.count("hand:") == 2 and view.count("hand:") == 1
    assert "vp ?" not in view and view.count(" vp ") == full.count(" vp ") == 2


def test_human_seat_output_hides_rival_cards():
    game = make_game("deus", players=2)
    state = game.new_state(3)
    out = io.StringIO()
    human = HumanAgent(input=io.StringIO("1\n"), output=out)
    human.act_state(game, state)
    seat = game.current_player(state)
    rival_hand = [ln for ln in game.render(state).splitlines() if ln.startswith("  hand:")]
    mine = [ln for ln in game.render(state, seat).splitlines() if ln.startswith("  hand:")]
    (rival,) = [ln for ln in rival_hand if ln not in mine]
    text = out.getvalue()
    assert mine[0] in text
    assert rival not in text


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_seat_picture_depends_only_on_what_the_seat_sees(name):
    from crusadegym.envs.render import render_rgb

    game = make_game(name, players=2)
    state = _midgame(game, 2, 3)
    other = state.copy()
    game.determinize(other, 0)
    assert np.array_equal(render_rgb(game, state, 0), render_rgb(game, other, 0))


def test_serve_view_of_a_human_seat_is_that_seats_view():
    from crusadegym.ui.serve import view

    game = make_game("deus", players=2)
    state = game.new_state(0)
    seat = game.current_player(state)
    seats = ["random", "random"]
    seats[seat] = "human"
    page = view(game, state, [], seats)
    assert page["board_text"] == game.render(state, seat)
    assert view(game, state, [], None)["board_text"] == game.render(state)


def test_rival_face_down_offering_is_not_named():
    game = make_game("deus", players=2)
    state = game.new_state(0)
    from crusadegym.core.deus import layout as L

    state[L.PHASE] = L.PH_OFFER
    cur = game.current_player(state)
    a = game.parse_action("offer forum")
    assert "forum" in game.action_label(a, state, cur)
    assert "forum" not in game.action_label(a, state, 1 - cur)
    assert "forum" in game.action_label(a, state)
