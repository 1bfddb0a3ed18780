"""Compiled search helpers shared by the heuristic and MCTS agents.

Like :mod:`crusadegym.core.drivers`, every kernel takes the game's kernels as
arguments (numba specialises one version per game; compiled once per process, see
:data:`crusadegym.core.jit.kjit`), so nothing here knows any rules. A *value*
kernel has the signature of ``returns``:
``value(state, params, out_f32[P])`` writes an estimate in [-1, 1] per seat for
a running game; a game without a hand-written evaluation passes its own
``returns`` kernel (all zeros while the game runs).

Randomness for choosing rollout moves comes from a private generator seeded by
the caller, never from the state's own RNG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from crusadegym.core.jit import inline_kjit, jit, kjit
from crusadegym.core.rng import pick_uniform, stream

if TYPE_CHECKING:
    from crusadegym.core import Game


@inline_kjit
def rollout_values(
    legal_mask,
    step,
    is_terminal,
    returns,
    value,
    state,
    params,
    n_actions,
    n_players,
    max_depth,
    n_rollouts,
    seed,
    out,
):
    """Mean per-seat value of ``n_rollouts`` random playouts from ``state``.

    Each playout runs on a copy of ``state`` for at most ``max_depth`` uniformly
    random legal moves; it scores the final ``returns`` if the game ended and
    ``value`` at the cutoff otherwise. ``out[P]`` receives the mean. Returns the
    total number of steps played.
    """
    rng_state = stream(seed)
    mask = np.zeros(n_actions, np.uint8)
    rewards = np.zeros(n_players, np.float32)
    leaf = np.zeros(n_players, np.float32)
    sim = np.empty_like(state)
    out[:] = 0.0
    steps = 0
    for _ in range(n_rollouts):
        sim[:] = state
        for _ in range(max_depth):
            if is_terminal(sim, params):
                break
            n = legal_mask(sim, params, mask)
            if n == 0:
                break
            step(sim, params, pick_uniform(mask, n, rng_state), rewards)
            steps += 1
        if is_terminal(sim, params):
            returns(sim, params, leaf)
        else:
            value(sim, params, leaf)
        for p in range(n_players):
            out[p] += leaf[p] / n_rollouts
    return steps


@inline_kjit
def mover_value(is_terminal, returns, value, state, params, vals, mover):
    """Seat ``mover``'s value of ``state``: its returns if the game is over, else the
    evaluation (``vals``: per-seat scratch)."""
    if is_terminal(state, params):
        returns(state, params, vals)
    else:
        value(state, params, vals)
    return vals[mover]


@inline_kjit
def lookahead_values(
    legal_mask,
    step,
    is_terminal,
    current_player,
    returns,
    value,
    state,
    params,
    n_actions,
    n_players,
    extend,
    out,
    seat_values,
):
    """Value for the seat to move of every legal action, one ply deep (or two).

    ``out[a]`` gets the mover's value after action ``a`` (``-inf`` if illegal).
    When ``extend[a]`` is set and the same seat is still to move afterwards (a
    "select" action of a two-stage move), the value is the best follow-up
    instead: the mover's best value one action further. ``seat_values`` (float32
    ``[A, P]``, or ``[0, P]`` to skip) receives every seat's value behind a one-ply
    ``out[a]`` (see :func:`record_seat_values`). Returns the mover.
    """
    mover = current_player(state, params)
    mask = np.zeros(n_actions, np.uint8)
    mask2 = np.zeros(n_actions, np.uint8)
    rewards = np.zeros(n_players, np.float32)
    vals = np.zeros(n_players, np.float32)
    s1 = np.empty_like(state)
    s2 = np.empty_like(state)
    legal_mask(state, params, mask)
    for a in range(n_actions):
        out[a] = -np.inf
        record_seat_values(seat_values, a, vals, False)
        if not mask[a]:
            continue
        s1[:] = state
        step(s1, params, a, rewards)
        if extend[a] and not is_terminal(s1, params) and current_player(s1, params) == mover:
            legal_mask(s1, params, mask2)
            for b in range(n_actions):
                if mask2[b]:
                    s2[:] = s1
                    step(s2, params, b, rewards)
                    # fmt: off
                    out[a] = max(out[a], mover_value(is_terminal, returns, value, s2, params,
                                                     vals, mover))
                    # fmt: on
            if out[a] > -np.inf:
                continue
        # no second ply: score the position itself
        out[a] = mover_value(is_terminal, returns, value, s1, params, vals, mover)
        record_seat_values(seat_values, a, vals, True)
    return mover


@jit
def record_seat_values(seat_values, a, vals, known):
    """Row ``a`` of ``seat_values`` (if it has rows): every seat's value ``vals`` of the
    position one action ``a`` away when ``known``, else NaN (a two-ply or estimated
    value, or an illegal action). The compiled tree keeps these on its edges: with
    rollouts of depth 0, a new leaf's value is exactly that row, so it is not computed
    again (:mod:`.tree_search`)."""
    if seat_values.shape[0] == 0:
        return
    for p in range(seat_values.shape[1]):
        seat_values[a, p] = vals[p] if known else np.nan


@inline_kjit
def played_followups(step, is_terminal, returns, value, after, params, after_mask, exact, mover,
                     n_players, scratch):  # fmt: skip
    """The mover's best value over the follow-ups ``exact`` marks among those
    ``after_mask`` allows from ``after`` (``-inf`` if none), each played one step and
    scored (``scratch``: a state-sized work array)."""
    rewards = np.zeros(n_players, np.float32)
    vals = np.zeros(n_players, np.float32)
    best = -np.inf
    for b in range(after_mask.shape[0]):
        if after_mask[b] and exact[b]:
            scratch[:] = after
            step(scratch, params, b, rewards)
            best = max(best, mover_value(is_terminal, returns, value, scratch, params, vals, mover))
    return best


@inline_kjit
def read_selection(legal_mask, step, is_terminal, current_player, returns, value, features,
                   exact, state, params, action, after, mover, n_players, after_mask, scratch,
                   f):  # fmt: skip
    """What a selection prior reads of "select" ``action`` (``after``: ``state`` with it
    played): if the game goes on with ``mover`` still to move, its legal follow-ups
    (``after_mask``), its features (``f``) and the mover's best value over the follow-ups
    ``exact`` marks. Returns (goes on, that value); ``(False, -inf)`` otherwise. The
    search's estimate and :mod:`crusadegym.training.selectfit`'s recording both read a
    selection here, so a prior is fitted on exactly what it is given in play."""
    if is_terminal(after, params) or current_player(after, params) != mover:
        return False, -np.inf
    legal_mask(after, params, after_mask)
    features(state, params, action, after, after_mask, f)
    # fmt: off
    return True, played_followups(step, is_terminal, returns, value, after, params, after_mask,
                                  exact, mover, n_players, scratch)
    # fmt: on


@inline_kjit
def estimated_lookahead_values(
    legal_mask,
    step,
    is_terminal,
    current_player,
    returns,
    value,
    features,
    weights,
    exact,
    state,
    params,
    n_actions,
    n_players,
    extend,
    out,
    estimated,
    seat_values,
):
    """:func:`lookahead_values` with the second ply estimated instead of played out.

    For an ``extend``-marked action ``a`` after which the same seat moves on (a
    "select"), ``out[a]`` is the larger of the mover's best value over the follow-ups
    ``exact`` marks (played out, as :func:`lookahead_values` does) and the learned
    guess ``value(state) + weights . features(state, a)`` for the others, and
    ``estimated[a]`` is set; every other action is scored one ply deep, exactly
    (``crusadegym.agents.select_prior``); ``seat_values`` as in :func:`lookahead_values`.
    Returns the mover.
    """
    mover = current_player(state, params)
    mask = np.zeros(n_actions, np.uint8)
    mask2 = np.zeros(n_actions, np.uint8)
    rewards = np.zeros(n_players, np.float32)
    vals = np.zeros(n_players, np.float32)
    f = np.zeros(weights.shape[0], np.float64)
    s1 = np.empty_like(state)
    s2 = np.empty_like(state)
    value(state, params, vals)
    base = vals[mover]
    legal_mask(state, params, mask)
    for a in range(n_actions):
        out[a] = -np.inf
        estimated[a] = 0
        record_seat_values(seat_values, a, vals, False)
        if not mask[a]:
            continue
        s1[:] = state
        step(s1, params, a, rewards)
        if extend[a]:
            # fmt: off
            goes_on, played = read_selection(legal_mask, step, is_terminal, current_player,
                                             returns, value, features, exact, state, params, a,
                                             s1, mover, n_players, mask2, s2, f)
            # fmt: on
            if goes_on:
                guess = base
                for i in range(f.shape[0]):
                    guess += weights[i] * f[i]
                best = -np.inf
                for b in range(n_actions):
                    if mask2[b] and not exact[b]:
                        best = guess  # some follow-up is left to the guess
                        break
                out[a] = max(best, played)
                estimated[a] = 1
                continue
        out[a] = mover_value(is_terminal, returns, value, s1, params, vals, mover)
        record_seat_values(seat_values, a, vals, True)
    return mover


@jit
def prior_ucb_index(w, n, priors, visits, c_uct, prior_visits):
    """First index maximising ``(w + pv * prior) / (n + pv) + c * sqrt(log(N + 1) / (n + 1))``:
    every action's mean starts as ``prior_visits`` virtual visits at its prior, unvisited
    actions included (the MCTS selection with priors; both engines call it)."""
    log_total = np.log(visits + 1)
    best, best_score = 0, -np.inf
    for i in range(len(n)):
        mean = (w[i] + prior_visits * priors[i]) / (n[i] + prior_visits)
        score = mean + c_uct * np.sqrt(log_total / (n[i] + 1))
        if score > best_score:
            best, best_score = i, score
    return best


@jit
def plain_ucb_index(w, n, visits, c_uct):
    """The first unvisited index, else the first maximising ``w / n + c * sqrt(log(N) / n)``
    (plain UCT; both engines call it)."""
    for i in range(len(n)):
        if n[i] == 0:
            return i
    log_visits = np.log(visits)
    best, best_score = 0, -np.inf
    for i in range(len(n)):
        score = w[i] / n[i] + c_uct * np.sqrt(log_visits / n[i])
        if score > best_score:
            best, best_score = i, score
    return best


_BOUND: dict[tuple, object] = {}
"""Compiled closures of the kernels above over one game's kernels and one evaluation."""


def bound_rollout(game: Game, value: Any) -> Any:
    """:func:`rollout_values` with ``game``'s kernels and ``value`` fixed: call it as
    ``run(state, params, n_actions, n_players, max_depth, n_rollouts, seed, out)``.

    Passing kernels as arguments from Python makes numba type every function argument
    on every call (about 10 us each, half the time of an MCTS iteration, measured); a
    closure compiled once per process and (game kernels, evaluation) takes arrays only.
    """
    k = game.k
    key = ("rollout", k.legal_mask, k.step, k.is_terminal, k.returns, value)
    if key not in _BOUND:
        legal_mask, step, is_terminal, returns = k.legal_mask, k.step, k.is_terminal, k.returns

        @kjit
        def run(state, params, n_actions, n_players, max_depth, n_rollouts, seed, out):
            # fmt: off
            return rollout_values(legal_mask, step, is_terminal, returns, value, state, params,
                                  n_actions, n_players, max_depth, n_rollouts, seed, out)
            # fmt: on

        _BOUND[key] = run
    return _BOUND[key]


def bound_lookahead(game: Game, value: Any) -> Any:
    """:func:`lookahead_values` with ``game``'s kernels and ``value`` fixed: call it as
    ``run(state, params, n_actions, n_players, extend, out)`` (see :func:`bound_rollout`)."""
    k = game.k
    key = ("lookahead", k.legal_mask, k.step, k.is_terminal, k.current_player, k.returns, value)
    if key not in _BOUND:
        legal_mask, step, is_terminal = k.legal_mask, k.step, k.is_terminal
        current_player, returns = k.current_player, k.returns

        @kjit
        def run(state, params, n_actions, n_players, extend, out):
            none = np.empty((0, n_players), np.float32)
            # fmt: off
            return lookahead_values(legal_mask, step, is_terminal, current_player, returns,
                                    value, state, params, n_actions, n_players, extend, out,
                                    none)
            # fmt: on

        _BOUND[key] = run
    return _BOUND[key]


def bound_estimated_lookahead(game: Game, value: Any, prior: Any) -> Any:
    """:func:`estimated_lookahead_values` with ``game``'s kernels, ``value`` and a
    :class:`~.select_prior.SelectPrior` fixed: call it as
    ``run(state, params, n_actions, n_players, extend, out, estimated)``."""
    k = game.k
    key = ("estimated", k.legal_mask, k.step, k.is_terminal, k.current_player, k.returns,
           value, prior)  # fmt: skip
    if key not in _BOUND:
        legal_mask, step, is_terminal = k.legal_mask, k.step, k.is_terminal
        current_player, returns = k.current_player, k.returns
        features, weights, exact = prior.parts()

        @kjit
        def run(state, params, n_actions, n_players, extend, out, estimated):
            none = np.empty((0, n_players), np.float32)
            # fmt: off
            return estimated_lookahead_values(legal_mask, step, is_terminal, current_player,
                                              returns, value, features, weights, exact, state,
                                              params, n_actions, n_players, extend, out,
                                              estimated, none)
            # fmt: on

        _BOUND[key] = run
    return _BOUND[key]
