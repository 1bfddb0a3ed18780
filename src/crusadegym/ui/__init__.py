"""Watch and play: replays as animations (:mod:`.animate`, ``crusadegym replay``) and a
board in the browser (:mod:`.serve`, ``crusadegym serve``).

The top layer: it uses the core games, the ``rgb_array`` renderers of
:mod:`crusadegym.envs.render` and the agents of :mod:`crusadegym.agents`, and works for
every registered game through the protocol alone.
"""
