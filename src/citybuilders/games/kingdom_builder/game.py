"""Kingdom Builder (Queen Games 2011): the game object, its options and the score calculator.

Sources: the rulebook (seeds/003, Portuguese) is the final authority; the rules digest
(reference/kingdom_builder/rules.md) fills in details, and each of its disputed points (§10) is a
named rules option whose default is the digest's recommendation.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import OptionError
from citybuilders.core.game import Game
from citybuilders.core.rng import make_rng

from . import texts as kb_texts
from .actions import NUM_ACTIONS
from .loader import SectionCatalog, base_section_ids, crossroads_section_ids, custom_sections
from .render import KingdomBuilderView
from .rules.board import Board, make_board
from .rules.crossroads import SECTIONS as CROSSROADS_SECTIONS
from .rules.crossroads import TASKS
from .rules.crossroads_state import CrossroadsState
from .rules.options import OPTIONS, PRESETS, parse_section_spec
from .rules.state import KingdomBuilderState
from .scorefile import KingdomBuilderScore, score_file
from .scoring import CARDS
from .strategy import KingdomBuilderStrategy
from ...core.i18n import N_

__all__ = ["KingdomBuilderGame", "OPTIONS", "PRESETS", "parse_section_spec"]

class KingdomBuilderGame(Game):
    """Kingdom Builder for 2-4 players (registry id ``kingdom-builder``).

    Setup randomness (sections, rotations, Kingdom Builder cards, start player) comes from
    ``make_rng(seed, "setup")`` unless the options fix it; the terrain deck is dealt by chance
    nodes (one private card per player).

    Raises:
        OptionError: bad option values (e.g. a Crossroads section without the expansion).
    """

    view = KingdomBuilderView()
    strategy = KingdomBuilderStrategy()
    texts = kb_texts
    """Player-facing names and rule texts (``texts.py``), reached by the rules at run time."""

    name = "kingdom-builder"
    title = "Kingdom Builder"
    min_players = 2
    max_players = 4
    default_players = 2
    rules_version = "1"
    option_specs = OPTIONS

    def __init__(self, **options: Any) -> None:
        if options.get("sections_file") is not None:
            raise OptionError(
                N_("option 'sections_file' of kingdom-builder: the game does not read files; "
                   "pass the parsed sections document as 'sections_doc' (the command line's -o "
                   "sections_file=PATH reads the file and does this)"))
        options.pop("sections_file", None)
        super().__init__(**options)

    def _post_init(self) -> None:
        opts = self.options
        preset = PRESETS.get(opts["preset"] or "", {})
        self._sections = opts["sections"] if opts["sections"] is not None else (
            [f"{s}:0" for s in preset["sections"]] if preset else None
        )
        self._cards = opts["cards"] if opts["cards"] is not None else preset.get("cards")
        # option sections_doc: the user's own sections join the pool (loader.custom_sections)
        self.section_catalog: SectionCatalog | None = (
            None if opts.get("sections_doc") is None else custom_sections(opts["sections_doc"]))
        pool = list(base_section_ids())
        if "crossroads" in opts["expansions"]:
            pool += crossroads_section_ids()
        if self.section_catalog is not None:
            pool += self.section_catalog.custom
        self._pool = pool
        if self._sections is not None:
            for spec in self._sections:
                try:
                    sid = parse_section_spec(spec, self.section_catalog)[0]
                except ValueError as exc:
                    raise OptionError(N_("option 'sections' of {name}: {exc}",
                                         name=self.name, exc=exc)) from None
                if sid not in pool:
                    raise OptionError(
                        N_("option 'sections': section {sid!r} needs expansions=['crossroads']",
                           sid=sid)
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
                sid, rot = parse_section_spec(spec, self.section_catalog)
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
                    N_("option 'start_player': {sp} is not a player of a {num_players}-player "
                       "game; allowed: 0 to {num_players2}",
                       sp=sp, num_players=num_players, num_players2=num_players - 1)
                )
            start = sp
        return make_board(sections, self.section_catalog), cards, start

    def new_initial_state(
        self, num_players: int | None = None, seed: int = 0
    ) -> KingdomBuilderState:
        """A new game: public setup from the seed, then one private deal chance node per
        player (player 0 first), then the start player's first turn."""
        n = self.check_num_players(num_players)
        board, cards, start = self.setup(n, seed)
        if "crossroads" in self.options["expansions"]:
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
                    N_("option 'tasks': the board has {k} Crossroads section(s), so give {k} "
                       "task card(s), got {count}", k=k, count=len(fixed))
                )
            return tuple(fixed)
        return tuple(make_rng(seed, "tasks").sample(TASKS, k))

    def score_file(self, data: Mapping[str, Any]) -> KingdomBuilderScore:
        """Score a position in the score-file format (docs/formats.md): base keys, plus the
        Crossroads keys when present; the player count must be within
        ``min_players..max_players``. Raises FormatError naming the field."""
        result = score_file(data, self.options, (self.min_players, self.max_players))
        result.texts = kb_texts
        return result

    def describe_setup(self, state: Any) -> str:
        """``tavern:0 paddock:180 ... | fishermen knights merchants | start P2`` (the start
        player 1-based, as every human-facing label)."""
        secs = " ".join(f"{s}:{r}" for s, r in state.board.sections)
        tasks = getattr(state, "tasks", ())
        extra = f" | tasks {' '.join(tasks)}" if tasks else ""
        return f"{secs} | {' '.join(state.cards)} | start P{state.start + 1}{extra}"
