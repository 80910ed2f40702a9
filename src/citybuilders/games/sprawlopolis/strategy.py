"""Sprawlopolis evaluation, greedy policy and planner (:class:`SprawlopolisStrategy`).

Imports the rules; never imported by them (``game.py`` sets ``strategy = SprawlopolisStrategy()``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

from ...core.view import Strategy
from .actions import decode, encode
from .loader import card_blocks_fast
from .rules.city import RECT
from .scoring import total_of

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State
    from .rules.state import SprawlopolisState

__all__ = ["SprawlopolisStrategy", "scan_plays", "PLAN_RATE"]

PLAN_RATE = 3000
"""Play evaluations (one whole-city score each) the planner allows itself per second of its
budget: about what this machine scores under load (a greedy move scores 300-800 plays in
~0.08 s on a quiet machine). The budget is a count, not a clock, so a planned move is the same
for the same seed on any machine; its time is measured by ``benchmarks/bench_bots.py``."""


def scan_plays(s: "SprawlopolisState", cards: "list[int] | set[int]") -> list[tuple[int, int]]:
    """Every play of ``cards`` on the city of ``s`` as ``(total after the play, action id)``,
    in card, rotation, position order (each play scored in place and undone: no clone).

    Shapes: ``cards`` card numbers (1..18; duplicates ignored); the positions are the state's
    legal top-left cells (:meth:`SprawlopolisState._positions`)."""
    city = s.city
    cells, occ = city.cells, city.occ
    conds, rules = s.conditions, s.game.rules  # type: ignore[attr-defined]
    poss = s._positions()
    out: list[tuple[int, int]] = []
    for card in sorted(set(cards)):
        for rot in (0, 1):
            codes = card_blocks_fast(card, rot)
            for p in poss:
                saved = [cells[p + d] for d in RECT]
                n0 = len(occ)
                for d, code in zip(RECT, codes):
                    i = p + d
                    if not cells[i]:
                        occ.append(i)
                    cells[i] = code
                out.append((total_of(cells, occ, conds, rules), encode(card, p, rot)))
                for d, old in zip(RECT, saved):
                    cells[p + d] = old
                del occ[n0:]
    return out


class SprawlopolisStrategy(Strategy):
    """Team score as the value; greedy = the best immediate total."""

    search_helps = False
    """The level search (bots/levels.py) gets 1-2 iterations a second here (its greedy priors
    score ~300 plays with the whole-city analysis), so ``hard``/``expert`` would only replay the
    greedy choice more slowly: they play the in-place greedy instead (benchmarks/bench_search.py),
    where :meth:`planned_action` (which those levels ask first) leaves the move to greedy."""

    def evaluate(self, state: "State", player: int) -> float:
        """The current total score (blocks − roads + conditions; the same for every player)."""
        return float(state.breakdown().total)  # type: ignore[attr-defined]

    def one_ply_values(self, state: "State", player: int, moves: Sequence[int]) -> list[float]:
        """``evaluate`` after each of ``moves`` (plays legal for ``player``), equal to
        clone-apply-evaluate: each play is put on the city's cells in place, scored with
        :func:`.scoring.total_of` and undone (ISMCTS's greedy priors)."""
        s: SprawlopolisState = state  # type: ignore[assignment]
        city = s.city
        cells, occ = city.cells, city.occ
        conds, rules = s.conditions, s.game.rules  # type: ignore[attr-defined]
        out: list[float] = []
        for a in moves:
            card, p, rot = decode(a)
            saved = [cells[p + d] for d in RECT]
            n0 = len(occ)
            for d, code in zip(RECT, card_blocks_fast(card, rot)):
                i = p + d
                if not cells[i]:
                    occ.append(i)
                cells[i] = code
            out.append(float(total_of(cells, occ, conds, rules)))
            for d, old in zip(RECT, saved):
                cells[p + d] = old
            del occ[n0:]
        return out

    def greedy_action(self, state: "State", player: int, rng: random.Random) -> int | None:
        """Best immediate total (blocks − roads + conditions) over all legal plays; random ties
        (one ``rng.randrange`` over the best plays in card, rotation, position order).

        Each play is scored in place on the city's cells and undone (no clone per action).
        Returns None when ``player`` is not to play.
        """
        s: SprawlopolisState = state  # type: ignore[assignment]
        if s.current_player() != player:
            return None
        best: list[int] = []
        best_v = None
        for v, action in scan_plays(s, s.hands[player]):
            if best_v is None or v > best_v:
                best_v = v
                best = [action]
            elif v == best_v:
                best.append(action)
        if not best:
            return None
        return best[rng.randrange(len(best))]

    def planned_action(self, state: "State", player: int, rng: random.Random,
                       seconds: float) -> int | None:
        """A two-ply look-ahead over the cards the player knows (solo games only).

        In solo play the player sees their 3 cards and the face-up top card of the deck, which
        they draw after this play: the next hand is known. The planner scores every play of the
        hand (as greedy does), keeps the best ``K`` of them (``K`` from the budget, see
        :data:`PLAN_RATE`), and values each by the best total of the following play with the
        two cards left and the top card (the cards below the top are never looked at: the next
        play after that only gains options from them). The move is the one with the best
        second-ply total, then the best first-ply total; random ties (one ``rng.randrange``).
        On the last play, or with a budget for one ply only, it is the greedy move.

        Returns None when ``player`` is not to play or the game has more than one player (the
        co-operative hands pass on; those levels play greedy).
        """
        s: SprawlopolisState = state  # type: ignore[assignment]
        if s.num_players != 1 or s.current_player() != player:
            return None
        first = scan_plays(s, s.hands[player])
        if not first:
            return None
        budget = int(seconds * PLAN_RATE) - len(first)
        left_plays = 15 - len(s.city.placements)  # plays still to make, this one included
        per_node = max(1, len(first) * 4 // 3)
        k = min(len(first), budget // per_node) if left_plays > 1 else 0
        if k < 2:
            best_v = max(v for v, _ in first)
            best = [a for v, a in first if v == best_v]
            return best[rng.randrange(len(best))]
        first.sort(key=lambda va: (-va[0], va[1]))
        scored: list[tuple[int, int, int]] = []
        for v1, a in first[:k]:
            nxt = s.clone()
            nxt._apply(a, player)
            second = scan_plays(nxt, nxt.hands[player])
            v2 = max((v for v, _ in second), default=v1)
            scored.append((v2, v1, a))
        top = max((v2, v1) for v2, v1, _ in scored)
        best = sorted(a for v2, v1, a in scored if (v2, v1) == top)
        return best[rng.randrange(len(best))]
