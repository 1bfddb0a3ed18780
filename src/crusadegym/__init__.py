"""crusadegym: reinforcement-learning environments for crusader-era board games.

The rules live in :mod:`crusadegym.core` (flat array state + numba kernels); the
environment wrappers in :mod:`crusadegym.envs`; agents and the arena in
:mod:`crusadegym.agents`; training scripts in :mod:`crusadegym.training`.
"""

__version__ = "0.1.0"
