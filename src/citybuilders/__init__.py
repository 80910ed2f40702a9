"""citybuilders: rules engines, bots, simulation and a web app for city-building board games.

Quick use::

    import citybuilders
    game = citybuilders.load_game("kingdom-builder", preset="first-game")
    state = game.new_initial_state(num_players=2, seed=1)
    while not state.is_terminal():
        ...

See ``citybuilders.core.game`` for the State protocol.
"""

from __future__ import annotations

from .core import (
    CHANCE,
    TERMINAL,
    CitybuildersError,
    FormatError,
    Game,
    IllegalActionError,
    OptionError,
    PlayerScore,
    Record,
    RecordError,
    State,
    UnknownGameError,
    load_game,
    load_record,
    record_of,
    registered_games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CitybuildersError",
    "FormatError",
    "Game",
    "IllegalActionError",
    "OptionError",
    "PlayerScore",
    "Record",
    "RecordError",
    "State",
    "UnknownGameError",
    "load_game",
    "load_record",
    "record_of",
    "registered_games",
    "replay",
    "__version__",
]
