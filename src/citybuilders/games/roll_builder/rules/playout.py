"""Roll Builder's fused rollout: :meth:`State.playout` (random moves to the end, the rollout of a
tree search) as one loop over the sheet's fields.

Contract (core/game.py ``State.playout``; tests/bots/test_playout.py and
tests/roll_builder/test_playout.py hold it): the state afterwards, history included, and the
draws taken from ``rng`` are exactly those of the plain loop (``sample_chance`` for a die,
``legal[rng.randrange(len(legal))]`` for a player's move). The loop gets there without the
protocol calls: a die is drawn from the same thresholds as ``sample_chance``; a free move is
counted by parts (the head of die actions, ``done`` and caravans, then the roads, the marks and
the crosses paid with stored wealth, the order of ``LegalMoves._free_actions``) and the chosen one
is found in its part and applied directly; pending gains use ``_pending_actions``' list.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from citybuilders.core.game import CHANCE, State

from ..actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_ROLL, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE,
    A_TRACK, USE_BUILD, USE_ROAD, USE_WONDER,
)
from ..loader import FAVOR, STRENGTH, WEALTH

if TYPE_CHECKING:  # pragma: no cover
    from .player_sheet import PlayerSheet
    from .tables import RollBuilderTables

__all__ = ["Playout"]

_STANDARD_DRAW = random.Random._randbelow_with_getrandbits
"""The ``_randbelow`` of ``random.Random``: ``n.bit_length()`` bits drawn until below ``n``."""


def _thresholds() -> tuple[float, ...]:
    acc, out = 0.0, []
    for _ in range(6):  # the same float sums as State.sample_chance over 1/6 each
        acc += 1 / 6
        out.append(acc)
    return tuple(out)


_DIE_THRESHOLDS = _thresholds()
_NO_UNITS = [0] * 5
"""``pending_resources`` with nothing pending."""
_KINDS = range(5)
_NUMBERS = range(1, 7)


class Playout:
    """Mixin of the state (rules/state.py): the fused :meth:`playout`."""

    __slots__ = ()
    players: list["PlayerSheet"]
    dice: list[int]
    over: bool
    game: "RollBuilderTables"

    def playout(self, rng: random.Random, max_actions: int | None = None) -> None:
        """Play random moves in place: to the end, or until ``max_actions`` player actions
        (:meth:`State.playout`'s contract: the same state and draws as the plain loop).

        An ``rng`` whose class draws integers otherwise than ``random.Random`` takes the plain
        loop."""
        if type(rng)._randbelow is not _STANDARD_DRAW:
            State.playout(self, rng, max_actions)  # type: ignore[arg-type]
            return
        getrandbits = rng.getrandbits
        uniform = rng.random
        record = self._history.append  # type: ignore[attr-defined]
        g = self.game
        players = self.players
        solo = len(players) == 1
        usable = g.usable_edges
        land = g.land_mask
        build_rule = g.build_rule
        combine = g.combine
        all_roads = g.all_roads
        mark_after_road = g.mark_after_road
        immediate = g.immediate
        icon_mask = g.icon_mask
        mountain_mask = g.mountain_mask
        water_markable = g.water_markable
        wealth_circles = g.kind_circles[WEALTH]
        a_road, a_mark, a_cross, a_build = g.A_ROAD, g.A_MARK, g.A_CROSS, g.A_BUILD
        a_wonder = g.A_WONDER
        n_spaces = g.n_spaces
        a_second = a_build + 5 * n_spaces
        kind_circles = g.kind_circles
        circle_kind = [kind for _, kind in g.sheet.circles]
        favor_max, strength_max, wealth_storage = g.favor_max, g.strength_max, g.wealth_storage
        neighbor_mask = g.neighbor_mask
        place_road, mark, cross = self._place_road, self._mark, self._cross  # type: ignore[attr-defined]
        build_sites, wonder_boxes = self._build_sites, self._wonder_boxes  # type: ignore[attr-defined]
        wonder_values = range(1, 13 if combine else 7)
        wonder_ok = [(-1, -1, 0)] * len(players)  # per player: (filled, unlocked, values bitset)
        left = -1 if max_actions is None else max_actions
        while not self.over:
            dice = self.dice
            if len(dice) < 2:
                # State.sample_chance over 1/6 each: the first threshold above the draw
                r = uniform()
                v = 1
                for acc in _DIE_THRESHOLDS:
                    if r < acc:
                        break
                    v += 1
                else:
                    v = 6
                dice.append(v)
                if len(dice) == 2:
                    self.turn_list.append(list(dice))  # type: ignore[attr-defined]
                record((CHANCE, A_ROLL + v - 1))
                continue
            if solo:
                cp = 0
            else:
                cp = 0
                while players[cp].done:
                    cp += 1
            if left == 0:
                return
            left -= 1
            p = players[cp]
            pres = p.pending_resources
            if p.second_mark_of >= 0:
                m = neighbor_mask[p.second_mark_of] & p.connected & land & ~p.built
                n = m.bit_count()
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                while r:
                    m &= m - 1
                    r -= 1
                s = (m & -m).bit_length() - 1
                a = a_second + s
                self._apply(a, cp)  # type: ignore[attr-defined]
                record((cp, a))
                continue
            pib = p.pending_innovation_bonus
            pbuild = p.pending_builds
            pwonder = p.pending_wonders
            if pib or pbuild or pwonder or pres != _NO_UNITS:
                if not (pib or pbuild or pwonder) and immediate:
                    # resources only (LegalMoves._pending_actions, sorted): the tracks, the
                    # storage and the discards (ids 18-25), then the open circles of the kinds
                    # gained, ascending
                    head = []
                    if pres[FAVOR] and p.favor < favor_max:
                        head.append(A_TRACK)
                    if pres[STRENGTH] and p.strength < strength_max:
                        head.append(A_TRACK + 1)
                    if pres[WEALTH] and p.wealth_marked < wealth_storage:
                        head.append(A_STORE)
                    cm = 0
                    for kind in _KINDS:
                        if pres[kind]:
                            head.append(A_DISCARD + kind)
                            cm |= kind_circles[kind]
                    cm &= ~p.crossed
                    nh = len(head)
                    n = nh + cm.bit_count()
                    k = n.bit_length()
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    if r < nh:
                        a = head[r]
                        record((cp, a))
                        if a == A_TRACK:
                            p.favor += 1
                            pres[FAVOR] -= 1
                        elif a == A_TRACK + 1:
                            p.strength += 1
                            pres[STRENGTH] -= 1
                        elif a == A_STORE:
                            pres[WEALTH] -= 1
                            p.wealth_marked += 1
                            p.wealth_marked_this_turn += 1
                        else:
                            pres[a - A_DISCARD] -= 1
                    else:
                        r -= nh
                        while r:
                            cm &= cm - 1
                            r -= 1
                        c = (cm & -cm).bit_length() - 1
                        record((cp, a_cross + 3 * c))
                        pres[circle_kind[c]] -= 1
                        cross(p, c)
                    continue
                if pbuild and not (pib or pwonder or pres != _NO_UNITS):
                    # Build actions only: skip (27), then each building number's sites
                    anyb = 0 in pbuild
                    n = 1
                    sites = []
                    for v in _NUMBERS:
                        if anyb or v in pbuild:
                            m = build_sites(p, v)
                            sites.append((v, m))
                            n += m.bit_count()
                    k = n.bit_length()
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    if r == 0:
                        a = A_SKIP_BUILD
                    else:
                        r -= 1
                        for v, m in sites:
                            c = m.bit_count()
                            if r < c:
                                break
                            r -= c
                        while r:
                            m &= m - 1
                            r -= 1
                        a = a_build + (v - 1) * n_spaces + (m & -m).bit_length() - 1
                elif pwonder and not (pib or pbuild or pres != _NO_UNITS):
                    # Wonder actions only: skip (28), then the boxes any of them may fill
                    m = 0
                    for v in set(pwonder):
                        m |= wonder_boxes(p, v)
                    n = 1 + m.bit_count()
                    k = n.bit_length()
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    if r == 0:
                        a = A_SKIP_WONDER
                    else:
                        r -= 1
                        while r:
                            m &= m - 1
                            r -= 1
                        a = a_wonder + (m & -m).bit_length() - 1
                else:
                    if immediate or pib or pbuild or pwonder:
                        legal = self._pending_actions(p, g)  # type: ignore[attr-defined]
                    else:
                        legal = self._legal_actions(cp)  # type: ignore[attr-defined]
                    n = len(legal)
                    k = n.bit_length()
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    a = legal[r]
                self._apply(a, cp)  # type: ignore[attr-defined]
                record((cp, a))
                continue
            # free moves (LegalMoves._free_actions, counted by parts)
            used = p.dice_used
            connected = p.connected
            roads_m = p.frontier & usable & ~(p.roads | p.blocked)
            head: list[int] = []
            if used != 3:
                free_land = connected & land
                # the die values a Wonder action may use: the same until a box is filled or
                # unlocked (a player's box values change only with ``filled``)
                wc = wonder_ok[cp]
                if wc[0] != p.filled or wc[1] != p.unlocked:
                    ok = 0
                    for v in wonder_values:
                        if wonder_boxes(p, v):
                            ok |= 1 << v
                    wc = wonder_ok[cp] = (p.filled, p.unlocked, ok)
                ok = wc[2]
                for i in (0, 1):
                    if not used >> i & 1:
                        v = dice[i]
                        base = A_DIE + 4 * i
                        if roads_m:
                            head.append(base)
                        restrict, shares, two = build_rule[v]
                        if (build_sites(p, v) if two else
                                free_land & restrict & ~(p.built_twice if shares else p.built)):
                            head.append(base + 1)
                        if ok >> v & 1:
                            head.append(base + 2)
                        head.append(base + 3)
                if combine and used == 0:
                    v = dice[0] + dice[1]
                    if roads_m:
                        head.append(A_BOTH)
                    if v <= 6 and self._can_build(p, v, free_land):  # type: ignore[attr-defined]
                        head.append(A_BOTH + 1)
                    if ok >> v & 1:
                        head.append(A_BOTH + 2)
            elif not (all_roads and p.roads_left and roads_m):
                head.append(A_DONE)
            avail = p.wealth_marked - p.wealth_marked_this_turn - p.wealth_spent
            conv = p.wealth_conversion
            if conv is not None and not p.conversion_used and avail >= conv[0]:
                head.extend(sorted(A_CARAVAN + (0 if c == "favor" else 1) for c in conv[1]))
            nh = len(head)
            rm = roads_m if p.roads_left else 0
            nr = nh + rm.bit_count()
            if not mark_after_road or p.road_actions:
                want = icon_mask
                if p.gain_on_mountain_mark is not None:
                    want |= mountain_mask
                if p.gain_on_water_mark is not None:
                    want |= water_markable
                mm = connected & ~p.marked & want
            else:
                mm = 0
            nm = nr + mm.bit_count()
            cm = wealth_circles & ~p.crossed if avail > 0 else 0
            n = nm + cm.bit_count()
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            if r < nh:
                a = head[r]
                record((cp, a))
                if a < A_DONE:
                    if a >= A_BOTH:
                        p.dice_used = 3
                        kind = a - A_BOTH
                        v = dice[0] + dice[1]
                    else:
                        i, kind = divmod(a - A_DIE, 4)
                        p.dice_used = used | 1 << i
                        v = dice[i]
                    if kind == USE_ROAD:
                        p.roads_left += v + p.extra_roads + (
                            p.first_road_extra if p.road_actions == 0 else 0)
                        p.road_actions += 1
                    elif kind == USE_BUILD:
                        p.pending_builds.append(v)
                    elif kind == USE_WONDER:
                        p.pending_wonders.append(v)
                elif a == A_DONE:
                    self._done(cp)  # type: ignore[attr-defined]
                else:  # caravan
                    p.conversion_used = 1
                    p.wealth_spent += conv[0]  # type: ignore[index]
                    pres[FAVOR if a == A_CARAVAN else STRENGTH] += 1
            elif r < nr:
                r -= nh
                while r:
                    rm &= rm - 1
                    r -= 1
                e = (rm & -rm).bit_length() - 1
                record((cp, a_road + e))
                place_road(p, e)
            elif r < nm:
                r -= nr
                while r:
                    mm &= mm - 1
                    r -= 1
                s = (mm & -mm).bit_length() - 1
                record((cp, a_mark + s))
                mark(p, s)
            else:
                r -= nm
                while r:
                    cm &= cm - 1
                    r -= 1
                c = (cm & -cm).bit_length() - 1
                record((cp, a_cross + 3 * c + 2))
                p.wealth_spent += 1
                cross(p, c)
