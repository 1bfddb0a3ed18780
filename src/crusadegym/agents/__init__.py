"""Agents and the arena: one small interface, built-in players, and tournaments.

* :mod:`.base`: the interface (``act``, ``act_batch``, optional ``act_state``) and
  :func:`select_action`, the one place that asks an agent for a move;
* :class:`RandomAgent`, :class:`HeuristicAgent` (per-game strategies in
  :mod:`.heuristics`), :class:`MCTSAgent` (UCT with compiled rollouts),
  :class:`PolicyAgent` (learned policies, :mod:`.neural`; :class:`AdvisedPolicyAgent`
  for policies that also read the heuristic's advice, :mod:`.advice`);
* :func:`make_agent` builds one from a spec such as ``"mcts:iterations=400"``;
* :mod:`.arena` runs tournaments with ratings (``crusadegym arena``), and
  :mod:`.match` plays a short match (``crusadegym play``).
"""

from .base import Agent, select_action, uses_state
from .heuristic_agent import HeuristicAgent
from .heuristics import get_heuristic
from .mcts import MCTSAgent, MCTSConfig
from .neural import AdvisedPolicyAgent, PolicyAgent, load_policy_agent
from .random_agent import RandomAgent
from .registry import AGENT_TYPES, make_agent

__all__ = [
    "AGENT_TYPES",
    "AdvisedPolicyAgent",
    "Agent",
    "HeuristicAgent",
    "MCTSAgent",
    "MCTSConfig",
    "PolicyAgent",
    "RandomAgent",
    "get_heuristic",
    "load_policy_agent",
    "make_agent",
    "select_action",
    "uses_state",
]
