"""Shared helpers for the Roll into Town tests: small known positions."""

from __future__ import annotations

from citybuilders.core.registry import load_game
from citybuilders.games.roll_into_town import rules as R
from citybuilders.games.roll_into_town.actions import BUILD, COLLECT, DISCOVER, MAINTAIN
from citybuilders.games.roll_into_town.scorefile import parse_map


def game(**opts):
    return load_game("roll-into-town", **opts)


def sheet(rows: list[str], **opts) -> R.Sheet:
    """A sheet from map rows (tokens as in docs/formats.md)."""
    g = game(rows=len(rows), cols=len(rows[0].split()), **opts)
    return parse_map(rows, g.geo, "map")


def cell(g, r, c):
    return r * g.options["cols"] + c


def state_at(phase: int, rows: list[str] | None = None, dice=(1, 2, 3, 4, 5), res=None,
             num_players=1, round_=0, **opts):
    """A state in ``phase`` of round ``round_`` (1-based internally 0) with every sheet set to
    ``rows``; the dice are rolled through chance actions."""
    size = len(rows) if rows else 9
    g = game(rows=size, cols=size, **opts)
    s = g.new_initial_state(num_players, 0)
    s.round = round_
    n = R.DICE_PER_ROUND[round_]
    dice = list(dice)[:n]
    for d in dice:
        s.apply_action(g.A_DIE + d - 1)
    assert s.phase == DISCOVER or all(s.done)
    if rows:
        s.sheets = [parse_map(rows, g.geo, "map") for _ in range(num_players)]
    for sh in s.sheets:
        if res is not None:
            sh.res = list(res)
    if phase != DISCOVER:
        s.phase = phase
        s.done = [False] * num_players
        if phase == MAINTAIN:
            for p in range(num_players):
                sh = s.sheets[p]
                s.growth[p] = [[(f & -f).bit_length() - 1, f.bit_count() // 2]
                               for f in sh.forests()]
    else:
        s._enter(DISCOVER)
    return s


def act(s, text, player=0):
    a = s.string_to_action(text, player)
    s.apply_action(a, player)
    return a


__all__ = ["game", "sheet", "cell", "state_at", "act", "BUILD", "COLLECT", "DISCOVER",
           "MAINTAIN"]
