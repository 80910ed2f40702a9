"""Roll Builder: the game, its options and the step-wise simultaneous state.

Rules source: the Portuguese rulebook (``Como Jogar Roll Builder``; final authority) and, where it
leaves the city sheets open, the research digest (roll_games_notes.md §4, rules_proposal.json).

Turn structure (rulebook "Fluxo do Jogo"): 15 turns; each turn two shared dice are rolled (two
public chance nodes, one die each), then every player — simultaneously — uses both dice on Road,
Build or Wonder actions, resolves what they gain in any order, and presses ``done``. When everybody
is done the next turn's dice are rolled. Turn bonuses (rulebook "Bônus de Turno"): the first
``done`` of turns 5, 10 and 15 grants an innovation bonus, a Build action and a Wonder action.

Action notation (one step at a time; see docs/games/roll-builder.md):

* chance: ``roll N``
* dice: ``road d1`` / ``build d1`` / ``wonder d1`` / ``skip d1`` (``d2`` for the second die;
  ``road d1+d2`` etc. with the ``dice_use=combine`` option)
* ``road R,C,SIDE`` one road segment (SIDE in E NE NW W SW SE); ``mark R,C`` an X;
  ``build N R,C`` write building N; ``wonder BOX`` fill a box
* ``cross I2.3`` pay circle 3 of innovation I2 with the matching pending resource,
  ``cross I2.3 bonus`` with an innovation bonus, ``cross I2.3 stored`` with stored wealth
* ``track favor`` / ``track strength``, ``store wealth``, ``discard KIND`` (food, supplies, wealth,
  favor, strength, bonus), ``skip build``, ``skip wonder``, ``caravan favor|strength``, ``done``
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Mapping

from citybuilders.core.errors import IllegalActionError, OptionError
from citybuilders.core.game import CHANCE, TERMINAL, Game, PlayerScore, State
from citybuilders.core.options import Option

from .scoring import RollBuilderScore, score_file, score_sheet
from .sheet import RESOURCES, SIDES, Sheet, load_sheet_file, load_shipped_sheet, shipped_sheet_names
from .render import RollBuilderView

__all__ = ["RollBuilderGame", "RollBuilderState", "PlayerSheet"]

TURNS = 15
FAVOR, STRENGTH, WEALTH = 3, 4, 2
IB = 5  # innovation-bonus circle kind
DISCARD_NAMES = ("food", "supplies", "wealth", "favor", "strength", "bonus")
# fixed action ids
A_ROLL = 0  # 0..5 = die value 1..6
A_DIE = 6  # 6 + 4*die + k, k: 0 road, 1 build, 2 wonder, 3 skip
A_BOTH = 14  # 14..16: both dice combined on road/build/wonder (option dice_use=combine)
A_DONE = 17
A_TRACK = 18  # 18 favor, 19 strength
A_STORE = 20
A_DISCARD = 21  # 21..26: food supplies wealth favor strength innovation-bonus
A_SKIP_BUILD = 27
A_SKIP_WONDER = 28
A_CARAVAN = 29  # 29 favor, 30 strength
A_FIRST_VAR = 32
KINDS = ("road", "build", "wonder", "skip")
_ROLLS = tuple(range(A_ROLL, A_ROLL + 6))
_OUTCOMES = tuple((A_ROLL + i, 1 / 6) for i in range(6))


def _thresholds() -> tuple[tuple[int, float], ...]:
    acc, out = 0.0, []
    for a, pr in _OUTCOMES:  # the same float sums as State.sample_chance
        acc += pr
        out.append((a, acc))
    return tuple(out)


_THRESHOLDS = _thresholds()

_SOURCE = "Roll Builder research digest (roll_games_notes.md §6)"


def _sheet_choice(value: str) -> str:
    return value


class RollBuilderGame(Game):
    """Roll Builder (registry id ``roll-builder``): 1-6 players, simultaneous, 15 turns.

    Options: ``sheet`` (shipped sheet id), ``sheet_file`` (path of a user sheet; overrides
    ``sheet``) and the rules options of the digest's ambiguity table (B1-B6).
    Raises OptionError for a bad option and for an invalid ``sheet_file`` (one line).
    """

    view = RollBuilderView()

    name = "roll-builder"
    title = "Roll Builder"
    min_players = 1
    max_players = 6
    default_players = 1
    rules_version = "1"
    simultaneous = True
    option_specs = (
        Option("sheet", "rivermouth", "City sheet every player uses (shipped sheets; "
               "`citybuilders sheets` lists them).", type=str, choices=shipped_sheet_names(),
               kind="setup", source="rulebook Preparação 1; digest §4.3 (original sheets)"),
        Option("sheet_file", None, "Path of a user sheet file (format roll-builder-sheet/1, "
               "docs/formats.md); when given it replaces `sheet`.", type=str, kind="setup",
               source="issue 5: sheets as data"),
        Option("dice_use", "separate", "B1: 'use the dice on the same action' means both dice may "
               "take the same action type, each die being its own action.", type=str,
               choices=("separate", "combine"), source=f"{_SOURCE}, B1; rulebook Fluxo do Jogo 3",
               alternatives={"combine": "additionally both dice may be spent together on one "
                             "action whose value is their sum (Build only up to 6)"}),
        Option("road_count", "up_to", "B2: a Road action with die N places up to N roads; unplaced "
               "roads are lost at the end of the turn.", type=str, choices=("up_to", "all"),
               source=f"{_SOURCE}, B2; rulebook Ação de Estrada",
               alternatives={"all": "you may not end the turn while a road of a Road action can "
                             "still be placed"}),
        Option("marking", "any_time", "B3: marking a connected space with an X is free at any "
               "moment of your own turn.", type=str, choices=("any_time", "after_road_action"),
               source=f"{_SOURCE}, B3; rulebook Ação de Estrada",
               alternatives={"after_road_action": "spaces may only be marked in a turn in which "
                             "you took a Road action (revision-1 reading)"}),
        Option("building_uses_space", False, "B4: writing a building on an unmarked space does "
               "not use its icons; they can still be collected with an X later.", type=bool,
               source=f"{_SOURCE}, B4; rulebook Ação de Construção",
               alternatives={"true": "a building on an unmarked space marks it: its icons are "
                             "lost"}),
        Option("resource_timing", "immediate", "B6: food, supplies and every other gained unit "
               "must be assigned (innovation circle, track, storage or discarded) before you do "
               "anything else.", type=str, choices=("immediate", "end_of_turn"),
               source=f"{_SOURCE}, B6; rulebook Recursos",
               alternatives={"end_of_turn": "gained units may wait until the end of the turn "
                             "(unassigned ones are lost at `done`)"}),
    )

    def _post_init(self) -> None:
        path = self.options.get("sheet_file")
        if path:
            from citybuilders.core.errors import FormatError

            try:
                self.sheet: Sheet = load_sheet_file(path)
            except FormatError as exc:
                raise OptionError(f"option 'sheet_file' of roll-builder: {exc}") from None
        else:
            self.sheet = load_shipped_sheet(self.options["sheet"])
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
        self.innov_circles = [0] * len(sh.innovations)
        for k, (i, _) in enumerate(sh.circles):
            self.innov_circles[i] |= 1 << k
        self.neighbor_mask = [sum(1 << x for x in nb) for nb in sh.neighbors]
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
        self.box_requires = [tuple(b.requires) for b in sh.boxes]
        self.box_vmask = [(1 << self.n_boxes) - 1] + [
            sum(1 << i for i, b in enumerate(sh.boxes) if v in b.values) for v in range(1, 13)]
        self.space_bytes = (sh.n_spaces + 7) // 8
        self.edge_bytes = (sh.n_edges + 7) // 8
        self.circle_memo: dict[int, tuple[int, ...]] = {}  # circle bitset -> cross actions
        self.req_ok: dict[int, int] = {}  # filled boxes -> boxes whose prerequisites are filled
        self.asc_memo: dict[tuple[int, ...], tuple[int, ...]] = {}  # wvals -> allowed per value
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

        Odd-r offset rows of ``cols`` spaces (sheet.py geometry): same row ±1, the rows above and
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

    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> "RollBuilderState":
        """A new game: every player on a fresh copy of the sheet, waiting for turn 1's dice."""
        return RollBuilderState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self) -> int:
        """Size of the action space (depends on the sheet's edges, spaces, boxes and circles)."""
        return self.A_END

    def score_file(self, data: Mapping[str, Any]) -> RollBuilderScore:
        """Score a sheet-state file (docs/formats.md, Roll Builder). Raises FormatError."""
        return score_file(data)

    def describe_setup(self, state: State) -> str:
        """The sheet name."""
        return self.sheet.name


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
_LIST_FIELDS = ("placements", "bcount", "wvals", "pres", "pbuild", "pwonder")
_TUPLE_FIELDS = ("g_water", "g_mountain", "g_build", "g_box", "toll")


_BYTE_BITS = tuple(tuple(k for k in range(8) if b >> k & 1) for b in range(256))
_BYTE_TABLE: list[tuple[tuple[int, ...], ...]] = []


def bit_indices(mask: int, nbytes: int) -> list[int]:
    """Ascending indices of the set bits of ``mask`` (``0 <= mask < 256**nbytes``), one table
    look-up per non-zero byte (faster than peeling bits off a long int one by one)."""
    table = _BYTE_TABLE
    while len(table) < nbytes:
        j = len(table)
        table.append(tuple(tuple(8 * j + k for k in bits) for bits in _BYTE_BITS))
    out: list[int] = []
    j = 0
    for byte in mask.to_bytes(nbytes, "little"):
        if byte:
            out.extend(table[j][byte])
        j += 1
    return out


def _refresh_road_list(p: "PlayerSheet", roads_m: int, base: int) -> None:
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


def _add(a: tuple[int, ...] | None, b: tuple[int, ...]) -> tuple[int, ...]:
    return b if a is None else tuple(x + y for x, y in zip(a, b))


class RollBuilderState(State):
    """A Roll Builder position: turn number, the two dice of the turn, every player's sheet."""

    __slots__ = ("turn", "dice", "turn_list", "players", "over")

    def __init__(self, game: RollBuilderGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.turn = 1
        self.dice: list[int] = []
        self.turn_list: list[list[int]] = []
        self.over = False
        fresh = game.fresh_sheet  # type: ignore[attr-defined]
        if fresh is None:
            fresh = game.fresh_sheet = self._fresh_sheet()  # type: ignore[attr-defined]
        self.players = [fresh.copy() for _ in range(num_players)]

    def _fresh_sheet(self) -> PlayerSheet:
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        sh = g.sheet
        p = PlayerSheet.__new__(PlayerSheet)
        p.roads = sh.start_roads
        p.corners = 0
        p.connected = 0
        p.frontier = 0
        for e in range(sh.n_edges):
            if sh.start_roads >> e & 1:
                for c in sh.edge_corners[e]:
                    p.corners |= 1 << c
                    p.connected |= sh.corner_spaces[c]
                    p.frontier |= sh.corner_edges[c]
        p.marked = p.bld1 = p.bld2 = 0
        p.placements = []
        p.bcount = [0] * 7
        p.crossed = p.discovered = 0
        p.wvals = [0] * len(sh.boxes)
        p.filled = 0
        p.unlocked = sum(1 << i for i, b in enumerate(sh.boxes) if not b.locked)
        p.favor = p.strength = 0
        p.w_marked = p.w_spent = p.w_turn = 0
        p.hex_done = p.hex_uses = p.hex_pts = 0
        p.miles = 0
        p.placed = 0
        p.blocked = sh.river_block | sh.ridge_edges
        p.first_extra = 0
        p.g_water = p.g_mountain = p.g_build = p.g_box = p.toll = None
        p.caravan = None
        for e in sh.specials:
            self._apply_effect(p, e)
        p.used = 0
        p.done = False
        p.bonus_given = False
        p.roads_left = p.road_actions = p.tolls = p.extra_roads = p.caravan_used = 0
        p.pres = [0] * 5
        p.pib = 0
        p.pbuild = []
        p.pwonder = []
        p.guild = -1
        p.road_key, p.road_list = 0, ()
        return p

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """CHANCE while the turn's two dice are not both rolled; else the lowest active player."""
        if self.over:
            return TERMINAL
        if len(self.dice) < 2:
            return CHANCE
        players = self.players
        if not players[0].done:
            return 0
        for i in range(1, len(players)):
            if not players[i].done:
                return i
        return TERMINAL  # pragma: no cover - the turn advances when the last player is done

    def active_players(self) -> list[int]:
        """Every player who has not pressed ``done`` this turn (empty at chance/terminal)."""
        if self.over or len(self.dice) < 2:
            return []
        return [i for i, p in enumerate(self.players) if not p.done]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """One die: values 1-6 (actions ``roll 1`` .. ``roll 6``), 1/6 each."""
        return list(_OUTCOMES)

    def sample_chance(self, rng: Any) -> int:
        """One die roll drawn exactly as :meth:`State.sample_chance` would (same thresholds, so
        the same ``rng`` gives the same rolls), without building the outcome list."""
        r = rng.random()
        for a, acc in _THRESHOLDS:
            if r < acc:
                return a
        return A_ROLL + 5

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the current player / chance).

        Same contract as :meth:`State.legal_actions`, with a fast path (no ``active_players`` list).
        """
        if self.over:
            return []
        if len(self.dice) < 2:
            return list(_ROLLS)
        if player is None:
            player = self.current_player()
        elif type(player) is not int:
            return State.legal_actions(self, player)  # the general path for other int types
        elif not 0 <= player < self.num_players:
            return []  # not an active player (State.legal_actions contract)
        return self._legal_actions(player)

    def apply_legal(self, action: int, player: int | None = None) -> None:
        """Apply an action known to be legal (fast path of :meth:`State.apply_legal`: Roll Builder's
        chance outcomes are public dice, so the history actor is CHANCE or the player)."""
        if not self.over and len(self.dice) < 2:
            self._apply(action, CHANCE)
            self._history.append((CHANCE, action))
            return
        if player is None:
            player = self.current_player()
        self._apply(action, player)
        self._history.append((player, action))

    def is_terminal(self) -> bool:
        """True once turn 15 is over."""
        return self.over

    def is_chance_node(self) -> bool:
        """True while the turn's two dice are not both rolled."""
        return not self.over and len(self.dice) < 2

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted legal actions; free actions are emitted in ascending order (no sort needed).

        Fast version of the obvious generator kept in tests/roll_builder/reference_legal.py (the
        property test test_fast_paths.py checks they agree over random games)."""
        if player < 0:
            return list(_ROLLS)
        p = self.players[player]
        if p.done:
            return []
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        if p.guild >= 0:
            out: list[int] = []
            m = g.neighbor_mask[p.guild] & p.connected & g.land_mask & ~p.bld1
            base = g.A_BUILD + 5 * g.n_spaces
            while m:
                low = m & -m
                out.append(base + low.bit_length() - 1)
                m ^= low
            return out
        pres = p.pres
        if p.pib or p.pbuild or p.pwonder or pres[0] or pres[1] or pres[2] or pres[3] or pres[4]:
            out = self._pending_actions(p, g)
            if p.pib or p.pbuild or p.pwonder or g.immediate:
                return out  # blocking: resolve gains first
            out += self._free_actions(p, g)
            out.sort()
            return out
        return self._free_actions(p, g)

    def _pending_actions(self, p: PlayerSheet, g: RollBuilderGame) -> list[int]:
        """Sorted actions resolving pending gains (resources, innovation bonus, bonus actions)."""
        out: list[int] = []
        pres = p.pres
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
        if pres[WEALTH] and p.w_marked < g.wealth_storage:
            out.append(A_STORE)
        if p.pib:
            out.extend([a + 1 for a in g.circle_actions(g.all_circles & open_c)])
            out.append(A_DISCARD + 5)
        if p.pbuild:
            pbuild = p.pbuild
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
        if p.pwonder:
            m = 0
            for v in set(p.pwonder):
                m |= self._wonder_boxes(p, v)
            while m:
                low = m & -m
                out.append(g.A_WONDER + low.bit_length() - 1)
                m ^= low
            out.append(A_SKIP_WONDER)
        out.sort()
        return out

    def _free_actions(self, p: PlayerSheet, g: RollBuilderGame) -> list[int]:
        """Actions of a player with nothing pending, in ascending id order: dice (6-16), done (17),
        caravan (29-30), roads, marks, crosses paid with stored wealth."""
        out: list[int] = []
        used = p.used
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
                            free_land & restrict & ~(p.bld2 if shares else p.bld1)):
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
        avail = p.w_marked - p.w_turn - p.w_spent
        if p.caravan is not None and not p.caravan_used and avail >= p.caravan[0]:
            out.extend(sorted(A_CARAVAN + (0 if c == "favor" else 1) for c in p.caravan[1]))
        if p.roads_left and roads_m:
            if p.road_key != roads_m:
                _refresh_road_list(p, roads_m, g.A_ROAD)
            out.extend(p.road_list)
        if not g.mark_after_road or p.road_actions:
            want = g.icon_mask
            if p.g_mountain is not None:
                want |= g.mountain_mask
            if p.g_water is not None:
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
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        return p.frontier & g.usable_edges & ~(p.roads | p.blocked)

    def _markable(self, p: PlayerSheet) -> int:
        """Bitset of connected, unmarked spaces whose X gains something."""
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        want = g.icon_mask
        if p.g_mountain is not None:
            want |= g.mountain_mask
        if p.g_water is not None:
            want |= g.water_markable
        return p.connected & ~p.marked & want

    def _can_build(self, p: PlayerSheet, n: int, free_land: int) -> bool:
        """True when building ``n`` has a site (``free_land`` = connected land spaces)."""
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        restrict, shares, two = g.build_rule[n]
        if two:
            return bool(self._build_sites(p, n))
        return bool(free_land & restrict & ~(p.bld2 if shares else p.bld1))

    def _build_sites(self, p: PlayerSheet, n: int) -> int:
        """Bitset of spaces where building ``n`` may be written now (first mark for 2-mark ones:
        a space with a free connected land neighbour for the second mark)."""
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        restrict, shares, two = g.build_rule[n]
        base = p.connected & g.land_mask
        m = base & restrict & ~(p.bld2 if shares else p.bld1)
        if two:
            free = base & ~p.bld1
            m &= free & g.neighbours_of(free)
        return m

    def _wonder_boxes(self, p: PlayerSheet, v: int) -> int:
        """Bitset of boxes a Wonder action of value ``v`` (0 = bonus, no value) may fill."""
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        filled = p.filled
        ready = g.req_ok.get(filled)
        if ready is None:
            ready = g.boxes_ready(filled)
        cand = p.unlocked & ~filled & ready & g.box_vmask[v]
        if not (cand and v and g.ascending):
            return cand
        key = tuple(p.wvals)
        allowed = g.asc_memo.get(key)
        if allowed is None:
            allowed = g.ascending_allowed(key)
        return cand & allowed[v]

    # ------------------------------------------------------------------ effects
    def _apply_effect(self, p: PlayerSheet, e: Mapping[str, Any]) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        t = e["type"]
        if t == "roads_allowed_on_river_edges":
            p.blocked &= ~sh.river_block
        elif t == "roads_allowed_on_ridges":
            p.blocked &= ~sh.ridge_edges
        elif t == "extra_roads_on_first_road_action_each_turn":
            p.first_extra += e.get("amount", 1)
        elif t == "on_mark_space_adjacent_to_water_space":
            p.g_water = _add(p.g_water, e["gain"])
        elif t == "on_mark_mountain_space":
            p.g_mountain = _add(p.g_mountain, e["gain"])
        elif t == "on_build_action":
            p.g_build = _add(p.g_build, e["gain"])
        elif t == "on_wonder_box_filled":
            p.g_box = _add(p.g_box, e["gain"])
        elif t == "road_toll":
            p.toll = _add(p.toll, e["gain"])
        elif t == "convert_stored_wealth":
            p.caravan = (e.get("cost", 2), tuple(e.get("choices", ("favor", "strength"))))
        elif t == "unlock_wonder_boxes":
            for b in e["boxes"]:
                p.unlocked |= 1 << sh.box_index[b]

    @staticmethod
    def _gain(p: PlayerSheet, gain: tuple[int, ...]) -> None:
        pres = p.pres
        for k in range(5):
            if gain[k]:
                pres[k] += gain[k]

    def _place_road(self, p: PlayerSheet, e: int) -> None:
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        sh = g.sheet
        bit = 1 << e
        p.roads |= bit
        p.placed += 1
        p.roads_left -= 1
        for c in sh.edge_corners[e]:
            cb = 1 << c
            if not p.corners & cb:
                p.corners |= cb
                p.connected |= sh.corner_spaces[c]
                p.frontier |= sh.corner_edges[c]
        if p.toll is not None and sh.toll_edges & bit and p.tolls < p.road_actions:
            p.tolls += 1
            self._gain(p, p.toll)
        if p.hex_uses < sh.hex_max:
            for s in sh.edge_spaces[e]:
                m = g.space_edge_mask[s]
                if p.roads & m == m and not p.hex_done >> s & 1 and p.hex_uses < sh.hex_max:
                    p.hex_done |= 1 << s
                    p.hex_uses += 1
                    p.hex_pts += sh.hex_points
                    self._gain(p, sh.hex_gain)
        for idx, (cnt, rew) in enumerate(sh.milestones):
            if p.placed == cnt and not p.miles >> idx & 1:
                p.miles |= 1 << idx
                self._gain(p, rew["gain"])
                for b in rew["unlock"]:
                    p.unlocked |= 1 << b
                if rew["bonus_action"] == "build":
                    p.pbuild.append(0)
                elif rew["bonus_action"] == "wonder":
                    p.pwonder.append(0)

    def _mark(self, p: PlayerSheet, s: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        p.marked |= 1 << s
        self._gain(p, sh.space_res[s])
        for b in sh.space_bonus[s]:
            (p.pbuild if b == "build" else p.pwonder).append(0)
        p.pib += sh.space_ib[s]
        for b in sh.space_unlock[s]:
            p.unlocked |= 1 << b
        if p.g_mountain is not None and sh.mountain_mask >> s & 1:
            self._gain(p, p.g_mountain)
        if p.g_water is not None and sh.water_adjacent >> s & 1:
            self._gain(p, p.g_water)

    def _write_building(self, p: PlayerSheet, n: int, s: int) -> None:
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        sh = g.sheet
        bit = 1 << s
        if p.bld1 & bit:
            p.bld2 |= bit
        else:
            p.bld1 |= bit
        p.placements.append(s * 8 + n)
        p.bcount[n] += 1
        if g.build_marks:
            p.marked |= bit

    def _building_gains(self, p: PlayerSheet, n: int, s: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        b = sh.buildings[n - 1]
        self._gain(p, b.gain)
        if b.extra_if == "adjacent_to_water" and sh.water_adjacent >> s & 1:
            self._gain(p, b.extra_gain)
        elif b.extra_if == "on_or_adjacent_to_mountain" and sh.mountain_near >> s & 1:
            self._gain(p, b.extra_gain)
        p.extra_roads += b.extra_roads
        self._grant_bonus(p, b.bonus_action, b.innovation_bonus)
        if p.g_build is not None:
            self._gain(p, p.g_build)

    @staticmethod
    def _grant_bonus(p: PlayerSheet, bonus_action: str | None, innovation_bonus: int) -> None:
        """Queue a building's or wonder box's bonus Build/Wonder action and innovation bonus
        (resolved by the player at once; rulebook 'Ações bônus')."""
        if bonus_action == "build":
            p.pbuild.append(0)
        elif bonus_action == "wonder":
            p.pwonder.append(0)
        p.pib += innovation_bonus

    def _fill_box(self, p: PlayerSheet, i: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        box = sh.boxes[i]
        use = 0
        for v in p.pwonder:
            if v and v in box.values and not (sh.ascending and any(p.wvals[r] > v
                                                                   for r in box.requires)):
                use = v
                break
        p.pwonder.remove(use)
        if use == 0:
            use = max([p.wvals[r] for r in box.requires] + [min(box.values)]) if sh.ascending \
                else 0
        p.wvals[i] = use if use else 7  # 7 = filled by a bonus action without value
        p.filled |= 1 << i
        self._gain(p, box.gain)
        self._grant_bonus(p, box.bonus_action, box.innovation_bonus)
        if p.g_box is not None:
            self._gain(p, p.g_box)

    def _cross(self, p: PlayerSheet, k: int) -> None:
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        sh = g.sheet
        p.crossed |= 1 << k
        i = sh.circles[k][0]
        m = g.innov_circles[i]
        if p.crossed & m == m and not p.discovered >> i & 1:
            p.discovered |= 1 << i
            for e in sh.innovations[i].effects:
                self._apply_effect(p, e)

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int, player: int) -> None:
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        if player == CHANCE:
            self.dice.append(action - A_ROLL + 1)
            if len(self.dice) == 2:
                self.turn_list.append(list(self.dice))
            return
        p = self.players[player]
        sh = g.sheet
        if action >= g.A_CROSS:
            k, var = divmod(action - g.A_CROSS, 3)
            if var == 0:
                p.pres[sh.circles[k][1]] -= 1
            elif var == 1:
                p.pib -= 1
            else:
                p.w_spent += 1
            self._cross(p, k)
        elif action >= g.A_WONDER:
            self._fill_box(p, action - g.A_WONDER)
        elif action >= g.A_BUILD:
            n, s = divmod(action - g.A_BUILD, sh.n_spaces)
            n += 1
            if p.guild >= 0:
                first = p.guild
                p.guild = -1
                self._write_building(p, n, s)
                self._building_gains(p, n, first)
                return
            p.pbuild.remove(n if n in p.pbuild else 0)
            self._write_building(p, n, s)
            if sh.buildings[n - 1].marks == 2:
                p.guild = s
            else:
                self._building_gains(p, n, s)
        elif action >= g.A_MARK:
            self._mark(p, action - g.A_MARK)
        elif action >= g.A_ROAD:
            self._place_road(p, action - g.A_ROAD)
        elif action < A_BOTH + 3 and action >= A_DIE:
            if action >= A_BOTH:
                p.used = 3
                kind = action - A_BOTH
                v = self.dice[0] + self.dice[1]
            else:
                i, kind = divmod(action - A_DIE, 4)
                p.used |= 1 << i
                v = self.dice[i]
            if kind == 0:
                p.roads_left += v + p.extra_roads + (p.first_extra if p.road_actions == 0 else 0)
                p.road_actions += 1
            elif kind == 1:
                p.pbuild.append(v)
            elif kind == 2:
                p.pwonder.append(v)
        elif action == A_DONE:
            self._done(player)
        elif action in (A_TRACK, A_TRACK + 1):
            if action == A_TRACK:
                p.favor += 1
                p.pres[FAVOR] -= 1
            else:
                p.strength += 1
                p.pres[STRENGTH] -= 1
        elif action == A_STORE:
            p.pres[WEALTH] -= 1
            p.w_marked += 1
            p.w_turn += 1
        elif A_DISCARD <= action < A_DISCARD + 6:
            k = action - A_DISCARD
            if k == 5:
                p.pib -= 1
            else:
                p.pres[k] -= 1
        elif action == A_SKIP_BUILD:
            p.pbuild.pop(0)
        elif action == A_SKIP_WONDER:
            p.pwonder.pop(0)
        elif action in (A_CARAVAN, A_CARAVAN + 1):
            p.caravan_used = 1
            p.w_spent += p.caravan[0]
            p.pres[FAVOR if action == A_CARAVAN else STRENGTH] += 1

    def _done(self, player: int) -> None:
        p = self.players[player]
        if self.turn in (5, 10, 15) and not p.bonus_given:
            p.bonus_given = True
            if self.turn == 5:
                p.pib += 1
            elif self.turn == 10:
                p.pbuild.append(0)
            else:
                p.pwonder.append(0)
            return
        p.done = True
        p.pres = [0] * 5
        p.roads_left = 0
        if all(q.done for q in self.players):
            if self.turn == TURNS:
                self.over = True
                return
            self.turn += 1
            self.dice = []
            for q in self.players:
                q.used = 0
                q.done = False
                q.bonus_given = False
                q.roads_left = q.road_actions = q.tolls = q.extra_roads = q.caravan_used = 0
                q.w_turn = 0

    # ------------------------------------------------------------------ misc protocol
    def _clone(self) -> "RollBuilderState":
        s = RollBuilderState.__new__(RollBuilderState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.turn = self.turn
        s.dice = list(self.dice)
        s.turn_list = self.turn_list[:]  # rows are never modified once written
        s.over = self.over
        s.players = [p.copy() for p in self.players]
        return s

    def player_parts(self, player: int) -> dict[str, int]:
        """Score breakdown of ``player`` (categories of :data:`scoring.CATEGORIES`)."""
        p = self.players[player]
        sh = self.game.sheet  # type: ignore[attr-defined]
        return score_sheet(sh, p.connected, p.bcount, p.discovered, p.stored, p.favor,
                           p.strength, p.filled, p.hex_uses)

    def scores(self) -> list[PlayerScore]:
        """Every player's score with the six-category breakdown (final once terminal)."""
        out = []
        for i in range(self.num_players):
            parts = self.player_parts(i)
            out.append(PlayerScore(sum(parts.values()), parts))
        return out

    def result_info(self) -> dict[str, Any]:
        """``{"sheet": name}`` plus the suggested solo rank (digest: ranks proposed)."""
        info: dict[str, Any] = {"sheet": self.game.sheet.id}  # type: ignore[attr-defined]
        if self.num_players == 1 and self.over:
            info["rank"] = solo_rank(self.scores()[0].total)
        return info

    def observation(self, player: int) -> dict[str, Any]:
        """Public view (Roll Builder has no hidden information; future dice are not in the state)."""
        pos = self._position_json()
        pos["scores"] = [s.to_dict() for s in self.scores()]
        pos["sheet"] = self.game.sheet.id  # type: ignore[attr-defined]
        pos["you"] = player
        return pos

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Notation of ``action`` (module docstring). Raises IllegalActionError when out of range."""
        g: RollBuilderGame = self.game  # type: ignore[assignment]
        sh = g.sheet
        if not 0 <= action < g.A_END:
            raise IllegalActionError(f"action {action} is out of range 0-{g.A_END - 1}")
        if action < A_DIE:
            return f"roll {action - A_ROLL + 1}"
        if action < A_BOTH:
            i, k = divmod(action - A_DIE, 4)
            return f"{KINDS[k]} d{i + 1}"
        if action < A_DONE:
            return f"{KINDS[action - A_BOTH]} d1+d2"
        if action == A_DONE:
            return "done"
        if action < A_STORE:
            return "track favor" if action == A_TRACK else "track strength"
        if action == A_STORE:
            return "store wealth"
        if action < A_SKIP_BUILD:
            return f"discard {DISCARD_NAMES[action - A_DISCARD]}"
        if action == A_SKIP_BUILD:
            return "skip build"
        if action == A_SKIP_WONDER:
            return "skip wonder"
        if action < A_FIRST_VAR:
            return "caravan favor" if action == A_CARAVAN else "caravan strength"
        if action < g.A_MARK:
            return f"road {sh.edge_name[action - g.A_ROAD]}"
        if action < g.A_BUILD:
            return f"mark {sh.space_name(action - g.A_MARK)}"
        if action < g.A_WONDER:
            n, s = divmod(action - g.A_BUILD, sh.n_spaces)
            return f"build {n + 1} {sh.space_name(s)}"
        if action < g.A_CROSS:
            return f"wonder {sh.boxes[action - g.A_WONDER].id}"
        k, var = divmod(action - g.A_CROSS, 3)
        i = sh.circles[k][0]
        inn = sh.innovations[i]
        j = k - inn.first_circle + 1
        return f"cross {inn.id}.{j}" + ("", " bonus", " stored")[var]

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation (any spelling of an edge: ``road 4,5,NE`` = ``road 3,5,SW``)."""
        words = text.strip().split()
        if len(words) == 2 and words[0].lower() == "road" and "," in words[1]:
            sh = self.game.sheet  # type: ignore[attr-defined]
            try:
                text = f"road {sh.edge_name[sh.edge_of(words[1])]}"
            except ValueError as exc:
                raise IllegalActionError(f"'{text.strip()}': {exc}") from None
        return super().string_to_action(text, player)

    def explain_illegal(self, action: int, player: int) -> str:
        """Why an action is illegal (pending gains first, dice used, not connected...)."""
        try:
            text = self.action_to_string(action, player)
        except IllegalActionError as exc:
            return str(exc)
        p = self.players[player]
        if p.done:
            return f"'{text}': you are done for this turn"
        if p.pending_any() and action < self.game.A_CROSS:  # type: ignore[attr-defined]
            return f"'{text}' is not legal now: first resolve what you gained ({self.pending_text(player)})"
        return f"'{text}' is not a legal action now"

    def pending_text(self, player: int) -> str:
        """Short description of ``player``'s pending gains (e.g. ``2 food, bonus Build``)."""
        p = self.players[player]
        parts = [f"{n} {RESOURCES[k]}" for k, n in enumerate(p.pres) if n]
        if p.pib:
            parts.append(f"{p.pib} innovation bonus")
        for v in p.pbuild:
            parts.append(f"Build {v}" if v else "bonus Build")
        for v in p.pwonder:
            parts.append(f"Wonder {v}" if v else "bonus Wonder")
        if p.guild >= 0:
            parts.append("second Guildhall mark")
        if p.roads_left:
            parts.append(f"{p.roads_left} roads")
        return ", ".join(parts) or "nothing"

    # ------------------------------------------------------------------ JSON
    def _position_json(self) -> dict[str, Any]:
        sh = self.game.sheet  # type: ignore[attr-defined]
        players = []
        for p in self.players:
            d: dict[str, Any] = {}
            for k in SAVED_FIELDS:
                v = getattr(p, k)
                if k in _LIST_FIELDS:
                    d[k] = list(v)
                elif k in _TUPLE_FIELDS:
                    d[k] = None if v is None else list(v)
                elif k == "caravan":
                    d[k] = None if v is None else [v[0], list(v[1])]
                elif isinstance(v, bool):
                    d[k] = v
                else:
                    d[k] = v if v < (1 << 52) else hex(v)
            d["roads_named"] = [sh.edge_name[e] for e in range(sh.n_edges) if p.roads >> e & 1]
            players.append(d)
        return {"turn": self.turn, "dice": list(self.dice), "turn_list": [list(t) for t in
                                                                           self.turn_list],
                "over": self.over, "players": players}

    def _load_position(self, data: Mapping[str, Any]) -> None:
        self.turn = int(data["turn"])
        self.dice = [int(x) for x in data["dice"]]
        self.turn_list = [[int(a), int(b)] for a, b in data["turn_list"]]
        self.over = bool(data["over"])
        pl = data["players"]
        if len(pl) != self.num_players:
            raise ValueError("players: wrong number of player sheets")
        self.players = []
        for d in pl:
            p = PlayerSheet.__new__(PlayerSheet)
            p.road_key, p.road_list = 0, ()
            for k in SAVED_FIELDS:
                v = d[k]
                if k in _LIST_FIELDS:
                    v = [int(x) for x in v]
                elif k in _TUPLE_FIELDS:
                    v = None if v is None else tuple(int(x) for x in v)
                elif k == "caravan":
                    v = None if v is None else (int(v[0]), tuple(v[1]))
                elif k in ("done", "bonus_given"):
                    v = bool(v)
                elif isinstance(v, str):
                    v = int(v, 16)
                else:
                    v = int(v)
                setattr(p, k, v)
            self.players.append(p)

    # ------------------------------------------------------------------ hooks
    def undo_per_player(self) -> bool:
        """Simultaneous turns: undo takes back this player's own actions of the current turn."""
        return True

    def evaluate(self, player: int) -> float:
        """Score plus a heuristic of future value (see ``bot.py``)."""
        from .bot import evaluate

        return evaluate(self, player)

    def greedy_action(self, player: int, rng: Any) -> int | None:
        """The heuristic greedy player's move (``bot.py``)."""
        from .bot import greedy_action

        return greedy_action(self, player, rng)

    def render_text(self, player: int | None = None, color: bool = False) -> str:
        """The hex sheet, dice, turn list, resources, tracks, innovations and wonder."""
        from .render import render_text

        return render_text(self, 0 if player is None else player, color)

    def render_svg(self, player: int | None = None) -> str:
        """SVG sheet with ``data-key`` spaces, edges, dice, boxes and circles."""
        from .render import render_svg

        return render_svg(self, 0 if player is None else player)

    def action_path(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """Click path (keys of ``render_svg``; keys without an element are buttons)."""
        from .render import action_path

        return action_path(self, action, player)


def solo_rank(total: int) -> str:
    """Suggested solo rank (digest §4.1 rule 12, proposed): Hamlet <45, Village 45-54,
    Town 55-64, City 65-74, Capital 75+."""
    for limit, name in ((45, "Hamlet"), (55, "Village"), (65, "Town"), (75, "City")):
        if total < limit:
            return name
    return "Capital"
