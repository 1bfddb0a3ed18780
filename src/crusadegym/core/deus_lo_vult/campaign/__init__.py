"""Deus lo Vult Campaign Rules 2.0 (Part 2 of the rulebook) as switchable rule modules.

The Campaign is its own registered game, ``deus_lo_vult_campaign`` (``game.py``): the
Duel's state followed by a Campaign block (``layout.py``), the Duel's params followed by
the module switches (``config.py``), and the Duel's 175 action ids followed by the
Campaign's (``layout.py``). The Duel kernels call :mod:`.hooks` through
:mod:`.hookpoints`, only where ``params[P_CAMPAIGN] != 0``; the hook points compile the
real hooks only for Campaign params (their dtype, ``config.PARAMS_DTYPE``), so a Duel's
kernels contain no Campaign code and run exactly as before;
``tests/test_dlv_golden.py`` holds them to that.

===================  ==============================================================
module               rule family (sections of Part 2)
===================  ==============================================================
``battle.py``        Battles, Glory, what carries over, the Jerusalem setup
``gauntlets.py``     Refugees Welcome!, Holier Than Thou (+ Penance), Fons Honorum
``deeds.py``         Decks of Deeds: quest / reward / scourge (stand-in deck)
``weather.py``       Weather Mode: Heat, Cold, Rain, Sand Storm (active, passive)
``river.py``         River Amenities: Latrine/Cholera, Pillory/Bacchanalia,
                     Surgeon, Gravediggers, Salutificatio/Donkey
``gravediggers.py``  the Gravediggers' reaction window (from ``game.step``)
``field.py``         Field Amenities: Cat/Rats, Dog, Gallows, Disgusting Man,
                     Engineer, Hidden Stash, Flagellant cortege
``units.py``         War Engines and Heroes
===================  ==============================================================

This package's ``__init__`` imports nothing: the Duel kernels import :mod:`.hookpoints`
(which imports :mod:`.hooks`), and
the hook modules may import only the Duel's low-level modules (``tables``, ``layout``,
``config``, ``pieces``, ``purgatory``, ``coins``, ``bands``), never ``combat``,
``choices``, ``setup``, ``turns`` or ``scoring`` (which import the hooks).
"""
