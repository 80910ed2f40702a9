"""Tiny Town's score file: ``{"players": [{"built": [card values], "sixes": n}, ...]}``."""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import FormatError

from .loader import load_data
from .scoring import score_player

__all__ = ["parse_score_file", "score_rows"]

_KEYS = {"players"}
_PLAYER_KEYS = {"built", "sixes"}


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FormatError(f"{field}: expected an integer from {low} to {high}, got {value!r}")
    return value


def parse_score_file(data: Any, min_players: int, max_players: int
                     ) -> list[tuple[list[int], int]]:
    """``[(built, sixes)]`` per player. Raises FormatError naming the field."""
    if not isinstance(data, Mapping):
        raise FormatError("score file: expected a JSON object")
    extra = set(data) - _KEYS
    if extra:
        raise FormatError(f"{sorted(extra)[0]}: unknown key; allowed: {', '.join(sorted(_KEYS))}")
    players = data.get("players")
    if not isinstance(players, list) or not min_players <= len(players) <= max_players:
        raise FormatError(f"players: expected a list of {min_players} to {max_players} players")
    values = set(load_data().card_values)
    out = []
    for i, row in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(row, Mapping):
            raise FormatError(f"{where}: expected an object")
        extra = set(row) - _PLAYER_KEYS
        if extra:
            raise FormatError(f"{where}.{sorted(extra)[0]}: unknown key; allowed: "
                              f"{', '.join(sorted(_PLAYER_KEYS))}")
        built = row.get("built", [])
        if not isinstance(built, list) or len(built) > 50:
            raise FormatError(f"{where}.built: expected a list of card values")
        for j, v in enumerate(built):
            if v not in values or isinstance(v, bool):
                raise FormatError(f"{where}.built[{j}]: expected one of "
                                  f"{', '.join(map(str, sorted(values)))}, got {v!r}")
        out.append((list(built), _int(row.get("sixes", 0), f"{where}.sixes", 0, 50)))
    return out


def score_rows(rows: list[tuple[list[int], int]], bonus: bool) -> list[dict[str, int]]:
    """Category -> points per player."""
    return [score_player(built, sixes, bonus) for built, sixes in rows]
