"""Monte-Carlo tree search (UCT) over cloned core states, with compiled rollouts.

Design:

* **Two engines, one search.** This module's tree of Python nodes is the readable
  reference (``engine="python"``): each node keeps a copy of its core state, the seat
  to move, and per-action visits and value sums for that seat; backups carry per-seat
  value vectors; leaves are scored by :func:`~crusadegym.agents.kernels.rollout_values`,
  one ``@njit`` call that plays ``rollouts_per_leaf`` uniformly random playouts.
  :mod:`.tree_search` runs the same search with the tree in arrays, root to leaf in
  one compiled call (``engine="compiled"``, the default for every game: about twice as
  fast on Deus lo Vult, where the lookahead priors are most of the rest; see
  docs/arena.md for Deus and Crusaders). Both engines draw their tie-break order and
  rollout seeds from the same generator (:func:`crusadegym.core.rng.stream` of one
  seed, in the same order), so they agree visit for visit
  (``tests/test_tree_search.py``); ``shuffle=False`` lists actions in legal order.
* **Depth-limited rollouts.** Deus lo Vult games last thousands of steps, and random
  play in Deus or Crusaders rarely ends a game at all, so a playout stops after
  ``rollout_depth`` steps and is scored by the game's evaluation
  (:func:`crusadegym.agents.heuristics.value_kernel`: the heuristic's value in [-1, 1]
  per seat, or the game's ``returns`` when it has none).
* **Heuristic priors (progressive bias).** A node scores all its actions at once
  with the game heuristic's compiled lookahead
  (:func:`~crusadegym.agents.heuristics.action_values`) on its first selection;
  every action's mean then starts as ``prior_visits`` virtual visits at that
  value, *unvisited actions included*, so the search deepens the lines that look
  best instead of first trying every action once (``prior_visits=0`` gives plain
  UCT, which expands unvisited actions first, in random order).
* **Completed two-stage leaves.** A leaf reached by the "select" half of a
  select-then-act move (an action the heuristic's ``extend`` marks, same seat
  still to move) is scored after its best follow-up, as its prior was: the
  selection alone changes nothing the evaluation sees.
* **Selection prior (optional, compiled engine).** ``select_prior=PATH`` (a
  :class:`~.select_prior.SelectPrior`): below the root, a "select"'s prior is a learned
  guess instead of its played-out follow-ups, made exact when the search first expands
  it; the search is then several times cheaper per iteration on Deus lo Vult.
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
  RNG lives inside it). On the true RNG such a tree would know the dice and shuffles
  to come; a hidden-information game's roots therefore get an RNG reseeded from the
  search's seed (below): each root is one sampled future, which the roots average
  over. Deus lo Vult (the Duel) resolves chance at set-up only and shows everything,
  so its one root is the position as it is.
* **Hidden information: determinized UCT, in both engines.** When the game's spec has
  a ``determinize`` kernel (Deus: rivals' hands, the deck order; Crusaders: rivals'
  dealt orders; the Campaign: hidden Deeds, the Weather deck), the search never
  touches the true state: :func:`determinized_roots` builds ``determinizations``
  roots, each a copy resampled for the searching seat by the game's compiled kernel
  (a chain: each one determinizes the previous copy, so they differ), and iteration
  i searches root ``i % determinizations``. Before the first one, the copy's own RNG
  (the game's dice and shuffles to come, which no seat sees) is reseeded from the
  search's seed, so the roots depend on what the seat sees and on the agent's seed
  only, and the search does not know the real future chance either. The searcher's
  own legal actions are the same at every root (they depend on its view only); the
  move is the most visited action summed over the roots
  (:func:`.tree_search.pooled_root_statistics`).
  ``tests/test_search_hidden_info.py`` checks that two positions a seat cannot tell
  apart get the same search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from crusadegym.core import Game
from crusadegym.core.rng import next_u64, stream
from crusadegym.core.rng import seed as seed_rng
from crusadegym.core.rng import shuffle as shuffle_in_place

from .base import Agent
from .heuristics import (
    Heuristic,
    action_values,
    extend_mask,
    greedy_action,
    resolve_heuristic,
    value_kernel,
)
from .kernels import bound_rollout, plain_ucb_index, prior_ucb_index
from .learned_value import LearnedValue
from .repetition import RepetitionGuard, untried
from .select_prior import SelectPrior
from .stall import EXPLORE, PATIENCE, StallBreaker, check_options
from .tree_search import CompiledTree, pooled_root_statistics

ENGINES = ("auto", "compiled", "python")

_CLOCK_CHUNK = 16
"""Compiled iterations between two looks at the clock under a ``seconds`` budget."""

_SEED_BITS = 62
"""Seeds drawn from the agent's generator are below ``2**_SEED_BITS``."""


@dataclass(frozen=True)
class MCTSConfig:
    """Search budget and constants (see the module docstring)."""

    iterations: int | None = 200
    seconds: float | None = None
    c_uct: float = 1.4
    rollout_depth: int = 40
    rollouts_per_leaf: int = 1
    prior_visits: float = 2.0
    determinizations: int = 8
    """Hidden-information games: how many determinized roots share the budget."""
    engine: str = "auto"
    """``compiled`` (:mod:`.tree_search`: the tree in arrays, one numba call per search),
    ``python`` (the readable tree of this module, the reference), or ``auto`` (compiled,
    for every game)."""
    shuffle: bool = True
    """Nodes list their actions in random order (the tie-break); ``False``: legal order,
    which makes the two engines' searches identical (tests, reproducible comparisons)."""
    finish_decided: bool = True
    """Once the heuristic's value says the game is decided (``Heuristic.decided_at``),
    play its greedy lookahead instead of searching: see :meth:`MCTSAgent.act_state`."""
    greedy_beyond: float | None = None
    """Once the mover's value (the heuristic's, in [-1, 1]) is beyond +-this, play the
    greedy lookahead instead of searching: an evaluation that squeezes large margins
    (the Duel's, past its tanh) leaves moves apart by less than the exploration term,
    so the visits spread evenly and the search plays noise (:func:`plays_greedy`).
    ``None``: only ``finish_decided``."""
    patience: int = PATIENCE
    """Turns a seat without progress after which the agent plays a random move with
    probability ``explore`` (:mod:`.stall`); 0: never."""
    explore: float = EXPLORE

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
        if self.greedy_beyond is not None and not 0.0 <= self.greedy_beyond <= 1.0:
            raise ValueError(f"greedy_beyond must be in [0, 1], got {self.greedy_beyond}")
        if self.determinizations < 1:
            raise ValueError(f"determinizations must be >= 1, got {self.determinizations}")
        check_options(self.patience, self.explore)
        if self.engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {self.engine!r}")

    def within_budget(self, done: int, deadline: float | None) -> bool:
        """Whether a search that has run ``done`` iterations may run more (``deadline``:
        the ``time.perf_counter()`` at which ``seconds`` run out, or ``None``). Every
        search runs at least one iteration, even when compiling it (the first search of
        a process) has used up ``seconds``."""
        if done == 0:
            return True
        return (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        )


def plays_greedy(game: Game, state: np.ndarray, heuristic: Heuristic, cfg: MCTSConfig) -> bool:
    """Whether MCTS plays ``heuristic``'s greedy lookahead at ``state`` instead of
    searching: the mover's value is beyond ``Heuristic.decided_at`` (with
    ``cfg.finish_decided``) or beyond ``cfg.greedy_beyond``.

    A decided game's values differ by far less than any exploration constant can tell
    apart (the Duel squeezes them into its last 0.02 so that deciding always pays), so a
    search there plays noise, and ending the turn is as good as any move: MCTS against
    the heuristic ran 8 of 20 Duels to the turn cap, the winner holding the last coins
    (issue #36). The same holds a little earlier, where the Duel's value leaves its tanh
    for a slower approach (a seat about nine coins ahead): 16 of 200 ladder games ended
    at the cap with MCTS ahead and its visits spread evenly over moves about 3e-5 apart.
    The greedy lookahead still orders those values and goes for the end. Called on a
    determinized root, so it reads only what the mover may see."""
    bounds = [b for b in (heuristic.decided_at if cfg.finish_decided else None,
                          cfg.greedy_beyond) if b is not None]  # fmt: skip
    if not bounds:
        return False
    out = np.zeros(game.num_players, np.float64)
    value_kernel(game, heuristic)(state, game.params, out)
    return bool(abs(out[int(game.k.current_player(state, game.params))]) > min(bounds))


def determinized_roots(game: Game, state: np.ndarray, count: int, seed: int) -> np.ndarray:
    """The positions a search of ``state`` starts from, as a ``[D, S]`` array.

    Perfect information: ``state`` itself (``D = 1``). Hidden information: ``count``
    copies resampled for the seat to move by the game's ``determinize`` kernel, in a
    chain (each from the previous one); the first copy's RNG is reseeded from ``seed``
    first, so the roots are a function of the seat's view and ``seed`` alone.
    """
    if game.spec.determinize is None:
        return state[None].copy()
    if game.spec.rng_slot < 0:
        raise ValueError(f"{game.name}: a determinize kernel needs the spec's rng_slot")
    seat = int(game.k.current_player(state, game.params))
    roots = np.empty((count, state.shape[0]), state.dtype)
    view = state.copy()
    seed_rng(view, game.spec.rng_slot, np.int64(seed))
    for i in range(count):
        game.spec.determinize(view, game.params, seat)  # never the true hidden state
        roots[i] = view
    return roots


class _Node:
    """One searched position and per-action statistics for the seat to move there.

    ``actions`` are the legal actions; ``n[i]`` and ``w[i]`` the visits of action
    ``actions[i]`` and the sum of the mover's values over them; ``priors[i]`` its
    lookahead value (filled on the node's first selection when priors are on).
    """

    __slots__ = ("state", "mover", "terminal", "actions", "children", "priors", "extend", "n",
                 "w", "visits")  # fmt: skip

    def __init__(
        self, game: Game, state: np.ndarray, rng: np.ndarray, shuffle: bool = True
    ) -> None:
        k, params = game.k, game.params
        self.state = state
        self.terminal = bool(k.is_terminal(state, params))
        self.mover = -1 if self.terminal else int(k.current_player(state, params))
        mask = np.zeros(game.num_actions, np.uint8)
        if not self.terminal:
            k.legal_mask(state, params, mask)
        self.actions = np.flatnonzero(mask).astype(np.int64)
        if shuffle:  # plain UCT expands in random order (``rng``: the search's stream)
            shuffle_in_place(rng, 0, self.actions, len(self.actions))
        self.children: dict[int, _Node] = {}
        self.priors: np.ndarray | None = None
        self.extend: np.ndarray | None = None
        self.n = np.zeros(len(self.actions), np.int64)
        self.w = np.zeros(len(self.actions), np.float64)
        self.visits = 0

    def rank(self, game: Game, heuristic: Heuristic) -> None:
        """Score every legal action with the heuristic lookahead (the node's priors)."""
        self.priors = action_values(game, self.state, heuristic)[self.actions]
        if heuristic.extend is not None:
            self.extend = extend_mask(game, self.state, heuristic)[self.actions].astype(bool)

    def select(self, c_uct: float, prior_visits: float) -> int:
        """Index of the action with the best UCB score for the seat to move here.

        With priors, every action's mean starts as ``prior_visits`` virtual visits at
        its lookahead value (progressive bias), unvisited actions included, so the
        search deepens the best-looking lines instead of first trying every action.
        Without priors (or with ``prior_visits=0``), unvisited actions come first (plain
        UCT).
        """
        if self.priors is None or prior_visits <= 0:
            return int(plain_ucb_index(self.w, self.n, self.visits, c_uct))
        return int(prior_ucb_index(self.w, self.n, self.priors, self.visits, c_uct,
                                   prior_visits))  # fmt: skip


class MCTSAgent(Agent):
    """UCT search from the live state; plays the most visited root action."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        config: MCTSConfig | None = None,
        heuristic: Heuristic | None = None,
        value: str | None = None,
        select_prior: str | None = None,
        **options,
    ) -> None:
        super().__init__(seed)
        self.select_prior = None
        """A learned selection prior (``mcts:select_prior=PATH``, :mod:`.select_prior`):
        below the root, the second ply of a "select" is guessed until first expanded."""
        if select_prior is not None:
            self.select_prior = SelectPrior.load(select_prior)
        if value is not None:  # ``mcts:value=PATH.npz``: a learned evaluation
            if heuristic is not None:
                raise ValueError("pass either a heuristic or value=PATH, not both")
            heuristic = LearnedValue.load(value).heuristic()
        self.heuristic = heuristic
        """The evaluation, priors and defaults to search with; ``None``: the game's own
        (:func:`~crusadegym.agents.heuristics.resolve_heuristic`). A learned evaluation
        (:mod:`crusadegym.agents.learned_value`) comes in here."""
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
        self.last_depth = 0
        """Deepest tree level (edges from the root) reached by the last search."""
        self.repetition = RepetitionGuard()
        """The moves played from each position of this game: never the same twice."""
        self.stall: StallBreaker | None = None
        """A random move now and then once the game has stalled (:mod:`.stall`)."""

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.repetition.reset()
        if self.stall is not None:
            self.stall.reset()

    def config_for(self, game: Game) -> MCTSConfig:
        """The config used on ``game``: the game's defaults under the options given."""
        if self._explicit:
            return self.config
        if game.name not in self._per_game:
            defaults = resolve_heuristic(game, self.heuristic).mcts_defaults or {}
            self._per_game[game.name] = MCTSConfig(**{**defaults, **self._options})
        return self._per_game[game.name]

    def engine_for(self, game: Game) -> str:
        """``compiled`` or ``python``: the engine this agent searches ``game`` with."""
        engine = self.config_for(game).engine
        if engine == "auto":
            engine = "compiled"
        if self.select_prior is not None:
            if engine != "compiled":
                raise ValueError("select_prior runs in the compiled engine only; "
                                 f"{game.name} searches with engine={engine}")  # fmt: skip
            if self.select_prior.game != game.name:
                raise ValueError(f"this selection prior is for {self.select_prior.game}, "
                                 f"not {game.name}")  # fmt: skip
        return engine

    def act_state(self, game: Game, state: np.ndarray) -> int:
        game.check_state(state)
        if game.is_terminal(state):
            raise ValueError(f"{game.name}: the game is over; nothing to search")
        cfg = self.config_for(game)
        if self.stall is None:
            self.stall = StallBreaker(cfg.patience, cfg.explore)
        explored = self.stall.act(game, state, self.rng)
        if explored is not None:
            self.last_visits, self.last_iterations, self.last_depth = {}, 0, 0
            return explored
        heuristic = resolve_heuristic(game, self.heuristic)
        seed = int(self.rng.integers(1 << _SEED_BITS))
        if game.spec.determinize is not None:
            roots = determinized_roots(game, state, cfg.determinizations,
                                       int(self.rng.integers(1 << _SEED_BITS)))  # fmt: skip
        else:
            roots = determinized_roots(game, state, 1, 0)
        key = self.repetition.key(game, state)
        tried = self.repetition.tried(key)
        if plays_greedy(game, roots[0], heuristic, cfg):
            self.last_visits, self.last_iterations, self.last_depth = {}, 0, 0
            action = greedy_action(game, roots[0], heuristic, np.random.default_rng(seed), tried)
            return self.repetition.record(key, action)
        if self.engine_for(game) == "compiled":
            actions, n, w = self._search_compiled(game, roots, seed, cfg, heuristic)
        else:
            actions, n, w = self._search_python(game, roots, seed, cfg, heuristic)
        if len(actions) == 1:
            self.last_visits = {int(actions[0]): 0}
        order = untried(np.lexsort((w / np.maximum(n, 1), n))[::-1], {
            i for i, a in enumerate(actions) if int(a) in tried})  # fmt: skip
        return self.repetition.record(key, int(actions[order[0]]))

    def _search_compiled(
        self, game: Game, roots: np.ndarray, seed: int, cfg: MCTSConfig, heuristic: Heuristic
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Root actions, visits and value sums of a search by :mod:`.tree_search` from
        ``roots`` (summed over them when there are several)."""
        tree = CompiledTree(game, roots, value_kernel(game, heuristic), heuristic.extend,
                            seed, cfg.c_uct, cfg.prior_visits, cfg.rollout_depth,
                            cfg.rollouts_per_leaf, cfg.shuffle,
                            prior=self.select_prior)  # fmt: skip
        deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds
        done = tree.search(0)  # the root alone
        if tree.root_actions > 1:
            chunk = cfg.iterations if deadline is None else _CLOCK_CHUNK
            while cfg.within_budget(done, deadline):
                todo = chunk if cfg.iterations is None else min(chunk, cfg.iterations - done)
                done += tree.search(todo)
        actions, n, w = tree.root_statistics()
        self.last_iterations, self.last_depth = done, tree.depth
        self.last_visits = {int(a): int(k) for a, k in sorted(zip(actions, n, strict=True)) if k}
        return actions, n, w

    def _search_python(
        self, game: Game, roots: np.ndarray, seed: int, cfg: MCTSConfig, heuristic: Heuristic
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Root actions, visits and value sums of a search by the tree of this module
        from ``roots`` (summed over them when there are several). ``seed`` starts the
        generator of the tie-break order and the rollouts, as in the compiled engine."""
        rng = stream(np.uint64(seed))
        nodes = [_Node(game, root.copy(), rng, cfg.shuffle) for root in roots]
        self.last_depth = done = 0
        if len(nodes[0].actions) > 1:
            deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds
            rollout = bound_rollout(game, value_kernel(game, heuristic))
            while cfg.within_budget(done, deadline):
                self._iterate(game, cfg, nodes[done % len(nodes)], heuristic, rollout, rng)
                done += 1
        self.last_iterations = done
        actions, n, w = pooled_root_statistics([(r.actions, r.n, r.w) for r in nodes])
        self.last_visits = {int(a): int(k) for a, k in sorted(zip(actions, n, strict=True)) if k}
        return actions, n, w

    def _iterate(
        self, game: Game, cfg: MCTSConfig, root: _Node, heuristic: Heuristic, rollout,
        rng: np.ndarray,
    ) -> None:  # fmt: skip
        """One selection-expansion-evaluation-backup pass."""
        k, params = game.k, game.params
        rewards = np.zeros(game.num_players, np.float32)
        node, path = root, []
        while not node.terminal:
            if cfg.prior_visits > 0 and node.priors is None:
                node.rank(game, heuristic)
            i = node.select(cfg.c_uct, cfg.prior_visits)
            path.append((node, i))
            if i not in node.children:
                child_state = node.state.copy()
                k.step(child_state, params, int(node.actions[i]), rewards)
                node.children[i] = _Node(game, child_state, rng, cfg.shuffle)
                node = node.children[i]
                break
            node = node.children[i]
        self.last_depth = max(self.last_depth, len(path))
        seed = np.int64(next_u64(rng, 0) >> np.uint64(2))  # drawn for every leaf, as compiled
        # fmt: off
        leaf_value = self._evaluate(game, cfg, node, path[-1] if path else None, heuristic,
                                    rollout, seed)
        # fmt: on
        for parent, i in path:
            parent.visits += 1
            parent.n[i] += 1
            parent.w[i] += leaf_value[parent.mover]

    def _evaluate(
        self, game: Game, cfg: MCTSConfig, leaf: _Node, edge, heuristic: Heuristic, rollout,
        seed: np.int64,
    ) -> np.ndarray:  # fmt: skip
        """Per-seat value of a new leaf.

        A leaf reached by the "select" half of a two-stage move (an action the
        heuristic's ``extend`` marks, same seat still to move) is completed with its
        best follow-up first, so its value compares with its prior; then the
        compiled rollout (depth 0: the evaluation itself) scores it.
        """
        k, params = game.k, game.params
        out = np.zeros(game.num_players, np.float32)
        if leaf.terminal:
            k.returns(leaf.state, params, out)
            return out
        state = leaf.state
        parent, i = edge if edge is not None else (None, 0)
        if (
            parent is not None
            and parent.extend is not None
            and parent.extend[i]
            and leaf.mover == parent.mover
        ):
            leaf.rank(game, heuristic)
            state = leaf.state.copy()
            k.step(state, params, int(leaf.actions[np.argmax(leaf.priors)]), out)
            if k.is_terminal(state, params):
                k.returns(state, params, out)
                return out
        rollout(state, params, game.num_actions, game.num_players,
            cfg.rollout_depth, cfg.rollouts_per_leaf, seed, out,
        )  # fmt: skip
        return out
