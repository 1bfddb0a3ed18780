"""The peers, measured in the same run with the same loop shapes as our game.

* PettingZoo classic ``connect_four_v3`` and ``chess_v6``: AEC random play, mask
  from the observation (needs ``pettingzoo[classic]``: ``pygame``, ``chess``).
* OpenSpiel (``open_spiel``) ``connect_four`` and ``chess`` from Python:
  ``legal_actions`` + ``apply_action``, with and without ``observation_tensor``.

A peer that cannot be imported is skipped with a printed note.
"""

from __future__ import annotations

import importlib

from .loops import aec_chunk, openspiel_chunk
from .results import Results
from .timing import measure

PETTINGZOO = (("pz_connect_four", "connect_four_v3"), ("pz_chess", "chess_v6"))
OPENSPIEL = (("os_connect_four", "connect_four"), ("os_chess", "chess"))


def measure_pettingzoo(seconds: float, results: Results) -> None:
    """PettingZoo classic AEC envs, random play."""
    for method, module_name in PETTINGZOO:
        try:
            module = importlib.import_module(f"pettingzoo.classic.{module_name}")
            env = module.env()
        except ImportError as err:
            results.skip(f"PettingZoo {module_name}", f"not importable ({err})")
            continue
        try:
            m = measure(method, f"PettingZoo {module_name} AEC", aec_chunk(env, 0), seconds)
        finally:
            env.close()
        results.add(m, side="peer", game=module_name, peer="pettingzoo")


def measure_openspiel(seconds: float, results: Results) -> None:
    """OpenSpiel games from Python, with and without the observation tensor."""
    try:
        import pyspiel
    except ImportError as err:
        results.skip("OpenSpiel", f"pyspiel not importable ({err}); pip install open_spiel")
        return
    for method, name in OPENSPIEL:
        game = pyspiel.load_game(name)
        for observe in (False, True):
            suffix = "_obs" if observe else ""
            label = f"OpenSpiel {name} from Python" + (" + obs tensor" if observe else "")
            chunk = openspiel_chunk(game, 0, observe=observe)
            m = measure(method + suffix, label, chunk, seconds)
            results.add(m, side="peer", game=name, peer="openspiel")


def measure_peers(seconds: float, results: Results) -> None:
    """Every peer, each one optional."""
    measure_pettingzoo(seconds, results)
    measure_openspiel(seconds, results)
