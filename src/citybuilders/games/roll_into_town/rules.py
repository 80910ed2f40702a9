"""Roll into Town rules: data, geometry and the per-player map sheet (pure functions, no I/O).

Coordinates: a square map of ``rows`` x ``cols`` cells, ``(row, col)`` with row 0 at the top
(rules_proposal ``map.grid``); cell index ``i = row * cols + col``. Sides are numbered
0 = N, 1 = E, 2 = S, 3 = W and stored as bit masks N=1, E=2, S=4, W=8.

A :class:`Sheet` is one player's map: terrain (icon or ocean), side masks (river flow sides or
coast water sides), buildings, resources and the once-per-game counters. Everything a rule needs
(ocean cascade, forest growth, collecting, scoring) is a method here, so the game state, the score
calculator and the tests share one implementation.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = [
    "DATA",
    "EMPTY", "FARM", "MOUNTAIN", "TREE", "RIVER", "COAST", "OCEAN", "TOWN_HALL",
    "TERRAIN_NAMES", "BUILDINGS", "BUILD_KINDS", "B_NAMES", "RESOURCES",
    "SIDE_LETTERS", "RIVER_SHAPES", "COAST_MASKS", "mask_text", "parse_mask",
    "Geometry", "geometry", "Sheet", "solo_rank",
]

DATA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data/rules.json").read_text(encoding="utf-8")
)

# ----------------------------------------------------------------------------- terrain
EMPTY, FARM, MOUNTAIN, TREE, RIVER, COAST, OCEAN, TOWN_HALL = range(8)
TERRAIN_NAMES = ("empty", "farm", "mountain", "tree", "river", "coast", "ocean", "town hall")
ICON_NAMES = ("farm", "mountain", "tree", "river", "coast")  # die faces 1-5

# ----------------------------------------------------------------------------- buildings
# cell codes in Sheet.bld (0 = none); the lighthouse has two codes (top, bottom)
B_NONE, B_HOUSE, B_QUARRY, B_LUMBERJACK, B_HARBOR, B_WATERMILL, B_TAVERN, B_FOUNTAIN, \
    B_MARKET, B_LIGHT_TOP, B_LIGHT_BOTTOM, B_CATHEDRAL = range(12)
B_NAMES = ("", "house", "quarry", "lumberjack", "harbor", "watermill", "tavern", "fountain",
           "market", "lighthouse top", "lighthouse bottom", "cathedral")

BUILDINGS: dict[str, dict[str, Any]] = {b["id"]: b for b in DATA["buildings"]}
RESOURCES = ("food", "stone", "wood")
# build kinds used in actions: (name, cell code, shape cells as (dr, dc, code))
BUILD_KINDS: tuple[tuple[str, tuple[tuple[int, int, int], ...]], ...] = (
    ("house", ((0, 0, B_HOUSE),)),
    ("quarry", ((0, 0, B_QUARRY),)),
    ("lumberjack", ((0, 0, B_LUMBERJACK),)),
    ("harbor", ((0, 0, B_HARBOR),)),
    ("watermill", ((0, 0, B_WATERMILL),)),
    ("tavern", ((0, 0, B_TAVERN),)),
    ("fountain", ((0, 0, B_FOUNTAIN),)),
    ("market", ((0, 0, B_MARKET),)),
    ("lighthouse", ((0, 0, B_LIGHT_TOP), (1, 0, B_LIGHT_BOTTOM))),
    ("cathedral", tuple((r, c, B_CATHEDRAL) for r, c in BUILDINGS["cathedral"]["cells"])),
    ("cathedral-mirrored",
     tuple((r, c, B_CATHEDRAL) for r, c in BUILDINGS["cathedral"]["mirrored_cells"])),
)
K_HOUSE, K_QUARRY, K_LUMBERJACK, K_HARBOR, K_WATERMILL, K_TAVERN, K_FOUNTAIN, K_MARKET, \
    K_LIGHTHOUSE, K_CATHEDRAL, K_CATHEDRAL_M = range(11)
KIND_BUILDING = ("house", "quarry", "lumberjack", "harbor", "watermill", "tavern", "fountain",
                 "market", "lighthouse", "cathedral", "cathedral")
KIND_COST: tuple[tuple[int, int, int], ...] = tuple(
    tuple(int(BUILDINGS[b]["cost"].get(r, 0)) for r in RESOURCES) for b in KIND_BUILDING
)
# unique buildings: bit per building in Sheet.unique_built
_FREE_KINDS = frozenset((K_HOUSE, K_QUARRY, K_LUMBERJACK, K_TAVERN, K_FOUNTAIN, K_MARKET))
UNIQUE_BIT = {"fountain": 1, "market": 2, "lighthouse": 4, "cathedral": 8}
KIND_UNIQUE = tuple(UNIQUE_BIT.get(b, 0) if BUILDINGS[b]["unique"] else 0
                    for b in KIND_BUILDING)

CAP = int(DATA["resource_cap"]["value"])
START = tuple(int(DATA["start_resources"][r]) for r in RESOURCES)
ROUNDS = int(DATA["rounds"]["value"])
DICE_PER_ROUND = tuple(DATA["dice_per_round"]["value"])
ICONS_PER_ROUND = tuple(DATA["icons_per_round"]["value"])
TOWN_HALL_USES = int(DATA["town_hall_adjust"]["uses_per_game"])
FOUNTAIN_USES = int(DATA["fountain"]["uses_per_game"])
HOUSE_POINTS = int(BUILDINGS["house"]["points"])
CATHEDRAL_POINTS = int(BUILDINGS["cathedral"]["points"])
TAVERN_CAP = int(BUILDINGS["tavern"]["tavern_cap"])
MAX_DICE = max(DICE_PER_ROUND)

# ----------------------------------------------------------------------------- sides
N_, E_, S_, W_ = 1, 2, 4, 8
SIDE_LETTERS = "NESW"
RIVER_SHAPES = (N_ | S_, E_ | W_, N_ | E_, E_ | S_, S_ | W_, W_ | N_)
COAST_MASKS = tuple(m for m in range(1, 16) if 1 <= bin(m).count("1") <= 3)
CORNER_PAIRS = (N_ | E_, E_ | S_, S_ | W_, W_ | N_)


def mask_text(mask: int) -> str:
    """Side mask as letters in N, E, S, W order (``9`` -> ``"NW"``)."""
    return "".join(SIDE_LETTERS[s] for s in range(4) if mask >> s & 1)


def parse_mask(text: str) -> int:
    """Letters N/E/S/W in any order -> side mask; ValueError for anything else or repeats."""
    mask = 0
    for ch in text.upper():
        k = SIDE_LETTERS.find(ch)
        if k < 0 or mask >> k & 1:
            raise ValueError(f"bad sides {text!r}: use each of N, E, S, W at most once")
        mask |= 1 << k
    if not mask:
        raise ValueError("no sides given")
    return mask


def solo_rank(total: int) -> str:
    """The rulebook's solo rank name for a score (``"failed mayor"`` ... ``"legendary mayor"``)."""
    for rank in DATA["solo_ranks"]["ranks"]:
        if total >= rank.get("min", -10**9) and total <= rank.get("max", 10**9):
            return str(rank["rank"])
    raise AssertionError("solo ranks do not cover every score")  # pragma: no cover


# ----------------------------------------------------------------------------- geometry
class Geometry:
    """Neighbour tables of a ``rows`` x ``cols`` square map.

    ``side_nb[i][s]``: neighbour index on side s, or -1 off the map. ``nb4[i]``/``nb8[i]``:
    tuples of on-map neighbours (sides / sides and corners); ``m4``/``m8``: the same as bitsets.
    """

    __slots__ = ("rows", "cols", "n", "side_nb", "nb4", "nb8", "m4", "m8", "border", "hall",
                 "all_mask", "river_starts", "not_first_col", "not_last_col", "anchor_ok",
                 "river_start_mask")

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols, self.n = rows, cols, rows * cols
        steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
        side_nb = []
        nb8 = []
        for i in range(self.n):
            r, c = divmod(i, cols)
            side_nb.append(tuple(
                (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
                for dr, dc in steps))
            nb8.append(tuple(
                (r + dr) * cols + c + dc
                for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols))
        self.side_nb = tuple(side_nb)
        self.nb4 = tuple(tuple(j for j in t if j >= 0) for t in side_nb)
        self.nb8 = tuple(nb8)
        self.m4 = tuple(sum(1 << j for j in t) for t in self.nb4)
        self.m8 = tuple(sum(1 << j for j in t) for t in self.nb8)
        self.border = sum(1 << i for i in range(self.n) if -1 in side_nb[i])
        self.hall = (rows // 2) * cols + cols // 2
        self.all_mask = (1 << self.n) - 1
        # column masks for whole-map shifts (see :meth:`spread4`)
        self.not_first_col = sum(1 << i for i in range(self.n) if i % cols)
        self.not_last_col = sum(1 << i for i in range(self.n) if i % cols != cols - 1)
        # anchor_ok[kind]: anchors whose whole shape lies on the map (bitset)
        anchor_ok = []
        for _, shape in BUILD_KINDS:
            h = max(dr for dr, _, _ in shape) + 1
            w = max(dc for _, dc, _ in shape) + 1
            anchor_ok.append(sum(1 << i for i in range(self.n)
                                 if i // cols + h <= rows and i % cols + w <= cols))
        self.anchor_ok = tuple(anchor_ok)
        # river_start_mask[k]: cells where RIVER_SHAPES[k] may be the first river piece
        self.river_start_mask = tuple(
            sum(1 << i for i in range(self.n)
                if any(shape >> s & 1 and side_nb[i][s] < 0 for s in range(4)))
            for shape in RIVER_SHAPES)
        # first river pieces: (cell, shape) with a flow side off the map, shape-major order
        self.river_starts = tuple(
            (i, shape) for shape in RIVER_SHAPES for i in range(self.n)
            if any(shape >> s & 1 and side_nb[i][s] < 0 for s in range(4)))


    def spread4(self, mask: int) -> int:
        """Cells sharing a side with a cell of ``mask`` (bitset in, bitset out; may include
        cells of ``mask`` itself). Whole-map shifts, no per-cell loop."""
        cols = self.cols
        return (((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
                | (mask << cols) | (mask >> cols)) & self.all_mask


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    """Cached :class:`Geometry` of a map size."""
    return Geometry(rows, cols)


_BYTE_BITS = tuple(tuple(o for o in range(8) if b >> o & 1) for b in range(256))
_BIT_TABLE: list[tuple[tuple[int, ...], ...]] = []


def _bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, ascending (byte-table lookup)."""
    out: list[int] = []
    table = _BIT_TABLE
    k = 0
    while mask:
        b = mask & 0xFF
        if b:
            while k >= len(table):
                base = len(table) * 8
                table.append(tuple(tuple(base + o for o in t) for t in _BYTE_BITS))
            out += table[k][b]
        mask >>= 8
        k += 1
    return out


# ----------------------------------------------------------------------------- the sheet
class Sheet:
    """One player's map and supplies.

    Fields: ``terrain`` (list of terrain codes), ``sides`` (river flow / coast water masks),
    ``bld`` (building codes), ``free`` (bitset of empty cells: no icon, building or ocean, not the
    town hall), ``trees`` (bitset), ``res`` ([food, stone, wood]), ``hall_uses``,
    ``fountain_uses``, ``unique_built`` (bits of :data:`UNIQUE_BIT`), ``river`` (river cells in
    flow order), ``river_src`` (side of the first river cell that points off the map, -1 before the
    first piece), ``river_exit`` (open side of the last river cell), ``unchecked`` (cells freed by
    lumberjacks since the last ocean check).

    ``_blk``: cache of :meth:`free_plus` lists, each tagged with the ``free`` mask it was made
    for (a pure cache keyed by value, never copied by :meth:`clone`).
    """

    __slots__ = ("geo", "terrain", "sides", "bld", "free", "trees", "res", "hall_uses",
                 "fountain_uses", "unique_built", "river", "river_src", "river_exit",
                 "unchecked", "_blk")

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        n = geo.n
        self.terrain = [EMPTY] * n
        self.sides = [0] * n
        self.bld = [0] * n
        self.terrain[geo.hall] = TOWN_HALL
        self.free = geo.all_mask & ~(1 << geo.hall)
        self.trees = 0
        self.res = list(START)
        self.hall_uses = TOWN_HALL_USES
        self.fountain_uses = FOUNTAIN_USES
        self.unique_built = 0
        self.river: list[int] = []
        self.river_src = -1
        self.river_exit = -1
        self.unchecked = 0
        self._blk: dict[int, list[Any]] = {}

    def clone(self) -> "Sheet":
        """Independent copy (lists copied, geometry shared)."""
        s = Sheet.__new__(Sheet)
        s.geo = self.geo
        s.terrain = self.terrain[:]
        s.sides = self.sides[:]
        s.bld = self.bld[:]
        s.free = self.free
        s.trees = self.trees
        s.res = self.res[:]
        s.hall_uses = self.hall_uses
        s.fountain_uses = self.fountain_uses
        s.unique_built = self.unique_built
        s.river = self.river[:]
        s.river_src = self.river_src
        s.river_exit = self.river_exit
        s.unchecked = self.unchecked
        s._blk = {}
        return s

    def free_plus(self, base: int, sel: int = -1) -> list[int]:
        """``[base + i for i in empty cells of sel]`` ascending (``sel`` a bitset of cells, default
        -1 = all; ``base`` -1 is reserved for the plain list of empty cells).

        A cached list shared between calls: callers must not change it, and must use it before
        the sheet changes. Each cache entry ``base -> [sel, list, free mask it was made for]`` is
        brought up to date when asked for: if only a few cells were filled since, their entries
        are deleted in place; otherwise (or if a cell was freed) the list is made again.
        One ``base`` stands for one ``sel``."""
        free = self.free
        e = self._blk.get(base)
        if e is not None:
            old = e[2]
            if old == free:
                return e[1]
            if not free & ~old and e[0] == sel:
                m = e[0]
                gone = old & ~free & m
                if gone.bit_count() <= 8:
                    lst = e[1]
                    old &= m
                    # delete from the highest cell down so that lower positions stay valid
                    while gone:
                        c = gone.bit_length() - 1
                        bit = 1 << c
                        gone ^= bit
                        del lst[(old & (bit - 1)).bit_count()]
                    e[2] = free
                    return lst
        if sel == -1:
            if base == -1:
                lst = _bits(free)
            else:
                lst = [base + c for c in self.free_plus(-1)]
        else:
            lst = [base + c for c in _bits(free & sel)]
        self._blk[base] = [sel, lst, free]
        return lst

    def empty_cells(self) -> list[int]:
        """Empty cells ascending: a cached list (do not change it; see :meth:`free_plus`)."""
        return self.free_plus(-1)

    # ------------------------------------------------------------------ basics
    def is_empty(self, i: int) -> bool:
        """True for an empty cell (rules_proposal map.empty_cell)."""
        return bool(self.free >> i & 1)

    def gain(self, r: int, amount: int) -> None:
        """Add ``amount`` of resource ``r`` (0 food, 1 stone, 2 wood); above 9 is lost."""
        v = self.res[r] + amount
        self.res[r] = CAP if v > CAP else v

    def count(self, code: int) -> int:
        """Number of cells holding building code ``code``."""
        return self.bld.count(code)

    def count_terrain(self, t: int) -> int:
        """Number of cells of terrain ``t``."""
        return self.terrain.count(t)

    # ------------------------------------------------------------------ icons
    def draw_simple(self, cell: int, terrain: int) -> None:
        """Draw a farm, mountain or tree on an empty cell."""
        self.terrain[cell] = terrain
        self.free &= ~(1 << cell)
        if terrain == TREE:
            self.trees |= 1 << cell

    def river_options(self) -> list[tuple[int, int]]:
        """Legal river pieces ``(cell, shape mask)`` now, ordered by shape then cell (rulebook:
        first piece at the map edge, the rest continue the river; rules_proposal icons.river)."""
        geo = self.geo
        out: list[tuple[int, int]] = []
        if self.river_src < 0:
            free = self.free
            return [x for x in geo.river_starts if free >> x[0] & 1]
        last = self.river[-1]
        t = geo.side_nb[last][self.river_exit]
        if t < 0 or not self.free >> t & 1:
            return out  # finished (points off the map) or blocked
        entry = 1 << ((self.river_exit + 2) & 3)
        for shape in RIVER_SHAPES:
            if shape & entry:
                out.append((t, shape))
        return out

    def draw_river(self, cell: int, shape: int) -> None:
        """Draw a legal river piece (see :meth:`river_options`)."""
        nb = self.geo.side_nb[cell]
        if self.river_src < 0:
            sides = [s for s in range(4) if shape >> s & 1]
            if nb[sides[0]] < 0:
                src, ex = sides[0], sides[1]
            else:
                src, ex = sides[1], sides[0]
            self.river_src = src
        else:
            entry = (self.river_exit + 2) & 3
            ex = [s for s in range(4) if shape >> s & 1 and s != entry][0]
        self.river_exit = ex
        self.river.append(cell)
        self.terrain[cell] = RIVER
        self.sides[cell] = shape
        self.free &= ~(1 << cell)

    def river_finished(self) -> bool:
        """True once the river's open end points off the map."""
        return bool(self.river) and self.geo.side_nb[self.river[-1]][self.river_exit] < 0

    def draw_coast(self, cell: int, mask: int, rule: str) -> int:
        """Draw a coast with water ``mask`` on an empty cell, then run the ocean check.

        Returns the number of cells that became ocean.
        """
        self.terrain[cell] = COAST
        self.sides[cell] = mask
        self.free &= ~(1 << cell)
        return self.ocean_check(rule, self.geo.m4[cell] | self.unchecked)

    def water_sides(self, i: int) -> int:
        """Mask of the sides of cell ``i`` that have water (rules_proposal ocean.water_on_a_side):
        the neighbour is ocean, or a coast whose water side faces ``i``."""
        terrain, sides = self.terrain, self.sides
        nb = self.geo.side_nb[i]
        m = 0
        for s in range(4):
            j = nb[s]
            if j >= 0:
                t = terrain[j]
                if t == OCEAN or (t == COAST and sides[j] >> ((s + 2) & 3) & 1):
                    m |= 1 << s
        return m

    def _ocean_candidate(self, i: int) -> bool:
        return self.terrain[i] == EMPTY and (self.bld[i] == 0 or self.bld[i] == B_LIGHT_TOP)

    def ocean_check(self, rule: str, seeds: int | None = None) -> int:
        """Turn every empty cell with water on two sides into ocean, repeating to a fixed point
        (rulebook coast icon; ``rule`` = ``any_two`` or ``perpendicular_pair``). A lighthouse top
        on an empty cell may still become ocean; nothing else that is occupied can.

        ``seeds`` limits the first pass to these cells (default: the whole map). Returns the
        number of new ocean cells.
        """
        work = _bits(self.geo.all_mask if seeds is None else seeds)
        self.unchecked = 0
        made = 0
        perpendicular = rule == "perpendicular_pair"
        m4 = self.geo.m4
        while work:
            i = work.pop()
            if not self._ocean_candidate(i):
                continue
            w = self.water_sides(i)
            if perpendicular:
                ok = bool(w & (N_ | S_)) and bool(w & (E_ | W_))
            else:
                ok = w.bit_count() >= 2
            if ok:
                self.terrain[i] = OCEAN
                self.sides[i] = 0
                self.free &= ~(1 << i)
                made += 1
                work.extend(_bits(m4[i]))
        return made

    # ------------------------------------------------------------------ buildings
    def can_place(self, kind: int, anchor: int) -> bool:
        """Whether building kind ``kind`` fits with its shape origin at cell ``anchor``
        (placement rules of each building; no cost or uniqueness check)."""
        geo = self.geo
        r0, c0 = divmod(anchor, geo.cols)
        if kind == K_HARBOR:
            return self.terrain[anchor] == COAST and self.bld[anchor] == 0
        if kind == K_WATERMILL:
            if not self.free >> anchor & 1:
                return False
            nb = geo.side_nb[anchor]
            for s in range(4):
                j = nb[s]
                if j >= 0 and self.terrain[j] == RIVER and not self.sides[j] >> ((s + 2) & 3) & 1:
                    return True
            return False
        if kind == K_LIGHTHOUSE:
            if r0 + 1 >= geo.rows:
                return False
            top, bot = anchor, anchor + geo.cols
            tt = self.terrain[top]
            if self.bld[top] or tt not in (EMPTY, OCEAN, COAST):
                return False
            if self.bld[bot]:
                return False
            tb = self.terrain[bot]
            if tb == COAST:
                return True
            if tb != EMPTY:
                return False
            return any(self.terrain[j] == COAST for j in geo.nb8[bot])
        if kind in (K_CATHEDRAL, K_CATHEDRAL_M):
            for dr, dc, _ in BUILD_KINDS[kind][1]:
                r, c = r0 + dr, c0 + dc
                if r >= geo.rows or c >= geo.cols or not self.free >> (r * geo.cols + c) & 1:
                    return False
            return True
        return bool(self.free >> anchor & 1)

    def anchor_mask(self, kind: int) -> int:
        """Bitset of every anchor where :meth:`can_place` holds for ``kind`` (same rules, computed
        with whole-map bit operations)."""
        geo = self.geo
        free = self.free
        if kind in _FREE_KINDS:
            return free
        if kind == K_WATERMILL:
            side_nb, sides = geo.side_nb, self.sides
            m = 0
            for j in self.river:
                nb, sh = side_nb[j], sides[j]
                for s in range(4):
                    if not sh >> s & 1 and nb[s] >= 0:
                        m |= 1 << nb[s]
            return m & free
        if kind == K_CATHEDRAL or kind == K_CATHEDRAL_M:
            m = geo.anchor_ok[kind]
            cols = geo.cols
            for dr, dc, _ in BUILD_KINDS[kind][1]:
                m &= free >> (dr * cols + dc)
            return m
        # harbor and lighthouse: walk the coast (and ocean) cells only
        terrain, bld = self.terrain, self.bld
        n_coast = terrain.count(COAST)
        if not n_coast:
            return 0  # a harbor needs a coast; a lighthouse bottom a coast or a cell beside one
        index = terrain.index
        coast = open_coast = 0
        i = -1
        for _ in range(n_coast):
            i = index(COAST, i + 1)
            coast |= 1 << i
            if not bld[i]:
                open_coast |= 1 << i
        if kind == K_HARBOR:
            return open_coast
        # lighthouse: top on an empty, ocean or coast cell; bottom (one row down) on a coast or
        # on an empty cell next to a coast in any of the 8 directions; no building under either
        top = free | open_coast
        i = -1
        for _ in range(terrain.count(OCEAN)):
            i = index(OCEAN, i + 1)
            if not bld[i]:
                top |= 1 << i
        m8 = geo.m8
        near = 0
        c = coast
        while c:
            low = c & -c
            near |= m8[low.bit_length() - 1]
            c ^= low
        bottom = open_coast | (free & near)
        return top & geo.anchor_ok[kind] & (bottom >> geo.cols)

    def place(self, kind: int, anchor: int) -> None:
        """Place building ``kind`` at ``anchor`` (no checks, no payment)."""
        cols = self.geo.cols
        for dr, dc, code in BUILD_KINDS[kind][1]:
            i = anchor + dr * cols + dc
            self.bld[i] = code
            self.free &= ~(1 << i)
        self.unique_built |= KIND_UNIQUE[kind]

    def affordable(self, kind: int) -> bool:
        """Enough resources for ``kind``'s cost (no trades)."""
        f, s, w = KIND_COST[kind]
        res = self.res
        return res[0] >= f and res[1] >= s and res[2] >= w

    def pay(self, kind: int) -> None:
        """Pay ``kind``'s cost."""
        f, s, w = KIND_COST[kind]
        self.res[0] -= f
        self.res[1] -= s
        self.res[2] -= w

    # ------------------------------------------------------------------ collect
    def income(self) -> tuple[int, int]:
        """Automatic collect-phase income ``(food, stone)``: each farm 1 + number of watermills,
        each harbor 1 food, each quarry 1 stone per mountain in its 8-neighbourhood (rulebook
        collect phase)."""
        terrain, bld = self.terrain, self.bld
        farms = terrain.count(FARM)
        food = farms * (1 + bld.count(B_WATERMILL)) + bld.count(B_HARBOR) if farms else \
            bld.count(B_HARBOR)
        stone = 0
        quarries = bld.count(B_QUARRY)
        if quarries and MOUNTAIN in terrain:
            nb8 = self.geo.nb8
            i = -1
            index = bld.index
            for _ in range(quarries):
                i = index(B_QUARRY, i + 1)
                for j in nb8[i]:
                    if terrain[j] == MOUNTAIN:
                        stone += 1
        return food, stone

    def collect_income(self) -> None:
        """Add the automatic income (capped at 9)."""
        food, stone = self.income()
        self.gain(0, food)
        self.gain(1, stone)

    def lumberjacks_with_trees(self) -> list[int]:
        """Lumberjack cells with at least one tree in their 8-neighbourhood."""
        bld, trees = self.bld, self.trees
        if not trees:
            return []
        count = bld.count(B_LUMBERJACK)
        if not count:
            return []
        m8 = self.geo.m8
        out = []
        i = -1
        for _ in range(count):
            i = bld.index(B_LUMBERJACK, i + 1)
            if m8[i] & trees:
                out.append(i)
        return out

    def cut(self, cell: int, timing: str = "after_each_coast", ocean_rule: str = "any_two") -> int:
        """Use the lumberjack at ``cell``: every tree in its 8-neighbourhood is erased (the cell is
        empty again) for 1 wood each (capped). With ``timing == "invariant"`` the freed cells get
        the ocean check at once; otherwise at the next coast drawn. Returns the trees cut."""
        cutm = self.geo.m8[cell] & self.trees
        n = cutm.bit_count()
        for j in _bits(cutm):
            self.terrain[j] = EMPTY
        self.trees &= ~cutm
        self.free |= cutm
        self.gain(2, n)
        self.unchecked |= cutm
        if timing == "invariant":
            self.ocean_check(ocean_rule, self.unchecked)
        return n

    # ------------------------------------------------------------------ maintenance
    def forests(self) -> list[int]:
        """Forests: side-connected groups of at least 2 trees, as bitsets (rulebook maintenance)."""
        return [c for c in self.tree_groups(self.trees) if c & (c - 1)]

    def tree_groups(self, mask: int) -> list[int]:
        """Side-connected components of ``mask`` (bitsets, ordered by lowest cell)."""
        geo = self.geo
        nf, nl, cols = geo.not_first_col, geo.not_last_col, geo.cols
        out = []
        while mask:
            comp = mask & -mask
            while True:  # inlined Geometry.spread4, restricted to the mask
                grown = (comp | ((comp << 1) & nf) | ((comp >> 1) & nl) | (comp << cols)
                         | (comp >> cols)) & mask
                if grown == comp:
                    break
                comp = grown
            out.append(comp)
            mask ^= comp
        return out

    def group_of(self, cell: int) -> int:
        """The side-connected tree group containing tree ``cell``."""
        geo = self.geo
        nf, nl, cols = geo.not_first_col, geo.not_last_col, geo.cols
        trees = self.trees
        comp = 1 << cell
        while True:
            grown = ((((comp << 1) & nf) | ((comp >> 1) & nl) | (comp << cols) | (comp >> cols))
                     & trees) | comp
            if grown == comp:
                return comp
            comp = grown

    def growth_room(self, group: int) -> int:
        """Empty cells sharing a side with a tree of ``group`` (bitset)."""
        return self.geo.spread4(group) & self.free

    def grow(self, cell: int) -> None:
        """Put a new tree on ``cell``."""
        self.draw_simple(cell, TREE)

    # ------------------------------------------------------------------ scoring
    def river_connects(self, rule: str) -> bool:
        """Whether the river joins opposite map edges (rulebook scoring; ``rule`` =
        ``ends_off_opposite_edges`` or ``touches_opposite_edges``)."""
        if not self.river:
            return False
        geo = self.geo
        if rule == "touches_opposite_edges":
            rows = {i // geo.cols for i in self.river}
            cols = {i % geo.cols for i in self.river}
            return (0 in rows and geo.rows - 1 in rows) or (0 in cols and geo.cols - 1 in cols)
        if not self.river_finished():
            return False
        return (self.river_src + 2) & 3 == self.river_exit

    def score_parts(self, river_rule: str) -> dict[str, int]:
        """Points by category: houses, taverns, river, coast, lighthouse, cathedral (rulebook
        scoring). Taverns: houses in the 8-neighbourhood of at least one tavern, which equals the
        best assignment of houses to taverns because the cap (8) equals the neighbour count."""
        terrain, bld = self.terrain, self.bld
        houses = bld.count(B_HOUSE)
        tavern_pts = 0
        if B_TAVERN in bld:
            nb8 = self.geo.nb8
            for i, b in enumerate(bld):
                if b == B_HOUSE and any(bld[j] == B_TAVERN for j in nb8[i]):
                    tavern_pts += 1
        river = len(self.river) * (2 if self.river_connects(river_rule) else 1)
        coast = terrain.count(COAST)
        light = coast + terrain.count(OCEAN) if B_LIGHT_TOP in bld else 0
        return {
            "houses": HOUSE_POINTS * houses,
            "taverns": tavern_pts,
            "river": river,
            "coast": coast,
            "lighthouse": light,
            "cathedral": CATHEDRAL_POINTS if B_CATHEDRAL in bld else 0,
        }

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """JSON-able full sheet."""
        return {
            "terrain": self.terrain[:], "sides": self.sides[:], "bld": self.bld[:],
            "res": self.res[:], "hall_uses": self.hall_uses,
            "fountain_uses": self.fountain_uses, "unique_built": self.unique_built,
            "river": self.river[:], "river_src": self.river_src, "river_exit": self.river_exit,
            "unchecked": self.unchecked,
        }

    def load_json(self, d: dict[str, Any]) -> None:
        """Inverse of :meth:`to_json`; derives ``free`` and ``trees``."""
        n = self.geo.n
        self.terrain = [int(x) for x in d["terrain"]]
        self.sides = [int(x) for x in d["sides"]]
        self.bld = [int(x) for x in d["bld"]]
        if not len(self.terrain) == len(self.sides) == len(self.bld) == n:
            raise ValueError("sheet size does not match the map size")
        self.res = [int(x) for x in d["res"]]
        self.hall_uses = int(d["hall_uses"])
        self.fountain_uses = int(d["fountain_uses"])
        self.unique_built = int(d["unique_built"])
        self.river = [int(x) for x in d["river"]]
        self.river_src = int(d["river_src"])
        self.river_exit = int(d["river_exit"])
        self.unchecked = int(d.get("unchecked", 0))
        self.derive_masks()

    def derive_masks(self) -> None:
        """Recompute ``free`` and ``trees`` from the cell lists."""
        free = trees = 0
        for i in range(self.geo.n):
            if self.terrain[i] == EMPTY and self.bld[i] == 0:
                free |= 1 << i
            if self.terrain[i] == TREE:
                trees |= 1 << i
        self.free, self.trees = free, trees
