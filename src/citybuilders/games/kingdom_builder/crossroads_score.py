"""Score calculator extension for Crossroads (docs/formats.md, Kingdom Builder → Crossroads).

Extra keys of a Kingdom Builder score file (all optional)::

    "wagons":    [[[r, c]], []],            one list per player, at most 1 hex each
    "ships":     [[], [[r, c]]],            at most 1 water hex each
    "warriors":  [[[r, c], [r, c]], []],    at most 2 hexes each
    "city_hall": [[[r, c] x 7], []],        0 or the 7 hexes of a city hall (a hex + its
                                            6 neighbours)
    "tasks":     ["road", "fortress"]       task cards in play (0-4 different ids)

Every piece counts as a settlement of its owner for the Kingdom Builder cards, the castles and
the tasks (Crossroads rulebook; digest §9.3). Output: each player gains ``"tasks": {task: gold}``
and its gold is in ``total``.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import FormatError
from citybuilders.core.game import PlayerScore

from . import crossroads as X
from .board import CASTLE, LOCATION, MOUNTAIN, SIZE, TERRAINS, WATER, hex_name
from .crossroads_state import task_areas
from .scorefile import KingdomBuilderScore, cell_index, parse_score_input
from .scoring import score_all

__all__ = ["CROSSROADS_KEYS", "CrossroadsScore", "score_file_crossroads", "has_crossroads_keys"]

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
