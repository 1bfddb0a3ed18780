"""Expert iteration: self-play guided by the compiled Gumbel search (``crusadegym expert``).

The one recipe every game trains with, learning from the game's own observation (no
hand-written features, no heuristic verdict as an input):

* :mod:`.options`: the run's options, declared once (the parser is generated from them);
* :mod:`.model`: the policy-value network in torch, its loss, and its export to the
  numpy twin the players use (:mod:`crusadegym.agents.network`);
* :mod:`.selfplay`: a batch of games played by the search
  (:mod:`crusadegym.agents.gumbel_search`), leaves evaluated in one network pass per
  simulation across all games; it yields training samples when games finish;
* :mod:`.buffer`: the replay buffer of (observation, mask, search policy, result);
* :mod:`.recipe`: the loop (play, learn, checkpoint, measure), and ``main``.

Needs the ``train`` extra (torch) to learn; the networks it writes play with numpy alone.
"""
