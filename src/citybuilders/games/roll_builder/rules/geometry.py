"""Roll Builder sheet geometry: hex spaces, corners and edges of a city sheet's map.

Geometry (research digest, rules_proposal.json "geometry"; the rulebook only says spaces are hexes):
pointy-top hexes in odd-r offset rows (odd rows shifted half a hex right). Centre lattice
``X = 2*col + row % 2``, ``Y = 3*row``; corner offsets N(0,-2) NE(1,-1) SE(1,1) S(0,2) SW(-1,1)
NW(-1,-1). An edge is the pair of its two corners and is shared by the (up to) two spaces on its
sides. Rulebook ("Ação de Estrada"): a space touched by a road, even at a corner, is connected;
road sides cut by the map border cannot be used (digest: a side is usable when it is a side of at
least one full, non-partial space).

Notation: a space is ``row,col``; an edge ``row,col,SIDE`` with SIDE one of :data:`SIDES`, named
from either of its two spaces.
"""

from __future__ import annotations

import re
from typing import Any

from ....core.i18n import N_

__all__ = ["SIDES", "CORNERS", "parse_space", "parse_edge", "build_geometry", "hex_centre"]

SIDES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
NEIGHBOUR_STEP = {
    0: {"E": (0, 1), "W": (0, -1), "NE": (-1, 0), "NW": (-1, -1), "SE": (1, 0), "SW": (1, -1)},
    1: {"E": (0, 1), "W": (0, -1), "NE": (-1, 1), "NW": (-1, 0), "SE": (1, 1), "SW": (1, 0)},
}
CORNER_OFFSET = {"N": (0, -2), "NE": (1, -1), "SE": (1, 1), "S": (0, 2), "SW": (-1, 1), "NW": (-1, -1)}
SIDE_CORNERS = {
    "E": ("NE", "SE"), "NE": ("N", "NE"), "NW": ("NW", "N"),
    "W": ("SW", "NW"), "SW": ("S", "SW"), "SE": ("SE", "S"),
}
CORNERS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""Corner names of a space, clockwise from the top (the order of ``space_corners``)."""


def hex_centre(r: int, c: int) -> tuple[int, int]:
    """Lattice centre ``(X, Y)`` of space ``r,c`` (``X = 2*col + row % 2``, ``Y = 3*row``)."""
    return 2 * c + (r & 1), 3 * r


def parse_space(text: Any) -> tuple[int, int]:
    """``"r,c"`` (or ``[r, c]``) -> ``(r, c)``. Raises ValueError (its message an ``N_``
    message, translated where it is shown)."""
    if isinstance(text, (list, tuple)) and len(text) == 2:
        r, c = text
        if isinstance(r, int) and isinstance(c, int):
            return r, c
        raise ValueError(N_("bad space {text!r}; expected [row, col]", text=text))
    m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*", str(text))
    if not m:
        raise ValueError(N_("bad space {text!r}; expected 'row,col'", text=text))
    return int(m.group(1)), int(m.group(2))


def parse_edge(text: Any) -> tuple[int, int, str]:
    """``"r,c,SIDE"`` (or ``[r, c, SIDE]``) -> ``(r, c, SIDE)``; SIDE in E NE NW W SW SE."""
    if isinstance(text, (list, tuple)) and len(text) == 3:
        r, c, side = text
        text = f"{r},{c},{side}"
    m = re.fullmatch(r"\s*(\d+)\s*,\s*(\d+)\s*[, ]\s*([A-Za-z]{1,2})\s*", str(text))
    if not m or m.group(3).upper() not in SIDES:
        raise ValueError(N_("bad edge {text!r}; expected 'row,col,SIDE' with SIDE one of {sides}",
                            text=text, sides=" ".join(SIDES)))
    return int(m.group(1)), int(m.group(2)), m.group(3).upper()



def build_geometry(sh: Any) -> None:
    """Fill the geometry tables of a compiled sheet ``sh`` (``rows``, ``cols`` and ``terrain``
    set): ``space_corners``, ``space_edges`` (order :data:`SIDES`), ``neighbors``, ``corner_xy``,
    ``corner_spaces``/``corner_edges`` bitsets, ``edge_corners``, ``edge_spaces``, ``edge_name``
    (named from a full space when there is one) and ``edge_lookup``."""
    rows, cols = sh.rows, sh.cols
    corner_id: dict[tuple[int, int], int] = {}
    edge_id: dict[tuple[int, int], int] = {}
    edge_members: list[list[tuple[int, str]]] = []
    for r in range(rows):
        for c in range(cols):
            s = r * cols + c
            X, Y = hex_centre(r, c)
            cs = []
            for k in CORNERS:
                dx, dy = CORNER_OFFSET[k]
                key = (X + dx, Y + dy)
                if key not in corner_id:
                    corner_id[key] = len(corner_id)
                    sh.corner_xy.append(key)
                    sh.corner_spaces.append(0)
                    sh.corner_edges.append(0)
                cs.append(corner_id[key])
                sh.corner_spaces[corner_id[key]] |= 1 << s
            sh.space_corners.append(tuple(cs))
            es = []
            for side in SIDES:
                a, b = SIDE_CORNERS[side]
                ka = (X + CORNER_OFFSET[a][0], Y + CORNER_OFFSET[a][1])
                kb = (X + CORNER_OFFSET[b][0], Y + CORNER_OFFSET[b][1])
                ca, cb = corner_id[ka], corner_id[kb]
                key = (min(ca, cb), max(ca, cb))
                if key not in edge_id:
                    edge_id[key] = len(edge_id)
                    sh.edge_corners.append(key)
                    edge_members.append([])
                e = edge_id[key]
                edge_members[e].append((s, side))
                sh.edge_lookup[(r, c, side)] = e
                es.append(e)
            sh.space_edges.append(tuple(es))
            nb = []
            for side in SIDES:
                dr, dc = NEIGHBOUR_STEP[r & 1][side]
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    nb.append(rr * cols + cc)
            sh.neighbors.append(tuple(nb))
    sh.n_corners = len(corner_id)
    sh.n_edges = len(edge_id)
    for e, (ca, cb) in enumerate(sh.edge_corners):
        sh.corner_edges[ca] |= 1 << e
        sh.corner_edges[cb] |= 1 << e
        members = edge_members[e]
        sh.edge_spaces.append(tuple(s for s, _ in members))
        full = [m for m in members if sh.terrain[m[0]] != "partial"] or members
        s, side = full[0]
        sh.edge_name.append(f"{s // cols},{s % cols},{side}")
