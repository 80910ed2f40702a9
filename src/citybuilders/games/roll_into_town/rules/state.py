"""Roll into Town state: one position of the simultaneous roll-and-write (rules only).

Rules: the Chinese rulebook (shared seed 001) is the authority; where it is silent the values of
rules_proposal.json revision 2 are used (data in ``data/rules.json``) and every disputed reading
is a named rules option (``game.py`` declares them; docs/rules-options.md).

Round structure (rulebook "game play"): 12 rounds; each round the dice are rolled one die at a
time (public chance nodes: 5 dice in rounds 1-6, 4 in 7-9, 3 in 10-12), then four simultaneous
phases: discover, build, collect, maintenance. Every player uses the same roll; the town hall
changes only that player's copy of a die. In a phase ``active_players()`` lists the players who
have not finished it; a player ends a phase with ``done`` (a phase in which a player has no
choice at all is skipped for them automatically). ``current_player()`` is the lowest active
player. Action ids and notation: ``actions.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ....core.errors import IllegalActionError
from ....core.game import CHANCE, TERMINAL, PlayerScore, State
from ..actions import (BUILD, COLLECT, DISCOVER, END, FACE_SIMPLE, MAINTAIN, N_SHAPES, NVAR,
                       PHASE_NAMES, RIVER_VAR, ROLL, V_COAST, V_RIVER, VAR_MASK, VAR_TERRAIN,
                       action_text, cell_token, parse_action)
from ..loader import (BUILD_KINDS, CAP, COAST, COAST_MASKS, DICE_PER_ROUND, FACE_ANY, FACE_COAST,
                      FACE_MOUNTAIN, FACE_RIVER, FREE_KINDS, ICONS_PER_ROUND,
                      KIND_COST, KIND_UNIQUE, RIVER, ROUNDS, UNIQUE_BIT)
from ..scoring import score_parts, solo_rank
from .explain import explain
from .geometry import bits, nth_bit
from .playout import playout as _playout
from .sheet import Sheet
from ....core.i18n import N_

if TYPE_CHECKING:  # pragma: no cover
    from ..game import RollIntoTownGame

__all__ = ["RollIntoTownState", "STATE_FIELDS"]

STATE_FIELDS: tuple[tuple[str, str], ...] = (
    ("round", "int"), ("phase", "phase"), ("rolled", "ints"), ("dice", "int lists"),
    ("used", "ints"), ("adjusted", "ints"), ("to_draw", "ints"), ("done", "bools"),
    ("growth", "growth"), ("trade_pending", "bools"), ("phase_start", "int"),
    ("pending_coast", "ints"),
)
"""The saved fields of a state besides ``sheets``, in JSON order, with their JSON kind: the
``__slots__``, ``_position_json`` and ``_load_position`` are derived from it (docs/formats.md,
Roll into Town saved positions). Per player: ``dice`` ... ``trade_pending``, ``pending_coast``;
``growth[p]`` lists ``[tree cell, trees left]`` per growing forest."""

_SAVE: dict[str, Callable[[Any], Any]] = {
    "int": lambda v: v,
    "phase": lambda v: PHASE_NAMES[v],
    "ints": lambda v: v[:],
    "bools": lambda v: v[:],
    "int lists": lambda v: [d[:] for d in v],
    "growth": lambda v: [[e[:] for e in gp] for gp in v],
}
_LOAD: dict[str, Callable[[Any], Any]] = {
    "int": int,
    "phase": PHASE_NAMES.index,
    "ints": lambda v: [int(x) for x in v],
    "bools": lambda v: [bool(x) for x in v],
    "int lists": lambda v: [[int(x) for x in d] for d in v],
    "growth": lambda v: [[[int(a), int(b)] for a, b in gp] for gp in v],
}


_TRADES: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
"""The market trades by ``(A_TRADE, food, stone, wood)`` under ``market_timing`` =
``build_phase`` (a pure table, filled on demand; supplies are at most 9)."""


class RollIntoTownState(State):
    """One position of Roll into Town (see the module docstring for phases and actions)."""

    __slots__ = ("sheets",) + tuple(name for name, _ in STATE_FIELDS)

    def __init__(self, game: RollIntoTownGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        geo = game.geo
        front = game.options["watermill_rule"] == "non_flow_side"
        self.sheets = [Sheet(geo, front) for _ in range(num_players)]
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

    def sample_chance(self, rng: random.Random) -> int:
        """One die drawn exactly as :meth:`State.sample_chance` draws it (the same running sums
        of the outcomes' probabilities, so the same ``rng`` gives the same faces), without
        building the outcome list."""
        r = rng.random()
        thresholds = self.game.die_thresholds
        for a, acc in thresholds:
            if r < acc:
                return a
        return thresholds[-1][0]

    def apply_legal(self, action: int, player: int | None = None) -> None:
        """:meth:`State.apply_legal` (same effect and history entry) without its generic
        ``current_player()`` scan when the acting player is given (the dice are public chance:
        the history actor is CHANCE or the player)."""
        ph = self.phase
        if ph == ROLL:
            self._apply(action, CHANCE)
            self._history.append((CHANCE, action))
            return
        if ph == END or player is None:
            State.apply_legal(self, action, player)
            return
        self._apply(action, player)
        self._history.append((player, action))

    def playout(self, rng: random.Random, max_actions: int | None = None) -> None:
        """:meth:`State.playout` as one fused loop (``playout.py``: the same state, history and
        draws; discover and build moves counted by parts, not listed)."""
        _playout(self, rng, max_actions)

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
                return [g.A_GROW + i for i in bits(room)]
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
            if v == FACE_RIVER or v == FACE_ANY:
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
            if v >= FACE_COAST:  # coast or any (then the water sides)
                base = bases[V_COAST]
                e = get(base)
                out += e[1] if e is not None and e[2] == free else free_plus(base)
        return out  # ascending by construction

    def _fountain_ok(self, player: int) -> bool:
        sheet = self.sheets[player]
        if not sheet.unique_built & UNIQUE_BIT["fountain"] or sheet.fountain_uses <= 0:
            return False
        unused = len(self.dice[player]) - self.used[player].bit_count()
        return unused > self.to_draw[player]

    def _draw_counts(self, player: int) -> list[tuple[int, int, list[int] | None]]:
        """:meth:`draw_options` as parts ``(base, cells, None)`` (the actions ``base + c`` for
        the set bits ``c`` of ``cells``, ascending) or ``(0, 0, ids)`` (continuing river
        pieces), in the same order, without the sheet's cached lists (for :meth:`sample_action`:
        a part's size is a bit count). The same loop as :meth:`draw_options` (the test of
        ``sample_action`` against the list draw keeps them equal)."""
        if self.to_draw[player] <= 0:
            return []
        sheet = self.sheets[player]
        free = sheet.free
        if not free:
            return []
        dice = self.dice[player]
        used = self.used[player]
        adj = self.adjusted[player]
        draw_base = self.game.draw_base
        seen = 0
        out: list[tuple[int, int, list[int] | None]] = []
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
            for b in FACE_SIMPLE[v]:
                out.append((bases[b], free, None))
            if v == FACE_RIVER or v == FACE_ANY:
                if sheet.river_src < 0:
                    starts = sheet.geo.river_start_mask
                    for k in range(N_SHAPES):
                        out.append((bases[V_RIVER + k], free & starts[k], None))
                else:
                    if river is None:
                        river = sheet.river_options()
                    out.append((0, 0, [bases[RIVER_VAR[shape]] + cell for cell, shape in river]))
            if v >= FACE_COAST:
                out.append((bases[V_COAST], free, None))
        return out

    def sample_action(self, rng: random.Random, player: int | None = None) -> int:
        """A uniformly random legal action: exactly ``legal[rng.randrange(len(legal))]`` (the
        core contract). In the discover phase the draws are counted by bits
        (:meth:`_draw_counts`), not listed, and the cell picked in its part by
        :func:`.geometry.nth_bit`. ``rng._randbelow(n)`` is what ``rng.randrange(n)`` returns and
        consumes for ``n >= 1`` (CPython's random.py; tests/bots/test_ismcts_fast.py)."""
        if (self.phase == DISCOVER and player is not None and 0 <= player < self.num_players
                and not self.done[player] and self.pending_coast[player] < 0):
            parts = self._draw_counts(player)
            sizes = [cells.bit_count() if ids is None else len(ids) for _, cells, ids in parts]
            ndraw = sum(sizes)
            extras = self._discover_extras(player, ndraw > 0)
            total = ndraw + len(extras)
            if total:
                r = rng._randbelow(total)
                if r >= ndraw:
                    return extras[r - ndraw]
                for (base, cells, ids), n in zip(parts, sizes):
                    if r < n:
                        return ids[r] if ids is not None else base + nth_bit(cells, r)
                    r -= n
        return State.sample_action(self, rng, player)

    def _discover_actions(self, player: int) -> list[int]:
        g = self.game
        if self.pending_coast[player] >= 0:
            return list(g.coast_sides)
        out = self.draw_options(player)
        out += self._discover_extras(player, bool(out))
        return out  # ascending by construction

    def _discover_extras(self, player: int, draws: bool) -> list[int]:
        """The discover actions after the draws (``draws``: whether there is any): town-hall
        adjustments, the fountain, done (when nothing is left to draw or nothing can be drawn)."""
        g = self.game
        out: list[int] = []
        fountain = self._fountain_ok(player)
        sheet = self.sheets[player]
        if sheet.hall_uses > 0 and (self.to_draw[player] > 0 or fountain):
            dice, used, adj = self.dice[player], self.used[player], self.adjusted[player]
            for d in range(len(dice)):
                if used >> d & 1 or adj >> d & 1:
                    continue
                v = dice[d]
                if FACE_MOUNTAIN <= v <= FACE_ANY:
                    out.append(g.A_ADJ + 2 * d)
                if v <= FACE_RIVER:
                    out.append(g.A_ADJ + 2 * d + 1)
        if fountain:
            out.append(g.A_FOUNTAIN)
        if self.to_draw[player] <= 0 or not draws:  # (draw ids are below A_ADJ)
            out.append(g.A_DONE)
        return out

    # ------------------------------------------------------------------ build
    def build_options(self, player: int) -> list[int]:
        """Legal build actions of ``player`` (affordable, placeable, unique not yet built)."""
        sheet = self.sheets[player]
        out: list[int] = []
        bases = self.game.build_base
        for kind in sheet.buildable_kinds():
            if kind in FREE_KINDS:
                out += sheet.free_plus(bases[kind])
            else:
                m = sheet.anchor_mask(kind)
                if m:
                    base = bases[kind]
                    out += [base + c for c in bits(m)]
        return out

    def _can_build(self, player: int) -> bool:
        """Whether ``player`` has any build action (short-circuit of :meth:`build_options`)."""
        sheet = self.sheets[player]
        free = sheet.free
        for kind in sheet.buildable_kinds():
            if kind in FREE_KINDS:
                if free:
                    return True
            elif sheet.anchor_mask(kind):
                return True
        return False

    def _trade_options(self, player: int) -> list[int]:
        sheet = self.sheets[player]
        if not sheet.unique_built & UNIQUE_BIT["market"]:
            return []
        res = sheet.res
        if self.game.options["market_timing"] != "only_while_paying":
            # every trade the supplies allow: a function of the supplies only
            key = (self.game.A_TRADE, res[0], res[1], res[2])
            trades = _TRADES.get(key)
            if trades is None:
                trades = _TRADES[key] = self._trades(res, (True, True, True))
            return list(trades)
        need = [False, False, False]
        for kind in range(len(BUILD_KINDS)):
            if KIND_UNIQUE[kind] & sheet.unique_built:
                continue
            cost = KIND_COST[kind]
            if any(cost[r] > res[r] for r in range(3)) and sheet.anchor_mask(kind):
                for r in range(3):
                    if cost[r] > res[r]:
                        need[r] = True
        return list(self._trades(res, tuple(need)))

    def _trades(self, res: list[int], wanted: tuple[bool, ...]) -> tuple[int, ...]:
        """The market trades of 2 of one resource for 1 of another of the ``wanted`` ones
        (a supply of 9 takes nothing more), ascending."""
        out = []
        for give in range(3):
            if res[give] < 2:
                continue
            for take in range(3):
                if take != give and res[take] < CAP and wanted[take]:
                    out.append(self.game.A_TRADE + give * 3 + take)
        return tuple(out)

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
            if len(self.rolled) == DICE_PER_ROUND[self.round]:
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
            if t == RIVER:
                sheet.draw_river(cell, VAR_MASK[var])
            elif t == COAST:
                sheet.draw_simple(cell, COAST)  # water sides come with the next action
                self.pending_coast[player] = cell
            else:
                sheet.draw_simple(cell, t)
        elif action >= g.A_SIDES and action < g.A_FOUNTAIN:
            cell = self.pending_coast[player]
            self.pending_coast[player] = -1
            sheet.draw_coast(cell, COAST_MASKS[action - g.A_SIDES], opts["ocean_sides_rule"])
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
        """Start ``phase`` (running its automatic effects); skip phases nobody acts in: a
        player with no choice but done (:meth:`_no_choice`) is done at once."""
        np_ = self.num_players
        done = self.done
        sheets = self.sheets
        while True:
            if phase > MAINTAIN:
                self.round += 1
                phase = ROLL if self.round < ROUNDS else END
            self.phase = phase
            if phase == ROLL:
                self.rolled = []
                return
            if phase == END:
                return
            if phase == DISCOVER:
                k = ICONS_PER_ROUND[self.round]
                rolled = self.rolled
                for p in range(np_):
                    self.dice[p] = rolled[:]
                    self.used[p] = 0
                    self.adjusted[p] = 0
                    self.to_draw[p] = k
                    done[p] = self._no_choice(p)
            elif phase == BUILD:
                for p in range(np_):
                    self.to_draw[p] = 0
                    self.trade_pending[p] = False
                    done[p] = self._no_choice(p)
            elif phase == COLLECT:
                for p in range(np_):
                    sheet = sheets[p]
                    sheet.collect_income()
                    done[p] = not sheet.lumberjacks_with_trees()  # (_no_choice)
            else:  # MAINTAIN
                for p in range(np_):
                    sheet = sheets[p]
                    self.growth[p] = [[(f & -f).bit_length() - 1, f.bit_count() // 2]
                                      for f in sheet.forests()]
                    done[p] = self._no_choice(p)
            if not all(done):
                self.phase_start = len(self._history) + 1  # the next action's move number
                return
            phase += 1

    def _no_choice(self, player: int) -> bool:
        """Whether done is the only action of ``player`` at the start of the current phase
        (:meth:`_enter`)."""
        ph = self.phase
        sheet = self.sheets[player]
        if ph == DISCOVER:
            dice = self.dice[player]
            if sheet.free and dice.count(FACE_RIVER) != len(dice):
                return False
            return self._discover_actions(player) == [self.game.A_DONE]
        if ph == BUILD:
            if sheet.unique_built & UNIQUE_BIT["market"] and self._trade_options(player):
                return False
            return not self._can_build(player)
        if ph == COLLECT:
            return not sheet.lumberjacks_with_trees()
        if ph == MAINTAIN:
            # at the phase's start every forest may still grow (growth entries of >= 1 tree):
            # :meth:`_growth_room` is the free cells beside the forests' trees, i.e. beside
            # the trees that have a tree beside them
            trees = sheet.trees
            spread4 = sheet.geo.spread4
            return not spread4(trees & spread4(trees)) & sheet.free
        return True

    # ------------------------------------------------------------------ copies, JSON
    def successor(self, action: int, player: int) -> "RollIntoTownState":
        """A copy with ``action`` (legal for ``player``) applied without validation, for one-ply
        searches (bots/greedy.one_ply_values): the copy shares this state's history list, so it
        skips the history copy, and must not be played on."""
        s = self._clone()
        s._history = self._history
        s._apply(action, player)
        return s

    def _clone(self) -> "RollIntoTownState":
        # written out for speed (a hot path of the bots); a test checks it against STATE_FIELDS
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
        out = {name: _SAVE[kind](getattr(self, name)) for name, kind in STATE_FIELDS}
        out["sheets"] = [sh.to_json() for sh in self.sheets]
        return out

    def _load_position(self, data: Mapping[str, Any]) -> None:
        for name, kind in STATE_FIELDS:
            setattr(self, name, _LOAD[kind](data[name]))
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
            parts = score_parts(sheet, rule)
            total = sum(parts.values())
            extra: dict[str, Any] = {}
            if self.num_players == 1:
                extra["rank"] = solo_rank(total)
            out.append(PlayerScore(total, parts, extra))
        return out

    def winners(self) -> list[int]:
        """Highest total; ties go to the most house points (taverns excluded), then shared
        (rulebook game end). Solo: the player (without scoring)."""
        if self.num_players == 1:
            return [0]
        sc = self.scores()
        key = [(s.total, s.parts["houses"]) for s in sc]
        best = max(key)
        return [p for p, k in enumerate(key) if k == best]

    def result_info(self) -> dict[str, Any]:
        """``{"rank": <solo rank name>}`` in a solo game."""
        if self.num_players == 1:
            return {"rank": solo_rank(self.scores()[0].total)}
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
        return action_text(self.game.space, action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation (case and spacing free; sides in any order). Raises
        IllegalActionError naming what is legal."""
        if player is None:
            player = self.current_player()
        try:
            a = parse_action(self.game.space, text)
        except ValueError as exc:
            raise IllegalActionError(N_("'{strip}': {exc}", strip=text.strip(), exc=exc)) from None
        if a not in self.legal_actions(player):
            raise IllegalActionError(self.explain_illegal(a, player))
        return a

    def explain_illegal(self, action: int, player: int) -> str:
        """Why ``action`` is illegal, in one line."""
        return explain(self, action, player)
