"""Kingdom Builder data: the board sections of data/sections.json, loaded and validated.

Terrain ids (rules digest §1): 0..4 are the buildable terrains and the terrain-card kinds
(grass, canyon, desert, flower field, forest), then water, mountain, castle and location. The
file's one-letter codes are :data:`TERRAIN_CODES`. Every error is a one-line FormatError naming
the section and the problem.
"""

from __future__ import annotations

from ...core.i18n import N_

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from citybuilders.core.errors import FormatError

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


def _validate_section(raw: Any, where: str) -> SectionData:
    if not isinstance(raw, dict):
        raise FormatError(N_("{where}: expected an object", where=where))
    for key in ("id", "name", "expansion", "rows", "locations", "castles", "terrain_counts"):
        if key not in raw:
            raise FormatError(N_("{where}: missing key '{key}'", where=where, key=key))
    sid = raw["id"]
    if not isinstance(sid, str) or not sid:
        raise FormatError(N_("{where}: 'id' must be a non-empty string", where=where))
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
            raise FormatError(N_("{where} ({sid}): location {r},{c} is not an L hex",
                                 where=where, sid=sid, r=r, c=c))
        locations.append((int(r), int(c), str(kind)))
    castles = []
    for k, cell in enumerate(raw["castles"]):
        if not _cell_ok(cell):
            raise FormatError(N_("{where} ({sid}): castles[{k}] must be [row, col] with row "
                                 "and col 0..9, got {cell!r}",
                                 where=where, sid=sid, k=k, cell=cell))
        r, c = cell
        if terrain[r][c] != CASTLE:
            raise FormatError(N_("{where} ({sid}): castle {r},{c} is not a K hex",
                                 where=where, sid=sid, r=r, c=c))
        castles.append((int(r), int(c)))
    if len(locations) != counts["location"] or len(castles) != counts["castle"]:
        raise FormatError(N_("{where} ({sid}): listed locations/castles differ from the L/K "
                             "hexes", where=where, sid=sid))
    tiles_per = raw.get("tiles_per_location", 2)
    if isinstance(tiles_per, bool) or not isinstance(tiles_per, int) or tiles_per < 1:
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
        raise FormatError(N_("sections: not valid JSON ({msg})", msg=exc.msg)) from None
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
