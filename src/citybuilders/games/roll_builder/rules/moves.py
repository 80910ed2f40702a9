"""Roll Builder moves: applying an action to the state (roads, marks, buildings, wonder boxes,
innovation circles, resources, the end of a turn) and a new player's sheet.

Rules source: the Portuguese rulebook ("Ação de Estrada", "Ação de Construção", "Ação de
Maravilha", "Recursos", "Bônus de Turno") and the research digest for the sheets (§4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from citybuilders.core.game import CHANCE

from ..actions import (
    A_BOTH, A_CARAVAN, A_DIE, A_DISCARD, A_DONE, A_ROLL, A_SKIP_BUILD, A_SKIP_WONDER, A_STORE,
    A_TRACK, DISCARD_BONUS, PAY_RESOURCE, PAY_BONUS, USE_BUILD, USE_ROAD, USE_WONDER,
)
from ..loader import FAVOR, STRENGTH, WEALTH
from .effects import apply_effect, gain, grant_bonus
from .player_sheet import PLACEMENT_STRIDE, PlayerSheet

if TYPE_CHECKING:  # pragma: no cover
    from .tables import RollBuilderTables

__all__ = ["Moves", "TURNS", "BONUS_TURNS", "NO_VALUE", "NO_GUILD"]

TURNS = 15
"""Turns of a game (rulebook "Fluxo do Jogo")."""
BONUS_TURNS = (5, 10, 15)
"""Turns whose first ``done`` grants a bonus: innovation bonus, Build, Wonder (in that order)."""
NO_VALUE = 7
"""``wvals`` entry of a box filled by a bonus Wonder action (no die value)."""
NO_GUILD = -1
"""``guild`` when no second mark of a two-space building is pending."""


class Moves:
    """Mixin of the state (rules/state.py): applying actions."""

    __slots__ = ()
    players: list[PlayerSheet]
    dice: list[int]
    turn: int
    turn_list: list[list[int]]
    over: bool
    game: "RollBuilderTables"

    def _fresh_sheet(self) -> PlayerSheet:
        g: RollBuilderTables = self.game  # type: ignore[assignment]
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
        p.marked = p.built = p.built_twice = 0
        p.placements = []
        p.building_marks = [0] * 7
        p.crossed = p.discovered = 0
        p.box_values = [0] * len(sh.boxes)
        p.filled = 0
        p.unlocked = sum(1 << i for i, b in enumerate(sh.boxes) if not b.locked)
        p.favor = p.strength = 0
        p.wealth_marked = p.wealth_spent = p.wealth_marked_this_turn = 0
        p.full_hexagons = p.full_hexagon_uses = p.full_hexagon_points = 0
        p.milestones_reached = 0
        p.roads_placed = 0
        p.blocked = sh.river_block | sh.ridge_edges
        p.first_road_extra = 0
        p.gain_on_water_mark = p.gain_on_mountain_mark = p.gain_on_build = p.gain_on_box = None
        p.road_toll = None
        p.wealth_conversion = None
        for e in sh.specials:
            apply_effect(sh, p, e)
        p.dice_used = 0
        p.done = False
        p.turn_bonus_given = False
        p.roads_left = p.road_actions = p.tolls_taken = p.extra_roads = p.conversion_used = 0
        p.pending_resources = [0] * 5
        p.pending_innovation_bonus = 0
        p.pending_builds = []
        p.pending_wonders = []
        p.second_mark_of = NO_GUILD
        p.road_key, p.road_list = 0, ()
        return p

    def _apply_effect(self, p: PlayerSheet, e: Mapping[str, Any]) -> None:
        """Apply effect ``e`` to ``p`` on this game's sheet (rules/effects.py)."""
        apply_effect(self.game.sheet, p, e)

    def _place_road(self, p: PlayerSheet, e: int) -> bool:
        """Place a road on edge ``e`` (rulebook "Ação de Estrada": tolls, full hexagons,
        milestones). Returns True when the road gained something (a toll, a full hexagon or a
        milestone: pending units, a bonus action or unlocked wonder boxes), which the fused
        playout (rules/playout.py) reads instead of testing every pending field."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        bit, both, first, spaces, edges, hexes = g.road_info[e]
        roads = p.roads = p.roads | bit
        placed = p.roads_placed = p.roads_placed + 1
        p.roads_left -= 1
        corners = p.corners
        new = both ^ (corners & both)  # the edge's corners reached for the first time
        gained = False
        if p.road_toll is not None and g.toll_edges & bit and p.tolls_taken < p.road_actions:
            p.tolls_taken += 1
            gain(p, p.road_toll)
            gained = True
        if new:
            # a corner reached for the first time had no road: the spaces beside the edge (both
            # have that corner) still miss a side, so no hexagon is full yet
            p.corners = corners | new
            i = 0 if new == both else 1 if new == first else 2
            p.connected |= spaces[i]
            p.frontier |= edges[i]
        elif p.full_hexagon_uses < g.hex_max:
            hex_max = g.hex_max
            sh = g.sheet
            for s, m in hexes:  # the spaces beside the edge and their six sides
                if (roads & m == m and not p.full_hexagons >> s & 1
                        and p.full_hexagon_uses < hex_max):
                    p.full_hexagons |= 1 << s
                    p.full_hexagon_uses += 1
                    p.full_hexagon_points += sh.hex_points
                    gain(p, sh.hex_gain)
                    gained = True
        if placed in g.milestone_at:
            for idx, rew in g.milestone_at[placed]:
                if not p.milestones_reached >> idx & 1:
                    p.milestones_reached |= 1 << idx
                    gain(p, rew["gain"])
                    for b in rew["unlock"]:
                        p.unlocked |= 1 << b
                    if rew["bonus_action"] == "build":
                        p.pending_builds.append(0)
                    elif rew["bonus_action"] == "wonder":
                        p.pending_wonders.append(0)
                    gained = True
        return gained

    def _mark(self, p: PlayerSheet, s: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        p.marked |= 1 << s
        gain(p, sh.space_res[s])
        for b in sh.space_bonus[s]:
            (p.pending_builds if b == "build" else p.pending_wonders).append(0)
        p.pending_innovation_bonus += sh.space_ib[s]
        for b in sh.space_unlock[s]:
            p.unlocked |= 1 << b
        if p.gain_on_mountain_mark is not None and sh.mountain_mask >> s & 1:
            gain(p, p.gain_on_mountain_mark)
        if p.gain_on_water_mark is not None and sh.water_adjacent >> s & 1:
            gain(p, p.gain_on_water_mark)

    def _build(self, p: PlayerSheet, n: int, s: int) -> None:
        """A Build action writes building ``n`` on space ``s`` (a pending Build of value ``n``,
        else a bonus one); a two-space building waits for its second mark."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        pbuild = p.pending_builds
        pbuild.remove(n if n in pbuild else 0)
        self._write_building(p, n, s)
        if g.sheet.buildings[n - 1].marks == 2:
            p.second_mark_of = s
        else:
            self._building_gains(p, n, s)

    def _build_second(self, p: PlayerSheet, n: int, s: int) -> None:
        """The second mark of two-space building ``n`` on space ``s``; its gains count from the
        first mark's space."""
        first = p.second_mark_of
        p.second_mark_of = NO_GUILD
        self._write_building(p, n, s)
        self._building_gains(p, n, first)

    def _write_building(self, p: PlayerSheet, n: int, s: int) -> None:
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        bit = 1 << s
        if p.built & bit:
            p.built_twice |= bit
        else:
            p.built |= bit
        p.placements.append(s * PLACEMENT_STRIDE + n)  # placement_code(s, n), inline
        p.building_marks[n] += 1
        if g.build_marks:
            p.marked |= bit

    def _building_gains(self, p: PlayerSheet, n: int, s: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        b = sh.buildings[n - 1]
        gain(p, b.gain)
        if b.extra_if == "adjacent_to_water" and sh.water_adjacent >> s & 1:
            gain(p, b.extra_gain)
        elif b.extra_if == "on_or_adjacent_to_mountain" and sh.mountain_near >> s & 1:
            gain(p, b.extra_gain)
        p.extra_roads += b.extra_roads
        grant_bonus(p, b.bonus_action, b.innovation_bonus)
        if p.gain_on_build is not None:
            gain(p, p.gain_on_build)

    def _fill_box(self, p: PlayerSheet, i: int) -> None:
        sh = self.game.sheet  # type: ignore[attr-defined]
        box = sh.boxes[i]
        use = 0
        for v in p.pending_wonders:
            if v and v in box.values and not (sh.ascending and any(p.box_values[r] > v
                                                                   for r in box.requires)):
                use = v
                break
        p.pending_wonders.remove(use)
        if use == 0:
            use = max([p.box_values[r] for r in box.requires] + [min(box.values)]) if sh.ascending \
                else 0
        p.box_values[i] = use if use else NO_VALUE
        p.filled |= 1 << i
        gain(p, box.gain)
        grant_bonus(p, box.bonus_action, box.innovation_bonus)
        if p.gain_on_box is not None:
            gain(p, p.gain_on_box)

    def _cross(self, p: PlayerSheet, k: int) -> bool:
        """Cross innovation circle ``k``; returns True when it discovers the innovation (its
        effects applied: abilities, open edges, unlocked boxes), for the fused playout."""
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        crossed = p.crossed = p.crossed | 1 << k
        i, m = g.circle_innovation[k]
        if crossed & m == m and not p.discovered >> i & 1:
            sh = g.sheet
            p.discovered |= 1 << i
            for e in sh.innovations[i].effects:
                apply_effect(sh, p, e)
            return True
        return False

    # ------------------------------------------------------------------ apply
    def _apply(self, action: int, player: int) -> None:
        g: RollBuilderTables = self.game  # type: ignore[assignment]
        if player == CHANCE:
            self.dice.append(action - A_ROLL + 1)
            if len(self.dice) == 2:
                self.turn_list.append(list(self.dice))
            return
        p = self.players[player]
        sh = g.sheet
        if action >= g.A_CROSS:
            k, var = divmod(action - g.A_CROSS, 3)
            if var == PAY_RESOURCE:
                p.pending_resources[sh.circles[k][1]] -= 1
            elif var == PAY_BONUS:
                p.pending_innovation_bonus -= 1
            else:
                p.wealth_spent += 1
            self._cross(p, k)
        elif action >= g.A_WONDER:
            self._fill_box(p, action - g.A_WONDER)
        elif action >= g.A_BUILD:
            n, s = divmod(action - g.A_BUILD, g.n_spaces)
            if p.second_mark_of >= 0:
                self._build_second(p, n + 1, s)
            else:
                self._build(p, n + 1, s)
        elif action >= g.A_MARK:
            self._mark(p, action - g.A_MARK)
        elif action >= g.A_ROAD:
            self._place_road(p, action - g.A_ROAD)
        elif action < A_BOTH + 3 and action >= A_DIE:
            if action >= A_BOTH:
                p.dice_used = 3
                kind = action - A_BOTH
                v = self.dice[0] + self.dice[1]
            else:
                i, kind = divmod(action - A_DIE, 4)
                p.dice_used |= 1 << i
                v = self.dice[i]
            if kind == USE_ROAD:
                p.roads_left += v + p.extra_roads + (p.first_road_extra if p.road_actions == 0 else 0)
                p.road_actions += 1
            elif kind == USE_BUILD:
                p.pending_builds.append(v)
            elif kind == USE_WONDER:
                p.pending_wonders.append(v)
        elif action == A_DONE:
            self._done(player)
        elif action in (A_TRACK, A_TRACK + 1):
            if action == A_TRACK:
                p.favor += 1
                p.pending_resources[FAVOR] -= 1
            else:
                p.strength += 1
                p.pending_resources[STRENGTH] -= 1
        elif action == A_STORE:
            p.pending_resources[WEALTH] -= 1
            p.wealth_marked += 1
            p.wealth_marked_this_turn += 1
        elif A_DISCARD <= action < A_DISCARD + 6:
            k = action - A_DISCARD
            if k == DISCARD_BONUS:
                p.pending_innovation_bonus -= 1
            else:
                p.pending_resources[k] -= 1
        elif action == A_SKIP_BUILD:
            p.pending_builds.pop(0)
        elif action == A_SKIP_WONDER:
            p.pending_wonders.pop(0)
        elif action in (A_CARAVAN, A_CARAVAN + 1):
            p.conversion_used = 1
            p.wealth_spent += p.wealth_conversion[0]
            p.pending_resources[FAVOR if action == A_CARAVAN else STRENGTH] += 1

    def _done(self, player: int) -> None:
        players = self.players
        p = players[player]
        turn = self.turn
        if turn in BONUS_TURNS and not p.turn_bonus_given:
            p.turn_bonus_given = True
            if turn == BONUS_TURNS[0]:
                p.pending_innovation_bonus += 1
            elif turn == BONUS_TURNS[1]:
                p.pending_builds.append(0)
            else:
                p.pending_wonders.append(0)
            return
        p.done = True
        p.pending_resources = [0, 0, 0, 0, 0]
        p.roads_left = 0
        for q in players:
            if not q.done:
                return  # the turn goes on for the others
        if turn == TURNS:
            self.over = True
            return
        self.turn = turn + 1
        self.dice = []
        for q in players:
            q.dice_used = 0
            q.done = False
            q.turn_bonus_given = False
            q.roads_left = q.road_actions = q.tolls_taken = q.extra_roads = q.conversion_used = 0
            q.wealth_marked_this_turn = 0
