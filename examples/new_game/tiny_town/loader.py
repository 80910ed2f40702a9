"""Tiny Town's data (``data/tiny_town.json``), loaded and validated once."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from citybuilders.core.errors import FormatError

__all__ = ["TinyTownData", "load_data"]


@dataclass(frozen=True, slots=True)
class TinyTownData:
    """``card_values``: the building cards' values; a die of ``die_faces`` faces scores on
    ``scoring_face``."""

    card_values: tuple[int, ...]
    die_faces: int
    scoring_face: int


@lru_cache(maxsize=1)
def load_data() -> TinyTownData:
    """The shipped data. Raises FormatError naming the field if the file is damaged."""
    raw = json.loads(resources.files(__package__).joinpath("data/tiny_town.json").read_text())
    values = raw.get("card_values")
    if not (isinstance(values, list) and values
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)):
        raise FormatError("card_values: expected a non-empty list of positive integers")
    faces = raw.get("die_faces")
    if not isinstance(faces, int) or not 2 <= faces <= 20:
        raise FormatError("die_faces: expected an integer from 2 to 20")
    face = raw.get("scoring_face")
    if not isinstance(face, int) or not 1 <= face <= faces:
        raise FormatError(f"scoring_face: expected an integer from 1 to {faces}")
    return TinyTownData(tuple(values), faces, face)
