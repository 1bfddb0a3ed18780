"""Expert iteration (issue #37): the network, the compiled Gumbel search, the recipe.

* masked priors put no mass on illegal moves (the network and the search's targets);
* the numpy twin computes what the torch network computes, and checkpoints round-trip;
* the search finds a win one move away, and sequential halving follows ``mctx``'s schedule;
* a tiny run improves on the test game (against random, measured before and after);
* the network and the search read only their seat's view (hidden-information games).
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.agents.arena import run_arena
from crusadegym.agents.expert import ExpertAgent
from crusadegym.agents.gumbel_search import GumbelSearch, considered_visits
from crusadegym.agents.heuristic_agent import HeuristicAgent
from crusadegym.agents.network import ILLEGAL_LOGIT, PolicyValueNet
from crusadegym.core import Game, make_game
from crusadegym.errors import UserError

torch = pytest.importorskip("torch")
from crusadegym.training.expert.model import PolicyValueModel, export  # noqa: E402
from crusadegym.training.expert.options import build_parser, command_line, parse_options  # noqa: E402
from crusadegym.training.expert.recipe import Run  # noqa: E402
from crusadegym.training.expert.selfplay import SelfPlay  # noqa: E402

TINY = "tiny_tictactoe"


def _net(game: Game, hidden: int = 16, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    model = PolicyValueModel(game.obs_size, game.num_actions, game.num_players, hidden)
    return export(model, {"game": game.name})


def _uniform_net(game: Game) -> PolicyValueNet:
    """A network with a flat prior and zero values: only the search's own look decides."""
    net = _net(game)
    for w, b in [*net.trunk, net.policy, net.value]:
        w[:] = 0.0
        b[:] = 0.0
    return net


MARKS = {".": -1, "X": 0, "O": 1, "#": 2}
"""The tiny game's board notation (its ``render``): X is seat 0, O seat 1, # blocked."""


def _position(game: Game, board: str, to_move: int) -> np.ndarray:
    """A tic-tac-toe position from nine cells in reading order, e.g. ``"XX.OO...#"``."""
    import tinygame

    state = game.new_state(0)
    cells = [MARKS[c] for c in board]
    state[tinygame.CELLS : tinygame.CELLS + 9] = cells
    state[tinygame.CUR] = to_move
    assert game.render(state).replace("\n", "") == board
    return state


def test_masked_priors_put_no_mass_on_illegal_moves():
    game = make_game(TINY)
    net = _net(game)
    state = _position(game, "O...X...#", 0)
    mask = game.legal_mask(state)
    logits, values = net.forward(game.observe(state, game.current_player(state))[None], mask[None])
    assert np.all(logits[0][mask == 0] == ILLEGAL_LOGIT)
    prior = np.exp(logits[0] - logits[0].max())
    assert np.all(prior[mask == 0] == 0.0)
    assert values.shape == (1, game.num_players) and np.all(np.abs(values) <= 1)
    search = GumbelSearch(game, 1, 8)
    search.run(state[None], np.ones(1, bool), np.zeros((1, game.num_actions)), net.forward)
    targets = search.targets[0]
    assert np.all(targets[mask == 0] == 0.0)
    assert targets.sum() == pytest.approx(1.0, abs=1e-5)


def test_the_numpy_twin_computes_what_torch_computes():
    game = make_game(TINY)
    torch.manual_seed(3)
    model = PolicyValueModel(game.obs_size, game.num_actions, game.num_players, 16)
    net = export(model, {})
    boards = [("........#", 0), ("X.......#", 1), ("X...O...#", 0), ("X...O..#X", 1)]
    states = [_position(game, board, seat) for board, seat in boards]
    obs = np.stack([game.observe(s, game.current_player(s)) for s in states])
    masks = np.stack([game.legal_mask(s) for s in states])
    want_logits, want_values = model.evaluate(obs, masks)
    logits, values = net.forward(obs, masks)
    np.testing.assert_allclose(logits, want_logits, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(values, want_values, rtol=1e-4, atol=1e-5)


def test_checkpoints_round_trip(tmp_path):
    game = make_game(TINY)
    net = _net(game, seed=5)
    net.meta["note"] = "round trip"
    loaded = PolicyValueNet.load(net.save(tmp_path / "net.npz"))
    assert loaded.meta["note"] == "round trip" and loaded.meta["game"] == TINY
    state = _position(game, ".X......#", 1)
    obs = game.observe(state, game.current_player(state))[None]
    mask = game.legal_mask(state)[None]
    a, b = net.forward(obs, mask), loaded.forward(obs, mask)
    np.testing.assert_allclose(a[0], b[0], atol=2e-2)  # stored as float16
    np.testing.assert_allclose(a[1], b[1], atol=2e-2)
    first, second = (
        ExpertAgent(loaded, simulations=8),
        ExpertAgent(tmp_path / "net.npz", simulations=8),
    )
    assert first.act_state(game, state) == second.act_state(game, state)


def test_bad_expert_specs_get_one_line_errors():
    from crusadegym.agents.registry import make_agent

    for bad in ("expert:", "expert:simulations=8"):
        with pytest.raises(ValueError, match="expected expert:PATH.npz"):
            make_agent(bad)


def test_bad_network_files_get_one_line_errors(tmp_path):
    with pytest.raises(UserError, match="no network file"):
        PolicyValueNet.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(UserError, match="cannot read"):
        PolicyValueNet.load(tmp_path / "junk.npz")
    other = _net(make_game("deus"))
    with pytest.raises(UserError, match="trained for deus"):
        ExpertAgent(other, simulations=4).act_state(make_game(TINY), make_game(TINY).new_state(0))


def test_the_search_finds_the_winning_move():
    """X to move wins at the top right, and must; O to move must block there. A flat
    prior and zero values, so only the finished games the search reaches say so."""
    game = make_game(TINY)
    agent = ExpertAgent(_uniform_net(game), simulations=32)
    assert agent.act_state(game, _position(game, "XX.OO...#", 0)) == 2
    assert agent.act_state(game, _position(game, "XX..O...#", 1)) == 2


def test_sequential_halving_follows_the_mctx_schedule():
    table = considered_visits(4, 10)
    assert table[4].tolist() == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert table[1].tolist() == list(range(10))
    assert table[2].tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_options_are_declared_once():
    opts = parse_options([TINY, "--minutes", "0.5", "--option", "players=2"])
    assert opts.game == TINY and opts.minutes == 0.5 and opts.game_options() == {"players": 2}
    assert command_line(opts) == f"crusadegym expert {TINY} --option players=2 --minutes 0.5"
    flags = {a.dest for a in build_parser()._actions}
    assert {"simulations", "batch_games", "teacher", "hidden"} <= flags


def _score_vs_random(path, seed: int) -> float:
    result = run_arena(
        TINY,
        [f"expert:{path}:temperature=0", "random"],
        games_per_lineup=60,
        seed=seed,
        progress=False,
    )
    s = result["summary"][f"expert:{path}:temperature=0"]
    return (s["wins"] + 0.5 * s["draws"]) / s["games"]


def test_a_tiny_run_improves_on_the_test_game(tmp_path):
    """Self-play from scratch (no teacher) for 400 rounds: the network alone (greedy)
    plays tic-tac-toe better against random than the untrained one did."""
    opts = parse_options(
        [
            TINY,
            "--minutes",
            "30",
            "--rounds",
            "400",
            "--teacher",
            "none",
            "--batch-games",
            "32",
            "--simulations",
            "8",
            "--moves-per-round",
            "4",
            "--eval-games",
            "0",
            "--hidden",
            "32",
            "--out",
            str(tmp_path),
        ]
    )
    run = Run(opts)
    run.train()
    assert run.games > 50
    before = _score_vs_random(tmp_path / TINY / "net-000.npz", seed=1)
    after = _score_vs_random(tmp_path / TINY / "final.npz", seed=1)
    print(f"{run.games} games; network alone vs random: {before:.2f} untrained, {after:.2f}")
    assert after > before + 0.1, (before, after)


def _hidden_positions(game: Game, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Positions of heuristic play with a choice, and their twins: the same view for the
    mover, another hidden part (made by the game's own ``determinize``)."""
    out = []
    state = game.new_state(3)
    players = [HeuristicAgent(seed=p) for p in range(game.num_players)]
    step = 0
    while not game.is_terminal(state) and len(out) < count:
        seat = game.current_player(state)
        if step % 5 == 0 and len(game.legal_actions(state)) > 1:
            twin = state.copy()
            game.determinize(twin, seat)
            assert np.array_equal(game.observe(twin, seat), game.observe(state, seat))
            out.append((state.copy(), twin))
        game.step(state, players[seat].act_state(game, state))
        step += 1
    return out


@pytest.mark.parametrize("name", ["deus", "crusaders"])
def test_network_and_search_read_only_their_seats_view(name):
    """Two positions a seat cannot tell apart get the same network answer and the same
    search (move and root visits) with the same seed; without determinizing the root,
    the search would differ (the check has teeth)."""
    game = make_game(name)
    net = _net(game, hidden=32, seed=2)
    differ_undetermined = 0
    for state, twin in _hidden_positions(game, 4):
        a, b = ExpertAgent(net, seed=9, simulations=12), ExpertAgent(net, seed=9, simulations=12)
        assert a.act_state(game, state) == b.act_state(game, twin)
        np.testing.assert_array_equal(a._search.edge_n[0, 0], b._search.edge_n[0, 0])
        raw_a, raw_b = GumbelSearch(game, 1, 12), GumbelSearch(game, 1, 12)
        gumbel = np.zeros((1, game.num_actions))
        raw_a.run(state[None], np.ones(1, bool), gumbel, net.forward)
        raw_b.run(twin[None], np.ones(1, bool), gumbel, net.forward)
        differ_undetermined += not np.array_equal(raw_a.edge_n[0, 0], raw_b.edge_n[0, 0]) or not (
            np.array_equal(raw_a.values[0, 1:], raw_b.values[0, 1:])
        )
    assert differ_undetermined > 0


def test_the_curve_table_reads_a_run():
    from crusadegym.training.expert.report import curve_table

    ev = {
        "games": 40,
        "wins": 10,
        "draws": 0,
        "score": 0.25,
        "score_ci95": [0.14, 0.4],
        "cap_endings": 2,
    }
    table = curve_table(
        {
            "curve": [
                {
                    "minutes": 5.0,
                    "selfplay_games": 2583,
                    "gradient_steps": 12013,
                    "eval": {"heuristic": ev},
                }
            ]
        }
    )
    assert table.splitlines()[0] == "| CPU min | self-play games | gradient steps | vs heuristic |"
    assert "| 5.0 | 2583 | 12013 | 0.25 [0.14, 0.40] (40 games, 2 at cap) |" in table


def test_fixed_q_scale_keeps_the_prior_where_values_barely_differ():
    """Every child of the empty board valued within 0.01: mctx's min-max rescale
    stretches that noise to the full sigma range, the fixed map keeps it at ~0.03."""
    game = make_game(TINY)
    state = _position(game, "........#", 0)
    mask = game.legal_mask(state)
    flat = np.where(mask > 0, 0.0, ILLEGAL_LOGIT).astype(np.float32)
    values = {}

    def evaluate(obs, masks):
        noise = (obs.sum(axis=1, keepdims=True) * 7.3) % 0.01  # differs between children
        return np.tile(flat, (len(obs), 1)), np.hstack([noise, -noise]).astype(np.float32)

    for rescale in (True, False):
        search = GumbelSearch(game, 1, 16, 16, rescale)
        search.run(state[None], np.ones(1, bool), np.zeros((1, game.num_actions)), evaluate)
        values[rescale] = search.targets[0][mask > 0]
    assert values[True].max() > 2.0 * values[True].min()  # the noise decides
    assert values[False].max() < 1.1 * values[False].min()  # the prior (uniform) stays


def test_dagger_plays_the_networks_moves_but_learns_the_teachers():
    import tinygame

    game = make_game(TINY)
    selfplay = SelfPlay(game, 4, 4, 4, seed=1)

    class FirstCell:  # the teacher always names the first legal cell
        def act_state(self, game, state):
            return int(np.flatnonzero(game.legal_mask(state))[0])

    def evaluate(obs, masks):  # the network always wants the last legal cell
        logits = np.where(masks > 0, np.arange(masks.shape[1]) * 50.0, ILLEGAL_LOGIT)
        return logits.astype(np.float32), np.zeros((len(obs), 2), np.float32)

    selfplay.play_teacher(FirstCell(), 1, evaluate, follow=1.0)
    for slot in range(4):
        obs, mask, target, seat = selfplay.history[slot][0]
        legal = np.flatnonzero(mask)
        assert target.argmax() == legal[0]  # the label is the teacher's move
        cells = selfplay.states[slot][tinygame.CELLS : tinygame.CELLS + 9]
        assert cells[legal[-1]] == seat and cells[legal[0]] != seat  # the network's move


def test_the_diagnosis_fits_a_teacher_better_than_chance_and_reports_it(capsys):
    """``training.expert.diagnose``: the teacher's own agreement, then the recipe's network
    fitted offline to the teacher's games; on tic-tac-toe it predicts the heuristic's
    held-out moves far better than a uniform guess among the legal ones."""
    import tinygame  # noqa: F401 - registers the tiny game

    from crusadegym.training.expert import diagnose

    game = make_game(TINY)
    games = diagnose.teacher_games(game, "heuristic", 200, seed=0)
    fit = diagnose.fit_and_report(game, games, hidden=32, epochs=20, seed=0)
    held = np.concatenate([g.masks for i, g in enumerate(games) if i % 10 == 0])
    chance = float(np.mean(1.0 / held.sum(axis=1)))
    assert fit["held_out"]["top1"] > chance + 0.1  # (the teacher breaks ties at random)
    assert len(fit["value_error_by_fifth"]) == diagnose.FIFTHS
    agreement = diagnose.teacher_agreement(game, "heuristic", positions=20, draws=4, seed=0)
    assert 0.25 <= agreement["all"] <= 1.0
    assert diagnose.main([TINY, "--games", "20", "--positions", "10", "--epochs", "1"]) == 0
    assert "teacher's own agreement" in capsys.readouterr().out
