"""Position builders for Kingdom Builder tests."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import citybuilders
from citybuilders.core.game import CHANCE
from citybuilders.core.grid import hex_neighbors
from citybuilders.games.kingdom_builder.actions import BUILD_BASE, CARD_BASE
from citybuilders.games.kingdom_builder.rules.board import CARD_TERRAINS
from citybuilders.games.kingdom_builder.rules.state import KingdomBuilderState
from citybuilders.games.kingdom_builder.rules.tiles import TILE_KINDS

FIRST = ["tavern:0", "paddock:0", "oasis:0", "farm:0"]
"""The rulebook's first-game layout (all 0°)."""
LAYOUT_B = ["oracle:0", "harbor:180", "tower:0", "barn:180"]
"""The other four base sections, two of them rotated."""


def h(r: int, c: int) -> int:
    """Hex index of global (r, c)."""
    return r * 20 + c


def mask(*cells: tuple[int, int]) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << h(r, c)
    return m


def new_state(
    n: int = 2,
    sections: list[str] | None = None,
    cards: list[str] | None = None,
    hands: list[str] | None = None,
    start: int = 0,
    pieces: dict[int, list[tuple[int, int]]] | None = None,
    **options: Any,
) -> KingdomBuilderState:
    """A state at the start player's first turn with given hands and pre-placed settlements
    (pre-placed pieces take no tiles and come out of the supply)."""
    g = citybuilders.load_game(
        "kingdom-builder",
        sections=sections or FIRST,
        cards=cards or ["fishermen", "knights", "merchants"],
        start_player=start,
        **options,
    )
    s = g.new_initial_state(n, 0)
    for p, cells in (pieces or {}).items():
        put(s, p, *cells)
    hands = hands or ["grass"] * n
    for p in range(n):
        s.apply_action(CARD_BASE + CARD_TERRAINS.index(hands[p]))
    return s


def put(s: KingdomBuilderState, p: int, *cells: tuple[int, int]) -> None:
    """Place settlements of ``p`` directly (no tiles, supply decreases)."""
    for r, c in cells:
        bit = 1 << h(r, c)
        assert not s.all_occ & bit, (r, c)
        s.stl[p] |= bit
        s.occ[p] |= bit
        s.all_occ |= bit
        s.supply[p] -= 1


def loc_id(s: KingdomBuilderState, r: int, c: int) -> int:
    for k, (hx, _) in enumerate(s.board.locations):
        if hx == h(r, c):
            return k
    raise AssertionError(f"no location at {r},{c}")


def give_tile(s: KingdomBuilderState, p: int, r: int, c: int, status: int = 1) -> None:
    """Give ``p`` the tile of the location at (r, c) with ``status`` (1 = ready)."""
    k = loc_id(s, r, c)
    s.hold[p * s.nloc + k] = status
    s.loc_left[k] -= 1


def hexes_of_actions(actions: list[int], base: int) -> set[tuple[int, int]]:
    return {divmod(a - base, 20) for a in actions if base <= a < base + 400}


def build_targets(s: KingdomBuilderState) -> set[tuple[int, int]]:
    return hexes_of_actions(s.legal_actions(), BUILD_BASE)


def tile_targets(s: KingdomBuilderState, kind: str) -> set[tuple[int, int]]:
    return hexes_of_actions(s.legal_actions(), TILE_KINDS[kind].base)


def tile_moves(s: KingdomBuilderState, kind: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    k = TILE_KINDS[kind]
    out = set()
    for a in s.legal_actions():
        if k.base <= a < k.base + k.size:
            src, dst = divmod(a - k.base, 400)
            out.add((divmod(src, 20), divmod(dst, 20)))
    return out


def play_random(g: Any, n: int, seed: int, every: int, stop: float = 1.0) -> tuple[Any, list[Any]]:
    """Play a random game of ``g`` (``n`` players, ``seed``; uniform legal actions, chance by
    ``sample_chance``); returns ``(final_state, seen)`` where ``seen`` holds a clone every
    ``every`` steps and the final state. After each step the game stops early with probability
    ``1 - stop``."""
    s = g.new_initial_state(n, seed)
    rng = random.Random(seed)
    seen = []
    steps = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            a = s.sample_chance(rng)
        else:
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
        s.apply_action(a)
        steps += 1
        if steps % every == 0:
            seen.append(s.clone())
        if rng.random() > stop:
            break
    seen.append(s)
    return s, seen


def free_bfs(s: Any, start: tuple[int, int], free: int, steps: int = 3) -> set[tuple[int, int]]:
    """``(row, col)`` hexes reachable from ``start`` in 1..``steps`` steps through the hexes of
    the bitset ``free`` (a slow reference for piece moves)."""
    frontier = {start}
    seen = {start}
    for _ in range(steps):
        nxt = set()
        for r, c in frontier:
            for rr, cc in hex_neighbors(r, c, 20, 20):
                if (rr, cc) not in seen and free >> h(rr, cc) & 1:
                    nxt.add((rr, cc))
        seen |= nxt
        frontier = nxt
    return seen - {start}


def random_steps(s: Any, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` random actions (chance by ``sample_chance``) to ``s`` in place,
    stopping at the end of the game."""
    for _ in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(s.sample_chance(rng) if s.current_player() == CHANCE
                       else legal[rng.randrange(len(legal))])


def run_cli(capsys: Any, *args: str) -> tuple[int, str, str]:
    """``citybuilders <args>`` in-process: ``(exit code, stdout, stderr)``."""
    from citybuilders.cli import main

    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def cli_moves(capsys: Any, tmp_path: Any, s: Any) -> tuple[int, list[str], Path]:
    """Save ``s`` as ``tmp_path/state.json`` and run ``citybuilders moves`` on it:
    ``(exit code, output lines, the file)``."""
    f = tmp_path / "state.json"
    f.write_text(json.dumps(s.to_json()))
    code, out, _ = run_cli(capsys, "moves", str(f))
    return code, out.strip().splitlines(), f


def check_json_roundtrip(s: Any) -> None:
    """``s`` survives ``to_json`` -> JSON text -> ``state_from_json`` unchanged (equal state,
    same legal actions)."""
    again = s.game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.legal_actions() == s.legal_actions()


def check_record_replay(final: Any) -> None:
    """The game record of ``final`` (through JSON text) replays to an equal state."""
    from citybuilders.core.records import record_of, replay

    rec = record_of(final)
    assert replay(json.loads(json.dumps(rec.to_json()))) == final
