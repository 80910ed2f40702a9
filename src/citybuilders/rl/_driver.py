"""The engine loop shared by the PettingZoo and Gymnasium envs (numpy only).

A :class:`Driver` owns one game, the env's seeded RNG (setup seeds and chance outcomes) and
the current engine state; it resolves chance nodes, builds action masks and observation tensors
and tracks score deltas for the dense reward.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ..core.game import CHANCE, TERMINAL, Game, State
from .common import make_game
from .encoders import encoder_for

__all__ = ["Driver", "REWARDS", "ILLEGAL"]

REWARDS = ("terminal", "score_delta")
"""``terminal``: engine ``returns()`` at the end, 0 before; ``score_delta``: the change of the
player's score total after each step (plus nothing at the end: the sum is the final score)."""
ILLEGAL = ("random", "raise")
"""What an illegal action does: ``random`` plays a uniformly random legal action instead (from
the env RNG) and sets ``info["illegal_action"]``; ``raise`` raises IllegalActionError."""


class Driver:
    """Engine loop for one env. ``pass_action`` is the extra id for a player who may not act."""

    def __init__(self, game_id: str, num_players: int | None, options: dict[str, Any],
                 reward: str = "terminal", illegal_action: str = "random",
                 seed: int | None = None) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward: expected one of {', '.join(REWARDS)}, got {reward!r}")
        if illegal_action not in ILLEGAL:
            raise ValueError(f"illegal_action: expected one of {', '.join(ILLEGAL)}, "
                             f"got {illegal_action!r}")
        self.game: Game = make_game(game_id, options)
        self.num_players = self.game.check_num_players(num_players)
        self.reward = reward
        self.illegal_action = illegal_action
        self.encoder = encoder_for(self.game, self.num_players)
        self.num_actions = self.game.num_distinct_actions() + 1
        self.pass_action = self.num_actions - 1
        self.rng = random.Random(seed)
        self.state: State | None = None
        self._scores = [0] * self.num_players
        self._legal_key: tuple[int, int, int] | None = None
        self._legal: list[int] = []

    def reset(self, seed: int | None) -> State:
        """A new game; ``seed`` reseeds the env RNG (setup and chance) when given."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self.game.new_initial_state(self.num_players, self.rng.randrange(2 ** 31))
        self._legal_key = None
        self.resolve_chance()
        self._scores = [s.total for s in self.state.scores()]
        return self.state

    def resolve_chance(self) -> None:
        """Apply chance outcomes from the env RNG until a player acts or the game ends."""
        s = self.state
        rng = self.rng
        while s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))

    def legal(self, player: int) -> list[int]:
        """Legal actions of ``player`` now; ``[pass_action]`` when the player may not act."""
        s = self.state
        if s.current_player() == TERMINAL:
            return []
        if player in s.active_players():
            key = (id(s), s.move_number(), player)
            if self._legal_key == key:
                return self._legal
            legal = s.legal_actions(player)
            self._legal_key, self._legal = key, legal
            return legal
        return [self.pass_action]

    def mask(self, player: int) -> np.ndarray:
        """int8 mask of shape ``(num_actions,)``."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        legal = self.legal(player)
        if legal:
            m[legal] = 1
        return m

    def observe(self, player: int) -> np.ndarray:
        """float32 tensor of shape ``(encoder.size,)`` for ``player``."""
        return self.encoder.encode(self.state, player)

    def act(self, player: int, action: int) -> bool:
        """Apply ``player``'s action (a pass is a no-op). Returns True if it was illegal
        (and replaced by a random legal action). Raises IllegalActionError with ``raise``."""
        s = self.state
        if player not in s.active_players():
            return action != self.pass_action
        legal = self.legal(player)
        illegal = False
        if action not in legal:
            if self.illegal_action == "raise":
                s.apply_action(int(action), player)  # raises, naming the reason
            illegal = True
            action = legal[self.rng.randrange(len(legal))]
        s.apply_legal(int(action), player)
        return illegal

    def rewards(self) -> list[float]:
        """Per-player reward of the last step (see :data:`REWARDS`)."""
        s = self.state
        if self.reward == "terminal":
            return s.returns() if s.is_terminal() else [0.0] * self.num_players
        totals = [sc.total for sc in s.scores()]
        out = [float(t - o) for t, o in zip(totals, self._scores)]
        self._scores = totals
        return out
