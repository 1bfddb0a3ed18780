"""Gumbel search over a policy-value network, compiled, for many games at once.

The search of expert iteration (Danihelka et al., "Policy improvement by planning with
Gumbel", ICLR 2022; the rules below follow DeepMind's ``mctx`` Gumbel MuZero policy):

* **Root**: Gumbel-top-k sampling without replacement of ``max_considered`` actions by
  ``g(a) + logits(a)``, then *sequential halving*: the simulations are spread over the
  considered actions in phases, and each phase keeps the better half by
  ``g(a) + logits(a) + sigma(q(a))``. The move is the survivor with the best score. With
  ``g = 0`` (play) the move is deterministic; with Gumbel noise (self-play) the move is a
  sample that still improves on the prior.
* **Interior nodes**: deterministic: the action maximising ``pi'(a) - N(a) / (1 + sum N)``,
  where ``pi' = softmax(logits + sigma(completed Q))``.
* **Completed Q**: a visited action's mean value for the seat to move; an unvisited one
  gets ``v_mix``, the node's own value mixed with the prior-weighted mean of the visited
  ``Q``. ``sigma(q) = (c_visit + max N) * c_scale * q`` after a min-max rescale of the
  node's completed ``Q`` to [0, 1] (``mctx``'s default, ``rescale=True``), or, with
  ``rescale=False``, after the fixed map of the value range [-1, 1] to [0, 1]: then
  small differences between noisy values stay small, and the prior keeps its weight
  until the values really differ (a win against a loss moves a logit by ``c_visit *
  c_scale`` = 5).
* **Policy target**: ``softmax(logits + sigma(completed Q))`` at the root, over the legal
  actions: what the network's prior is trained towards.
* **Values**: every node keeps a value per seat (max^n, any number of seats): the
  network's observer-relative values turned to absolute seats, or the game's ``returns``
  at a finished game. Each seat maximises its own value.

**Batched.** The trees of ``G`` games live in arrays ``[G, K, ...]`` (``K`` = simulations
+ 1 nodes, one per simulation), and every simulation is one wave: :meth:`descend` walks
every tree to a new leaf and writes the leaf's observation (as the seat to move there
sees it) and legal mask; the caller evaluates the batch of leaves with the network in
one pass (``network.forward``); :meth:`absorb` stores the priors and values and backs
them up. The game rules run in the compiled kernels of :mod:`crusadegym.core`.

**Hidden information.** The root is a determinized copy for the seat to move
(:func:`crusadegym.agents.mcts.determinized_roots`, one per search), never the true
state; inside the tree every seat reads its own observation of that copy.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from crusadegym.core.jit import kjit

from .network import ILLEGAL_LOGIT

if TYPE_CHECKING:
    from crusadegym.core import Game

C_VISIT = 50.0
"""``sigma``'s visit offset (``mctx``'s ``maxvisit_init``)."""
C_SCALE = 0.1
"""``sigma``'s value scale (``mctx``'s ``value_scale``)."""
NO_LEAF = -1
Q_SCALES = ("minmax", "fixed")
"""How values are scaled before ``sigma``: ``mctx``'s min-max rescale, or the fixed map."""


def considered_visits(max_considered: int, simulations: int) -> np.ndarray:
    """Sequential halving's schedule: row ``m`` (``m`` actions considered) gives, for each
    simulation ``k``, how many visits the root action it goes to must already have
    (``mctx``'s ``get_sequence_of_considered_visits``)."""
    table = np.zeros((max_considered + 1, max(simulations, 1)), np.int64)
    for m in range(1, max_considered + 1):
        if m == 1:
            table[m, :simulations] = np.arange(simulations)
            continue
        log2m = math.ceil(math.log2(m))
        sequence: list[int] = []
        visits = [0] * m
        considered = m
        while len(sequence) < simulations:
            extra = max(1, simulations // (log2m * considered))
            for _ in range(extra):
                sequence.extend(visits[:considered])
                for i in range(considered):
                    visits[i] += 1
            considered = max(2, considered // 2)
        table[m, :simulations] = sequence[:simulations]
    return table


def _kernels(game: Game) -> tuple[Any, Any, Any, Any]:
    """The compiled passes (``start``, ``descend``, ``absorb``, ``decide``) for ``game``; each
    takes the tree's arrays as one tuple (:attr:`GumbelSearch.tree`)."""
    k = game.k
    legal_mask, step, observe = k.legal_mask, k.step, k.observe
    is_terminal, current_player, returns = k.is_terminal, k.current_player, k.returns

    @kjit
    def sigma_of(logits, legal, edge_n, edge_w, raw, rescale, out):
        """``sigma(completed Q)`` of one node's actions into ``out`` (legal ones); Q is
        min-max rescaled to [0, 1] when ``rescale``, else mapped from [-1, 1]."""
        n_actions = logits.shape[0]
        total, most = 0, 0
        top = ILLEGAL_LOGIT
        for a in range(n_actions):
            if legal[a]:
                total += edge_n[a]
                most = max(most, edge_n[a])
                top = max(top, logits[a])
        v_mix = raw
        if total > 0:
            z, pq, p_seen = 0.0, 0.0, 0.0
            for a in range(n_actions):
                if legal[a]:
                    p = math.exp(logits[a] - top)
                    z += p
                    if edge_n[a] > 0:
                        pq += p * edge_w[a] / edge_n[a]
                        p_seen += p
            v_mix = (raw + total * pq / p_seen) / (1.0 + total)
        lo, hi = 1e30, -1e30
        for a in range(n_actions):
            if legal[a]:
                q = edge_w[a] / edge_n[a] if edge_n[a] > 0 else v_mix
                out[a] = q
                lo = min(lo, q)
                hi = max(hi, q)
        if not rescale:
            lo, hi = -1.0, 1.0
        span = max(hi - lo, 1e-8)
        scale = (C_VISIT + most) * C_SCALE
        for a in range(n_actions):
            out[a] = scale * (out[a] - lo) / span if legal[a] else 0.0

    @kjit
    def improved_policy(logits, legal, sigma, out):
        """``softmax(logits + sigma)`` over the legal actions into ``out``."""
        top = -1e30
        for a in range(logits.shape[0]):
            if legal[a]:
                top = max(top, logits[a] + sigma[a])
        z = 0.0
        for a in range(logits.shape[0]):
            out[a] = math.exp(logits[a] + sigma[a] - top) if legal[a] else 0.0
            z += out[a]
        for a in range(logits.shape[0]):
            out[a] /= z

    @kjit
    def open_node(tree, g, node, params):
        """Fill a new node from ``states[g, node]``; True if it needs the network (the
        game goes on: its observation and mask are written to row ``g`` of the outputs)."""
        states, mover, values, logits, legal, child, edge_n, edge_w, n_nodes = tree[:9]
        path, path_len, leaf, needs, obs_out, mask_out = tree[9:]
        state = states[g, node]
        child[g, node, :] = -1
        edge_n[g, node, :] = 0
        edge_w[g, node, :] = 0.0
        if is_terminal(state, params):
            mover[g, node] = -1
            legal[g, node, :] = 0
            returns(state, params, values[g, node])
            return False
        seat = current_player(state, params)
        mover[g, node] = seat
        legal_mask(state, params, legal[g, node])
        mask_out[g, :] = legal[g, node]
        observe(state, params, seat, obs_out[g])
        return True

    @kjit
    def start(tree, roots, active, params):
        """Make each active game's root (node 0) from ``roots[g]``; ``leaf[g]`` = 0 when it
        needs the network, else -1 (a finished game has nothing to search)."""
        states, mover, values, logits, legal, child, edge_n, edge_w, n_nodes = tree[:9]
        path, path_len, leaf, needs, obs_out, mask_out = tree[9:]
        for g in range(roots.shape[0]):
            leaf[g] = NO_LEAF
            if not active[g]:
                continue
            states[g, 0] = roots[g]
            n_nodes[g] = 1
            logits[g, 0, :] = ILLEGAL_LOGIT
            if open_node(tree, g, 0, params):
                leaf[g] = 0

    @kjit
    def descend(tree, active, gumbel, considered, schedule, simulation, rescale, params):
        """One simulation per active tree: select from the root to an unexpanded edge,
        expand it; ``needs[g]`` says whether the new leaf waits for the network."""
        states, mover, values, logits, legal, child, edge_n, edge_w, n_nodes = tree[:9]
        path, path_len, leaf, needs, obs_out, mask_out = tree[9:]
        n_actions = logits.shape[2]
        sigma = np.zeros(n_actions, np.float64)
        policy = np.zeros(n_actions, np.float64)
        rewards = np.zeros(values.shape[2], np.float32)
        for g in range(states.shape[0]):
            needs[g] = False
            path_len[g] = 0
            leaf[g] = NO_LEAF
            if not active[g] or mover[g, 0] < 0:
                continue
            node, length = 0, 0
            while True:
                seat = mover[g, node]
                if seat < 0:  # a finished game: its returns are the value again
                    leaf[g] = node
                    break
                sigma_of(
                    logits[g, node],
                    legal[g, node],
                    edge_n[g, node],
                    edge_w[g, node],
                    values[g, node, seat],
                    rescale,
                    sigma,
                )
                best, best_score = -1, -1e300
                if node == 0:  # sequential halving over the Gumbel-top-k
                    want = schedule[considered[g], simulation]
                    for a in range(n_actions):
                        if legal[g, 0, a] and edge_n[g, 0, a] == want:
                            score = gumbel[g, a] + logits[g, 0, a] + sigma[a]
                            if score > best_score:
                                best, best_score = a, score
                    if best < 0:  # every considered action is past the schedule
                        for a in range(n_actions):
                            if legal[g, 0, a]:
                                score = gumbel[g, a] + logits[g, 0, a] + sigma[a]
                                if score > best_score:
                                    best, best_score = a, score
                else:
                    improved_policy(logits[g, node], legal[g, node], sigma, policy)
                    total = 0
                    for a in range(n_actions):
                        total += edge_n[g, node, a]
                    for a in range(n_actions):
                        if legal[g, node, a]:
                            score = policy[a] - edge_n[g, node, a] / (1.0 + total)
                            if score > best_score:
                                best, best_score = a, score
                path[g, length, 0] = node
                path[g, length, 1] = best
                length += 1
                nxt = child[g, node, best]
                if nxt < 0:
                    nxt = n_nodes[g]
                    n_nodes[g] += 1
                    states[g, nxt] = states[g, node]
                    step(states[g, nxt], params, best, rewards)
                    child[g, node, best] = nxt
                    logits[g, nxt, :] = ILLEGAL_LOGIT
                    needs[g] = open_node(tree, g, nxt, params)
                    leaf[g] = nxt
                    break
                node = nxt
            path_len[g] = length

    @kjit
    def absorb(tree, net_logits, net_values):
        """Store the network's answer for the leaves that waited for it, then back every
        leaf's per-seat value up its path (each edge adds its mover's value)."""
        states, mover, values, logits, legal, child, edge_n, edge_w, n_nodes = tree[:9]
        path, path_len, leaf, needs, obs_out, mask_out = tree[9:]
        n_players = values.shape[2]
        for g in range(leaf.shape[0]):
            node = leaf[g]
            if node < 0:
                continue
            if needs[g]:
                seat = mover[g, node]
                for a in range(logits.shape[2]):
                    if legal[g, node, a]:
                        logits[g, node, a] = net_logits[g, a]
                for i in range(n_players):  # observer-relative -> absolute seats
                    values[g, node, (seat + i) % n_players] = net_values[g, i]
            for d in range(path_len[g]):
                parent, a = path[g, d, 0], path[g, d, 1]
                edge_n[g, parent, a] += 1
                edge_w[g, parent, a] += values[g, node, mover[g, parent]]

    @kjit
    def decide(tree, active, gumbel, rescale, targets, actions):
        """Each active game's move (the best considered root action) and policy target."""
        states, mover, values, logits, legal, child, edge_n, edge_w, n_nodes = tree[:9]
        path, path_len, leaf, needs, obs_out, mask_out = tree[9:]
        n_actions = logits.shape[2]
        sigma = np.zeros(n_actions, np.float64)
        policy = np.zeros(n_actions, np.float64)
        for g in range(actions.shape[0]):
            actions[g] = -1
            if not active[g] or mover[g, 0] < 0:
                continue
            seat = mover[g, 0]
            sigma_of(
                logits[g, 0],
                legal[g, 0],
                edge_n[g, 0],
                edge_w[g, 0],
                values[g, 0, seat],
                rescale,
                sigma,
            )
            improved_policy(logits[g, 0], legal[g, 0], sigma, policy)
            most = 0
            for a in range(n_actions):
                targets[g, a] = policy[a]
                if legal[g, 0, a]:
                    most = max(most, edge_n[g, 0, a])
            best, best_score = -1, -1e300
            for a in range(n_actions):
                if legal[g, 0, a] and edge_n[g, 0, a] == most:
                    score = gumbel[g, a] + logits[g, 0, a] + sigma[a]
                    if score > best_score:
                        best, best_score = a, score
            actions[g] = best

    return start, descend, absorb, decide


_BOUND: dict[Any, tuple] = {}


def bound_kernels(game: Game) -> tuple:
    """The search passes for ``game``'s kernels, compiled once per process."""
    key = (game.k.legal_mask, game.k.step, game.k.observe, game.k.returns)
    if key not in _BOUND:
        _BOUND[key] = _kernels(game)
    return _BOUND[key]


class GumbelSearch:
    """The trees of ``batch`` games and one search of all of them per :meth:`run`.

    ``evaluate(obs[B, O], masks[B, A]) -> (logits[B, A], values[B, P])``: the network
    (observer-relative values, see :mod:`.network`)."""

    def __init__(
        self,
        game: Game,
        batch: int,
        simulations: int,
        max_considered: int = 16,
        rescale: bool = True,
    ):
        if simulations < 1 or max_considered < 1 or batch < 1:
            raise ValueError("need simulations >= 1, max_considered >= 1 and batch >= 1")
        self.game, self.batch, self.simulations = game, batch, simulations
        self.max_considered = max_considered
        self.rescale = bool(rescale)
        """Min-max rescale of the completed Q (``mctx``'s default), else a fixed map."""
        self.schedule = considered_visits(max_considered, simulations)
        self.passes = bound_kernels(game)
        nodes, a, p = simulations + 1, game.num_actions, game.num_players
        self.states = np.zeros((batch, nodes, game.state_size), np.int32)
        self.mover = np.zeros((batch, nodes), np.int64)
        self.values = np.zeros((batch, nodes, p), np.float32)
        self.logits = np.zeros((batch, nodes, a), np.float32)
        self.legal = np.zeros((batch, nodes, a), np.uint8)
        self.child = np.zeros((batch, nodes, a), np.int64)
        self.edge_n = np.zeros((batch, nodes, a), np.int64)
        self.edge_w = np.zeros((batch, nodes, a), np.float64)
        self.n_nodes = np.zeros(batch, np.int64)
        self.path = np.zeros((batch, nodes, 2), np.int64)
        self.path_len = np.zeros(batch, np.int64)
        self.leaf = np.zeros(batch, np.int64)
        self.needs = np.zeros(batch, np.bool_)
        self.obs = np.zeros((batch, game.obs_size), np.float32)
        self.masks = np.zeros((batch, a), np.uint8)
        self.root_obs = np.zeros((batch, game.obs_size), np.float32)
        self.root_masks = np.zeros((batch, a), np.uint8)
        self.targets = np.zeros((batch, a), np.float32)
        self.actions = np.zeros(batch, np.int64)
        self.tree = (
            self.states,
            self.mover,
            self.values,
            self.logits,
            self.legal,
            self.child,
            self.edge_n,
            self.edge_w,
            self.n_nodes,
            self.path,
            self.path_len,
            self.leaf,
            self.needs,
            self.obs,
            self.masks,
        )
        """The arrays the compiled passes share, in their unpacking order."""

    def run(
        self, roots: np.ndarray, active: np.ndarray, gumbel: np.ndarray, evaluate: Any
    ) -> np.ndarray:
        """Search every active root (``roots[g]``, already determinized for its seat)
        with Gumbel noise ``gumbel[g, A]`` (zeros: the deterministic move); returns
        the moves (-1 for inactive games) and leaves the policy targets in ``targets``
        and each root's observation and mask in ``root_obs`` / ``root_masks``."""
        start, descend, absorb, decide = self.passes
        params = self.game.params
        active = np.asarray(active, np.bool_)
        gumbel = np.asarray(gumbel, np.float64)
        self.obs[:] = 0.0
        tree = self.tree
        start(tree, roots, active, params)
        self.root_obs[:] = self.obs
        self.root_masks[:] = self.masks
        self.needs[:] = self.leaf >= 0
        self.path_len[:] = 0
        self._absorb(evaluate)
        n_legal = self.legal[:, 0].sum(axis=1)
        considered = np.minimum(n_legal, self.max_considered).astype(np.int64)
        for simulation in range(self.simulations):
            descend(
                tree, active, gumbel, considered, self.schedule, simulation, self.rescale, params
            )
            self._absorb(evaluate)
        decide(tree, active, gumbel, self.rescale, self.targets, self.actions)
        return self.actions.copy()

    def _absorb(self, evaluate: Any) -> None:
        """Evaluate the waiting leaves in one network pass and back every leaf up."""
        waiting = np.flatnonzero(self.needs)
        net_logits = np.zeros(self.masks.shape, np.float32)
        net_values = np.zeros((self.batch, self.game.num_players), np.float32)
        if waiting.size:
            logits, values = evaluate(self.obs[waiting], self.masks[waiting])
            net_logits[waiting] = logits
            net_values[waiting] = values
        _, _, absorb, _ = self.passes
        absorb(self.tree, net_logits, net_values)
