"""Which network a game gets: a spatial policy over board planes, an MLP otherwise.

Board games here observe a flat float32 vector. When a game's observation is
``planes x height x width`` board planes followed by ``n_scalars`` scalars, and a
contiguous range of its action ids names the board's cells row-major (Deus lo Vult:
``N_PLANES`` planes of 12x12, then ``N_SCALARS`` scalars; ids 0..143 are ``CELL``
actions; see ``core/deus_lo_vult/observe.py`` and ``actions.py``), the game is listed
in :data:`OBS_LAYOUTS` and trains with :class:`~.spatial.SpatialPolicy`: a conv trunk
that keeps the 12x12 map, one logit per cell from a 1x1 conv, the other actions and
the value from pooled features (see :mod:`.spatial`). Games without a layout
(``tiny_tictactoe``) get ``MlpPolicy`` over :class:`BoardExtractor` in its MLP form.

Use it through :func:`policy_spec`::

    policy, kwargs = policy_spec(game)
    model = MaskablePPO(policy, env, policy_kwargs=kwargs)

All kwargs are plain ints, so a saved model reloads with ``MaskablePPO.load`` (and
:func:`crusadegym.agents.load_policy_agent`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from crusadegym.core import Game


@dataclass(frozen=True)
class ObsLayout:
    """How a flat observation splits: ``planes*height*width`` board values, then scalars."""

    planes: int
    height: int
    width: int
    n_scalars: int
    cell_start: int = -1
    """First action id of the ``height*width`` cell actions (row-major); -1: none."""
    focus_plane: int = -1
    """A plane marking the cell the next action refers to (a selected unit); -1: none."""

    @property
    def size(self) -> int:
        return self.planes * self.height * self.width + self.n_scalars


def _deus_lo_vult_layout(game: Game) -> ObsLayout:
    observe = importlib.import_module("crusadegym.core.deus_lo_vult.observe")
    actions = importlib.import_module("crusadegym.core.deus_lo_vult.actions")
    return ObsLayout(
        observe.N_PLANES, 12, 12, observe.N_SCALARS,
        cell_start=actions.CELL0, focus_plane=observe.PL_SELECTED,
    )  # fmt: skip


OBS_LAYOUTS: dict[str, Callable[[Game], ObsLayout]] = {"deus_lo_vult": _deus_lo_vult_layout}
"""Game name -> function giving its board layout and cell-action range (games absent
here get the MLP)."""


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
    cells = layout.height * layout.width
    if layout.cell_start >= 0 and layout.cell_start + cells > game.num_actions:
        raise ValueError(
            f"{game.name}: cell actions {layout.cell_start}..{layout.cell_start + cells - 1} "
            f"exceed the {game.num_actions} actions"
        )
    return layout


class BoardExtractor(BaseFeaturesExtractor):
    """Conv net over the board planes + MLP over the scalars; plain MLP when ``planes == 0``.

    The MLP form serves games without a board layout; the conv form is what the
    earlier flat-headed Deus lo Vult checkpoints were built with (they still load).

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


def policy_spec(game: Game, advice: str = "none") -> tuple[str | type, dict]:
    """``(policy, policy_kwargs)`` for MaskablePPO on ``game`` (its input with ``advice``).

    A game with a board layout and cell actions gets :class:`~.spatial.SpatialPolicy`
    (which adds the advice to its logits); any other game gets ``"MlpPolicy"`` over
    :class:`BoardExtractor`'s MLP form (which reads the advice as more inputs).
    """
    from crusadegym.agents.advice import advice_size, check_advice

    layout = obs_layout(game)
    if layout is None or layout.cell_start < 0:
        if check_advice(advice) != "none" and layout is not None:
            raise ValueError(f"{game.name}: advice needs a spatial policy or a plain MLP")
        return "MlpPolicy", policy_kwargs_for(game)
    from .spatial import SpatialExtractor, SpatialPolicy

    return SpatialPolicy, {
        "features_extractor_class": SpatialExtractor,
        "features_extractor_kwargs": {
            "planes": layout.planes,
            "height": layout.height,
            "width": layout.width,
            "n_scalars": layout.n_scalars,
            "focus_plane": layout.focus_plane,
            "n_advice": advice_size(game, advice),
        },
        "cell_start": layout.cell_start,
    }


def policy_kwargs_for(game: Game, net_arch: tuple[int, ...] = (128, 128)) -> dict:
    """``policy_kwargs`` for ``MlpPolicy`` with :class:`BoardExtractor` sized for ``game``."""
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
