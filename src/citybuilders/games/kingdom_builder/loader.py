"""Kingdom Builder data: the board sections of data/sections.json, loaded and validated, and a
user's own sections document (custom sections for "what if" studies).

Terrain ids (rules digest §1): 0..4 are the buildable terrains and the terrain-card kinds
(grass, canyon, desert, flower field, forest), then water, mountain, castle and location. The
file's one-letter codes are :data:`TERRAIN_CODES`. Every error is a one-line FormatError naming
the section and the problem (and the hex, ``row R col C`` of the section, when there is one).

A custom sections document has the shape of data/sections.json (``{"sections": [...]}``) and is
passed as the ``sections_doc`` option (the parsed JSON object, or its text): the engine never
opens a file (the command line reads ``-o sections_file=PATH`` with
:func:`read_sections_document`). :func:`custom_sections` validates it like the shipped sections
and more strictly: ids are new (not a shipped id), lower-case ``[a-z0-9_]``; the expansion is
``base`` (custom sections are played with the base rules); location kinds are base kinds;
``terrain_counts`` is optional (checked when given).
"""

from __future__ import annotations

from ...core.i18n import N_, json_reason, message_of

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Mapping

from citybuilders.core.errors import FormatError
from citybuilders.core.files import loads_json, read_json_file
from citybuilders.core.jsonsafe import text_problem
from citybuilders.core.names import check_name

__all__ = [
    "TERRAINS",
    "CARD_TERRAINS",
    "GRASS",
    "CANYON",
    "DESERT",
    "FLOWER_FIELD",
    "FOREST",
    "WATER",
    "MOUNTAIN",
    "CASTLE",
    "LOCATION",
    "TERRAIN_CODES",
    "EXPANSIONS",
    "SectionData",
    "load_sections",
    "section_data",
    "base_section_ids",
    "all_section_ids",
    "crossroads_section_ids",
    "MAX_SECTIONS_BYTES",
    "MAX_CUSTOM_SECTIONS",
    "SectionCatalog",
    "check_sections_document",
    "custom_sections",
    "read_sections_document",
]

# terrain ids; 0..4 are the buildable terrains and the terrain-card kinds (digest §1)
GRASS, CANYON, DESERT, FLOWER_FIELD, FOREST, WATER, MOUNTAIN, CASTLE, LOCATION = range(9)
TERRAINS: tuple[str, ...] = (
    "grass", "canyon", "desert", "flower_field", "forest", "water", "mountain", "castle",
    "location",
)
CARD_TERRAINS: tuple[str, ...] = TERRAINS[:5]
"""The 5 terrain-card kinds, in card-action order (grass, canyon, desert, flower_field, forest)."""
TERRAIN_CODES: dict[str, int] = {
    "G": GRASS, "C": CANYON, "D": DESERT, "F": FLOWER_FIELD, "T": FOREST, "W": WATER,
    "M": MOUNTAIN, "K": CASTLE, "L": LOCATION,
}

EXPANSIONS: tuple[str, ...] = ("base", "crossroads")
"""The ``expansion`` values of a section."""


@dataclass(frozen=True)
class SectionData:
    """One 10×10 board section in printed orientation.

    ``terrain[r][c]`` terrain ids; ``locations`` ((r, c, kind), ...) with kind ids like
    ``"farm"``; ``castles`` ((r, c), ...); ``expansion`` ``"base"`` or ``"crossroads"``.
    """

    id: str
    name: str
    expansion: str
    terrain: tuple[tuple[int, ...], ...]
    locations: tuple[tuple[int, int, str], ...]
    castles: tuple[tuple[int, int], ...]
    tiles_per_location: int


def _validate_section(raw: Any, where: str, custom: bool = False) -> SectionData:
    if not isinstance(raw, dict):
        raise FormatError(N_("{where}: expected an object", where=where))
    required = ("id", "name", "rows", "locations", "castles") if custom else (
        "id", "name", "expansion", "rows", "locations", "castles", "terrain_counts")
    for key in required:
        if key not in raw:
            raise FormatError(N_("{where}: missing key '{key}'", where=where, key=key))
    sid = raw["id"]
    if not isinstance(sid, str) or not sid:
        raise FormatError(N_("{where}: 'id' must be a non-empty string", where=where))
    if custom:
        raw = dict(raw)
        raw.setdefault("expansion", "base")
        _check_custom_head(raw, where)
    if raw["expansion"] not in EXPANSIONS:
        raise FormatError(N_("{where} ({sid}): 'expansion' must be one of {allowed}, got "
                             "{expansion!r}",
                             where=where, sid=sid, allowed=', '.join(EXPANSIONS), expansion=raw['expansion']))
    rows = raw["rows"]
    if not isinstance(rows, list) or len(rows) != 10:
        raise FormatError(N_("{where} ({sid}): 'rows' must hold 10 rows", where=where, sid=sid))
    terrain: list[tuple[int, ...]] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != 10:
            raise FormatError(N_("{where} ({sid}): row {r} must be a string of 10 terrain codes",
                                 where=where, sid=sid, r=r))
        for c, ch in enumerate(row):
            if ch not in TERRAIN_CODES:
                raise FormatError(
                    N_("{where} ({sid}): row {r} col {c}: unknown terrain code {ch!r}; "
                       "allowed: {allowed}",
                       where=where, sid=sid, r=r, c=c, ch=ch, allowed=''.join(TERRAIN_CODES))
                )
        terrain.append(tuple(TERRAIN_CODES[ch] for ch in row))
    counts = {name: 0 for name in TERRAINS}
    for row_t in terrain:
        for t in row_t:
            counts[TERRAINS[t]] += 1
    if not custom or raw.get("terrain_counts") is not None:
        if not isinstance(raw["terrain_counts"], dict):
            raise FormatError(N_("{where} ({sid}): 'terrain_counts' must be an object",
                                 where=where, sid=sid))
        want = {k: v for k, v in raw["terrain_counts"].items() if v}
        have = {k: v for k, v in counts.items() if v}
        if want != have:
            raise FormatError(N_("{where} ({sid}): terrain counts {have} differ from declared "
                                 "{want}", where=where, sid=sid, have=have, want=want))
    for key in ("locations", "castles"):
        if not isinstance(raw[key], list):
            raise FormatError(N_("{where} ({sid}): '{key}' must be a list",
                                 where=where, sid=sid, key=key))
    locations = []
    for k, loc in enumerate(raw["locations"]):
        if not (isinstance(loc, list) and len(loc) == 3 and _cell_ok(loc[:2])
                and isinstance(loc[2], str) and loc[2]):
            raise FormatError(N_("{where} ({sid}): locations[{k}] must be [row, col, kind] "
                                 "with row and col 0..9, got {loc!r}",
                                 where=where, sid=sid, k=k, loc=loc))
        r, c, kind = loc
        if terrain[r][c] != LOCATION:
            raise FormatError(N_("{where} ({sid}): location at row {r} col {c} is on "
                                 "{terrain} ({code}), not an L hex", where=where, sid=sid, r=r,
                                 c=c, terrain=TERRAINS[terrain[r][c]], code=rows[r][c]))
        if any((r, c) == (lr, lc) for lr, lc, _ in locations):
            raise FormatError(N_("{where} ({sid}): location at row {r} col {c} is listed twice",
                                 where=where, sid=sid, r=r, c=c))
        if custom and kind not in _base_location_kinds():
            raise FormatError(N_("{where} ({sid}): location at row {r} col {c}: unknown kind "
                                 "{kind}; allowed: {allowed}", where=where, sid=sid, r=r, c=c,
                                 kind=repr(kind[:40]), allowed=", ".join(_base_location_kinds())))
        locations.append((int(r), int(c), str(kind)))
    castles = []
    for k, cell in enumerate(raw["castles"]):
        if not _cell_ok(cell):
            raise FormatError(N_("{where} ({sid}): castles[{k}] must be [row, col] with row "
                                 "and col 0..9, got {cell!r}",
                                 where=where, sid=sid, k=k, cell=cell))
        r, c = cell
        if terrain[r][c] != CASTLE:
            raise FormatError(N_("{where} ({sid}): castle at row {r} col {c} is on "
                                 "{terrain} ({code}), not a K hex", where=where, sid=sid, r=r,
                                 c=c, terrain=TERRAINS[terrain[r][c]], code=rows[r][c]))
        if (r, c) in castles:
            raise FormatError(N_("{where} ({sid}): castle at row {r} col {c} is listed twice",
                                 where=where, sid=sid, r=r, c=c))
        castles.append((int(r), int(c)))
    for code, listed, kind in (("L", {(r, c) for r, c, _ in locations}, "locations"),
                               ("K", set(castles), "castles")):
        for r in range(10):
            for c in range(10):
                if rows[r][c] == code and (r, c) not in listed:
                    raise FormatError(N_("{where} ({sid}): the {code} hex at row {r} col {c} is "
                                         "not listed in '{kind}'", where=where, sid=sid,
                                         code=code, r=r, c=c, kind=kind))
    if custom and (len(locations) > MAX_SPECIAL or len(castles) > MAX_SPECIAL):
        raise FormatError(N_("{where} ({sid}): {locations} location and {castles} castle hexes; "
                             "allowed: at most {most} of each", where=where, sid=sid,
                             locations=len(locations), castles=len(castles), most=MAX_SPECIAL))
    tiles_per = raw.get("tiles_per_location", 2)
    if (isinstance(tiles_per, bool) or not isinstance(tiles_per, int) or tiles_per < 1
            or (custom and tiles_per > MAX_SPECIAL)):
        if custom:
            raise FormatError(N_("{where} ({sid}): 'tiles_per_location' must be a positive "
                                 "integer of at most {most}", where=where, sid=sid,
                                 most=MAX_SPECIAL))
        raise FormatError(N_("{where} ({sid}): 'tiles_per_location' must be a positive integer",
                             where=where, sid=sid))
    return SectionData(
        id=str(sid),
        name=str(raw["name"]),
        expansion=str(raw["expansion"]),
        terrain=tuple(terrain),
        locations=tuple(locations),
        castles=tuple(castles),
        tiles_per_location=tiles_per,
    )


_ID = re.compile(r"[a-z0-9_]{1,40}")
MAX_SPECIAL = 4
"""Custom sections: at most this many location hexes, castle hexes and tiles per location."""


def _check_custom_head(raw: dict[str, Any], where: str) -> None:
    """The id, name and expansion of a custom section (see the module docstring)."""
    sid = raw["id"]
    if not _ID.fullmatch(sid):
        raise FormatError(N_("{where}: 'id' {sid!r} must be 1-40 characters a-z, 0-9 or _",
                             where=where, sid=sid[:40]))
    if sid in section_data():
        raise FormatError(N_("{where} ({sid}): 'id' is a shipped section's id; choose a new "
                             "one (shipped: {allowed})",
                             where=where, sid=sid, allowed=', '.join(section_data())))
    check_name(raw["name"], f"{where} ({sid}).name", limit=60)
    if raw["expansion"] != "base":
        raise FormatError(N_("{where} ({sid}): 'expansion' of a custom section must be 'base' "
                             "(custom sections are played with the base rules), got "
                             "{expansion!r}",
                             where=where, sid=sid, expansion=str(raw['expansion'])[:40]))


@lru_cache(maxsize=1)
def _base_location_kinds() -> tuple[str, ...]:
    """The location kinds of the shipped base sections (oracle, farm, ...), in file order."""
    kinds: list[str] = []
    for sec in section_data().values():
        if sec.expansion == "base":
            for _, _, k in sec.locations:
                if k not in kinds:
                    kinds.append(k)
    return tuple(kinds)


def _cell_ok(cell: Any) -> bool:
    """True for a section cell ``[row, col]`` of two integers 0..9."""
    return (isinstance(cell, list) and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10
                    for v in cell))


def load_sections(text: str) -> dict[str, SectionData]:
    """Parse and validate a sections file (format of data/sections.json).

    Checks: 10×10 rows, known terrain codes, the declared ``terrain_counts``, locations/castles
    on L/K hexes. Raises FormatError naming the section and the problem.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(N_("sections: not valid JSON ({msg})", msg=json_reason(exc))) from None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        raise FormatError(N_("sections: expected an object with a 'sections' list"))
    out: dict[str, SectionData] = {}
    for k, raw in enumerate(data["sections"]):
        sec = _validate_section(raw, f"sections[{k}]")
        if sec.id in out:
            raise FormatError(N_("sections[{k}]: duplicate section id {id!r}", k=k, id=sec.id))
        out[sec.id] = sec
    return out


@lru_cache(maxsize=1)
def section_data() -> dict[str, SectionData]:
    """All 12 sections (8 base + 4 Crossroads) from the package data, validated."""
    text = resources.files(__package__).joinpath("data/sections.json").read_text("utf-8")
    return load_sections(text)


def base_section_ids() -> list[str]:
    """The 8 base-game section ids in rulebook order."""
    return [s.id for s in section_data().values() if s.expansion == "base"]


def all_section_ids() -> list[str]:
    """All section ids (base first, then Crossroads)."""
    return list(section_data())


def crossroads_section_ids() -> list[str]:
    """The 4 Crossroads section ids in file order."""
    return [s.id for s in section_data().values() if s.expansion == "crossroads"]


# --------------------------------------------------------------------------- custom sections
MAX_SECTIONS_BYTES = 64 * 1024
"""Largest custom sections document (bytes of its compact JSON text; a section is ~0.5 KiB)."""
MAX_CUSTOM_SECTIONS = 32
"""Most sections in one custom sections document."""


class SectionCatalog(Mapping[str, SectionData]):
    """The sections a game may use: the shipped ones, then a custom document's (read-only).

    ``key`` is the custom document's canonical JSON text (hash and equality go by it), so one
    document gives one catalog and boards are cached per catalog; ``custom`` lists its ids.
    """

    __slots__ = ("_data", "key", "custom")

    def __init__(self, custom: dict[str, SectionData], key: str) -> None:
        self._data = {**section_data(), **custom}
        self.key = key
        self.custom = tuple(custom)

    def __getitem__(self, sid: str) -> SectionData:
        return self._data[sid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SectionCatalog) and other.key == self.key

    def __repr__(self) -> str:
        return f"<SectionCatalog custom={list(self.custom)}>"


def _err(where: str, problem: str) -> FormatError:
    """``FormatError("where: problem")``; ``problem`` may be an ``N_`` message (translated
    where the error is shown)."""
    return FormatError(N_("{where}: {problem}", where=where, problem=problem))


def check_sections_document(doc: Any, where: str = "sections_doc") -> dict[str, Any]:
    """Check a custom sections document and return an independent copy (parsed JSON).

    ``doc``: the parsed JSON object ``{"sections": [section, ...]}`` (shape of
    data/sections.json; ``format`` and ``note`` keys are allowed), or its JSON text. At most
    :data:`MAX_SECTIONS_BYTES` of compact JSON and :data:`MAX_CUSTOM_SECTIONS` sections; every
    section is checked by :func:`custom_sections`.

    Raises FormatError ``<where>: ...`` / ``<where>: sections[k] (id): ...`` (one line)."""
    if isinstance(doc, str):
        doc = loads_json(doc, lambda problem: _err(where, problem), MAX_SECTIONS_BYTES)
    if not isinstance(doc, dict):
        raise _err(where, N_("expected a sections document (a JSON object with a 'sections' "
                             "list), got {name__}", name__=type(doc).__name__))
    problem = text_problem(doc, where)
    if problem is not None:
        raise FormatError(problem)
    try:
        text = json.dumps(doc, separators=(",", ":"), allow_nan=False, ensure_ascii=False,
                          sort_keys=True)
    except RecursionError:
        raise _err(where, N_("nested too deeply")) from None
    except (TypeError, ValueError) as exc:
        raise _err(where, N_("not JSON data ({split})", split=str(exc).split(';')[0])) from None
    size = len(text.encode("utf-8"))
    if size > MAX_SECTIONS_BYTES:
        raise _err(where, N_("{size} bytes; allowed: at most {MAX_SECTIONS_BYTES} bytes",
                             size=size, MAX_SECTIONS_BYTES=MAX_SECTIONS_BYTES))
    _catalog(text, where)
    return json.loads(text)


def custom_sections(doc: Any, where: str = "sections_doc") -> SectionCatalog:
    """The catalog (shipped + custom sections) of a custom sections document, checked as
    :func:`check_sections_document` does; cached per document (at most 32 kept).

    Raises FormatError naming the section and the problem."""
    copy = check_sections_document(doc, where)
    return _catalog(json.dumps(copy, separators=(",", ":"), ensure_ascii=False,
                               sort_keys=True), where)


_CATALOGS: dict[str, SectionCatalog] = {}


def _catalog(text: str, where: str) -> SectionCatalog:
    got = _CATALOGS.get(text)
    if got is not None:
        return got
    data = json.loads(text)
    extra = sorted(set(data) - {"format", "note", "terrain_codes", "sections"})
    if extra:
        raise _err(where, N_("unknown key {extra!r}; allowed: sections, format, note, "
                             "terrain_codes", extra=extra[0][:40]))
    fmt = data.get("format", "citybuilders.kingdom-builder.sections/1")
    if fmt != "citybuilders.kingdom-builder.sections/1":
        raise _err(where, N_("'format' {fmt!r} is not 'citybuilders.kingdom-builder.sections/1'",
                             fmt=str(fmt)[:60]))
    secs = data.get("sections")
    if not isinstance(secs, list) or not secs:
        raise _err(where, N_("expected a non-empty 'sections' list"))
    if len(secs) > MAX_CUSTOM_SECTIONS:
        raise _err(where, N_("{count} sections; allowed: at most {MAX_CUSTOM_SECTIONS}",
                             count=len(secs), MAX_CUSTOM_SECTIONS=MAX_CUSTOM_SECTIONS))
    out: dict[str, SectionData] = {}
    for k, raw in enumerate(secs):
        try:
            sec = _validate_section(raw, f"sections[{k}]", custom=True)
        except FormatError as exc:
            raise _err(where, message_of(exc)) from None
        if sec.id in out:
            raise _err(where, N_("sections[{k}]: duplicate section id {id!r}", k=k, id=sec.id))
        out[sec.id] = sec
    cat = SectionCatalog(out, text)
    if len(_CATALOGS) >= 32:
        _CATALOGS.clear()
    _CATALOGS[text] = cat
    return cat


def read_sections_document(path: str | Path, where: str = "sections_file") -> dict[str, Any]:
    """Read a custom sections file for the command line (the engine never opens files): a
    regular file of at most :data:`MAX_SECTIONS_BYTES` (no FIFO, device or directory), UTF-8
    JSON. Returns the parsed document (validated by the ``sections_doc`` option).

    Raises FormatError ``<where>: <path>: <problem>`` (one line)."""
    return read_json_file(path, MAX_SECTIONS_BYTES, where)


