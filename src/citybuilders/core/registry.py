"""The game registry: ``load_game(name, **options)`` and ``registered_games()``.

Adding a game = copy one folder under ``citybuilders/games/`` and add one line to ``_GAMES``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import UnknownGameError, short
from .i18n import N_

if TYPE_CHECKING:  # pragma: no cover - types only (core/game.py uses normalize_game_name)
    from .game import Game

__all__ = [
    "load_game",
    "registered_games",
    "game_class",
    "normalize_game_name",
    "register_game",
    "unregister_game",
]

# registry id -> "module:ClassName"
_GAMES: dict[str, str] = {
    "kingdom-builder": "citybuilders.games.kingdom_builder.game:KingdomBuilderGame",
    "sprawlopolis": "citybuilders.games.sprawlopolis.game:SprawlopolisGame",
    "roll-into-town": "citybuilders.games.roll_into_town.game:RollIntoTownGame",
    "roll-builder": "citybuilders.games.roll_builder.game:RollBuilderGame",
}
_EXTRA: dict[str, type[Game]] = {}
_CACHE: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Register a Game subclass at run time (tests, plugins). Returns ``cls`` (decorator-friendly)."""
    _EXTRA[cls.name] = cls
    _CACHE.pop(cls.name, None)
    return cls


def unregister_game(name: str) -> None:
    """Remove a game registered with :func:`register_game` (no effect on built-in games)."""
    _EXTRA.pop(name, None)
    _CACHE.pop(name, None)


def normalize_game_name(name: str) -> str:
    """Accept ``kingdom_builder``, ``Kingdom Builder`` etc. for ``kingdom-builder``."""
    return "-".join(str(name).strip().lower().replace("_", " ").replace("-", " ").split())


def _import(name: str) -> type[Game] | None:
    if name in _EXTRA:
        return _EXTRA[name]
    if name in _CACHE:
        return _CACHE[name]
    target = _GAMES.get(name)
    if target is None:
        return None
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # the game's package is not there (yet); anything else is a real bug and propagates
        if exc.name and module_name.startswith(exc.name):
            return None
        raise
    cls = getattr(module, cls_name)
    _CACHE[name] = cls
    return cls


def registered_games() -> list[str]:
    """Names of the games that can be loaded, sorted."""
    names = set(_GAMES) | set(_EXTRA)
    return sorted(n for n in names if _import(n) is not None)


def game_class(name: str) -> type[Game]:
    """The Game subclass registered as ``name``. Raises UnknownGameError listing the games."""
    key = normalize_game_name(name)
    cls = _import(key)
    if cls is None:
        raise UnknownGameError(
            N_("unknown game {name}; registered games: {allowed}",
               name=short(name), allowed=', '.join(registered_games()))
        )
    return cls


def load_game(name: str, **options: Any) -> Game:
    """Create a game with validated options.

    Raises UnknownGameError for an unregistered name, OptionError for a bad option.
    """
    return game_class(name)(**options)
