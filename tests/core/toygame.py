"""A tiny game exercising the core protocol: private card draws, public dice, scoring.

"Toy": 2-3 players, each holds one hidden card (1..3). On your turn: ``build`` scores your card's
value and draws a new card (private chance), or ``roll`` rolls a public die worth 1 point on 6.
The game ends after 6 player turns in all.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.game import CHANCE, TERMINAL, Game, PlayerScore, State
from citybuilders.core.options import Option

BUILD, ROLL = 0, 1  # player actions; chance actions: 2..4 = card 1..3, 5..10 = die 1..6


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 3
    default_players = 2
    rules_version = "1"
    option_specs = (
        Option("turns", 6, "number of player turns", type=int, minimum=1, maximum=50, kind="setup"),
        Option("bonus", False, "a 6 on the die scores 2", type=bool),
    )

    def new_initial_state(self, num_players=None, seed=0):
        return ToyState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self):
        return 11


class ToyState(State):
    __slots__ = ("hands", "points", "turn", "pending", "to_move")

    def __init__(self, game, num_players, seed):
        super().__init__(game, num_players, seed)
        self.hands = [0] * num_players
        self.points = [0] * num_players
        self.turn = 0
        self.to_move = seed % num_players
        self.pending = ("deal", 0)  # deal to player 0 first

    def current_player(self):
        if self.pending is not None:
            return CHANCE
        if self.turn >= self.game.options["turns"]:
            return TERMINAL
        return self.to_move

    def chance_viewer(self):
        kind, p = self.pending
        return p if kind in ("deal", "draw") else None

    def chance_outcomes(self):
        kind, _ = self.pending
        if kind == "die":
            return [(5 + i, 1 / 6) for i in range(6)]
        return [(2 + i, 1 / 3) for i in range(3)]

    def _legal_actions(self, player):
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [BUILD, ROLL]

    def _apply(self, action, player):
        if player == CHANCE:
            kind, p = self.pending
            if kind == "die":
                if action == 10:
                    self.points[p] += 2 if self.game.options["bonus"] else 1
                self.pending = None
                self._end_turn()
            else:
                self.hands[p] = action - 1
                if kind == "deal" and p + 1 < self.num_players:
                    self.pending = ("deal", p + 1)
                else:
                    self.pending = None
                    if kind == "draw":
                        self._end_turn()
            return
        if action == BUILD:
            self.points[player] += self.hands[player]
            self.pending = ("draw", player)
        else:
            self.pending = ("die", player)

    def _end_turn(self):
        self.turn += 1
        self.to_move = (self.to_move + 1) % self.num_players

    def _clone(self):
        s = ToyState.__new__(ToyState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.hands, s.points = list(self.hands), list(self.points)
        s.turn, s.pending, s.to_move = self.turn, self.pending, self.to_move
        return s

    def scores(self):
        return [PlayerScore(p, {"points": p}) for p in self.points]

    def observation(self, player):
        return {"hand": self.hands[player], "points": list(self.points), "turn": self.turn}

    def action_to_string(self, action, player=None):
        if action == BUILD:
            return "build"
        if action == ROLL:
            return "roll"
        if action <= 4:
            return f"card {action - 1}"
        return f"die {action - 4}"

    def _position_json(self):
        return {"hands": self.hands, "points": self.points, "turn": self.turn,
                "to_move": self.to_move, "pending": list(self.pending) if self.pending else None}

    def _load_position(self, d: Mapping[str, Any]):
        self.hands, self.points = list(d["hands"]), list(d["points"])
        self.turn, self.to_move = d["turn"], d["to_move"]
        self.pending = tuple(d["pending"]) if d["pending"] else None

    def resample_from_infostate(self, player, rng):
        s = self.clone()
        for p in range(self.num_players):
            if p != player and s.hands[p]:
                s.hands[p] = rng.randint(1, 3)
        return s
