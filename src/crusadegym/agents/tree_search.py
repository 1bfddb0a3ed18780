"""The MCTS tree compiled from root to leaf: the same search as :mod:`.mcts`, in arrays.

:class:`~crusadegym.agents.mcts.MCTSAgent` keeps a readable tree of Python nodes (the
reference, ``engine="python"``); for perfect-information games it runs this one by
default (``engine="compiled"``). The two make the same choices: with ``shuffle=False``
(actions in legal order) they give identical visit counts, which
``tests/test_tree_search.py`` checks position by position. Only the random order in
which a node lists its actions (the tie-break) comes from different generators.

**Several roots (hidden information).** A game that hides information is searched from
``D`` determinized copies of the position (:func:`.mcts.determinized_roots`): nodes
``0 .. D-1`` are the roots, iteration ``i`` descends from root ``i % D``, each root grows
its own subtree, and :func:`pooled_root_statistics` sums the roots' visits per action for
the decision. The searcher's own legal actions are the same at every root (they depend on
its view only). A perfect-information game has one root, ``D = 1``.

The tree lives in flat arrays that the caller owns, so a search can stop and resume
(a ``seconds`` budget checks the clock between chunks of iterations):

* ``states[node]``: the node's game state (a child's is computed once, on expansion);
* ``nodes[:, node]`` (int64 rows :data:`N_MOVER` ...): the seat to move, terminal flag,
  first edge, edge count, visits, and whether the priors are filled;
* ``edges_i[:, edge]`` (int64 rows :data:`E_ACTION` ...): the action, visits, child node
  (-1 until expanded) and the two-ply mark of the evaluation's ``extend`` rule
  (:data:`ESTIMATED` while a selection prior's guess stands in for the second ply: the
  first expansion of that edge replaces the guess with the exact value, see
  :mod:`.select_prior`);
* ``edges_f[:, edge]`` (float64 rows :data:`E_SUM`, :data:`E_PRIOR`, then one row per
  seat from :data:`E_SEAT_VALUES`): the sum of the mover's values over the visits, the
  lookahead value (the prior), and every seat's value of the position the edge leads
  to when the lookahead scored it one ply deep (NaN otherwise). With rollouts of depth
  0 that is exactly the new leaf's evaluation, which is then read instead of computed
  again (one evaluation per iteration saved; the evaluation is most of a search's cost
  in Deus and Crusaders);
* ``meta``: nodes used, edges used, deepest level reached, the number of roots, and the
  iterations run so far (which root the next one starts from).

A kernel call runs iterations until its budget is spent or the next one might not fit
(fewer than one node or ``n_actions`` edges free); :class:`CompiledTree` then grows the
arrays and calls again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from crusadegym.core.jit import inline_kjit, jit, kjit
from crusadegym.core.rng import next_u64, shuffle, stream

from .kernels import (
    estimated_lookahead_values,
    lookahead_values,
    plain_ucb_index,
    prior_ucb_index,
    rollout_values,
)  # fmt: skip

if TYPE_CHECKING:
    from crusadegym.core import Game

N_MOVER, N_TERMINAL, N_FIRST, N_COUNT, N_VISITS, N_RANKED = range(6)
E_ACTION, E_VISITS, E_CHILD, E_EXTEND = range(4)
E_SUM, E_PRIOR, E_SEAT_VALUES = range(3)
M_NODES, M_EDGES, M_DEPTH, M_ROOTS, M_ITERATIONS = range(5)
ESTIMATED = 2
"""``E_EXTEND`` of a "select" whose prior is a selection prior's guess (not yet expanded)."""


@jit
def no_extend(state, params, out):
    """The ``extend`` rule of an evaluation without one: no action gets a second ply."""
    out[:] = 0


@jit
def no_features(state, params, action, after, after_mask, out):
    """The ``features`` kernel of a search without a selection prior (never called)."""
    out[:] = 0.0


NO_PRIOR = (no_features, np.zeros(1), np.zeros(1, np.uint8))
"""The (features, weights, exact follow-ups) of a search without a selection prior."""


@jit
def select_edge(nodes, edges_i, edges_f, node, c_uct, prior_visits):
    """The edge the search follows from ``node``: the selection rules of
    :mod:`.kernels` (the Python tree's too) over the node's edges."""
    first, count, visits = nodes[N_FIRST, node], nodes[N_COUNT, node], nodes[N_VISITS, node]
    w = edges_f[E_SUM, first : first + count]
    n = edges_i[E_VISITS, first : first + count]
    if prior_visits > 0 and nodes[N_RANKED, node]:
        priors = edges_f[E_PRIOR, first : first + count]
        return first + prior_ucb_index(w, n, priors, visits, c_uct, prior_visits)
    return first + plain_ucb_index(w, n, visits, c_uct)


@jit
def read_seat_values(edges_f, edge, out):
    """Copy the per-seat values stored on ``edge`` into ``out``; False (``out``
    untouched) if the edge has none (see ``edges_f`` in the module docstring)."""
    if np.isnan(edges_f[E_SEAT_VALUES, edge]):
        return False
    for p in range(out.shape[0]):
        out[p] = edges_f[E_SEAT_VALUES + p, edge]
    return True


def _kernel(k: Any, value: Any, extend: Any, prior: tuple | None) -> Any:
    """The search kernel with one game's kernels, evaluation, ``extend`` rule and
    selection prior fixed (a closure compiled once per process, like
    :func:`.kernels.bound_rollout`)."""
    legal_mask, step, is_terminal = k.legal_mask, k.step, k.is_terminal
    current_player, returns = k.current_player, k.returns
    estimating = prior is not None
    features, weights, exact = NO_PRIOR if prior is None else prior

    @inline_kjit
    def make_node(states, nodes, edges_i, edges_f, meta, node, params, n_actions, order, rng):
        """Fill ``node`` from ``states[node]``: mover, terminal flag, its legal actions."""
        state = states[node]
        terminal = is_terminal(state, params)
        nodes[N_TERMINAL, node] = terminal
        nodes[N_MOVER, node] = -1 if terminal else current_player(state, params)
        nodes[N_VISITS, node] = 0
        nodes[N_RANKED, node] = 0
        first = meta[M_EDGES]
        count = 0
        if not terminal:
            mask = np.zeros(n_actions, np.uint8)
            legal_mask(state, params, mask)
            for a in range(n_actions):
                if mask[a]:
                    edges_i[E_ACTION, first + count] = a
                    count += 1
            if order:  # expand and break ties in random order, as the Python tree does
                shuffle(rng, 0, edges_i[E_ACTION, first : first + count], count)
        for e in range(first, first + count):
            edges_i[E_VISITS, e] = 0
            edges_i[E_CHILD, e] = -1
            edges_i[E_EXTEND, e] = 0
            edges_f[E_SUM, e] = 0.0
            edges_f[E_PRIOR, e] = 0.0
            edges_f[E_SEAT_VALUES:, e] = np.nan
        nodes[N_FIRST, node] = first
        nodes[N_COUNT, node] = count
        meta[M_EDGES] = first + count
        meta[M_NODES] = max(meta[M_NODES], node + 1)

    @inline_kjit
    def rank(states, nodes, edges_i, edges_f, node, params, n_actions, n_players, n_roots):
        """Priors: the lookahead value of every action of ``node`` (``mcts._Node.rank``)."""
        state = states[node]
        marks = np.zeros(n_actions, np.uint8)
        extend(state, params, marks)
        values = np.empty(n_actions, np.float64)
        seat_values = np.empty((n_actions, n_players), np.float32)
        if estimating and node >= n_roots:  # the roots' priors stay exact
            guessed = np.zeros(n_actions, np.uint8)
            # fmt: off
            estimated_lookahead_values(legal_mask, step, is_terminal, current_player, returns,
                                       value, features, weights, exact, state, params,
                                       n_actions, n_players, marks, values, guessed,
                                       seat_values)
            # fmt: on
            for a in range(n_actions):
                marks[a] += guessed[a]  # 2: an estimated "select", made exact on expansion
        else:
            # fmt: off
            lookahead_values(legal_mask, step, is_terminal, current_player, returns, value,
                             state, params, n_actions, n_players, marks, values, seat_values)
            # fmt: on
        for e in range(nodes[N_FIRST, node], nodes[N_FIRST, node] + nodes[N_COUNT, node]):
            a = edges_i[E_ACTION, e]
            edges_f[E_PRIOR, e] = values[a]
            edges_i[E_EXTEND, e] = marks[a]
            for p in range(n_players):
                edges_f[E_SEAT_VALUES + p, e] = seat_values[a, p]
        nodes[N_RANKED, node] = 1

    @inline_kjit
    def evaluate(states, nodes, edges_i, edges_f, leaf, edge, parent, params, n_actions,
                 n_players, n_roots, depth, n_rollouts, seed, out):  # fmt: skip
        """Per-seat value of a new leaf (``mcts.MCTSAgent._evaluate``): a "select" leaf
        is completed with its best follow-up first, then the rollout scores it (read
        from the edge when the lookahead already scored that position and the rollout
        would have no step to play)."""
        if nodes[N_TERMINAL, leaf]:
            returns(states[leaf], params, out)
            return
        state = states[leaf]
        known = depth == 0 and n_rollouts == 1  # the rollout is the evaluation, once
        if edge >= 0 and edges_i[E_EXTEND, edge] and nodes[N_MOVER, leaf] == nodes[N_MOVER, parent]:
            rank(states, nodes, edges_i, edges_f, leaf, params, n_actions, n_players, n_roots)
            first, count = nodes[N_FIRST, leaf], nodes[N_COUNT, leaf]
            best = first
            for e in range(first, first + count):
                if edges_f[E_PRIOR, e] > edges_f[E_PRIOR, best]:
                    best = e
            if edges_i[E_EXTEND, edge] == ESTIMATED:  # the guess gives way to the exact value
                edges_f[E_PRIOR, edge] = edges_f[E_PRIOR, best]
                edges_i[E_EXTEND, edge] = 1
            if known and read_seat_values(edges_f, best, out):
                return
            state = state.copy()
            rewards = np.zeros(n_players, np.float32)
            step(state, params, edges_i[E_ACTION, best], rewards)
            if is_terminal(state, params):
                returns(state, params, out)
                return
        elif known and edge >= 0 and read_seat_values(edges_f, edge, out):
            return
        # fmt: off
        rollout_values(legal_mask, step, is_terminal, returns, value, state, params, n_actions,
                       n_players, depth, n_rollouts, seed, out)
        # fmt: on

    @kjit
    def run(states, nodes, edges_i, edges_f, meta, params, n_actions, n_players, iterations,
            c_uct, prior_visits, depth, n_rollouts, order, rng):  # fmt: skip
        """Up to ``iterations`` selection-expansion-evaluation-backup passes, each from
        the next root in turn (the roots ``states[0 .. meta[M_ROOTS]-1]`` are made first
        if the tree is empty); returns how many were run."""
        node_cap, edge_cap = states.shape[0], edges_i.shape[1]
        n_roots = meta[M_ROOTS]
        if meta[M_NODES] == 0:
            for r in range(n_roots):
                make_node(states, nodes, edges_i, edges_f, meta, r, params, n_actions, order, rng)
        path_nodes = np.empty(node_cap, np.int64)
        path_edges = np.empty(node_cap, np.int64)
        rewards = np.zeros(n_players, np.float32)
        out = np.zeros(n_players, np.float32)
        done = 0
        while done < iterations:
            if meta[M_NODES] >= node_cap or meta[M_EDGES] + n_actions > edge_cap:
                break  # the caller grows the arrays
            node, length, new = meta[M_ITERATIONS] % n_roots, 0, -1
            while not nodes[N_TERMINAL, node]:
                if prior_visits > 0 and not nodes[N_RANKED, node]:
                    # fmt: off
                    rank(states, nodes, edges_i, edges_f, node, params, n_actions, n_players,
                         n_roots)
                    # fmt: on
                e = select_edge(nodes, edges_i, edges_f, node, c_uct, prior_visits)
                path_nodes[length] = node
                path_edges[length] = e
                length += 1
                child = edges_i[E_CHILD, e]
                if child < 0:
                    new = meta[M_NODES]
                    states[new] = states[node]
                    step(states[new], params, edges_i[E_ACTION, e], rewards)
                    make_node(states, nodes, edges_i, edges_f, meta, new, params, n_actions,
                              order, rng)  # fmt: skip
                    edges_i[E_CHILD, e] = new
                    node = new
                    break
                node = child
            meta[M_DEPTH] = max(meta[M_DEPTH], length)
            edge = path_edges[length - 1] if length > 0 else -1
            parent = path_nodes[length - 1] if length > 0 else -1
            seed = np.int64(next_u64(rng, 0) >> np.uint64(2))
            # fmt: off
            evaluate(states, nodes, edges_i, edges_f, node, edge, parent, params, n_actions,
                     n_players, n_roots, depth, n_rollouts, seed, out)
            # fmt: on
            for i in range(length):
                p, e = path_nodes[i], path_edges[i]
                nodes[N_VISITS, p] += 1
                edges_i[E_VISITS, e] += 1
                edges_f[E_SUM, e] += out[nodes[N_MOVER, p]]
            meta[M_ITERATIONS] += 1
            done += 1
        return done

    return run


_BOUND: dict[tuple, Any] = {}


def bound_search(game: Game, value: Any, extend: Any | None, prior: Any = None) -> Any:
    """The compiled search for ``game``'s kernels, evaluation ``value``, ``extend`` rule
    (``None``: none) and selection prior (a :class:`~.select_prior.SelectPrior`, or
    ``None``), compiled once per process and combination."""
    k = game.k
    extend = no_extend if extend is None else extend
    key = (k.legal_mask, k.step, k.is_terminal, k.current_player, k.returns, value, extend,
           prior)  # fmt: skip
    if key not in _BOUND:
        _BOUND[key] = _kernel(k, value, extend, None if prior is None else prior.parts())
    return _BOUND[key]


class CompiledTree:
    """One search's arrays and the calls that grow them (see the module docstring).

    ``root``: the position (one state), or ``D`` determinized positions as a ``[D, S]``
    array, searched as ``D`` roots that share the iterations in turn."""

    def __init__(  # the search's constants follow MCTSConfig
        self, game: Game, root: np.ndarray, value: Any, extend: Any | None, seed: int,
        c_uct: float, prior_visits: float, rollout_depth: int, rollouts_per_leaf: int,
        shuffle_actions: bool, nodes: int = 256, prior: Any = None,
    ) -> None:  # fmt: skip
        self.game = game
        self.run = bound_search(game, value, extend, prior)
        self.constants = (c_uct, prior_visits, rollout_depth, rollouts_per_leaf, shuffle_actions)
        """The search's constants, in the kernel's argument order (see MCTSConfig)."""
        roots = np.atleast_2d(root)
        self.n_roots = roots.shape[0]
        nodes = max(nodes, self.n_roots + 1)
        self.states = np.empty((nodes, roots.shape[1]), roots.dtype)
        self.states[: self.n_roots] = roots
        self.nodes = np.zeros((6, nodes), np.int64)
        self.edges_i = np.zeros((4, nodes * 16 + self.n_roots * game.num_actions), np.int64)
        self.edges_f = np.zeros((E_SEAT_VALUES + game.num_players, self.edges_i.shape[1]))
        self.meta = np.zeros(5, np.int64)
        self.meta[M_ROOTS] = self.n_roots
        self.rng = stream(np.uint64(seed))

    def search(self, iterations: int) -> int:
        """Run ``iterations`` more iterations (the first call also makes the roots),
        growing the arrays as needed."""
        game, done = self.game, 0
        while done < iterations or self.meta[M_NODES] == 0:
            self._make_room(iterations - done)
            done += self.run(self.states, self.nodes, self.edges_i, self.edges_f, self.meta,
                             game.params, game.num_actions, game.num_players, iterations - done,
                             *self.constants, self.rng)  # fmt: skip
        return done

    @property
    def root_actions(self) -> int:
        """How many legal actions the root has (0 before the first :meth:`search`)."""
        return int(self.nodes[N_COUNT, 0])

    def _make_room(self, iterations: int) -> None:
        """Room for at least one more iteration, and for most of ``iterations`` at the
        current edges per node."""
        used_nodes, used_edges = int(self.meta[M_NODES]), int(self.meta[M_EDGES])
        want_nodes = max(used_nodes, self.n_roots) + iterations + 1
        if want_nodes > self.states.shape[0]:
            self.states = _grown(self.states, want_nodes, axis=0)
            self.nodes = _grown(self.nodes, want_nodes, axis=1)
        per_node = used_edges / max(used_nodes, 1)
        want_edges = int(used_edges + per_node * (iterations + 1)) + self.game.num_actions
        if want_edges > self.edges_i.shape[1]:
            self.edges_i = _grown(self.edges_i, want_edges, axis=1)
            self.edges_f = _grown(self.edges_f, want_edges, axis=1)

    def root_statistics(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The decision's actions, visits and value sums: the root's own (in its listing
        order), or with several roots their sum per action (:func:`pooled_root_statistics`)."""
        return pooled_root_statistics([self._statistics_of(r) for r in range(self.n_roots)])

    def _statistics_of(self, root: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Root ``root``'s actions (in its listing order), visits and value sums."""
        first, count = int(self.nodes[N_FIRST, root]), int(self.nodes[N_COUNT, root])
        edges = slice(first, first + count)
        return (self.edges_i[E_ACTION, edges].copy(), self.edges_i[E_VISITS, edges].copy(),
                self.edges_f[E_SUM, edges].copy())  # fmt: skip

    @property
    def depth(self) -> int:
        """Deepest tree level (edges from the root) reached so far."""
        return int(self.meta[M_DEPTH])


def pooled_root_statistics(
    roots: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One decision from the roots' (actions, visits, value sums): a single root's own,
    in its listing order (its tie-break), or for several roots every action once, in
    increasing order, with its visits and sums added up over the roots (both engines
    decide with this). The roots of a determinized search list the same actions, since
    the searcher's legal actions depend on its view only."""
    if len(roots) == 1:
        return roots[0]
    actions = np.unique(np.concatenate([listed for listed, _, _ in roots]))
    n = np.zeros(len(actions), np.int64)
    w = np.zeros(len(actions), np.float64)
    for listed, visits, sums in roots:
        order = np.searchsorted(actions, listed)
        n[order] += visits
        w[order] += sums
    return actions, n, w


def _grown(array: np.ndarray, size: int, axis: int) -> np.ndarray:
    """``array`` with at least ``size`` entries along ``axis`` (doubling), contents kept."""
    new_size = max(size, 2 * array.shape[axis])
    shape = list(array.shape)
    shape[axis] = new_size
    out = np.zeros(shape, array.dtype)
    out[tuple(slice(0, n) for n in array.shape)] = array
    return out
