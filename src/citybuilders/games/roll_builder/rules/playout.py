"""Roll Builder's fused rollout: :meth:`State.playout` (random moves to the end, the rollout of a
tree search) as one loop over the sheet's fields.

Contract (core/game.py ``State.playout``; tests/bots/test_playout.py and
tests/roll_builder/test_playout.py hold it): the state afterwards, history included, and the
draws taken from ``rng`` are exactly those of the plain loop (``sample_chance`` for a die,
``legal[rng.randrange(len(legal))]`` for a player's move). The loop gets there without the
protocol calls: a die is drawn from the same thresholds as ``sample_chance``; a free move is
counted by parts (the head of die actions, ``done`` and caravans, then the roads, the marks and
the crosses paid with stored wealth, the order of ``LegalMoves._free_actions``) and the chosen one
is found in its part and applied directly; pending resources, Build and Wonder actions are
counted the same way (their mixes and the other rules options take ``_pending_actions``' or
``_legal_actions``' list). A player's moves run in an inner loop until they press ``done``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from citybuilders.core.game import CHANCE, State

from ..actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_ROLL, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE,
    A_TRACK, USE_BUILD, USE_ROAD, USE_WONDER,
)
from ..loader import FAVOR, STRENGTH, WEALTH

from .bits import nth_bit

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
_NUMBERS = range(1, 7)
_DONE_HEAD = (A_DONE,)


def _die_heads() -> list[tuple[int, ...]]:
    """The die actions of a free move (ids 6-13, ascending) per key: bits 0-1 the dice used
    (``dice_used`` < 3), bit 2 a road may be placed, bits 3/4 die 1/2 can build, bits 5/6 die 1/2
    can fill a wonder box (the order of ``LegalMoves._free_actions``)."""
    out = []
    for key in range(128):
        head = []
        for i in (0, 1):
            if not key >> i & 1:
                base = A_DIE + 4 * i
                if key >> 2 & 1:
                    head.append(base)
                if key >> 3 + i & 1:
                    head.append(base + 1)
                if key >> 5 + i & 1:
                    head.append(base + 2)
                head.append(base + 3)
        out.append(tuple(head))
    return out


_DIE_HEADS = _die_heads()


def _gained(units: tuple[int, ...], kind_circles: list[int]) -> tuple[tuple[int, ...], int]:
    """``(discard actions, circles of the kinds)`` for the resource kinds with units in
    ``units`` (pending resources), in id order."""
    kinds = [k for k in range(5) if units[k]]
    mask = 0
    for k in kinds:
        mask |= kind_circles[k]
    return tuple(A_DISCARD + k for k in kinds), mask


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
        turn_list = self.turn_list  # type: ignore[attr-defined]
        g = self.game
        players = self.players
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
        kind_circles = g.kind_circles
        wealth_circles = kind_circles[WEALTH]
        a_road, a_mark, a_build, a_wonder, a_cross = (g.A_ROAD, g.A_MARK, g.A_BUILD, g.A_WONDER,
                                                      g.A_CROSS)
        n_spaces = g.n_spaces
        circle_kind = g.circle_kind
        favor_max, strength_max, wealth_storage = g.favor_max, g.strength_max, g.wealth_storage
        neighbor_mask = g.neighbor_mask
        s_: Any = self  # the state (LegalMoves, Moves): its rules as local names
        place_road, mark, cross, build, fill_box, done = (
            s_._place_road, s_._mark, s_._cross, s_._build, s_._fill_box, s_._done)
        build_sites, wonder_boxes = s_._build_sites, s_._wonder_boxes
        gained = g.units_memo
        wonder_memo = g.wonder_memo
        ascending = g.ascending
        wonder_values = range(1, 13 if combine else 7)
        no_units = _NO_UNITS
        wonder_ok = [(-1, -1, 0)] * len(players)  # per player: (filled, unlocked, values bitset)
        left = -1 if max_actions is None else max_actions
        while not self.over:
            dice = self.dice
            if len(dice) < 2:
                # State.sample_chance over 1/6 each: the first threshold above the draw (6
                # when the draw is above the last sum); the turn's second die, or both
                if not dice:
                    v = bisect_right(_DIE_THRESHOLDS, uniform()) + 1
                    dice.append(6 if v > 6 else v)
                    record((CHANCE, A_ROLL + dice[0] - 1))
                v = bisect_right(_DIE_THRESHOLDS, uniform()) + 1
                dice.append(6 if v > 6 else v)
                record((CHANCE, A_ROLL + dice[1] - 1))
                turn_list.append(list(dice))
            cp = 0
            while players[cp].done:
                cp += 1
            p = players[cp]
            d0, d1 = dice
            restrict0, shares0, two0 = build_rule[d0]
            restrict1, shares1, two1 = build_rule[d1]
            # what a free move may do, kept between moves (-1: to compute): the road edges, the
            # spaces worth an X, the marks, the crosses paid with stored wealth and the die
            # values of a Wonder action; a cross may discover an innovation, which may change
            # them all
            roads_m = want = mm = nw = wok = -1
            caravans: tuple[int, ...] = ()
            wm = nroads = nmarks = 0
            while True:  # this player's moves until they press done
                if left == 0:
                    return
                left -= 1
                pres = p.pending_resources
                if (pres != no_units or p.pending_builds or p.pending_wonders
                        or p.pending_innovation_bonus or p.second_mark_of >= 0):
                    pbuild = p.pending_builds
                    pwonder = p.pending_wonders
                    pib = p.pending_innovation_bonus
                    if p.second_mark_of >= 0:
                        m = neighbor_mask[p.second_mark_of] & p.connected & land & ~p.built
                        n = m.bit_count()
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        s = nth_bit(m, r, n)
                        record((cp, a_build + 5 * n_spaces + s))
                        s_._build_second(p, 6, s)
                        mm = -1  # building_uses_space marks the space
                    elif not (pib or pbuild or pwonder) and immediate:
                        # resources only (LegalMoves._pending_actions, sorted): the tracks, the
                        # storage and the discards (ids 18-25), then the open circles of the
                        # kinds gained, ascending
                        head = []
                        if pres[FAVOR] and p.favor < favor_max:
                            head.append(A_TRACK)
                        if pres[STRENGTH] and p.strength < strength_max:
                            head.append(A_TRACK + 1)
                        if pres[WEALTH] and p.wealth_marked < wealth_storage:
                            head.append(A_STORE)
                        units = tuple(pres)
                        kinds = gained.get(units)
                        if kinds is None:
                            kinds = _gained(units, kind_circles)
                            if len(gained) >= 4096:
                                gained.clear()
                            gained[units] = kinds
                        head += kinds[0]
                        cm = kinds[1] & ~p.crossed
                        nh = len(head)
                        nc = cm.bit_count()
                        n = nh + nc
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
                            c = nth_bit(cm, r - nh, nc)
                            record((cp, a_cross + 3 * c))
                            pres[circle_kind[c]] -= 1
                            cross(p, c)
                            roads_m = want = mm = nw = wok = -1
                    elif pbuild and not (pib or pwonder or pres != _NO_UNITS):
                        # Build actions only: skip (27), then each building number's sites
                        anyb = 0 in pbuild
                        n = 1
                        sites = []
                        for v in _NUMBERS:
                            if anyb or v in pbuild:
                                m = build_sites(p, v)
                                if m:
                                    c = m.bit_count()
                                    sites.append((v, m, c))
                                    n += c
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        if r == 0:
                            record((cp, A_SKIP_BUILD))
                            pbuild.pop(0)
                        else:
                            r -= 1
                            for v, m, c in sites:
                                if r < c:
                                    break
                                r -= c
                            s = nth_bit(m, r, c)
                            record((cp, a_build + (v - 1) * n_spaces + s))
                            build(p, v, s)
                            mm = -1
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
                            record((cp, A_SKIP_WONDER))
                            pwonder.pop(0)
                        else:
                            i = nth_bit(m, r - 1, n - 1)
                            record((cp, a_wonder + i))
                            fill_box(p, i)
                            wok = -1
                    else:
                        if immediate or pib or pbuild or pwonder:
                            legal = s_._pending_actions(p, g)
                        else:
                            legal = s_._legal_actions(cp)
                        n = len(legal)
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        a = legal[r]
                        record((cp, a))
                        s_._apply(a, cp)
                        roads_m = want = mm = nw = wok = -1
                        if p.done or self.dice is not dice:
                            break  # done (end_of_turn resources list it): the next player
                    continue
                # free moves (LegalMoves._free_actions, counted by parts)
                used = p.dice_used
                if roads_m < 0:
                    x = p.frontier & usable
                    roads_m = x ^ (x & (p.roads | p.blocked))  # x & ~(...), no negative int
                    nroads = roads_m.bit_count()
                if used != 3:
                    free_land = p.connected & land
                    if wok < 0:
                        # the die values a Wonder action may use: the same until a box is filled
                        # or unlocked (a player's box values change only with ``filled``)
                        wc = wonder_ok[cp]
                        if wc[0] != p.filled or wc[1] != p.unlocked:
                            key = (p.filled, p.unlocked, tuple(p.box_values) if ascending else ())
                            wok = wonder_memo.get(key)
                            if wok is None:
                                wok = 0
                                for v in wonder_values:
                                    if wonder_boxes(p, v):
                                        wok |= 1 << v
                                if len(wonder_memo) >= 4096:
                                    wonder_memo.clear()
                                wonder_memo[key] = wok
                            wc = wonder_ok[cp] = (p.filled, p.unlocked, wok)
                        wok = wc[2]
                    key = used | 4 if roads_m else used
                    if not used & 1:
                        if two0:
                            if build_sites(p, d0):
                                key |= 8
                        else:
                            x = free_land & restrict0
                            if x & (p.built_twice if shares0 else p.built) != x:
                                key |= 8
                        if wok >> d0 & 1:
                            key |= 32
                    if not used & 2:
                        if two1:
                            if build_sites(p, d1):
                                key |= 16
                        else:
                            x = free_land & restrict1
                            if x & (p.built_twice if shares1 else p.built) != x:
                                key |= 16
                        if wok >> d1 & 1:
                            key |= 64
                    head = _DIE_HEADS[key]
                    if combine and used == 0:  # both dice summed on one action
                        v = d0 + d1
                        summed = [A_BOTH] if roads_m else []
                        if v <= 6 and s_._can_build(p, v, free_land):
                            summed.append(A_BOTH + 1)
                        if wok >> v & 1:
                            summed.append(A_BOTH + 2)
                        head += tuple(summed)
                elif all_roads and p.roads_left and roads_m:
                    head = ()
                else:
                    head = _DONE_HEAD
                if nw < 0:  # the caravans and the crosses paid with stored wealth
                    avail = p.wealth_marked - p.wealth_marked_this_turn - p.wealth_spent
                    conv = p.wealth_conversion
                    caravans = (tuple(sorted(A_CARAVAN + (0 if c == "favor" else 1)
                                             for c in conv[1]))
                                if conv is not None and not p.conversion_used
                                and avail >= conv[0] else ())
                    wm = wealth_circles & ~p.crossed if avail > 0 else 0
                    nw = wm.bit_count()
                if caravans:
                    head += caravans
                nh = len(head)
                nr = nh + nroads if p.roads_left else nh
                if mm < 0:
                    if want < 0:  # the spaces whose X gains something (abilities included)
                        want = icon_mask
                        if p.gain_on_mountain_mark is not None:
                            want |= mountain_mask
                        if p.gain_on_water_mark is not None:
                            want |= water_markable
                    if not mark_after_road or p.road_actions:
                        x = p.connected & want
                        mm = x ^ (x & p.marked)
                    else:
                        mm = 0
                    nmarks = mm.bit_count()
                nm = nr + nmarks
                n = nm + nw
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
                            v = d0 + d1
                        elif a >= A_DIE + 4:
                            p.dice_used = used | 2
                            kind = a - A_DIE - 4
                            v = d1
                        else:
                            p.dice_used = used | 1
                            kind = a - A_DIE
                            v = d0
                        if kind == USE_ROAD:
                            p.roads_left += v + p.extra_roads + (
                                p.first_road_extra if p.road_actions == 0 else 0)
                            p.road_actions += 1
                            mm = -1  # marking may wait for a Road action
                        elif kind == USE_BUILD:
                            p.pending_builds.append(v)
                        elif kind == USE_WONDER:
                            p.pending_wonders.append(v)
                    elif a == A_DONE:
                        done(cp)
                        if p.done or self.dice is not dice:
                            break  # (not a turn bonus): the next player, or the next turn
                    else:  # caravan
                        p.conversion_used = 1
                        p.wealth_spent += p.wealth_conversion[0]  # type: ignore[index]
                        pres[FAVOR if a == A_CARAVAN else STRENGTH] += 1
                        nw = -1
                elif r < nr:
                    e = nth_bit(roads_m, r - nh, nroads)
                    record((cp, a_road + e))
                    place_road(p, e)
                    roads_m = mm = wok = -1  # (a milestone may unlock wonder boxes)
                elif r < nm:
                    s = nth_bit(mm, r - nr, nmarks)
                    record((cp, a_mark + s))
                    mark(p, s)
                    mm ^= 1 << s  # the same connected spaces and wanted icons
                    nmarks -= 1
                    wok = -1  # the space may unlock wonder boxes
                else:
                    c = nth_bit(wm, r - nm, nw)
                    record((cp, a_cross + 3 * c + 2))
                    p.wealth_spent += 1
                    cross(p, c)
                    roads_m = want = mm = nw = wok = -1
