"""Sprawlopolis evaluation and greedy policy (:class:`SprawlopolisStrategy`).

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

__all__ = ["SprawlopolisStrategy"]


class SprawlopolisStrategy(Strategy):
    """Team score as the value; greedy = the best immediate total."""

    search_helps = False
    """The level search (bots/levels.py) gets 1-2 iterations a second here (its greedy priors
    score ~300 plays with the whole-city analysis), so ``hard``/``expert`` would only replay the
    greedy choice more slowly: they play the in-place greedy instead (benchmarks/bench_search.py)."""

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
        city = s.city
        cells, occ = city.cells, city.occ
        conds, rules = s.conditions, s.game.rules  # type: ignore[attr-defined]
        poss = s._positions()
        best: list[int] = []
        best_v = None
        for card in sorted(set(s.hands[player])):
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
                    v = total_of(cells, occ, conds, rules)
                    for d, old in zip(RECT, saved):
                        cells[p + d] = old
                    del occ[n0:]
                    if best_v is None or v > best_v:
                        best_v = v
                        best = [encode(card, p, rot)]
                    elif v == best_v:
                        best.append(encode(card, p, rot))
        if not best:
            return None
        return best[rng.randrange(len(best))]
