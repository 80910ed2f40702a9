"""ISMCTS's fast selection gives exactly the searches of the straightforward loop.

``bots/ismcts.py`` takes the root's moves from the searched state instead of asking every
determinization, caches each node's untried moves and children between visits, inlines the
win-share value and draws with ``rng._randbelow``. :class:`ReferenceISMCTS` below is the search
loop as it was before (issue 16's start, ``b14b9c6``, plus the later knobs), one legal-move list
per node per iteration; both must pick the same move and leave the same random state on
positions of every game with every knob.
"""

from __future__ import annotations

import math
import random
import time

import pytest

import citybuilders
from plain_playout import plain_playout
from citybuilders.bots import ISMCTSBot
from citybuilders.bots.ismcts import _Node, _skip_chance
from citybuilders.core.game import CHANCE, TERMINAL, State

GAMES = [("kingdom-builder", {}, 2), ("kingdom-builder", {"expansions": ["crossroads"]}, 3),
         ("sprawlopolis", {}, 1), ("sprawlopolis", {}, 2), ("roll-into-town", {}, 1),
         ("roll-into-town", {}, 2), ("roll-builder", {}, 1), ("roll-builder", {}, 2)]
SETTINGS = [
    dict(iterations=40),
    dict(iterations=30, backup="margin", rollout_depth=3),
    dict(iterations=30, backup="margin", rollout_depth=0, widening=(1, 0.5)),
    dict(iterations=30, backup="margin", widening=(2, 0.5), root_widening=True, reuse=True),
]


class ReferenceISMCTS(ISMCTSBot):
    """The straightforward search loop (a legal-move list and a comprehension per node)."""

    def step(self, state: State, player: int) -> int:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        root = self._start_root(state, player)
        deadline = time.perf_counter() + self.max_seconds
        margin = self.backup == "margin"
        c = self.exploration
        it = 0
        while self.iterations is None or it < self.iterations:
            if it and time.perf_counter() > deadline:
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
                acting = player if first else cp
                moves = self._candidates(node, det, acting, det.legal_actions(acting), first)
                first = False
                untried = [a for a in moves if (acting, a) not in node.children]
                if untried:
                    ordered = self.widening is not None and (
                        node is root or not self.root_widening)
                    a = untried[0] if ordered else untried[rng.randrange(len(untried))]
                    child = _Node(acting)
                    node.children[(acting, a)] = child
                    det.apply_legal(a, acting)
                    path.append(child)
                    break
                best = None
                best_value = -math.inf
                for a in moves:
                    ch = node.children[(acting, a)]
                    ch.avail += 1
                    v = self._q(ch) + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best_value:
                        best_value, best = v, (a, ch)
                assert best is not None
                a, node = best
                det.apply_legal(a, acting)
                path.append(node)
            plain_playout(det, rng, self.rollout_depth)
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


def _game_positions(name: str, options: dict, players: int, seed: int, every: int):
    """``(state, player)`` every ``every`` player moves of a seeded random game."""
    s = citybuilders.load_game(name, **options).new_initial_state(players, seed)
    rng = random.Random(seed)
    moves = 0
    while s.current_player() != TERMINAL:
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        active = s.active_players()
        p = active[rng.randrange(len(active))]
        if moves % every == 3 % every:
            yield s, p
        s.apply_legal(s.sample_action(rng, p), p)
        moves += 1


def _next_turn(s: State, p: int, action: int, seed: int) -> State | None:
    """``s`` after ``p`` plays ``action`` and random moves until ``p`` (with a choice) is to act
    again, or None if the game ends first."""
    s = s.clone()
    s.apply_legal(action, p)
    rng = random.Random(seed)
    while s.current_player() != TERMINAL:
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
            continue
        active = s.active_players()
        if p in active and len(s.legal_actions(p)) > 1:
            return s
        q = active[rng.randrange(len(active))]
        s.apply_legal(s.sample_action(rng, q), q)
    return None


@pytest.mark.parametrize("name,options,players", GAMES,
                         ids=lambda v: v if isinstance(v, (str, int)) else None)
def test_resampling_keeps_the_observers_moves(name: str, options: dict, players: int) -> None:
    """What the root of the fast search relies on: a determinization for ``p`` offers ``p``
    exactly the moves (same order) of the real state."""
    n = 0
    for seed in range(3):
        for s, p in _game_positions(name, options, players, seed, 2):
            legal = s.legal_actions(p)
            for k in range(2):
                det = s.resample_from_infostate(p, random.Random(n * 31 + k))
                assert det.legal_actions(p) == legal
            n += 1
    assert n > 20


@pytest.mark.parametrize("name,options,players", GAMES,
                         ids=lambda v: v if isinstance(v, (str, int)) else None)
def test_fast_search_is_the_reference_search(name: str, options: dict, players: int) -> None:
    n = reused = 0
    for s, p in _game_positions(name, options, players, 11, 9):
        if len(s.legal_actions(p)) < 2:
            continue
        for i, kw in enumerate(SETTINGS):
            fast = ISMCTSBot(n + i, max_seconds=600.0, **kw)
            ref = ReferenceISMCTS(n + i, max_seconds=600.0, **kw)
            a = fast.step(s.clone(), p)
            assert a == ref.step(s.clone(), p)
            assert fast.rng.getstate() == ref.rng.getstate()
            assert fast.last_iterations == ref.last_iterations
            if kw.get("reuse"):  # the next search of p starts from the kept subtree
                later = _next_turn(s, p, a, n)
                if later is not None:
                    assert fast._root is not None and ref._root is not None
                    assert fast.step(later.clone(), p) == ref.step(later.clone(), p)
                    assert fast.rng.getstate() == ref.rng.getstate()
                    reused += 1
        n += 1
        if n >= 4:
            break
    assert n >= 2 and reused >= 1


def test_randbelow_is_randrange() -> None:
    """``rng._randbelow(n)`` (the fast paths' draw) returns and consumes exactly what
    ``rng.randrange(n)`` does for every ``n >= 1``."""
    a, b = random.Random(7), random.Random(7)
    for n in list(range(1, 300)) + [2 ** k + d for k in range(9, 70, 7) for d in (-1, 0, 1)]:
        assert a._randbelow(n) == b.randrange(n)
    assert a.getstate() == b.getstate()
