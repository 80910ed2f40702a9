"""Kingdom Builder text/SVG: the key under the text board explains every glyph on it, and
every human-facing label numbers the players from 1 (P1, P2...)."""

from __future__ import annotations

import re

from citybuilders.games.kingdom_builder.actions import BUILD_BASE

from .helpers import h, new_state

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _board_and_key(text: str) -> tuple[list[str], list[str]]:
    lines = text.splitlines()
    board = lines[1:21]
    assert [int(line[:2]) for line in board] == list(range(20))
    return board, lines[21:23]


def test_key_under_the_board_lists_terrains_castle_location_players_and_marker() -> None:
    s = new_state(n=3, pieces={0: [(4, 5)], 1: [(9, 9)], 2: [(15, 3)]}, hands=["grass"] * 3)
    text = s.render_text(0)
    board, key = _board_and_key(text)
    assert key == [
        "key: G grass  C canyon  D desert  F flower field  T forest  W water  M mountain",
        "     K castle  L location (listed below)  * legal hex  settlements: 1 P1  2 P2  3 P3",
    ]
    # every glyph drawn on the board is explained by the key
    glyphs = set("".join(line[4:] for line in board)) - {" "}
    explained = set(re.findall(r"(?:^|  |: )(\S) ", key[0] + "\n" + key[1]))
    assert glyphs <= explained, glyphs - explained
    # settlements show their owner's 1-based number, the same as the key and the labels
    assert " 1  " in board[4] and " 2  " in board[9] and " 3  " in board[15]
    assert "P1: card grass" in text and "P3: card hidden" in text
    assert "P1 to move; mandatory action: 0 of 3 built; legal hexes marked *" in text


def test_key_without_legal_marker_for_an_onlooker_and_coloured_digits() -> None:
    s = new_state(pieces={0: [(4, 5)]})
    _, key = _board_and_key(s.render_text(1))
    assert "*" not in "".join(key) and key[1].endswith("settlements: 1 P1  2 P2")
    coloured = s.render_text(0, color=True)
    _, ckey = _board_and_key(coloured)
    assert [_ANSI.sub("", line) for line in ckey] == _board_and_key(s.render_text(0))[1]
    assert "\x1b[48;5;160m\x1b[97;1m1\x1b[0m P1" in ckey[1]


def test_no_zero_based_player_labels_and_discard_none() -> None:
    s = new_state(pieces={0: [(4, 5)]})
    text = s.render_text(None)
    svg = s.render_svg(None)
    for out in (text, svg):
        assert not re.search(r"[Pp]layer \d", out)
    assert "deck 23 cards; discard: none" in text
    assert ">P1 to move, card: grass</text>" in svg
    assert ">P1: 2 gold, supply 39</text>" in svg and ">P2: 0 gold, supply 40</text>" in svg
    assert s.game.describe_setup(s).endswith("| start P1")


def test_wrong_player_error_names_the_player_from_one() -> None:
    s = new_state()
    assert s.explain_illegal(BUILD_BASE + h(0, 0), 1) == "'build 0,0': it is P1's turn"


def test_game_over_line_names_winners_from_one() -> None:
    s = new_state(pieces={0: [(4, 5)]})
    s.over = True
    text = s.render_text(None)
    assert re.search(r"game over; winner\(s\): P[12](, P[12])?$", text)
