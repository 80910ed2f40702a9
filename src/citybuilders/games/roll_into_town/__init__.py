"""Roll into Town (registry id ``roll-into-town``): simultaneous roll-and-write city building.

Modules: ``rules/`` (state, sheet, geometry, explanations), ``actions`` (action ids, phases,
notation), ``loader`` (``data/rules.json`` and the rule tables), ``scoring`` (one function per
score category), ``scorefile`` (the score calculator's input), ``render`` (text, SVG, click
paths, web panels), ``strategy`` (evaluation and greedy bot), ``texts`` (player-facing names and
rule texts), ``game`` (the Game class wiring them). Importing this package imports nothing.
"""
