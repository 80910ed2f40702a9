"""Roll Builder score calculator: the sheet-state file format (docs/formats.md, "Sheet state").

A score file describes a finished sheet (roads drawn, buildings, marks, innovations, wonder boxes,
tracks, stored wealth); :func:`score_file` checks it and scores it with scoring.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from citybuilders.core.errors import FormatError
from citybuilders.core.game import ScoreResult

from .loader import compile_sheet, load_shipped_sheet, shipped_sheet_names
from .scoring import CATEGORIES, score_sheet

__all__ = ["RollBuilderScore", "score_file", "score_file_text"]


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
        for k in CATEGORIES:
            lines.append(f"  {k:<12}{self.parts[k]:>4}")
        lines.append(f"  {'total':<12}{self.total:>4}")
        return "\n".join(lines)


def _int(d: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key, 0)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise FormatError(f"{key}: expected an integer {lo}-{hi}, got {v!r}")
    return v


def score_file(data: Any) -> RollBuilderScore:
    """Score a sheet-state file (format in docs/formats.md, "Roll Builder sheet state").

    Checks the drawing (roads on usable sides and joined to the starting roads, buildings on
    connected land, wonder prerequisites, track and storage limits) and raises FormatError naming
    the field on any problem.
    """
    if not isinstance(data, dict):
        raise FormatError("file: expected a JSON object")
    g = data.get("game", "roll-builder")
    if g != "roll-builder":
        raise FormatError(f"game: expected 'roll-builder', got {g!r}")
    known = {"game", "sheet", "roads", "buildings", "marks", "innovations", "wonder",
             "favor_crossed", "strength_crossed", "wealth_stored", "format"}
    for k in data:
        if k not in known:
            raise FormatError(f"{k}: unknown field; allowed: {', '.join(sorted(known))}")
    sh_spec = data.get("sheet")
    if isinstance(sh_spec, str):
        if sh_spec not in shipped_sheet_names():
            raise FormatError(f"sheet: unknown sheet {sh_spec!r}; allowed: "
                              f"{', '.join(shipped_sheet_names())} or an inline sheet object")
        sheet = load_shipped_sheet(sh_spec)
    elif isinstance(sh_spec, dict):
        try:
            sheet = compile_sheet(sh_spec)
        except FormatError as exc:
            raise FormatError(f"sheet.{exc}") from None
    else:
        raise FormatError("sheet: missing; give a shipped sheet name "
                          f"({', '.join(shipped_sheet_names())}) or an inline sheet object")
    roads = sheet.start_roads
    raw = data.get("roads", [])
    if not isinstance(raw, list):
        raise FormatError("roads: expected a list of 'row,col,SIDE' edges")
    added: list[tuple[int, int]] = []
    for i, e in enumerate(raw):
        try:
            eid = sheet.edge_of(e)
        except ValueError as exc:
            raise FormatError(f"roads[{i}]: {exc}") from None
        if not sheet.usable_edges >> eid & 1:
            raise FormatError(f"roads[{i}]: {sheet.edge_name[eid]} is not a usable road side "
                              "(cut by the border or closed to roads)")
        if roads >> eid & 1:
            raise FormatError(f"roads[{i}]: {sheet.edge_name[eid]} holds a road already")
        roads |= 1 << eid
        added.append((i, eid))
    # network check: every road joined to the starting roads
    corners = 0
    for e in range(sheet.n_edges):
        if sheet.start_roads >> e & 1:
            a, b = sheet.edge_corners[e]
            corners |= 1 << a | 1 << b
    pending = [eid for _, eid in added]
    changed = True
    while changed and pending:
        changed = False
        rest = []
        for eid in pending:
            a, b = sheet.edge_corners[eid]
            if corners >> a & 1 or corners >> b & 1:
                corners |= 1 << a | 1 << b
                changed = True
            else:
                rest.append(eid)
        pending = rest
    if pending:
        raise FormatError(f"roads: {sheet.edge_name[pending[0]]} is not joined to the road network")
    connected = 0
    for c in range(sheet.n_corners):
        if corners >> c & 1:
            connected |= sheet.corner_spaces[c]
    # buildings
    bcount = [0] * 7
    per_space: dict[int, list[int]] = {}
    rb = data.get("buildings", [])
    if not isinstance(rb, list):
        raise FormatError("buildings: expected a list of ['row,col', number]")
    for i, item in enumerate(rb):
        if not (isinstance(item, list) and len(item) == 2):
            raise FormatError(f"buildings[{i}]: expected ['row,col', number], got {item!r}")
        try:
            s = sheet.space_of(item[0])
        except ValueError as exc:
            raise FormatError(f"buildings[{i}]: {exc}") from None
        n = item[1]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 6:
            raise FormatError(f"buildings[{i}]: building number must be 1-6, got {n!r}")
        if not sheet.land_mask >> s & 1:
            raise FormatError(f"buildings[{i}]: {sheet.space_name(s)} is not a land space "
                              f"({sheet.terrain[s]})")
        if not connected >> s & 1:
            raise FormatError(f"buildings[{i}]: {sheet.space_name(s)} is not connected to a road")
        here = per_space.setdefault(s, [])
        here.append(n)
        if len(here) > 2 or (len(here) == 2 and not any(
                sheet.buildings[x - 1].shares_space for x in here)):
            raise FormatError(f"buildings[{i}]: {sheet.space_name(s)} already holds a building")
        bcount[n] += 1
    marks = data.get("marks", [])
    if not isinstance(marks, list):
        raise FormatError("marks: expected a list of 'row,col'")
    for i, m in enumerate(marks):
        try:
            s = sheet.space_of(m)
        except ValueError as exc:
            raise FormatError(f"marks[{i}]: {exc}") from None
        if not connected >> s & 1:
            raise FormatError(f"marks[{i}]: {sheet.space_name(s)} is not connected to a road")
    disc = 0
    ri = data.get("innovations", [])
    if not isinstance(ri, list):
        raise FormatError("innovations: expected a list of discovered innovation ids")
    for i, iid in enumerate(ri):
        if not isinstance(iid, str) or iid not in sheet.innovation_index:
            raise FormatError(f"innovations[{i}]: unknown innovation {iid!r}; allowed: "
                              f"{', '.join(sheet.innovation_index)}")
        disc |= 1 << sheet.innovation_index[iid]
    filled = 0
    rw = data.get("wonder", [])
    ids = list(rw) if isinstance(rw, (list, dict)) else None
    if ids is None:
        raise FormatError("wonder: expected a list of filled box ids (or {box: value})")
    for i, bid in enumerate(ids):
        if not isinstance(bid, str) or bid not in sheet.box_index:
            raise FormatError(f"wonder[{i}]: unknown box {bid!r}; allowed: "
                              f"{', '.join(sheet.box_index)}")
        if isinstance(rw, dict):
            value = rw[bid]
            allowed = sorted(sheet.boxes[sheet.box_index[bid]].values) or list(range(1, 7))
            if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
                raise FormatError(f"wonder.{bid}: bad die value {value!r}; allowed: "
                                  f"{', '.join(map(str, allowed))}")
        filled |= 1 << sheet.box_index[bid]
    for i, b in enumerate(sheet.boxes):
        if filled >> i & 1:
            for r in b.requires:
                if not filled >> r & 1:
                    raise FormatError(f"wonder: box {b.id} needs {sheet.boxes[r].id} filled")
    fav = _int(data, "favor_crossed", 0, len(sheet.tracks[0]) - 1)
    stg = _int(data, "strength_crossed", 0, len(sheet.tracks[1]) - 1)
    wealth = _int(data, "wealth_stored", 0, sheet.wealth_storage)
    full = 0
    for s in range(sheet.n_spaces):
        if all(roads >> e & 1 for e in sheet.space_edges[s]):
            full += 1
    hexes = min(full, sheet.hex_max)
    parts = score_sheet(sheet, connected, bcount, disc, wealth, fav, stg, filled, hexes)
    details = {"roads_drawn": len(added), "connected_spaces": connected.bit_count(),
               "full_hexagons": hexes, "building_marks": sum(bcount)}
    return RollBuilderScore(sheet.name, parts, details)


def score_file_text(text: str) -> RollBuilderScore:
    """Parse JSON text and score it; FormatError on bad JSON."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"file: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return score_file(data)
