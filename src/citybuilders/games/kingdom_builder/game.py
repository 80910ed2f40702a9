"""Kingdom Builder (Queen Games 2011): the game object, its options and the score calculator.

Sources: the rulebook (seeds/003, Portuguese) is the final authority; the rules digest
(reference/kingdom_builder/rules.md) fills in details, and each of its disputed points (§10) is a
named rules option whose default is the digest's recommendation.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import OptionError
from citybuilders.core.game import Game
from citybuilders.core.options import Option
from citybuilders.core.rng import make_rng

from .actions import NUM_ACTIONS
from .board import Board, base_section_ids, make_board, section_data
from .crossroads import CROSSROADS_OPTIONS, CROSSROADS_SETUP_OPTIONS, TASKS
from .crossroads import SECTIONS as CROSSROADS_SECTIONS
from .scorefile import KingdomBuilderScore, score_file
from .scoring import CARDS
from .state import KingdomBuilderState
from .render import KingdomBuilderView

__all__ = ["KingdomBuilderGame", "PRESETS", "parse_section_spec"]

PRESETS: dict[str, dict[str, list[str]]] = {
    "first-game": {
        "sections": ["tavern", "paddock", "oasis", "farm"],
        "cards": ["fishermen", "knights", "merchants"],
    },
}
"""Named setups. ``first-game``: the rulebook's suggestion for a first game (Setup 1 and 4)."""


def parse_section_spec(spec: Any) -> tuple[str, int | None]:
    """``"tavern"`` -> ("tavern", None); ``"tavern:180"`` -> ("tavern", 180).

    Raises ValueError naming the bad element and listing the section ids."""
    if not isinstance(spec, str):
        raise ValueError(f"section {spec!r} must be a string like 'tavern' or 'tavern:180'")
    sid, _, rot = spec.strip().lower().partition(":")
    if sid not in section_data():
        raise ValueError(
            f"unknown section {sid!r}; allowed: {', '.join(section_data())} "
            f"(optionally ':0' or ':180')"
        )
    if not rot:
        return sid, None
    if rot not in ("0", "180"):
        raise ValueError(f"rotation of section {sid!r} must be 0 or 180, got {rot!r}")
    return sid, int(rot)


def _check_sections(value: list[Any]) -> list[str]:
    if len(value) != 4:
        raise ValueError(
            f"need exactly 4 sections (top-left, top-right, bottom-left, bottom-right), "
            f"got {len(value)}"
        )
    ids = [parse_section_spec(v)[0] for v in value]
    if len(set(ids)) != 4:
        raise ValueError(f"the 4 sections must differ, got {', '.join(ids)}")
    return [str(v).strip().lower() for v in value]


def _check_cards(value: list[Any]) -> list[str]:
    if len(value) != 3 or len(set(value)) != 3:
        raise ValueError(f"need exactly 3 different Kingdom Builder cards, got {value!r}")
    return list(value)


OPTIONS: tuple[Option, ...] = (
    Option(
        "sections", None,
        "The 4 board sections in the order top-left, top-right, bottom-left, bottom-right; "
        "each 'id' (rotation drawn from the seed) or 'id:0' / 'id:180'. None = 4 random "
        "sections and rotations from the seed.",
        type=list, validate=_check_sections, kind="setup",
        source="rulebook Preparação 1; digest §1-2",
    ),
    Option(
        "cards", None,
        "The 3 Kingdom Builder cards (ids: " + ", ".join(CARDS) + "). None = 3 random cards "
        "from the seed.",
        type=list, choices=CARDS, validate=_check_cards, kind="setup",
        source="rulebook Preparação 4; digest §7",
    ),
    Option(
        "preset", None,
        "A named setup: 'first-game' = sections Tavern, Paddock, Oasis, Farm (0°) and the cards "
        "Fishermen, Knights, Merchants. Explicit 'sections'/'cards' override it.",
        type=str, choices=tuple(PRESETS), kind="setup",
        source="rulebook Preparação 1 and 4 (first game)",
    ),
    Option(
        "start_player", None,
        "Index of the start player. None = drawn from the seed (the rulebook's 'oldest "
        "player').",
        type=int, minimum=0, maximum=3, kind="setup",
        source="rulebook Preparação 7; digest §1, §10.9",
    ),
    Option(
        "expansions", [],
        "Expansions in play. 'crossroads' adds its 4 sections to the random pool (its rules "
        "are implemented in the crossroads modules).",
        type=list, choices=("crossroads",), kind="setup",
        source="digest §9",
    ),
    Option(
        "rare_exception", "redraw",
        "When no empty hex of the played card's terrain is left (at the start of or during the "
        "turn), the card leaves the game and a new card is drawn and played, repeatedly.",
        type=str, choices=("redraw", "no_redraw"),
        source="rulebook 'Exceção Rara'; digest §4.4, §10.1",
        alternatives={
            "no_redraw": "no new card: the mandatory action builds as many as possible (none) "
                         "and Oracle/Barn cannot be used (BGA behaviour).",
        },
    ),
    Option(
        "tile_loss_timing", "immediate",
        "When a move leaves none of your settlements next to a location you took a tile from, "
        "the tile is lost at once (it goes out of the game and cannot be taken again).",
        type=str, choices=("immediate", "end_of_turn"),
        source="rulebook 'Manutenção das Peças de Local'; digest §5, §10.2",
        alternatives={
            "end_of_turn": "the loss is checked only when the turn ends, so moving back next to "
                           "the location within the same turn keeps the tile (BGA help text).",
        },
    ),
    Option(
        "lords_zero_scores", "ranked",
        "Lords: in every sector where at least one player has a settlement, players are ranked "
        "by count alone (12 for the most, 6 for the next count), a count of 0 included.",
        type=str, choices=("ranked", "never", "always"),
        source="digest §7 Lords, §10.3 (BGG FAQ lists 'needs a settlement' as an app bug)",
        alternatives={
            "never": "a player with no settlement in a sector never scores there "
                     "(Counterfeiter implementation).",
            "always": "also sectors nobody entered score: everybody tied at 0 gets 12 (BGA).",
        },
    ),
    Option(
        "null_move", "forbidden",
        "Barn/Harbor may not put the lifted settlement back on the hex it came from.",
        type=str, choices=("forbidden", "allowed"),
        source="digest §6, §10.4",
        alternatives={
            "allowed": "the origin hex is an eligible target after lifting (a move that changes "
                       "nothing but spends the tile).",
        },
    ),
)

OPTIONS = OPTIONS + CROSSROADS_SETUP_OPTIONS + CROSSROADS_OPTIONS
"""Base options, then the Crossroads setup and rules options (crossroads.py)."""


class KingdomBuilderGame(Game):
    """Kingdom Builder for 2-4 players (registry id ``kingdom-builder``).

    Setup randomness (sections, rotations, Kingdom Builder cards, start player) comes from
    ``make_rng(seed, "setup")`` unless the options fix it; the terrain deck is dealt by chance
    nodes (one private card per player).

    Raises:
        OptionError: bad option values (e.g. a Crossroads section without the expansion).
    """

    view = KingdomBuilderView()

    name = "kingdom-builder"
    title = "Kingdom Builder"
    min_players = 2
    max_players = 4
    default_players = 2
    rules_version = "1"
    option_specs = OPTIONS

    def _post_init(self) -> None:
        opts = self.options
        preset = PRESETS.get(opts["preset"] or "", {})
        self._sections = opts["sections"] if opts["sections"] is not None else (
            [f"{s}:0" for s in preset["sections"]] if preset else None
        )
        self._cards = opts["cards"] if opts["cards"] is not None else preset.get("cards")
        pool = list(base_section_ids())
        if "crossroads" in opts["expansions"]:
            pool += [s.id for s in section_data().values() if s.expansion == "crossroads"]
        self._pool = pool
        if self._sections is not None:
            for spec in self._sections:
                sid = parse_section_spec(spec)[0]
                if sid not in pool:
                    raise OptionError(
                        f"option 'sections': section {sid!r} needs expansions=['crossroads']"
                    )

    def num_distinct_actions(self) -> int:
        """Fixed size of the action space (see actions.py)."""
        return NUM_ACTIONS

    def setup(self, num_players: int, seed: int) -> tuple[Board, tuple[str, ...], int]:
        """Public setup of a game: ``(board, cards, start_player)`` from options and seed."""
        rng = make_rng(seed, "setup")
        drawn = rng.sample(self._pool, 4)
        rots = [rng.choice((0, 180)) for _ in range(4)]
        cards = tuple(rng.sample(CARDS, 3))
        start = rng.randrange(num_players)
        if self._sections is not None:
            chosen = []
            for q, spec in enumerate(self._sections):
                sid, rot = parse_section_spec(spec)
                chosen.append((sid, rots[q] if rot is None else rot))
            sections = tuple(chosen)
        else:
            sections = tuple(zip(drawn, rots))
        if self._cards is not None:
            cards = tuple(self._cards)
        sp = self.options["start_player"]
        if sp is not None:
            if sp >= num_players:
                raise OptionError(
                    f"option 'start_player': {sp} is not a player of a {num_players}-player "
                    f"game; allowed: 0 to {num_players - 1}"
                )
            start = sp
        return make_board(sections), cards, start

    def new_initial_state(
        self, num_players: int | None = None, seed: int = 0
    ) -> KingdomBuilderState:
        """A new game: public setup from the seed, then one private deal chance node per
        player (player 0 first), then the start player's first turn."""
        n = self.check_num_players(num_players)
        board, cards, start = self.setup(n, seed)
        if "crossroads" in self.options["expansions"]:
            from .crossroads_state import CrossroadsState

            tasks = self.setup_tasks(board, seed)
            return CrossroadsState(self, n, seed, board, cards, start, tasks)
        return KingdomBuilderState(self, n, seed, board, cards, start)

    def setup_tasks(self, board: Board, seed: int) -> tuple[str, ...]:
        """Crossroads task cards: one per Crossroads section on ``board`` (rulebook
        Preparação), from option ``tasks`` or drawn from ``make_rng(seed, "tasks")``.
        Raises OptionError when option ``tasks`` does not match the number of sections."""
        k = sum(1 for sid, _ in board.sections if sid in CROSSROADS_SECTIONS)
        fixed = self.options["tasks"]
        if fixed is not None:
            if len(fixed) != k:
                raise OptionError(
                    f"option 'tasks': the board has {k} Crossroads section(s), so give {k} "
                    f"task card(s), got {len(fixed)}"
                )
            return tuple(fixed)
        return tuple(make_rng(seed, "tasks").sample(TASKS, k))

    def score_file(self, data: Mapping[str, Any]) -> KingdomBuilderScore:
        """Score a position in the score-file format (docs/formats.md). Raises FormatError."""
        from .crossroads_score import has_crossroads_keys, score_file_crossroads

        if has_crossroads_keys(data):
            return score_file_crossroads(data, self.options)
        return score_file(data, self.options)

    def describe_setup(self, state: Any) -> str:
        """``tavern:0 paddock:180 ... | fishermen knights merchants | start P2`` (the start
        player 1-based, as every human-facing label)."""
        secs = " ".join(f"{s}:{r}" for s, r in state.board.sections)
        tasks = getattr(state, "tasks", ())
        extra = f" | tasks {' '.join(tasks)}" if tasks else ""
        return f"{secs} | {' '.join(state.cards)} | start P{state.start + 1}{extra}"
