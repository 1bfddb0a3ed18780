"""The policy's feature extractor: a small conv net over board planes, an MLP otherwise.

Board games here observe a flat float32 vector. When a game's observation is
``planes x height x width`` board planes followed by ``n_scalars`` scalars (Deus lo
Vult: ``N_PLANES`` planes of 12x12, then ``N_SCALARS`` scalars; see
``core/deus_lo_vult/observe.py``), :class:`BoardExtractor` reshapes the planes into an
image for two 3x3 convolutions and runs the scalars through a small MLP. Games
without a board layout (``tiny_tictactoe``) get a plain MLP over the whole vector.

Use it through :func:`policy_kwargs_for`::

    model = MaskablePPO("MlpPolicy", env, policy_kwargs=policy_kwargs_for(game))

The extractor's kwargs are plain ints, so a saved model reloads with
``MaskablePPO.load`` (and :func:`crusadegym.agents.load_policy_agent`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import gymnasium as gym
import torch
from crusadegym.core import Game
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


@dataclass(frozen=True)
class ObsLayout:
    """How a flat observation splits: ``planes*height*width`` board values, then scalars."""

    planes: int
    height: int
    width: int
    n_scalars: int

    @property
    def size(self) -> int:
        return self.planes * self.height * self.width + self.n_scalars


def _deus_lo_vult_layout(game: Game) -> ObsLayout:
    observe = importlib.import_module("crusadegym.core.deus_lo_vult.observe")
    return ObsLayout(observe.N_PLANES, 12, 12, observe.N_SCALARS)


OBS_LAYOUTS: dict[str, Callable[[Game], ObsLayout]] = {"deus_lo_vult": _deus_lo_vult_layout}
"""Game name -> function giving its board layout (games absent here get the MLP)."""


def obs_layout(game: Game) -> ObsLayout | None:
    """The board layout of ``game``'s observation, or ``None`` for a plain vector.

    Raises ValueError when a declared layout does not add up to ``game.obs_size``.
    """
    if game.name not in OBS_LAYOUTS:
        return None
    layout = OBS_LAYOUTS[game.name](game)
    if layout.size != game.obs_size:
        raise ValueError(
            f"{game.name}: observation layout {layout} has {layout.size} values but the "
            f"observation has {game.obs_size}"
        )
    return layout


class BoardExtractor(BaseFeaturesExtractor):
    """Conv net over the board planes + MLP over the scalars; plain MLP when ``planes == 0``.

    Features: ``conv_channels`` 3x3 conv -> ReLU -> 3x3 conv -> ReLU -> flatten -> linear
    to ``board_dim``, concatenated with the scalars' ``scalar_dim`` hidden units.
    """

    def __init__(
        self,
        observation_space: gym.spaces.Box,
        planes: int = 0,
        height: int = 0,
        width: int = 0,
        n_scalars: int = 0,
        conv_channels: int = 32,
        board_dim: int = 256,
        scalar_dim: int = 64,
    ) -> None:
        obs_size = int(observation_space.shape[0])
        board_size = planes * height * width
        if planes and board_size + n_scalars != obs_size:
            raise ValueError(
                f"board layout {planes}x{height}x{width} + {n_scalars} scalars does not match "
                f"the observation size {obs_size}"
            )
        if not planes:
            n_scalars = obs_size
        features = (board_dim if planes else 0) + scalar_dim
        super().__init__(observation_space, features_dim=features)
        self.board_shape = (planes, height, width)
        self.board_size = board_size
        self.board: nn.Module | None = None
        if planes:
            self.board = nn.Sequential(
                nn.Conv2d(planes, conv_channels, 3, padding=1),
                nn.ReLU(),
                nn.Conv2d(conv_channels, conv_channels, 3, padding=1),
                nn.ReLU(),
                nn.Flatten(),
                nn.Linear(conv_channels * height * width, board_dim),
                nn.ReLU(),
            )
        self.scalars = nn.Sequential(nn.Linear(n_scalars, scalar_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        if self.board is None:
            return self.scalars(observations)
        planes = observations[:, : self.board_size].reshape(-1, *self.board_shape)
        scalars = observations[:, self.board_size :]
        return torch.cat([self.board(planes), self.scalars(scalars)], dim=1)


def policy_kwargs_for(game: Game, net_arch: tuple[int, ...] = (128, 128)) -> dict:
    """``policy_kwargs`` for MaskablePPO with :class:`BoardExtractor` sized for ``game``."""
    layout = obs_layout(game)
    extractor_kwargs = {}
    if layout is not None:
        extractor_kwargs = {
            "planes": layout.planes,
            "height": layout.height,
            "width": layout.width,
            "n_scalars": layout.n_scalars,
        }
    return {
        "features_extractor_class": BoardExtractor,
        "features_extractor_kwargs": extractor_kwargs,
        "net_arch": list(net_arch),
    }
