"""One or two lines of help per action kind, per game, for the terminal (``help ACTION``).

Each game has one data table, :data:`ACTION_HELP` ``[game]``: a key is the leading
words of an action label as ``action_to_str`` writes it (``withdraw``, ``wedge``,
``sow skip``); :func:`help_for` picks the longest key that starts the typed words, so
``withdraw tithe`` gets its own line and ``wedge 3`` gets the ``wedge`` line. The
texts summarise the rules pages (``docs/rules/<game>.md``); a game without a table
gets a pointer to its rules page.
"""

from __future__ import annotations

from crusadegym.core import Game

_DLV: dict[str, str] = {
    "cell": "Two-step actions: `cell X` first selects one of your units (touch-move: the "
    "selection binds), then `cell Y` moves it to an empty cell next to another unit of "
    "its band (a band = 2+ orthogonally adjacent friendly units). In setup: the camp "
    "cell to deploy on; in the Saracen phase: a Saracen, or an empty green cell to spawn on.",
    "deploy": "deploy KIND: put a unit from your reserve on the selected empty cell of your "
    "camp, strong side up, facing your camp's direction (1 AP). At most 13 Army Points "
    "on board + Purgatory (pilgrim 1, footman/archer/pavesier 2, knight/cavalry 3).",
    "withdraw": "withdraw: take the selected unit, standing inside your own camp, back to "
    "your reserve (1 AP); not while it carries coins. Saracens cannot withdraw.",
    "weaken": "weaken: flip your selected Crusader to its weak side (free by default, "
    "option weaken_cost). Some weak sides carry more coins (a weak footman carries 2).",
    "heal": "heal: flip the selected wounded unit back to its strong side (1 AP); a "
    "Crusader only inside its own camp, a Saracen only on a green Saracen camp cell.",
    "realign": "realign: turn the selected Saracen on its green camp cell to face that "
    "cell's moon (1 AP, Saracen phase).",
    "strike": "strike DIR (N/E/S/W): the selected unit uses its edge toward DIR: attack "
    "(skull/arrow; result from the Combat Results Table: a wound flips a unit, a second "
    "wound sends it to Purgatory), plunder a City Quarter's coin with the skull (its "
    "skull edge wounds back), or steal a coin via a rival's heart edge (1 AP).",
    "give": "give DIR: the selected Crusader passes a coin to the unit or empty cell in "
    "DIR; toward your camp centre it secures the coin = 1 point (1 AP).",
    "take": "take DIR: the selected Crusader picks up a loose coin from the cell in DIR "
    "(1 AP); moving onto loose coins picks them up for free.",
    "spawn": "spawn: a Saracen drawn at random from the bag enters the selected empty "
    "green cell, strong side, facing its moon (1 AP, a Saracen action).",
    "pick": "pick KIND: choose which Saracen kind from the bag enters the next green "
    "cell (tactical placement at setup, or a tactical spawn).",
    "end": "end: end your turn now (unused Action Points are lost). Your units still in a "
    "rival camp then go to Purgatory.",
}
"""Deus lo Vult (Duel): docs/rules/deus_lo_vult.md, "Actions" .. "Purgatory and healing"."""

_CAMPAIGN: dict[str, str] = {
    **_DLV,
    "tithe": "tithe coin: a Crusader next to the Hidden Stash passes it one carried coin "
    "(1 AP, like give); the coin leaves the round (Holier Than Thou).",
    "flip stash": "flip stash: a band member joined to the Hidden Stash flips it (1 AP).",
    "withdraw tithe": "withdraw tithe: with the Stash side up, take one tithed coin back "
    "to the selected unit (1 AP per coin).",
    "withdraw penance": "withdraw penance: withdraw from the foremost sinner's Penance "
    "(Gauntlet option penance).",
    "indulgence": "indulgence: spend an indulgence coin: your newest unit in Purgatory "
    "returns to your reserve (no AP).",
    "campaign": "campaign N: a Campaign step between Battles (the listed id is the "
    "choice this step offers; see docs/rules/deus_lo_vult.md Part 2).",
    "play": "play heat / play cold: play a Weather card from your hand (Weather Mode).",
    "clean": "clean latrine move / coin: clean the filthy Latrine for 1 AP or 1 coin "
    "(River Amenity).",
    "rearm": "rearm surgeon: make the used Surgeon ready again (1 coin + 1 AP).",
    "surgeon": "surgeon heal: the Surgeon flips one of your weak Crusaders anywhere back "
    "to strong (army phase, 1 AP); the Surgeon becomes used.",
    "salutificatio": "salutificatio coin: put one secured coin on your Salutificatio "
    "card (a token of friendship, for each Refugee you put in a rival camp).",
    "summon": "summon donkey DIR: discard a Salutificatio coin to put the Donkey next to "
    "the selected unit in DIR.",
    "use": "use pillory: a seat holding a Baccatio card uses the ready Pillory (free).",
    "pillory": "pillory coin / pillory moves: use the Pillory for 1 coin or 2 AP.",
    "gravediggers": "gravediggers pass: do not bury (the Gravediggers' window; `cell X` "
    "buries that unit of yours in place of the one just killed).",
    "dog": "dog take DIR: the Dog takes a coin from DIR (Field Amenity).",
    "flip dog": "flip dog: turn the Dog token over (Field Amenity).",
    "bury": "bury thief: the Gravediggers bury the thief (Field Amenity).",
    "greek": "greek fire: 1 damage to every adjacent Crusader (your own too) and Saracen "
    "(one Move; War Engine).",
    "sober": "sober engineer coin / move: free your Engineer's Barrel for a coin or a "
    "move; Siege Engines move only with a sober Engineer in their band or camp.",
    "ransom": "ransom: pay for your units held for ransom after a debt (Campaign).",
    "drive": "drive refugees: Richard in his own camp discards every Refugee there "
    "(one Move, no murderer's penalty).",
    "touch": "touch DIR: a Hero's touch on the unit in DIR (one Move; Heroes).",
    "capture": "capture DIR: Leopold (weak side) takes the adjacent unit of an "
    "imperium_angevinium seat captive (one Move).",
    "redeem": "redeem captive: pay Leopold's seat one coin (two for Richard) to get your "
    "captive back to reserve.",
    "swap": "swap deed: exchange a Deed for a price of deed_swap_price coins (Decks of Deeds).",
    "discard": "discard failed deed: drop a Deed you can no longer fulfil (Decks of Deeds).",
    "take deed": "take deed: take another Deed after completing one (free).",
}
"""Deus lo Vult Campaign: the Duel actions plus docs/rules/deus_lo_vult.md Part 2."""

_DEUS: dict[str, str] = {
    "build": "build CARD: play a building card from your hand: pay its cost (resources; "
    "each resource may be paid with 4 gold), place its piece (first building on an edge "
    "region, later in your region or an empty one next to it), then every card of that "
    "colour's column activates, bottom to top.",
    "offer": "offer CARD: discard cards to a god: the first names the top card (its god "
    "gives the power), `offer` more cards under it, then `done`. The more cards, the "
    "stronger the power; then refill your hand to 5.",
    "region": "region X: the region for the piece being placed (or one a card effect "
    "asks for); X = tile letter + position (0 the tile's centre, 1-6 around it), as on "
    "the hex map.",
    "resource": "resource R: the resource a card effect or a god (Ceres) lets you choose.",
    "piece": "piece TYPE: which wooden piece you take (Mars, card effects).",
    "god": "god G: Jupiter's offering: the god whose power you use instead.",
    "pay": "pay resource / pay gold: how to pay the next unit of a cost: with one of the "
    "resource itself, or with 4 gold instead.",
    "done": "done: stop an 'up to' effect, or close the offering with the cards chosen so far.",
    "pass": "pass: nothing to play (no card in hand and none to draw).",
    "draw": "draw: take one extra card after a Minerva offering (one per card offered).",
}
"""Deus: docs/rules/deus.md, "The Game Turn"."""

_CRUSADERS: dict[str, str] = {
    "resolve": "resolve N: take all tokens from wedge N of your wheel and sow them one by "
    "one clockwise from the next wedge; then do that wedge's action with strength X = "
    "tokens taken + bonuses (T travel, M muster, C crusade, I influence, B build).",
    "upgrade": "upgrade N: flip wedge N to its upgraded side (two actions; its tokens "
    "stay); then you may distribute the tokens of any one wedge.",
    "wedge": "wedge N: the wedge whose tokens you sow without its action (a distribution "
    "after an upgrade, a tile or the Livonian power; or skip-and-distribute when all six "
    "wedges are upgraded).",
    "split": "split K: on an upgraded wedge, give K of the X points to its first action "
    "and the rest to the second (an action given 0 is skipped).",
    "first": "first first / first second: which of the upgraded wedge's two actions you "
    "resolve first.",
    "move": "move K R: knight K travels one step to region R (1 point; 2 out of an enemy "
    "region; leaving your own Coat-of-Arms region with no enemy is free).",
    "region": "region R: the region chosen (a knight's start region; the region of an "
    "Influence tile, a crusade or a build).",
    "build": "build TYPE: build the next level of TYPE in your knight's region (no enemy "
    "there, cost <= points); you gain its level in influence and uncover its bonus.",
    "saracen": "saracen build / troop / influence: the reward for beating a Saracen: "
    "build its shown building free, flip your next troop, or gain 3 influence.",
    "boost": "boost: flip a one-time (once) influence tile: +1 to this action.",
    "order": "order NAME: keep this Knight Order of the two dealt (setup); its power and "
    "setup change are in docs/rules/crusaders.md, Knight Orders.",
    "mill": "mill TYPE LEVEL: your Mill removes that building (level <= the Mill's) from "
    "your board; removing it uncovers its bonus.",
    "sow": "sow normal / ccw / self / skip k / double k: how to sow, using your Order's "
    "power (ccw Teutonic, self Aviz/Santiago, skip Hospitaller, double Templar).",
    "done": "done: finish the current choice (stop travelling, skip an optional flip, "
    "distribution or Mill removal).",
}
"""Crusaders: docs/rules/crusaders.md, "Base game" and "Divine Influence"."""

ACTION_HELP: dict[str, dict[str, str]] = {
    "deus_lo_vult": _DLV,
    "deus_lo_vult_campaign": _CAMPAIGN,
    "deus": _DEUS,
    "crusaders": _CRUSADERS,
}
"""Game name -> {leading words of an action label -> one or two lines of help}."""


def register_action_help(game_name: str, table: dict[str, str]) -> None:
    """Use ``table`` for ``help ACTION`` in ``game_name``."""
    ACTION_HELP[game_name] = dict(table)


def _key_for(table: dict[str, str], words: list[str]) -> str | None:
    best = None
    for key in table:
        kw = key.split()
        if words[: len(kw)] == kw and (best is None or len(kw) > len(best.split())):
            best = key
    if best is None and len(words) == 1:  # `help wit` -> withdraw (unique prefix)
        hits = [k for k in table if k.split()[0].startswith(words[0])]
        if len({k.split()[0] for k in hits}) == 1:
            best = min(hits, key=len)
    return best


def help_for(game: Game, text: str) -> str | None:
    """The help line of the action kind that ``text`` (a label, e.g. ``wedge 3``) names."""
    words = text.strip().lower().split()
    table = ACTION_HELP.get(game.name)
    if not words or not table:
        return None
    key = _key_for(table, words)
    return table[key] if key else None


def help_table(game: Game, kinds: list[str] | None = None) -> str:
    """Every action kind's help for ``game`` (only ``kinds`` when given), one entry a line."""
    table = ACTION_HELP.get(game.name)
    if not table:
        return f"(no action table for {game.name}: see docs/rules/{game.name}.md)"
    keys = list(table)
    if kinds is not None:
        keys = [k for k in keys if k.split()[0] in kinds]
    return "\n".join(f"  {table[k]}" for k in keys)
