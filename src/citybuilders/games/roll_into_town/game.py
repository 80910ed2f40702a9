"""Roll into Town: the Game and State (simultaneous solo / 2-6 player roll-and-write).

Rules: the Chinese rulebook (shared seed 001) is the authority; where it is silent the values of
rules_proposal.json revision 2 are used (data in ``data/rules.json``) and every disputed reading
is a named rules option (see ``option_specs`` and docs/rules-options.md).

Round structure (rulebook "game play"): 12 rounds; each round the dice are rolled one die at a
time (public chance nodes: 5 dice in rounds 1-6, 4 in 7-9, 3 in 10-12), then four simultaneous
phases: discover, build, collect, maintenance. Every player uses the same roll; the town hall
changes only that player's copy of a die. In a phase ``active_players()`` lists the players who
have not finished it; a player ends a phase with ``done`` (a phase in which a player has no
choice at all is skipped for them automatically). ``current_player()`` is the lowest active
player.

Action ids (``N = rows * cols``, cell ``i = row * cols + col``)::

    draw     (die * 10 + variant) * N + cell      variant 0 farm, 1 mountain, 2 tree,
                                                   3-8 river shapes, 9 coast (then ``sides``)
    sides    A_SIDES + k                          water sides of the coast just drawn
                                                   (k indexes rules.COAST_MASKS)
    adjust   A_ADJ + die * 2 + (0: -1, 1: +1)     town hall
    fountain A_FOUNTAIN
    build    A_BUILD + kind * N + anchor          kinds: see rules.BUILD_KINDS (anchor = top-left
                                                   of the shape's bounding box)
    trade    A_TRADE + give * 3 + take            market: 2 of ``give`` for 1 of ``take``
    cut      A_CUT + cell                         use the lumberjack at cell
    grow     A_GROW + cell                        new tree (maintenance)
    done     A_DONE
    roll     A_DIE + face - 1                     chance: one die
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Mapping

from ...core.errors import FormatError, IllegalActionError
from ...core.game import CHANCE, TERMINAL, Game, PlayerScore, ScoreResult, State
from ...core.options import Option
from . import rules as R
from .rules import Sheet, geometry
from .render import RollIntoTownView

__all__ = ["RollIntoTownGame", "RollIntoTownState", "ROLL", "DISCOVER", "BUILD", "COLLECT",
           "MAINTAIN", "END", "PHASE_NAMES"]

ROLL, DISCOVER, BUILD, COLLECT, MAINTAIN, END = range(6)
PHASE_NAMES = ("roll", "discover", "build", "collect", "maintenance", "game over")
NVAR = 3 + len(R.RIVER_SHAPES) + 1  # 10
V_RIVER = 3
V_COAST = 3 + len(R.RIVER_SHAPES)
VAR_MASK = (0, 0, 0) + R.RIVER_SHAPES + (0,)
RIVER_VAR = {m: V_RIVER + k for k, m in enumerate(R.RIVER_SHAPES)}
COAST_INDEX = {m: k for k, m in enumerate(R.COAST_MASKS)}
VAR_TERRAIN = (R.FARM, R.MOUNTAIN, R.TREE) + (R.RIVER,) * 6 + (R.COAST,)
_KINDS = tuple(range(len(R.BUILD_KINDS)))
N_SHAPES = len(R.RIVER_SHAPES)
FACE_SIMPLE = ((), (0,), (1,), (2,), (), (), (0, 1, 2))  # die face -> farm/mountain/tree
KIND_UNIQUE = R.KIND_UNIQUE
KIND_COST = R.KIND_COST
FREE_KINDS = R._FREE_KINDS


def _odd_size(v: int) -> int:
    if v % 2 == 0:
        raise ValueError("must be odd so that the town hall sits on one centre cell")
    return v


class RollIntoTownGame(Game):
    """Roll into Town (registry id ``roll-into-town``); 1-6 players on the same dice.

    Raises OptionError for an unknown option or bad value.
    """

    view = RollIntoTownView()

    name = "roll-into-town"
    title = "Roll into Town"
    min_players = 1
    max_players = 6
    default_players = 1
    rules_version = "1"
    simultaneous = True
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("rows", 9, "Map height in cells (odd; the town hall is the centre cell).",
               type=int, minimum=5, maximum=15, validate=_odd_size, kind="setup",
               source="rules_proposal parameters.rows (proposed: the rulebook gives no size); "
                      "roll_games_notes §5.3 / T7"),
        Option("cols", 9, "Map width in cells (odd).", type=int, minimum=5, maximum=15,
               validate=_odd_size, kind="setup",
               source="rules_proposal parameters.cols (proposed); roll_games_notes T7"),
        Option("ocean_sides_rule", "any_two",
               "Which water sides turn an empty cell into ocean. `any_two`: water on at least "
               "two of its four sides.",
               choices=("any_two", "perpendicular_pair"),
               source="rulebook: coast icon ('water on two orthogonal sides'); "
                      "rules_proposal options.ocean_sides_rule; roll_games_notes T1",
               alternatives={"perpendicular_pair": "the water sides must include one of N/S "
                                                   "and one of E/W (a corner)"}),
        Option("coast_two_side_shape", "any",
               "Shapes allowed for a coast with water on two sides. `any`: two opposite sides "
               "or a corner.",
               choices=("any", "corner_only"),
               source="rulebook: coast icon ('1, 2 or 3 sides'); rules_proposal "
                      "options.coast_two_side_shape; roll_games_notes T3",
               alternatives={"corner_only": "two-sided coasts must be corners (N+E, E+S, S+W, "
                                            "W+N)"}),
        Option("river_connect_rule", "ends_off_opposite_edges",
               "When the river 'connects opposite map edges' (2 points per square). "
               "`ends_off_opposite_edges`: its first piece points off one edge and its last "
               "piece off the opposite edge.",
               choices=("ends_off_opposite_edges", "touches_opposite_edges"),
               source="rulebook: river scoring; rules_proposal options.river_connect_rule; "
                      "roll_games_notes T4",
               alternatives={"touches_opposite_edges": "river cells lie in both opposite "
                                                       "border rows or both border columns"}),
        Option("market_timing", "build_phase",
               "When the market's 2-for-1 trade may be used. `build_phase`: at any moment of "
               "your build phase.",
               choices=("build_phase", "only_while_paying"),
               source="rulebook: market ('only while building'); rules_proposal "
                      "options.market_timing; roll_games_notes T6",
               alternatives={"only_while_paying": "a trade must take a resource some building "
                                                  "you can place still lacks, and you must "
                                                  "build before ending the phase (unless no "
                                                  "building or trade is possible any more)"}),
        Option("ocean_check_timing", "after_each_coast",
               "When empty cells are checked for becoming ocean. `after_each_coast`: right "
               "after every coast icon is drawn, over the whole map, repeated until nothing "
               "changes.",
               choices=("after_each_coast", "invariant"),
               source="rulebook: coast icon; rules_proposal options.ocean_check_timing; "
                      "roll_games_notes T2",
               alternatives={"invariant": "also right after a lumberjack empties cells in the "
                                          "collect phase"}),
    )

    def _post_init(self) -> None:
        o = self.options
        self.geo = geometry(o["rows"], o["cols"])
        n = self.geo.n
        self.n_cells = n
        self.A_ADJ = R.MAX_DICE * NVAR * n
        self.A_SIDES = self.A_ADJ + 2 * R.MAX_DICE
        self.A_FOUNTAIN = self.A_SIDES + len(R.COAST_MASKS)
        self.A_BUILD = self.A_FOUNTAIN + 1
        self.A_TRADE = self.A_BUILD + len(R.BUILD_KINDS) * n
        self.A_CUT = self.A_TRADE + 9
        self.A_GROW = self.A_CUT + n
        self.A_DONE = self.A_GROW + n
        self.A_DIE = self.A_DONE + 1
        self.n_actions = self.A_DIE + 6
        if o["coast_two_side_shape"] == "corner_only":
            allowed = [m for m in R.COAST_MASKS if m.bit_count() != 2 or m in R.CORNER_PAIRS]
        else:
            allowed = list(R.COAST_MASKS)
        self.coast_sides = tuple(self.A_SIDES + COAST_INDEX[m] for m in allowed)
        # precomputed tables for the move generators
        self.die_actions = tuple(range(self.A_DIE, self.A_DIE + 6))
        self.die_outcomes = tuple((a, 1 / 6) for a in self.die_actions)
        self.draw_base = tuple(tuple((d * NVAR + v) * n for v in range(NVAR))
                               for d in range(R.MAX_DICE))
        self.build_base = tuple(self.A_BUILD + k * n for k in range(len(R.BUILD_KINDS)))

    def new_initial_state(self, num_players: int | None = None,
                          seed: int = 0) -> "RollIntoTownState":
        """A new game (no setup randomness: every map starts blank with the town hall)."""
        return RollIntoTownState(self, self.check_num_players(num_players), seed)

    def num_distinct_actions(self) -> int:
        """Size of the action space (depends on the map size)."""
        return self.n_actions

    def describe_setup(self, state: State) -> str:
        """e.g. ``"9x9"``."""
        return f"{self.options['rows']}x{self.options['cols']}"

    def score_file(self, data: Mapping[str, Any]) -> ScoreResult:
        """Score a sheet file (format: docs/formats.md, Roll into Town). Raises FormatError."""
        from .scorefile import score_sheet_file

        return score_sheet_file(self, data)


class RollIntoTownState(State):
    """One position of Roll into Town (see the module docstring for phases and actions)."""

    __slots__ = ("sheets", "round", "phase", "rolled", "dice", "used", "adjusted", "to_draw",
                 "done", "growth", "trade_pending", "phase_start", "pending_coast")

    def __init__(self, game: RollIntoTownGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        geo = game.geo
        self.sheets = [Sheet(geo) for _ in range(num_players)]
        self.round = 0
        self.phase = ROLL
        self.rolled: list[int] = []
        self.dice = [[] for _ in range(num_players)]
        self.used = [0] * num_players
        self.adjusted = [0] * num_players
        self.to_draw = [0] * num_players
        self.done = [False] * num_players
        self.growth: list[list[list[int]]] = [[] for _ in range(num_players)]
        self.trade_pending = [False] * num_players
        self.phase_start = 0
        self.pending_coast = [-1] * num_players

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        """Lowest player still acting in the phase; CHANCE while rolling; TERMINAL at the end."""
        ph = self.phase
        if ph == ROLL:
            return CHANCE
        if ph == END:
            return TERMINAL
        done = self.done
        for p in range(self.num_players):
            if not done[p]:
                return p
        return TERMINAL  # pragma: no cover - phases advance when everyone is done

    def active_players(self) -> list[int]:
        """Every player who has not finished the current phase."""
        if self.phase in (ROLL, END):
            return []
        return [p for p in range(self.num_players) if not self.done[p]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next die: faces 1-6, 1/6 each."""
        return list(self.game.die_outcomes)

    def undo_per_player(self) -> bool:
        """Players act independently within a phase: each may take back their own actions of the
        current phase even when other players acted in between (core/undo.py)."""
        return True

    def undo_blocked_after(self, index: int) -> bool:
        """Undo never reaches back before the start of the current phase."""
        return index < self.phase_start

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the current player / chance); the same
        contract as :meth:`State.legal_actions`, without its generic checks (hot path)."""
        ph = self.phase
        if ph == ROLL:
            return list(self.game.die_actions)
        if ph == END:
            return []
        if player is None:
            player = self.current_player()
        elif not 0 <= player < self.num_players:
            return []
        if self.done[player]:
            return []
        return self._legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        ph = self.phase
        if player == CHANCE or ph == ROLL:
            return list(g.die_actions)
        if self.done[player]:
            return []
        if ph == DISCOVER:
            return self._discover_actions(player)
        if ph == BUILD:
            return self._build_actions(player)
        if ph == COLLECT:
            return [g.A_CUT + i for i in self.sheets[player].lumberjacks_with_trees()] + [g.A_DONE]
        if ph == MAINTAIN:
            room = self._growth_room(player)
            if room:
                return [g.A_GROW + i for i in R._bits(room)]
            return [g.A_DONE]
        return []

    # ------------------------------------------------------------------ discover
    def draw_options(self, player: int) -> list[int]:
        """Legal draw actions of ``player`` now (dice with the same value and town-hall state are
        offered once, by their lowest index). Farm, mountain, tree and coast blocks are the
        sheet's cached :meth:`Sheet.free_plus` lists, so this is mostly list concatenation."""
        if self.to_draw[player] <= 0:
            return []
        sheet = self.sheets[player]
        if not sheet.free:
            return []
        dice = self.dice[player]
        used = self.used[player]
        adj = self.adjusted[player]
        draw_base = self.game.draw_base
        free = sheet.free
        get = sheet._blk.get
        free_plus = sheet.free_plus
        seen = 0
        out: list[int] = []
        river = None
        for d in range(len(dice)):
            if used >> d & 1:
                continue
            v = dice[d]
            key = 1 << (v * 2 + (adj >> d & 1))
            if seen & key:
                continue
            seen |= key
            bases = draw_base[d]
            for b in FACE_SIMPLE[v]:  # farm, mountain, tree: every empty cell
                base = bases[b]
                e = get(base)
                out += e[1] if e is not None and e[2] == free else free_plus(base)
            if v == 4 or v == 6:
                if sheet.river_src < 0:  # first piece: border cells, one block per shape
                    starts = sheet.geo.river_start_mask
                    for k in range(N_SHAPES):
                        base = bases[V_RIVER + k]
                        e = get(base)
                        out += e[1] if e is not None and e[2] == free else free_plus(
                            base, starts[k])
                else:
                    if river is None:
                        river = sheet.river_options()
                    for cell, shape in river:
                        out.append(bases[RIVER_VAR[shape]] + cell)
            if v >= 5:  # coast (then the water sides)
                base = bases[V_COAST]
                e = get(base)
                out += e[1] if e is not None and e[2] == free else free_plus(base)
        return out  # ascending by construction

    def _fountain_ok(self, player: int) -> bool:
        sheet = self.sheets[player]
        if not sheet.unique_built & R.UNIQUE_BIT["fountain"] or sheet.fountain_uses <= 0:
            return False
        unused = len(self.dice[player]) - self.used[player].bit_count()
        return unused > self.to_draw[player]

    def _discover_actions(self, player: int) -> list[int]:
        g = self.game
        if self.pending_coast[player] >= 0:
            return list(g.coast_sides)
        out = self.draw_options(player)
        fountain = self._fountain_ok(player)
        sheet = self.sheets[player]
        if sheet.hall_uses > 0 and (self.to_draw[player] > 0 or fountain):
            dice, used, adj = self.dice[player], self.used[player], self.adjusted[player]
            for d in range(len(dice)):
                if used >> d & 1 or adj >> d & 1:
                    continue
                v = dice[d]
                if 2 <= v <= 6:
                    out.append(g.A_ADJ + 2 * d)
                if v <= 4:
                    out.append(g.A_ADJ + 2 * d + 1)
        if fountain:
            out.append(g.A_FOUNTAIN)
        if self.to_draw[player] <= 0 or not out or out[0] >= g.A_ADJ:
            out.append(g.A_DONE)
        return out  # ascending by construction

    # ------------------------------------------------------------------ build
    def build_options(self, player: int) -> list[int]:
        """Legal build actions of ``player`` (affordable, placeable, unique not yet built)."""
        sheet = self.sheets[player]
        out: list[int] = []
        bases = self.game.build_base
        unique_built = sheet.unique_built
        f, st, w = sheet.res
        for kind in _KINDS:
            if KIND_UNIQUE[kind] & unique_built:
                continue
            cf, cs, cw = KIND_COST[kind]
            if f < cf or st < cs or w < cw:
                continue
            if kind in FREE_KINDS:
                out += sheet.free_plus(bases[kind])
            else:
                m = sheet.anchor_mask(kind)
                if m:
                    base = bases[kind]
                    out += [base + c for c in R._bits(m)]
        return out

    def _can_build(self, player: int) -> bool:
        """Whether ``player`` has any build action (short-circuit of :meth:`build_options`)."""
        sheet = self.sheets[player]
        unique_built = sheet.unique_built
        f, st, w = sheet.res
        for kind in _KINDS:
            if KIND_UNIQUE[kind] & unique_built:
                continue
            cf, cs, cw = KIND_COST[kind]
            if f < cf or st < cs or w < cw:
                continue
            if kind in FREE_KINDS:
                if sheet.free:
                    return True
            elif sheet.anchor_mask(kind):
                return True
        return False

    def _trade_options(self, player: int) -> list[int]:
        sheet = self.sheets[player]
        if not sheet.unique_built & R.UNIQUE_BIT["market"]:
            return []
        res = sheet.res
        wanted = (True, True, True)
        if self.game.options["market_timing"] == "only_while_paying":
            need = [False, False, False]
            for kind in range(len(R.BUILD_KINDS)):
                if R.KIND_UNIQUE[kind] & sheet.unique_built:
                    continue
                cost = R.KIND_COST[kind]
                if any(cost[r] > res[r] for r in range(3)) and sheet.anchor_mask(kind):
                    for r in range(3):
                        if cost[r] > res[r]:
                            need[r] = True
            wanted = tuple(need)
        out = []
        for give in range(3):
            if res[give] < 2:
                continue
            for take in range(3):
                if take != give and res[take] < R.CAP and wanted[take]:
                    out.append(self.game.A_TRADE + give * 3 + take)
        return out

    def _build_actions(self, player: int) -> list[int]:
        out = self.build_options(player) + self._trade_options(player)
        # ``only_while_paying``: after a trade the player must build before ending the phase,
        # unless neither a building nor a further trade is possible (trades that led nowhere;
        # without this the player would be stuck with no legal action)
        if not self.trade_pending[player] or not out:
            out.append(self.game.A_DONE)
        out.sort()
        return out

    # ------------------------------------------------------------------ maintenance
    def _growth_room(self, player: int) -> int:
        sheet = self.sheets[player]
        room = 0
        for cell, count in self.growth[player]:
            if count > 0:
                room |= sheet.growth_room(sheet.group_of(cell))
        return room

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int, player: int) -> None:
        g = self.game
        if player == CHANCE or self.phase == ROLL:
            self.rolled.append(action - g.A_DIE + 1)
            if len(self.rolled) == R.DICE_PER_ROUND[self.round]:
                self._enter(DISCOVER)
            return
        sheet = self.sheets[player]
        opts = g.options
        if action == g.A_DONE:
            self.done[player] = True
            if all(self.done):
                self._enter(self.phase + 1)
            return
        n = g.n_cells
        if action < g.A_ADJ:
            cell = action % n
            rest = action // n
            var = rest % NVAR
            die = rest // NVAR
            self.used[player] |= 1 << die
            self.to_draw[player] -= 1
            t = VAR_TERRAIN[var]
            if t == R.RIVER:
                sheet.draw_river(cell, VAR_MASK[var])
            elif t == R.COAST:
                sheet.draw_simple(cell, R.COAST)  # water sides come with the next action
                self.pending_coast[player] = cell
            else:
                sheet.draw_simple(cell, t)
        elif action >= g.A_SIDES and action < g.A_FOUNTAIN:
            cell = self.pending_coast[player]
            self.pending_coast[player] = -1
            sheet.draw_coast(cell, R.COAST_MASKS[action - g.A_SIDES], opts["ocean_sides_rule"])
        elif action < g.A_SIDES:
            k = action - g.A_ADJ
            die = k >> 1
            self.dice[player][die] += 1 if k & 1 else -1
            self.adjusted[player] |= 1 << die
            sheet.hall_uses -= 1
        elif action == g.A_FOUNTAIN:
            sheet.fountain_uses -= 1
            self.to_draw[player] += 1
        elif action < g.A_TRADE:
            k = action - g.A_BUILD
            kind, anchor = divmod(k, n)
            sheet.pay(kind)
            sheet.place(kind, anchor)
            self.trade_pending[player] = False
        elif action < g.A_CUT:
            give, take = divmod(action - g.A_TRADE, 3)
            sheet.res[give] -= 2
            sheet.gain(take, 1)
            if opts["market_timing"] == "only_while_paying":
                self.trade_pending[player] = True
        elif action < g.A_GROW:
            sheet.cut(action - g.A_CUT, opts["ocean_check_timing"], opts["ocean_sides_rule"])
        else:
            cell = action - g.A_GROW
            for entry in self.growth[player]:
                if entry[1] > 0 and sheet.growth_room(sheet.group_of(entry[0])) >> cell & 1:
                    entry[1] -= 1
                    break
            sheet.grow(cell)

    def _enter(self, phase: int) -> None:
        """Start ``phase`` (running its automatic effects); skip phases nobody acts in."""
        while True:
            if phase > MAINTAIN:
                self.round += 1
                phase = ROLL if self.round < R.ROUNDS else END
            self.phase = phase
            if phase == END:
                return
            if phase == ROLL:
                self.rolled = []
                return
            np_ = self.num_players
            if phase == DISCOVER:
                k = R.ICONS_PER_ROUND[self.round]
                for p in range(np_):
                    self.dice[p] = self.rolled[:]
                    self.used[p] = 0
                    self.adjusted[p] = 0
                    self.to_draw[p] = k
            elif phase == BUILD:
                for p in range(np_):
                    self.to_draw[p] = 0
                    self.trade_pending[p] = False
            elif phase == COLLECT:
                for sheet in self.sheets:
                    sheet.collect_income()
            elif phase == MAINTAIN:
                for p in range(np_):
                    sheet = self.sheets[p]
                    self.growth[p] = [[(f & -f).bit_length() - 1, f.bit_count() // 2]
                                      for f in sheet.forests()]
            for p in range(np_):
                self.done[p] = self._no_choice(p)
            if not all(self.done):
                self.phase_start = len(self._history) + 1
                return
            phase += 1

    def _no_choice(self, player: int) -> bool:
        ph = self.phase
        if ph == DISCOVER:
            sheet = self.sheets[player]
            if sheet.free and any(v != 4 for v in self.dice[player]):
                return False
            return self._discover_actions(player) == [self.game.A_DONE]
        if ph == BUILD:
            sheet = self.sheets[player]
            if sheet.unique_built & R.UNIQUE_BIT["market"] and self._trade_options(player):
                return False
            return not self._can_build(player)
        if ph == COLLECT:
            return not self.sheets[player].lumberjacks_with_trees()
        if ph == MAINTAIN:
            return not self._growth_room(player)
        return True

    # ------------------------------------------------------------------ copies, JSON
    def _clone(self) -> "RollIntoTownState":
        s = RollIntoTownState.__new__(RollIntoTownState)
        s.game, s.num_players, s.seed = self.game, self.num_players, self.seed
        s.sheets = [sh.clone() for sh in self.sheets]
        s.round, s.phase = self.round, self.phase
        s.rolled = self.rolled[:]
        s.dice = [d[:] for d in self.dice]
        s.used = self.used[:]
        s.adjusted = self.adjusted[:]
        s.to_draw = self.to_draw[:]
        s.done = self.done[:]
        s.growth = [[e[:] for e in gp] for gp in self.growth]
        s.trade_pending = self.trade_pending[:]
        s.phase_start = self.phase_start
        s.pending_coast = self.pending_coast[:]
        return s

    def _position_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "phase": PHASE_NAMES[self.phase], "rolled": self.rolled[:],
            "dice": [d[:] for d in self.dice], "used": self.used[:],
            "adjusted": self.adjusted[:], "to_draw": self.to_draw[:], "done": self.done[:],
            "growth": [[e[:] for e in gp] for gp in self.growth],
            "trade_pending": self.trade_pending[:], "phase_start": self.phase_start,
            "pending_coast": self.pending_coast[:],
            "sheets": [sh.to_json() for sh in self.sheets],
        }

    def _load_position(self, data: Mapping[str, Any]) -> None:
        self.round = int(data["round"])
        self.phase = PHASE_NAMES.index(data["phase"])
        self.rolled = [int(x) for x in data["rolled"]]
        self.dice = [[int(x) for x in d] for d in data["dice"]]
        self.used = [int(x) for x in data["used"]]
        self.adjusted = [int(x) for x in data["adjusted"]]
        self.to_draw = [int(x) for x in data["to_draw"]]
        self.done = [bool(x) for x in data["done"]]
        self.growth = [[[int(a), int(b)] for a, b in gp] for gp in data["growth"]]
        self.trade_pending = [bool(x) for x in data["trade_pending"]]
        self.phase_start = int(data["phase_start"])
        self.pending_coast = [int(x) for x in data["pending_coast"]]
        if len(data["sheets"]) != self.num_players:
            raise ValueError("one sheet per player expected")
        for sheet, d in zip(self.sheets, data["sheets"]):
            sheet.load_json(d)

    # ------------------------------------------------------------------ scores
    def scores(self) -> list[PlayerScore]:
        """Points by category per player (rulebook scoring); ``extra`` has the solo rank."""
        rule = self.game.options["river_connect_rule"]
        out = []
        for sheet in self.sheets:
            parts = sheet.score_parts(rule)
            total = sum(parts.values())
            extra: dict[str, Any] = {}
            if self.num_players == 1:
                extra["rank"] = R.solo_rank(total)
            out.append(PlayerScore(total, parts, extra))
        return out

    def winners(self) -> list[int]:
        """Highest total; ties go to the most house points (taverns excluded), then shared
        (rulebook game end)."""
        sc = self.scores()
        key = [(s.total, s.parts["houses"]) for s in sc]
        best = max(key)
        return [p for p, k in enumerate(key) if k == best]

    def result_info(self) -> dict[str, Any]:
        """``{"rank": <solo rank name>}`` in a solo game."""
        if self.num_players == 1:
            return {"rank": R.solo_rank(self.scores()[0].total)}
        return {}

    # ------------------------------------------------------------------ views
    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public except future dice (not yet rolled)."""
        rule = self.game.options["river_connect_rule"]
        return {
            "round": self.round + 1, "phase": PHASE_NAMES[self.phase],
            "rolled": self.rolled[:], "dice": self.dice[player][:],
            "used_dice": [d for d in range(len(self.dice[player])) if self.used[player] >> d & 1],
            "adjusted_dice": [d for d in range(len(self.dice[player]))
                              if self.adjusted[player] >> d & 1],
            "icons_to_draw": self.to_draw[player],
            "active_players": self.active_players(),
            "sheets": [self._sheet_view(sh, rule) for sh in self.sheets],
        }

    def _sheet_view(self, sheet: Sheet, rule: str) -> dict[str, Any]:
        from .notation import cell_token

        cols = sheet.geo.cols
        toks = [cell_token(sheet, i) for i in range(sheet.geo.n)]
        return {
            "map": [" ".join(toks[r * cols:(r + 1) * cols]) for r in range(sheet.geo.rows)],
            "food": sheet.res[0], "stone": sheet.res[1], "wood": sheet.res[2],
            "town_hall_uses_left": sheet.hall_uses, "fountain_uses_left": sheet.fountain_uses,
            "river_connects": sheet.river_connects(rule),
        }

    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Notation, e.g. ``d1 farm 3,4``, ``d2 coast NE 0,0``, ``adjust d3 +1``, ``fountain``,
        ``build house 3,4``, ``trade 2 wood for food``, ``cut 3,4``, ``grow 3,4``, ``done``,
        ``roll 5``."""
        from .notation import action_text

        return action_text(self.game, action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation (case and spacing free; sides in any order). Raises
        IllegalActionError naming what is legal."""
        from .notation import parse_action

        if player is None:
            player = self.current_player()
        try:
            a = parse_action(self.game, text)
        except ValueError as exc:
            raise IllegalActionError(f"'{text.strip()}': {exc}") from None
        if a not in self.legal_actions(player):
            raise IllegalActionError(self.explain_illegal(a, player))
        return a

    def explain_illegal(self, action: int, player: int) -> str:
        """Why ``action`` is illegal, in one line."""
        from .notation import explain

        return explain(self, action, player)

    def render_text(self, player: int | None = None, color: bool = False) -> str:
        """Terminal view: round, phase, dice, the map with icons and buildings, resources,
        uses left of town hall and fountain."""
        from .render import render_text

        return render_text(self, player, color)

    def render_svg(self, player: int | None = None) -> str:
        """SVG map (``data-key="sq:R,C"`` cells, ``die:i`` dice)."""
        from .render import render_svg

        return render_svg(self, player)

    def action_path(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """Web click path, e.g. ``("die:0", "icon:coast", "sides:NE", "sq:3,4")``."""
        from .notation import action_path

        return action_path(self.game, action)

    # ------------------------------------------------------------------ bots
    def evaluate(self, player: int) -> float:
        """Score plus small credit for resources and engine (greedy bot's state value)."""
        from .strategy import evaluate

        return evaluate(self, player)

    def greedy_action(self, player: int, rng: random.Random) -> int | None:
        """A fast heuristic greedy move (see strategy.py)."""
        from .strategy import greedy_action

        return greedy_action(self, player, rng)
