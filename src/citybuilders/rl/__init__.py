"""Reinforcement-learning adapters (optional extras; see docs/rl.md).

* ``citybuilders.rl.openspiel``: every game as a pyspiel Python game (``[openspiel]``).
* ``citybuilders.rl.pettingzoo``: AEC envs (turn-based games) and Parallel envs
  (roll-and-writes) (``[pettingzoo]``).
* ``citybuilders.rl.gymnasium``: single-agent envs ``citybuilders/<Game>-v0`` (``[gymnasium]``).
* ``citybuilders.rl.encoders``: the fixed-shape observation tensors (numpy only).

Nothing here is imported by the core package; each adapter imports its framework on import and
names the extra to install when it is missing.
"""

from __future__ import annotations
