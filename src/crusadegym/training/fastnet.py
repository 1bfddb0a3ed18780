"""A lighter board trunk for the fast learner: a 1x1 stem, then a few narrow 3x3 convs.

The default :class:`~.spatial.SpatialExtractor` opens with a 3x3 convolution over all
the observation's planes (62 for Deus lo Vult), which alone costs more than the rest of
a narrow trunk: 62 x C x 9 multiply-adds per cell. :class:`CompactExtractor` first mixes
the planes per cell with a 1x1 convolution down to ``channels`` (62 x C per cell), then
runs ``layers`` 3x3 convolutions of ``channels``, so the map keeps its receptive field
at a fraction of the cost (measured in :mod:`crusadegym.benchmarks.learner`). Everything
after the trunk (pooled global features, the spatial heads, the value) is the spatial
policy's own, so :class:`~.spatial.SpatialPolicy` takes it unchanged and ``MaskablePPO.load``
rebuilds it from the checkpoint.
"""

from __future__ import annotations

from typing import Any

from torch import nn

from .spatial import SpatialExtractor


class CompactExtractor(SpatialExtractor):
    """:class:`~.spatial.SpatialExtractor` with a 1x1 stem before ``layers`` 3x3 convs."""

    def __init__(self, observation_space: Any, planes: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(observation_space, planes, *args, **kwargs)
        layers = kwargs.get("layers", 4)
        c = self.channels
        trunk: list[nn.Module] = [nn.Conv2d(planes, c, 1), nn.ReLU()]
        for _ in range(layers):
            trunk += [nn.Conv2d(c, c, 3, padding=1), nn.ReLU()]
        self.trunk = nn.Sequential(*trunk)
