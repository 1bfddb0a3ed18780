"""Self-play on Ray RLlib: ``crusadegym train <game> --backend rllib``.

The local MaskablePPO recipe (:mod:`.selfplay`) is the default; this backend runs the same
self-play idea on RLlib's new API stack, so sampling spreads over a Ray cluster. Read top
to bottom:

1. **The env** (:class:`CrusadeMultiAgentEnv`): the game's PettingZoo AEC env
   (:mod:`crusadegym.envs.aec`, any registered game) wrapped as an RLlib ``MultiAgentEnv``.
   Each episode draws one opponent kind from ``--opponents`` and a random seat for the
   learner. Baselines (``random``, ``heuristic``, any agent spec) play *inside* the env,
   through the core state like the single-agent env's opponents, so RLlib sees only the
   learner; with ``self`` the other seats are RLlib agents ``rival_1 ..`` played by frozen
   snapshots. Agent ids name roles, not seats: ``learner`` is always the learner.
2. **The model** (:class:`MaskedPolicyModule`): RLlib's action-masking pattern (the
   observation is ``{"observations", "action_mask"}``; illegal logits are pushed to
   ``FLOAT_MIN``) around the very network the local trainer uses (an SB3
   ``MaskableActorCriticPolicy`` from :func:`~.policy.policy_spec`), so a trained module
   exports to the suite's policy checkpoint format (a MaskablePPO ``.zip`` + ``.json``
   sidecar) that ``crusadegym arena`` / ``play`` load as ``policy:PATH``.
3. **Self-play** (:class:`SelfPlayCallback`): every finished game logs the learner's result
   per opponent kind; when the learner wins ``--snapshot-threshold`` of at least
   ``snapshot_min_episodes`` games against the snapshots (or ``--snapshot-every`` steps
   pass), a frozen copy joins the league (``algorithm.add_module``) and rivals map to it.
4. **Ray** (:func:`connect`): ``--address auto|HOST:PORT`` joins a cluster; without it a
   local Ray bound to 127.0.0.1 is started and shut down at the end. Ray's failures (no
   cluster, a dead worker) reach the user as one-line :class:`~crusadegym.errors.UserError`.
5. **The run** (:func:`train`): build PPO, ``algorithm.train()`` until ``--timesteps`` env
   steps, export checkpoints, evaluate the final policy in the arena.

Env runners step ``--n-envs`` games each (RLlib's vectorised multi-agent runner; the
module's forward pass is batched over them). The batched numba drivers
(:mod:`crusadegym.core.drivers`) do not fit there: RLlib's multi-agent runner holds one
Python ``MultiAgentEnv`` per game. What is not supported here (advice, behaviour cloning,
``--resume``, checkpoint validation) is refused with a one-line error; see
``docs/distributed.md``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import socket
import time
import zlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from crusadegym.errors import UserError, missing_extra

try:
    import ray
    import ray.exceptions
    import torch
    from gymnasium import spaces
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
    from ray.rllib.utils.torch_utils import FLOAT_MIN
except ImportError as e:  # the optional extra is absent
    raise missing_extra("ray[rllib]", "distributed") from e

from crusadegym.core import Game
from crusadegym.envs.aec import make_raw_env
from crusadegym.envs.common import build_game, draw_seed, observation_box
from crusadegym.envs.opponents import opponent_action, resolve_opponent

from .shaping import PotentialShaper
from .train_args import TrainArgs

LEARNER = "learner"
"""Agent id and module id of the policy being trained."""
RIVAL = "rival_{}"
"""Agent ids of the other seats when the episode is a self-play game (``rival_1`` ..)."""
SNAPSHOT = "snapshot_{}"
"""Module ids of the frozen copies of the learner (``snapshot_0`` is the initial policy)."""
SELF = "self"
"""The opponent kind that plays the learner's snapshots (as in ``--opponents``)."""
METRICS = "crusadegym"
"""Key under which the env runners log game results (``env_runners/crusadegym/...``)."""
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
"""A game's score for the learner: above every other seat, level with the best, below."""
LOCAL_OBJECT_STORE_MB = 100
"""Object store of a local Ray (the default takes 30% of the RAM; only weights pass through)."""
LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch that, set to 0, keeps a local node on 127.0.0.1 (see :func:`loopback_only`)."""
MAX_RESETS = 100
"""Fresh games tried when embedded opponents end one before the learner moves."""
CONNECT_TIMEOUT_S = 5.0
"""How long ``--address HOST:PORT`` may take to accept a TCP connection."""
UNSUPPORTED = {
    "advice": ("none", "--advice (the advised policy reads the core state, see agents/advice)"),
    "resume": (None, "--resume"),
    "validate_games": (0, "--validate-games"),
    "expert": ("", "--expert"),
    "subproc": (False, "--subproc (env runners are Ray actors)"),
    "bc_replay_steps": (0, "--bc-replay-steps"),
}
"""TrainArgs fields the rllib backend refuses unless left at these values."""


# -- 1. the env ---------------------------------------------------------------------------
def masked_observation_space(game: Game) -> spaces.Dict:
    """What every agent observes: the game's observation and its legal mask (0/1 floats)."""
    mask = spaces.Box(0.0, 1.0, (game.num_actions,), np.float32)
    return spaces.Dict({"observations": observation_box(game), "action_mask": mask})


class CrusadeMultiAgentEnv(MultiAgentEnv):
    """A registered game's AEC env as an RLlib multi-agent env for self-play (see top).

    ``config`` (RLlib's ``env_config``): ``game``, ``config`` (the game's options),
    ``opponents`` (kinds, e.g. ``["random", "heuristic", "self"]``), ``shaping`` and
    ``shaping_weight`` (:class:`~.shaping.PotentialShaper`), ``seed``. Each step returns
    the observation of the one RLlib agent to move (none when the game is over) and every
    RLlib agent's reward since its last step (its seat's game result and shaping,
    including the embedded opponents' moves).
    """

    def __init__(self, config: dict | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.aec = make_raw_env(config["game"], illegal="raise", **config.get("config", {}))
        self.game: Game = self.aec.game
        self.kinds: list[str] = list(config.get("opponents", ["random"]))
        n = self.game.num_players
        self.possible_agents = [LEARNER] + [RIVAL.format(i) for i in range(1, n)]
        self.agents = list(self.possible_agents)
        space = masked_observation_space(self.game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents
        }
        self.shaper = PotentialShaper(
            self.game, config.get("shaping", "none"), config.get("shaping_weight", 1.0)
        )
        worker = int(getattr(config, "worker_index", 0))
        vector = int(getattr(config, "vector_index", 0))
        self._rng = np.random.default_rng([int(config.get("seed", 0)), worker, vector])
        self._baselines: dict[str, Any] = {}
        self.roles: dict[int, str | None] = {}  # seat -> RLlib agent id (None: embedded)
        self.kind = ""
        self.last_outcome: tuple[str, float] | None = None  # (opponent kind, score)

    # -- the loop ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(MAX_RESETS):
            self._new_game()
            if not self._over():
                return {self._agent_to_move(): self._observe()}, {}
        raise RuntimeError(f"{self.game.name}: {MAX_RESETS} games ended before the learner moved")

    def step(self, action_dict: dict):
        agent = self._agent_to_move()
        if agent not in action_dict:
            raise ValueError(f"expected an action for {agent!r}, got {sorted(action_dict)}")
        self._play(int(action_dict[agent]))
        self._advance_embedded()
        rewards = {a: float(self._pending[s]) for s, a in self.roles.items() if a is not None}
        self._pending[:] = 0.0
        over = self._over()
        done = dict.fromkeys(self.agents, over) | {"__all__": over}
        truncated = dict.fromkeys(self.agents, False) | {"__all__": False}
        if over:
            score = self._learner_score()
            self.last_outcome = (self.kind, score)
            infos = {LEARNER: {"opponent": self.kind, "score": score}}
            return {}, rewards, done, truncated, infos
        return {self._agent_to_move(): self._observe()}, rewards, done, truncated, {}

    # -- helpers ----------------------------------------------------------------------
    def _new_game(self) -> None:
        n = self.game.num_players
        self.kind = self.kinds[int(self._rng.integers(len(self.kinds)))]
        learner_seat = int(self._rng.integers(n))
        others = [s for s in range(n) if s != learner_seat]
        rivals = [RIVAL.format(i) for i in range(1, n)] if self.kind == SELF else [None] * n
        self.roles = {learner_seat: LEARNER} | dict(zip(others, rivals, strict=False))
        self.agents = [a for a in self.possible_agents if a in self.roles.values()]
        self.aec.reset(seed=draw_seed(self._rng))
        self.shaper.reset(self.aec.game_state)
        self._pending = np.zeros(n, np.float64)  # reward per seat since its agent's last step
        self._result = np.zeros(n, np.float64)  # game result per seat (no shaping)
        if self.kind != SELF:
            self._opponent = self._baseline(self.kind)
        self._advance_embedded()

    def _baseline(self, kind: str) -> Any:
        """The embedded opponent of ``kind``, built once per env, reseeded per game."""
        if kind not in self._baselines:
            self._baselines[kind] = resolve_opponent(kind, draw_seed(self._rng))
        opponent = self._baselines[kind]
        reset = getattr(opponent, "reset", None)
        if callable(reset):
            reset(seed=draw_seed(self._rng))
        return opponent

    def _seat(self) -> int:
        return self.game.current_player(self.aec.game_state)

    def _over(self) -> bool:
        return all(self.aec.terminations.values()) or all(self.aec.truncations.values())

    def _agent_to_move(self) -> str:
        agent = self.roles[self._seat()]
        assert agent is not None, "an embedded opponent is to move"
        return agent

    def _observe(self) -> dict[str, np.ndarray]:
        obs = self.aec.observe(self.aec.agent_selection)
        return {
            "observations": np.asarray(obs["observation"], np.float32),
            "action_mask": np.asarray(obs["action_mask"], np.float32),
        }

    def _play(self, action: int) -> None:
        """Step the AEC env with ``action`` for the seat to move; collect every seat's reward."""
        self.aec.step(action)
        result = np.array([self.aec.rewards[a] for a in self.aec.possible_agents])
        self._result += result
        self._pending += result + self.shaper.step(self.aec.game_state)

    def _advance_embedded(self) -> None:
        """Let the embedded opponents move until an RLlib agent is to move or the game ends."""
        while not self._over() and self.roles[self._seat()] is None:
            self._play(opponent_action(self._opponent, self.game, self.aec.game_state))

    def _learner_score(self) -> float:
        seat = next(s for s, a in self.roles.items() if a == LEARNER)
        mine, best_other = self._result[seat], np.delete(self._result, seat).max()
        return WIN if mine > best_other else DRAW if mine == best_other else LOSS


# -- 2. the model --------------------------------------------------------------------------
def sb3_policy(game: Game) -> Any:
    """A fresh SB3 ``MaskableActorCriticPolicy`` (the local trainer's network) for ``game``."""
    from sb3_contrib import MaskablePPO

    from .policy import policy_spec

    policy, kwargs = policy_spec(game)
    cls = MaskablePPO.policy_aliases[policy] if isinstance(policy, str) else policy
    return cls(observation_box(game), spaces.Discrete(game.num_actions), lambda _: 0.0, **kwargs)


class MaskedPolicyModule(TorchRLModule, ValueFunctionAPI):
    """RLlib's action-masking RLModule around the suite's SB3 policy network.

    ``model_config``: ``{"game": name, "config": options}``. The observation is a dict of
    ``observations`` and ``action_mask``; the logits of illegal actions are set to
    ``FLOAT_MIN``, so exploration, inference and the PPO loss only see legal actions.
    """

    def setup(self) -> None:
        game = build_game(self.model_config["game"], dict(self.model_config["config"]))
        self.net = sb3_policy(game)

    def _heads(self, batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits and the value head's input (SB3's forward, step by step)."""
        obs = batch[Columns.OBS]
        features = self.net.extract_features(obs["observations"])
        latent_pi, latent_vf = self.net.mlp_extractor(features)
        logits = self.net.action_net(latent_pi)
        logits = logits.masked_fill(obs["action_mask"] < 0.5, FLOAT_MIN)
        return logits, latent_vf

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        return {Columns.ACTION_DIST_INPUTS: self._heads(batch)[0]}

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        logits, latent_vf = self._heads(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: latent_vf}

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        if embeddings is None:
            embeddings = self._heads(batch)[1]
        return self.net.value_net(embeddings).squeeze(-1)


def module_spec(game: Game) -> RLModuleSpec:
    """The spec of a :class:`MaskedPolicyModule` for ``game`` (learner and snapshots alike)."""
    return RLModuleSpec(
        module_class=MaskedPolicyModule,
        observation_space=masked_observation_space(game),
        action_space=spaces.Discrete(game.num_actions),
        model_config={"game": game.name, "config": game.config_dict()},
    )


# -- 3. self-play --------------------------------------------------------------------------
def league_mapping(snapshots: list[str]) -> Any:
    """Agent -> module: the learner trains; each rival plays one of ``snapshots``."""
    league = tuple(snapshots)

    def agent_to_module(agent_id: str, episode: Any, **kwargs: Any) -> str:
        if agent_id == LEARNER:
            return LEARNER
        return league[zlib.crc32(f"{episode.id_}/{agent_id}".encode()) % len(league)]

    return agent_to_module


class SelfPlayCallback(RLlibCallback):
    """Logs game results per opponent kind; freezes the learner into the league (see top)."""

    def __init__(self, threshold: float, min_games: int, every: int, max_snapshots: int) -> None:
        super().__init__()
        self.threshold, self.min_games = threshold, min_games
        self.every, self.max_snapshots = every, max_snapshots
        self.snapshots = [SNAPSHOT.format(0)]
        self.added = 0
        self.last_steps = 0
        self.games: dict[str, float] = {}  # per kind, since the last snapshot (self only)
        self.scores: dict[str, float] = {}
        self.events: list[dict] = []

    def on_episode_end(self, *, env: Any, env_index: int, metrics_logger: Any, **kw) -> None:
        inner = env.envs[env_index].unwrapped if hasattr(env, "envs") else env
        if inner.last_outcome is None:
            return
        kind, score = inner.last_outcome
        metrics_logger.log_value((METRICS, f"games_vs_{kind}"), 1, reduce="sum")
        metrics_logger.log_value((METRICS, f"score_vs_{kind}"), score, reduce="sum")

    def on_train_result(self, *, algorithm: Any, result: dict, **kw) -> None:
        runners = result.get(ENV_RUNNER_RESULTS) or {}
        for key, value in (runners.get(METRICS) or {}).items():
            kind = key.split("_vs_", 1)[1]
            table = self.games if key.startswith("games") else self.scores
            table[kind] = table.get(kind, 0.0) + _number(value, 0.0)
        steps = int(_number(runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME), self.last_steps))
        games = self.games.get(SELF, 0.0)
        rate = self.scores.get(SELF, 0.0) / games if games else 0.0
        beat = games >= self.min_games and rate >= self.threshold
        due = self.every > 0 and steps - self.last_steps >= self.every
        if beat or due:
            self.add_snapshot(algorithm, steps, rate, games)
        result[METRICS + "_league"] = list(self.snapshots)

    def add_snapshot(self, algorithm: Any, steps: int, rate: float, games: float) -> None:
        """Freeze the learner as a new snapshot; drop the oldest beyond ``max_snapshots``."""
        self.added += 1
        new = SNAPSHOT.format(self.added)
        self.snapshots.append(new)
        dropped = self.snapshots[: -self.max_snapshots] if self.max_snapshots > 0 else []
        self.snapshots = self.snapshots[len(dropped) :]
        algorithm.add_module(
            module_id=new,
            module_spec=algorithm.config.rl_module_spec.rl_module_specs[LEARNER],
            new_agent_to_module_mapping_fn=league_mapping(self.snapshots),
        )
        copy_learner_into(algorithm, new)
        for old in dropped:
            mapping = league_mapping(self.snapshots)
            algorithm.remove_module(old, new_agent_to_module_mapping_fn=mapping)
        self.events.append({"steps": steps, "snapshot": new, "win_rate_vs_self": rate,
                            "games_vs_self": games, "dropped": dropped})  # fmt: skip
        self.last_steps = steps
        self.games, self.scores = {}, {}


def copy_learner_into(algorithm: Any, module_id: str) -> None:
    """Give module ``module_id`` the learner's current weights, on learners and env runners."""
    algorithm.learner_group.set_weights({module_id: learner_weights(algorithm)})
    algorithm.env_runner_group.sync_weights(
        from_worker_or_learner_group=algorithm.learner_group, inference_only=True
    )


# -- 4. Ray ---------------------------------------------------------------------------------
@contextlib.contextmanager
def connect(address: str | None, num_cpus: int) -> Iterator[bool]:
    """Join the Ray cluster at ``address``, or start a local Ray on 127.0.0.1 (shut down after).

    Yields whether this call started Ray. No cluster at ``address`` is a one-line UserError.
    """
    if ray.is_initialized():
        yield False
        return
    if address and address != "auto":
        check_reachable(address)
    started = False
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        else:
            with loopback_only():
                ray.init(
                    num_cpus=num_cpus, object_store_memory=LOCAL_OBJECT_STORE_MB * 2**20,
                    include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                )  # fmt: skip
        started = True
    except (ConnectionError, TimeoutError, ray.exceptions.RaySystemError) as e:
        where = f"at {address!r}" if address else "locally"
        raise UserError(
            f"no Ray cluster {where} ({_first_line(e)}); start one with `ray start --head` "
            "(docs/distributed.md) or leave out --address for a local Ray"
        ) from e
    try:
        yield started
    finally:
        ray.shutdown()


@contextlib.contextmanager
def loopback_only() -> Iterator[None]:
    """Start a local Ray whose servers listen on 127.0.0.1 only.

    Ray replaces a loopback ``_node_ip_address`` by the machine's routable address and
    binds its servers to every interface, unless clustering is off: the switch
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` (read by ``ray._private.ray_constants`` when
    ray is imported, so this process's copy is set too) makes the node address
    127.0.0.1, and the GCS, raylet and workers then bind to it. Restored afterwards, so
    a later ``--address`` run in the same process joins a real cluster normally.
    """
    from ray._private import ray_constants

    before_env = os.environ.get(LOOPBACK_SWITCH)
    before = ray_constants.ENABLE_RAY_CLUSTER
    os.environ[LOOPBACK_SWITCH] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = before
        if before_env is None:
            os.environ.pop(LOOPBACK_SWITCH, None)
        else:
            os.environ[LOOPBACK_SWITCH] = before_env


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """UserError unless something listens at ``HOST:PORT`` (Ray itself retries for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise UserError(f"--address is 'auto' or HOST:PORT (a Ray head's GCS), not {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise UserError(
            f"no Ray cluster at {address!r} ({e.strerror or e}); start one there with "
            f"`ray start --head --port {port}` (docs/distributed.md) or leave out --address "
            "for a local Ray"
        ) from e


@contextlib.contextmanager
def ray_failures() -> Iterator[None]:
    """Turn Ray's failures inside a run into one-line UserErrors (a dead worker, a lost node)."""
    try:
        yield
    except ray.exceptions.RayActorError as e:
        raise UserError(
            f"a Ray worker died during training ({_first_line(e)}); its logs are under "
            "/tmp/ray/session_latest/logs on its node"
        ) from e
    except ray.exceptions.RayTaskError as e:
        raise UserError(f"an env runner failed: {_first_line(e.cause or e)}") from e
    except ray.exceptions.RayError as e:
        raise UserError(f"Ray failed: {_first_line(e)}") from e


def _first_line(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    return lines[-1] if lines else type(e).__name__


# -- 5. the run -----------------------------------------------------------------------------
def check_args(args: TrainArgs) -> list[str]:
    """The opponent kinds; UserError for options this backend does not support."""
    for name, (default, flag) in UNSUPPORTED.items():
        if getattr(args, name) != default:
            raise UserError(f"{flag} is not supported with --backend rllib (use --backend sb3)")
    if args.timesteps < 1 or args.num_env_runners < 0 or args.n_envs < 1:
        raise UserError("--timesteps and --n-envs must be >= 1, --num-env-runners >= 0")
    kinds = [k.strip() for k in args.opponents.split(",") if k.strip()]
    if not kinds:
        raise UserError("--opponents needs at least one kind, e.g. 'random,heuristic,self'")
    for kind in set(kinds) - {SELF}:
        resolve_opponent(kind, 0)  # an unknown spec fails here, not inside a runner
    return kinds


def build_config(args: TrainArgs, game: Game, kinds: list[str]) -> PPOConfig:
    """The PPO config: env, runners, league of modules, hyper-parameters from ``args``."""
    runners = max(1, args.num_env_runners)
    batch = args.n_steps * args.n_envs * runners
    env_config = {"game": game.name, "config": game.config_dict(), "opponents": kinds,
                  "shaping": args.shaping, "shaping_weight": args.shaping_weight,
                  "seed": args.seed}  # fmt: skip
    callback = functools.partial(
        SelfPlayCallback, args.snapshot_threshold, args.snapshot_min_episodes,
        args.snapshot_every, args.max_snapshots,
    )  # fmt: skip
    spec = module_spec(game)
    first = SNAPSHOT.format(0)
    return (
        PPOConfig()
        .environment(CrusadeMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(
            num_env_runners=args.num_env_runners,
            num_envs_per_env_runner=args.n_envs,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=0)
        .resources(num_cpus_for_main_process=0)
        .multi_agent(
            policies={LEARNER, first},
            policy_mapping_fn=league_mapping([first]),
            policies_to_train=[LEARNER],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={LEARNER: spec, first: spec}))
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=min(args.batch_size, batch),
            num_epochs=args.n_epochs,
            lr=args.learning_rate,
            gamma=args.gamma,
            entropy_coeff=args.ent_coef,
            clip_param=args.clip_range,
        )
        .callbacks(callback)
        .debugging(seed=args.seed, log_level="ERROR")
    )


def learner_weights(algorithm: Any) -> dict:
    """The learner module's state dict (numpy arrays), from the learner group."""
    return algorithm.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]


def export_checkpoint(
    weights: dict, game: Game, path: str, timesteps: int, extra: dict | None = None
) -> str:
    """Save a :class:`MaskedPolicyModule`'s ``weights`` (its state dict) as a MaskablePPO
    ``.zip`` + sidecar, the checkpoint format ``policy:PATH`` loads in arena and play.

    The module's ``net`` *is* the SB3 policy, so its weights load into MaskablePPO's
    policy key for key; ``load_state_dict`` is strict, so a mismatch fails here.
    """
    from sb3_contrib import MaskablePPO

    from .checkpoint import save_checkpoint
    from .policy import policy_spec

    state = {k.removeprefix("net."): torch.as_tensor(np.asarray(v)) for k, v in weights.items()}
    policy, kwargs = policy_spec(game)
    model = MaskablePPO(policy, _SpacesEnv(game), policy_kwargs=kwargs, device="cpu", seed=0)
    model.policy.load_state_dict(state)
    model.num_timesteps = int(timesteps)
    return save_checkpoint(model, path, game, {"backend": "rllib", **(extra or {})})


class _SpacesEnv:
    """Only the spaces of ``game`` (MaskablePPO needs an env to build its policy)."""

    def __new__(cls, game: Game) -> Any:
        import gymnasium as gym

        class SpacesOnly(gym.Env):
            observation_space = observation_box(game)
            action_space = spaces.Discrete(game.num_actions)

        return SpacesOnly()


def train(args: TrainArgs) -> dict:
    """Run self-play on RLlib (see the module docstring); return paths, rates and results."""
    import json
    from dataclasses import asdict

    from crusadegym.agents.options import make_game_with_players

    kinds = check_args(args)
    game = make_game_with_players(args.game, args.players, args.game_options())
    out = args.out_dir()
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "args.json"), "w") as f:
        json.dump(asdict(args) | {"config": game.config_dict()}, f, indent=1)
    torch.set_num_threads(max(1, args.torch_threads))
    with connect(args.address, max(1, args.num_env_runners)), ray_failures():
        algorithm = build_config(args, game, kinds).build_algo()
        try:
            summary = _run(algorithm, args, game, out)
        finally:
            algorithm.stop()
    if args.eval_games > 0:
        from .evaluate import evaluate_checkpoint, format_evaluation

        baselines = [k for k in kinds if k != SELF] or ["random"]
        result = evaluate_checkpoint(
            summary["final"],
            args.game,
            baselines,
            args.eval_games,
            game.num_players,
            args.game_options(),
            out_dir=os.path.join(out, "eval"),
            seed=args.seed + 1,
            workers=args.eval_workers,
            progress=args.progress,
        )
        summary["evaluation"] = {k: result[k] for k in ("vs", "summary", "ratings", "files")}
        summary["evaluation_table"] = format_evaluation(result)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def _run(algorithm: Any, args: TrainArgs, game: Game, out: str) -> dict:
    """The training loop: iterations until ``timesteps`` env steps; checkpoints; the final."""
    copy_learner_into(algorithm, SNAPSHOT.format(0))
    callbacks = algorithm.callbacks
    callback: SelfPlayCallback = callbacks[0] if isinstance(callbacks, list) else callbacks
    steps, iterations, next_checkpoint, checkpoints = 0, 0, args.checkpoint_every, []
    start = time.perf_counter()
    while steps < args.timesteps:
        result = algorithm.train()
        iterations += 1
        runners = result.get(ENV_RUNNER_RESULTS) or {}
        steps = int(_number(runners.get(NUM_ENV_STEPS_SAMPLED_LIFETIME), steps))
        if args.progress:
            print(f"iteration {iterations}: {steps} env steps, league {callback.snapshots}")
        if args.checkpoint_every > 0 and steps >= next_checkpoint:
            path = os.path.join(out, "checkpoints", f"step_{steps}.zip")
            checkpoints.append(export_checkpoint(learner_weights(algorithm), game, path, steps))
            next_checkpoint = steps + args.checkpoint_every
            _prune(checkpoints, args.keep_checkpoints)
    seconds = time.perf_counter() - start
    final = os.path.join(out, "final.zip")
    final = export_checkpoint(learner_weights(algorithm), game, final, steps, {"role": "final"})
    return {
        "out": out, "final": final, "backend": "rllib", "timesteps": steps,
        "iterations": iterations, "train_seconds": seconds,
        "steps_per_s": steps / seconds if seconds else 0.0,
        "num_env_runners": args.num_env_runners, "warm_start": "none (not in this backend)",
        "checkpoints": checkpoints, "league": callback.snapshots,
        "snapshots": callback.events,
    }  # fmt: skip


def _number(value: Any, default: float) -> float:
    """A metric as a float; ``default`` when an iteration did not report it (None, or NaN:
    RLlib's reduction of a metric with no values this iteration)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return float(default)
    return number if np.isfinite(number) else float(default)


def _prune(paths: list[str], keep: int) -> None:
    while keep > 0 and len(paths) > keep:
        old = paths.pop(0)
        for p in (old, os.path.splitext(old)[0] + ".json"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(p)


def report(summary: dict) -> str:
    """The end-of-run text: evaluation table, throughput, where the files went."""
    lines = ["", summary["evaluation_table"]] if "evaluation_table" in summary else []
    lines += [
        "",
        f"rllib: trained {summary['timesteps']} env steps in {summary['iterations']} "
        f"iterations, {summary['train_seconds']:.0f} s ({summary['steps_per_s']:.0f} steps/s) "
        f"with {summary['num_env_runners']} env runners",
        f"league           : {', '.join(summary['league'])} "
        f"({len(summary['snapshots'])} snapshots added)",
        f"final checkpoint : {summary['final']}",
        f"checkpoints      : {len(summary['checkpoints'])} kept under "
        f"{os.path.join(summary['out'], 'checkpoints')}",
    ]
    return "\n".join(lines)


def main(args: TrainArgs) -> str:
    """``crusadegym train --backend rllib``: train and return the report."""
    return report(train(args))
