"""Tiny Town's rules: the state, its legal moves and applying them.

2-3 players each hold one hidden building card. On your turn: ``build`` scores your card and
draws a new one (a chance node only you see), or ``roll`` rolls the public die. The game ends
after ``turns`` player turns.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from citybuilders.core.game import CHANCE, TERMINAL, PlayerScore, State, chance_viewer_of

from . import actions as A
from .loader import load_data
from .scoring import score_player

__all__ = ["TinyTownState", "FIELDS"]

_DATA = load_data()
FIELDS = ("hands", "built", "sixes", "turn", "to_move", "pending")
"""The state's fields, declared once: clone and JSON are derived from this tuple."""


class TinyTownState(State):
    """``hands[p]``: card value held (0 before the deal); ``built[p]``: values built;
    ``sixes[p]``: scoring rolls; ``pending``: ``None`` or ``[kind, player]`` at a chance node
    (kind ``deal``/``draw``: a private card, ``die``: the public die)."""

    __slots__ = FIELDS

    def __init__(self, game: Any, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.hands = [0] * num_players
        self.built: list[list[int]] = [[] for _ in range(num_players)]
        self.sixes = [0] * num_players
        self.turn = 0
        self.to_move = seed % num_players
        self.pending: list[Any] | None = ["deal", 0]

    def current_player(self) -> int:
        if self.pending is not None:
            return CHANCE
        return TERMINAL if self.turn >= self.game.options["turns"] else self.to_move

    def chance_viewer(self) -> int | None:
        kind, p = self.pending or (None, None)
        return p if kind in ("deal", "draw") else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending is None:
            return []
        if self.pending[0] == "die":
            return [(A.DIE_BASE + i, 1 / _DATA.die_faces) for i in range(_DATA.die_faces)]
        n = len(_DATA.card_values)
        return [(A.CARD_BASE + i, 1 / n) for i in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [A.BUILD, A.ROLL]

    def _apply(self, action: int, player: int) -> None:
        if player != CHANCE:
            if action == A.BUILD:
                self.built[player].append(self.hands[player])
                self.pending = ["draw", player]
            else:
                self.pending = ["die", player]
            return
        kind, p = self.pending  # type: ignore[misc]
        if kind == "die":
            if action - A.DIE_BASE + 1 == _DATA.scoring_face:
                self.sixes[p] += 1
            self.pending = None
            self._end_turn()
            return
        self.hands[p] = _DATA.card_values[action - A.CARD_BASE]
        if kind == "deal" and p + 1 < self.num_players:
            self.pending = ["deal", p + 1]
        else:
            self.pending = None
            if kind == "draw":
                self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        self.to_move = (self.to_move + 1) % self.num_players

    def _clone(self) -> "TinyTownState":
        s = TinyTownState.__new__(TinyTownState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s._load_position(self._position_json())
        return s

    def scores(self) -> list[PlayerScore]:
        bonus = self.game.options["bonus"]
        out = []
        for p in range(self.num_players):
            parts = score_player(self.built[p], self.sixes[p], bonus)
            out.append(PlayerScore(sum(parts.values()), parts))
        return out

    def observation(self, player: int) -> dict[str, Any]:
        """Public: built cards, scoring rolls, turn; private: only ``player``'s own hand."""
        return {"hand": self.hands[player], "built": [list(b) for b in self.built],
                "sixes": list(self.sixes), "turn": self.turn,
                "current_player": self.current_player()}

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return A.to_string(action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        action = A.from_string(text)
        if action not in self.legal_actions(player):
            return super().string_to_action(text, player)
        return action

    def _position_json(self) -> dict[str, Any]:
        return {"hands": list(self.hands), "built": [list(b) for b in self.built],
                "sixes": list(self.sixes), "turn": self.turn, "to_move": self.to_move,
                "pending": list(self.pending) if self.pending else None}

    def _load_position(self, data: Mapping[str, Any]) -> None:
        self.hands = list(data["hands"])
        self.built = [list(b) for b in data["built"]]
        self.sixes = list(data["sixes"])
        self.turn, self.to_move = data["turn"], data["to_move"]
        self.pending = list(data["pending"]) if data["pending"] else None

    def resample_from_infostate(self, player: int, rng: random.Random) -> "TinyTownState":
        """Other players' current hands redrawn, the history relabelled to match.

        Only each player's last draw is hidden: every earlier card was built, so it is public."""
        s = self.clone()
        history = s.history()
        last_draw: dict[int, int] = {}
        for i, (actor, _) in enumerate(history):
            viewer = chance_viewer_of(actor)
            if viewer is not None and viewer != player:
                last_draw[viewer] = i
        for p, i in last_draw.items():
            card = rng.randrange(len(_DATA.card_values))
            history[i] = (history[i][0], A.CARD_BASE + card)
            s.hands[p] = _DATA.card_values[card]
        s._history = history
        return s
