"""Hex-edge geometry: corners, shared edges, corner connection, border-cut sides, restrictions."""
from __future__ import annotations

from citybuilders.games.roll_builder.loader import load_shipped_sheet


def test_grid_counts() -> None:
    sh = load_shipped_sheet("goldplain")
    assert (sh.rows, sh.cols, sh.n_spaces) == (9, 11, 99)
    assert sh.n_corners == 238 and sh.n_edges == 336


def test_shared_edge_named_from_both_sides() -> None:
    sh = load_shipped_sheet("goldplain")
    # even row 4: NE neighbour of (4,5) is (3,5); odd row 3: SW neighbour of (3,5) is (4,5)
    assert sh.edge_of("4,5,NE") == sh.edge_of("3,5,SW")
    assert sh.edge_of("4,5,E") == sh.edge_of("4,6,W")
    # odd row 3: SE neighbour of (3,5) is (4,6)
    assert sh.edge_of("3,5,SE") == sh.edge_of("4,6,NW")
    assert sh.edge_of("4,5,NE") != sh.edge_of("4,5,E")


def test_corner_touches_three_spaces() -> None:
    sh = load_shipped_sheet("goldplain")
    # the N corner of (4,5) is shared by (4,5), (3,4) and (3,5)
    c = sh.space_corners[4 * 11 + 5][0]
    assert [sh.space_name(s) for s in range(99) if sh.corner_spaces[c] >> s & 1] == [
        "3,4", "3,5", "4,5"]


def test_border_cut_sides_unusable() -> None:
    sh = load_shipped_sheet("goldplain")
    # (0,0) is a partial space: its W side is cut by the border; its E side borders full (0,1)
    assert not sh.usable_edges >> sh.edge_of("0,0,W") & 1
    assert sh.usable_edges >> sh.edge_of("0,0,E") & 1
    # outer N sides of a full space are usable
    assert sh.usable_edges >> sh.edge_of("0,3,NE") & 1
    # 9 partial spaces
    assert sum(t == "partial" for t in sh.terrain) == 9


def test_water_restriction() -> None:
    sh = load_shipped_sheet("rivermouth")
    # (6,8) and (6,9) are both water: closed; (6,8)-(6,7) water-land: open
    assert not sh.usable_edges >> sh.edge_of("6,8,E") & 1
    assert sh.usable_edges >> sh.edge_of("6,8,W") & 1
    # water next to the map outside (8,10 S side) is closed
    assert not sh.usable_edges >> sh.edge_of("8,10,SE") & 1
    # river edges: 14, blocked until Bridges
    assert sh.river_block.bit_count() == 14
    assert sh.river_block >> sh.edge_of("4,6,E") & 1


def test_ridges_highcrag() -> None:
    sh = load_shipped_sheet("highcrag")
    # (1,1) and (1,2) are both mountains
    assert sh.ridge_edges >> sh.edge_of("1,1,E") & 1
    assert sh.ridge_edges.bit_count() == 11


