"""The plain rollout, the twin every fast ``State.playout`` is checked against."""

from __future__ import annotations

import random

from citybuilders.core.game import CHANCE, TERMINAL, State


def plain_playout(state: State, rng: random.Random, max_actions: int | None) -> None:
    """Play ``state`` on to the end, or until ``max_actions`` player moves (None: no limit):
    chance outcomes by ``sample_chance(rng)``, a player's move drawn uniformly from the full
    legal list by ``rng.randrange`` (core ``State.playout``'s loop, one draw a move)."""
    left = max_actions
    while True:
        cp = state.current_player()
        if cp == TERMINAL:
            return
        if cp == CHANCE:
            state.apply_legal(state.sample_chance(rng))
            continue
        if left is not None:
            if left <= 0:
                return
            left -= 1
        legal = state.legal_actions(cp)
        state.apply_legal(legal[rng.randrange(len(legal))], cp)
