"""One player's Roll Builder sheet: what is drawn on it and the turn bookkeeping (flat ints/bitsets).

The saved fields are declared once (:data:`SAVED_FIELDS`, derived from ``__slots__``); the JSON of
a position (rules/state.py) and :meth:`PlayerSheet.copy` follow that list (test_fast_paths.py
checks ``copy`` covers every slot).
"""

from __future__ import annotations

from bisect import insort
from operator import attrgetter

from .bits import bit_indices

__all__ = ["PlayerSheet", "FIELDS", "CACHE_FIELDS", "SAVED_FIELDS", "SAVED_ATTRS", "LIST_FIELDS",
           "TUPLE_FIELDS", "refresh_road_list",
           "placement_code", "placement_of", "PLACEMENT_STRIDE"]

PLACEMENT_STRIDE = 8
"""A written building is stored as ``space * PLACEMENT_STRIDE + number`` (number 1-6)."""


def placement_code(space: int, number: int) -> int:
    """The ``placements`` entry of building ``number`` (1-6) written on space index ``space``."""
    return space * PLACEMENT_STRIDE + number


def placement_of(code: int) -> tuple[int, int]:
    """``(space, number)`` of a ``placements`` entry (inverse of :func:`placement_code`)."""
    return divmod(code, PLACEMENT_STRIDE)


FIELDS: tuple[tuple[str, str, str, str], ...] = (
    # (attribute, saved JSON key, kind, meaning); kinds: int (an int or a bitset), bool, list
    # (of ints), gain (None or 5 resource counts), conversion (None or (cost, choices))
    ('roads', 'roads', 'int', 'edges holding a road (starting roads included)'),
    ('corners', 'corners', 'int', 'corners (road end points) reached by a road'),
    ('connected', 'connected', 'int', 'spaces touched by a road (even at a corner)'),
    ('frontier', 'frontier', 'int', 'edges touching a road end'),
    ('marked', 'marked', 'int', 'spaces marked with an X'),
    ('built', 'bld1', 'int', 'spaces holding at least one building mark'),
    ('built_twice', 'bld2', 'int', 'spaces holding two building marks'),
    ('placements', 'placements', 'list',
     'buildings written, in order: placement_code(space, number)'),
    ('building_marks', 'bcount', 'list',
     'marks written per building number (index 1-6; 0 unused)'),
    ('crossed', 'crossed', 'int', 'innovation circles crossed'),
    ('discovered', 'discovered', 'int', 'innovations discovered'),
    ('box_values', 'wvals', 'list',
     'die value written in each wonder box (0 empty, NO_VALUE bonus)'),
    ('filled', 'filled', 'int', 'wonder boxes filled'),
    ('unlocked', 'unlocked', 'int', 'wonder boxes open (not locked, or unlocked since)'),
    ('favor', 'favor', 'int', 'favor track spaces crossed'),
    ('strength', 'strength', 'int', 'strength track spaces crossed'),
    ('wealth_marked', 'w_marked', 'int', 'wealth storage circles marked'),
    ('wealth_spent', 'w_spent', 'int', 'stored wealth crossed (spent)'),
    ('wealth_marked_this_turn', 'w_turn', 'int',
     'storage circles marked this turn (not spendable yet)'),
    ('full_hexagons', 'hex_done', 'int', 'spaces that gave a full-hexagon reward'),
    ('full_hexagon_uses', 'hex_uses', 'int', 'full-hexagon rewards taken'),
    ('full_hexagon_points', 'hex_pts', 'int', 'full-hexagon bonus points earned'),
    ('milestones_reached', 'miles', 'int', 'road milestones reached'),
    ('roads_placed', 'placed', 'int', 'roads placed by Road actions (milestones count them)'),
    ('blocked', 'blocked', 'int', 'edges closed to roads for now (rivers, ridges)'),
    ('first_road_extra', 'first_extra', 'int',
     'extra roads of the first Road action of each turn'),
    ('gain_on_water_mark', 'g_water', 'gain',
     'gain of each X next to water (None = no such ability)'),
    ('gain_on_mountain_mark', 'g_mountain', 'gain', 'gain of each X on a mountain (None = none)'),
    ('gain_on_build', 'g_build', 'gain', 'gain of each building written (None = none)'),
    ('gain_on_box', 'g_box', 'gain', 'gain of each wonder box filled (None = none)'),
    ('road_toll', 'toll', 'gain', 'road toll gain, once per Road action (None = none)'),
    ('wealth_conversion', 'caravan', 'conversion',
     '(cost, choices) of converting stored wealth (None = none)'),
    ('dice_used', 'used', 'int', 'dice used this turn (bit 0 = d1, bit 1 = d2)'),
    ('done', 'done', 'bool', 'pressed done this turn'),
    ('turn_bonus_given', 'bonus_given', 'bool', 'the turn bonus of turn 5/10/15 was received'),
    ('roads_left', 'roads_left', 'int', "roads still to place from this turn's Road actions"),
    ('road_actions', 'road_actions', 'int', 'Road actions taken this turn'),
    ('tolls_taken', 'tolls', 'int', 'road tolls taken this turn'),
    ('extra_roads', 'extra_roads', 'int', 'roads added to each later Road action this turn'),
    ('conversion_used', 'caravan_used', 'int', '1 when the wealth conversion was used this turn'),
    ('pending_resources', 'pres', 'list', 'gained units to assign, per resource kind'),
    ('pending_innovation_bonus', 'pib', 'int', 'innovation bonuses to use'),
    ('pending_builds', 'pbuild', 'list',
     'Build actions to take (die value; 0 = bonus, any building)'),
    ('pending_wonders', 'pwonder', 'list', 'Wonder actions to take (die value; 0 = bonus)'),
    ('second_mark_of', 'guild', 'int',
     "space of a two-space building's first mark (NO_GUILD = none)"),
)
"""The one declaration of a player sheet's saved fields, in saving order. The JSON keys are the
short names of the first saved positions (kept so records and positions load unchanged); each
is also a read/write alias of its attribute. ``__slots__``, :data:`SAVED_FIELDS`, the JSON of a
position (rules/state.py) and :meth:`PlayerSheet.copy` (checked by test_fast_paths.py) follow it."""
CACHE_FIELDS = ("road_key", "road_list")
"""Caches (not saved): ``road_key`` = the road-edge bitset ``road_list`` was made for;
``road_list`` = sorted tuple of its road action ids (shared between copies, immutable)."""


class PlayerSheet:
    """One player's sheet and turn bookkeeping (flat ints/bitsets; hand-written ``copy``).

    The fields and their meaning are declared in :data:`FIELDS` (bitsets are over edges,
    corners, spaces, innovation circles, innovations or wonder boxes, as named there).
    """

    __slots__ = CACHE_FIELDS + tuple(f[0] for f in FIELDS)

    def copy(self) -> "PlayerSheet":
        """An independent copy (explicit field copies: the lists are copied, ints and the
        immutable tuples shared; test_fast_paths checks every slot is covered)."""
        p = _new_sheet(PlayerSheet)
        p.roads = self.roads
        p.corners = self.corners
        p.connected = self.connected
        p.frontier = self.frontier
        p.marked = self.marked
        p.built = self.built
        p.built_twice = self.built_twice
        p.crossed = self.crossed
        p.discovered = self.discovered
        p.filled = self.filled
        p.unlocked = self.unlocked
        p.favor = self.favor
        p.strength = self.strength
        p.wealth_marked = self.wealth_marked
        p.wealth_spent = self.wealth_spent
        p.wealth_marked_this_turn = self.wealth_marked_this_turn
        p.full_hexagons = self.full_hexagons
        p.full_hexagon_uses = self.full_hexagon_uses
        p.full_hexagon_points = self.full_hexagon_points
        p.milestones_reached = self.milestones_reached
        p.roads_placed = self.roads_placed
        p.blocked = self.blocked
        p.first_road_extra = self.first_road_extra
        p.gain_on_water_mark = self.gain_on_water_mark
        p.gain_on_mountain_mark = self.gain_on_mountain_mark
        p.gain_on_build = self.gain_on_build
        p.gain_on_box = self.gain_on_box
        p.road_toll = self.road_toll
        p.wealth_conversion = self.wealth_conversion
        p.dice_used = self.dice_used
        p.done = self.done
        p.turn_bonus_given = self.turn_bonus_given
        p.roads_left = self.roads_left
        p.road_actions = self.road_actions
        p.tolls_taken = self.tolls_taken
        p.extra_roads = self.extra_roads
        p.conversion_used = self.conversion_used
        p.road_key = self.road_key
        p.road_list = self.road_list
        p.pending_innovation_bonus = self.pending_innovation_bonus
        p.second_mark_of = self.second_mark_of
        p.placements = self.placements[:]
        p.building_marks = self.building_marks[:]
        p.box_values = self.box_values[:]
        p.pending_resources = self.pending_resources[:]
        p.pending_builds = self.pending_builds[:]
        p.pending_wonders = self.pending_wonders[:]
        return p

    @property
    def stored(self) -> int:
        """Wealth stored now (circles marked and not crossed)."""
        return self.wealth_marked - self.wealth_spent

    def pending_any(self) -> bool:
        """True when something gained is waiting to be resolved."""
        return bool(self.pending_builds or self.pending_wonders or self.pending_innovation_bonus
                    or any(self.pending_resources) or self.second_mark_of >= 0)


_new_sheet = object.__new__
SAVED_FIELDS = tuple(f[1] for f in FIELDS)
"""JSON keys of the saved fields (every slot except the caches), in saving order."""
SAVED_ATTRS = {f[1]: f[0] for f in FIELDS}
"""JSON key -> attribute."""
LIST_FIELDS = tuple(f[1] for f in FIELDS if f[2] == "list")
TUPLE_FIELDS = tuple(f[1] for f in FIELDS if f[2] == "gain")


def _alias(attr: str) -> property:
    get = attrgetter(attr)

    def put(self: PlayerSheet, value: object) -> None:
        setattr(self, attr, value)

    return property(get, put, doc=f"Saved-name alias of ``{attr}``.")


for _attr, _key, _kind, _doc in FIELDS:
    if _key != _attr:
        setattr(PlayerSheet, _key, _alias(_attr))


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

