"""A spatial MaskablePPO policy for board games: one logit per cell from a 1x1 conv.

The flat observation is ``planes x H x W`` board planes followed by scalars
(:class:`~.policy.ObsLayout`). :class:`SpatialExtractor` runs ``layers`` 3x3
convolutions (``channels`` wide, padding 1, so the map stays ``H x W``) and returns,
concatenated into one flat tensor (SB3 passes features as one tensor):

* the feature map itself (``channels * H * W`` values);
* global features: a linear layer over the flattened map, the map's mean and max
  over cells, the map at the *focus* cell (the selected unit, when the layout names
  a focus plane) and a small MLP over the scalars.

:class:`SpatialHeads` (in the place of SB3's ``mlp_extractor``) turns them into
every action's logit and the value's hidden layer:

* cell logits: the map, biased per channel by the global features, through a 1x1
  conv, one logit per cell (action ids ``cell_start .. cell_start + H*W - 1``);
* the other actions' logits: an MLP over the global features;
* the value: an MLP over the global features (SB3's ``value_net`` adds the output).

With heuristic advice (``n_advice = 2 * n_actions`` values after the scalars, see
:mod:`crusadegym.agents.advice`) the extractor passes the advice through unchanged at
the end of the features, and the heads add ``w_best * best - w_gap * gap`` to the
logits, two learned weights (starting at :data:`ADVICE_INIT`): a residual policy that
starts out choosing among the heuristic's best actions.

:class:`SpatialPolicy` swaps these in and makes SB3's ``action_net`` the identity.
Every constructor argument is a plain number, so ``MaskablePPO.load`` rebuilds it.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

ADVICE_INIT = (4.0, 4.0)
"""Starting ``(w_best, w_gap)``: with near-zero network logits, the policy puts about
nine tenths of its probability on the heuristic's best actions."""


class SpatialExtractor(BaseFeaturesExtractor):
    """Conv trunk keeping the board map; features = ``[map (C*H*W), global (G)]``."""

    def __init__(
        self,
        observation_space: gym.spaces.Box,
        planes: int,
        height: int,
        width: int,
        n_scalars: int,
        focus_plane: int = -1,
        channels: int = 48,
        layers: int = 4,
        flat_dim: int = 128,
        scalar_dim: int = 64,
        n_advice: int = 0,
    ) -> None:
        obs_size = int(observation_space.shape[0])
        board_size = planes * height * width
        if planes < 1 or board_size + n_scalars + n_advice != obs_size:
            raise ValueError(
                f"board layout {planes}x{height}x{width} + {n_scalars} scalars + {n_advice} "
                f"advice values does not match the observation size {obs_size}"
            )
        n_pool = 3 if focus_plane >= 0 else 2
        self.global_dim = flat_dim + n_pool * channels + scalar_dim
        self.map_size = channels * height * width
        self.n_advice = n_advice
        features = self.map_size + self.global_dim + n_advice
        super().__init__(observation_space, features_dim=features)
        self.board_shape = (planes, height, width)
        self.board_size = board_size
        self.n_scalars = n_scalars
        self.channels, self.height, self.width = channels, height, width
        self.focus_plane = focus_plane
        trunk: list[nn.Module] = []
        for i in range(layers):
            trunk += [nn.Conv2d(planes if i == 0 else channels, channels, 3, padding=1), nn.ReLU()]
        self.trunk = nn.Sequential(*trunk)
        self.flat = nn.Sequential(nn.Flatten(), nn.Linear(self.map_size, flat_dim), nn.ReLU())
        self.scalars = nn.Sequential(nn.Linear(n_scalars, scalar_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        planes = observations[:, : self.board_size].reshape(-1, *self.board_shape)
        fmap = self.trunk(planes)
        cells = fmap.flatten(2)  # [B, C, H*W]
        pooled = [self.flat(fmap), cells.mean(2), cells.amax(2)]
        if self.focus_plane >= 0:
            focus = planes[:, self.focus_plane].flatten(1)  # [B, H*W], one-hot or zero
            pooled.append(torch.bmm(cells, focus.unsqueeze(2)).squeeze(2))
        scalars_end = self.board_size + self.n_scalars
        pooled.append(self.scalars(observations[:, self.board_size : scalars_end]))
        return torch.cat([fmap.flatten(1), *pooled, observations[:, scalars_end:]], dim=1)


class SpatialHeads(nn.Module):
    """Logits of every action (cells spatially) and the value's hidden layer."""

    def __init__(
        self,
        channels: int,
        height: int,
        width: int,
        global_dim: int,
        n_actions: int,
        cell_start: int,
        hidden: int = 128,
        n_advice: int = 0,
    ) -> None:
        super().__init__()
        if n_advice not in (0, 2 * n_actions):
            raise ValueError(f"advice has 2 values per action ({2 * n_actions}), not {n_advice}")
        n_cells = height * width
        if not 0 <= cell_start <= n_actions - n_cells:
            raise ValueError(f"cell actions from {cell_start} do not fit {n_actions} actions")
        self.map_shape = (channels, height, width)
        self.map_size = channels * n_cells
        self.cell_start = cell_start
        self.film = nn.Linear(global_dim, channels)
        self.cell_logit = nn.Conv2d(channels, 1, 1)
        self.other = nn.Sequential(
            nn.Linear(global_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions - n_cells)
        )
        self.value = nn.Sequential(nn.Linear(global_dim, hidden), nn.ReLU())
        self.global_dim = global_dim
        self.n_actions = n_actions
        self.advice_weight = nn.Parameter(torch.tensor(ADVICE_INIT)) if n_advice else None
        self.latent_dim_pi = n_actions
        self.latent_dim_vf = hidden

    def init_outputs(self, gain: float = 0.01) -> None:
        """Small output weights, so an untrained policy is near uniform over legal actions."""
        for layer in (self.cell_logit, self.other[-1]):
            nn.init.orthogonal_(layer.weight, gain=gain)
            nn.init.zeros_(layer.bias)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        fmap = features[:, : self.map_size].reshape(-1, *self.map_shape)
        g = self._global(features)
        fmap = torch.relu(fmap + self.film(g)[:, :, None, None])
        cells = self.cell_logit(fmap).flatten(1)
        other = self.other(g)
        s = self.cell_start
        logits = torch.cat([other[:, :s], cells, other[:, s:]], dim=1)
        if self.advice_weight is None:
            return logits
        advice = features[:, self.map_size + self.global_dim :]
        best, gap = advice[:, : self.n_actions], advice[:, self.n_actions :]
        return logits + self.advice_weight[0] * best - self.advice_weight[1] * gap

    def _global(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, self.map_size : self.map_size + self.global_dim]

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value(self._global(features))

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)


class SpatialPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy with :class:`SpatialExtractor` + :class:`SpatialHeads`.

    Pass ``features_extractor_class=SpatialExtractor`` with its layout kwargs and
    ``cell_start`` (see :func:`~.policy.policy_spec`).
    """

    def __init__(
        self, *args: Any, cell_start: int = 0, head_hidden: int = 128, **kwargs: Any
    ) -> None:
        self.cell_start = int(cell_start)
        self.head_hidden = int(head_hidden)
        kwargs.setdefault("activation_fn", nn.ReLU)
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        ext = self.features_extractor
        if not isinstance(ext, SpatialExtractor):
            raise TypeError("SpatialPolicy needs features_extractor_class=SpatialExtractor")
        self.mlp_extractor = SpatialHeads(
            ext.channels, ext.height, ext.width, ext.global_dim,
            int(self.action_space.n), self.cell_start, self.head_hidden, ext.n_advice,
        )  # fmt: skip

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.action_net = nn.Identity()  # the heads already give every action's logit
        self.mlp_extractor.init_outputs()
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(cell_start=self.cell_start, head_hidden=self.head_hidden)
        return data
