"""A network trained by expert iteration, as a player: alone or with Gumbel search.

``expert:PATH`` (a network ``.npz`` from ``crusadegym train``, :mod:`.network`) plays

* with ``simulations=0`` (the default), **the network alone**: one forward pass of its
  own seat's observation per move, a draw from its prior over the legal actions
  (seeded; ``temperature=T`` sharpens or flattens it, ``temperature=0`` takes the most
  likely action, which can repeat a cycle of moves forever: a Crusaders network alone
  at ``temperature=0`` ended 2 of 40 games against random by the rules, at 1.0 8 of 10);
* with ``simulations=N``, **the network with search**: the compiled Gumbel search of
  :mod:`.gumbel_search` (``N`` simulations, no Gumbel noise, so the move is
  deterministic), from a root determinized for the seat to move in hidden-information
  games (:func:`.mcts.determinized_roots`): the search never reads the true hidden state.
  ``q_scale=minmax|fixed`` picks how the search scales values (see :mod:`.gumbel_search`);
  by default the one the network was trained with (its ``meta``), else ``minmax``.

Either way only numpy is needed (no torch). ``pretrained`` plays the network shipped for
the game, when there is one (:mod:`.pretrained`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from crusadegym.core import Game

from .base import Agent, legal_indices
from .gumbel_search import Q_SCALES, GumbelSearch
from .mcts import determinized_roots
from .network import PolicyValueNet


class ExpertAgent(Agent):
    """The network of ``path`` (or a loaded :class:`PolicyValueNet`), alone or searching."""

    name = "expert"

    def __init__(
        self,
        path: str | Path | PolicyValueNet,
        seed: int = 0,
        simulations: int = 0,
        max_considered: int = 16,
        temperature: float = 1.0,
        q_scale: str | None = None,
    ) -> None:
        super().__init__(seed)
        if int(simulations) < 0 or int(max_considered) < 1 or float(temperature) < 0:
            raise ValueError("need simulations >= 0, max_considered >= 1 and temperature >= 0")
        self.temperature = float(temperature)
        self.net = path if isinstance(path, PolicyValueNet) else PolicyValueNet.load(path)
        self.simulations = int(simulations)
        self.max_considered = int(max_considered)
        trained = self.net.meta.get("training_options", {}).get("q_scale", "minmax")
        self.q_scale = trained if q_scale is None else str(q_scale)
        if self.q_scale not in Q_SCALES:
            raise ValueError(f"q_scale must be one of {', '.join(Q_SCALES)}, not {q_scale!r}")
        self._search: GumbelSearch | None = None
        self._checked: Game | None = None

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The network alone: a draw from ``softmax(logits / temperature)`` (seeded), or
        with ``temperature=0`` the legal action with the highest logit."""
        legal_indices(action_mask)
        logits, _ = self.net.forward(observation[None], np.asarray(action_mask)[None])
        if self.temperature == 0.0:
            return int(np.argmax(logits[0]))
        z = (logits[0] - logits[0].max()) / self.temperature
        p = np.exp(z) * (np.asarray(action_mask) > 0)
        return int(self.rng.choice(p.size, p=p / p.sum()))

    def act_state(self, game: Game, state: np.ndarray) -> int:
        """The move in ``state``: the network alone, or its search from the seat's view."""
        if self._checked is not game:
            self.net.check_game(game)
            self._checked = game
        seat = game.current_player(state)
        mask = game.legal_mask(state)
        if self.simulations == 0 or int(mask.sum()) == 1:
            return self.act(game.observe(state, seat), mask)
        if self._search is None or self._search.game is not game:
            self._search = GumbelSearch(
                game, 1, self.simulations, self.max_considered, self.q_scale == "minmax"
            )
        seed = int(self.rng.integers(2**62))
        roots = determinized_roots(game, state, 1, seed)
        gumbel = np.zeros((1, game.num_actions))
        return int(self._search.run(roots, np.ones(1, bool), gumbel, self.net.forward)[0])
