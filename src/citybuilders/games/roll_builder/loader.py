"""Roll Builder city sheets as data: the JSON sheet format, its validation and the shipped sheets.

A sheet document (format ``roll-builder-sheet/1``, documented in docs/formats.md) describes one
city: the hex map in a token grammar, starting roads, river edges, road restrictions, the six
buildings, the innovations, the wonder, the favor/strength tracks, wealth storage, the special
ability and the road abilities. :func:`compile_sheet` validates it and returns a :class:`Sheet`
with every table the engine needs (bitsets over spaces, corners and edges; the hex geometry is
built by :mod:`.rules.geometry`).

Sources of a sheet: a shipped id (:func:`load_shipped_sheet`, package data) or a document given
by the caller (:func:`sheet_from_document`, the ``sheet_doc`` option: size-capped, validated).
The engine never opens a path; :func:`read_sheet_document` is the command line's helper that
reads a user file (regular files only, size-capped before reading).

Errors: every problem raises :class:`~citybuilders.core.errors.FormatError` with one line
``<field>: <problem>; allowed: ...``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from citybuilders.core.errors import FormatError
from citybuilders.core.files import loads_json, read_json_file
from citybuilders.core.jsonsafe import text_problem
from citybuilders.core.names import check_name

from .rules.geometry import SIDES, build_geometry, parse_edge, parse_space
from ...core.i18n import N_, message_of

__all__ = [
    "FORMAT",
    "SIDES",
    "RESOURCES",
    "FOOD", "SUPPLIES", "WEALTH", "FAVOR", "STRENGTH", "INNOVATION_BONUS",
    "MAX_SHEET_BYTES",
    "Sheet",
    "Building",
    "Innovation",
    "Box",
    "compile_sheet",
    "shipped_sheet_names",
    "load_shipped_sheet",
    "sheet_from_document",
    "check_sheet_document",
    "read_sheet_document",
    "parse_space",
    "parse_edge",
]

FORMAT = "roll-builder-sheet/1"
RESOURCES: tuple[str, ...] = ("food", "supplies", "wealth", "favor", "strength")
"""Resource kinds in index order (gains are 5-tuples in this order)."""
FOOD, SUPPLIES, WEALTH, FAVOR, STRENGTH = range(5)
"""Resource kind indices (order :data:`RESOURCES`)."""
INNOVATION_BONUS = 5
"""Circle kind of an innovation circle payable only with an innovation bonus (``IB``)."""
RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}
RES_ABBR = ("Fo", "Su", "We", "Fa", "St")
"""Map-token icons of the resources (order :data:`RESOURCES`); names and legend in texts.py."""
_ICON_RES = {a: i for i, a in enumerate(RES_ABBR)}
TERRAINS = {"L": "land", "M": "mountain", "W": "water", "T": "town", "P": "partial"}
ROAD_RESTRICTIONS = ("water", "river", "ridge")
EFFECT_TYPES = (
    "roads_allowed_on_river_edges",
    "roads_allowed_on_ridges",
    "extra_roads_on_first_road_action_each_turn",
    "on_mark_space_adjacent_to_water_space",
    "on_mark_mountain_space",
    "on_build_action",
    "on_wonder_box_filled",
    "unlock_wonder_boxes",
    "end_bonus_points_per_building",
    "points_only",
    "road_toll",
    "convert_stored_wealth",
)
SPECIAL_EFFECTS = (
    "on_mark_space_adjacent_to_water_space",
    "on_mark_mountain_space",
    "on_build_action",
    "on_wonder_box_filled",
    "road_toll",
    "convert_stored_wealth",
    "extra_roads_on_first_road_action_each_turn",
    "points_only",
)


def _err(where: str, problem: str) -> FormatError:
    """``FormatError("where: problem")``; ``problem`` may be an ``N_`` message (translated
    where the error is shown)."""
    return FormatError(N_("{where}: {problem}", where=where, problem=problem))


# ----------------------------------------------------------------------------- compiled types
@dataclass(frozen=True)
class Building:
    """One of the sheet's six buildings (Build with die N builds building N; digest §4.1 rule 3).

    ``gain``: resource counts (length 5, order :data:`RESOURCES`); ``extra_if``: None,
    ``"adjacent_to_water"`` or ``"on_or_adjacent_to_mountain"`` with ``extra_gain``;
    ``extra_roads``: roads added to each later Road action this turn; ``bonus_action``: None,
    ``"build"`` or ``"wonder"``; ``placement``: ``"any"`` or ``"adjacent_to_water_or_river"``;
    ``shares_space``: may be written on a space holding exactly one other building mark;
    ``marks``: 1 or 2 (2 = written on two adjacent spaces).
    """

    number: int
    name: str
    gain: tuple[int, ...]
    extra_if: str | None = None
    extra_gain: tuple[int, ...] = (0, 0, 0, 0, 0)
    extra_roads: int = 0
    bonus_action: str | None = None
    innovation_bonus: int = 0
    placement: str = "any"
    shares_space: bool = False
    marks: int = 1


@dataclass(frozen=True)
class Innovation:
    """An innovation: cost circles (resource index 0-4, or 5 = innovation-bonus circle), points,
    effects (dicts of the effect vocabulary). ``first_circle`` is its first global circle index."""

    id: str
    name: str
    cost: tuple[int, ...]
    points: int
    effects: tuple[dict[str, Any], ...]
    first_circle: int


@dataclass(frozen=True)
class Box:
    """A wonder box: prerequisites (box indices), allowed die values, rewards, lock state."""

    id: str
    requires: tuple[int, ...]
    values: frozenset[int]
    gain: tuple[int, ...]
    bonus_action: str | None
    innovation_bonus: int
    bonus_points: int
    locked: bool
    wing: str | None


@dataclass
class Sheet:
    """A validated, compiled city sheet (see the module docstring). Built by :func:`compile_sheet`."""

    id: str
    name: str
    theme: str
    data: dict[str, Any]
    rows: int
    cols: int
    # spaces
    terrain: list[str] = field(default_factory=list)  # per space: land/mountain/water/town/partial
    icons: list[str] = field(default_factory=list)  # per space: the token text after the terrain
    space_res: list[tuple[int, ...]] = field(default_factory=list)
    space_points: list[int] = field(default_factory=list)
    space_bonus: list[tuple[str, ...]] = field(default_factory=list)  # "build"/"wonder" per icon
    space_ib: list[int] = field(default_factory=list)
    space_unlock: list[tuple[int, ...]] = field(default_factory=list)
    neighbors: list[tuple[int, ...]] = field(default_factory=list)
    space_edges: list[tuple[int, ...]] = field(default_factory=list)  # 6 edge ids, order SIDES
    space_corners: list[tuple[int, ...]] = field(default_factory=list)
    # corners / edges
    n_corners: int = 0
    n_edges: int = 0
    corner_xy: list[tuple[int, int]] = field(default_factory=list)
    corner_spaces: list[int] = field(default_factory=list)  # bitset of spaces at the corner
    corner_edges: list[int] = field(default_factory=list)  # bitset of edges ending there
    edge_corners: list[tuple[int, int]] = field(default_factory=list)
    edge_spaces: list[tuple[int, ...]] = field(default_factory=list)
    edge_name: list[str] = field(default_factory=list)
    edge_lookup: dict[tuple[int, int, str], int] = field(default_factory=dict)
    # masks
    land_mask: int = 0  # buildable: land or mountain, not partial
    water_mask: int = 0
    mountain_mask: int = 0
    markable_mask: int = 0  # not water, not town
    usable_edges: int = 0  # not cut by the border and not permanently blocked
    river_edges: int = 0
    river_block: int = 0  # river edges closed until roads_allowed_on_river_edges
    ridge_edges: int = 0  # edges between two mountains, closed until roads_allowed_on_ridges
    restrictions: tuple[str, ...] = ()
    toll_edges: int = 0  # river edges and sides of water spaces
    water_adjacent: int = 0  # spaces next to a water space
    mountain_near: int = 0  # spaces on or next to a mountain
    dock_ok: int = 0  # next to water or with a river side
    start_roads: int = 0
    # content
    buildings: tuple[Building, ...] = ()
    innovations: tuple[Innovation, ...] = ()
    circles: tuple[tuple[int, int], ...] = ()  # global circle -> (innovation index, kind)
    boxes: tuple[Box, ...] = ()
    ascending: bool = False
    wonder_name: str = ""
    wonder_rule: str = ""
    wonder_text: str = ""
    wing_bonus: int = 0
    wings: dict[str, int] = field(default_factory=dict)  # wing -> bitset of boxes
    tracks: tuple[tuple[int, ...], tuple[int, ...]] = ((0,), (0,))
    wealth_storage: int = 0
    special_name: str = ""
    special_text: str = ""
    specials: tuple[dict[str, Any], ...] = ()
    hex_gain: tuple[int, ...] = (0, 0, 0, 0, 0)
    hex_points: int = 0
    hex_max: int = 0
    milestones: tuple[tuple[int, dict[str, Any]], ...] = ()
    box_index: dict[str, int] = field(default_factory=dict)
    innovation_index: dict[str, int] = field(default_factory=dict)

    @property
    def n_spaces(self) -> int:
        """Number of spaces (rows * cols)."""
        return self.rows * self.cols

    def space_name(self, s: int) -> str:
        """Notation ``row,col`` of space index ``s``."""
        return f"{s // self.cols},{s % self.cols}"

    def space_of(self, text: str) -> int:
        """Space index of ``row,col`` text. Raises ValueError."""
        r, c = parse_space(text)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(N_("space {text!r} is off the {rows}x{cols} map", text=text,
                                rows=self.rows, cols=self.cols))
        return r * self.cols + c

    def edge_of(self, text: str) -> int:
        """Edge id of ``row,col,SIDE`` text (any of the two spaces may name it). Raises ValueError."""
        r, c, side = parse_edge(text)
        key = (r, c, side)
        if key not in self.edge_lookup:
            raise ValueError(N_("edge {text!r} is not a side of a space on the map", text=text))
        return self.edge_lookup[key]


# ----------------------------------------------------------------------------- validation helpers
def _get(d: Mapping[str, Any], key: str, where: str, kind: type | tuple[type, ...],
         default: Any = ..., ) -> Any:
    if key not in d:
        if default is ...:
            raise _err(f"{where}.{key}" if where else key, N_("missing"))
        return default
    v = d[key]
    ok = isinstance(v, kind) and not (isinstance(v, bool) and kind in (int, (int,)))
    if not ok:
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise _err(f"{where}.{key}" if where else key, N_("expected {names}, got {v!r}",
                                                          names=names, v=v))
    return v


def _gain(v: Any, where: str) -> tuple[int, ...]:
    if v is None:
        return (0, 0, 0, 0, 0)
    if not isinstance(v, dict):
        raise _err(where, N_("expected an object of resource counts, got {v!r}", v=v))
    out = [0] * 5
    for k, n in v.items():
        if k not in RES_INDEX:
            raise _err(where, N_("unknown resource {k!r}; allowed: {allowed}",
                                 k=k, allowed=', '.join(RESOURCES)))
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 9:
            raise _err(f"{where}.{k}", N_("expected an integer 0-9, got {n!r}", n=n))
        out[RES_INDEX[k]] = n
    return tuple(out)


def _parse_token(tok: str, where: str, box_ids: set[str]) -> tuple[str, list[str]]:
    parts = tok.split("+")
    ter = parts[0]
    if ter not in TERRAINS:
        raise _err(where, N_("unknown terrain {ter!r} in {tok!r}; allowed: {allowed}",
                             ter=ter, tok=tok, allowed=', '.join(TERRAINS)))
    icons = parts[1:]
    for ic in icons:
        if ic in _ICON_RES or ic in ("BB", "BW", "IB"):
            continue
        if re.fullmatch(r"[1-9]vp", ic):
            continue
        if ic.startswith("U:") and ic[2:] in box_ids:
            continue
        if ic.startswith("U:"):
            raise _err(where, N_("{tok!r} unlocks unknown wonder box {ic!r}; allowed: {allowed}",
                                 tok=tok, ic=ic[2:], allowed=', '.join(sorted(box_ids))))
        raise _err(where, N_("unknown icon {ic!r} in {tok!r}; allowed: Fo Su We Fa St <n>vp BB "
                             "BW IB U:<box>", ic=ic, tok=tok))
    if ter in ("W", "T") and icons:
        raise _err(where, N_("{tok!r}: water and town spaces carry no icons", tok=tok))
    return TERRAINS[ter], icons


def _effects(v: Any, where: str, allowed: tuple[str, ...], box_ids: set[str]) -> tuple[dict, ...]:
    if not isinstance(v, list):
        raise _err(where, N_("expected a list of effects, got {v!r}", v=v))
    out = []
    for i, e in enumerate(v):
        w = f"{where}[{i}]"
        if not isinstance(e, dict) or "type" not in e:
            raise _err(w, N_("expected an object with a 'type'"))
        t = e["type"]
        if t not in allowed:
            raise _err(f"{w}.type", N_("unknown effect {t!r}; allowed: {allowed}",
                                       t=t, allowed=', '.join(allowed)))
        e = dict(e)
        if t in ("on_mark_space_adjacent_to_water_space", "on_mark_mountain_space", "on_build_action",
                 "on_wonder_box_filled", "road_toll"):
            e["gain"] = _gain(e.get("gain"), f"{w}.gain")
        if t == "road_toll":
            if e.get("edges", "river_or_water") != "river_or_water":
                raise _err(f"{w}.edges", N_("allowed: river_or_water"))
        if t == "extra_roads_on_first_road_action_each_turn":
            a = e.get("amount", 1)
            if isinstance(a, bool) or not isinstance(a, int) or not 1 <= a <= 6:
                raise _err(f"{w}.amount", N_("expected an integer 1-6, got {a!r}", a=a))
            e["amount"] = a
        if t == "unlock_wonder_boxes":
            bx = e.get("boxes")
            if not isinstance(bx, list) or not bx or any(b not in box_ids for b in bx):
                raise _err(f"{w}.boxes", N_("expected a list of wonder box ids from {allowed}, "
                                            "got {bx!r}",
                                            allowed=', '.join(sorted(box_ids)), bx=bx))
        if t == "end_bonus_points_per_building":
            b, p = e.get("building"), e.get("points", 1)
            if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= 6:
                raise _err(f"{w}.building", N_("expected a building number 1-6, got {b!r}", b=b))
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 9:
                raise _err(f"{w}.points", N_("expected an integer 0-9, got {p!r}", p=p))
        if t == "convert_stored_wealth":
            c = e.get("cost", 2)
            ch = e.get("choices", ["favor", "strength"])
            if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= 9:
                raise _err(f"{w}.cost", N_("expected an integer 1-9, got {c!r}", c=c))
            if not isinstance(ch, list) or not ch or any(x not in ("favor", "strength") for x in ch):
                raise _err(f"{w}.choices", N_("expected a list of: favor, strength"))
            e["cost"], e["choices"] = c, ch
        out.append(e)
    return tuple(out)


# ----------------------------------------------------------------------------- compile
def compile_sheet(data: Any, where: str = "sheet") -> Sheet:
    """Validate sheet data (a parsed JSON object) and build the :class:`Sheet`.

    Raises FormatError naming the first bad field (e.g. ``sheet.map[3]: row has 10 spaces,
    expected 11``).
    """
    if not isinstance(data, dict):
        raise _err(where, N_("expected a JSON object"))
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise _err("format", N_("unknown format {fmt!r}; allowed: {FORMAT}",
                                fmt=fmt, FORMAT=FORMAT))
    sid = _get(data, "id", "", str)
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", sid):
        raise _err("id", N_("{sid!r}: use lower-case letters, digits, - and _", sid=sid))
    name = str(check_name(_get(data, "name", "", str), "name", limit=SHEET_NAME_MAX))
    theme = _get(data, "theme", "", str, "")
    # ---- wonder first (box ids are needed by the map icons)
    wonder = _get(data, "wonder", "", dict)
    raw_boxes = _get(wonder, "boxes", "wonder", list)
    if not raw_boxes or len(raw_boxes) > 20:
        raise _err("wonder.boxes", N_("expected 1 to 20 boxes"))
    box_ids: list[str] = []
    for i, b in enumerate(raw_boxes):
        if not isinstance(b, dict):
            raise _err(f"wonder.boxes[{i}]", N_("expected an object"))
        bid = _get(b, "id", f"wonder.boxes[{i}]", str)
        if bid in box_ids:
            raise _err(f"wonder.boxes[{i}].id", N_("duplicate box id {bid!r}", bid=bid))
        box_ids.append(bid)
    box_set = set(box_ids)
    # ---- map
    rows_txt = _get(data, "map", "", list)
    if not 2 <= len(rows_txt) <= 20:
        raise _err("map", N_("expected 2 to 20 rows, got {count}", count=len(rows_txt)))
    grid: list[list[str]] = []
    for r, row in enumerate(rows_txt):
        if not isinstance(row, str):
            raise _err(f"map[{r}]", N_("expected a string of space tokens, got {row!r}", row=row))
        grid.append(row.split())
    cols = len(grid[0])
    if not 2 <= cols <= 20:
        raise _err("map[0]", N_("expected 2 to 20 spaces, got {cols}", cols=cols))
    for r, toks in enumerate(grid):
        if len(toks) != cols:
            raise _err(f"map[{r}]", N_("row has {count} spaces, expected {cols} like row 0",
                                       count=len(toks), cols=cols))
    rows = len(grid)
    sh = Sheet(id=sid, name=name, theme=theme, data=dict(data), rows=rows, cols=cols)
    n = rows * cols
    for r in range(rows):
        for c in range(cols):
            ter, icons = _parse_token(grid[r][c], f"map[{r}] space {r},{c}", box_set)
            res = [0] * 5
            pts = 0
            bonus: list[str] = []
            ib = 0
            unl: list[int] = []
            for ic in icons:
                if ic in _ICON_RES:
                    res[_ICON_RES[ic]] += 1
                elif ic.endswith("vp"):
                    pts += int(ic[:-2])
                elif ic == "BB":
                    bonus.append("build")
                elif ic == "BW":
                    bonus.append("wonder")
                elif ic == "IB":
                    ib += 1
                else:
                    unl.append(box_ids.index(ic[2:]))
            sh.terrain.append(ter)
            sh.icons.append("+".join(icons))
            sh.space_res.append(tuple(res))
            sh.space_points.append(pts)
            sh.space_bonus.append(tuple(bonus))
            sh.space_ib.append(ib)
            sh.space_unlock.append(tuple(unl))
    if sum(t == "town" for t in sh.terrain) > 1:
        raise _err("map", N_("at most one town centre (T)"))
    build_geometry(sh)
    for s in range(n):
        bit = 1 << s
        t = sh.terrain[s]
        if t in ("land", "mountain"):
            sh.land_mask |= bit
        if t == "water":
            sh.water_mask |= bit
        if t == "mountain":
            sh.mountain_mask |= bit
        if t not in ("water", "town"):
            sh.markable_mask |= bit
    for s in range(n):
        nb = sh.neighbors[s]
        if any(sh.terrain[x] == "water" for x in nb):
            sh.water_adjacent |= 1 << s
        if sh.terrain[s] == "mountain" or any(sh.terrain[x] == "mountain" for x in nb):
            sh.mountain_near |= 1 << s
    # ---- roads
    def edge_list(key: str) -> int:
        raw = _get(data, key, "", list, [])
        mask = 0
        for i, e in enumerate(raw):
            try:
                mask |= 1 << sh.edge_of(e)
            except ValueError as exc:
                raise _err(f"{key}[{i}]", message_of(exc)) from None
        return mask

    sh.river_edges = edge_list("river_edges")
    blocked = edge_list("blocked_edges")
    restr = _get(data, "road_restrictions", "", list, [])
    for i, rr in enumerate(restr):
        if rr not in ROAD_RESTRICTIONS:
            raise _err(f"road_restrictions[{i}]", N_("unknown restriction {rr!r}; allowed: "
                                                     "{allowed}",
                                                     rr=rr, allowed=", ".join(ROAD_RESTRICTIONS)))
    border_ok = 0
    water_blocked = 0
    for e in range(sh.n_edges):
        sp = sh.edge_spaces[e]
        if any(sh.terrain[s] != "partial" for s in sp):
            border_ok |= 1 << e
        ters = [sh.terrain[s] for s in sp]
        if "water" in ters:
            other = [t for t in ters if t != "water"]
            # water-water, water-partial, water-outside
            if len(sp) == 1 or ters.count("water") == 2 or "partial" in other:
                water_blocked |= 1 << e
        if len(sp) == 2 and ters[0] == "mountain" and ters[1] == "mountain":
            sh.ridge_edges |= 1 << e
        if sh.river_edges >> e & 1 or "water" in ters:
            sh.toll_edges |= 1 << e
    usable = border_ok & ~blocked
    if "water" in restr:
        usable &= ~water_blocked
    sh.usable_edges = usable
    sh.restrictions = tuple(restr)
    sh.river_block = sh.river_edges if "river" in restr else 0
    if "ridge" not in restr:
        sh.ridge_edges = 0
    starts = edge_list("start_roads")
    if not starts:
        raise _err("start_roads", N_("at least one starting road is needed"))
    if starts & ~border_ok:
        raise _err("start_roads", N_("a starting road lies on a side cut by the map border"))
    sh.start_roads = starts
    for s in range(n):
        if any(sh.river_edges >> e & 1 for e in sh.space_edges[s]) or sh.water_adjacent >> s & 1:
            sh.dock_ok |= 1 << s
    # ---- buildings
    raw_b = _get(data, "buildings", "", list)
    if len(raw_b) != 6:
        raise _err("buildings", N_("expected exactly 6 buildings numbered 1-6, got {count}",
                                   count=len(raw_b)))
    blds: list[Building] = []
    for i, b in enumerate(raw_b):
        w = f"buildings[{i}]"
        if not isinstance(b, dict):
            raise _err(w, N_("expected an object"))
        num = _get(b, "number", w, int)
        if num != i + 1:
            raise _err(f"{w}.number", N_("expected {i} (buildings are listed 1 to 6), got {num}",
                                         i=i + 1, num=num))
        extra = b.get("extra_gain")
        extra_if, extra_gain = None, (0, 0, 0, 0, 0)
        if extra is not None:
            if not isinstance(extra, dict) or extra.get("if") not in ("adjacent_to_water",
                                                                      "on_or_adjacent_to_mountain"):
                raise _err(f"{w}.extra_gain.if", N_("allowed: adjacent_to_water, "
                                                    "on_or_adjacent_to_mountain"))
            extra_if = extra["if"]
            extra_gain = _gain(extra.get("gain"), f"{w}.extra_gain.gain")
        tt = b.get("this_turn", {})
        if not isinstance(tt, dict) or any(k != "extra_roads_per_road_action" for k in tt):
            raise _err(f"{w}.this_turn", N_("allowed key: extra_roads_per_road_action"))
        xr = tt.get("extra_roads_per_road_action", 0)
        if isinstance(xr, bool) or not isinstance(xr, int) or not 0 <= xr <= 6:
            raise _err(f"{w}.this_turn.extra_roads_per_road_action", N_("expected an integer 0-6"))
        ba = b.get("bonus_action")
        if ba not in (None, "build", "wonder"):
            raise _err(f"{w}.bonus_action", N_("bad value {ba!r}; allowed: build, wonder", ba=ba))
        pl = b.get("placement", "any")
        if pl not in ("any", "adjacent_to_water_or_river"):
            raise _err(f"{w}.placement", N_("bad value {pl!r}; allowed: any, "
                                            "adjacent_to_water_or_river", pl=pl))
        marks = b.get("marks", 1)
        if marks not in (1, 2) or isinstance(marks, bool):
            raise _err(f"{w}.marks", N_("bad value {marks!r}; allowed: 1, 2", marks=marks))
        shares = b.get("shares_space", False)
        if not isinstance(shares, bool):
            raise _err(f"{w}.shares_space", N_("expected true or false"))
        ibn = b.get("innovation_bonus", 0)
        if isinstance(ibn, bool) or not isinstance(ibn, int) or not 0 <= ibn <= 3:
            raise _err(f"{w}.innovation_bonus", N_("expected an integer 0-3"))
        blds.append(Building(num, _get(b, "name", w, str), _gain(b.get("gain"), f"{w}.gain"),
                             extra_if, extra_gain, xr, ba, ibn, pl, shares, marks))
    sh.buildings = tuple(blds)
    # ---- innovations
    raw_i = _get(data, "innovations", "", list)
    if not 1 <= len(raw_i) <= 8:
        raise _err("innovations", N_("expected 1 to 8 innovations"))
    inns: list[Innovation] = []
    circles: list[tuple[int, int]] = []
    for i, inn in enumerate(raw_i):
        w = f"innovations[{i}]"
        if not isinstance(inn, dict):
            raise _err(w, N_("expected an object"))
        iid = _get(inn, "id", w, str)
        if iid in sh.innovation_index:
            raise _err(f"{w}.id", N_("duplicate innovation id {iid!r}", iid=iid))
        cost_raw = _get(inn, "cost", w, list)
        if not 1 <= len(cost_raw) <= 10:
            raise _err(f"{w}.cost", N_("expected 1 to 10 cost circles"))
        cost = []
        for j, k in enumerate(cost_raw):
            if k == "innovation_bonus":
                cost.append(INNOVATION_BONUS)
            elif k in RES_INDEX:
                cost.append(RES_INDEX[k])
            else:
                raise _err(f"{w}.cost[{j}]", N_("unknown circle {k!r}; allowed: {allowed}, "
                                                "innovation_bonus",
                                                k=k, allowed=', '.join(RESOURCES)))
        pts = _get(inn, "points", w, int)
        effs = _effects(inn.get("effects", []), f"{w}.effects", EFFECT_TYPES, box_set)
        sh.innovation_index[iid] = i
        inns.append(Innovation(iid, _get(inn, "name", w, str), tuple(cost), pts, effs,
                               len(circles)))
        circles.extend((i, k) for k in cost)
    sh.innovations = tuple(inns)
    sh.circles = tuple(circles)
    # ---- wonder boxes
    sh.wonder_name = _get(wonder, "name", "wonder", str)
    sh.wonder_rule = _get(wonder, "rule", "wonder", str, "")
    sh.wonder_text = _get(wonder, "text", "wonder", str, "")
    sh.ascending = _get(wonder, "ascending", "wonder", bool, False)
    sh.wing_bonus = _get(wonder, "wing_completion_bonus_points", "wonder", int, 0)
    boxes: list[Box] = []
    for i, b in enumerate(raw_boxes):
        w = f"wonder.boxes[{i}]"
        req = _get(b, "requires", w, list, [])
        req_i = []
        for rq in req:
            if rq not in box_set or box_ids.index(rq) >= i:
                raise _err(f"{w}.requires", N_("{rq!r} must be a box listed before {box_ids!r}",
                                               rq=rq, box_ids=box_ids[i]))
            req_i.append(box_ids.index(rq))
        vals = b.get("values", [1, 2, 3, 4, 5, 6])
        if not isinstance(vals, list) or not vals or any(
                isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12 for v in vals):
            raise _err(f"{w}.values", N_("expected a list of die values 1-12"))
        mn = b.get("min_value", 1)
        if isinstance(mn, bool) or not isinstance(mn, int) or not 1 <= mn <= 12:
            raise _err(f"{w}.min_value", N_("expected an integer 1-12"))
        values = frozenset(v for v in vals if v >= mn)
        if not values:
            raise _err(f"{w}.values", N_("no die value is allowed"))
        ba = b.get("bonus_action")
        if ba not in (None, "build", "wonder"):
            raise _err(f"{w}.bonus_action", N_("bad value {ba!r}; allowed: build, wonder", ba=ba))
        ibn = b.get("innovation_bonus", 0)
        bp = b.get("bonus_points", 0)
        for key, v in (("innovation_bonus", ibn), ("bonus_points", bp)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20:
                raise _err(f"{w}.{key}", N_("expected an integer 0-20"))
        wing = b.get("wing")
        if wing is not None and not isinstance(wing, str):
            raise _err(f"{w}.wing", N_("expected a string"))
        locked = b.get("locked", False)
        if not isinstance(locked, bool):
            raise _err(f"{w}.locked", N_("expected true or false"))
        boxes.append(Box(box_ids[i], tuple(req_i), values, _gain(b.get("gain"), f"{w}.gain"), ba,
                         ibn, bp, locked, wing))
        if wing is not None:
            sh.wings[wing] = sh.wings.get(wing, 0) | 1 << i
    sh.boxes = tuple(boxes)
    sh.box_index = {b: i for i, b in enumerate(box_ids)}
    # ---- tracks, storage
    tracks = _get(data, "tracks", "", dict)
    tr = []
    for k in ("favor", "strength"):
        t = _get(tracks, k, "tracks", list)
        if not 2 <= len(t) <= 12 or any(isinstance(x, bool) or not isinstance(x, int) for x in t):
            raise _err(f"tracks.{k}", N_("expected 2 to 12 integer numbers (leftmost = score "
                                         "before any crossing)"))
        tr.append(tuple(t))
    sh.tracks = (tr[0], tr[1])
    ws = _get(data, "wealth_storage", "", int)
    if not 0 <= ws <= 30:
        raise _err("wealth_storage", N_("expected an integer 0-30 (number of wealth circles)"))
    sh.wealth_storage = ws
    # ---- special ability and road abilities
    sa = _get(data, "special_ability", "", dict, {})
    sh.special_name = _get(sa, "name", "special_ability", str, "") if sa else ""
    sh.special_text = _get(sa, "text", "special_ability", str, "") if sa else ""
    sh.specials = _effects(sa.get("effects", []), "special_ability.effects", SPECIAL_EFFECTS,
                           box_set) if sa else ()
    ra = _get(data, "road_abilities", "", dict, {})
    fh = _get(ra, "full_hexagon", "road_abilities", dict, {})
    sh.hex_gain = _gain(fh.get("gain"), "road_abilities.full_hexagon.gain")
    for key in ("bonus_points", "max_uses"):
        v = fh.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 20:
            raise _err(f"road_abilities.full_hexagon.{key}", N_("expected an integer 0-20"))
    sh.hex_points = fh.get("bonus_points", 0)
    sh.hex_max = fh.get("max_uses", 0)
    ms = _get(ra, "milestones", "road_abilities", list, [])
    mil = []
    for i, m in enumerate(ms):
        w = f"road_abilities.milestones[{i}]"
        if not isinstance(m, dict):
            raise _err(w, N_("expected an object"))
        cnt = _get(m, "roads", w, int)
        if cnt < 1:
            raise _err(f"{w}.roads", N_("expected a positive road count"))
        for k in m:
            if k not in ("roads", "gain", "unlock_wonder_boxes", "bonus_action"):
                raise _err(f"{w}.{k}", N_("unknown key; allowed: roads, gain, "
                                          "unlock_wonder_boxes, bonus_action"))
        rew: dict[str, Any] = {"gain": _gain(m.get("gain"), f"{w}.gain")}
        ub = m.get("unlock_wonder_boxes", [])
        if not isinstance(ub, list) or any(b not in box_set for b in ub):
            raise _err(f"{w}.unlock_wonder_boxes", N_("expected box ids from {allowed}",
                                                      allowed=', '.join(box_ids)))
        rew["unlock"] = tuple(box_ids.index(b) for b in ub)
        ba = m.get("bonus_action")
        if ba not in (None, "build", "wonder"):
            raise _err(f"{w}.bonus_action", N_("bad value {ba!r}; allowed: build, wonder", ba=ba))
        rew["bonus_action"] = ba
        mil.append((cnt, rew))
    sh.milestones = tuple(sorted(mil, key=lambda x: x[0]))
    # ---- locked boxes must be unlockable
    unlockers: set[int] = set()
    for s in range(n):
        unlockers.update(sh.space_unlock[s])
    for inn in sh.innovations:
        for e in inn.effects:
            if e["type"] == "unlock_wonder_boxes":
                unlockers.update(box_ids.index(b) for b in e["boxes"])
    for _, rew in sh.milestones:
        unlockers.update(rew["unlock"])
    for i, b in enumerate(sh.boxes):
        if b.locked and i not in unlockers:
            raise _err(f"wonder.boxes[{i}].locked", N_("box {id} is locked but nothing unlocks "
                                                       "it (use a U:<box> map icon, an "
                                                       "unlock_wonder_boxes effect or a "
                                                       "milestone)", id=b.id))
    return sh


# ----------------------------------------------------------------------------- loading
SHEET_NAME_MAX = 60
"""Longest sheet name (characters; one line, ``core.names.check_name``)."""
_SHIPPED = ("rivermouth", "highcrag", "goldplain")
_CACHE: dict[str, Sheet] = {}


def shipped_sheet_names() -> tuple[str, ...]:
    """Ids of the sheets shipped as package data (original proposed sheets, digest §4.3)."""
    return _SHIPPED


def load_shipped_sheet(name: str) -> Sheet:
    """The compiled shipped sheet ``name`` (cached). Raises FormatError for an unknown name."""
    if name not in _SHIPPED:
        raise FormatError(N_("sheet: unknown sheet {name!r}; allowed: {allowed}",
                             name=name, allowed=', '.join(_SHIPPED)))
    if name not in _CACHE:
        text = resources.files("citybuilders.games.roll_builder").joinpath(
            f"data/{name}.json").read_text(encoding="utf-8")
        _CACHE[name] = compile_sheet(json.loads(text))
    return _CACHE[name]


MAX_SHEET_BYTES = 64 * 1024
"""Largest sheet document accepted (bytes of its compact JSON text; shipped sheets are ~5 KiB)."""
_DOC_CACHE: dict[str, Sheet] = {}


def check_sheet_document(doc: Any, where: str = "sheet_doc") -> dict[str, Any]:
    """Check that ``doc`` is a JSON object of at most :data:`MAX_SHEET_BYTES` (compact JSON) and a
    valid sheet; return an independent copy (a parsed-JSON dict). The counts inside are bounded by
    :func:`compile_sheet` (2-20 rows/columns, 1-8 innovations, 1-20 boxes...).

    A string is taken as the document's JSON text (the web form's and ``-o sheet_doc=...``'s
    spelling), capped at the same size before it is parsed.

    Raises FormatError ``<where>: ...`` / ``<where>.<field>: ...`` (one line)."""
    if isinstance(doc, str):
        doc = loads_json(doc, lambda problem: _err(where, problem), MAX_SHEET_BYTES)
    if not isinstance(doc, dict):
        raise _err(where, N_("expected a sheet document (a JSON object), got {name__}",
                             name__=type(doc).__name__))
    problem = text_problem(doc, where)
    if problem is not None:
        raise FormatError(problem)
    try:
        text = json.dumps(doc, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    except RecursionError:
        raise _err(where, N_("nested too deeply")) from None
    except (TypeError, ValueError) as exc:
        raise _err(where, N_("not JSON data ({split})", split=str(exc).split(';')[0])) from None
    size = len(text.encode("utf-8"))
    if size > MAX_SHEET_BYTES:
        raise _err(where, N_("{size} bytes; allowed: at most {MAX_SHEET_BYTES} bytes",
                             size=size, MAX_SHEET_BYTES=MAX_SHEET_BYTES))
    copy = json.loads(text)
    _compiled(copy, text, where)
    return copy


def sheet_from_document(doc: Any, where: str = "sheet_doc") -> Sheet:
    """The compiled sheet of a sheet document, checked as :func:`check_sheet_document` does
    (cached per document text, at most 32 kept).

    Raises FormatError naming the field (``<where>.<field>: ...``)."""
    copy = check_sheet_document(doc, where)
    return _compiled(copy, json.dumps(copy, separators=(",", ":"), ensure_ascii=False), where)


def _compiled(doc: dict[str, Any], text: str, where: str) -> Sheet:
    sh = _DOC_CACHE.get(text)
    if sh is None:
        try:
            sh = compile_sheet(doc)
        except FormatError as exc:
            raise FormatError(N_("{where}.{exc}", where=where, exc=exc)) from None
        if len(_DOC_CACHE) >= 32:
            _DOC_CACHE.clear()
        _DOC_CACHE[text] = sh
    return sh


def read_sheet_document(path: str | Path, where: str = "sheet_file") -> dict[str, Any]:
    """Read a user sheet file for the command line (the engine never opens files): a regular file
    of at most :data:`MAX_SHEET_BYTES` (checked before reading: no FIFO, device or directory),
    UTF-8 JSON. Returns the parsed document (not yet validated as a sheet).

    Raises FormatError ``<where>: <path>: <problem>`` (one line)."""
    return read_json_file(path, MAX_SHEET_BYTES, where)


