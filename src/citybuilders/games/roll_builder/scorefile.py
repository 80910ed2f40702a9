"""Roll Builder score calculator: the sheet-state file format (docs/formats.md, "Sheet state").

A score file describes a finished sheet (roads drawn, buildings, marks, innovations, wonder boxes,
tracks, stored wealth). :func:`score_file` replays the drawing on a fresh sheet of the engine
(rules/state.py) with the engine's own checks and moves — the road, mark, building and wonder
rules a player meets in play (``_road_edges``, ``_markable``, ``_build_sites``,
``_second_mark_sites``, ``_wonder_boxes``; ``_cross``, ``_place_road``, ``_mark``,
``_write_building``, ``_fill_box``) — then scores it with scoring.py.

Replay order (the end state does not say in which order things were drawn, so the most
permissive order is used): innovations are discovered first (their abilities open river sides and
ridges and unlock boxes), then roads are drawn (any order joining the network; milestones
count them), spaces marked, buildings written (plain ones before the ones that share a space) and
wonder boxes filled in sheet order. Every problem raises FormatError, one line starting with the
field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from citybuilders.core.errors import FormatError, OptionError
from citybuilders.core.game import ScoreResult

from .loader import Sheet, check_sheet_document, shipped_sheet_names
from .rules.moves import NO_GUILD
from .rules.player_sheet import PlayerSheet
from .rules.state import RollBuilderRules, RollBuilderState
from .scoring import CATEGORIES, score_sheet
from ...core.i18n import N_, current, json_reason, ljust, localize, text_width
from ...core.i18n import gettext_now as _

__all__ = ["RollBuilderScore", "score_file", "score_file_text", "replay_position", "FIELDS"]

FIELDS = ("game", "sheet", "roads", "buildings", "marks", "innovations", "wonder",
          "favor_crossed", "strength_crossed", "wealth_stored", "format")
"""Keys of a score file (any other key is an error naming it and these)."""
_RULES: dict[str, RollBuilderRules] = {}


@dataclass
class RollBuilderScore(ScoreResult):
    """Result of :func:`score_file`: the sheet name, the parts and the total."""

    sheet: str
    parts: dict[str, int]
    details: dict[str, Any]

    @property
    def total(self) -> int:
        """Sum of the parts."""
        return sum(self.parts.values())

    def to_json(self) -> dict[str, Any]:
        """``{"game", "sheet", "total", "parts": {category: points}, "details": {...}}``."""
        return {"game": "roll-builder", "sheet": self.sheet, "total": self.total,
                "parts": dict(self.parts), "details": dict(self.details)}

    def to_text(self) -> str:
        """A readable table of the categories."""
        lines = [f"Roll Builder — {self.sheet}"]
        labels = [(localize(CATEGORY_LABELS.get(k, k), current()), self.parts[k])
                  for k in CATEGORIES]
        labels.append((_("total"), self.total))
        w = max(12, *(text_width(k) + 1 for k, _v in labels))
        for k, v in labels:
            lines.append(f"  {ljust(k, w)}{v:>4}")
        return "\n".join(lines)


CATEGORY_LABELS = {"buildings": N_("buildings"), "roads": N_("roads"),
                   "innovations": N_("innovations"), "resources": N_("resources"),
                   "wonder": N_("wonder"), "bonuses": N_("bonuses")}
"""Score category id -> its label in the score table (translated where shown)."""


def _int(d: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key, 0)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise FormatError(N_("{key}: expected an integer {lo}-{hi}, got {v!r}",
                             key=key, lo=lo, hi=hi, v=v))
    return v


def _list(data: Mapping[str, Any], key: str, what: str) -> list[Any]:
    v = data.get(key, [])
    if not isinstance(v, list):
        raise FormatError(N_("{key}: expected a list of {what}", key=key, what=what))
    return v


def _rules_for(spec: Any) -> RollBuilderRules:
    """The rules (default options) on the sheet of the file's ``sheet`` field."""
    if isinstance(spec, str):
        if spec not in shipped_sheet_names():
            raise FormatError(N_("sheet: unknown sheet {spec!r}; allowed: {allowed} or an "
                                 "inline sheet object",
                                 spec=spec, allowed=', '.join(shipped_sheet_names())))
        key = spec
        opts: dict[str, Any] = {"sheet": spec}
    elif isinstance(spec, dict):
        doc = check_sheet_document(spec, "sheet")  # FormatError "sheet.<field>: ..."
        key = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
        opts = {"sheet_doc": doc}
    else:
        raise FormatError(N_("sheet: missing; give a shipped sheet name ({allowed}) or an "
                             "inline sheet object", allowed=', '.join(shipped_sheet_names())))
    g = _RULES.get(key)
    if g is None:
        try:
            g = RollBuilderRules(**opts)
        except OptionError as exc:  # pragma: no cover - the document was checked above
            raise FormatError(N_("sheet: {exc}", exc=exc)) from None
        if len(_RULES) >= 16:
            _RULES.clear()
        _RULES[key] = g
    return g


def _openers(sheet: Sheet, effect: str) -> str:
    names = [f"{inn.id} {inn.name}" for inn in sheet.innovations
             if any(e["type"] == effect for e in inn.effects)]
    return " or ".join(names) or "nothing on this sheet"


def _innovations(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> None:
    sheet = s.game.sheet  # type: ignore[attr-defined]
    seen: set[str] = set()
    for i, iid in enumerate(_list(data, "innovations", N_("discovered innovation ids"))):
        if not isinstance(iid, str) or iid not in sheet.innovation_index:
            raise FormatError(N_("innovations[{i}]: unknown innovation {iid!r}; allowed: "
                                 "{allowed}",
                                 i=i, iid=iid, allowed=', '.join(sheet.innovation_index)))
        if iid in seen:
            raise FormatError(N_("innovations[{i}]: {iid} is listed twice", i=i, iid=iid))
        seen.add(iid)
        inn = sheet.innovations[sheet.innovation_index[iid]]
        for k in range(inn.first_circle, inn.first_circle + len(inn.cost)):
            s._cross(p, k)  # the engine's move: the last circle discovers it (effects apply)


def _roads(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> int:
    sheet = s.game.sheet  # type: ignore[attr-defined]
    pending: list[tuple[int, int]] = []
    seen = sheet.start_roads
    for i, e in enumerate(_list(data, "roads", N_("'row,col,SIDE' edges"))):
        try:
            eid = sheet.edge_of(e)
        except ValueError as exc:
            raise FormatError(N_("roads[{i}]: {exc}", i=i, exc=exc)) from None
        name = sheet.edge_name[eid]
        bit = 1 << eid
        if not sheet.usable_edges & bit:
            raise FormatError(N_("roads[{i}]: {name} is not a usable road side (cut by the "
                                 "border or closed to roads)", i=i, name=name))
        if seen & bit:
            raise FormatError(N_("roads[{i}]: {name} holds a road already", i=i, name=name))
        if p.blocked & bit:
            if sheet.river_block & bit:
                raise FormatError(N_("roads[{i}]: {name} is a river side: a road there needs "
                                     "{openers} discovered",
                                     i=i, name=name, openers=_openers(sheet, 'roads_allowed_on_river_edges')))
            raise FormatError(N_("roads[{i}]: {name} crosses a mountain ridge: a road there "
                                 "needs {openers} discovered",
                                 i=i, name=name, openers=_openers(sheet, 'roads_allowed_on_ridges')))
        seen |= bit
        pending.append((i, eid))
    drawn = len(pending)
    while pending:  # the engine's rule: each road joins the network when it is drawn
        rest = []
        for i, eid in pending:
            if s._road_edges(p) >> eid & 1:
                p.roads_left = 1
                s._place_road(p, eid)
            else:
                rest.append((i, eid))
        if len(rest) == len(pending):
            raise FormatError(N_("roads: {edge_name} is not joined to the road network",
                                 edge_name=sheet.edge_name[rest[0][1]]))
        pending = rest
    p.roads_left = 0
    return drawn


def _marks(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> None:
    sheet = s.game.sheet  # type: ignore[attr-defined]
    for i, m in enumerate(_list(data, "marks", N_("'row,col' spaces"))):
        try:
            sp = sheet.space_of(m)
        except ValueError as exc:
            raise FormatError(N_("marks[{i}]: {exc}", i=i, exc=exc)) from None
        name = sheet.space_name(sp)
        if not p.connected >> sp & 1:
            raise FormatError(N_("marks[{i}]: {name} is not connected to a road", i=i, name=name))
        if p.marked >> sp & 1:
            raise FormatError(N_("marks[{i}]: {name} is marked already", i=i, name=name))
        if not s._markable(p) >> sp & 1:
            raise FormatError(N_("marks[{i}]: {name} has nothing to collect (a {terrain} space "
                                 "without an icon cannot be marked)",
                                 i=i, name=name, terrain=sheet.terrain[sp]))
        s._mark(p, sp)


def _buildings(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> None:
    sheet = s.game.sheet  # type: ignore[attr-defined]
    entries: list[tuple[int, int, int]] = []
    for i, item in enumerate(_list(data, "buildings", N_("['row,col', number] pairs"))):
        if not (isinstance(item, list) and len(item) == 2):
            raise FormatError(N_("buildings[{i}]: expected ['row,col', number], got {item!r}",
                                 i=i, item=item))
        try:
            sp = sheet.space_of(item[0])
        except ValueError as exc:
            raise FormatError(N_("buildings[{i}]: {exc}", i=i, exc=exc)) from None
        n = item[1]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 6:
            raise FormatError(N_("buildings[{i}]: building number must be 1-6, got {n!r}",
                                 i=i, n=n))
        entries.append((i, sp, n))
    # a two-space building: its marks are listed in pairs (1st with 2nd, 3rd with 4th...)
    partner: dict[int, int] = {}
    firsts: dict[int, int] = {}
    for j, (i, sp, n) in enumerate(entries):
        if sheet.buildings[n - 1].marks == 2:
            if n in firsts:
                partner[firsts.pop(n)] = j
            else:
                firsts[n] = j
    for n, j in firsts.items():
        b = sheet.buildings[n - 1]
        raise FormatError(N_("buildings[{entries}]: building {n} ({name}) takes two adjacent "
                             "spaces: list its second mark too",
                             entries=entries[j][0], n=n, name=b.name))
    seconds = set(partner.values())
    # plain buildings first, then those that may share a space (the order play allows)
    order = sorted(range(len(entries)), key=lambda j: sheet.buildings[entries[j][2] - 1]
                   .shares_space)
    for j in order:
        if j in seconds:
            continue
        i, sp, n = entries[j]
        if not s._build_sites(p, n) >> sp & 1:
            raise FormatError(N_("buildings[{i}]: {why_not}", i=i, why_not=_why_not(s, p, sp, n)))
        s._write_building(p, n, sp)
        if j in partner:
            i2, sp2, _ = entries[partner[j]]
            p.second_mark_of = sp
            ok = s._second_mark_sites(p) >> sp2 & 1
            p.second_mark_of = NO_GUILD
            if not ok:
                raise FormatError(N_("buildings[{i2}]: the second mark of building {n} "
                                     "({name}) must be on a free connected land space next to "
                                     "{space_name}",
                                     i2=i2, n=n, name=sheet.buildings[n - 1].name, space_name=sheet.space_name(sp)))
            s._write_building(p, n, sp2)


def _why_not(s: RollBuilderState, p: PlayerSheet, sp: int, n: int) -> str:
    """Why building ``n`` may not be written on space ``sp`` (``_build_sites`` said no)."""
    sheet = s.game.sheet  # type: ignore[attr-defined]
    name = sheet.space_name(sp)
    b = sheet.buildings[n - 1]
    if not sheet.land_mask >> sp & 1:
        return f"{name} is not a land space ({sheet.terrain[sp]})"
    if not p.connected >> sp & 1:
        return f"{name} is not connected to a road"
    if b.placement != "any" and not sheet.dock_ok >> sp & 1:
        return (f"building {n} ({b.name}) must be next to water or on a space with a river "
                f"side; {name} is neither")
    if (p.built_twice if b.shares_space else p.built) >> sp & 1:
        return f"{name} already holds a building"
    return (f"building {n} ({b.name}) takes two adjacent spaces: {name} has no free connected "
            "land space next to it")


def _wonder(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> None:
    sheet = s.game.sheet  # type: ignore[attr-defined]
    rw = data.get("wonder", [])
    if not isinstance(rw, (list, dict)):
        raise FormatError(N_("wonder: expected a list of filled box ids (or {box: value})"))
    values: dict[int, int] = {}
    where: dict[int, str] = {}
    for i, bid in enumerate(rw):
        if not isinstance(bid, str) or bid not in sheet.box_index:
            raise FormatError(N_("wonder[{i}]: unknown box {bid!r}; allowed: {allowed}",
                                 i=i, bid=bid, allowed=', '.join(sheet.box_index)))
        k = sheet.box_index[bid]
        if k in values:
            raise FormatError(N_("wonder[{i}]: box {bid} is listed twice", i=i, bid=bid))
        value = 0  # a list does not give die values: filled as if by a bonus Wonder action
        if isinstance(rw, dict):
            value = rw[bid]
            allowed = sorted(sheet.boxes[k].values) or list(range(1, 7))
            if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
                raise FormatError(N_("wonder.{bid}: bad die value {value!r}; allowed: {allowed}",
                                     bid=bid, value=value, allowed=', '.join(map(str, allowed))))
        values[k] = value
        where[k] = f"wonder.{bid}" if isinstance(rw, dict) else f"wonder[{i}]"
    for k in sorted(values):  # sheet order: a box's prerequisites are listed before it
        v = values[k]
        if not s._wonder_boxes(p, v) >> k & 1:
            raise FormatError(_why_not_box(s, p, k, v, where[k]))
        p.pending_wonders = [v]
        s._fill_box(p, k)
        p.pending_wonders = []


def _why_not_box(s: RollBuilderState, p: PlayerSheet, k: int, v: int, where: str) -> str:
    """Why box ``k`` may not take value ``v`` now (``_wonder_boxes`` said no)."""
    sheet = s.game.sheet  # type: ignore[attr-defined]
    b = sheet.boxes[k]
    for r in b.requires:
        if not p.filled >> r & 1:
            return f"wonder: box {b.id} needs {sheet.boxes[r].id} filled"
    if not p.unlocked >> k & 1:
        return (f"{where}: box {b.id} is locked and nothing drawn unlocks it (a marked U:{b.id} "
                "space, a discovered innovation or a road milestone)")
    high = max(p.box_values[r] for r in b.requires)
    return (f"{where}: value {v} is below {high}, a value of a box {b.id} requires "
            f"({sheet.wonder_name} is ascending: values never go down)")


def _start(data: Any) -> tuple[RollBuilderState, PlayerSheet]:
    """Check the file's ``game``, its keys and its ``sheet``; a fresh one-player state on that
    sheet and its player. Raises FormatError."""
    if not isinstance(data, dict):
        raise FormatError(N_("file: expected a JSON object"))
    g = data.get("game", "roll-builder")
    if g != "roll-builder":
        raise FormatError(N_("game: expected 'roll-builder', got {g!r}", g=g))
    for k in data:
        if k not in FIELDS:
            allowed = ", ".join(sorted(FIELDS))
            if re.fullmatch(r"[A-Za-z0-9_]{1,40}", k):
                raise FormatError(N_("{k}: unknown field; allowed: {allowed}",
                                     k=k, allowed=allowed))
            raise FormatError(N_("file: unknown field {k!r}; allowed: {allowed}",
                                 k=k[:40], allowed=allowed))
    s = _rules_for(data.get("sheet")).new_initial_state(1, 0)
    return s, s.players[0]


def _replay(s: RollBuilderState, p: PlayerSheet, data: Mapping[str, Any]) -> int:
    """Draw the file on ``p``'s sheet in the replay order (module docstring); the number of
    roads drawn. Raises FormatError at the first problem (what came before stays drawn)."""
    _innovations(s, p, data)
    drawn = _roads(s, p, data)
    _marks(s, p, data)
    _buildings(s, p, data)
    _wonder(s, p, data)
    return drawn


def replay_position(data: Any) -> tuple[RollBuilderState | None, str | None]:
    """The sheet of a score file drawn as far as it is valid, for the score calculator page:
    ``(state, None)`` when the whole file replays, ``(state, message)`` with the first
    problem's FormatError message (the state holds what was drawn before it), or
    ``(None, message)`` when not even the sheet can be set up."""
    try:
        s, p = _start(data)
    except FormatError as exc:
        return None, str(exc)
    try:
        _replay(s, p, data)
    except FormatError as exc:
        return s, str(exc)
    return s, None


def score_file(data: Any) -> RollBuilderScore:
    """Score a sheet-state file (format in docs/formats.md, "Roll Builder sheet state").

    Replays the drawing with the engine's checks (module docstring): roads on usable sides, open
    (river sides and ridges need their innovation) and joined to the network; marks on connected
    spaces with something to collect; buildings where their placement rule allows; wonder boxes
    unlocked, with their prerequisites and the wonder's ordering rule; track and storage limits.
    Raises FormatError (one line starting with the field) on any problem.
    """
    s, p = _start(data)
    drawn = _replay(s, p, data)
    sheet = s.game.sheet  # type: ignore[attr-defined]
    fav = _int(data, "favor_crossed", 0, len(sheet.tracks[0]) - 1)
    stg = _int(data, "strength_crossed", 0, len(sheet.tracks[1]) - 1)
    wealth = _int(data, "wealth_stored", 0, sheet.wealth_storage)
    parts = score_sheet(sheet, p.connected, p.building_marks, p.discovered, wealth, fav, stg, p.filled,
                        p.full_hexagon_uses)
    details = {"roads_drawn": drawn, "connected_spaces": p.connected.bit_count(),
               "full_hexagons": p.full_hexagon_uses, "building_marks": sum(p.building_marks)}
    return RollBuilderScore(sheet.name, parts, details)


def score_file_text(text: str) -> RollBuilderScore:
    """Parse JSON text and score it; FormatError on bad JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(N_("file: not valid JSON (line {lineno}: {msg})",
                             lineno=exc.lineno, msg=json_reason(exc))) from None
    return score_file(data)
