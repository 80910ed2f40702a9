"""Score calculator: ``citybuilders score kingdom-builder FILE [--json]`` (docs/formats.md).

Input::

    {"game": "kingdom-builder",
     "sections": [["tavern", 0], ["paddock", 0], ["oasis", 0], ["farm", 180]],
     "cards": ["fishermen", "knights", "lords"],
     "settlements": [[[r, c], ...], [[r, c], ...]],
     "options": {}}

Output (``--json``): ``{"players": [{"total": int, "cards": {card: int}, "castles": int}]}``.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import CitybuildersError, FormatError
from citybuilders.core.game import PlayerScore, ScoreResult

from citybuilders.core.options import resolve_options

from .loader import section_data
from .rules import crossroads as X
from .rules.board import (
    CASTLE, LOCATION, MOUNTAIN, SIZE, TERRAINS, WATER, Board, hex_name, make_board,
)
from .rules.crossroads_state import task_areas
from .rules.options import OPTIONS
from .scoring import CARDS, score_all

__all__ = [
    "KingdomBuilderScore",
    "CrossroadsScore",
    "CROSSROADS_KEYS",
    "score_file",
    "score_file_crossroads",
    "has_crossroads_keys",
    "parse_score_input",
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
        rows = self._rows()
        rows.append(("total", [ps.total for ps in self.players]))
        w = max(len(r[0]) for r in rows)
        lines = [" " * w + "  " + "  ".join(f"{h:>9}" for h in heads)]
        for name, vals in rows:
            if name == "total":
                lines.append("-" * len(lines[0]))
            lines.append(f"{name:<{w}}  " + "  ".join(f"{v:>9}" for v in vals))
        return "\n".join(lines)


def _req(data: Mapping[str, Any], key: str, typ: type) -> Any:
    if key not in data:
        raise FormatError(f"missing key '{key}'")
    v = data[key]
    if not isinstance(v, typ) or isinstance(v, bool):
        raise FormatError(f"'{key}' must be a {typ.__name__}")
    return v


def cell_index(rc: Any, where: str) -> int:
    """Hex index of a score-file cell ``[row, col]`` (two integers, 0..19 each). Raises
    FormatError naming ``where`` (e.g. ``settlements[0][3]``) otherwise."""
    if not (isinstance(rc, list) and len(rc) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in rc)):
        raise FormatError(f"{where}: expected [row, col] integers, got {rc!r}")
    r, c = rc
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise FormatError(f"{where}: hex {r},{c} is off the board (rows/cols 0..19)")
    return r * SIZE + c


def parse_score_input(data: Any) -> tuple[Board, list[str], list[int], dict[str, Any]]:
    """Validate a score file; returns ``(board, cards, own_bitsets, rule_options)``.

    Raises FormatError naming the field: unknown section or card, bad rotation, a hex off the
    board, two settlements on one hex, a settlement on a castle or location hex, wrong types,
    missing keys. Settlements on water or mountain are accepted (Harbor; expansions).
    """
    if not isinstance(data, Mapping):
        raise FormatError("score file: expected a JSON object")
    game = data.get("game", "kingdom-builder")
    if game != "kingdom-builder":
        raise FormatError(f"'game' must be 'kingdom-builder', got {game!r}")
    secs = _req(data, "sections", list)
    if len(secs) != 4:
        raise FormatError(f"'sections' must list 4 sections (TL, TR, BL, BR), got {len(secs)}")
    sections = []
    for k, s in enumerate(secs):
        if not (isinstance(s, list) and len(s) == 2):
            raise FormatError(f"sections[{k}]: expected [section_id, rotation], got {s!r}")
        sid, rot = s
        if not isinstance(sid, str) or sid not in section_data():
            raise FormatError(
                f"sections[{k}]: unknown section {sid!r}; allowed: {', '.join(section_data())}"
            )
        if isinstance(rot, bool) or rot not in (0, 180):
            raise FormatError(f"sections[{k}]: rotation must be 0 or 180, got {rot!r}")
        sections.append((sid, int(rot)))
    if len({s for s, _ in sections}) != 4:
        raise FormatError("'sections': the 4 sections must differ")
    cards = _req(data, "cards", list)
    if len(cards) != 3:
        raise FormatError(f"'cards' must list 3 Kingdom Builder cards, got {len(cards)}")
    for k, c in enumerate(cards):
        if c not in CARDS:
            raise FormatError(f"cards[{k}]: unknown card {c!r}; allowed: {', '.join(CARDS)}")
    if len(set(cards)) != 3:
        raise FormatError("'cards': the 3 cards must differ")
    players = _req(data, "settlements", list)
    if not 1 <= len(players) <= 5:
        raise FormatError(f"'settlements' must hold one list per player (1-5), got {len(players)}")
    board = make_board(tuple(sections))
    own = []
    seen: dict[int, int] = {}
    for p, lst in enumerate(players):
        if not isinstance(lst, list):
            raise FormatError(f"settlements[{p}]: expected a list of [row, col]")
        if len(lst) > 40:
            raise FormatError(f"settlements[{p}]: {len(lst)} settlements, at most 40")
        mask = 0
        for k, rc in enumerate(lst):
            where = f"settlements[{p}][{k}]"
            i = cell_index(rc, where)
            r, c = rc
            if i in seen:
                raise FormatError(
                    f"{where}: hex {r},{c} already holds a settlement of P{seen[i] + 1} (settlements[{seen[i]}])"
                )
            t = board.terrain[i]
            if t in (CASTLE, LOCATION):
                raise FormatError(f"{where}: hex {r},{c} is a {TERRAINS[t]} hex")
            seen[i] = p
            mask |= 1 << i
        own.append(mask)
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise FormatError("'options' must be an object")
    try:
        opts = resolve_options(OPTIONS, dict(options), "kingdom-builder")
    except CitybuildersError as exc:
        raise FormatError(f"options: {exc}") from None
    return board, list(cards), own, opts


def score_file(
    data: Any, game_options: Mapping[str, Any] | None = None,
    players_range: tuple[int, int] | None = None,
) -> KingdomBuilderScore:
    """Score a score file (see module docstring; with a Crossroads key,
    :func:`score_file_crossroads`). File options override ``game_options``. Raises FormatError."""
    if has_crossroads_keys(data):
        return score_file_crossroads(data, game_options)
    board, cards, own, opts = parse_score_input(data)
    merged = dict(game_options or {})
    file_opts = data.get("options", {}) if isinstance(data, Mapping) else {}
    merged.update({k: opts[k] for k in file_opts})
    for k, v in opts.items():
        merged.setdefault(k, v)
    return KingdomBuilderScore(cards, score_all(board, cards, own, merged))


# --------------------------------------------------------------------------- Crossroads
CROSSROADS_KEYS = ("wagons", "ships", "warriors", "city_hall", "tasks")
_LIMIT = {"wagons": 1, "ships": 1, "warriors": 2, "city_hall": 7}


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
    raw = data.get(key, [])
    if not isinstance(raw, list):
        raise FormatError(f"'{key}' must be a list with one list of [row, col] per player")
    if len(raw) > nplayers:
        raise FormatError(f"'{key}' has {len(raw)} lists but 'settlements' has {nplayers} players")
    out = []
    for p in range(nplayers):
        lst = raw[p] if p < len(raw) else []
        if not isinstance(lst, list):
            raise FormatError(f"{key}[{p}]: expected a list of [row, col]")
        if len(lst) > _LIMIT[key]:
            raise FormatError(f"{key}[{p}]: at most {_LIMIT[key]} hexes, got {len(lst)}")
        hexes = []
        for k, rc in enumerate(lst):
            hexes.append(cell_index(rc, f"{key}[{p}][{k}]"))
        out.append(hexes)
    return out


def score_file_crossroads(
    data: Any, game_options: Mapping[str, Any] | None = None
) -> CrossroadsScore:
    """Score a Kingdom Builder score file with Crossroads keys (module docstring).

    Raises FormatError naming the field: pieces on the wrong terrain (wagon: buildable or
    mountain; ship: water; warriors and city hall: buildable), on a castle/location hex, two
    pieces on one hex, a city hall that is not a hex and its 6 neighbours, an unknown or repeated
    task, more than 4 tasks.
    """
    board, cards, own, opts = parse_score_input(data)
    n = len(own)
    occupied: dict[int, str] = {}
    for p, m in enumerate(own):
        for i in range(SIZE * SIZE):
            if m >> i & 1:
                occupied[i] = f"a settlement of P{p + 1}"
    land = board.buildable | board.tmask[MOUNTAIN]
    allowed = {"wagons": (land, "a buildable or mountain hex"),
               "ships": (board.tmask[WATER], "a water hex"),
               "warriors": (board.buildable, "a buildable hex"),
               "city_hall": (board.buildable, "a buildable hex")}
    own = list(own)
    for key in ("wagons", "ships", "warriors", "city_hall"):
        lists = _piece_lists(data, key, n)
        mask_ok, what = allowed[key]
        for p, hexes in enumerate(lists):
            mask = 0
            for k, i in enumerate(hexes):
                where = f"{key}[{p}][{k}]"
                t = board.terrain[i]
                if t in (CASTLE, LOCATION):
                    raise FormatError(f"{where}: hex {hex_name(i)} is a {TERRAINS[t]} hex")
                if not mask_ok >> i & 1:
                    raise FormatError(
                        f"{where}: hex {hex_name(i)} is {TERRAINS[t]}; it must be {what}"
                    )
                if i in occupied:
                    raise FormatError(
                        f"{where}: hex {hex_name(i)} already holds {occupied[i]}"
                    )
                occupied[i] = f"a piece of P{p + 1}"
                mask |= 1 << i
            if key == "city_hall" and hexes:
                centre = X.erode(mask)
                if len(hexes) != 7 or centre.bit_count() != 1 or (
                    X.city_hall_footprint(centre.bit_length() - 1) != mask
                ):
                    raise FormatError(
                        f"city_hall[{p}]: must be 7 hexes, a hex and its 6 neighbours"
                    )
            own[p] |= mask
    tasks = data.get("tasks", [])
    if not isinstance(tasks, list):
        raise FormatError("'tasks' must be a list of task ids")
    if len(tasks) > 4:
        raise FormatError(f"'tasks': at most 4 task cards (one per Crossroads section), got "
                          f"{len(tasks)}")
    for k, t in enumerate(tasks):
        if t not in X.TASKS:
            raise FormatError(f"tasks[{k}]: unknown task {t!r}; allowed: {', '.join(X.TASKS)}")
    if len(set(tasks)) != len(tasks):
        raise FormatError("'tasks': the task cards must differ")
    merged = dict(game_options or {})
    file_opts = data.get("options", {}) if isinstance(data, Mapping) else {}
    merged.update({k: opts[k] for k in file_opts})
    for k, v in opts.items():
        merged.setdefault(k, v)
    players = score_all(board, cards, own, merged)
    all_areas, build_areas = task_areas(board)
    xo = X.option_values(merged)
    areas = all_areas if xo["home_country_terrains"] == "all" else build_areas
    for p, ps in enumerate(players):
        tg = X.score_tasks(tasks, own[p], areas=areas, specials=board.special)
        ps.parts.update(tg)
        ps.total += sum(tg.values())
    return CrossroadsScore(list(cards), list(tasks), players)
