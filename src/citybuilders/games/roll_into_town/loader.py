"""Roll into Town data: load and validate ``data/rules.json``, and the rule tables and codes
derived from it (pure data, no rules logic).

Codes (stable integers stored in sheets, positions and the saved-position JSON, see
docs/formats.md):

* terrain (``Sheet.terrain``): :data:`EMPTY` 0, :data:`FARM` 1, :data:`MOUNTAIN` 2, :data:`TREE`
  3, :data:`RIVER` 4, :data:`COAST` 5, :data:`OCEAN` 6, :data:`TOWN_HALL` 7. The icons farm to
  coast have the codes of the die faces that show them (1-5); :data:`FACE_ANY` (6) is any icon.
* building cells (``Sheet.bld``): :data:`B_NONE` 0 ... :data:`B_CATHEDRAL` 11 (the lighthouse has
  a top and a bottom code).
* build kinds (in build actions): :data:`K_HOUSE` 0 ... :data:`K_CATHEDRAL_M` 10, each with the
  shape of :data:`BUILD_KINDS` (the cathedral may be mirrored).
* sides: numbers 0 = N, 1 = E, 2 = S, 3 = W; as bit masks :data:`N_` 1, :data:`E_` 2,
  :data:`S_` 4, :data:`W_` 8.

The ids (``"house"``, ``"farm"``, ...) are the rules' names; the player-facing names and rule
texts are in ``texts.py``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ...core.errors import FormatError

__all__ = [
    "DATA", "load_rules", "validate_rules",
    "EMPTY", "FARM", "MOUNTAIN", "TREE", "RIVER", "COAST", "OCEAN", "TOWN_HALL", "TERRAIN_IDS",
    "FACE_FARM", "FACE_MOUNTAIN", "FACE_TREE", "FACE_RIVER", "FACE_COAST", "FACE_ANY",
    "B_NONE", "B_HOUSE", "B_QUARRY", "B_LUMBERJACK", "B_HARBOR", "B_WATERMILL", "B_TAVERN",
    "B_FOUNTAIN", "B_MARKET", "B_LIGHT_TOP", "B_LIGHT_BOTTOM", "B_CATHEDRAL", "B_IDS",
    "BUILDINGS", "BUILDING_IDS", "RESOURCES", "BUILD_KINDS", "KIND_BUILDING", "KIND_COST",
    "KIND_UNIQUE", "FREE_KINDS", "UNIQUE_BIT", "UNIQUE_CODE",
    "K_HOUSE", "K_QUARRY", "K_LUMBERJACK", "K_HARBOR", "K_WATERMILL", "K_TAVERN", "K_FOUNTAIN",
    "K_MARKET", "K_LIGHTHOUSE", "K_CATHEDRAL", "K_CATHEDRAL_M",
    "CAP", "START", "ROUNDS", "DICE_PER_ROUND", "ICONS_PER_ROUND", "TOWN_HALL_USES",
    "FOUNTAIN_USES", "HOUSE_POINTS", "CATHEDRAL_POINTS", "TAVERN_CAP", "MAX_DICE", "SOLO_RANKS",
    "N_", "E_", "S_", "W_", "SIDE_LETTERS", "RIVER_SHAPES", "COAST_MASKS", "CORNER_PAIRS",
]

RESOURCES = ("food", "stone", "wood")
"""Resource ids in supply order (``Sheet.res`` = [food, stone, wood])."""

BUILDING_IDS = ("house", "quarry", "lumberjack", "harbor", "watermill", "tavern", "fountain",
                "market", "lighthouse", "cathedral")
"""The ten buildings (rulebook buildings; the quarry is the rulebook's "pick")."""


def _need(cond: bool, field: str, what: str) -> None:
    if not cond:
        raise FormatError(f"data/rules.json: {field}: {what}")


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_rules(data: Any) -> dict[str, Any]:
    """Check the shape of the rules data; returns it. Raises FormatError naming the field.

    Shape: ``buildings`` (one object per id of :data:`BUILDING_IDS`, each with ``cost``
    {resource: int >= 0}, ``points`` int, ``unique`` bool, ``cells`` [[dr, dc], ...],
    ``placement`` text), ``resource_cap.value``, ``start_resources`` {food, stone, wood},
    ``rounds.value``, ``dice_per_round.value`` / ``icons_per_round.value`` (one int per round),
    ``town_hall_adjust.uses_per_game``, ``fountain.uses_per_game``, ``solo_ranks.ranks``
    ([{min?, max?, rank}] covering every score)."""
    _need(isinstance(data, dict), "file", "expected a JSON object")
    blds = data.get("buildings")
    _need(isinstance(blds, list), "buildings", "expected a list")
    ids = [b.get("id") if isinstance(b, dict) else None for b in blds]
    _need(sorted(map(str, ids)) == sorted(BUILDING_IDS), "buildings",
          f"expected one entry for each of {', '.join(BUILDING_IDS)}")
    for k, b in enumerate(blds):
        where = f"buildings[{k}]"
        cost = b.get("cost")
        _need(isinstance(cost, dict) and all(r in RESOURCES and _int(v) and v >= 0
                                             for r, v in cost.items()),
              f"{where}.cost", "expected {resource: count >= 0} with food, stone, wood")
        _need(_int(b.get("points")), f"{where}.points", "expected an integer")
        _need(isinstance(b.get("unique"), bool), f"{where}.unique", "expected true or false")
        _need(isinstance(b.get("placement"), str), f"{where}.placement", "expected a text")
        for key in ("cells", "mirrored_cells"):
            if key in b or key == "cells":
                cells = b.get(key)
                _need(isinstance(cells, list) and bool(cells) and all(
                    isinstance(c, list) and len(c) == 2 and all(_int(x) and x >= 0 for x in c)
                    for c in cells), f"{where}.{key}", "expected a list of [row, col] offsets")
    for key in ("resource_cap", "rounds"):
        _need(isinstance(data.get(key), dict) and _int(data[key].get("value")), f"{key}.value",
              "expected an integer")
    start = data.get("start_resources")
    _need(isinstance(start, dict) and all(_int(start.get(r)) for r in RESOURCES),
          "start_resources", "expected food, stone and wood counts")
    rounds = data["rounds"]["value"]
    for key in ("dice_per_round", "icons_per_round"):
        v = data.get(key, {}).get("value") if isinstance(data.get(key), dict) else None
        _need(isinstance(v, list) and len(v) == rounds and all(_int(x) and x > 0 for x in v),
              f"{key}.value", f"expected {rounds} positive integers (one per round)")
    for key in ("town_hall_adjust", "fountain"):
        _need(isinstance(data.get(key), dict) and _int(data[key].get("uses_per_game")),
              f"{key}.uses_per_game", "expected an integer")
    ranks = data.get("solo_ranks", {}).get("ranks") if isinstance(data.get("solo_ranks"),
                                                                   dict) else None
    _need(isinstance(ranks, list) and bool(ranks) and all(
        isinstance(r, dict) and isinstance(r.get("rank"), str) for r in ranks),
        "solo_ranks.ranks", "expected a list of {min, max, rank}")
    return data


def load_rules() -> dict[str, Any]:
    """``data/rules.json`` parsed and validated (FormatError naming the field if broken)."""
    text = resources.files(__package__).joinpath("data/rules.json").read_text(encoding="utf-8")
    return validate_rules(json.loads(text))


DATA: dict[str, Any] = load_rules()

# ----------------------------------------------------------------------------- terrain
EMPTY, FARM, MOUNTAIN, TREE, RIVER, COAST, OCEAN, TOWN_HALL = range(8)
TERRAIN_IDS = ("empty", "farm", "mountain", "tree", "river", "coast", "ocean", "town hall")
"""Terrain ids by code (also the words of the rules' one-line error messages)."""
# die faces (rulebook discover phase): 1-5 show the icon with the same terrain code, 6 any
FACE_FARM, FACE_MOUNTAIN, FACE_TREE, FACE_RIVER, FACE_COAST, FACE_ANY = FARM, MOUNTAIN, TREE, \
    RIVER, COAST, 6

# ----------------------------------------------------------------------------- buildings
B_NONE, B_HOUSE, B_QUARRY, B_LUMBERJACK, B_HARBOR, B_WATERMILL, B_TAVERN, B_FOUNTAIN, \
    B_MARKET, B_LIGHT_TOP, B_LIGHT_BOTTOM, B_CATHEDRAL = range(12)
B_IDS = ("", "house", "quarry", "lumberjack", "harbor", "watermill", "tavern", "fountain",
         "market", "lighthouse top", "lighthouse bottom", "cathedral")
"""Building-cell ids by code (0: no building)."""

BUILDINGS: dict[str, dict[str, Any]] = {b["id"]: b for b in DATA["buildings"]}
# build kinds used in actions: (name, shape cells as (dr, dc, cell code))
BUILD_KINDS: tuple[tuple[str, tuple[tuple[int, int, int], ...]], ...] = (
    ("house", ((0, 0, B_HOUSE),)),
    ("quarry", ((0, 0, B_QUARRY),)),
    ("lumberjack", ((0, 0, B_LUMBERJACK),)),
    ("harbor", ((0, 0, B_HARBOR),)),
    ("watermill", ((0, 0, B_WATERMILL),)),
    ("tavern", ((0, 0, B_TAVERN),)),
    ("fountain", ((0, 0, B_FOUNTAIN),)),
    ("market", ((0, 0, B_MARKET),)),
    ("lighthouse", ((0, 0, B_LIGHT_TOP), (1, 0, B_LIGHT_BOTTOM))),
    ("cathedral", tuple((r, c, B_CATHEDRAL) for r, c in BUILDINGS["cathedral"]["cells"])),
    ("cathedral-mirrored",
     tuple((r, c, B_CATHEDRAL) for r, c in BUILDINGS["cathedral"]["mirrored_cells"])),
)
K_HOUSE, K_QUARRY, K_LUMBERJACK, K_HARBOR, K_WATERMILL, K_TAVERN, K_FOUNTAIN, K_MARKET, \
    K_LIGHTHOUSE, K_CATHEDRAL, K_CATHEDRAL_M = range(11)
KIND_BUILDING = ("house", "quarry", "lumberjack", "harbor", "watermill", "tavern", "fountain",
                 "market", "lighthouse", "cathedral", "cathedral")
"""Building id of each build kind."""
KIND_COST: tuple[tuple[int, int, int], ...] = tuple(
    tuple(int(BUILDINGS[b]["cost"].get(r, 0)) for r in RESOURCES) for b in KIND_BUILDING
)
"""(food, stone, wood) cost of each build kind."""
FREE_KINDS = frozenset((K_HOUSE, K_QUARRY, K_LUMBERJACK, K_TAVERN, K_FOUNTAIN, K_MARKET))
"""Kinds placed on any empty cell."""
UNIQUE_BIT = {"fountain": 1, "market": 2, "lighthouse": 4, "cathedral": 8}
"""Bit per unique building in ``Sheet.unique_built``."""
UNIQUE_CODE = {"fountain": B_FOUNTAIN, "market": B_MARKET, "lighthouse": B_LIGHT_TOP,
               "cathedral": B_CATHEDRAL}
"""A cell code that shows each unique building is on the map."""
KIND_UNIQUE = tuple(UNIQUE_BIT.get(b, 0) if BUILDINGS[b]["unique"] else 0
                    for b in KIND_BUILDING)

# ----------------------------------------------------------------------------- numbers
CAP = int(DATA["resource_cap"]["value"])
START = tuple(int(DATA["start_resources"][r]) for r in RESOURCES)
ROUNDS = int(DATA["rounds"]["value"])
DICE_PER_ROUND = tuple(DATA["dice_per_round"]["value"])
ICONS_PER_ROUND = tuple(DATA["icons_per_round"]["value"])
TOWN_HALL_USES = int(DATA["town_hall_adjust"]["uses_per_game"])
FOUNTAIN_USES = int(DATA["fountain"]["uses_per_game"])
HOUSE_POINTS = int(BUILDINGS["house"]["points"])
CATHEDRAL_POINTS = int(BUILDINGS["cathedral"]["points"])
TAVERN_CAP = int(BUILDINGS["tavern"]["tavern_cap"])
MAX_DICE = max(DICE_PER_ROUND)
SOLO_RANKS: tuple[tuple[int, int, str], ...] = tuple(
    (int(r.get("min", -10**9)), int(r.get("max", 10**9)), str(r["rank"]))
    for r in DATA["solo_ranks"]["ranks"])
"""(lowest total, highest total, rank id) of each solo rank (rulebook solo scoring)."""

# ----------------------------------------------------------------------------- sides
N_, E_, S_, W_ = 1, 2, 4, 8
SIDE_LETTERS = "NESW"
RIVER_SHAPES = (N_ | S_, E_ | W_, N_ | E_, E_ | S_, S_ | W_, W_ | N_)
"""The six river pieces as flow-side masks (straight and bends)."""
COAST_MASKS = tuple(m for m in range(1, 16) if 1 <= bin(m).count("1") <= 3)
"""Water-side masks of a coast: 1, 2 or 3 sides (rulebook coast icon)."""
CORNER_PAIRS = (N_ | E_, E_ | S_, S_ | W_, W_ | N_)
