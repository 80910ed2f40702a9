"""Shared helpers of the RL adapters: game parameters, static facts per game, lazy imports.

Nothing here imports an RL framework; each adapter module imports its own framework and
raises one clear ``ImportError`` naming the extra to install when it is missing.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from ..core.errors import OptionError
from ..core.game import Game
from ..core.options import parse_option_text
from ..core.registry import load_game
from ..core.i18n import N_

__all__ = ["require", "GAME_IDS", "make_game", "option_params", "max_game_length",
           "is_imperfect", "solo_games"]

GAME_IDS = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")
"""The games with adapters (every registered built-in game)."""

_IMPERFECT = {"kingdom-builder": True, "sprawlopolis": True, "roll-into-town": False,
              "roll-builder": False}
"""Hidden information: KB terrain-card draws and Sprawlopolis hands; the roll-and-writes show
everything but future dice (which are chance nodes, not hidden state)."""


def require(module: str, extra: str) -> Any:
    """Import ``module`` or raise ImportError naming ``pip install citybuilders[extra]``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module} is not installed: pip install 'citybuilders[{extra}]' ({exc})"
        ) from None


def option_params(game_id: str) -> dict[str, Any]:
    """Default string/int/bool parameters for every option of ``game_id`` (OpenSpiel style).

    Options whose default is a list or None become strings ("" = the game's default; lists are
    comma-separated, as on the command line); bool and int options with a value keep their type.
    """
    game = load_game(game_id)
    params: dict[str, Any] = {}
    for spec in game.option_specs:
        default = spec.default
        if isinstance(default, bool) or (isinstance(default, int) and spec.type is int):
            params[spec.name] = default
        elif isinstance(default, str):
            params[spec.name] = default
        else:
            params[spec.name] = ""
    return params


def make_game(game_id: str, params: Mapping[str, Any]) -> Game:
    """``load_game(game_id, **options)`` from adapter parameters (strings parsed per option).

    Raises OptionError naming the option for a bad value.
    """
    base = load_game(game_id)
    specs = {s.name: s for s in base.option_specs}
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name in ("players", "seed"):
            continue
        spec = specs.get(name)
        if spec is None:
            raise OptionError(N_("option '{name}': unknown option of {game_id}; allowed: "
                                 "{allowed}",
                                 name=name, game_id=game_id, allowed=', '.join(sorted(specs))))
        if isinstance(value, str):
            if value == "":
                continue
            value = parse_option_text(spec, value)
        if value == spec.default:
            continue
        options[name] = value
    return load_game(game_id, **options)


def is_imperfect(game: Game) -> bool:
    """True when some state of ``game`` hides something from a player."""
    return _IMPERFECT.get(game.name, True)


def max_game_length(game: Game, num_players: int) -> int:
    """An upper bound on the number of history entries (player and chance actions) of a game.

    Kingdom Builder: at most 15 turns a player (3 settlements a turn from 40, + the final round),
    each with 3 builds, at most 16 tile uses (8 base + 8 Crossroads tiles), `end` and up to 5
    card draws (rare-exception redraws, Fort, second card); plus the opening deal. Sprawlopolis:
    the deal and reveals of every card plus one play a card. Roll into Town: 12 rounds of 5 dice
    and, per player, at most 60 actions a round. Roll Builder: 15 turns of 2 dice and, per player,
    at most 60 actions a turn. The bounds are generous (random and greedy play stay well below).
    """
    if game.name == "kingdom-builder":
        return num_players * (16 * (3 + 16 + 1 + 5)) + num_players
    if game.name == "sprawlopolis":
        return 3 * 18 + 4
    if game.name == "roll-into-town":
        return 12 * (5 + 60 * num_players)
    if game.name == "roll-builder":
        return 15 * (2 + 60 * num_players)
    return 10_000


def solo_games() -> dict[str, tuple[str, dict[str, Any]]]:
    """Gymnasium ids -> (game id, options) of the single-agent games (see docs/rl.md)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {
        "Sprawlopolis-v0": ("sprawlopolis", {}),
        "RollIntoTown-v0": ("roll-into-town", {}),
    }
    for sheet in _sheets():
        out[f"RollBuilder-{sheet.capitalize()}-v0"] = ("roll-builder", {"sheet": sheet})
    return out


def _sheets() -> tuple[str, ...]:
    game = load_game("roll-builder")
    for spec in game.option_specs:
        if spec.name == "sheet" and spec.choices:
            return tuple(spec.choices)
    return (game.options.get("sheet", "rivermouth"),)
