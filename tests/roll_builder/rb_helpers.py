"""Helpers for Roll Builder tests: set dice, act by notation."""
from __future__ import annotations

from citybuilders.core.registry import load_game
from citybuilders.games.roll_builder.rules.state import RollBuilderState


def new(sheet: str = "rivermouth", players: int = 1, **opts) -> RollBuilderState:
    return load_game("roll-builder", sheet=sheet, **opts).new_initial_state(players, 0)


def roll(s: RollBuilderState, a: int, b: int) -> None:
    s.apply_action(a - 1)
    s.apply_action(b - 1)


def do(s: RollBuilderState, *moves: str, player: int = 0) -> None:
    for m in moves:
        s.apply_action(s.string_to_action(m, player), player)


def legal(s: RollBuilderState, player: int = 0) -> list[str]:
    return [s.action_to_string(a, player) for a in s.legal_actions(player)]
