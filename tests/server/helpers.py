"""Test games and helpers for the web server tests.

``SecretGame`` ("secrets"): 2 players, a deck of uniquely named cards drawn one at a time as
private chance; observation shows only your own hand, so any leak of another seat's card name
in a payload is detectable by substring search. ``SimulGame`` ("simul"): a simultaneous
roll-and-write toy (all players pick a column for the public die; the round advances when
everyone is done). ``SlowBot`` sleeps before moving (registered as bot ``slow``).
"""

from __future__ import annotations

import time
from typing import Any, Mapping

import pytest

from citybuilders.bots import Bot, register_bot
from citybuilders.core.game import CHANCE, TERMINAL, Game, PlayerScore, State
from citybuilders.core.options import Option
from citybuilders.core.registry import register_game

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
"""The databases the server suite runs on (the ``db_url`` fixture): SQLite (one process per
file) and PostgreSQL (the session's throw-away cluster, a new database per test)."""

CARDS = [f"QZX{c}{i}" for c in "ABCDEFGH" for i in range(3)]  # 24 unique names


class SecretGame(Game):
    name = "secrets"
    title = "Secrets"
    min_players = 2
    max_players = 3
    default_players = 2
    option_specs = (Option("rounds", 3, "cards each player plays", type=int, minimum=1,
                           maximum=6, kind="setup"),)

    def new_initial_state(self, num_players=None, seed=0):
        return SecretState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self):
        return len(CARDS) + 1


class SecretState(State):
    """Each turn: the player draws (private chance), then plays the card (action = card index)."""

    __slots__ = ("hands", "played", "to_move", "draw_for", "turns")

    def __init__(self, game, n, seed):
        super().__init__(game, n, seed)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.to_move = 0
        self.draw_for: int | None = 0
        self.turns = 0

    def _deck(self):
        used = {c for h in self.hands for c in h} | {c for p in self.played for c in p}
        return [i for i in range(len(CARDS)) if i not in used]

    def current_player(self):
        if self.turns >= self.game.options["rounds"] * self.num_players:
            return TERMINAL
        return CHANCE if self.draw_for is not None else self.to_move

    def chance_viewer(self):
        return self.draw_for

    def chance_outcomes(self):
        deck = self._deck()
        return [(c, 1 / len(deck)) for c in deck]

    def _legal_actions(self, player):
        if player == CHANCE:
            return self._deck()
        return sorted(self.hands[player])

    def _apply(self, action, player):
        if player == CHANCE:
            self.hands[self.draw_for].append(action)
            self.draw_for = None
            return
        self.hands[player].remove(action)
        self.played[player].append(action)
        self.turns += 1
        self.to_move = (self.to_move + 1) % self.num_players
        if self.turns < self.game.options["rounds"] * self.num_players:
            self.draw_for = self.to_move

    def _clone(self):
        s = SecretState.__new__(SecretState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.hands = [list(h) for h in self.hands]
        s.played = [list(p) for p in self.played]
        s.to_move, s.draw_for, s.turns = self.to_move, self.draw_for, self.turns
        return s

    def scores(self):
        return [PlayerScore(len(p), {"played": len(p)}) for p in self.played]

    def observation(self, player):
        return {"hand": [CARDS[c] for c in self.hands[player]],
                "played": [[CARDS[c] for c in p] for p in self.played],
                "hand_sizes": [len(h) for h in self.hands]}

    def action_to_string(self, action, player=None):
        return f"card {CARDS[action]}" if player is None else f"play {CARDS[action]}"

    def render_svg(self, player=None):
        items = "".join(
            f"<rect data-key='card:{CARDS[c]}' x='{10 + 60 * i}' y='10' width='50' height='70'/>"
            for i, c in enumerate(self.hands[player] if player is not None else []))
        return f"<svg xmlns='http://www.w3.org/2000/svg' width='400' height='100'>{items}</svg>"

    def action_path(self, action, player=None):
        return (f"card:{CARDS[action]}",)

    def _position_json(self):
        return {"hands": self.hands, "played": self.played, "to_move": self.to_move,
                "draw_for": self.draw_for, "turns": self.turns}

    def _load_position(self, d: Mapping[str, Any]):
        self.hands = [list(h) for h in d["hands"]]
        self.played = [list(p) for p in d["played"]]
        self.to_move, self.draw_for, self.turns = d["to_move"], d["draw_for"], d["turns"]


class SimulGame(Game):
    name = "simul"
    title = "Simul"
    min_players = 1
    max_players = 3
    default_players = 2
    simultaneous = True
    option_specs = (Option("rounds", 3, "rounds", type=int, minimum=1, maximum=10, kind="setup"),)

    def new_initial_state(self, num_players=None, seed=0):
        return SimulState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self):
        return 9


class SimulState(State):
    """Each round a public die (chance 3..8 = 1..6) is rolled; every player then writes it in
    column 0, 1 or 2 (actions 0..2) at the same time; the round ends when all have written."""

    __slots__ = ("die", "cols", "done", "round")

    def __init__(self, game, n, seed):
        super().__init__(game, n, seed)
        self.die = 0
        self.cols = [[0, 0, 0] for _ in range(n)]
        self.done = [False] * n
        self.round = 0

    def current_player(self):
        if self.round >= self.game.options["rounds"]:
            return TERMINAL
        if self.die == 0:
            return CHANCE
        return min(self.active_players())

    def active_players(self):
        if self.round >= self.game.options["rounds"] or self.die == 0:
            return []
        return [p for p in range(self.num_players) if not self.done[p]]

    def chance_outcomes(self):
        return [(3 + i, 1 / 6) for i in range(6)]

    def _legal_actions(self, player):
        if player == CHANCE:
            return [3 + i for i in range(6)]
        return [0, 1, 2]

    def _apply(self, action, player):
        if player == CHANCE:
            self.die = action - 2
            return
        self.cols[player][action] += self.die
        self.done[player] = True
        if all(self.done):
            self.done = [False] * self.num_players
            self.die = 0
            self.round += 1

    def _clone(self):
        s = SimulState.__new__(SimulState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.die, s.cols, s.done, s.round = self.die, [list(c) for c in self.cols], list(self.done), self.round
        return s

    def scores(self):
        return [PlayerScore(max(c), {"best column": max(c)}) for c in self.cols]

    def observation(self, player):
        return {"die": self.die, "sheets": self.cols, "round": self.round}

    def action_to_string(self, action, player=None):
        return f"roll {action - 2}" if player is None else f"write {action}"

    def _position_json(self):
        return {"die": self.die, "cols": self.cols, "done": self.done, "round": self.round}

    def _load_position(self, d):
        self.die, self.round = d["die"], d["round"]
        self.cols, self.done = [list(c) for c in d["cols"]], list(d["done"])


class SlowBot(Bot):
    """Sleeps ``delay`` seconds, then plays the first legal action."""

    name = "slow"
    delay = 1.5

    def step(self, state, player):
        time.sleep(self.delay)
        return state.legal_actions(player)[0]


def register_test_games() -> None:
    """Register toy, secrets and simul games and the slow bot."""
    from toygame import ToyGame  # tests/core is on sys.path (tests/conftest.py)

    register_game(ToyGame)
    register_game(SecretGame)
    register_game(SimulGame)
    register_bot("slow", SlowBot)


def unregister_test_games() -> None:
    """Undo ``register_test_games`` (so other test areas see the real registry only)."""
    from citybuilders.bots import base
    from citybuilders.core import registry

    for name in ("toy", "secrets", "simul"):
        registry._EXTRA.pop(name, None)
        registry._CACHE.pop(name, None)
    base._BOTS.pop("slow", None)


def wait_view(client, gid, token, pred, timeout=10.0):
    """Poll the view of ``token``'s seat until ``pred(view)``; returns the view."""
    deadline = time.time() + timeout
    while True:
        v = client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token}).json()
        if pred(v) or time.time() > deadline:
            return v
        time.sleep(0.02)
