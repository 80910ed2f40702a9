"""Score calculator: ``citybuilders score kingdom-builder FILE [--json]`` (docs/formats.md).

Input::

    {"game": "kingdom-builder",
     "sections": [["tavern", 0], ["paddock", 0], ["oasis", 0], ["farm", 180]],
     "cards": ["fishermen", "knights", "lords"],
     "settlements": [[[r, c], ...], [[r, c], ...]],
     "options": {}}

``options`` may carry ``sections_doc``, a custom sections document (docs/formats.md): its
sections may then be named in ``sections`` (``citybuilders score kingdom-builder FILE -o
sections_file=mine.json`` reads the document from a file instead; the file's own wins).
Plus, with Crossroads, the optional keys ``wagons``, ``ships``, ``warriors``, ``city_hall``
(one list of ``[r, c]`` per player each) and ``tasks``. Output (``--json``):
``{"players": [{"total": int, "cards": {card: int}, "castles": int[, "tasks": {task: int}]}]}``.

Strict: an unknown key is an error naming it and the allowed keys; the player count must be
the game's (2-4); every placement rule the engine keeps in play and a final position could break
is checked with the engine's own functions (``rules/placement.py``, ``rules/crossroads.py``):
the terrain each piece may stand on, one piece per hex, the supply (40 settlements, 1 wagon,
1 ship, 2 warriors, 1 city hall of 7 hexes), a Crossroads piece only with its location tile's
section on the board, no warrior next to another, at most one task per Crossroads section.
Every error is one FormatError line starting with the field (``settlements[1][3]: ...``).
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import CitybuildersError, FormatError
from citybuilders.core.game import PlayerScore, ScoreResult
from citybuilders.core.options import resolve_options

from .loader import SectionCatalog, custom_sections, section_data
from .rules import crossroads as X
from .rules.board import CASTLE, LOCATION, SIZE, TERRAINS, Board, hex_name, make_board
from .rules.crossroads import warrior_blocked
from .rules.crossroads_state import task_areas
from .rules.options import OPTIONS
from .rules.placement import (
    PIECE_LIMIT,
    PIECE_TILES,
    city_hall_centre,
    piece_terrain,
    terrain_words,
)
from .scoring import CARDS, score_all
from ...core.i18n import N_, ljust, text_width
from ...core.i18n import gettext_now as _

__all__ = [
    "KingdomBuilderScore",
    "CrossroadsScore",
    "BASE_KEYS",
    "CROSSROADS_KEYS",
    "PIECE_KEYS",
    "score_file",
    "score_file_crossroads",
    "has_crossroads_keys",
    "parse_score_input",
    "section_catalog",
    "cell_index",
]


class KingdomBuilderScore(ScoreResult):
    """Scores of a score file: ``cards`` (the 3 card ids) and one PlayerScore per player."""

    def __init__(self, cards: list[str], players: list[PlayerScore]) -> None:
        self.cards = cards
        self.players = players

    def to_json(self) -> dict[str, Any]:
        """``{"players": [{"total", "cards": {card: gold}, "castles"}]}``."""
        return {
            "players": [
                {
                    "total": ps.total,
                    "cards": {c: ps.parts[c] for c in self.cards},
                    "castles": ps.parts["castles"],
                }
                for ps in self.players
            ]
        }

    def _rows(self) -> list[tuple[str, list[int]]]:
        """``[(label, gold per player), ...]`` above the total: the cards, then castles."""
        rows = [(c, [ps.parts[c] for ps in self.players]) for c in self.cards]
        rows.append(("castles", [ps.parts["castles"] for ps in self.players]))
        return rows

    def to_text(self) -> str:
        """A readable table: one row per :meth:`_rows` entry and the total, one column per
        player."""
        heads = [f"P{p + 1}" for p in range(len(self.players))]
        rows = [(self._label(name), vals) for name, vals in self._rows()]
        total = _("total")
        rows.append((total, [ps.total for ps in self.players]))
        w = max(text_width(r[0]) for r in rows)
        lines = [" " * w + "  " + "  ".join(f"{h:>9}" for h in heads)]
        for i, (name, vals) in enumerate(rows):
            if i == len(rows) - 1:
                lines.append("-" * len(lines[0]))
            lines.append(ljust(name, w) + "  " + "  ".join(f"{v:>9}" for v in vals))
        return "\n".join(lines)

    def _label(self, name: str) -> str:
        """A row label of :meth:`_rows` in the current language (card and task names from the
        game's texts)."""
        t = self.tables()
        if name in self.cards:
            return str(getattr(t, "CARD_NAMES", {}).get(name, name)) if t else name
        if name == "castles":
            return _("castles")
        if name.startswith("task "):
            task = name[5:]
            shown = str(getattr(t, "TASK_NAMES", {}).get(task, task)) if t else task
            return _("task {name}", name=shown)
        return name


BASE_KEYS: tuple[str, ...] = ("game", "sections", "cards", "settlements", "options")
"""The keys of a Kingdom Builder score file."""
CROSSROADS_KEYS: tuple[str, ...] = ("wagons", "ships", "warriors", "city_hall", "tasks")
"""The optional Crossroads keys."""
PIECE_KEYS: dict[str, str] = {
    "wagons": "wagon", "ships": "ship", "warriors": "warrior", "city_hall": "city_hall",
}
"""Crossroads piece key -> piece id (``rules/placement.py``)."""
_ALLOWED = BASE_KEYS + CROSSROADS_KEYS
_HEX_LIMIT = {"wagon": 1, "ship": 1, "warrior": PIECE_LIMIT["warrior"], "city_hall": 7}


def _req(data: Mapping[str, Any], key: str, typ: type) -> Any:
    if key not in data:
        raise FormatError(N_("{key}: missing key '{key}'", key=key))
    v = data[key]
    if not isinstance(v, typ) or isinstance(v, bool):
        raise FormatError(N_("'{key}' must be a {name__}", key=key, name__=typ.__name__))
    return v


def cell_index(rc: Any, where: str) -> int:
    """Hex index of a score-file cell ``[row, col]`` (two integers, 0..19 each). Raises
    FormatError naming ``where`` (e.g. ``settlements[0][3]``) otherwise."""
    if not (isinstance(rc, list) and len(rc) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in rc)):
        raise FormatError(N_("{where}: expected [row, col] integers, got {short}",
                             where=where, short=_short(rc)))
    r, c = rc
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise FormatError(N_("{where}: hex {r},{c} is off the board (rows/cols 0..19)",
                             where=where, r=r, c=c))
    return r * SIZE + c


def _short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters (one line: repr escapes newlines)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _merged_options(data: Mapping[str, Any], game_options: Mapping[str, Any] | None
                    ) -> dict[str, Any]:
    """The rules options in effect: the file's ``options`` (validated) over ``game_options``."""
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise FormatError(N_("'options' must be an object"))
    try:
        opts = resolve_options(OPTIONS, dict(options), "kingdom-builder")
    except CitybuildersError as exc:
        raise FormatError(N_("options: {exc}", exc=exc)) from None
    merged = dict(game_options or {})
    merged.update({k: opts[k] for k in options})
    for k, v in opts.items():
        merged.setdefault(k, v)
    return merged


def section_catalog(data: Any, game_options: Mapping[str, Any] | None = None
                    ) -> SectionCatalog | None:
    """The custom sections a score file may use: its ``options.sections_doc``, else the
    game's option ``sections_doc`` (``-o sections_file=PATH``), else None (shipped only).

    Raises FormatError ``options.sections_doc: sections[k] (id): <problem>`` (one line, naming
    the hex for a terrain, castle or location problem)."""
    options = data.get("options") if isinstance(data, Mapping) else None
    doc = options.get("sections_doc") if isinstance(options, Mapping) else None
    if doc is not None:
        return custom_sections(doc, "options.sections_doc")
    doc = (game_options or {}).get("sections_doc")
    return None if doc is None else custom_sections(doc, "sections_doc")


def parse_score_input(
    data: Any, players_range: tuple[int, int] = (2, 4),
    game_options: Mapping[str, Any] | None = None,
) -> tuple[Board, list[str], list[int], dict[str, Any]]:
    """Validate the base keys of a score file; returns ``(board, cards, own_bitsets,
    rule_options)`` (``rule_options``: the file's options resolved with their defaults).
    ``sections`` may name custom sections (:func:`section_catalog`: the file's
    ``options.sections_doc`` or ``game_options["sections_doc"]``).

    Raises FormatError naming the field: an unknown key, unknown section or card, bad rotation,
    a hex off the board, two pieces on one hex, a settlement on a castle/location hex or on a
    mountain (water is allowed: Harbor), more than 40 settlements, a player count outside
    ``players_range`` (the game's min/max players), wrong types, missing keys.
    """
    if not isinstance(data, Mapping):
        raise FormatError(N_("score file: expected a JSON object"))
    for key in data:
        if key not in _ALLOWED:
            raise FormatError(N_("score file: unknown key {short}; allowed: {allowed}",
                                 short=_short(key), allowed=', '.join(_ALLOWED)))
    game = data.get("game", "kingdom-builder")
    if game != "kingdom-builder":
        raise FormatError(N_("'game' must be 'kingdom-builder', got {short}", short=_short(game)))
    catalog = section_catalog(data, game_options)
    known: Mapping[str, Any] = section_data() if catalog is None else catalog
    secs = _req(data, "sections", list)
    if len(secs) != 4:
        raise FormatError(N_("'sections' must list 4 sections (TL, TR, BL, BR), got {count}",
                             count=len(secs)))
    sections = []
    for k, s in enumerate(secs):
        if not (isinstance(s, list) and len(s) == 2):
            raise FormatError(N_("sections[{k}]: expected [section_id, rotation], got {short}",
                                 k=k, short=_short(s)))
        sid, rot = s
        if not isinstance(sid, str) or sid not in known:
            raise FormatError(
                N_("sections[{k}]: unknown section {short}; allowed: {allowed}",
                   k=k, short=_short(sid), allowed=', '.join(known))
            )
        if isinstance(rot, bool) or not isinstance(rot, int) or rot not in (0, 180):
            raise FormatError(N_("sections[{k}]: rotation must be 0 or 180, got {short}",
                                 k=k, short=_short(rot)))
        sections.append((sid, int(rot)))
    if len({s for s, _ in sections}) != 4:
        raise FormatError(N_("'sections': the 4 sections must differ"))
    cards = _req(data, "cards", list)
    if len(cards) != 3:
        raise FormatError(N_("'cards' must list 3 Kingdom Builder cards, got {count}",
                             count=len(cards)))
    for k, c in enumerate(cards):
        if not isinstance(c, str) or c not in CARDS:
            raise FormatError(N_("cards[{k}]: unknown card {short}; allowed: {allowed}",
                                 k=k, short=_short(c), allowed=', '.join(CARDS)))
    if len(set(cards)) != 3:
        raise FormatError(N_("'cards': the 3 cards must differ"))
    players = _req(data, "settlements", list)
    board = make_board(tuple(sections), catalog)
    land = piece_terrain(board, "settlement")
    own = []
    seen: dict[int, int] = {}
    for p, lst in enumerate(players):
        if not isinstance(lst, list):
            raise FormatError(N_("settlements[{p}]: expected a list of [row, col]", p=p))
        if len(lst) > PIECE_LIMIT["settlement"]:
            raise FormatError(N_("settlements[{p}]: {count} settlements, at most {settlement}",
                                 p=p, count=len(lst), settlement=PIECE_LIMIT['settlement']))
        mask = 0
        for k, rc in enumerate(lst):
            where = f"settlements[{p}][{k}]"
            i = cell_index(rc, where)
            r, c = rc
            if i in seen:
                raise FormatError(
                    N_("{where}: hex {r},{c} already holds a settlement of P{seen} "
                       "(settlements[{seen2}])",
                       where=where, r=r, c=c, seen=seen[i] + 1, seen2=seen[i])
                )
            t = board.terrain[i]
            if t in (CASTLE, LOCATION):
                raise FormatError(N_("{where}: hex {r},{c} is a {TERRAINS} hex",
                                     where=where, r=r, c=c, TERRAINS=TERRAINS[t]))
            if not land >> i & 1:
                raise FormatError(N_("{where}: hex {r},{c} is {TERRAINS}; it must be "
                                     "{terrain_words}",
                                     where=where, r=r, c=c, TERRAINS=TERRAINS[t], terrain_words=terrain_words('settlement')))
            seen[i] = p
            mask |= 1 << i
        own.append(mask)
    lo, hi = players_range
    if not lo <= len(players) <= hi:
        raise FormatError(N_("'settlements' must hold one list per player ({lo}-{hi} players), "
                             "got {count}", lo=lo, hi=hi, count=len(players)))
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise FormatError(N_("'options' must be an object"))
    try:
        opts = resolve_options(OPTIONS, dict(options), "kingdom-builder")
    except CitybuildersError as exc:
        raise FormatError(N_("options: {exc}", exc=exc)) from None
    return board, list(cards), own, opts


def score_file(
    data: Any, game_options: Mapping[str, Any] | None = None,
    players_range: tuple[int, int] = (2, 4),
) -> KingdomBuilderScore:
    """Score a score file (see module docstring; with a Crossroads key,
    :func:`score_file_crossroads`). File options override ``game_options``;
    ``players_range``: the game's (min_players, max_players). Raises FormatError."""
    if has_crossroads_keys(data):
        return score_file_crossroads(data, game_options, players_range)
    board, cards, own, _ = parse_score_input(data, players_range, game_options)
    merged = _merged_options(data, game_options)
    return KingdomBuilderScore(cards, score_all(board, cards, own, merged))


# --------------------------------------------------------------------------- Crossroads
def has_crossroads_keys(data: Any) -> bool:
    """True if a score file uses any Crossroads key."""
    return isinstance(data, Mapping) and any(k in data for k in CROSSROADS_KEYS)


class CrossroadsScore(KingdomBuilderScore):
    """Scores with a ``tasks`` breakdown per player."""

    def __init__(self, cards: list[str], tasks: list[str], players: list[PlayerScore]) -> None:
        super().__init__(cards, players)
        self.tasks = tasks

    def to_json(self) -> dict[str, Any]:
        """``{"players": [{"total", "cards", "castles", "tasks": {task: gold}}]}``."""
        out = super().to_json()
        for entry, ps in zip(out["players"], self.players):
            entry["tasks"] = {t: ps.parts[t] for t in self.tasks}
        return out

    def _rows(self) -> list[tuple[str, list[int]]]:
        """The base rows, then one row per task (the text table puts them before the total)."""
        rows = super()._rows()
        rows += [(f"task {t}", [ps.parts[t] for ps in self.players]) for t in self.tasks]
        return rows


def _piece_lists(data: Mapping[str, Any], key: str, nplayers: int) -> list[list[int]]:
    """The hexes per player of piece key ``key`` (missing trailing players = none)."""
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise FormatError(N_("'{key}' must be a list with one list of [row, col] per player",
                             key=key))
    if len(raw) > nplayers:
        raise FormatError(N_("'{key}' has {count} lists but 'settlements' has {nplayers} "
                             "players", key=key, count=len(raw), nplayers=nplayers))
    limit = _HEX_LIMIT[PIECE_KEYS[key]]
    out = []
    for p in range(nplayers):
        lst = raw[p] if p < len(raw) else []
        if not isinstance(lst, list):
            raise FormatError(N_("{key}[{p}]: expected a list of [row, col]", key=key, p=p))
        if len(lst) > limit:
            raise FormatError(N_("{key}[{p}]: at most {limit} hexes, got {count}",
                                 key=key, p=p, limit=limit, count=len(lst)))
        out.append([cell_index(rc, f"{key}[{p}][{k}]") for k, rc in enumerate(lst)])
    return out


def score_file_crossroads(
    data: Any, game_options: Mapping[str, Any] | None = None,
    players_range: tuple[int, int] = (2, 4),
) -> CrossroadsScore:
    """Score a Kingdom Builder score file with Crossroads keys (module docstring).

    Raises FormatError naming the field: a piece on the wrong terrain (wagon: buildable, or
    mountain with option ``wagon_on_mountains``; ship: water; warriors and city hall:
    buildable), on a castle/location hex, two pieces on one hex, a piece whose location tile is
    not on the board, a warrior next to another warrior, a city hall that is not a hex and its
    6 neighbours, an unknown or repeated task, more tasks than Crossroads sections.
    """
    board, cards, own, _ = parse_score_input(data, players_range, game_options)
    merged = _merged_options(data, game_options)
    xo = X.option_values(merged)
    n = len(own)
    occupied: dict[int, str] = {}
    for p, m in enumerate(own):
        for i in range(SIZE * SIZE):
            if m >> i & 1:
                occupied[i] = f"a settlement of P{p + 1}"
    kinds = {kind for _, kind in board.locations}
    own = list(own)
    all_warriors: list[tuple[int, int, int]] = []  # (hex, player, index)
    for key, piece in PIECE_KEYS.items():
        lists = _piece_lists(data, key, n)
        allowed = piece_terrain(board, piece, bool(xo["wagon_on_mountains"]))
        what = terrain_words(piece, bool(xo["wagon_on_mountains"]))
        for p, hexes in enumerate(lists):
            if hexes and PIECE_TILES[piece] not in kinds:
                raise FormatError(
                    N_("{key}[{p}]: no location on the board gives this piece ({tile} tile), "
                       "so no player has one", key=key, p=p, tile=PIECE_TILES[piece])
                )
            mask = 0
            for k, i in enumerate(hexes):
                where = f"{key}[{p}][{k}]"
                t = board.terrain[i]
                if t in (CASTLE, LOCATION):
                    raise FormatError(N_("{where}: hex {hex_name} is a {TERRAINS} hex",
                                         where=where, hex_name=hex_name(i), TERRAINS=TERRAINS[t]))
                if not allowed >> i & 1:
                    raise FormatError(
                        N_("{where}: hex {hex_name} is {TERRAINS}; it must be {what}",
                           where=where, hex_name=hex_name(i), TERRAINS=TERRAINS[t], what=what)
                    )
                if i in occupied:
                    raise FormatError(
                        N_("{where}: hex {hex_name} already holds {occupied}",
                           where=where, hex_name=hex_name(i), occupied=occupied[i])
                    )
                occupied[i] = f"a piece of P{p + 1}"
                mask |= 1 << i
                if piece == "warrior":
                    all_warriors.append((i, p, k))
            if piece == "city_hall" and hexes and (len(hexes) != 7
                                                   or city_hall_centre(mask) is None):
                raise FormatError(
                    N_("city_hall[{p}]: must be 7 hexes, a hex and its 6 neighbours", p=p)
                )
            own[p] |= mask
    warriors = sum(1 << i for i, _, _ in all_warriors)
    for i, p, k in all_warriors:
        if warrior_blocked(warriors & ~(1 << i)) >> i & 1:
            raise FormatError(
                N_("warriors[{p}][{k}]: hex {hex_name} is next to another warrior (nobody "
                   "places a piece next to a warrior)", p=p, k=k, hex_name=hex_name(i))
            )
    tasks = data.get("tasks", [])
    if not isinstance(tasks, list):
        raise FormatError(N_("'tasks' must be a list of task ids"))
    slots = sum(1 for sid, _ in board.sections if sid in X.SECTIONS)
    if len(tasks) > slots:
        raise FormatError(N_("'tasks': at most {slots} task cards (one per Crossroads section "
                             "on the board), got {count}", slots=slots, count=len(tasks)))
    for k, t in enumerate(tasks):
        if not isinstance(t, str) or t not in X.TASKS:
            raise FormatError(N_("tasks[{k}]: unknown task {short}; allowed: {allowed}",
                                 k=k, short=_short(t), allowed=', '.join(X.TASKS)))
    if len(set(tasks)) != len(tasks):
        raise FormatError(N_("'tasks': the task cards must differ"))
    players = score_all(board, cards, own, merged)
    all_areas, build_areas = task_areas(board)
    areas = all_areas if xo["home_country_terrains"] == "all" else build_areas
    for p, ps in enumerate(players):
        tg = X.score_tasks(tasks, own[p], areas=areas, specials=board.special)
        ps.parts.update(tg)
        ps.total += sum(tg.values())
    return CrossroadsScore(list(cards), list(tasks), players)
