"""Single-observer Information-Set MCTS (Cowling, Powley & Whitehouse 2012), game-agnostic.

Each iteration draws a determinization with ``state.resample_from_infostate(player, rng)`` (hidden
cards redrawn consistently with what ``player`` knows), descends the tree with UCB1 using
availability counts (children not legal in this determinization are skipped), expands one node,
plays a random rollout to the end and backs up ``returns()`` of each node's acting player.
Chance nodes are sampled, not stored in the tree.
"""

from __future__ import annotations

import math
import random
import time

from ..core.game import CHANCE, TERMINAL, State
from .base import Bot

__all__ = ["ISMCTSBot"]


def _skip_chance(state: State, rng: random.Random) -> int:
    """Apply sampled chance outcomes until a player (or the end) is to move; returns that."""
    cp = state.current_player()
    while cp == CHANCE:
        state.apply_legal(state.sample_chance(rng))
        cp = state.current_player()
    return cp


class _Node:
    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[tuple[int, int], _Node] = {}


class ISMCTSBot(Bot):
    """ISMCTS with ``iterations`` playouts per move (capped by ``max_seconds`` wall time).

    ``exploration`` is the UCB1 constant. The chosen move is the root child with most visits.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 200,
        max_seconds: float = 2.0,
        exploration: float = 0.7,
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.max_seconds = max_seconds
        self.exploration = exploration

    def step(self, state: State, player: int) -> int:
        """The most visited root action after the search."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        root = _Node(player)
        deadline = time.perf_counter() + self.max_seconds
        for it in range(self.iterations):
            if it and time.perf_counter() > deadline:
                break
            det = state.resample_from_infostate(player, rng)
            node = root
            path: list[_Node] = []
            first = True
            while True:
                cp = _skip_chance(det, rng)
                if cp == TERMINAL:
                    break
                acting = player if first else cp
                first = False
                moves = det.legal_actions(acting)
                untried = [a for a in moves if (acting, a) not in node.children]
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = _Node(acting)
                    node.children[(acting, a)] = child
                    det.apply_legal(a, acting)
                    path.append(child)
                    break
                best = None
                best_value = -math.inf
                c = self.exploration
                for a in moves:
                    ch = node.children[(acting, a)]
                    ch.avail += 1
                    v = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best_value:
                        best_value, best = v, (a, ch)
                assert best is not None
                a, node = best
                det.apply_legal(a, acting)
                path.append(node)
            # random rollout
            while (cp := _skip_chance(det, rng)) != TERMINAL:
                moves = det.legal_actions(cp)
                det.apply_legal(moves[rng.randrange(len(moves))], cp)
            result = det.returns()
            for n in path:
                n.visits += 1
                n.total += result[n.player]
        best_a, best_visits = legal[0], -1
        for a in legal:
            ch = root.children.get((player, a))
            if ch is not None and ch.visits > best_visits:
                best_a, best_visits = a, ch.visits
        return best_a
