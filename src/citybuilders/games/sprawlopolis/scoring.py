"""Sprawlopolis scoring: zone groups, roads, the 18 scoring conditions, the final breakdown.

Rulebook "Fim de Jogo e Pontuação": 1 point per block in the largest group of each zone type
(groups = blocks of one colour joined by at least one edge), −1 per road (a continuous stretch of
connected road pieces), plus the three scoring conditions. Win when the total ≥ target (the sum of
the three condition numbers).

Road model (digest §5): two road pieces in orthogonally adjacent blocks join exactly when both
reach their shared side; a road is a maximal set of joined pieces (a loop is one road, a lone piece
is a road). A road *end* is a side reached by a piece whose neighbour does not reach back; the end
is "at the edge of the city" when there is no block beyond it (rules option ``city_edge``).

Every condition is one small function ``condition_N(a: Analysis) -> int`` registered in
:data:`CONDITIONS` as ``number -> (name, function)`` (the name from the card data; the players'
names and rule texts are in ``texts.py``). Block codes are split with ``code & ZONE_MASK`` (zone
code) and ``code >> ROAD_SHIFT`` (road mask), see :mod:`.loader`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .actions import WIDTH
from .loader import (
    CARDS,
    COMMERCIAL,
    INDUSTRIAL,
    PARK,
    RESIDENTIAL,
    ROAD_SHIFT,
    ZONE_MASK,
    ZONES,
    E,
    N,
    S,
    W,
)

__all__ = [
    "Rules",
    "Road",
    "Analysis",
    "Breakdown",
    "CONDITIONS",
    "condition_name",
    "score_city",
    "total_of",
]

_STEPS = (1, -1, WIDTH, -WIDTH)
_DIAG = (WIDTH + 1, WIDTH - 1, -WIDTH + 1, -WIDTH - 1)
# (side bit, flat step to the neighbour, the neighbour's side facing back)
_SIDES = ((N, -WIDTH, S), (E, 1, W), (S, WIDTH, N), (W, -1, E))
_ROAD_DIRS = tuple(tuple(side for side in _SIDES if m & side[0]) for m in range(16))
"""Road mask -> the (side bit, step, facing side) triples of the sides the piece reaches."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The scoring-relevant rules options (see ``rules/options.py`` for their docs).

    Attributes:
        edge_outer: city edge = only open sides connected to the outside (A2 "outer").
        corner_any: Tourist Traps corner = any two open sides (A3 "any_two").
        loop_outskirts: points of a closed loop under The Outskirts (A4: 1 or 0).
        hop_groups: Park Hopping needs two different park *groups* (A5 "groups").
        burbs_first: The 'Burbs takes the first tied largest group in reading order (A6 "first").
        mini_adjacent: Mini Marts ignores roads (A8 "adjacent").
        road_tax: roads cost 1 each (False: "easier" difficulty).
        single_zone: "harder" difficulty: only one zone's largest group scores.
        harder_zone: zone name scored under "harder", or "best".
    """

    edge_outer: bool = False
    corner_any: bool = False
    loop_outskirts: int = 1
    hop_groups: bool = False
    burbs_first: bool = False
    mini_adjacent: bool = False
    road_tax: bool = True
    single_zone: bool = False
    harder_zone: str = "best"

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Rules":
        """Rules from a validated options dict (missing keys take the defaults)."""
        difficulty = options.get("difficulty", "normal")
        return cls(
            edge_outer=options.get("city_edge", "local") == "outer",
            corner_any=options.get("tourist_corner", "perpendicular") == "any_two",
            loop_outskirts=1 if options.get("outskirts_loop", "not_at_edge") == "not_at_edge" else 0,
            hop_groups=options.get("park_hopping_parks", "blocks") == "groups",
            burbs_first=options.get("burbs_tie", "best") == "first",
            mini_adjacent=options.get("mini_marts", "road") == "adjacent",
            road_tax=difficulty != "easier",
            single_zone=difficulty == "harder",
            harder_zone=options.get("harder_zone", "best"),
        )


@dataclass(slots=True)
class Road:
    """One road: ``cells`` (its sections, one per block) and ``ends`` as (cell, side bit, neighbour
    cell) triples; a closed loop has no ends."""

    cells: list[int]
    ends: list[tuple[int, int, int]]

    @property
    def is_loop(self) -> bool:
        """True for a closed loop (no ends)."""
        return not self.ends


class Analysis:
    """Everything the conditions look at, computed once per city.

    Attributes:
        cells: flat block codes; occ: occupied cells; rules: :class:`Rules`.
        group_of: cell -> group id; groups: list of (zone code 1..4, member cells).
        largest: zone code -> size of its largest group (0 when absent).
        roads: list of :class:`Road`.
    """

    __slots__ = ("cells", "occ", "rules", "group_of", "groups", "largest", "roads", "_exterior",
                 "_lines")

    def __init__(self, cells: list[int], occ: list[int], rules: Rules) -> None:
        self.cells = cells
        self.occ = occ
        self.rules = rules
        self._exterior: set[int] | None = None
        self._lines: tuple[dict[int, list[int]], dict[int, list[int]]] | None = None
        # zone groups (flood fill; neighbours of another zone are rejected by the cell test)
        group_of: dict[int, int] = {}
        groups: list[tuple[int, list[int]]] = []
        largest = [0, 0, 0, 0, 0]
        for i in occ:
            if i in group_of:
                continue
            z = cells[i] & ZONE_MASK
            k = len(groups)
            group_of[i] = k
            members = [i]
            for j in members:  # grows while iterating: breadth-first
                for n in (j + 1, j - 1, j + WIDTH, j - WIDTH):
                    if cells[n] & ZONE_MASK == z and n not in group_of:
                        group_of[n] = k
                        members.append(n)
            groups.append((z, members))
            if len(members) > largest[z]:
                largest[z] = len(members)
        self.group_of = group_of
        self.groups = groups
        self.largest = largest
        # roads
        in_road: set[int] = set()
        roads: list[Road] = []
        dirs = _ROAD_DIRS
        for i in occ:
            if not cells[i] >> ROAD_SHIFT or i in in_road:
                continue
            in_road.add(i)
            members = [i]
            ends: list[tuple[int, int, int]] = []
            for j in members:
                for bit, d, back in dirs[cells[j] >> ROAD_SHIFT]:
                    n = j + d
                    if (cells[n] >> ROAD_SHIFT) & back:
                        if n not in in_road:
                            in_road.add(n)
                            members.append(n)
                    else:
                        ends.append((j, bit, n))
            roads.append(Road(members, ends))
        self.roads = roads

    # -------------------------------------------------------------- helpers
    def exterior(self) -> set[int]:
        """Empty cells connected to the outside of the city's bounding box (orthogonally)."""
        if self._exterior is None:
            rows = [i // WIDTH for i in self.occ]
            cols = [i % WIDTH for i in self.occ]
            r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
            cells = self.cells
            ext: set[int] = set()
            stack = [r * WIDTH + c for r in (r0, r1) for c in range(c0, c1 + 1)]
            stack += [r * WIDTH + c for c in (c0, c1) for r in range(r0, r1 + 1)]
            while stack:
                j = stack.pop()
                if j in ext or cells[j]:
                    continue
                r, c = divmod(j, WIDTH)
                if r < r0 or r > r1 or c < c0 or c > c1:
                    continue
                ext.add(j)
                stack.extend(j + d for d in _STEPS)
            self._exterior = ext
        return self._exterior

    def is_open(self, cell: int) -> bool:
        """True if ``cell`` (the neighbour beyond a block side) makes that side the city edge.

        Option ``city_edge``: "local" (default) = no block there; "outer" = no block there and
        connected to the outside (a side facing an enclosed hole is not the edge).
        """
        if self.cells[cell]:
            return False
        if self.rules.edge_outer:
            return cell in self.exterior()
        return True

    def zone_count(self, zone: int) -> int:
        """Number of visible blocks of zone code ``zone``."""
        cells = self.cells
        return sum(1 for i in self.occ if cells[i] & ZONE_MASK == zone)

    def lines(self) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
        """(rows, cols): line number -> ``[blocks, commercial, industrial, residential, park]``
        counts, only for lines that contain blocks (cached)."""
        if self._lines is None:
            rows: dict[int, list[int]] = {}
            cols: dict[int, list[int]] = {}
            cells = self.cells
            for i in self.occ:
                z = cells[i] & ZONE_MASK
                r = rows.get(i // WIDTH)
                if r is None:
                    r = rows[i // WIDTH] = [0, 0, 0, 0, 0]
                r[0] += 1
                r[z] += 1
                c = cols.get(i % WIDTH)
                if c is None:
                    c = cols[i % WIDTH] = [0, 0, 0, 0, 0]
                c[0] += 1
                c[z] += 1
            self._lines = (rows, cols)
        return self._lines


# ------------------------------------------------------------------ the 18 conditions
def condition_1(a: Analysis) -> int:
    """1 The Outskirts: per road +1 if no end reaches the city edge, −1 if at least one does.

    A closed loop scores ``Rules.loop_outskirts`` (+1 by default; digest A4). Card 1; digest §7.
    """
    total = 0
    cells = a.cells
    outer = a.rules.edge_outer
    for road in a.roads:
        if not road.ends:
            total += a.rules.loop_outskirts
        elif any(not cells[n] and (not outer or a.is_open(n)) for _, _, n in road.ends):
            total -= 1
        else:
            total += 1
    return total


def condition_2(a: Analysis) -> int:
    """2 Bloom Boom: every row and every column with exactly 3 parks +1, with no park −1."""
    rows, cols = a.lines()
    total = 0
    for line in list(rows.values()) + list(cols.values()):
        parks = line[PARK]
        if parks == 3:
            total += 1
        elif parks == 0:
            total -= 1
    return total


def condition_3(a: Analysis) -> int:
    """3 Go Green: +1 per park block, −3 per industrial block."""
    return a.zone_count(PARK) - 3 * a.zone_count(INDUSTRIAL)


_BLOCK_PARTY = (-8, -5, -2, 1, 4, 7)


def condition_4(a: Analysis) -> int:
    """4 Block Party: count 2×2 squares of one zone (overlaps count); 0..5+ → −8,−5,−2,+1,+4,+7."""
    cells = a.cells
    squares = 0
    for i in a.occ:
        z = cells[i] & ZONE_MASK
        if (cells[i + 1] & ZONE_MASK == z and cells[i + WIDTH] & ZONE_MASK == z
                and cells[i + WIDTH + 1] & ZONE_MASK == z):
            squares += 1
    return _BLOCK_PARTY[min(squares, 5)]


def condition_5(a: Analysis) -> int:
    """5 Stacks and Scrapers: +2 per industrial block whose neighbours are all commercial or
    industrial (sides without a block do not disqualify)."""
    cells = a.cells
    total = 0
    for i in a.occ:
        if cells[i] & ZONE_MASK == INDUSTRIAL:
            # zone codes 0 empty, 1 commercial, 2 industrial
            if (cells[i + 1] & ZONE_MASK <= INDUSTRIAL and cells[i - 1] & ZONE_MASK <= INDUSTRIAL
                    and cells[i + WIDTH] & ZONE_MASK <= INDUSTRIAL
                    and cells[i - WIDTH] & ZONE_MASK <= INDUSTRIAL):
                total += 2
    return total


def condition_6(a: Analysis) -> int:
    """6 Master Planned: largest residential group − largest industrial group."""
    return a.largest[RESIDENTIAL] - a.largest[INDUSTRIAL]


def condition_7(a: Analysis) -> int:
    """7 Central Perks: +1 per park with no open side (interior), −2 per park on the city edge."""
    total = 0
    cells = a.cells
    for i in a.occ:
        if cells[i] & ZONE_MASK == PARK:
            if any(a.is_open(i + d) for d in _STEPS):
                total -= 2
            else:
                total += 1
    return total


def _burbs_value(a: Analysis, members: list[int]) -> int:
    cells = a.cells
    inside = set(members)
    around: set[int] = set()
    for j in members:
        for d in _STEPS:
            n = j + d
            if n not in inside:
                around.add(n)
    value = 0
    for n in around:
        z = cells[n] & ZONE_MASK
        if z == PARK:
            value += 1
        elif z == INDUSTRIAL:
            value -= 2
    return value


def condition_8(a: Analysis) -> int:
    """8 The 'Burbs: around the largest residential group, +1 per adjacent park block and −2 per
    adjacent industrial block (each block once). Tied largest groups: the best one (digest A6) or,
    with ``burbs_tie = "first"``, the one holding the first block in reading order."""
    size = a.largest[RESIDENTIAL]
    if size == 0:
        return 0
    tied = [m for z, m in a.groups if z == RESIDENTIAL and len(m) == size]
    if a.rules.burbs_first:
        return _burbs_value(a, min(tied, key=min))
    return max(_burbs_value(a, m) for m in tied)


def condition_9(a: Analysis) -> int:
    """9 Concrete Jungle: +1 per industrial block with an industrial block diagonally adjacent
    (side contact does not count)."""
    cells = a.cells
    total = 0
    for i in a.occ:
        if cells[i] & ZONE_MASK == INDUSTRIAL and any(
                cells[i + d] & ZONE_MASK == INDUSTRIAL for d in _DIAG):
            total += 1
    return total


def condition_10(a: Analysis) -> int:
    """10 The Strip: commercial blocks in the single best row or column (gaps don't matter)."""
    rows, cols = a.lines()
    return max((line[COMMERCIAL] for line in list(rows.values()) + list(cols.values())),
               default=0)


def condition_11(a: Analysis) -> int:
    """11 Mini Marts: +2 per commercial block that one road runs through from a residential block
    into another residential block (straight or L; digest A8). With ``mini_marts = "adjacent"``:
    +2 per commercial block with at least two residential neighbours, roads ignored."""
    cells = a.cells
    total = 0
    for i in a.occ:
        code = cells[i]
        if code & ZONE_MASK != COMMERCIAL:
            continue
        if a.rules.mini_adjacent:
            if sum(1 for d in _STEPS if cells[i + d] & ZONE_MASK == RESIDENTIAL) >= 2:
                total += 2
            continue
        m = code >> ROAD_SHIFT
        if not m:
            continue
        ok = 0
        for bit, d, back in _SIDES:
            if m & bit:
                nb = cells[i + d]
                if nb & ZONE_MASK == RESIDENTIAL and (nb >> ROAD_SHIFT) & back:
                    ok += 1
        if ok == 2:
            total += 2
    return total


def condition_12(a: Analysis) -> int:
    """12 Superhighway: longest road in sections (blocks), halved and rounded down."""
    return max((len(r.cells) for r in a.roads), default=0) // 2


def condition_13(a: Analysis) -> int:
    """13 Park Hopping: +3 per road whose two ends both face park blocks, different blocks (digest
    A5; with ``park_hopping_parks = "groups"``: different park groups). Loops score 0."""
    cells = a.cells
    total = 0
    for road in a.roads:
        if len(road.ends) != 2:
            continue
        (_, _, n1), (_, _, n2) = road.ends
        if cells[n1] & ZONE_MASK == PARK and cells[n2] & ZONE_MASK == PARK and n1 != n2:
            if a.rules.hop_groups and a.group_of[n1] == a.group_of[n2]:
                continue
            total += 3
    return total


def condition_14(a: Analysis) -> int:
    """14 Looping Lanes: +1 per road section in a closed loop (every loop, no cap)."""
    return sum(len(r.cells) for r in a.roads if not r.ends)


def condition_15(a: Analysis) -> int:
    """15 Skid Row: +2 per residential block with at least 2 orthogonal industrial neighbours."""
    cells = a.cells
    total = 0
    for i in a.occ:
        if cells[i] & ZONE_MASK == RESIDENTIAL:
            if sum(1 for d in _STEPS if cells[i + d] & ZONE_MASK == INDUSTRIAL) >= 2:
                total += 2
    return total


def condition_16(a: Analysis) -> int:
    """16 Morning Commute: +2 per road with a section in a residential and in a commercial block."""
    cells = a.cells
    total = 0
    for road in a.roads:
        zones = {cells[j] & ZONE_MASK for j in road.cells}
        if RESIDENTIAL in zones and COMMERCIAL in zones:
            total += 2
    return total


def condition_17(a: Analysis) -> int:
    """17 Tourist Traps: +1 per commercial block on the city edge, +1 more on a corner (two
    perpendicular open sides; digest A3, ``tourist_corner = "any_two"``: any two open sides)."""
    cells = a.cells
    total = 0
    for i in a.occ:
        if cells[i] & ZONE_MASK != COMMERCIAL:
            continue
        n, e, s, w = (a.is_open(i - WIDTH), a.is_open(i + 1), a.is_open(i + WIDTH), a.is_open(i - 1))
        if not (n or e or s or w):
            continue
        total += 1
        if a.rules.corner_any:
            if n + e + s + w >= 2:
                total += 1
        elif (n or s) and (e or w):
            total += 1
    return total


def condition_18(a: Analysis) -> int:
    """18 Sprawlopolis: blocks in the fullest row + blocks in the fullest column (gaps skipped)."""
    rows, cols = a.lines()
    return max((r[0] for r in rows.values()), default=0) + max((c[0] for c in cols.values()),
                                                                default=0)


CONDITIONS: dict[int, tuple[str, Callable[[Analysis], int]]] = {
    n: (CARDS[n].name, fn) for n, fn in {
        1: condition_1,  # The Outskirts
        2: condition_2,  # Bloom Boom
        3: condition_3,  # Go Green
        4: condition_4,  # Block Party
        5: condition_5,  # Stacks and Scrapers
        6: condition_6,  # Master Planned
        7: condition_7,  # Central Perks
        8: condition_8,  # The 'Burbs
        9: condition_9,  # Concrete Jungle
        10: condition_10,  # The Strip
        11: condition_11,  # Mini Marts
        12: condition_12,  # Superhighway
        13: condition_13,  # Park Hopping
        14: condition_14,  # Looping Lanes
        15: condition_15,  # Skid Row
        16: condition_16,  # Morning Commute
        17: condition_17,  # Tourist Traps
        18: condition_18,  # Sprawlopolis
    }.items()
}
"""Condition number -> (name on the card, from ``data/cards.json``; scoring function)."""


def condition_name(number: int) -> str:
    """The name of condition ``number`` (1..18)."""
    return CONDITIONS[number][0]


@dataclass(slots=True)
class Breakdown:
    """A scored city.

    Attributes:
        groups: zone name -> blocks in its largest group (all four zones, 0 if absent).
        roads: number of roads (a positive count; the road tax is ``-roads`` unless "easier").
        conditions: condition number -> points, in the order given.
        blocks: block points (sum of ``groups``, or the single scoring zone under "harder").
        total: blocks − road tax + conditions.
        target: sum of the condition numbers; won: total ≥ target.
    """

    groups: dict[str, int]
    roads: int
    conditions: dict[int, int]
    blocks: int
    total: int
    target: int
    won: bool
    road_tax: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The score calculator's ``--json`` form (docs/formats.md)."""
        return {
            "total": self.total,
            "target": self.target,
            "won": self.won,
            "groups": dict(self.groups),
            "roads": self.roads,
            "conditions": {str(k): v for k, v in self.conditions.items()},
        }

    def parts(self) -> dict[str, int]:
        """Breakdown for ``PlayerScore.parts``: zones, ``roads`` (negative), each condition."""
        out = dict(self.groups) if self.blocks == sum(self.groups.values()) else {"blocks": self.blocks}
        out["roads"] = -self.road_tax
        for n, v in self.conditions.items():
            out[f"{n} {condition_name(n)}"] = v
        return out


def _block_points(largest: list[int], rules: Rules) -> int:
    if not rules.single_zone:
        return largest[1] + largest[2] + largest[3] + largest[4]
    if rules.harder_zone == "best":
        return max(largest[1:])
    return largest[ZONES.index(rules.harder_zone) + 1]


def score_city(
    cells: list[int], occ: list[int], conditions: tuple[int, ...] | list[int], rules: Rules
) -> Breakdown:
    """Full score of the city ``cells`` (flat block codes, ``occ`` = occupied cells).

    Rulebook scoring: blocks (largest group per zone) − roads + the condition cards; win at ≥ target.
    Difficulty variants (digest §6): "easier" drops the road tax, "harder" scores one zone only.
    """
    a = Analysis(cells, occ, rules)
    lg = a.largest
    groups = {ZONES[z]: lg[z + 1] for z in range(4)}
    blocks = _block_points(lg, rules)
    nroads = len(a.roads)
    tax = nroads if rules.road_tax else 0
    conds = {n: CONDITIONS[n][1](a) for n in conditions}
    total = blocks - tax + sum(conds.values())
    target = sum(conditions)
    return Breakdown(groups, nroads, conds, blocks, total, target, total >= target, tax)


def total_of(
    cells: list[int], occ: list[int], conditions: tuple[int, ...] | list[int], rules: Rules
) -> int:
    """Just the total of :func:`score_city` (the greedy bot's evaluation)."""
    a = Analysis(cells, occ, rules)
    tax = len(a.roads) if rules.road_tax else 0
    total = _block_points(a.largest, rules) - tax
    for n in conditions:
        total += CONDITIONS[n][1](a)
    return total
