"""Kingdom Builder (Queen Games 2011) with the Crossroads expansion.

Modules: ``rules/`` (positions and moves), ``actions`` (action ids), ``loader`` + ``data/``
(board sections), ``scoring`` (Kingdom Builder cards), ``scorefile`` (score calculator),
``render`` (text/SVG/panels), ``strategy`` (greedy bot), ``texts`` (names and rule texts),
``game`` (the ``KingdomBuilderGame`` wiring; registry id ``kingdom-builder``).
"""
