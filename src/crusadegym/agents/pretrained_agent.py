"""The agent ``pretrained``: the shipped player of the game it is asked to play (the files
are named in :mod:`crusadegym.agents.pretrained`)."""

from __future__ import annotations

from typing import Any

from .base import Agent, select_action
from .expert import ExpertAgent
from .neural import load_policy_agent
from .pretrained import expert_network_path, pretrained_path


class PretrainedAgent(Agent):
    """The shipped agent of whichever game it is asked to play: the game's expert
    network (:class:`~crusadegym.agents.expert.ExpertAgent`, numpy only) when one is
    shipped, else its MaskablePPO checkpoint (needs the ``train`` extra). ``game``
    loads that game's player now (errors early); ``deterministic`` is the checkpoint's
    option, ``simulations`` the network's (:class:`~crusadegym.agents.expert.ExpertAgent`)."""

    name = "pretrained"

    def __init__(
        self,
        seed: int = 0,
        game: str | None = None,
        deterministic: bool = True,
        simulations: int = 0,
    ) -> None:
        super().__init__(seed)
        self.deterministic = deterministic
        self.simulations = int(simulations)
        self._players: dict[str, Agent] = {}
        if game is not None:
            self.player_for(game)

    def player_for(self, game: str) -> Agent:
        """The shipped player of ``game`` (loaded once); a one-line error if none."""
        if game not in self._players:
            network = expert_network_path(game)
            if network is not None:
                player: Agent = ExpertAgent(network, seed=self.seed, simulations=self.simulations)
            else:
                player = load_policy_agent(
                    pretrained_path(game), seed=self.seed, deterministic=self.deterministic
                )
            self._players[game] = player
        return self._players[game]

    def act_state(self, game: Any, state: Any) -> int:
        return select_action(self.player_for(game.name), game, state)
