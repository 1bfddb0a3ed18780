"""The Ray RLlib backend (``crusadegym train --backend rllib``, training/rllib_backend.py).

Skipped only when the ``distributed`` extra (``ray[rllib]``) is not installed. The env and
model tests run without Ray; one test starts a local Ray (loopback only, 2 CPUs, a small
object store), trains Deus lo Vult with 2 env runners, exports a checkpoint that plays a
full game as ``policy:PATH``, and checks that no Ray process survives the shutdown.
"""

from __future__ import annotations

import importlib
import json
import socket
import sys
import time

import numpy as np
import pytest

pytest.importorskip(
    "ray.rllib", reason="the distributed extra is absent: pip install 'crusadegym[distributed]'"
)
psutil = pytest.importorskip("psutil", reason="psutil checks that Ray's processes are gone")
torch = pytest.importorskip("torch")

from crusadegym.agents import load_policy_agent, make_agent  # noqa: E402
from crusadegym.agents.arena import play_game  # noqa: E402
from crusadegym.core.registry import available_games  # noqa: E402
from crusadegym.envs.common import build_game  # noqa: E402
from crusadegym.errors import UserError  # noqa: E402
from crusadegym.training import rllib_backend as rb  # noqa: E402
from crusadegym.training import selfplay  # noqa: E402
from crusadegym.training.selfplay import TrainArgs  # noqa: E402

SMALL = {"players": 2, "rounds": 1, "max_turns": 10}
"""A short Deus lo Vult: one round, at most ten turns."""
RAY_DAEMONS = ("raylet", "gcs_server")


def env_for(game: str, opponents: list[str], seed: int = 0, config: dict | None = None):
    cfg = SMALL if config is None else config
    return rb.CrusadeMultiAgentEnv(
        {"game": game, "config": cfg, "opponents": opponents, "seed": seed}
    )


def play_random(env, rng: np.random.Generator, max_steps: int):
    """Random legal play; yields ``(agent, obs, rewards, done, infos)`` after each step."""
    obs, _ = env.reset()
    for _ in range(max_steps):
        assert len(obs) == 1, f"one RLlib agent moves at a time, got {sorted(obs)}"
        ((agent, o),) = obs.items()
        assert env.observation_spaces[agent].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        assert legal.size >= 1
        obs, rewards, done, truncated, infos = env.step({agent: int(rng.choice(legal))})
        assert not truncated["__all__"]
        yield agent, o, rewards, done["__all__"], infos
        if done["__all__"]:
            assert obs == {}
            obs, _ = env.reset()


# -- the env, without Ray ---------------------------------------------------------------------
@pytest.mark.parametrize("game", available_games())
def test_env_wraps_every_registered_game(game):
    """Every registered game runs in the RLlib env under its default options: masks never
    empty, one agent to move, agents named by role (``learner``, ``rival_1`` ..)."""
    players = build_game(game, {}).num_players
    env = env_for(game, ["random", "self"], seed=1, config={})
    assert env.possible_agents == ["learner"] + [f"rival_{i}" for i in range(1, players)]
    seen = {a for a, *_ in play_random(env, np.random.default_rng(1), 300)}
    assert "learner" in seen


@pytest.mark.parametrize("kind", ["random", "heuristic", "self"])
def test_env_rewards_add_up_to_the_game_result(kind):
    """Without shaping, an agent's rewards over a game sum to its seat's game result, the
    learner's score says who won, and only self-play games expose the rival seats."""
    env = env_for(
        "deus_lo_vult", [kind], seed=7, config={"players": 2, "rounds": 1, "max_turns": 60}
    )
    totals: dict[str, float] = {}
    games, agents = 0, set()
    for agent, _, rewards, done, infos in play_random(env, np.random.default_rng(7), 20_000):
        agents.add(agent)
        for a, r in rewards.items():
            totals[a] = totals.get(a, 0.0) + r
        if done:
            seat = next(s for s, a in env.roles.items() if a == "learner")
            assert totals["learner"] == pytest.approx(env._result[seat])
            score = infos["learner"]["score"]
            mine, other = env._result[seat], env._result[1 - seat]
            assert score == (rb.WIN if mine > other else rb.LOSS if mine < other else rb.DRAW)
            assert infos["learner"]["opponent"] == kind
            totals, games = {}, games + 1
            if games == 3:
                break
    assert games == 3
    assert agents == ({"learner", "rival_1"} if kind == "self" else {"learner"})


def test_env_is_reproducible_from_its_seed():
    """Two envs with one seed, given the same actions, show the same observations."""
    runs = []
    for _ in range(2):
        env = env_for("deus_lo_vult", ["random", "self"], seed=5)
        runs.append([o["observations"].copy() for _, o, *_ in play_random(
            env, np.random.default_rng(0), 200)])  # fmt: skip
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))


# -- the model and the export, without Ray ----------------------------------------------------
def test_module_masks_illegal_actions_and_exports_the_same_policy(tmp_path):
    """The RLModule never prefers an illegal action, and its export (a MaskablePPO zip that
    ``policy:PATH`` loads) chooses what the module chooses in 40 positions."""
    game = build_game("deus_lo_vult", SMALL)
    torch.manual_seed(0)
    module = rb.module_spec(game).build()
    path = rb.export_checkpoint(module.get_state(), game, str(tmp_path / "m.zip"), 123)
    sidecar = json.loads((tmp_path / "m.json").read_text())
    assert (sidecar["game"], sidecar["backend"], sidecar["timesteps"]) == (
        "deus_lo_vult", "rllib", 123)  # fmt: skip
    agent = load_policy_agent(path)
    env = env_for("deus_lo_vult", ["self"], seed=3)
    checked = 0
    for _, o, *_ in play_random(env, np.random.default_rng(3), 40):
        batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in o.items()}}
        with torch.no_grad():
            logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
        illegal = o["action_mask"] == 0
        assert np.all(logits[illegal] <= np.min(logits[~illegal]))
        choice = int(np.argmax(logits))
        assert o["action_mask"][choice] == 1
        assert agent.act(o["observations"], o["action_mask"]) == choice
        checked += 1
    assert checked == 40


# -- the league, without Ray --------------------------------------------------------------------
class _Recorder:
    """Stands in for an Algorithm: records the league changes the callback asks for."""

    def __init__(self) -> None:
        self.added: list[str] = []
        self.removed: list[str] = []
        self.copied: list[str] = []
        self.mapping = None
        specs = {"learner": "the learner's spec"}
        self.config = type("C", (), {"rl_module_spec": type("S", (), {"rl_module_specs": specs})})
        self.learner_group = self
        self.env_runner_group = self

    def add_module(self, module_id, module_spec, new_agent_to_module_mapping_fn):
        assert module_spec == "the learner's spec"
        self.added.append(module_id)
        self.mapping = new_agent_to_module_mapping_fn

    def remove_module(self, module_id, new_agent_to_module_mapping_fn):
        self.removed.append(module_id)
        self.mapping = new_agent_to_module_mapping_fn

    def get_weights(self, module_ids):
        return {m: {"w": np.zeros(1)} for m in module_ids}

    def set_weights(self, weights):
        self.copied += list(weights)

    def sync_weights(self, **kwargs):
        pass


def _result(steps: int, **logged: float) -> dict:
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    return {ENV_RUNNER_RESULTS: {NUM_ENV_STEPS_SAMPLED_LIFETIME: steps, rb.METRICS: logged}}


def test_league_grows_on_win_rate_and_drops_the_oldest():
    """A snapshot joins once the learner scored >= 0.6 in >= 20 self games since the last
    one (an iteration without games reports NaN and counts nothing); the league keeps
    ``max_snapshots``; rivals map to league members, the learner to itself."""
    cb = rb.SelfPlayCallback(threshold=0.6, min_games=20, every=0, max_snapshots=2)
    algo = _Recorder()
    cb.on_train_result(algorithm=algo, result=_result(100, games_vs_self=10, score_vs_self=9))
    nan = float("nan")
    cb.on_train_result(algorithm=algo, result=_result(200, games_vs_self=nan, score_vs_self=nan))
    assert algo.added == []  # 10 games so far
    mixed = _result(300, games_vs_self=10, score_vs_self=2, games_vs_random=50, score_vs_random=50)
    cb.on_train_result(algorithm=algo, result=mixed)
    assert algo.added == [] and cb.games[rb.SELF] == 20  # 11 / 20 = 0.55: not yet
    cb.on_train_result(algorithm=algo, result=_result(400, games_vs_self=5, score_vs_self=5))
    assert algo.added == ["snapshot_1"] and algo.copied == ["snapshot_1"]  # 16 / 25 = 0.64
    assert cb.events[0]["steps"] == 400 and cb.events[0]["win_rate_vs_self"] == 0.64
    assert cb.games == {}  # counted afresh against the new league
    cb.on_train_result(algorithm=algo, result=_result(500, games_vs_self=20, score_vs_self=19))
    assert algo.added == ["snapshot_1", "snapshot_2"] and algo.removed == ["snapshot_0"]
    assert cb.snapshots == ["snapshot_1", "snapshot_2"]
    episode = type("E", (), {"id_": "abc"})
    assert algo.mapping("learner", episode) == "learner"
    assert {algo.mapping("rival_1", type("E", (), {"id_": str(i)})) for i in range(50)} == {
        "snapshot_1", "snapshot_2"}  # fmt: skip


# -- errors -------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _train_cli(capsys, *extra: str) -> tuple[int, str]:
    argv = ["deus_lo_vult", "--backend", "rllib", "--quiet", "--eval-games", "0", *extra]
    code = selfplay.main(argv)
    return code, capsys.readouterr().err


def test_no_cluster_at_the_address_is_one_line(capsys, tmp_path):
    code, err = _train_cli(capsys, "--address", f"127.0.0.1:{_free_port()}",
                           "--out", str(tmp_path))  # fmt: skip
    assert code == 2
    assert err.count("\n") == 1 and "no Ray cluster at '127.0.0.1:" in err
    code, err = _train_cli(capsys, "--address", "nonsense", "--out", str(tmp_path))
    assert code == 2 and "HOST:PORT" in err and err.count("\n") == 1


def test_unsupported_options_are_refused_in_one_line(capsys, tmp_path):
    code, err = _train_cli(capsys, "--advice", "heuristic", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "--advice" in err
    code, err = _train_cli(capsys, "--opponents", "nobody", "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "nobody" in err


def test_missing_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    monkeypatch.delitem(sys.modules, "crusadegym.training.rllib_backend")
    with pytest.raises(UserError, match=r"crusadegym\[distributed\]"):
        importlib.import_module("crusadegym.training.rllib_backend")


def test_ray_failures_become_one_line_user_errors():
    """Ray's own exception types for a dead worker and a failed task read as one line."""
    import ray.exceptions

    with pytest.raises(UserError, match="a Ray worker died") as died:
        with rb.ray_failures():
            raise ray.exceptions.ActorDiedError()
    with pytest.raises(UserError, match="an env runner failed: boom") as failed:
        with rb.ray_failures():
            raise ray.exceptions.RayTaskError("sample", "Traceback ...", ValueError("boom"))
    assert "\n" not in str(died.value) and "\n" not in str(failed.value)


# -- a real run on a local Ray ---------------------------------------------------------------
def _ray_daemons() -> list[psutil.Process]:
    alive = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.name() in RAY_DAEMONS and p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p)
        except psutil.NoSuchProcess:
            pass
    return alive


def test_train_on_local_ray_with_two_env_runners(tmp_path):
    """Loopback-only local Ray; 2 env runners; a snapshot joins the league; the exported
    checkpoint plays a full game as ``policy:PATH``; no raylet/gcs_server survives."""
    args = TrainArgs(
        game="deus_lo_vult", backend="rllib", timesteps=128, n_envs=1, n_steps=32,
        batch_size=32, n_epochs=1, num_env_runners=2, eval_games=0, options=SMALL,
        snapshot_every=64, checkpoint_every=64, keep_checkpoints=1, out=str(tmp_path),
        progress=False, bc_games=0,
    )  # fmt: skip
    with rb.connect(None, num_cpus=2) as started:
        assert started
        listening = []
        for p in psutil.Process().children(recursive=True):
            try:
                conns = p.net_connections("inet")
            except psutil.Error:  # a worker that ended meanwhile
                continue
            listening += [c.laddr.ip for c in conns if c.status == psutil.CONN_LISTEN]
        assert listening, "Ray's servers should be listening"
        assert all(ip in ("127.0.0.1", "::ffff:127.0.0.1", "::1") for ip in listening), listening
        summary = rb.train(args)  # joins the running Ray, leaves it up
        assert _ray_daemons(), "train() must not shut down a Ray it did not start"
    deadline = time.monotonic() + 30
    while _ray_daemons() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _ray_daemons(), "raylet/gcs_server outlived ray.shutdown()"

    assert summary["timesteps"] >= 128 and summary["num_env_runners"] == 2
    assert summary["snapshots"], "snapshot_every=64 adds a snapshot after 64 steps"
    assert summary["league"][-1] == summary["snapshots"][-1]["snapshot"]
    assert len(summary["checkpoints"]) == 1  # keep_checkpoints=1 pruned the others
    game = build_game("deus_lo_vult", SMALL)
    hero = make_agent(f"policy:{summary['final']}")
    record = play_game(game, [hero, make_agent("random", seed=1)], seed=11)
    assert record["steps"] > 0 and len(record["returns"]) == 2
    assert json.loads((tmp_path / "summary.json").read_text())["final"] == summary["final"]
