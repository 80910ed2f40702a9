"""Engine core: the Game/State protocol, options, records, RNG, grids, undo and the runner."""

from __future__ import annotations

from .errors import (
    CitybuildersError,
    FormatError,
    IllegalActionError,
    OptionError,
    RecordError,
    UnknownGameError,
)
from .game import CHANCE, TERMINAL, Game, PlayerScore, ScoreResult, State, private_chance
from .options import Option, resolve_options
from .records import Record, load_record, record_of, replay
from .registry import game_class, load_game, register_game, registered_games

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CitybuildersError",
    "FormatError",
    "Game",
    "IllegalActionError",
    "Option",
    "OptionError",
    "PlayerScore",
    "Record",
    "RecordError",
    "ScoreResult",
    "State",
    "UnknownGameError",
    "game_class",
    "load_game",
    "load_record",
    "private_chance",
    "record_of",
    "register_game",
    "registered_games",
    "replay",
    "resolve_options",
]
