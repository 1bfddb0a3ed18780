"""Built-in agents by name, so the command line and the arena can say ``random,mcts``.

An agent spec is ``name`` or ``name:key=value:key=value`` (values parsed as int,
float, ``none`` or text), e.g. ``mcts:iterations=400:rollout_depth=60``. The
spec ``policy:PATH`` loads a MaskablePPO checkpoint (:mod:`.neural`);
``puct:PATH[:key=value...]`` searches with that checkpoint's prior and value
(:class:`crusadegym.agents.puct.PUCTAgent`, options ``simulations``, ``seconds``, ``c_puct``,
``determinizations``); ``human`` reads moves from stdin (:mod:`.human`); ``pretrained``
is the shipped policy.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Agent
from .expert import ExpertAgent
from .heuristic_agent import HeuristicAgent
from .human import HumanAgent
from .mcts import MCTSAgent
from .options import parse_value
from .pretrained_agent import PretrainedAgent
from .puct import PUCTAgent
from .random_agent import RandomAgent

AGENT_TYPES: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "mcts": MCTSAgent,
    "human": HumanAgent,  # a person at the keyboard (stdin/stdout); see .human
    "pretrained": PretrainedAgent,  # the policy shipped in the package; see .pretrained
}


def parse_agent_spec(spec: str) -> tuple[str, dict]:
    """Split ``name:key=value:...`` into the name and an options dict."""
    name, *parts = spec.strip().split(":")
    options = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ValueError(f"bad agent option {part!r} in {spec!r}; expected key=value")
        options[key] = parse_value(value)
    return name, options


def make_agent(spec: str, seed: int = 0) -> Agent:
    """A fresh agent from its spec, seeded with ``seed``; its ``name`` is the spec."""
    if spec.startswith("policy:"):
        from .neural import load_policy_agent

        agent = load_policy_agent(spec.removeprefix("policy:"), seed=seed)
    elif spec.startswith("puct:"):
        agent = _puct_agent(spec, seed)
    elif spec.startswith("expert:"):
        agent = _expert_agent(spec, seed)
    else:
        name, options = parse_agent_spec(spec)
        if name not in AGENT_TYPES:
            raise ValueError(
                f"unknown agent {name!r}; built-in: {sorted(AGENT_TYPES)}, policy:PATH.zip "
                "or puct:PATH.zip"
            )
        agent = _construct(name, AGENT_TYPES[name], seed, **options)
    agent.name = spec
    return agent


def _construct(name: str, factory: Callable[..., Agent], seed: int, *args, **options) -> Agent:
    """``factory(*args, seed=seed, **options)``; options it does not take are a
    ``ValueError`` naming the agent (not a ``TypeError`` from deep inside)."""
    try:
        return factory(*args, seed=seed, **options)
    except TypeError as e:
        raise ValueError(f"bad options for agent {name!r}: {e}") from e


def _path_spec(spec: str, kind: str, example: str) -> tuple[str, dict]:
    """``KIND:PATH[:key=value...]`` -> (PATH, options); a ``ValueError`` without a path."""
    path, *parts = spec.removeprefix(f"{kind}:").split(":")
    if not path or "=" in path:
        raise ValueError(f"bad agent spec {spec!r}; expected {kind}:{example}")
    return path, parse_agent_spec(f"{kind}:" + ":".join(parts))[1] if parts else {}


def _expert_agent(spec: str, seed: int) -> Agent:
    """``expert:PATH[:simulations=N]``: a network of ``crusadegym expert`` (numpy only)."""
    path, options = _path_spec(spec, "expert", "PATH.npz[:simulations=N]")
    return _construct("expert", ExpertAgent, seed, path, **options)


def _puct_agent(spec: str, seed: int) -> Agent:
    """``puct:PATH[:key=value...]``: PUCT search over a checkpoint (needs the train extra)."""
    path, options = _path_spec(spec, "puct", "PATH.zip[:simulations=N]")
    return _construct("puct", PUCTAgent, seed, path, **options)
