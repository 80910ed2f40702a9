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

What a free move may do is kept in locals between moves and recomputed only after a move that
changes what it reads (a road: the open edges, and the marks and die actions when it connects new
spaces; a die action: the die actions; a cross that discovers an innovation: everything); the
pending fields are tested only after a move that may gain something (``_place_road`` and
``_cross`` say whether they gained or discovered). A solo player's next turn keeps the parts the
end of a turn does not touch. tests/roll_builder/test_playout.py checks it all against the plain
loop on every sheet and rules option.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import repeat
from typing import TYPE_CHECKING, Any

from citybuilders.core.game import CHANCE, State

from ..actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_ROLL, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE,
    A_TRACK, DISCARD_BONUS, PAY_BONUS, USE_BUILD, USE_ROAD, USE_WONDER,
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
_DIE_VALUE = (1, 2, 3, 4, 5, 6, 6)
"""The die value per ``bisect_right(_DIE_THRESHOLDS, draw)`` (6: the draw is above the last sum)."""
_ROLLED = tuple((CHANCE, A_ROLL + v - 1) for v in _DIE_VALUE)
"""The history entry of each die value of :data:`_DIE_VALUE` (shared tuples)."""
_NO_UNITS = [0] * 5
"""``pending_resources`` with nothing pending."""
_NUMBERS = range(1, 7)
_DONE_HEAD = (A_DONE,)


def _die_uses() -> list[tuple[int, int, int]]:
    """Per die action id (below ``A_DONE``): ``(dice_used bits, use, value index)``; the value
    index is 0/1 for die 1/2 and 2 for both summed."""
    out = [(0, 0, 0)] * A_DONE
    for a in range(A_DIE, A_BOTH):
        i, use = divmod(a - A_DIE, 4)
        out[a] = (1 << i, use, i)
    for a in range(A_BOTH, A_DONE):
        out[a] = (3, a - A_BOTH, 2)
    return out


_DIE_USES = _die_uses()


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


def _gained(units: tuple[int, ...],
            kind_circles: list[int]) -> tuple[tuple[tuple[tuple[int, ...], int], ...], int]:
    """``(heads, circles of the kinds)`` for the resource kinds with units in ``units`` (pending
    resources): ``heads[room]`` = the track, storage and discard actions (ids 18-25, ascending)
    and their number, for each ``room`` (bit 0: the favor track has room, bit 1: the strength
    track, bit 2: the wealth storage)."""
    kinds = [k for k in range(5) if units[k]]
    mask = 0
    for k in kinds:
        mask |= kind_circles[k]
    discards = tuple(A_DISCARD + k for k in kinds)
    heads = []
    for room in range(8):
        head = ((A_TRACK,) if units[FAVOR] and room & 1 else ()) + (
            (A_TRACK + 1,) if units[STRENGTH] and room & 2 else ()) + (
            (A_STORE,) if units[WEALTH] and room & 4 else ()) + discards
        heads.append((head, len(head)))
    return tuple(heads), mask


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
        entries = g.history_entries  # (player, action) tuples shared by every history
        while len(entries) < len(players):
            entries.append([(len(entries), a) for a in range(g.A_END)])
        usable = g.usable_edges
        land = g.land_mask
        build_rule = g.build_rule
        same_rule = g.same_rule
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
        all_circles = g.all_circles
        circle_kind = g.circle_kind
        space_unlock = g.sheet.space_unlock
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
        die_uses = _DIE_USES
        wonder_ok = [(-1, -1, 0)] * len(players)  # per player: (filled, unlocked, values bitset)
        # one item per player action still allowed: a player's loop ends when it runs out
        entry = True  # the turn the playout starts in
        last: PlayerSheet | None = None  # the sheet of the last player's moves
        fhead: tuple[int, ...] | None  # the head of a free move (die actions, done, caravans)
        caravans: tuple[int, ...]
        budget = repeat(None) if max_actions is None else iter(range(max_actions))
        while not self.over:
            dice = self.dice
            if len(dice) < 2:
                # State.sample_chance over 1/6 each: the first threshold above the draw (6
                # when the draw is above the last sum); the turn's second die, or both
                if not dice:
                    v = bisect_right(_DIE_THRESHOLDS, uniform())
                    dice.append(_DIE_VALUE[v])
                    record(_ROLLED[v])
                v = bisect_right(_DIE_THRESHOLDS, uniform())
                dice.append(_DIE_VALUE[v])
                record(_ROLLED[v])
                turn_list.append(dice[:])
            cp = 0
            while players[cp].done:
                cp += 1
            p = players[cp]
            acts = entries[cp]
            d0, d1 = dice
            values = (d0, d1, d0 + d1)  # the value of a die action (_DIE_USES index)
            # what a free move may do, kept between moves until a move changes what it reads
            # (-1 or None: to compute): the road edges, the spaces worth an X, the marks, the
            # die values of a Wonder action, the tracks and storage with room (the resources
            # path), the crosses paid with stored wealth and the die actions (without, with a
            # road edge open); a cross may discover an innovation, which may change them all.
            # The same player's next turn (solo) keeps the sheet's part; the end of a turn resets
            # the dice, the Road actions, this turn's wealth and the caravan
            if p is not last:
                last = p
                roads_m = want = mm = wok = room = -1
                caravans = ()
                wm = nroads = nmarks = 0
            elif mark_after_road:
                mm = -1
            nw = -1
            fhead = None
            pend = entry  # (a player starts a later turn with nothing pending)
            for _ in budget:  # this player's moves until they press done
                if pend:
                    if p.second_mark_of >= 0:
                        m = neighbor_mask[p.second_mark_of] & p.connected & land & ~p.built
                        n = m.bit_count()
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        s = nth_bit(m, r, n)
                        record(acts[a_build + 5 * n_spaces + s])
                        s_._build_second(p, 6, s)
                        mm = -1  # building_uses_space marks the space
                        fhead = None
                        continue
                    pres = p.pending_resources
                    pbuild = p.pending_builds
                    pwonder = p.pending_wonders
                    pib = p.pending_innovation_bonus
                    if pib or pbuild or pwonder:
                        if pres == no_units:
                            if not pib:
                                if not pwonder:
                                    # Build actions only: skip (27), then each building number's
                                    # sites
                                    n = 1
                                    sites = []
                                    if 0 in pbuild:  # any building: a mask per placement rule
                                        ms = [0] * 7
                                        for v in _NUMBERS:
                                            c = same_rule[v]
                                            m = ms[v] = build_sites(p, v) if c == v else ms[c]
                                            if m:
                                                c = m.bit_count()
                                                sites.append((v, m, c))
                                                n += c
                                    else:
                                        for v in (pbuild if len(pbuild) == 1
                                                  else sorted(set(pbuild))):
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
                                        record(acts[A_SKIP_BUILD])
                                        pbuild.pop(0)
                                    else:
                                        r -= 1
                                        for v, m, c in sites:
                                            if r < c:
                                                break
                                            r -= c
                                        s = nth_bit(m, r, c)
                                        record(acts[a_build + (v - 1) * n_spaces + s])
                                        build(p, v, s)
                                        mm = -1
                                        fhead = None
                                    continue
                                if not pbuild:
                                    # Wonder actions only: skip (28), then the boxes any of them
                                    # may fill
                                    m = 0
                                    for v in set(pwonder):
                                        m |= wonder_boxes(p, v)
                                    n = 1 + m.bit_count()
                                    k = n.bit_length()
                                    r = getrandbits(k)
                                    while r >= n:
                                        r = getrandbits(k)
                                    if r == 0:
                                        record(acts[A_SKIP_WONDER])
                                        pwonder.pop(0)
                                    else:
                                        i = nth_bit(m, r - 1, n - 1)
                                        record(acts[a_wonder + i])
                                        fill_box(p, i)
                                        wok = -1
                                        fhead = None
                                    continue
                            elif not (pbuild or pwonder):
                                # an innovation bonus only: discard it (26), then the open
                                # circles, each crossed with the bonus
                                m = all_circles ^ (all_circles & p.crossed)
                                n = 1 + m.bit_count()
                                k = n.bit_length()
                                r = getrandbits(k)
                                while r >= n:
                                    r = getrandbits(k)
                                p.pending_innovation_bonus -= 1
                                if r == 0:
                                    record(acts[A_DISCARD + DISCARD_BONUS])
                                else:
                                    c = nth_bit(m, r - 1, n - 1)
                                    record(acts[a_cross + 3 * c + PAY_BONUS])
                                    if cross(p, c):
                                        roads_m = want = mm = nw = wok = -1
                                        fhead = None
                                    elif circle_kind[c] == WEALTH:
                                        nw = -1
                                continue
                        legal = s_._pending_actions(p, g)
                    elif pres != no_units:
                        if immediate:
                            # resources only (LegalMoves._pending_actions, sorted): the tracks,
                            # the storage and the discards (ids 18-25), then the open circles of
                            # the kinds gained, ascending
                            if room < 0:  # the tracks and the storage with room left
                                room = ((p.favor < favor_max) | (p.strength < strength_max) << 1
                                        | (p.wealth_marked < wealth_storage) << 2)
                            units = tuple(pres)
                            kinds = gained.get(units)
                            if kinds is None:
                                kinds = _gained(units, kind_circles)
                                if len(gained) >= 4096:
                                    gained.clear()
                                gained[units] = kinds
                            head, nh = kinds[0][room]
                            cm = kinds[1] & ~p.crossed
                            nc = cm.bit_count()
                            n = nh + nc
                            k = n.bit_length()
                            r = getrandbits(k)
                            while r >= n:
                                r = getrandbits(k)
                            if r < nh:
                                a = head[r]
                                record(acts[a])
                                if a == A_TRACK:
                                    p.favor += 1
                                    pres[FAVOR] -= 1
                                    room = -1
                                elif a == A_TRACK + 1:
                                    p.strength += 1
                                    pres[STRENGTH] -= 1
                                    room = -1
                                elif a == A_STORE:  # (stored wealth to spend stays the same)
                                    pres[WEALTH] -= 1
                                    p.wealth_marked += 1
                                    p.wealth_marked_this_turn += 1
                                    room = -1
                                else:
                                    pres[a - A_DISCARD] -= 1
                            else:
                                c = nth_bit(cm, r - nh, nc)
                                record(acts[a_cross + 3 * c])
                                k = circle_kind[c]
                                pres[k] -= 1
                                if cross(p, c):
                                    roads_m = want = mm = nw = wok = -1
                                    fhead = None
                                elif k == WEALTH:
                                    nw = -1
                            continue
                        legal = s_._legal_actions(cp)
                    else:
                        pend = False
                    if pend:  # a mix (and the other rules options): the listed moves
                        n = len(legal)
                        k = n.bit_length()
                        r = getrandbits(k)
                        while r >= n:
                            r = getrandbits(k)
                        a = legal[r]
                        record(acts[a])
                        s_._apply(a, cp)
                        roads_m = want = mm = nw = wok = room = -1
                        fhead = None
                        if p.done or self.dice is not dice:
                            break  # done (end_of_turn resources list it): the next player
                        continue
                # free moves (LegalMoves._free_actions, counted by parts)
                if roads_m < 0:
                    x = p.frontier & usable
                    roads_m = x ^ (x & (p.roads | p.blocked))  # x & ~(...), no negative int
                    nroads = roads_m.bit_count()
                    if not nroads:
                        fhead = None  # (no die Road action)
                if nw < 0:  # the caravans and the crosses paid with stored wealth
                    avail = p.wealth_marked - p.wealth_marked_this_turn - p.wealth_spent
                    conv = p.wealth_conversion
                    x = (tuple(sorted(A_CARAVAN + (0 if c == "favor" else 1) for c in conv[1]))
                         if conv is not None and not p.conversion_used and avail >= conv[0]
                         else ())
                    if x != caravans:
                        caravans = x
                        fhead = None
                    wm = wealth_circles & ~p.crossed if avail > 0 else 0
                    nw = wm.bit_count()
                if fhead is None:
                    used = p.dice_used
                    if used == 3:
                        if all_roads and p.roads_left and roads_m:  # every road before done
                            fhead = caravans
                        else:
                            fhead = _DONE_HEAD + caravans if caravans else _DONE_HEAD
                    else:
                        free_land = p.connected & land
                        if wok < 0:
                            # the die values a Wonder action may use: the same until a box is
                            # filled or unlocked (a player's box values change only with
                            # ``filled``)
                            wc = wonder_ok[cp]
                            if wc[0] != p.filled or wc[1] != p.unlocked:
                                key = (p.filled, p.unlocked,
                                       tuple(p.box_values) if ascending else ())
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
                        key = used
                        if not used & 1:
                            restrict, shares, two = build_rule[d0]
                            if two:
                                if build_sites(p, d0):
                                    key |= 8
                            else:
                                x = free_land & restrict
                                if x & (p.built_twice if shares else p.built) != x:
                                    key |= 8
                            if wok >> d0 & 1:
                                key |= 32
                        if not used & 2:
                            restrict, shares, two = build_rule[d1]
                            if two:
                                if build_sites(p, d1):
                                    key |= 16
                            else:
                                x = free_land & restrict
                                if x & (p.built_twice if shares else p.built) != x:
                                    key |= 16
                            if wok >> d1 & 1:
                                key |= 64
                        if roads_m:
                            key |= 4
                        fhead = _DIE_HEADS[key]
                        if combine and used == 0:  # both dice summed on one action
                            v = d0 + d1
                            if roads_m:
                                fhead += (A_BOTH,)
                            if v <= 6 and s_._can_build(p, v, free_land):
                                fhead += (A_BOTH + 1,)
                            if wok >> v & 1:
                                fhead += (A_BOTH + 2,)
                        if caravans:
                            fhead += caravans
                    fnh = len(fhead)
                nr = fnh + nroads if p.roads_left else fnh
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
                if r < fnh:
                    a = fhead[r]
                    record(acts[a])
                    if a < A_DONE:
                        bit, kind, i = die_uses[a]
                        p.dice_used |= bit
                        fhead = None
                        if kind == USE_ROAD:
                            p.roads_left += values[i] + p.extra_roads + (
                                p.first_road_extra if p.road_actions == 0 else 0)
                            p.road_actions += 1
                            if mark_after_road:
                                mm = -1  # marking waits for a Road action
                        elif kind == USE_BUILD:
                            p.pending_builds.append(values[i])
                            pend = True
                        elif kind == USE_WONDER:
                            p.pending_wonders.append(values[i])
                            pend = True
                    elif a == A_DONE:
                        done(cp)
                        if self.dice is not dice:
                            entry = False
                            break  # the next turn
                        if p.done:
                            break  # the next player, or the end
                        pend = True
                    else:  # caravan
                        p.conversion_used = 1
                        p.wealth_spent += p.wealth_conversion[0]  # type: ignore[index]
                        p.pending_resources[FAVOR if a == A_CARAVAN else STRENGTH] += 1
                        nw = -1
                        pend = True
                elif r < nr:
                    e = nth_bit(roads_m, r - fnh, nroads)
                    record(acts[a_road + e])
                    x = p.connected
                    if place_road(p, e):  # a toll, a full hexagon or a milestone
                        pend = True
                        wok = -1
                        fhead = None
                    roads_m = -1
                    if all_roads:
                        fhead = None  # done waits for the last road
                    if p.connected != x:  # new spaces to build on or mark
                        mm = -1
                        if used != 3:  # (``used``: the dice of the head, unchanged since)
                            fhead = None
                elif r < nm:
                    s = nth_bit(mm, r - nr, nmarks)
                    record(acts[a_mark + s])
                    mark(p, s)
                    mm ^= 1 << s  # the same connected spaces and wanted icons
                    nmarks -= 1
                    pend = True
                    if space_unlock[s]:
                        wok = -1
                        fhead = None
                else:
                    c = nth_bit(wm, r - nm, nw)
                    record(acts[a_cross + 3 * c + 2])
                    p.wealth_spent += 1
                    if cross(p, c):
                        roads_m = want = mm = wok = -1
                        fhead = None
                    nw = -1
            else:
                return  # max_actions player actions played
