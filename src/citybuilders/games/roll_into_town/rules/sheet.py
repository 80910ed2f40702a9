"""Roll into Town map sheet: one player's map and supplies, with every rule that reads or
changes it (drawing icons, the ocean cascade, building placement, collecting, forest growth).
The game state, the score calculator and the tests share this one implementation.

Cell codes, sides and tables: ``loader``; the scoring categories: ``scoring``.
"""

from __future__ import annotations

from typing import Any

from ..loader import (B_HARBOR, B_LIGHT_TOP, B_LUMBERJACK, B_QUARRY, B_WATERMILL, BUILD_KINDS, CAP,
                      COAST, COAST_MASKS, CORNER_PAIRS, E_, EMPTY, FARM,
                      FOUNTAIN_USES, FREE_KINDS, K_CATHEDRAL, K_CATHEDRAL_M,
                      K_HARBOR, K_LIGHTHOUSE, K_LUMBERJACK, K_QUARRY, K_WATERMILL, KIND_COST,
                      KIND_UNIQUE, MOUNTAIN, N_, OCEAN, RIVER, RIVER_SHAPES,
                      S_, START, TOWN_HALL, TOWN_HALL_USES, TREE, W_)
from ..scoring import score_parts
from .geometry import Geometry, bits

__all__ = ["Sheet", "SHEET_FIELDS", "SHEET_LIST_FIELDS", "allowed_coast_masks"]

SHEET_FIELDS = ("terrain", "sides", "bld", "res", "hall_uses", "fountain_uses", "unique_built",
                "river", "river_src", "river_exit", "unchecked")
"""The saved fields of a sheet, in JSON order (``to_json`` / ``load_json``); ``free`` and
``trees`` (and the kept ``lumberjacks`` and ``_income``) are derived from them, ``geo`` and
``watermill_front`` come from the game."""
SHEET_LIST_FIELDS = frozenset(("terrain", "sides", "bld", "res", "river"))


_KINDS = tuple(range(len(BUILD_KINDS)))
_BUILDABLE: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
"""``Sheet.buildable_kinds`` by ``(food, stone, wood, unique_built)`` (a pure table, filled on
demand: resources are capped at 9, so at most 10**3 * 16 keys in play)."""


def allowed_coast_masks(two_side_shape: str) -> tuple[int, ...]:
    """Water-side masks a coast may have under option ``coast_two_side_shape`` (``any``: every
    1-3 side mask; ``corner_only``: two-sided coasts only as corners), in COAST_MASKS order."""
    if two_side_shape == "corner_only":
        return tuple(m for m in COAST_MASKS if m.bit_count() != 2 or m in CORNER_PAIRS)
    return COAST_MASKS


class Sheet:
    """One player's map and supplies.

    Fields: ``terrain`` (list of terrain codes), ``sides`` (river flow / coast water masks),
    ``bld`` (building codes), ``free`` (bitset of empty cells: no icon, building or ocean, not the
    town hall), ``trees`` (bitset), ``lumberjacks`` (bitset of lumberjack cells), ``res``
    ([food, stone, wood]), ``hall_uses``, ``fountain_uses``, ``unique_built`` (bits of
    :data:`UNIQUE_BIT`), ``river`` (river cells in flow order), ``river_src`` (side of the first
    river cell that points off the map, -1 before the first piece), ``river_exit`` (open side of
    the last river cell), ``unchecked`` (cells freed by lumberjacks since the last ocean check);
    the saved ones are :data:`SHEET_FIELDS`.

    ``watermill_front``: whether a watermill may stand on the square the river's open end
    points at (option ``watermill_rule``: False for the rulebook's ``not_in_front``, True for the
    proposal's ``non_flow_side``).

    ``_blk``: cache of :meth:`free_plus` lists, each tagged with the ``free`` mask it was made
    for (a pure cache keyed by value). :meth:`clone` shares the entries with the copy; the key
    ``None`` holds the sheet's owner token, and an entry made under another token (before a
    clone) is copied before it is brought up to date, so neither sheet changes the other's.

    ``_income``: ``[farms, watermills, harbors, quarry stone]`` (the counts :meth:`income`
    needs), kept up to date by :meth:`draw_simple` and :meth:`place` (farms, mountains and
    buildings are never removed), as ``lumberjacks`` is by :meth:`place`; both are recomputed by
    :meth:`derive_masks`: code that writes the cell lists directly calls it afterwards, as for
    ``free``.
    """

    __slots__ = (("geo", "watermill_front") + SHEET_FIELDS
                 + ("free", "trees", "lumberjacks", "_blk", "_income"))

    def __init__(self, geo: Geometry, watermill_front: bool = False) -> None:
        self.geo = geo
        self.watermill_front = watermill_front
        n = geo.n
        self.terrain = [EMPTY] * n
        self.sides = [0] * n
        self.bld = [0] * n
        self.terrain[geo.hall] = TOWN_HALL
        self.free = geo.all_mask & ~(1 << geo.hall)
        self.trees = 0
        self.lumberjacks = 0
        self.res = list(START)
        self.hall_uses = TOWN_HALL_USES
        self.fountain_uses = FOUNTAIN_USES
        self.unique_built = 0
        self.river: list[int] = []
        self.river_src = -1
        self.river_exit = -1
        self.unchecked = 0
        self._blk: dict[int, list[Any]] = {}
        self._income = [0, 0, 0, 0]

    def clone(self) -> "Sheet":
        """Independent copy (lists copied, geometry shared). Written out for speed; a test
        checks that it copies every slot."""
        s = Sheet.__new__(Sheet)
        s.geo = self.geo
        s.watermill_front = self.watermill_front
        s.terrain = self.terrain[:]
        s.sides = self.sides[:]
        s.bld = self.bld[:]
        s.free = self.free
        s.trees = self.trees
        s.lumberjacks = self.lumberjacks
        s.res = self.res[:]
        s.hall_uses = self.hall_uses
        s.fountain_uses = self.fountain_uses
        s.unique_built = self.unique_built
        s.river = self.river[:]
        s.river_src = self.river_src
        s.river_exit = self.river_exit
        s.unchecked = self.unchecked
        s._income = self._income[:]
        blk = self._blk
        s._blk = blk.copy()
        s._blk[None] = object()
        blk[None] = object()  # this sheet's entries are shared now: copied before an update
        return s

    def free_plus(self, base: int, sel: int = -1) -> list[int]:
        """``[base + i for i in empty cells of sel]`` ascending (``sel`` a bitset of cells, default
        -1 = all; ``base`` -1 is reserved for the plain list of empty cells).

        A cached list shared between calls: callers must not change it, and must use it before
        the sheet changes. Each cache entry ``base -> [sel, list, free mask it was made for,
        owner token]`` is brought up to date when asked for: if only a few cells were filled
        since, their entries are deleted in place (in a copy if the entry was made under another
        owner token, i.e. before a clone); otherwise (or if a cell was freed) the list is made
        again.
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
                    own = self._blk.get(None)
                    if len(e) < 4 or e[3] is not own:  # shared with a clone: copy on write
                        lst = lst[:]
                        e = self._blk[base] = [sel, lst, old, own]
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
                lst = bits(free)
            else:
                lst = [base + c for c in self.free_plus(-1)]
        else:
            lst = [base + c for c in bits(free & sel)]
        self._blk[base] = [sel, lst, free, self._blk.get(None)]
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
        elif terrain == FARM:
            self._income[0] += 1
        elif terrain == MOUNTAIN:  # one stone more for each quarry beside it
            bld = self.bld
            for j in self.geo.nb8[cell]:
                if bld[j] == B_QUARRY:
                    self._income[3] += 1

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

    def river_front(self) -> int:
        """The cell the river's open end points at (-1: no river yet, or it points off the
        map). Where the next river square goes; "in front of the river"."""
        if not self.river:
            return -1
        return self.geo.side_nb[self.river[-1]][self.river_exit]

    def _ocean_candidate(self, i: int) -> bool:
        return self.terrain[i] == EMPTY and (self.bld[i] == 0 or self.bld[i] == B_LIGHT_TOP)

    def ocean_check(self, rule: str, seeds: int | None = None) -> int:
        """Turn every empty cell with water on two sides into ocean, repeating to a fixed point
        (rulebook coast icon; ``rule`` = ``any_two`` or ``perpendicular_pair``). A lighthouse top
        on an empty cell may still become ocean; nothing else that is occupied can.

        ``seeds`` limits the first pass to these cells (default: the whole map). Returns the
        number of new ocean cells.
        """
        geo = self.geo
        terrain, sides = self.terrain, self.sides
        # the cells that may become ocean (:meth:`_ocean_candidate`) as a mask: the empty
        # cells and a lighthouse top on an empty cell; a cell leaves it when it turns to ocean,
        # none joins it here, so the others are left out of the work list from the start
        cand = self.free
        bld = self.bld
        if B_LIGHT_TOP in bld:
            i = -1
            for _ in range(bld.count(B_LIGHT_TOP)):
                i = bld.index(B_LIGHT_TOP, i + 1)
                if terrain[i] == EMPTY:
                    cand |= 1 << i
        work = bits((geo.all_mask if seeds is None else seeds) & cand)
        self.unchecked = 0
        made = 0
        perpendicular = rule == "perpendicular_pair"
        m4, side_nb = geo.m4, geo.side_nb
        while work:
            i = work.pop()
            if not cand >> i & 1:
                continue
            # :meth:`water_sides`, written out side by side: the neighbour is ocean, or a
            # coast with water on its side facing this cell
            w = 0
            n, e, s, west = side_nb[i]
            if n >= 0 and (terrain[n] == OCEAN or terrain[n] == COAST and sides[n] & S_):
                w = N_
            if e >= 0 and (terrain[e] == OCEAN or terrain[e] == COAST and sides[e] & W_):
                w |= E_
            if s >= 0 and (terrain[s] == OCEAN or terrain[s] == COAST and sides[s] & N_):
                w |= S_
            if west >= 0 and (terrain[west] == OCEAN or terrain[west] == COAST
                              and sides[west] & E_):
                w |= W_
            if perpendicular:
                ok = bool(w & (N_ | S_)) and bool(w & (E_ | W_))
            else:
                ok = w.bit_count() >= 2
            if ok:
                terrain[i] = OCEAN
                sides[i] = 0
                cand &= ~(1 << i)
                self.free &= ~(1 << i)
                made += 1
                work.extend(bits(m4[i] & cand))
        return made

    # ------------------------------------------------------------------ buildings
    def can_place(self, kind: int, anchor: int) -> bool:
        """Whether building kind ``kind`` fits with its shape origin at cell ``anchor``
        (placement rules of each building, rulebook buildings; no cost or uniqueness check).

        Harbor: a coast without a building. Watermill: an empty cell sharing a side with a river
        square where that side is not one of the square's flow sides, and (unless
        ``watermill_front``) not the square the river's open end points at (rulebook: "beside
        the river, not in front of it"). Lighthouse: see :meth:`anchor_mask`. Cathedral: five
        empty cells. Others: an empty cell."""
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
                    return self.watermill_front or anchor != self.river_front()
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
        if kind in FREE_KINDS:
            return free
        if kind == K_WATERMILL:
            side_nb, sides = geo.side_nb, self.sides
            m = 0
            for j in self.river:
                nb, sh = side_nb[j], sides[j]
                for s in range(4):
                    if not sh >> s & 1 and nb[s] >= 0:
                        m |= 1 << nb[s]
            if not self.watermill_front and self.river:
                front = side_nb[self.river[-1]][self.river_exit]
                if front >= 0:
                    m &= ~(1 << front)
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
        if kind == K_QUARRY:  # one stone for each mountain beside it
            terrain = self.terrain
            for j in self.geo.nb8[anchor]:
                if terrain[j] == MOUNTAIN:
                    self._income[3] += 1
        elif kind == K_WATERMILL:
            self._income[1] += 1
        elif kind == K_LUMBERJACK:
            self.lumberjacks |= 1 << anchor
        elif kind == K_HARBOR:
            self._income[2] += 1

    def buildable_kinds(self) -> tuple[int, ...]:
        """The build kinds affordable now (no trades) and not yet built if unique, ascending
        (rulebook buildings: cost, one of each unique building); placement is not checked."""
        f, s, w = self.res
        ub = self.unique_built
        key = (f, s, w, ub)
        kinds = _BUILDABLE.get(key)
        if kinds is None:
            kinds = _BUILDABLE[key] = tuple(
                k for k in _KINDS if not KIND_UNIQUE[k] & ub and f >= KIND_COST[k][0]
                and s >= KIND_COST[k][1] and w >= KIND_COST[k][2])
        return kinds

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
        collect phase). From the counts kept in ``_income`` (:meth:`income_parts` recounts
        them)."""
        farms, mills, harbors, stone = self._income
        return farms * (1 + mills) + harbors, stone

    def income_parts(self) -> list[int]:
        """``[farms, watermills, harbors, quarry stone]`` counted on the cell lists (what
        ``_income`` holds)."""
        terrain, bld = self.terrain, self.bld
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
        return [terrain.count(FARM), bld.count(B_WATERMILL), bld.count(B_HARBOR), stone]

    def collect_income(self) -> None:
        """Add the automatic income (capped at 9)."""
        food, stone = self.income()
        self.gain(0, food)
        self.gain(1, stone)

    def lumberjacks_with_trees(self) -> list[int]:
        """Lumberjack cells with at least one tree in their 8-neighbourhood."""
        trees = self.trees
        jacks = self.lumberjacks
        if not trees or not jacks:
            return []
        m8 = self.geo.m8
        return [i for i in bits(jacks) if m8[i] & trees]

    def cut(self, cell: int, timing: str = "after_each_coast", ocean_rule: str = "any_two") -> int:
        """Use the lumberjack at ``cell``: every tree in its 8-neighbourhood is erased (the cell is
        empty again) for 1 wood each (capped). With ``timing == "invariant"`` the freed cells get
        the ocean check at once; otherwise at the next coast drawn. Returns the trees cut."""
        cutm = self.geo.m8[cell] & self.trees
        n = cutm.bit_count()
        for j in bits(cutm):
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
        trees = self.trees
        # a tree is in a forest exactly when a tree shares a side with it: the forests are the
        # groups of those trees (the lone trees left out first, not found and dropped)
        return self.tree_groups(trees & self.geo.spread4(trees))

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
        """Points by category (``scoring.CATEGORIES``: houses, taverns, river, coast, lighthouse,
        cathedral; rulebook scoring)."""
        return score_parts(self, river_rule)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """JSON-able full sheet: the :data:`SHEET_FIELDS` (lists copied)."""
        return {k: (getattr(self, k)[:] if k in SHEET_LIST_FIELDS else getattr(self, k))
                for k in SHEET_FIELDS}

    def load_json(self, d: dict[str, Any]) -> None:
        """Inverse of :meth:`to_json` (``unchecked`` may be missing: 0); derives ``free``,
        ``trees``, ``lumberjacks`` and ``_income``. Raises ValueError/KeyError/TypeError for a
        malformed sheet."""
        for k in SHEET_FIELDS:
            if k in SHEET_LIST_FIELDS:
                setattr(self, k, [int(x) for x in d[k]])
            else:
                setattr(self, k, int(d.get(k, 0) if k == "unchecked" else d[k]))
        n = self.geo.n
        if not len(self.terrain) == len(self.sides) == len(self.bld) == n:
            raise ValueError("sheet size does not match the map size")
        self.derive_masks()

    def derive_masks(self) -> None:
        """Recompute ``free``, ``trees``, ``lumberjacks`` and ``_income`` from the cell lists."""
        free = trees = jacks = 0
        for i in range(self.geo.n):
            if self.terrain[i] == EMPTY and self.bld[i] == 0:
                free |= 1 << i
            if self.terrain[i] == TREE:
                trees |= 1 << i
            if self.bld[i] == B_LUMBERJACK:
                jacks |= 1 << i
        self.free, self.trees, self.lumberjacks = free, trees, jacks
        self._income = self.income_parts()
