"""Kingdom Builder evaluation and the greedy bot's policy (base game and Crossroads).

The value of a position for player ``p`` (used by the one-ply greedy search): gold so far (the 3
Kingdom Builder cards and castles), + 0.5 per location tile held (tiles are extra actions), + 0.01
per settlement on the board (prefer building when the gold is equal); with Crossroads also the task
gold and + 0.01 per hex of a Crossroads piece.
"""

from __future__ import annotations

import random
from typing import Any

from citybuilders.core.view import Strategy

from .actions import BUILD_BASE, END, HEX_BASE, PAIR_BASE
from .rules.board import MOUNTAIN, NEIGHBORS, NUM_HEXES, WATER, dilate
from .rules.crossroads_state import CrossroadsState
from .rules.state import HELD, NONE, KingdomBuilderState
from .rules.tiles import BASE_TILE_IDS, KINDS_BY_BASE, BuildTile, MoveTile
from .scoring import CARD_FUNCS, areas, castles, score_player

__all__ = ["KingdomBuilderStrategy", "base_value", "crossroads_value", "BuildValues"]


def base_value(st: KingdomBuilderState, player: int) -> float:
    """Greedy value of ``st`` for ``player`` in the base game (module docstring)."""
    held = 0
    base = player * st.nloc
    hold = st.hold
    for k in range(st.nloc):
        if hold[base + k] in HELD:
            held += 1
    return (
        score_player(st.board, st.cards, st.occ, player, st.opts)
        + 0.5 * held
        + 0.01 * st.stl[player].bit_count()
    )


def crossroads_value(st: CrossroadsState, player: int) -> float:
    """:func:`base_value` + task gold + 0.01 per Crossroads piece hex of ``player``."""
    return (
        base_value(st, player)
        + sum(st.task_gold(player).values())
        + 0.01 * st.pieces_of(player).bit_count()
    )


_AREA_CARDS = frozenset(("hermits", "citizens", "merchants"))
_NEAR: dict[int, int] = {}
"""``dilate`` of the fixed masks of a board (water, mountains, castles and locations), by mask."""


def _near(mask: int) -> int:
    out = _NEAR.get(mask)
    if out is None:
        if len(_NEAR) > 256:
            _NEAR.clear()
        out = _NEAR[mask] = dilate(mask)
    return out


class BuildValues:
    """:func:`base_value` of ``st`` after ``p`` builds one settlement on a hex (or moves one),
    without a copy of the state: only what the new settlement changes is recomputed. The settlement areas are found
    once (the new one merges the areas it touches); fishermen, miners and workers test the one
    hex; the cheap whole-board cards (lords, farmers, knights, discoverers, castles) are rescored
    on the new bitset; the tile count adds the locations next to the hex that ``p`` never took
    from. Exactly the value of the successor (tests/kingdom_builder/test_strategy_fast.py)."""

    def __init__(self, st: KingdomBuilderState, p: int) -> None:
        self.st, self.p = st, p
        board = st.board
        self.own = st.occ[p]
        self.comps = areas(self.own)
        self.cards = st.cards
        base = p * st.nloc
        self.held = sum(1 for k in range(st.nloc) if st.hold[base + k] in HELD)
        self.stl = st.stl[p].bit_count()
        self.water, self.mountain = board.tmask[WATER], board.tmask[MOUNTAIN]
        self.counts = {
            "fishermen": (self.own & ~self.water & _near(self.water)).bit_count(),
            "miners": (self.own & ~self.mountain & _near(self.mountain)).bit_count(),
            "workers": (self.own & _near(board.special)).bit_count(),
        }

    def value(self, h: int) -> float:
        """:func:`base_value` after a settlement of ``p`` on the empty hex ``h``."""
        bit = 1 << h
        nbr = NEIGHBORS[h]
        merged = bit
        comps = []
        for c in self.comps:
            if c & nbr:
                merged |= c
            else:
                comps.append(c)
        comps.append(merged)
        return self._value(self.own | bit, comps, bit, 0, self.held + self._gained(h),
                           self.stl + 1)

    def value_move(self, src: int, dst: int) -> float:
        """:func:`base_value` after ``p`` moves its settlement from ``src`` to ``dst`` (Barn,
        Harbor, Paddock): the areas are found again, tiles gained next to ``dst`` and (with
        immediate tile loss) lost at ``src`` are counted as ``KingdomBuilderState.move`` does."""
        st, p = self.st, self.p
        sbit, dbit = 1 << src, 1 << dst
        own = (self.own & ~sbit) | dbit
        held = self.held + self._gained(dst)
        if st.loss_immediate:
            base = p * st.nloc
            gained = st.board.hex_locs[dst]
            for k in st.board.hex_locs[src]:
                status = st.hold[base + k]
                if (status in HELD or (k in gained and status == NONE and st.loc_left[k] > 0)) \
                        and not st.board.loc_nbr[k] & own:
                    held -= 1
        return self._value(own, areas(own), dbit, sbit, held, self.stl)

    def _gained(self, h: int) -> int:
        """Location tiles ``p`` takes by arriving on ``h``."""
        st = self.st
        locs = st.board.hex_locs[h]
        n = 0
        if locs:
            base = self.p * st.nloc
            for k in locs:
                if st.hold[base + k] == NONE and st.loc_left[k] > 0:
                    n += 1
        return n

    def _value(self, own: int, comps: list[int], add: int, remove: int, held: int,
               stl: int) -> float:
        st, p = self.st, self.p
        board = st.board
        occ = list(st.occ)
        occ[p] = own
        gold = 0
        for card in self.cards:
            if card == "fishermen":
                m = ~self.water & _near(self.water)
                gold += self.counts[card] + ((add & m) != 0) - ((remove & m) != 0)
            elif card == "miners":
                m = ~self.mountain & _near(self.mountain)
                gold += self.counts[card] + ((add & m) != 0) - ((remove & m) != 0)
            elif card == "workers":
                m = _near(board.special)
                gold += self.counts[card] + ((add & m) != 0) - ((remove & m) != 0)
            elif card == "hermits":
                gold += len(comps)
            elif card == "citizens":
                gold += max((c.bit_count() for c in comps), default=0) // 2
            elif card == "merchants":
                linked = 0
                special = board.special
                for c in comps:
                    touched = dilate(c) & special
                    if touched & (touched - 1):
                        linked |= touched
                gold += 4 * linked.bit_count()
            else:
                gold += CARD_FUNCS[card](board, occ, p, st.opts)
        gold += castles(board, occ, p)
        return gold + 0.5 * held + 0.01 * stl


_HEX_KINDS: dict[int, BuildTile] = {}
_MOVE_KINDS: dict[int, MoveTile] = {}
for _k in KINDS_BY_BASE:
    if _k.id in BASE_TILE_IDS and isinstance(_k, BuildTile):
        _HEX_KINDS[_k.base] = _k
    elif _k.id in BASE_TILE_IDS and isinstance(_k, MoveTile):
        _MOVE_KINDS[_k.base] = _k


def _decode(action: int) -> tuple[int, int]:
    """``(hex, -1)`` for a base-game build, ``(src, dst)`` for a base-game move, else
    ``(-1, -1)`` (end, Crossroads tiles)."""
    if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
        return action - BUILD_BASE, -1
    if HEX_BASE <= action < PAIR_BASE:
        base = HEX_BASE + (action - HEX_BASE) // NUM_HEXES * NUM_HEXES
        if base in _HEX_KINDS:
            return action - base, -1
    elif action >= PAIR_BASE:
        span = NUM_HEXES * NUM_HEXES
        base = PAIR_BASE + (action - PAIR_BASE) // span * span
        if base in _MOVE_KINDS:
            return divmod(action - base, NUM_HEXES)
    return -1, -1


class KingdomBuilderStrategy(Strategy):
    """The greedy bot of Kingdom Builder (see ``core/view.py``)."""

    def evaluate(self, state: Any, player: int) -> float:
        """Value of ``state`` for ``player`` (:func:`base_value` / :func:`crossroads_value`)."""
        if isinstance(state, CrossroadsState):
            return crossroads_value(state, player)
        return base_value(state, player)

    def leaf_search(self, game: Any) -> bool:
        """True with Crossroads: the ``hard`` level then values the search's leaves by
        :meth:`evaluate` instead of random rollouts (bots/levels.py; ``expert`` plays the
        rollout search there too, which beat the leaf search with iteration budgets,
        docs/bots.md)."""
        return "crossroads" in game.options.get("expansions", ())

    def expert_iterations(self, game: Any) -> int | None:
        """Iterations a move of the ``expert`` level (bots/levels.py): 300 with Crossroads,
        whose moves cost more (two cards, more tiles: at 400 the slowest move reached the 1 s
        CPU safety net under load, docs/bots.md); ``None`` (the level's 400) otherwise."""
        return 300 if "crossroads" in game.options.get("expansions", ()) else None

    def one_ply_values(self, state: Any, player: int, moves: Any) -> list[float]:
        """``evaluate(player)`` after each of ``moves`` (legal for ``player``): builds of the
        base game through :class:`BuildValues` (no copy), the rest on ``successor``."""
        if isinstance(state, CrossroadsState):
            return [crossroads_value(state.successor(a, player), player) for a in moves]
        fast: BuildValues | None = None
        out = []
        for a in moves:
            h, dst = _decode(a)
            if h < 0:
                out.append(base_value(state.successor(a, player), player))
                continue
            if fast is None:
                fast = BuildValues(state, player)
            out.append(fast.value(h) if dst < 0 else fast.value_move(h, dst))
        return out

    def greedy_action(self, state: Any, player: int, rng: random.Random) -> int | None:
        """One-ply greedy: the legal action with the best value afterwards; ties broken at
        random with ``rng``; ``end`` only when nothing improves the value (tiles get used)."""
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        value = crossroads_value if isinstance(state, CrossroadsState) else base_value
        values = self.one_ply_values(state, player, legal)
        best: list[int] = []
        best_v = float("-inf")
        for a, v in zip(legal, values):
            if a == END:
                v = value(state, player) - 1e-6
            if v > best_v + 1e-9:
                best_v, best = v, [a]
            elif v > best_v - 1e-9:
                best.append(a)
        return best[rng.randrange(len(best))]
