"""Roll into Town score calculator: read a sheet file (docs/formats.md) and score it.

A file holds one map (``"map"``) or several (``"players": [{"name": ..., "map": [...]}, ...]``).
A map is a list of rows; each row is a string of cell tokens separated by spaces (see
:mod:`notation`). Options (``"options"``) use the game's rules options (river rule, map size).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ...core.errors import FormatError, OptionError
from ...core.game import ScoreResult
from . import rules as R
from .notation import BUILDING_CODES, TERRAIN_TOKENS

if TYPE_CHECKING:  # pragma: no cover
    from .game import RollIntoTownGame

__all__ = ["RollIntoTownScore", "score_sheet_file", "parse_map"]

_CODE_BUILDING = {v: k for k, v in BUILDING_CODES.items()}
_TOKEN_TERRAIN = {v: k for k, v in TERRAIN_TOKENS.items()}
_ALLOWED_TOKENS = (". TH fa mo tr oc r:<2 sides> c:<1-3 sides> HO QU LJ HA WM TA FO MA LT LB CA, "
                   "or terrain+BUILDING (c:N+HA, oc+LT)")


class RollIntoTownScore(ScoreResult):
    """Scores of one or more sheets: per-category breakdown, totals, winners, solo rank."""

    def __init__(self, names: list[str], parts: list[dict[str, int]], winners: list[int],
                 river_connects: list[bool]) -> None:
        self.names = names
        self.parts = parts
        self.totals = [sum(p.values()) for p in parts]
        self.winners = winners
        self.river_connects = river_connects

    def to_json(self) -> dict[str, Any]:
        """``{"game", "players": [{"name", "total", "parts", "river_connects"[, "rank"]}],
        "winners": [names]}``; ``rank`` (solo rank name) only for a single sheet."""
        players = []
        for k, name in enumerate(self.names):
            d: dict[str, Any] = {"name": name, "total": self.totals[k], "parts": self.parts[k],
                                 "river_connects": self.river_connects[k]}
            if len(self.names) == 1:
                d["rank"] = R.solo_rank(self.totals[k])
            players.append(d)
        return {"game": "roll-into-town", "players": players,
                "winners": [self.names[w] for w in self.winners]}

    def to_text(self) -> str:
        """A table: one column per sheet, one row per category, totals, rank or winners."""
        cats = list(self.parts[0])
        width = max(12, *(len(n) + 2 for n in self.names))
        lines = ["category".ljust(12) + "".join(n.rjust(width) for n in self.names)]
        for c in cats:
            lines.append(c.ljust(12) + "".join(str(p[c]).rjust(width) for p in self.parts))
        lines.append("total".ljust(12) + "".join(str(t).rjust(width) for t in self.totals))
        if len(self.names) == 1:
            lines.append(f"solo rank: {R.solo_rank(self.totals[0])}")
        else:
            lines.append("winner: " + ", ".join(self.names[w] for w in self.winners)
                         + (" (shared)" if len(self.winners) > 1 else ""))
        return "\n".join(lines)


def _parse_token(tok: str, where: str) -> tuple[int, int, int]:
    """``(terrain, sides, building code)`` of one token; FormatError naming ``where``."""
    base, plus, bcode = tok.partition("+")
    building = 0
    if plus:
        if bcode not in _CODE_BUILDING:
            raise FormatError(f"{where}: unknown building {bcode!r} in {tok!r}; allowed: "
                              + ", ".join(BUILDING_CODES.values()))
        building = _CODE_BUILDING[bcode]
    elif base in _CODE_BUILDING:
        return R.EMPTY, 0, _CODE_BUILDING[base]
    if base in _TOKEN_TERRAIN:
        terrain, sides = _TOKEN_TERRAIN[base], 0
    elif base[:2] in ("r:", "c:"):
        try:
            sides = R.parse_mask(base[2:])
        except ValueError as exc:
            raise FormatError(f"{where}: {tok!r}: {exc}") from None
        if base[0] == "r":
            terrain = R.RIVER
            if sides not in R.RIVER_SHAPES:
                raise FormatError(f"{where}: river {tok!r} needs two sides (NS, EW, NE, ES, SW, "
                                  "NW)")
        else:
            terrain = R.COAST
            if sides.bit_count() > 3:
                raise FormatError(f"{where}: coast {tok!r} has water on 1, 2 or 3 sides")
    else:
        raise FormatError(f"{where}: unknown cell {tok!r}; allowed: {_ALLOWED_TOKENS}")
    if plus:
        ok = {R.B_HARBOR: (R.COAST,), R.B_LIGHT_TOP: (R.COAST, R.OCEAN, R.EMPTY),
              R.B_LIGHT_BOTTOM: (R.COAST, R.EMPTY)}.get(building, (R.EMPTY,))
        if terrain not in ok:
            raise FormatError(f"{where}: {tok!r}: a {R.B_NAMES[building]} cannot stand on "
                              f"{R.TERRAIN_NAMES[terrain]}")
    elif building == 0 and terrain == R.EMPTY and base != ".":
        raise FormatError(f"{where}: unknown cell {tok!r}")  # pragma: no cover
    return terrain, sides, building


def parse_map(rows_data: Any, geo: R.Geometry, field: str) -> R.Sheet:
    """Build a :class:`rules.Sheet` from a list of row strings; FormatError naming the field,
    row and column for any problem (size, tokens, building shapes, river)."""
    if not isinstance(rows_data, list) or not all(isinstance(r, str) for r in rows_data):
        raise FormatError(f"{field}: expected a list of {geo.rows} row strings")
    if len(rows_data) != geo.rows:
        raise FormatError(f"{field}: expected {geo.rows} rows, got {len(rows_data)} "
                          "(set options.rows for another size)")
    sheet = R.Sheet(geo)
    sheet.terrain[geo.hall] = R.EMPTY
    for r, row in enumerate(rows_data):
        toks = row.split()
        if len(toks) != geo.cols:
            raise FormatError(f"{field}[{r}]: expected {geo.cols} cells, got {len(toks)}")
        for c, tok in enumerate(toks):
            i = r * geo.cols + c
            t, sides, b = _parse_token(tok, f"{field}[{r}][{c}]")
            sheet.terrain[i], sheet.sides[i], sheet.bld[i] = t, sides, b
    hall_r, hall_c = divmod(geo.hall, geo.cols)
    if sheet.terrain[geo.hall] != R.TOWN_HALL:
        raise FormatError(f"{field}[{hall_r}][{hall_c}]: the centre cell must be the town hall "
                          "'TH'")
    if sheet.terrain.count(R.TOWN_HALL) != 1:
        raise FormatError(f"{field}: exactly one town hall 'TH' (the centre cell) expected")
    _check_buildings(sheet, field)
    _load_river(sheet, field)
    sheet.derive_masks()
    for kind_name, bit in R.UNIQUE_BIT.items():
        code = {"fountain": R.B_FOUNTAIN, "market": R.B_MARKET, "lighthouse": R.B_LIGHT_TOP,
                "cathedral": R.B_CATHEDRAL}[kind_name]
        if code in sheet.bld:
            sheet.unique_built |= bit
    return sheet


def _check_buildings(sheet: R.Sheet, field: str) -> None:
    geo = sheet.geo
    bld = sheet.bld
    for code, name in ((R.B_FOUNTAIN, "fountain"), (R.B_MARKET, "market")):
        if bld.count(code) > 1:
            raise FormatError(f"{field}: at most one {name} (it can be built only once)")
    tops = [i for i, b in enumerate(bld) if b == R.B_LIGHT_TOP]
    bottoms = [i for i, b in enumerate(bld) if b == R.B_LIGHT_BOTTOM]
    if len(tops) > 1 or len(bottoms) > 1 or len(tops) != len(bottoms) or (
            tops and bottoms[0] != tops[0] + geo.cols):
        raise FormatError(f"{field}: the lighthouse is one 'LT' directly above one 'LB' "
                          "(built once, not rotated)")
    cath = [i for i, b in enumerate(bld) if b == R.B_CATHEDRAL]
    if cath:
        r0 = min(i // geo.cols for i in cath)
        c0 = min(i % geo.cols for i in cath)
        cells = {((i // geo.cols) - r0, (i % geo.cols) - c0) for i in cath}
        shapes = [{(dr, dc) for dr, dc, _ in R.BUILD_KINDS[k][1]}
                  for k in (R.K_CATHEDRAL, R.K_CATHEDRAL_M)]
        if cells not in shapes:
            raise FormatError(f"{field}: the cathedral is one P-pentomino of 5 'CA' cells "
                              "(X. / XX / XX or mirrored; built once)")


def _load_river(sheet: R.Sheet, field: str) -> None:
    """Order the river cells from source to mouth and set river_src/river_exit."""
    geo = sheet.geo
    cells = [i for i, t in enumerate(sheet.terrain) if t == R.RIVER]
    if not cells:
        return
    cellset = set(cells)

    def links(i: int) -> list[tuple[int, int]]:
        """(side, neighbour) of each flow side: neighbour -1 = open end."""
        out = []
        for s in range(4):
            if sheet.sides[i] >> s & 1:
                j = geo.side_nb[i][s]
                joined = j in cellset and sheet.sides[j] >> ((s + 2) & 3) & 1
                out.append((s, j if joined else -1))
        return out

    ends = [i for i in cells if any(j < 0 for _, j in links(i))]
    offmap = [i for i in ends if any(j < 0 and geo.side_nb[i][s] < 0 for s, j in links(i))]
    start = offmap[0] if offmap else (ends[0] if ends else cells[0])
    order = [start]
    seen = {start}
    first_links = links(start)
    src_side = next((s for s, j in first_links if j < 0 and geo.side_nb[start][s] < 0),
                    next((s for s, j in first_links if j < 0), first_links[0][0]))
    prev_exit = [s for s, _ in first_links if s != src_side][0]
    cur = start
    while True:
        nxt = geo.side_nb[cur][prev_exit]
        if nxt < 0 or nxt not in cellset or nxt in seen or not (
                sheet.sides[nxt] >> ((prev_exit + 2) & 3) & 1):
            break
        order.append(nxt)
        seen.add(nxt)
        entry = (prev_exit + 2) & 3
        prev_exit = [s for s in range(4) if sheet.sides[nxt] >> s & 1 and s != entry][0]
        cur = nxt
    if len(order) != len(cells):
        r, c = divmod(next(i for i in cells if i not in seen), geo.cols)
        raise FormatError(f"{field}[{r}][{c}]: river square not connected to the river (a map "
                          "has one river, its pieces joined through their flow sides)")
    if geo.side_nb[start][src_side] >= 0:
        r, c = divmod(start, geo.cols)
        raise FormatError(f"{field}[{r}][{c}]: the river must start at the map edge")
    sheet.river = order
    sheet.river_src = src_side
    sheet.river_exit = prev_exit


def score_sheet_file(game: "RollIntoTownGame", data: Mapping[str, Any]) -> RollIntoTownScore:
    """Score a sheet file (see module docstring). Raises FormatError naming the bad field."""
    from .game import RollIntoTownGame

    if not isinstance(data, Mapping):
        raise FormatError("file: expected a JSON object")
    known = {"game", "options", "map", "players", "name"}
    extra = sorted(set(data) - known)
    if extra:
        raise FormatError(f"{extra[0]}: unknown key; allowed: {', '.join(sorted(known))}")
    opts = data.get("options", {})
    if not isinstance(opts, Mapping):
        raise FormatError("options: expected an object")
    try:
        g = RollIntoTownGame(**{**game.options, **opts}) if opts else game
    except OptionError as exc:
        raise FormatError(f"options: {exc}") from None
    geo = g.geo
    rule = g.options["river_connect_rule"]
    if "players" in data:
        if "map" in data:
            raise FormatError("map: give either 'map' (one sheet) or 'players', not both")
        players = data["players"]
        if not isinstance(players, list) or not 1 <= len(players) <= 6:
            raise FormatError("players: expected a list of 1 to 6 sheets")
        entries = []
        for k, p in enumerate(players):
            if not isinstance(p, Mapping) or "map" not in p:
                raise FormatError(f"players[{k}]: expected an object with 'map'")
            name = p.get("name", f"Player {k + 1}")
            if not isinstance(name, str):
                raise FormatError(f"players[{k}].name: expected a string")
            entries.append((name, p["map"], f"players[{k}].map"))
    elif "map" in data:
        name = data.get("name", "Player 1")
        if not isinstance(name, str):
            raise FormatError("name: expected a string")
        entries = [(name, data["map"], "map")]
    else:
        raise FormatError("map: missing (a list of row strings), or give 'players'")
    names, parts, connects = [], [], []
    for name, rows, field in entries:
        sheet = parse_map(rows, geo, field)
        names.append(name)
        parts.append(sheet.score_parts(rule))
        connects.append(sheet.river_connects(rule))
    key = [(sum(p.values()), p["houses"]) for p in parts]
    best = max(key)
    winners = [k for k, v in enumerate(key) if v == best]
    return RollIntoTownScore(names, parts, winners, connects)
