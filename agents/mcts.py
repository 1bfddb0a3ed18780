"""Monte-Carlo tree search (UCT) over cloned core states, with compiled rollouts.

Design:

* **Tree in Python, rollouts compiled.** Each node keeps a copy of its core state
  (``state.copy()``), the seat to move, and per-seat value sums. Leaves are scored
  by :func:`~crusadegym.agents.kernels.rollout_values`, one ``@njit`` call that
  plays ``rollouts_per_leaf`` uniformly random playouts from the leaf.
* **Depth-limited rollouts.** Deus lo Vult games last thousands of steps, so a
  playout stops after ``rollout_depth`` steps and is scored by the game's
  evaluation (:func:`crusadegym.agents.heuristics.value_kernel`: the heuristic's
  value in [-1, 1] per seat, or the game's ``returns`` when it has none).
* **Heuristic priors (progressive bias).** A new node scores all its actions at
  once with the game heuristic's compiled lookahead
  (:func:`~crusadegym.agents.heuristics.action_values`); children are expanded
  best first and each child's mean starts as ``prior_visits`` virtual visits at
  that value, so the search starts from the heuristic's choice and spends its
  iterations checking it (``prior_visits=0`` gives plain UCT).
* **Multi-player (max^n).** Values are vectors, one entry per seat; at every node
  the selection maximises the value of *the seat to move there*, so two-stage
  moves and multi-action turns need no special case.
* **Per-game defaults.** A game's heuristic may carry ``mcts_defaults`` (options
  tuned to its value scale); options given to the agent override them.
* **Budget.** ``iterations`` and/or ``seconds`` (whichever is reached first). A
  time budget makes play depend on machine speed, so the arena's reproducibility
  guarantee holds for iteration budgets only.
* **Determinism and information.** A child's state is computed once and reused,
  which is exact because a state determines its future given the actions (its
  RNG lives inside it). A game that draws chance *during* play would make such a
  tree clairvoyant about its dice; re-seeding the state's RNG per iteration
  (open-loop search) is then required. Games with hidden information need
  determinization (sample the hidden part consistent with the searcher's view
  per iteration) -- no game of the suite has either yet: Deus lo Vult resolves
  chance at set-up only and shows everything.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from crusadegym.core import Game

from .base import Agent
from .heuristics import action_values, get_heuristic, value_kernel
from .kernels import rollout_values


@dataclass(frozen=True)
class MCTSConfig:
    """Search budget and constants (see the module docstring)."""

    iterations: int | None = 200
    seconds: float | None = None
    c_uct: float = 1.4
    rollout_depth: int = 40
    rollouts_per_leaf: int = 1
    prior_visits: float = 2.0

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("MCTS needs a budget: iterations and/or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be >= 1, got {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be > 0, got {self.seconds}")
        if self.rollout_depth < 0 or self.rollouts_per_leaf < 1 or self.c_uct < 0:
            raise ValueError("need rollout_depth >= 0, rollouts_per_leaf >= 1 and c_uct >= 0")
        if self.prior_visits < 0:
            raise ValueError(f"prior_visits must be >= 0, got {self.prior_visits}")


class _Node:
    """One searched position; ``prior`` is its lookahead value for the parent's mover."""

    __slots__ = (
        "state", "mover", "terminal", "children", "untried", "priors", "prior", "visits",
        "value_sum",
    )  # fmt: skip

    def __init__(self, game: Game, state: np.ndarray, rng: np.random.Generator) -> None:
        k, params = game.k, game.params
        self.state = state
        self.terminal = bool(k.is_terminal(state, params))
        self.mover = -1 if self.terminal else int(k.current_player(state, params))
        self.children: dict[int, _Node] = {}
        mask = np.zeros(game.num_actions, np.uint8)
        if not self.terminal:
            k.legal_mask(state, params, mask)
        untried = np.flatnonzero(mask)
        rng.shuffle(untried)
        self.untried = untried.tolist()
        self.priors: np.ndarray | None = None
        self.prior = 0.0
        self.visits = 0
        self.value_sum = np.zeros(game.num_players, np.float64)

    def rank_untried(self, game: Game) -> None:
        """Score every action with the heuristic lookahead; expand the best first."""
        self.priors = action_values(game, self.state, get_heuristic(game.name))
        self.untried.sort(key=lambda a: self.priors[a])  # stable: ties keep the shuffle

    def select_child(self, c_uct: float, prior_visits: float) -> _Node:
        """The child with the best UCB1 score for the seat to move here.

        With priors, a child's mean starts as ``prior_visits`` virtual visits at its
        lookahead value (progressive bias).
        """
        log_n = math.log(self.visits)
        best, best_score = None, -math.inf
        for child in self.children.values():
            n = child.visits + prior_visits
            mean = (child.value_sum[self.mover] + prior_visits * child.prior) / n
            score = mean + c_uct * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best


class MCTSAgent(Agent):
    """UCT search from the live state; plays the most visited root action."""

    name = "mcts"

    def __init__(self, seed: int = 0, config: MCTSConfig | None = None, **options) -> None:
        super().__init__(seed)
        if config is not None and options:
            raise ValueError("pass either an MCTSConfig or keyword options, not both")
        self.config = config or MCTSConfig(**options)
        """The generic config; per game, the heuristic's ``mcts_defaults`` fill in options
        not given here (an explicit ``config`` object is used as is)."""
        self._explicit = config is not None
        self._options = dict(options)
        self._per_game: dict[str, MCTSConfig] = {}
        self.last_visits: dict[int, int] = {}
        self.last_iterations = 0

    def config_for(self, game: Game) -> MCTSConfig:
        """The config used on ``game``: the game's defaults under the options given."""
        if self._explicit:
            return self.config
        if game.name not in self._per_game:
            defaults = get_heuristic(game.name).mcts_defaults or {}
            self._per_game[game.name] = MCTSConfig(**{**defaults, **self._options})
        return self._per_game[game.name]

    def act_state(self, game: Game, state: np.ndarray) -> int:
        game.check_state(state)
        if game.is_terminal(state):
            raise ValueError(f"{game.name}: the game is over; nothing to search")
        cfg = self.config_for(game)
        root = _Node(game, state.copy(), self.rng)
        if len(root.untried) == 1:
            self.last_visits, self.last_iterations = {root.untried[0]: 0}, 0
            return root.untried[0]
        deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds
        value, rewards = value_kernel(game), np.zeros(game.num_players, np.float32)
        leaf_value = np.zeros(game.num_players, np.float32)
        done = 0
        while (cfg.iterations is None or done < cfg.iterations) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(game, cfg, root, value, rewards, leaf_value)
            done += 1
        self.last_iterations = done
        self.last_visits = {a: c.visits for a, c in root.children.items()}
        return max(
            root.children.items(),
            key=lambda ac: (ac[1].visits, ac[1].value_sum[root.mover] / max(ac[1].visits, 1)),
        )[0]

    def _iterate(
        self, game: Game, cfg: MCTSConfig, root: _Node, value, rewards, leaf_value
    ) -> None:
        """One selection-expansion-rollout-backup pass."""
        k, params = game.k, game.params
        node, path = root, [root]
        while not node.terminal and not node.untried:
            node = node.select_child(cfg.c_uct, cfg.prior_visits)
            path.append(node)
        if not node.terminal:
            if cfg.prior_visits > 0 and node.priors is None:
                node.rank_untried(game)
            action = node.untried.pop()
            child_state = node.state.copy()
            k.step(child_state, params, action, rewards)
            child = _Node(game, child_state, self.rng)
            if node.priors is not None:
                child.prior = float(node.priors[action])
            node.children[action] = child
            node = child
            path.append(node)
        rollout_values(k.legal_mask, k.step, k.is_terminal, k.returns, value, node.state, params,
            game.num_actions, game.num_players, cfg.rollout_depth, cfg.rollouts_per_leaf,
            np.int64(self.rng.integers(1 << 62)), leaf_value,
        )  # fmt: skip
        for n in path:
            n.visits += 1
            n.value_sum += leaf_value
