"""Roll into Town rules: the state, the map sheet and its geometry, the explanations of
illegal moves (``state.py``, ``sheet.py``, ``geometry.py``, ``explain.py``).

This package re-exports the public rule API with the data tables and codes of ``loader`` and
the scoring of ``scoring``, so that ``from ..rules import ...`` (or ``rules as R``) reaches
every rule-level name. It imports only ``citybuilders.core``, the game's ``loader``,
``actions`` and ``scoring``, never its presentation (render, strategy, texts, game).
"""

from __future__ import annotations

from ..loader import (
    DATA, load_rules, validate_rules, EMPTY, FARM, MOUNTAIN, TREE, RIVER, COAST, OCEAN,
    TOWN_HALL, TERRAIN_IDS, FACE_FARM, FACE_MOUNTAIN, FACE_TREE, FACE_RIVER, FACE_COAST,
    FACE_ANY, B_NONE, B_HOUSE, B_QUARRY, B_LUMBERJACK, B_HARBOR, B_WATERMILL, B_TAVERN,
    B_FOUNTAIN, B_MARKET, B_LIGHT_TOP, B_LIGHT_BOTTOM, B_CATHEDRAL, B_IDS, BUILDINGS,
    BUILDING_IDS, RESOURCES, BUILD_KINDS, KIND_BUILDING, KIND_COST, KIND_UNIQUE, FREE_KINDS,
    UNIQUE_BIT, UNIQUE_CODE, K_HOUSE, K_QUARRY, K_LUMBERJACK, K_HARBOR, K_WATERMILL, K_TAVERN,
    K_FOUNTAIN, K_MARKET, K_LIGHTHOUSE, K_CATHEDRAL, K_CATHEDRAL_M, CAP, START, ROUNDS,
    DICE_PER_ROUND, ICONS_PER_ROUND, TOWN_HALL_USES, FOUNTAIN_USES, HOUSE_POINTS,
    CATHEDRAL_POINTS, TAVERN_CAP, MAX_DICE, SOLO_RANKS, N_, E_, S_, W_, SIDE_LETTERS,
    RIVER_SHAPES, COAST_MASKS, CORNER_PAIRS,
)
from ..scoring import score_parts, solo_rank
from .geometry import Geometry, bits, geometry
from .geometry import bits as _bits  # older name, used by the tests
from .sheet import SHEET_FIELDS, Sheet, allowed_coast_masks
from .state import STATE_FIELDS, RollIntoTownState

__all__ = [
    'DATA', 'load_rules', 'validate_rules', 'EMPTY', 'FARM', 'MOUNTAIN', 'TREE', 'RIVER',
    'COAST', 'OCEAN', 'TOWN_HALL', 'TERRAIN_IDS', 'FACE_FARM', 'FACE_MOUNTAIN', 'FACE_TREE',
    'FACE_RIVER', 'FACE_COAST', 'FACE_ANY', 'B_NONE', 'B_HOUSE', 'B_QUARRY', 'B_LUMBERJACK',
    'B_HARBOR', 'B_WATERMILL', 'B_TAVERN', 'B_FOUNTAIN', 'B_MARKET', 'B_LIGHT_TOP',
    'B_LIGHT_BOTTOM', 'B_CATHEDRAL', 'B_IDS', 'BUILDINGS', 'BUILDING_IDS', 'RESOURCES',
    'BUILD_KINDS', 'KIND_BUILDING', 'KIND_COST', 'KIND_UNIQUE', 'FREE_KINDS', 'UNIQUE_BIT',
    'UNIQUE_CODE', 'K_HOUSE', 'K_QUARRY', 'K_LUMBERJACK', 'K_HARBOR', 'K_WATERMILL',
    'K_TAVERN', 'K_FOUNTAIN', 'K_MARKET', 'K_LIGHTHOUSE', 'K_CATHEDRAL', 'K_CATHEDRAL_M',
    'CAP', 'START', 'ROUNDS', 'DICE_PER_ROUND', 'ICONS_PER_ROUND', 'TOWN_HALL_USES',
    'FOUNTAIN_USES', 'HOUSE_POINTS', 'CATHEDRAL_POINTS', 'TAVERN_CAP', 'MAX_DICE',
    'SOLO_RANKS', 'N_', 'E_', 'S_', 'W_', 'SIDE_LETTERS', 'RIVER_SHAPES', 'COAST_MASKS',
    'CORNER_PAIRS',
    "score_parts", "solo_rank", "Geometry", "bits", "geometry", "SHEET_FIELDS", "Sheet",
    "allowed_coast_masks",
    "STATE_FIELDS", "RollIntoTownState",
]
