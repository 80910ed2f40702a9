"""Roll into Town score calculator: read a sheet file (docs/formats.md) and score it.

A file holds one map (``"map"``) or several (``"players": [{"name": ..., "map": [...]}, ...]``).
A map is a list of rows; each row is a string of cell tokens separated by spaces (see
``actions.py``). Options (``"options"``) use the game's rules options (river rule, map size,
watermill rule...).

Every placement rule the engine enforces in play is enforced here by the engine's own checks
(``rules.Sheet.can_place``, ``rules.allowed_coast_masks``): each building is checked on the
finished map with its own cells emptied, as it was when it was built; a watermill also with the
river one square shorter (its last square may have been drawn later, pointing at the mill).
Every problem is one :class:`FormatError` line starting with the field, e.g. ``map[3][4]: ...``.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ...core.errors import FormatError, OptionError
from ...core.game import Game, ScoreResult
from . import rules as R
from .actions import BUILDING_CODES, TERRAIN_TOKENS, mask_text, parse_mask
from .rules.explain import placement_text
from ...core.i18n import N_, ljust, rjust, text_width
from ...core.names import check_name
from ...core.i18n import gettext_now as _

__all__ = ["RollIntoTownScore", "score_sheet_file", "parse_map", "check_placements",
           "FILE_KEYS", "PLAYER_KEYS"]

FILE_KEYS = ("game", "map", "name", "options", "players")
"""The keys a sheet file may have."""
PLAYER_KEYS = ("map", "name")
"""The keys of one entry of ``players``."""
GAME_ID = "roll-into-town"
_CODE_BUILDING = {v: k for k, v in BUILDING_CODES.items()}
_TOKEN_TERRAIN = {v: k for k, v in TERRAIN_TOKENS.items()}
_ALLOWED_TOKENS = (". TH fa mo tr oc r:<2 sides> c:<1-3 sides> HO QU LJ HA WM TA FO MA LT LB CA, "
                   "or terrain+BUILDING (c:N+HA, oc+LT)")
_CODE_KIND = {R.B_HOUSE: R.K_HOUSE, R.B_QUARRY: R.K_QUARRY, R.B_LUMBERJACK: R.K_LUMBERJACK,
              R.B_HARBOR: R.K_HARBOR, R.B_WATERMILL: R.K_WATERMILL, R.B_TAVERN: R.K_TAVERN,
              R.B_FOUNTAIN: R.K_FOUNTAIN, R.B_MARKET: R.K_MARKET}
"""Build kind of each one-cell building code."""


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
        t = self.tables()
        cat_names = getattr(t, "CATEGORY_NAMES", {}) if t else {}
        rank_names = getattr(t, "RANK_NAMES", {}) if t else {}
        cats = list(self.parts[0])
        shown = {c: str(cat_names.get(c, c)) for c in cats}
        head, total = _("category"), _("total")
        first = max(12, text_width(head) + 1, text_width(total) + 1,
                    *(text_width(s) + 1 for s in shown.values()))
        width = max(12, *(text_width(n) + 2 for n in self.names))
        lines = [ljust(head, first) + "".join(rjust(n, width) for n in self.names)]
        for c in cats:
            lines.append(ljust(shown[c], first)
                         + "".join(str(p[c]).rjust(width) for p in self.parts))
        lines.append(ljust(total, first) + "".join(str(v).rjust(width) for v in self.totals))
        if len(self.names) == 1:
            rank = R.solo_rank(self.totals[0])
            lines.append(_("solo rank: {rank}", rank=rank_names.get(rank, rank)))
        elif len(self.winners) > 1:
            lines.append(_("winners (shared): {names}",
                           names=", ".join(self.names[w] for w in self.winners)))
        else:
            lines.append(_("winner: {names}", names=", ".join(self.names[w] for w in self.winners)))
        return "\n".join(lines)


def _parse_token(tok: str, where: str) -> tuple[int, int, int]:
    """``(terrain, sides, building code)`` of one token; FormatError naming ``where``. Which
    building may stand on which terrain is checked later by :func:`check_placements`."""
    base, plus, bcode = tok.partition("+")
    building = 0
    if plus:
        if bcode not in _CODE_BUILDING:
            raise FormatError(N_("{where}: unknown building {bcode!r} in {tok!r}; allowed: "
                                 "{allowed}",
                                 where=where, bcode=bcode, tok=tok, allowed=", ".join(BUILDING_CODES.values())))
        building = _CODE_BUILDING[bcode]
    elif base in _CODE_BUILDING:
        return R.EMPTY, 0, _CODE_BUILDING[base]
    if base in _TOKEN_TERRAIN:
        terrain, sides = _TOKEN_TERRAIN[base], 0
    elif base[:2] in ("r:", "c:"):
        try:
            sides = parse_mask(base[2:])
        except ValueError as exc:
            raise FormatError(N_("{where}: {tok!r}: {exc}", where=where, tok=tok, exc=exc)) from None
        if base[0] == "r":
            terrain = R.RIVER
            if sides not in R.RIVER_SHAPES:
                raise FormatError(N_("{where}: river {tok!r} needs two sides (NS, EW, NE, ES, "
                                     "SW, NW)", where=where, tok=tok))
        else:
            terrain = R.COAST
            if sides.bit_count() > 3:
                raise FormatError(N_("{where}: coast {tok!r} has water on 1, 2 or 3 sides",
                                     where=where, tok=tok))
    else:
        raise FormatError(N_("{where}: unknown cell {tok!r}; allowed: {ALLOWED_TOKENS}",
                             where=where, tok=tok, ALLOWED_TOKENS=_ALLOWED_TOKENS))
    return terrain, sides, building


def parse_map(rows_data: Any, geo: R.Geometry, field: str,
              watermill_front: bool = False) -> R.Sheet:
    """Build a :class:`rules.Sheet` from a list of row strings; FormatError naming the field,
    row and column for any problem of size, tokens, building shapes or the river chain.
    Placement rules are :func:`check_placements` (the score calculator runs both)."""
    if not isinstance(rows_data, list) or not all(isinstance(r, str) for r in rows_data):
        raise FormatError(N_("{field}: expected a list of {rows} row strings",
                             field=field, rows=geo.rows))
    if len(rows_data) != geo.rows:
        raise FormatError(N_("{field}: expected {rows} rows, got {count} (set options.rows for "
                             "another size)", field=field, rows=geo.rows, count=len(rows_data)))
    sheet = R.Sheet(geo, watermill_front)
    sheet.terrain[geo.hall] = R.EMPTY
    for r, row in enumerate(rows_data):
        toks = row.split()
        if len(toks) != geo.cols:
            raise FormatError(N_("{field}[{r}]: expected {cols} cells, got {count}",
                                 field=field, r=r, cols=geo.cols, count=len(toks)))
        for c, tok in enumerate(toks):
            i = r * geo.cols + c
            t, sides, b = _parse_token(tok, f"{field}[{r}][{c}]")
            sheet.terrain[i], sheet.sides[i], sheet.bld[i] = t, sides, b
    hall_r, hall_c = divmod(geo.hall, geo.cols)
    if sheet.terrain[geo.hall] != R.TOWN_HALL:
        raise FormatError(N_("{field}[{hall_r}][{hall_c}]: the centre cell must be the town "
                             "hall 'TH'", field=field, hall_r=hall_r, hall_c=hall_c))
    if sheet.terrain.count(R.TOWN_HALL) != 1:
        raise FormatError(N_("{field}: exactly one town hall 'TH' (the centre cell) expected",
                             field=field))
    _check_buildings(sheet, field)
    _load_river(sheet, field)
    sheet.derive_masks()
    for name, bit in R.UNIQUE_BIT.items():
        if R.UNIQUE_CODE[name] in sheet.bld:
            sheet.unique_built |= bit
    return sheet


def _check_buildings(sheet: R.Sheet, field: str) -> None:
    geo = sheet.geo
    bld = sheet.bld
    for code, name in ((R.B_FOUNTAIN, "fountain"), (R.B_MARKET, "market")):
        if bld.count(code) > 1:
            raise FormatError(N_("{field}: at most one {name} (it can be built only once)",
                                 field=field, name=name))
    tops = [i for i, b in enumerate(bld) if b == R.B_LIGHT_TOP]
    bottoms = [i for i, b in enumerate(bld) if b == R.B_LIGHT_BOTTOM]
    if len(tops) > 1 or len(bottoms) > 1 or len(tops) != len(bottoms) or (
            tops and bottoms[0] != tops[0] + geo.cols):
        raise FormatError(N_("{field}: the lighthouse is one 'LT' directly above one 'LB' "
                             "(built once, not rotated)", field=field))
    cath = [i for i, b in enumerate(bld) if b == R.B_CATHEDRAL]
    if cath:
        r0 = min(i // geo.cols for i in cath)
        c0 = min(i % geo.cols for i in cath)
        cells = {((i // geo.cols) - r0, (i % geo.cols) - c0) for i in cath}
        shapes = [{(dr, dc) for dr, dc, _ in R.BUILD_KINDS[k][1]}
                  for k in (R.K_CATHEDRAL, R.K_CATHEDRAL_M)]
        if cells not in shapes:
            raise FormatError(N_("{field}: the cathedral is one P-pentomino of 5 'CA' cells "
                                 "(X. / XX / XX or mirrored; built once)", field=field))


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
        raise FormatError(N_("{field}[{r}][{c}]: river square not connected to the river (a "
                             "map has one river, its pieces joined through their flow sides)",
                             field=field, r=r, c=c))
    if geo.side_nb[start][src_side] >= 0:
        r, c = divmod(start, geo.cols)
        raise FormatError(N_("{field}[{r}][{c}]: the river must start at the map edge",
                             field=field, r=r, c=c))
    sheet.river = order
    sheet.river_src = src_side
    sheet.river_exit = prev_exit


def _buildings(sheet: R.Sheet) -> list[tuple[int, int, list[int]]]:
    """``(build kind, anchor, cells)`` of every building on a parsed map (shapes already
    checked by :func:`parse_map`), in cell order of the anchors."""
    geo = sheet.geo
    bld = sheet.bld
    out = []
    for i, b in enumerate(bld):
        if b in _CODE_KIND:
            out.append((_CODE_KIND[b], i, [i]))
        elif b == R.B_LIGHT_TOP:
            out.append((R.K_LIGHTHOUSE, i, [i, i + geo.cols]))
    cath = [i for i, b in enumerate(bld) if b == R.B_CATHEDRAL]
    if cath:
        r0 = min(i // geo.cols for i in cath)
        c0 = min(i % geo.cols for i in cath)
        anchor = r0 * geo.cols + c0
        kind = R.K_CATHEDRAL if bld[anchor] == R.B_CATHEDRAL else R.K_CATHEDRAL_M
        out.append((kind, anchor, cath))
    out.sort(key=lambda e: e[1])
    return out


def _placeable(sheet: R.Sheet, kind: int, anchor: int, cells: list[int]) -> bool:
    """The engine's placement check of ``kind`` at ``anchor`` on ``sheet`` with ``cells``
    emptied (as when the building was placed); a watermill also with the river one square
    shorter, since the last square may have been drawn after the watermill."""
    trial = sheet.clone()
    for i in cells:
        trial.bld[i] = 0
    trial.derive_masks()
    if trial.can_place(kind, anchor):
        return True
    if kind != R.K_WATERMILL or len(trial.river) < 2:
        return False
    last = trial.river.pop()
    prev = trial.river[-1]
    trial.river_exit = trial.geo.side_nb[prev].index(last)
    trial.terrain[last] = R.EMPTY
    trial.sides[last] = 0
    trial.derive_masks()
    return trial.can_place(kind, anchor)


def check_placements(sheet: R.Sheet, field: str, coast_masks: tuple[int, ...]) -> None:
    """Enforce the placement rules of play on a parsed map: every building where the engine
    would have let it be built (:func:`_placeable`), and every coast's water sides among
    ``coast_masks`` (``rules.allowed_coast_masks`` of the game's options). Raises FormatError
    ``field[row][col]: ...`` for the first offending cell."""
    geo = sheet.geo
    allowed = set(coast_masks)
    for i, t in enumerate(sheet.terrain):
        if t == R.COAST and sheet.sides[i] not in allowed:
            r, c = divmod(i, geo.cols)
            raise FormatError(
                N_("{field}[{r}][{c}]: coast 'c:{mask_text}' is not allowed by option "
                   "coast_two_side_shape=corner_only (two water sides only as a corner: NE, "
                   "ES, SW, NW)", field=field, r=r, c=c, mask_text=mask_text(sheet.sides[i])))
    for kind, anchor, cells in _buildings(sheet):
        if not _placeable(sheet, kind, anchor, cells):
            r, c = divmod(anchor, geo.cols)
            name = R.KIND_BUILDING[kind]
            raise FormatError(N_("{field}[{r}][{c}]: the {name} cannot stand there (allowed: "
                                 "{placement_text})",
                                 field=field, r=r, c=c, name=name, placement_text=placement_text(kind, sheet.watermill_front)))


def _game_for(game: Game, opts: Any) -> Game:
    """``game`` itself, or a game of the same class with ``opts`` over its options."""
    if not isinstance(opts, Mapping):
        raise FormatError(N_("options: expected an object"))
    if not opts:
        return game
    known = [o.name for o in game.option_specs]
    for k in opts:
        if k not in known:
            raise FormatError(N_("options: unknown option {key}; allowed: {allowed}",
                                 key=_key(k), allowed=', '.join(known)))
    try:
        return type(game)(**{**game.options, **{str(k): v for k, v in opts.items()}})
    except OptionError as exc:
        raise FormatError(N_("options: {exc}", exc=exc)) from None


def _key(key: Any) -> str:
    """A key as written in a message: plain if it is a simple word, else quoted (repr)."""
    text = str(key)
    return text if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", text) else repr(text)[:60]


def _name(value: Any, field: str) -> str:
    """A player's name: one line of 1 to 40 characters (``core.names.check_name``)."""
    return str(check_name(value, field))


def score_sheet_file(game: Game, data: Mapping[str, Any]) -> RollIntoTownScore:
    """Score a sheet file (see module docstring) with ``game``'s options (overridden by the
    file's ``options``). Raises FormatError naming the bad field, e.g. ``players[1].map[2][3]:
    ...``; unknown keys name the key and the allowed ones."""
    if not isinstance(data, Mapping):
        raise FormatError(N_("file: expected a JSON object"))
    extra = sorted(_key(k) for k in data if k not in FILE_KEYS)
    if extra:
        raise FormatError(N_("{extra}: unknown key; allowed: {allowed}",
                             extra=extra[0], allowed=', '.join(FILE_KEYS)))
    if "game" in data and data["game"] != GAME_ID:
        raise FormatError(N_("game: expected {GAME_ID!r}, got {game}",
                             GAME_ID=GAME_ID, game=repr(data['game'])[:60]))
    g = _game_for(game, data.get("options", {}))
    geo = g.geo
    rule = g.options["river_connect_rule"]
    front = g.options["watermill_rule"] == "non_flow_side"
    coast_masks = R.allowed_coast_masks(g.options["coast_two_side_shape"])
    if "players" in data:
        if "map" in data:
            raise FormatError(N_("map: give either 'map' (one sheet) or 'players', not both"))
        players = data["players"]
        if not isinstance(players, list) or not 1 <= len(players) <= 6:
            raise FormatError(N_("players: expected a list of 1 to 6 sheets"))
        entries = []
        for k, p in enumerate(players):
            if not isinstance(p, Mapping) or "map" not in p:
                raise FormatError(N_("players[{k}]: expected an object with 'map'", k=k))
            extra = sorted(_key(x) for x in p if x not in PLAYER_KEYS)
            if extra:
                raise FormatError(N_("players[{k}].{extra}: unknown key; allowed: {allowed}",
                                     k=k, extra=extra[0], allowed=', '.join(PLAYER_KEYS)))
            name = _name(p.get("name", f"Player {k + 1}"), f"players[{k}].name")
            entries.append((name, p["map"], f"players[{k}].map"))
    elif "map" in data:
        name = _name(data.get("name", "Player 1"), "name")
        entries = [(name, data["map"], "map")]
    else:
        raise FormatError(N_("map: missing (a list of row strings), or give 'players'"))
    names, parts, connects = [], [], []
    for name, rows, field in entries:
        sheet = parse_map(rows, geo, field, front)
        check_placements(sheet, field, coast_masks)
        names.append(name)
        parts.append(sheet.score_parts(rule))
        connects.append(sheet.river_connects(rule))
    key = [(sum(p.values()), p["houses"]) for p in parts]
    best = max(key)
    winners = [k for k, v in enumerate(key) if v == best]
    return RollIntoTownScore(names, parts, winners, connects)
