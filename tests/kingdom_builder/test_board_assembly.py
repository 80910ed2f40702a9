"""The board assembled from cached quadrants (``Board.__init__``, issue 16's new-game speed) has
exactly the fields of the straightforward assembly it replaced (every hex of the 400 read once,
one-hot terrain masks, location neighbours from ``bits``), for random combinations of every
shipped section (base and Crossroads, both rotations, every quadrant) and for a custom sections
document."""

from __future__ import annotations

import copy
import json
import random
from importlib import resources

from citybuilders.core.grid import bits
from citybuilders.games.kingdom_builder.loader import (
    CASTLE,
    LOCATION,
    TERRAINS,
    all_section_ids,
    custom_sections,
    section_data,
)
from citybuilders.games.kingdom_builder.rules.board import NEIGHBORS, NUM_HEXES, SIZE, Board

_SLOTS = ("sections", "terrain", "tmask", "buildable", "special", "locations", "loc_nbr",
          "hex_locs", "castles", "castle_nbr", "sector_masks", "tiles_per_location",
          "location_mask", "castle_mask", "catalog", "key")


def _reference(sections, catalog=None) -> dict:
    """The fields as the constructor computed them before the quadrant cache."""
    data = section_data() if catalog is None else catalog
    terrain = [0] * NUM_HEXES
    locs, castles, tiles_per = [], [], []
    for q, (sid, rot) in enumerate(sections):
        sec = data[sid]
        off = 10 * (q // 2) * SIZE + 10 * (q % 2)
        rows = sec.terrain
        if rot == 180:
            rows = tuple(tuple(reversed(row)) for row in reversed(rows))
        for r in range(10):
            for c in range(10):
                terrain[off + r * SIZE + c] = rows[r][c]
        for r, c, kind in sec.locations:
            gr, gc = (9 - r, 9 - c) if rot == 180 else (r, c)
            locs.append((off + gr * SIZE + gc, kind))
            tiles_per.append(sec.tiles_per_location)
        for r, c in sec.castles:
            gr, gc = (9 - r, 9 - c) if rot == 180 else (r, c)
            castles.append(off + gr * SIZE + gc)
    order = sorted(range(len(locs)), key=lambda k: locs[k][0])
    tmask = [sum(1 << i for i in range(NUM_HEXES) if terrain[i] == t) for t in range(len(TERRAINS))]
    locations = tuple(locs[k] for k in order)
    loc_nbr = tuple(NEIGHBORS[h] for h, _ in locations)
    hex_locs = [()] * NUM_HEXES
    for k, m in enumerate(loc_nbr):
        for i in bits(m):
            hex_locs[i] = hex_locs[i] + (k,)
    sections = tuple((s, int(r)) for s, r in sections)
    return {
        "sections": sections, "terrain": tuple(terrain), "tmask": tmask,
        "buildable": sum(tmask[t] for t in range(5)),
        "special": tmask[CASTLE] | tmask[LOCATION], "locations": locations, "loc_nbr": loc_nbr,
        "hex_locs": tuple(hex_locs), "castles": tuple(sorted(castles)),
        "castle_nbr": tuple(NEIGHBORS[h] for h in sorted(castles)),
        "sector_masks": tuple(
            sum(1 << ((r + 10 * (q // 2)) * SIZE + c + 10 * (q % 2))
                for r in range(10) for c in range(10)) for q in range(4)),
        "tiles_per_location": tuple(tiles_per[k] for k in order),
        "location_mask": tmask[LOCATION], "castle_mask": tmask[CASTLE], "catalog": catalog,
        "key": sections if catalog is None else (sections, catalog.key),
    }


def _fields(board: Board) -> dict:
    return {name: getattr(board, name) for name in _SLOTS}


def test_cached_quadrants_give_the_reference_board() -> None:
    ids = list(all_section_ids())
    rng = random.Random(16)
    for _ in range(40):
        sections = tuple((sid, rng.choice((0, 180))) for sid in rng.sample(ids, 4))
        assert _fields(Board(sections)) == _reference(sections)
        assert _fields(Board(sections)) == _reference(sections)  # from the cache


def test_a_custom_catalog_gives_the_reference_board() -> None:
    shipped = json.loads(resources.files("citybuilders.games.kingdom_builder")
                         .joinpath("data/sections.json").read_text("utf-8"))
    tavern = shipped["sections"][0]
    meadow = {"id": "meadow", "name": "Meadow",
              "rows": [r.replace("D", "G") for r in tavern["rows"]],
              "locations": copy.deepcopy(tavern["locations"]),
              "castles": copy.deepcopy(tavern["castles"]), "tiles_per_location": 3}
    cat = custom_sections({"format": "citybuilders.kingdom-builder.sections/1",
                           "sections": [meadow]})
    for sections in ((("meadow", 180), ("paddock", 0), ("oasis", 180), ("farm", 0)),
                     (("oasis", 0), ("meadow", 0), ("farm", 180), ("paddock", 180))):
        assert _fields(Board(sections, cat)) == _reference(sections, cat)
