"""Roll into Town's fused playout (rules/playout.py) against the plain protocol it stands for.

Each step (discover, build, collect, maintenance) is one random move drawn and applied: it must
equal ``legal = s.legal_actions(p); s.apply_legal(legal[rng.randrange(len(legal))], p)`` for
every index the draw may give (a stand-in rng returns the index and records the bound asked
for), on positions of random and greedy games under several rules options. Also: the sheet's
kept income counts against a recount, and the phase entries' "no choice" flags against the
reference legal lists of tests/roll_into_town/test_fast_moves.py.
"""

from __future__ import annotations

import random
from typing import Iterator

import pytest
from rit_helpers import game
from test_fast_moves import OPTION_SETS, ref_legal
from test_fast_sheet import ref_income, ref_lumberjacks

from citybuilders.bots import make_bot
from citybuilders.core.game import CHANCE, TERMINAL
from citybuilders.games.roll_into_town.actions import BUILD, COLLECT, DISCOVER, MAINTAIN
from citybuilders.games.roll_into_town.rules.playout import (build_step, collect_step,
                                                             discover_step, maintain_step)

STEPS = {DISCOVER: discover_step, BUILD: build_step, COLLECT: collect_step,
         MAINTAIN: maintain_step}
OPTIONS = OPTION_SETS + [{"watermill_rule": "non_flow_side",
                          "river_connect_rule": "touches_opposite_edges"}]


class _Pick:
    """A stand-in rng whose draw is ``k`` (``_randbelow`` is the only draw the steps make)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.bounds: list[int] = []

    def _randbelow(self, n: int) -> int:
        self.bounds.append(n)
        assert 0 <= self.k < n
        return self.k


def _positions(opts: dict, games: int, bot: str) -> Iterator[tuple]:
    """``(state, player)`` for every player to act along ``games`` seeded games of ``bot``."""
    g = game(**opts)
    for seed in range(games):
        players = 1 + seed % 3
        s = g.new_initial_state(players, seed)
        rng = random.Random(seed)
        bots = [make_bot(bot, seed * 7 + p) for p in range(players)]
        while s.current_player() != TERMINAL:
            cp = s.current_player()
            if cp == CHANCE:
                s.apply_legal(s.sample_chance(rng))
                continue
            active = s.active_players()
            for p in active:
                yield s, p
            p = active[rng.randrange(len(active))]
            s.apply_legal(bots[p].step(s, p), p)


def _snapshot(s) -> tuple:
    """Everything of a state: its JSON (history included) and each sheet's derived fields."""
    return s.to_json(), [(sh.free, sh.trees, sh._income) for sh in s.sheets]


@pytest.mark.parametrize("opts", OPTIONS, ids=str)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_each_step_is_the_list_draw_for_every_index(opts: dict, bot: str) -> None:
    pick_rng = random.Random(1)
    seen = {ph: 0 for ph in STEPS}
    for s, p in _positions(opts, 2, bot):
        legal = s.clone().legal_actions(p)
        n = len(legal)
        ks = range(n) if n <= 8 else sorted({0, n - 1, *pick_rng.sample(range(n), 6)})
        for k in ks:
            fast, plain = s.clone(), s.clone()
            rng = _Pick(k)
            STEPS[s.phase](fast, p, rng)
            plain.apply_legal(legal[k], p)
            assert rng.bounds == [n], (s.phase, legal)
            assert _snapshot(fast) == _snapshot(plain), (s.phase, legal[k])
        # a real rng: the same move and the same draws (rng._randbelow is rng.randrange)
        fast, plain = s.clone(), s.clone()
        r1, r2 = random.Random(n), random.Random(n)
        STEPS[s.phase](fast, p, r1)
        plain.apply_legal(legal[r2.randrange(n)], p)
        assert _snapshot(fast) == _snapshot(plain)
        assert r1.getstate() == r2.getstate()
        seen[s.phase] += 1
    assert seen[DISCOVER] > 20 and seen[BUILD] > 20, seen
    if bot == "random":  # greedy players seldom cut or grow
        assert seen[COLLECT] and seen[MAINTAIN], seen
    print(seen)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_kept_counts_and_phase_entries_match_the_references(bot: str) -> None:
    entries = incomes = 0
    for opts in OPTIONS[:3] if bot == "random" else OPTIONS[:1]:  # (greedy games are slower)
        for s, p in _positions(opts, 3, bot):
            for sh in s.sheets:
                assert sh.income() == ref_income(sh)
                assert sh._income == sh.income_parts()
                assert sh.lumberjacks_with_trees() == ref_lumberjacks(sh)
                assert sh.clone().income() == sh.income()
                incomes += 1
            if s.move_number() == s.phase_start and p == s.active_players()[0]:
                # the phase just started: a player was passed over exactly when the only
                # legal action would have been done
                for q in range(s.num_players):
                    c = s.clone()
                    c.done[q] = False
                    assert s.done[q] == (ref_legal(c, q) == [c.game.A_DONE]), (s.phase, q)
                entries += 1
    assert entries > 20 and incomes > 100
