"""The policy-value network in torch: the layers, the loss, and the export to numpy.

The layers mirror :class:`crusadegym.agents.network.PolicyValueNet` exactly (a dense ReLU
trunk, a policy head, a ``tanh`` value head of observer-relative seat values), so
:func:`export` gives the player the same function the learner trained
(``tests/test_expert.py`` checks the two forward passes agree).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from crusadegym.agents.network import ILLEGAL_LOGIT, PolicyValueNet


class PolicyValueModel(nn.Module):
    """``obs -> (masked logits, values)`` with two hidden layers of ``hidden`` units."""

    def __init__(self, obs_size: int, num_actions: int, num_players: int, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, num_players)

    def forward(self, obs: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk(obs)
        logits = self.policy(x).masked_fill(~masks, ILLEGAL_LOGIT)
        return logits, torch.tanh(self.value(x))

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The search's evaluator: numpy in, numpy out, no gradients."""
        logits, values = self(
            torch.from_numpy(np.asarray(obs, np.float32)), torch.from_numpy(np.asarray(masks, bool))
        )
        return logits.numpy(), values.numpy()


def loss_terms(
    model: PolicyValueModel,
    obs: torch.Tensor,
    masks: torch.Tensor,
    targets: torch.Tensor,
    results: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Cross-entropy of the masked prior against the search's policy, and the squared
    error of the values against the games' results (observer-relative)."""
    logits, values = model(obs, masks)
    log_prior = torch.log_softmax(logits, dim=-1)
    policy_loss = -(targets * log_prior.masked_fill(~masks, 0.0)).sum(-1).mean()
    value_loss = ((values - results) ** 2).mean()
    return policy_loss, value_loss


def export(model: PolicyValueModel, meta: dict) -> PolicyValueNet:
    """The numpy twin of ``model`` (float32 copies of its weights)."""

    def dense(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
        return (layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy())

    trunk = [dense(m) for m in model.trunk if isinstance(m, nn.Linear)]
    return PolicyValueNet(trunk, dense(model.policy), dense(model.value), dict(meta))


def load_into(model: PolicyValueModel, net: PolicyValueNet) -> None:
    """Copy an exported network's weights back into ``model`` (resuming a run)."""
    layers = [m for m in model.trunk if isinstance(m, nn.Linear)] + [model.policy, model.value]
    pairs = [*net.trunk, net.policy, net.value]
    with torch.no_grad():
        for layer, (weight, bias) in zip(layers, pairs, strict=True):
            layer.weight.copy_(torch.from_numpy(weight.T.copy()))
            layer.bias.copy_(torch.from_numpy(bias))
