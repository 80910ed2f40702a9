"""Roll Builder: the step-wise simultaneous state (protocol, scores, notation, JSON).

Rules source: the Portuguese rulebook (``Como Jogar Roll Builder``; final authority) and, where it
leaves the city sheets open, the research digest (roll_games_notes.md §4, rules_proposal.json).

Turn structure (rulebook "Fluxo do Jogo"): 15 turns; each turn two shared dice are rolled (two
public chance nodes, one die each), then every player — simultaneously — uses both dice on Road,
Build or Wonder actions, resolves what they gain in any order, and presses ``done``. When everybody
is done the next turn's dice are rolled. Turn bonuses (rulebook "Bônus de Turno"): the first
``done`` of turns 5, 10 and 15 grants an innovation bonus, a Build action and a Wonder action.

The state is assembled from its concerns: legal moves (rules/legal.py), applying moves
(rules/moves.py), effects (rules/effects.py), the player sheet (rules/player_sheet.py); the
action encoding and notation are in actions.py.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import IllegalActionError
from citybuilders.core.game import CHANCE, TERMINAL, PlayerScore, State

from ..actions import A_ROLL, action_text
from ..loader import RESOURCES
from ..scoring import score_sheet
from .legal import ROLLS, LegalMoves
from .moves import Moves
from .player_sheet import FIELDS, PlayerSheet
from .playout import Playout
from .tables import RollBuilderTables
from ....core.i18n import N_

__all__ = ["RollBuilderState", "RollBuilderRules", "solo_rank"]

_OUTCOMES = tuple((A_ROLL + i, 1 / 6) for i in range(6))


def _thresholds() -> tuple[tuple[int, float], ...]:
    acc, out = 0.0, []
    for a, pr in _OUTCOMES:  # the same float sums as State.sample_chance
        acc += pr
        out.append((a, acc))
    return tuple(out)


_THRESHOLDS = _thresholds()


class RollBuilderState(LegalMoves, Moves, Playout, State):
    """A Roll Builder position: turn number, the two dice of the turn, every player's sheet."""

    __slots__ = ("turn", "dice", "turn_list", "players", "over")

    def __init__(self, game: "RollBuilderTables", num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.turn = 1
        self.dice: list[int] = []
        self.turn_list: list[list[int]] = []
        self.over = False
        fresh = game.fresh_sheet  # type: ignore[attr-defined]
        if fresh is None:
            fresh = game.fresh_sheet = self._fresh_sheet()  # type: ignore[attr-defined]
        self.players = [fresh.copy() for _ in range(num_players)]


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
            return list(ROLLS)
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

    def returns(self) -> list[float]:
        """:meth:`State.returns`; solo: 1.0 once the game is over (the one player is the
        winner), without scoring the sheet."""
        if self.num_players == 1:
            return [1.0] if self.over else [0.0]
        return State.returns(self)

    def is_terminal(self) -> bool:
        """True once turn 15 is over."""
        return self.over

    def is_chance_node(self) -> bool:
        """True while the turn's two dice are not both rolled."""
        return not self.over and len(self.dice) < 2

    # ------------------------------------------------------------------ misc protocol
    def successor(self, action: int, player: int) -> "RollBuilderState":
        """A copy with ``action`` (legal for ``player``) applied without validation, for one-ply
        searches (bots/greedy.one_ply_values): the copy shares this state's history list, so it
        skips the history copy, and must not be played on."""
        s = self._clone()
        s._history = self._history
        s._apply(action, player)
        return s

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
        return score_sheet(sh, p.connected, p.building_marks, p.discovered, p.stored, p.favor,
                           p.strength, p.filled, p.full_hexagon_uses)

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
        """Notation of ``action`` (actions.py). Raises IllegalActionError when out of range."""
        return action_text(self.game, action)

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation (any spelling of an edge: ``road 4,5,NE`` = ``road 3,5,SW``)."""
        words = text.strip().split()
        if len(words) == 2 and words[0].lower() == "road" and "," in words[1]:
            sh = self.game.sheet  # type: ignore[attr-defined]
            try:
                text = f"road {sh.edge_name[sh.edge_of(words[1])]}"
            except ValueError as exc:
                raise IllegalActionError(N_("'{strip}': {exc}", strip=text.strip(), exc=exc)) from None
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
            return (f"'{text}' is not legal now: first resolve what you gained "
                    f"({self.pending_text(player)})")
        return f"'{text}' is not a legal action now"

    def pending_text(self, player: int) -> str:
        """Short description of ``player``'s pending gains (e.g. ``2 food, bonus Build``)."""
        p = self.players[player]
        parts = [f"{n} {RESOURCES[k]}" for k, n in enumerate(p.pending_resources) if n]
        if p.pending_innovation_bonus:
            parts.append(f"{p.pending_innovation_bonus} innovation bonus")
        for v in p.pending_builds:
            parts.append(f"Build {v}" if v else "bonus Build")
        for v in p.pending_wonders:
            parts.append(f"Wonder {v}" if v else "bonus Wonder")
        if p.second_mark_of >= 0:
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
            for a, k, kind, _ in FIELDS:
                v = getattr(p, a)
                if kind == "list":
                    d[k] = list(v)
                elif kind == "gain":
                    d[k] = None if v is None else list(v)
                elif kind == "conversion":
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
            for a, k, kind, _ in FIELDS:
                v = d[k]
                if kind == "list":
                    v = [int(x) for x in v]
                elif kind == "gain":
                    v = None if v is None else tuple(int(x) for x in v)
                elif kind == "conversion":
                    v = None if v is None else (int(v[0]), tuple(v[1]))
                elif kind == "bool":
                    v = bool(v)
                elif isinstance(v, str):
                    v = int(v, 16)
                else:
                    v = int(v)
                setattr(p, a, v)
            self.players.append(p)

    # ------------------------------------------------------------------ hooks
    def undo_per_player(self) -> bool:
        """Simultaneous turns: undo takes back this player's own actions of the current turn."""
        return True


class RollBuilderRules(RollBuilderTables):
    """The rules-level game: options, sheet, tables (rules/tables.py) and the state factory."""

    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> RollBuilderState:
        """A new game: every player on a fresh copy of the sheet, waiting for turn 1's dice."""
        return RollBuilderState(self, self.check_num_players(num_players), seed)


def solo_rank(total: int) -> str:
    """Suggested solo rank (digest §4.1 rule 12, proposed): Hamlet <45, Village 45-54,
    Town 55-64, City 65-74, Capital 75+."""
    for limit, name in ((45, "Hamlet"), (55, "Village"), (65, "Town"), (75, "City")):
        if total < limit:
            return name
    return "Capital"
