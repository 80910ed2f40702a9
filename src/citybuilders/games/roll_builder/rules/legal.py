"""Roll Builder legal moves: the fast generator and the placement/unlock checks it is made of.

The checks (:meth:`LegalMoves._road_edges`, ``_markable``, ``_build_sites``, ``_wonder_boxes``)
are the engine's rules for where a road, an X, a building and a wonder value may go; the score
calculator (scorefile.py) replays a drawn sheet through the same methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE, A_TRACK,
)
from ..loader import FAVOR, STRENGTH, WEALTH
from .bits import bit_indices
from .player_sheet import PlayerSheet, refresh_road_list

if TYPE_CHECKING:  # pragma: no cover
    from .tables import RollBuilderTables

__all__ = ["LegalMoves", "ROLLS"]

ROLLS = tuple(range(6))
"""The chance actions (``roll 1`` .. ``roll 6``)."""


class LegalMoves:
    """Mixin of the state (rules/state.py): legal-move generation and the placement checks."""

    __slots__ = ()
    players: list[PlayerSheet]
    dice: list[int]
    game: "RollBuilderTables"

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted legal actions; free actions are emitted in ascending order (no sort needed).

        Fast version of the obvious generator kept in tests/roll_builder/reference_legal.py (the
        property test test_fast_paths.py checks they agree over random games)."""
        if player < 0:
            return list(ROLLS)
        p = self.players[player]
        if p.done:
            return []
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        if p.second_mark_of >= 0:
            out: list[int] = []
            m = self._second_mark_sites(p)
            base = g.A_BUILD + 5 * g.n_spaces
            while m:
                low = m & -m
                out.append(base + low.bit_length() - 1)
                m ^= low
            return out
        pres = p.pending_resources
        if (p.pending_innovation_bonus or p.pending_builds or p.pending_wonders or pres[0]
                or pres[1] or pres[2] or pres[3] or pres[4]):
            out = self._pending_actions(p, g)
            if p.pending_innovation_bonus or p.pending_builds or p.pending_wonders or g.immediate:
                return out  # blocking: resolve gains first
            out += self._free_actions(p, g)
            out.sort()
            return out
        return self._free_actions(p, g)

    def _pending_actions(self, p: PlayerSheet, g: RollBuilderTables) -> list[int]:
        """Sorted actions resolving pending gains (resources, innovation bonus, bonus actions)."""
        out: list[int] = []
        pres = p.pending_resources
        open_c = ~p.crossed
        memo = g.circle_memo
        for k in range(5):
            if pres[k]:
                m = g.kind_circles[k] & open_c
                t = memo.get(m)
                out.extend(g.circle_actions(m) if t is None else t)
                out.append(A_DISCARD + k)
        if pres[FAVOR] and p.favor < g.favor_max:
            out.append(A_TRACK)
        if pres[STRENGTH] and p.strength < g.strength_max:
            out.append(A_TRACK + 1)
        if pres[WEALTH] and p.wealth_marked < g.wealth_storage:
            out.append(A_STORE)
        if p.pending_innovation_bonus:
            out.extend([a + 1 for a in g.circle_actions(g.all_circles & open_c)])
            out.append(A_DISCARD + 5)
        if p.pending_builds:
            pbuild = p.pending_builds
            anyb = 0 in pbuild
            a_build = g.A_BUILD
            ns = g.n_spaces
            nb = g.space_bytes
            lists: dict[int, list[int]] = {}
            for n in range(1, 7):
                if anyb or n in pbuild:
                    m = self._build_sites(p, n)
                    idx = lists.get(m)
                    if idx is None:
                        idx = lists[m] = bit_indices(m, nb)
                    base = a_build + (n - 1) * ns
                    out.extend([base + s for s in idx])
            out.append(A_SKIP_BUILD)
        if p.pending_wonders:
            m = 0
            for v in set(p.pending_wonders):
                m |= self._wonder_boxes(p, v)
            while m:
                low = m & -m
                out.append(g.A_WONDER + low.bit_length() - 1)
                m ^= low
            out.append(A_SKIP_WONDER)
        out.sort()
        return out

    def _free_actions(self, p: PlayerSheet, g: RollBuilderTables) -> list[int]:
        """Actions of a player with nothing pending, in ascending id order: dice (6-16), done (17),
        caravan (29-30), roads, marks, crosses paid with stored wealth."""
        out: list[int] = []
        used = p.dice_used
        connected = p.connected
        roads_m = p.frontier & g.usable_edges & ~(p.roads | p.blocked)
        if used != 3:
            d = self.dice
            free_land = connected & g.land_mask
            filled = p.filled
            boxes = g.req_ok.get(filled)
            if boxes is None:
                boxes = g.boxes_ready(filled)
            boxes &= p.unlocked & ~filled
            build_rule = g.build_rule
            box_vmask = g.box_vmask
            for i in (0, 1):
                if not used >> i & 1:
                    v = d[i]
                    base = A_DIE + 4 * i
                    if roads_m:
                        out.append(base)
                    restrict, shares, two = build_rule[v]
                    if (self._build_sites(p, v) if two else
                            free_land & restrict & ~(p.built_twice if shares else p.built)):
                        out.append(base + 1)
                    if boxes & box_vmask[v] and (not g.ascending or self._wonder_boxes(p, v)):
                        out.append(base + 2)
                    out.append(base + 3)
            if g.combine and used == 0:
                v = d[0] + d[1]
                if roads_m:
                    out.append(A_BOTH)
                if v <= 6 and self._can_build(p, v, free_land):
                    out.append(A_BOTH + 1)
                if self._wonder_boxes(p, v):
                    out.append(A_BOTH + 2)
        elif not (g.all_roads and p.roads_left and roads_m):
            out.append(A_DONE)
        avail = p.wealth_marked - p.wealth_marked_this_turn - p.wealth_spent
        conv = p.wealth_conversion
        if conv is not None and not p.conversion_used and avail >= conv[0]:
            out.extend(sorted(A_CARAVAN + (0 if c == "favor" else 1) for c in p.wealth_conversion[1]))
        if p.roads_left and roads_m:
            if p.road_key != roads_m:
                refresh_road_list(p, roads_m, g.A_ROAD)
            out.extend(p.road_list)
        if not g.mark_after_road or p.road_actions:
            want = g.icon_mask
            if p.gain_on_mountain_mark is not None:
                want |= g.mountain_mask
            if p.gain_on_water_mark is not None:
                want |= g.water_markable
            m = connected & ~p.marked & want
            base = g.A_MARK
            while m:
                low = m & -m
                out.append(base + low.bit_length() - 1)
                m ^= low
        if avail > 0:
            m = g.kind_circles[WEALTH] & ~p.crossed
            base = g.A_CROSS + 2
            while m:
                low = m & -m
                out.append(base + 3 * (low.bit_length() - 1))
                m ^= low
        return out

    # ------------------------------------------------------------------ legality helpers
    def _road_edges(self, p: PlayerSheet) -> int:
        """Bitset of edges where a road may be placed now (touching the network, open)."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        return p.frontier & g.usable_edges & ~(p.roads | p.blocked)

    def _markable(self, p: PlayerSheet) -> int:
        """Bitset of connected, unmarked spaces whose X gains something."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        want = g.icon_mask
        if p.gain_on_mountain_mark is not None:
            want |= g.mountain_mask
        if p.gain_on_water_mark is not None:
            want |= g.water_markable
        return p.connected & ~p.marked & want

    def _can_build(self, p: PlayerSheet, n: int, free_land: int) -> bool:
        """True when building ``n`` has a site (``free_land`` = connected land spaces)."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        restrict, shares, two = g.build_rule[n]
        if two:
            return bool(self._build_sites(p, n))
        return bool(free_land & restrict & ~(p.built_twice if shares else p.built))

    def _build_sites(self, p: PlayerSheet, n: int) -> int:
        """Bitset of spaces where building ``n`` may be written now (first mark for 2-mark ones:
        a space with a free connected land neighbour for the second mark)."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        restrict, shares, two = g.build_rule[n]
        base = p.connected & g.land_mask
        m = base & restrict & ~(p.built_twice if shares else p.built)
        if two:
            free = base & ~p.built
            m &= free & g.neighbours_of(free)
        return m

    def _second_mark_sites(self, p: PlayerSheet) -> int:
        """Bitset of spaces for the second mark of the two-space building whose first mark is on
        space ``p.second_mark_of``: connected land next to it holding no building."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        return g.neighbor_mask[p.second_mark_of] & p.connected & g.land_mask & ~p.built

    def _wonder_boxes(self, p: PlayerSheet, v: int) -> int:
        """Bitset of boxes a Wonder action of value ``v`` (0 = bonus, no value) may fill."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        filled = p.filled
        ready = g.req_ok.get(filled)
        if ready is None:
            ready = g.boxes_ready(filled)
        cand = p.unlocked & ~filled & ready & g.box_vmask[v]
        if not (cand and v and g.ascending):
            return cand
        key = tuple(p.box_values)
        allowed = g.asc_memo.get(key)
        if allowed is None:
            allowed = g.ascending_allowed(key)
        return cand & allowed[v]
