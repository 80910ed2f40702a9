"""Roll into Town: the Game (simultaneous solo / 2-6 player roll-and-write), wiring the rules
(``rules/``), the presentation (``render.py``), the bots' strategy (``strategy.py``) and the
score calculator (``scorefile.py``), and declaring the rules options.

Rules: the Chinese rulebook (shared seed 001) is the authority; where it is silent the values of
rules_proposal.json revision 2 are used (data in ``data/rules.json``) and every disputed reading
is a named rules option (see ``option_specs`` and docs/rules-options.md). Phases, action ids and
notation: ``actions.py``; the state: ``rules/state.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

from ...core.game import Game, ScoreResult, State
from ...core.options import Option
from .actions import COAST_INDEX, ActionSpace
from .render import RollIntoTownView
from .rules import RollIntoTownState, allowed_coast_masks, geometry
from .scorefile import score_sheet_file
from .strategy import RollIntoTownStrategy
from . import texts as _texts

__all__ = ["RollIntoTownGame"]


def _odd_size(v: int) -> int:
    if v % 2 == 0:
        raise ValueError("must be odd so that the town hall sits on one centre cell")
    return v


class RollIntoTownGame(Game):
    """Roll into Town (registry id ``roll-into-town``); 1-6 players on the same dice.

    Raises OptionError for an unknown option or bad value.
    """

    view = RollIntoTownView()
    strategy = RollIntoTownStrategy()

    name = "roll-into-town"
    title = "Roll into Town"
    texts = _texts
    """Player-facing names and rule texts (``texts.py``; ``texts.rules_text(state, lang)``)."""
    min_players = 1
    max_players = 6
    default_players = 1
    rules_version = "2"  # 2: watermill_rule (not in front of the river) added
    simultaneous = True
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("rows", 9, "Map height in cells (odd; the town hall is the centre cell).",
               type=int, minimum=5, maximum=15, validate=_odd_size, kind="setup",
               source="rules_proposal parameters.rows (proposed: the rulebook gives no size); "
                      "roll_games_notes §5.3 / T7",
               label="Map rows",
               question="How many rows of cells does the map have?"),
        Option("cols", 9, "Map width in cells (odd).", type=int, minimum=5, maximum=15,
               validate=_odd_size, kind="setup",
               source="rules_proposal parameters.cols (proposed); roll_games_notes T7",
               label="Map columns",
               question="How many columns of cells does the map have?"),
        Option("ocean_sides_rule", "any_two",
               "Which water sides turn an empty cell into ocean. `any_two`: water on at least "
               "two of its four sides.",
               choices=("any_two", "perpendicular_pair"),
               source="rulebook: coast icon ('water on two orthogonal sides'); "
                      "rules_proposal options.ocean_sides_rule; roll_games_notes T1",
               alternatives={"perpendicular_pair": "the water sides must include one of N/S "
                                                   "and one of E/W (a corner)"},
               label="When a cell becomes ocean",
               question="Which water sides around an empty cell turn it into ocean?"),
        Option("coast_two_side_shape", "any",
               "Shapes allowed for a coast with water on two sides. `any`: two opposite sides "
               "or a corner.",
               choices=("any", "corner_only"),
               source="rulebook: coast icon ('1, 2 or 3 sides'); rules_proposal "
                      "options.coast_two_side_shape; roll_games_notes T3",
               alternatives={"corner_only": "two-sided coasts must be corners (N+E, E+S, S+W, "
                                            "W+N)"},
               label="Coast with two water sides",
               question="May a coast have water on two opposite sides, or only on a corner?"),
        Option("river_connect_rule", "ends_off_opposite_edges",
               "When the river 'connects opposite map edges' (2 points per square). "
               "`ends_off_opposite_edges`: its first piece points off one edge and its last "
               "piece off the opposite edge.",
               choices=("ends_off_opposite_edges", "touches_opposite_edges"),
               source="rulebook: river scoring; rules_proposal options.river_connect_rule; "
                      "roll_games_notes T4",
               alternatives={"touches_opposite_edges": "river cells lie in both opposite "
                                                       "border rows or both border columns"},
               label="River across the map",
               question="When does the river count as joining opposite edges of the map?"),
        Option("market_timing", "build_phase",
               "When the market's 2-for-1 trade may be used. `build_phase`: at any moment of "
               "your build phase.",
               choices=("build_phase", "only_while_paying"),
               source="rulebook: market ('only while building'); rules_proposal "
                      "options.market_timing; roll_games_notes T6",
               alternatives={"only_while_paying": "a trade must take a resource some building "
                                                  "you can place still lacks, and you must "
                                                  "build before ending the phase (unless no "
                                                  "building or trade is possible any more)"},
               label="When the market trades",
               question="When may you use the market's two-for-one trade?"),
        Option("ocean_check_timing", "after_each_coast",
               "When empty cells are checked for becoming ocean. `after_each_coast`: right "
               "after every coast icon is drawn, over the whole map, repeated until nothing "
               "changes.",
               choices=("after_each_coast", "invariant"),
               source="rulebook: coast icon; rules_proposal options.ocean_check_timing; "
                      "roll_games_notes T2",
               alternatives={"invariant": "also right after a lumberjack empties cells in the "
                                          "collect phase"},
               label="When ocean is checked",
               question="When are empty cells checked for becoming ocean?"),
        Option("watermill_rule", "not_in_front",
               "Where a watermill may be built. `not_in_front`: on an empty square sharing a "
               "side with a river square that is not one of its flow sides, but never the square "
               "the river's open end points at (where the river would continue).",
               choices=("not_in_front", "non_flow_side"),
               source="rulebook: watermill ('beside the river, not in front of it'); "
                      "rules_proposal buildings.watermill.placement",
               alternatives={"non_flow_side": "any empty square sharing a non-flow side with a "
                                              "river square, even the one the open end points at "
                                              "(rules version 1)"},
               label="Where a watermill goes",
               question="May a watermill stand where the river would continue?"),
    )

    def _post_init(self) -> None:
        o = self.options
        self.geo = geometry(o["rows"], o["cols"])
        # the action-id ranges and move-generator tables (actions.ActionSpace), also copied onto
        # the game as attributes (``game.A_DONE`` ...) for the hot paths
        self.space = space = ActionSpace(o["rows"], o["cols"])
        for name in ActionSpace.FIELDS:
            setattr(self, name, getattr(space, name))
        self.coast_sides = tuple(self.A_SIDES + COAST_INDEX[m]
                                 for m in allowed_coast_masks(o["coast_two_side_shape"]))

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
        from . import texts

        result = score_sheet_file(self, data)
        result.texts = texts
        return result
