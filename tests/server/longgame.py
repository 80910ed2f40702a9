"""``LongGame`` ("long"): a long game with big views, for the websocket back-pressure test.

Players take turns in seat order; a turn is one of 10 moves (action 0..9, worth its number of
points); the game ends after ``turns`` turns in all. The SVG carries ~48 KB of text, like a
Kingdom Builder board, so an unread socket fills up fast.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.game import TERMINAL, Game, PlayerScore, State
from citybuilders.core.options import Option

PADDING = "".join(f"<text x='0' y='{i}'>row {i:04d} of filler text</text>"
                  for i in range(1000))


class LongGame(Game):
    name = "long"
    title = "Long"
    min_players = 1
    max_players = 4
    default_players = 2
    option_specs = (Option("turns", 400, "turns in all", type=int, minimum=1, maximum=5000,
                           kind="setup"),)

    def new_initial_state(self, num_players=None, seed=0):
        return LongState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self):
        return 10


class LongState(State):
    __slots__ = ("points", "turn")

    def __init__(self, game, n, seed):
        super().__init__(game, n, seed)
        self.points = [0] * n
        self.turn = 0

    def current_player(self):
        if self.turn >= self.game.options["turns"]:
            return TERMINAL
        return self.turn % self.num_players

    def chance_outcomes(self):
        return []

    def _legal_actions(self, player):
        return list(range(10))

    def _apply(self, action, player):
        self.points[player] += action
        self.turn += 1

    def _clone(self):
        s = LongState.__new__(LongState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.points, s.turn = list(self.points), self.turn
        return s

    def scores(self):
        return [PlayerScore(p, {"moves": p}) for p in self.points]

    def observation(self, player):
        return {"points": list(self.points), "turn": self.turn}

    def action_to_string(self, action, player=None):
        return f"take {action}"

    def render_svg(self, player=None):
        keys = "".join(f"<rect data-key='take:{a}' x='{10 * a}' y='0' width='9' height='9'/>"
                       for a in range(10))
        return ("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'>"
                f"{keys}{PADDING}</svg>")

    def action_path(self, action, player=None):
        return (f"take:{action}",)

    def _position_json(self):
        return {"points": self.points, "turn": self.turn}

    def _load_position(self, d: Mapping[str, Any]):
        self.points = list(d["points"])
        self.turn = d["turn"]
