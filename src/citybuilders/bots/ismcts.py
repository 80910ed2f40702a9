"""Single-observer Information-Set MCTS (Cowling, Powley & Whitehouse 2012), game-agnostic.

Each iteration draws a determinization with ``state.resample_from_infostate(player, rng)`` (hidden
cards redrawn consistently with what ``player`` knows), descends the tree with UCB1 using
availability counts (children not legal in this determinization are skipped), expands one node,
plays a rollout and backs the result up to each node's acting player. Chance nodes are sampled,
not stored in the tree.

Knobs beyond the plain algorithm (all off by default, so ``ISMCTSBot()`` plays as it always did):

* ``backup="margin"``: rank-and-margin values instead of the win share. A node's value mixes
  (``rank_weight`` : 1 - ``rank_weight``) the rank of its player (1 ahead, 0.5 level, 0 behind, by ``evaluate`` or the final scores) and
  its score margin over the best other player, normalised to 0..1 by the smallest and largest
  margin seen in this search. Solo and co-operative games use the player's own value as the
  margin. Winning by more is preferred, and a lead is worth more than points.
* ``rollout_depth=d``: rollouts stop after ``d`` player actions and are valued by the game's
  ``evaluate`` (``State.evaluate``, from the game's strategy) instead of played to the end.
* ``widening=(k0, alpha)``: progressive widening with greedy priors. When a node is first reached
  its moves are ordered by the acting player's one-ply ``evaluate``; only the first
  ``k0 + visits ** alpha`` of them are searched, best first. ``root_widening=True`` widens
  the root only (its priors are computed once a move; deeper nodes search all their moves, in
  random order): a search cut short by a loaded machine still picks among greedy's best moves.
* ``reuse=True``: the subtree of the moves played since the last search is kept.
* Budgets: ``iterations`` and/or ``max_seconds`` (whichever ends first; ``iterations=None`` means
  time only). ``clock="wall"`` (the default) counts ``max_seconds`` in wall time
  (``time.perf_counter``); ``clock="cpu"`` in the CPU time of the searching thread
  (``time.thread_time``), which other processes on a loaded machine do not take from: with an
  iteration budget and a CPU clock as a safety net, a search plays the same move for the same
  seed however loaded the machine is (unless the net is reached).
"""

from __future__ import annotations

import math
import random
import time
from typing import Sequence

from ..core.game import CHANCE, TERMINAL, State
from .base import Bot
from .greedy import one_ply_values

__all__ = ["ISMCTSBot"]


def _skip_chance(state: State, rng: random.Random) -> int:
    """Apply sampled chance outcomes until a player (or the end) is to move; returns that."""
    cp = state.current_player()
    while cp == CHANCE:
        state.apply_legal(state.sample_chance(rng))
        cp = state.current_player()
    return cp


class _Node:
    __slots__ = ("player", "visits", "total", "margin", "avail", "children", "order", "seen",
                 "ranked", "for_moves", "for_acting", "untried", "kids")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0   # sum of win shares (backup "win") or ranks (backup "margin")
        self.margin = 0.0  # sum of raw margins (backup "margin")
        self.avail = 1
        self.children: dict[tuple[int, int], _Node] = {}
        self.order: dict[int, int] | None = None  # action -> prior rank (widening)
        self.seen: list[int] | None = None  # the legal moves last ranked here (widening)
        self.ranked: list[int] = []  # ``seen`` best prior first
        # The selection cache (see ``_untried``): the candidate moves and acting player of the
        # last visit, their moves without a child yet (in ``for_moves`` order) and, once every
        # one has a child, those children in the same order.
        self.for_moves: list[int] | None = None
        self.for_acting = -1
        self.untried: list[int] = []
        self.kids: list[_Node] | None = None

    def _untried(self, acting: int, moves: list[int]) -> list[int]:
        """``[a for a in moves if (acting, a) not in self.children]``, in ``moves`` order.

        Cached: most visits of a node see the same moves (the observer's own moves at the root;
        a determinization rarely changes the moves of a node below), and a list comparison is
        far cheaper than a dict lookup per move. The list is the cache itself: the caller
        removes the move it expands (the only way a child is added), so it stays equal to the
        comprehension. ``kids`` is dropped whenever the cache is rebuilt.
        """
        if acting != self.for_acting or moves != self.for_moves:
            children = self.children
            self.untried = [a for a in moves if (acting, a) not in children]
            self.for_moves = list(moves)  # a copy: a game may hand out a list it reuses
            self.for_acting = acting
            self.kids = None
        return self.untried

    def _kids(self) -> list[_Node]:
        """The children of the cached moves, in their order (every one has a child)."""
        kids = self.kids
        if kids is None:
            acting, children = self.for_acting, self.children
            assert self.for_moves is not None
            kids = self.kids = [children[(acting, a)] for a in self.for_moves]
        return kids


class ISMCTSBot(Bot):
    """ISMCTS with a budget of ``iterations`` playouts and ``max_seconds`` per move (wall time, or
    the thread's CPU time with ``clock="cpu"``).

    ``exploration`` is the UCB1 constant; the chosen move is the root child with most visits.
    See the module docstring for ``backup``, ``rollout_depth``, ``widening`` and ``reuse``.

    Raises ValueError for a budget that allows no search, an unknown ``backup`` or ``clock``.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 200,
        max_seconds: float = 2.0,
        exploration: float = 0.7,
        backup: str = "win",
        rollout_depth: int | None = None,
        widening: tuple[float, float] | None = None,
        reuse: bool = False,
        rank_weight: float = 0.5,
        root_widening: bool = False,
        clock: str = "wall",
    ) -> None:
        super().__init__(seed)
        if backup not in ("win", "margin"):
            raise ValueError(f"backup: expected 'win' or 'margin', got {backup!r}")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock: expected 'wall' or 'cpu', got {clock!r}")
        if iterations is None and not max_seconds > 0:
            raise ValueError("iterations=None needs a positive max_seconds")
        self.iterations = iterations
        self.max_seconds = max_seconds
        self.exploration = exploration
        self.backup = backup
        self.rollout_depth = rollout_depth
        self.widening = widening
        self.reuse = reuse
        self.rank_weight = rank_weight
        self.root_widening = root_widening
        self.clock = clock
        self._timer = time.perf_counter if clock == "wall" else time.thread_time
        self._root: _Node | None = None
        self._root_moves = -1
        self._lo = math.inf
        self._hi = -math.inf
        self.last_iterations = 0
        """Iterations run by the last ``step`` (for benchmarks)."""

    # ------------------------------------------------------------------ values
    def _values(self, det: State) -> tuple[list[float], list[float]]:
        """``(ranks, margins)`` per player at the end of a rollout (see module docstring)."""
        n = det.num_players
        terminal = det.is_terminal()
        if terminal:
            raw = [float(s.total) for s in det.scores()]
        else:
            raw = [det.evaluate(p) for p in range(n)]
        if n == 1 or det.game.cooperative:
            ranks = det.returns() if terminal else [0.5] * n
            return list(ranks), raw
        ranks, margins = [], []
        for p in range(n):
            other = max(raw[q] for q in range(n) if q != p)
            margins.append(raw[p] - other)
            ranks.append(1.0 if raw[p] > other else 0.5 if raw[p] == other else 0.0)
        if terminal:
            ranks = [1.0 if r > 0 else 0.0 for r in det.returns()]
            best = max(ranks)
            ranks = [0.5 if r == best and sum(ranks) > 1 else r for r in ranks]
        return ranks, margins

    def _q(self, node: _Node) -> float:
        if self.backup == "win":
            return node.total / node.visits
        span = self._hi - self._lo
        m = (node.margin / node.visits - self._lo) / span if span > 0 else 0.5
        w = self.rank_weight
        return w * node.total / node.visits + (1.0 - w) * m

    # ------------------------------------------------------------------ priors
    @staticmethod
    def _prior_order(det: State, acting: int, moves: Sequence[int]) -> dict[int, int]:
        """Move -> rank by the acting player's one-ply evaluate (0 = best)."""
        scored = sorted((-v, a) for a, v in zip(moves, one_ply_values(det, acting, moves)))
        return {a: i for i, (_, a) in enumerate(scored)}

    def _candidates(self, node: _Node, det: State, acting: int, moves: list[int],
                    root: bool = True) -> list[int]:
        """The moves searched at ``node`` (all of them without widening), best prior first."""
        if self.widening is None or (self.root_widening and not root):
            return moves
        if node.order is None:
            node.order = self._prior_order(det, acting, moves)
        if node.seen != moves:  # the same moves in most determinizations: rank them once
            order = node.order
            last = len(order)
            node.seen = list(moves)
            node.ranked = sorted(moves, key=lambda a: order.get(a, last))
        ranked = node.ranked
        k0, alpha = self.widening
        return ranked[: max(1, int(k0 + node.visits ** alpha))]

    # ------------------------------------------------------------------ tree reuse
    def _start_root(self, state: State, player: int) -> _Node:
        root = self._root
        if self.reuse and root is not None and 0 <= self._root_moves <= state.move_number():
            node: _Node | None = root
            for actor, action in state.history()[self._root_moves:]:
                if actor < 0:
                    continue  # chance outcomes are not in the tree
                node = node.children.get((actor, action)) if node is not None else None
            if node is not None:
                return node
        self._lo, self._hi = math.inf, -math.inf
        return _Node(player)

    # ------------------------------------------------------------------ search
    def step(self, state: State, player: int) -> int:
        """The most visited root action after the search."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        root = self._start_root(state, player)
        timer = self._timer
        deadline = timer() + self.max_seconds
        margin = self.backup == "margin"
        win = not margin
        c = self.exploration
        it = 0
        while self.iterations is None or it < self.iterations:
            if it and timer() > deadline:
                break
            it += 1
            det = state.resample_from_infostate(player, rng)
            node = root
            path: list[_Node] = []
            first = True
            while True:
                cp = _skip_chance(det, rng)
                if cp == TERMINAL:
                    break
                if first:
                    # the observer's moves at the root are those of ``state`` in every
                    # determinization (they are part of what the observer knows; checked by
                    # tests/bots/test_ismcts_fast.py): no legal_actions call per iteration
                    acting, legal_now = player, legal
                else:
                    acting, legal_now = cp, det.legal_actions(cp)
                moves = self._candidates(node, det, acting, legal_now, first)
                first = False
                untried = node._untried(acting, moves)
                if untried:
                    ordered = self.widening is not None and (
                        node is root or not self.root_widening)
                    # rng._randbelow(n) is what rng.randrange(n) returns for n > 0 (CPython's
                    # random.py), with the same draws, one Python call fewer
                    i = 0 if ordered else rng._randbelow(len(untried))
                    a = untried.pop(i)
                    child = _Node(acting)
                    node.children[(acting, a)] = child
                    det.apply_legal(a, acting)
                    path.append(child)
                    break
                best = node
                best_a = -1
                best_value = -math.inf
                log, sqrt = math.log, math.sqrt
                for a, ch in zip(moves, node._kids()):
                    ch.avail += 1
                    # win backups: self._q(ch) inlined (the same expression, the same floats)
                    q = ch.total / ch.visits if win else self._q(ch)
                    v = q + c * sqrt(log(ch.avail) / ch.visits)
                    if v > best_value:
                        best_value, best_a, best = v, a, ch
                assert best is not node
                node = best
                det.apply_legal(best_a, acting)
                path.append(node)
            # rollout: random actions, to the end or for rollout_depth player actions (a
            # game may fuse the loop: State.playout keeps the same moves and draws)
            det.playout(rng, self.rollout_depth)
            if margin:
                ranks, margins = self._values(det)
                for m in margins:
                    self._lo = min(self._lo, m)
                    self._hi = max(self._hi, m)
                for n in path:
                    n.visits += 1
                    n.total += ranks[n.player]
                    n.margin += margins[n.player]
            else:
                result = det.returns() if det.is_terminal() else self._values(det)[0]
                for n in path:
                    n.visits += 1
                    n.total += result[n.player]
        self.last_iterations = it
        best_a, best_visits = legal[0], -1
        for a in legal:
            ch = root.children.get((player, a))
            if ch is not None and ch.visits > best_visits:
                best_a, best_visits = a, ch.visits
        if self.reuse:
            self._root = root.children.get((player, best_a))
            self._root_moves = state.move_number() + 1
        return best_a
