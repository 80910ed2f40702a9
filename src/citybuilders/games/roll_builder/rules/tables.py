"""The Roll Builder rules as a game: options, the compiled sheet and the per-game tables.

:class:`RollBuilderTables` is the rules-level :class:`~citybuilders.core.game.Game` (options
validated, sheet loaded, action-id bases and precomputed bitset tables, memo tables for the fast
legal-move generator); rules/state.py's ``RollBuilderRules`` adds the state factory and
game.py's ``RollBuilderGame`` the presentation and strategy rooms.
"""

from __future__ import annotations

from typing import Any

from citybuilders.core.errors import FormatError, OptionError
from citybuilders.core.game import Game, State

from ..actions import A_FIRST_VAR
from ..loader import Sheet, check_sheet_document, load_shipped_sheet, sheet_from_document
from .bits import bit_indices
from .options import OPTION_SPECS
from .player_sheet import PlayerSheet
from ....core.i18n import N_, message_of, without_field

__all__ = ["RollBuilderTables"]


class RollBuilderTables(Game):
    """Roll Builder's rules (registry id ``roll-builder``): 1-6 players, simultaneous, 15 turns.

    Options (rules/options.py): ``sheet`` (shipped sheet id), ``sheet_doc`` (a sheet document;
    overrides ``sheet``) and the rules options of the digest's ambiguity table (B1-B6).
    Raises OptionError for a bad option (one line naming it).
    """

    name = "roll-builder"
    title = "Roll Builder"
    min_players = 1
    max_players = 6
    default_players = 1
    rules_version = "1"
    simultaneous = True
    option_specs = OPTION_SPECS

    def __init__(self, **options: Any) -> None:
        doc = options.get("sheet_doc")
        if doc is not None:  # checked before the generic option check (which reprs the value)
            try:
                options["sheet_doc"] = check_sheet_document(doc)
            except FormatError as exc:
                msg = without_field(message_of(exc), "sheet_doc")
                raise OptionError(N_("option 'sheet_doc' of {name}: {msg}",
                                     name=self.name, msg=msg)) from None
        super().__init__(**options)

    def _post_init(self) -> None:
        doc = self.options.get("sheet_doc")
        # the document was validated by the option (rules/options.py); this is a cache hit
        self.sheet: Sheet = (sheet_from_document(doc) if doc is not None
                             else load_shipped_sheet(self.options["sheet"]))
        sh = self.sheet
        self.n_edges = sh.n_edges
        self.n_spaces = sh.n_spaces
        self.n_boxes = len(sh.boxes)
        self.n_circles = len(sh.circles)
        self.A_ROAD = A_FIRST_VAR
        self.A_MARK = self.A_ROAD + sh.n_edges
        self.A_BUILD = self.A_MARK + sh.n_spaces
        self.A_WONDER = self.A_BUILD + 6 * sh.n_spaces
        self.A_CROSS = self.A_WONDER + self.n_boxes
        self.A_END = self.A_CROSS + 3 * self.n_circles
        self.immediate = self.options["resource_timing"] == "immediate"
        self.combine = self.options["dice_use"] == "combine"
        self.all_roads = self.options["road_count"] == "all"
        self.mark_after_road = self.options["marking"] == "after_road_action"
        self.build_marks = bool(self.options["building_uses_space"])
        # precomputed tables
        self.space_edge_mask = [sum(1 << e for e in es) for es in sh.space_edges]
        self.box_req = [sum(1 << r for r in b.requires) for b in sh.boxes]
        self.icon_mask = 0
        for s in range(sh.n_spaces):
            if any(sh.space_res[s]) or sh.space_bonus[s] or sh.space_ib[s] or sh.space_unlock[s]:
                self.icon_mask |= 1 << s
        self.icon_mask &= sh.markable_mask
        self.kind_circles = [0] * 6
        for k, (_, kind) in enumerate(sh.circles):
            self.kind_circles[kind] |= 1 << k
        self.circle_kind = [kind for _, kind in sh.circles]
        self.innov_circles = [0] * len(sh.innovations)
        for k, (i, _) in enumerate(sh.circles):
            self.innov_circles[i] |= 1 << k
        # circle_innovation[k] = (innovation of circle k, the circles of that innovation)
        self.circle_innovation = [(i, self.innov_circles[i]) for i, _ in sh.circles]
        self.neighbor_mask = [sum(1 << x for x in nb) for nb in sh.neighbors]
        # placing a road (rules/moves.py _place_road): per edge (bit, its two corners' bits,
        # the first corner's bit, the spaces and the edges touching (both corners, the first,
        # the second), the spaces beside it with their six sides); per road count, the
        # milestones reached (index, reward)
        self.road_info = []
        for e, (c1, c2) in enumerate(sh.edge_corners):
            sp1, sp2 = sh.corner_spaces[c1], sh.corner_spaces[c2]
            ed1, ed2 = sh.corner_edges[c1], sh.corner_edges[c2]
            self.road_info.append((1 << e, 1 << c1 | 1 << c2, 1 << c1, (sp1 | sp2, sp1, sp2),
                                   (ed1 | ed2, ed1, ed2),
                                   tuple((s, self.space_edge_mask[s]) for s in sh.edge_spaces[e])))
        self.milestone_at: dict[int, tuple[tuple[int, dict[str, Any]], ...]] = {}
        for idx, (cnt, rew) in enumerate(sh.milestones):
            self.milestone_at[cnt] = self.milestone_at.get(cnt, ()) + ((idx, rew),)
        self.toll_edges = sh.toll_edges
        self.hex_max = sh.hex_max
        # fast-path tables (see RollBuilderState._legal_actions)
        self.usable_edges = sh.usable_edges
        self.land_mask = sh.land_mask
        self.mountain_mask = sh.mountain_mask
        self.water_markable = sh.water_adjacent & sh.markable_mask
        self.all_circles = (1 << self.n_circles) - 1
        self.favor_max = len(sh.tracks[0]) - 1
        self.strength_max = len(sh.tracks[1]) - 1
        self.wealth_storage = sh.wealth_storage
        self.ascending = sh.ascending
        every = (1 << sh.n_spaces) - 1
        # build_rule[n] = (placement mask, may share a space, takes two spaces); index 0 unused
        self.build_rule: list[tuple[int, bool, bool]] = [(0, False, False)] + [
            (every if b.placement == "any" else sh.dock_ok, bool(b.shares_space), b.marks == 2)
            for b in sh.buildings]
        # same_rule[n] = the lowest building number with building n's rule (its sites are n's)
        self.same_rule = [0] + [self.build_rule.index(self.build_rule[n]) for n in range(1, 7)]
        self.box_requires = [tuple(b.requires) for b in sh.boxes]
        self.box_vmask = [(1 << self.n_boxes) - 1] + [
            sum(1 << i for i, b in enumerate(sh.boxes) if v in b.values) for v in range(1, 13)]
        self.space_bytes = (sh.n_spaces + 7) // 8
        self.edge_bytes = (sh.n_edges + 7) // 8
        self.circle_memo: dict[int, tuple[int, ...]] = {}  # circle bitset -> cross actions
        self.req_ok: dict[int, int] = {}  # filled boxes -> boxes whose prerequisites are filled
        self.asc_memo: dict[tuple[int, ...], tuple[int, ...]] = {}  # wvals -> allowed per value
        # pending units -> (the track, storage and discard actions per room left on the
        # tracks and storage, circles of their kinds) (rules/playout.py _gained)
        self.units_memo: dict[tuple[int, ...], tuple[tuple[tuple[tuple[int, ...], int], ...],
                                                     int]] = {}
        # (filled, unlocked, box values when ascending) -> bitset of the die values (1-12) a
        # Wonder action may use (rules/playout.py)
        self.wonder_memo: dict[tuple[int, int, tuple[int, ...]], int] = {}
        # history_entries[player][action] = (player, action): the history entries of the fused
        # playout, shared by every history (made per player on first use; rules/playout.py)
        self.history_entries: list[list[tuple[int, int]]] = []
        self.fresh_sheet: PlayerSheet | None = None  # a new player's sheet, copied per player
        self._nb_shift = self._neighbour_shifts_work()

    def circle_actions(self, mask: int) -> tuple[int, ...]:
        """``cross`` action ids (variant 0, pay with a resource) of the circles in ``mask``,
        ascending; memoised per game (at most 4096 masks kept)."""
        t = self.circle_memo.get(mask)
        if t is None:
            t = tuple(self.A_CROSS + 3 * k for k in bit_indices(mask, (self.n_circles + 7) // 8))
            if len(self.circle_memo) >= 4096:
                self.circle_memo.clear()
            self.circle_memo[mask] = t
        return t

    def ascending_allowed(self, wvals: tuple[int, ...]) -> tuple[int, ...]:
        """Ascending wonders: per die value v (index 0-12), the boxes none of whose prerequisite
        boxes holds a value above v (memoised per ``wvals``, at most 4096 kept)."""
        by_limit = [0] * 13  # boxes whose highest prerequisite value is exactly the index
        for i, req in enumerate(self.box_requires):
            limit = 0
            for r in req:
                if wvals[r] > limit:
                    limit = wvals[r]
            by_limit[limit] |= 1 << i
        acc, out = 0, []
        for mask in by_limit:
            acc |= mask
            out.append(acc)
        allowed = tuple(out)
        if len(self.asc_memo) >= 4096:
            self.asc_memo.clear()
        self.asc_memo[wvals] = allowed
        return allowed

    def boxes_ready(self, filled: int) -> int:
        """Bitset of wonder boxes whose prerequisite boxes are all in ``filled`` (memoised)."""
        ready = 0
        for i, req in enumerate(self.box_req):
            if not req & ~filled:
                ready |= 1 << i
        self.req_ok[filled] = ready
        return ready

    def neighbours_of(self, mask: int) -> int:
        """Bitset of the spaces adjacent to at least one space of ``mask``.

        Odd-r offset rows of ``cols`` spaces (rules/geometry.py): same row ±1, the rows above and
        below at columns c-1,c (even rows) or c,c+1 (odd rows), done with shifts on whole rows."""
        if not self._nb_shift:
            out = 0
            nm = self.neighbor_mask
            while mask:
                low = mask & -mask
                out |= nm[low.bit_length() - 1]
                mask ^= low
            return out
        cols = self.sheet.cols
        not_first, not_last, even, odd, every = self._nb_masks
        a = mask & not_last
        b = mask & not_first
        ev = mask & even
        od = mask & odd
        out = (a << 1) | (b >> 1) | (mask << cols) | (mask >> cols) \
            | ((ev & not_first) >> (cols + 1)) | ((ev & not_first) << (cols - 1)) \
            | ((od & not_last) >> (cols - 1)) | ((od & not_last) << (cols + 1))
        return out & every

    def _neighbour_shifts_work(self) -> bool:
        """Set up :meth:`neighbours_of`'s row masks and check them against the sheet's neighbour
        lists on every space (False = use the plain loop)."""
        sh = self.sheet
        rows, cols = sh.rows, sh.cols
        first = sum(1 << (r * cols) for r in range(rows))
        last = sum(1 << (r * cols + cols - 1) for r in range(rows))
        even = sum(1 << (r * cols + c) for r in range(0, rows, 2) for c in range(cols))
        every = (1 << sh.n_spaces) - 1
        self._nb_masks = (every & ~first, every & ~last, even, every & ~even, every)
        self._nb_shift = True
        ok = all(self.neighbours_of(1 << s) == self.neighbor_mask[s] for s in range(sh.n_spaces))
        return ok and cols >= 2

    def num_distinct_actions(self) -> int:
        """Size of the action space (depends on the sheet's edges, spaces, boxes and circles)."""
        return self.A_END

    def describe_setup(self, state: State) -> str:
        """The sheet name."""
        return self.sheet.name

