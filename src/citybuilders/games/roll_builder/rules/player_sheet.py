"""One player's Roll Builder sheet: what is drawn on it and the turn bookkeeping (flat ints/bitsets).

The saved fields are declared once (:data:`SAVED_FIELDS`, derived from ``__slots__``); the JSON of
a position (rules/state.py) and :meth:`PlayerSheet.copy` follow that list (test_fast_paths.py
checks ``copy`` covers every slot).
"""

from __future__ import annotations

from bisect import insort

from .bits import bit_indices

__all__ = ["PlayerSheet", "SAVED_FIELDS", "LIST_FIELDS", "TUPLE_FIELDS", "refresh_road_list",
           "placement_code", "placement_of", "PLACEMENT_STRIDE"]

PLACEMENT_STRIDE = 8
"""A written building is stored as ``space * PLACEMENT_STRIDE + number`` (number 1-6)."""


def placement_code(space: int, number: int) -> int:
    """The ``placements`` entry of building ``number`` (1-6) written on space index ``space``."""
    return space * PLACEMENT_STRIDE + number


def placement_of(code: int) -> tuple[int, int]:
    """``(space, number)`` of a ``placements`` entry (inverse of :func:`placement_code`)."""
    return divmod(code, PLACEMENT_STRIDE)


class PlayerSheet:
    """One player's sheet and turn bookkeeping (flat ints/bitsets; hand-written ``copy``).

    Bitsets: ``roads`` over edges (starting roads included), ``corners`` over road end points,
    ``connected`` over spaces, ``frontier`` over edges touching a road end, ``marked`` (X),
    ``bld1``/``bld2`` spaces holding one/two building marks, ``crossed`` innovation circles,
    ``discovered`` innovations, ``filled``/``unlocked`` wonder boxes, ``hex_done`` spaces that
    gave a full-hexagon reward, ``miles`` milestones reached, ``blocked`` edges closed for now.
    """

    __slots__ = (
        # cache (not saved): ``road_key`` = the road-edge bitset ``road_list`` was made for;
        # ``road_list`` = sorted tuple of its road action ids (shared between copies, immutable)
        "road_key", "road_list",
        "roads", "corners", "connected", "frontier", "marked", "bld1", "bld2", "placements",
        "bcount", "crossed", "discovered", "wvals", "filled", "unlocked", "favor", "strength",
        "w_marked", "w_spent", "w_turn", "hex_done", "hex_uses", "hex_pts", "miles", "placed",
        "blocked", "first_extra", "g_water", "g_mountain", "g_build", "g_box", "toll", "caravan",
        "used", "done", "bonus_given", "roads_left", "road_actions", "tolls", "extra_roads",
        "caravan_used", "pres", "pib", "pbuild", "pwonder", "guild",
    )

    def copy(self) -> "PlayerSheet":
        """An independent copy (explicit field copies: the lists are copied, ints and the
        immutable tuples shared; test_fast_paths checks every slot is covered)."""
        p = _new_sheet(PlayerSheet)
        p.roads = self.roads
        p.corners = self.corners
        p.connected = self.connected
        p.frontier = self.frontier
        p.marked = self.marked
        p.bld1 = self.bld1
        p.bld2 = self.bld2
        p.crossed = self.crossed
        p.discovered = self.discovered
        p.filled = self.filled
        p.unlocked = self.unlocked
        p.favor = self.favor
        p.strength = self.strength
        p.w_marked = self.w_marked
        p.w_spent = self.w_spent
        p.w_turn = self.w_turn
        p.hex_done = self.hex_done
        p.hex_uses = self.hex_uses
        p.hex_pts = self.hex_pts
        p.miles = self.miles
        p.placed = self.placed
        p.blocked = self.blocked
        p.first_extra = self.first_extra
        p.g_water = self.g_water
        p.g_mountain = self.g_mountain
        p.g_build = self.g_build
        p.g_box = self.g_box
        p.toll = self.toll
        p.caravan = self.caravan
        p.used = self.used
        p.done = self.done
        p.bonus_given = self.bonus_given
        p.roads_left = self.roads_left
        p.road_actions = self.road_actions
        p.tolls = self.tolls
        p.extra_roads = self.extra_roads
        p.caravan_used = self.caravan_used
        p.road_key = self.road_key
        p.road_list = self.road_list
        p.pib = self.pib
        p.guild = self.guild
        p.placements = self.placements[:]
        p.bcount = self.bcount[:]
        p.wvals = self.wvals[:]
        p.pres = self.pres[:]
        p.pbuild = self.pbuild[:]
        p.pwonder = self.pwonder[:]
        return p

    @property
    def stored(self) -> int:
        """Wealth stored now (circles marked and not crossed)."""
        return self.w_marked - self.w_spent

    def pending_any(self) -> bool:
        """True when something gained is waiting to be resolved."""
        return bool(self.pbuild or self.pwonder or self.pib or any(self.pres) or self.guild >= 0)


_new_sheet = object.__new__
_CACHE_FIELDS = ("road_key", "road_list")
SAVED_FIELDS = tuple(k for k in PlayerSheet.__slots__ if k not in _CACHE_FIELDS)
"""PlayerSheet fields saved by ``to_json`` (every slot except the caches)."""
LIST_FIELDS = ("placements", "bcount", "wvals", "pres", "pbuild", "pwonder")
TUPLE_FIELDS = ("g_water", "g_mountain", "g_build", "g_box", "toll")


def refresh_road_list(p: "PlayerSheet", roads_m: int, base: int) -> None:
    """Bring ``p.road_list`` (sorted road action ids) up to date with the road-edge bitset
    ``roads_m``: edit the previous tuple when few edges changed (a road placed removes one edge and
    opens a few), else rebuild it."""
    old = p.road_key
    diff = old ^ roads_m
    if old and diff.bit_count() <= 8:
        lst = list(p.road_list)
        m = old & diff
        while m:
            low = m & -m
            lst.remove(base + low.bit_length() - 1)
            m ^= low
        m = roads_m & diff
        while m:
            low = m & -m
            insort(lst, base + low.bit_length() - 1)
            m ^= low
    else:
        lst = [base + e for e in bit_indices(roads_m, (roads_m.bit_length() + 7) // 8)]
    p.road_key = roads_m
    p.road_list = tuple(lst)

