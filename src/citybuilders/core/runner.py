"""Play a game to the end with bots and sampled chance (used by simulation and terminal play)."""

from __future__ import annotations

import random
from typing import Callable, Protocol, Sequence

from .game import CHANCE, TERMINAL, State

__all__ = ["Agent", "play_out"]


class Agent(Protocol):
    """Anything that picks an action for ``player`` in ``state`` (bots implement this)."""

    def step(self, state: State, player: int) -> int:  # pragma: no cover - protocol
        ...


def play_out(
    state: State,
    agents: Sequence[Agent],
    chance_rng: random.Random,
    max_steps: int = 1_000_000,
    on_action: Callable[[State, int, int], None] | None = None,
) -> State:
    """Advance ``state`` in place until terminal; returns it.

    ``agents[p]`` acts for player ``p``; chance outcomes come from ``chance_rng``. In
    simultaneous phases every active player acts in index order. ``on_action(state, actor,
    action)`` is called before each action is applied.
    """
    steps = 0
    while True:
        cp = state.current_player()
        if cp == TERMINAL:
            return state
        if cp == CHANCE:
            a = state.sample_chance(chance_rng)
        else:
            a = agents[cp].step(state, cp)
        if on_action is not None:
            on_action(state, cp, a)
        state.apply_legal(a, cp if cp >= 0 else None)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not end within {max_steps} steps")
