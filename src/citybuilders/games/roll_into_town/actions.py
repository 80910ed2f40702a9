"""Roll into Town actions: the integer action encoding, the phases and the notation.

Action ids (``N = rows * cols``, cell ``i = row * cols + col``; :class:`ActionSpace` holds the
range starts of one map size)::

    range        id                                    meaning
    draw         (die * NVAR + variant) * N + cell      variant 0 farm, 1 mountain, 2 tree,
                                                        3-8 river shapes, 9 coast (then ``sides``)
    adjust       A_ADJ + die * 2 + (0: -1, 1: +1)       town hall
    sides        A_SIDES + k                            water sides of the coast just drawn
                                                        (k indexes loader.COAST_MASKS)
    fountain     A_FOUNTAIN
    build        A_BUILD + kind * N + anchor            kinds: loader.BUILD_KINDS (anchor =
                                                        top-left of the shape's bounding box)
    trade        A_TRADE + give * 3 + take              market: 2 of ``give`` for 1 of ``take``
    cut          A_CUT + cell                           use the lumberjack at cell
    grow         A_GROW + cell                          new tree (maintenance)
    done         A_DONE
    roll         A_DIE + face - 1                       chance: one die

Notation (:func:`action_text` / :func:`parse_action`): ``d1 farm 3,4``, ``d2 river NS 0,4``,
``d3 coast 2,2`` then ``sides NE``, ``adjust d1 +1``, ``fountain``, ``build house 3,4``,
``trade 2 wood for food``, ``cut 3,4``, ``grow 3,4``, ``done``, ``roll 5``.

Cell tokens (:func:`cell_token`; the observation, the sheet file, docs/formats.md): ``.``
empty, ``TH`` town hall, ``fa`` farm, ``mo`` mountain, ``tr`` tree, ``r:NS`` river with its two
flow sides, ``c:NE`` coast with its water sides, ``oc`` ocean; buildings in capitals: ``HO``
house, ``QU`` quarry, ``LJ`` lumberjack, ``HA`` harbor, ``WM`` watermill, ``TA`` tavern, ``FO``
fountain, ``MA`` market, ``LT``/``LB`` lighthouse top/bottom, ``CA`` cathedral. A building on a
coast or ocean is written ``terrain+BUILDING``, e.g. ``c:N+HA``, ``oc+LT``.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any

from ...core.i18n import N_
from . import loader as L

__all__ = [
    "Phase", "ROLL", "DISCOVER", "BUILD", "COLLECT", "MAINTAIN", "END", "PHASE_NAMES",
    "NVAR", "V_RIVER", "V_COAST", "VAR_MASK", "VAR_TERRAIN", "RIVER_VAR", "COAST_INDEX",
    "N_SHAPES", "FACE_SIMPLE", "ActionSpace", "mask_text", "parse_mask", "cell_token",
    "BUILDING_CODES", "TERRAIN_TOKENS", "ICON_WORDS", "decode", "action_text", "parse_action",
    "rc",
]


class Phase(IntEnum):
    """Phase codes of a round (rulebook game play), in order; ``END`` after round 12."""

    ROLL = 0
    DISCOVER = 1
    BUILD = 2
    COLLECT = 3
    MAINTAIN = 4
    END = 5


ROLL, DISCOVER, BUILD, COLLECT, MAINTAIN, END = (int(p) for p in Phase)
PHASE_NAMES = ("roll", "discover", "build", "collect", "maintenance", "game over")
"""Phase ids by code (saved positions and observations)."""

# draw variants
NVAR = 3 + len(L.RIVER_SHAPES) + 1  # 10
V_RIVER = 3
V_COAST = 3 + len(L.RIVER_SHAPES)
VAR_MASK = (0, 0, 0) + L.RIVER_SHAPES + (0,)
"""Flow-side mask of each draw variant (0 for non-river)."""
VAR_TERRAIN = (L.FARM, L.MOUNTAIN, L.TREE) + (L.RIVER,) * len(L.RIVER_SHAPES) + (L.COAST,)
RIVER_VAR = {m: V_RIVER + k for k, m in enumerate(L.RIVER_SHAPES)}
COAST_INDEX = {m: k for k, m in enumerate(L.COAST_MASKS)}
N_SHAPES = len(L.RIVER_SHAPES)
FACE_SIMPLE = ((), (0,), (1,), (2,), (), (), (0, 1, 2))
"""Die face -> draw variants among farm/mountain/tree it allows."""
N_TRADES = len(L.RESOURCES) ** 2


class ActionSpace:
    """Action-id range starts of a ``rows`` x ``cols`` map (see the module docstring), plus the
    precomputed tables of the move generators: ``die_actions``, ``die_outcomes``,
    ``die_thresholds`` (their running sums), ``draw_base[die][variant]``, ``build_base[kind]``."""

    FIELDS = ("n_cells", "A_ADJ", "A_SIDES", "A_FOUNTAIN", "A_BUILD", "A_TRADE", "A_CUT",
              "A_GROW", "A_DONE", "A_DIE", "n_actions", "die_actions", "die_outcomes",
              "die_thresholds", "draw_base", "build_base", "cols")
    __slots__ = FIELDS

    def __init__(self, rows: int, cols: int) -> None:
        n = rows * cols
        self.cols = cols
        self.n_cells = n
        self.A_ADJ = L.MAX_DICE * NVAR * n
        self.A_SIDES = self.A_ADJ + 2 * L.MAX_DICE
        self.A_FOUNTAIN = self.A_SIDES + len(L.COAST_MASKS)
        self.A_BUILD = self.A_FOUNTAIN + 1
        self.A_TRADE = self.A_BUILD + len(L.BUILD_KINDS) * n
        self.A_CUT = self.A_TRADE + N_TRADES
        self.A_GROW = self.A_CUT + n
        self.A_DONE = self.A_GROW + n
        self.A_DIE = self.A_DONE + 1
        self.n_actions = self.A_DIE + 6
        self.die_actions = tuple(range(self.A_DIE, self.A_DIE + 6))
        self.die_outcomes = tuple((a, 1 / 6) for a in self.die_actions)
        acc = 0.0
        thresholds = []
        for a, prob in self.die_outcomes:  # the running sums State.sample_chance compares with
            acc += prob
            thresholds.append((a, acc))
        self.die_thresholds = tuple(thresholds)
        self.draw_base = tuple(tuple((d * NVAR + v) * n for v in range(NVAR))
                               for d in range(L.MAX_DICE))
        self.build_base = tuple(self.A_BUILD + k * n for k in range(len(L.BUILD_KINDS)))


# ----------------------------------------------------------------------------- sides
def mask_text(mask: int) -> str:
    """Side mask as letters in N, E, S, W order (``9`` -> ``"NW"``)."""
    return "".join(L.SIDE_LETTERS[s] for s in range(4) if mask >> s & 1)


def parse_mask(text: str) -> int:
    """Letters N/E/S/W in any order -> side mask; ValueError for anything else or repeats."""
    mask = 0
    for ch in text.upper():
        k = L.SIDE_LETTERS.find(ch)
        if k < 0 or mask >> k & 1:
            raise ValueError(N_("bad sides {text!r}: use each of N, E, S, W at most once",
                                text=text))
        mask |= 1 << k
    if not mask:
        raise ValueError(N_("no sides given"))
    return mask


# ----------------------------------------------------------------------------- cell tokens
BUILDING_CODES = {L.B_HOUSE: "HO", L.B_QUARRY: "QU", L.B_LUMBERJACK: "LJ", L.B_HARBOR: "HA",
                  L.B_WATERMILL: "WM", L.B_TAVERN: "TA", L.B_FOUNTAIN: "FO", L.B_MARKET: "MA",
                  L.B_LIGHT_TOP: "LT", L.B_LIGHT_BOTTOM: "LB", L.B_CATHEDRAL: "CA"}
TERRAIN_TOKENS = {L.EMPTY: ".", L.FARM: "fa", L.MOUNTAIN: "mo", L.TREE: "tr", L.OCEAN: "oc",
                  L.TOWN_HALL: "TH"}
ICON_WORDS = ("farm", "mountain", "tree")


def cell_token(sheet: Any, i: int) -> str:
    """The token of cell ``i`` of ``sheet`` (a ``rules.Sheet``; see the module docstring)."""
    t = sheet.terrain[i]
    if t == L.RIVER:
        base = "r:" + mask_text(sheet.sides[i])
    elif t == L.COAST:
        base = "c:" + mask_text(sheet.sides[i])
    else:
        base = TERRAIN_TOKENS[t]
    b = sheet.bld[i]
    if not b:
        return base
    code = BUILDING_CODES[b]
    return code if t == L.EMPTY else f"{base}+{code}"


# ----------------------------------------------------------------------------- notation
def rc(space: ActionSpace, cell: int) -> str:
    """``"row,col"`` of a cell index."""
    r, c = divmod(cell, space.cols)
    return f"{r},{c}"


def decode(space: ActionSpace, action: int) -> tuple[str, tuple[int, ...]]:
    """``(kind, fields)``: ``("draw", (die, variant, cell))``, ``("adjust", (die, +1|-1))``,
    ``("sides", (water mask,))``,
    ``("fountain", ())``, ``("build", (kind, anchor))``, ``("trade", (give, take))``,
    ``("cut", (cell,))``, ``("grow", (cell,))``, ``("done", ())``, ``("roll", (face,))``.

    Raises ValueError for an id outside the action space.
    """
    g = space
    n = g.n_cells
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < g.n_actions:
        raise ValueError(f"action id {action!r} is out of range 0-{g.n_actions - 1}")
    if action < g.A_ADJ:
        rest, cell = divmod(action, n)
        die, var = divmod(rest, NVAR)
        return "draw", (die, var, cell)
    if action < g.A_SIDES:
        k = action - g.A_ADJ
        return "adjust", (k >> 1, 1 if k & 1 else -1)
    if action < g.A_FOUNTAIN:
        return "sides", (L.COAST_MASKS[action - g.A_SIDES],)
    if action == g.A_FOUNTAIN:
        return "fountain", ()
    if action < g.A_TRADE:
        kind, anchor = divmod(action - g.A_BUILD, n)
        return "build", (kind, anchor)
    if action < g.A_CUT:
        give, take = divmod(action - g.A_TRADE, 3)
        return "trade", (give, take)
    if action < g.A_GROW:
        return "cut", (action - g.A_CUT,)
    if action < g.A_DONE:
        return "grow", (action - g.A_GROW,)
    if action == g.A_DONE:
        return "done", ()
    return "roll", (action - g.A_DIE + 1,)


def _icon_text(var: int) -> str:
    if var < V_RIVER:
        return ICON_WORDS[var]
    if var < V_COAST:
        return "river " + mask_text(VAR_MASK[var])
    return "coast"


def action_text(space: ActionSpace, action: int) -> str:
    """Readable notation of ``action`` (see the module docstring). Raises ValueError for an id
    outside the action space."""
    kind, f = decode(space, action)
    if kind == "draw":
        return f"d{f[0] + 1} {_icon_text(f[1])} {rc(space, f[2])}"
    if kind == "adjust":
        return f"adjust d{f[0] + 1} {'+1' if f[1] > 0 else '-1'}"
    if kind == "sides":
        return f"sides {mask_text(f[0])}"
    if kind == "build":
        return f"build {L.BUILD_KINDS[f[0]][0]} {rc(space, f[1])}"
    if kind == "trade":
        return f"trade 2 {L.RESOURCES[f[0]]} for {L.RESOURCES[f[1]]}"
    if kind in ("cut", "grow"):
        return f"{kind} {rc(space, f[0])}"
    if kind == "roll":
        return f"roll {f[0]}"
    return kind


_CELL = r"(\d+)\s*,\s*(\d+)"


def _cell(space: ActionSpace, r: str, c: str) -> int:
    cols = space.cols
    rows = space.n_cells // cols
    ri, ci = int(r), int(c)
    if not (0 <= ri < rows and 0 <= ci < cols):
        raise ValueError(f"cell {ri},{ci} is off the map (rows 0-{rows - 1}, cols 0-{cols - 1})")
    return ri * cols + ci


def parse_action(space: ActionSpace, text: str) -> int:
    """Parse notation into an action id (legality not checked). Raises ValueError saying which
    forms are accepted."""
    t = " ".join(text.strip().lower().split())
    n = space.n_cells
    m = re.fullmatch(r"d(\d)\s+(farm|mountain|tree|river|coast)\s*([nesw]*)\s+" + _CELL, t)
    if m:
        die = int(m.group(1)) - 1
        if not 0 <= die < L.MAX_DICE:
            raise ValueError(f"die must be d1-d{L.MAX_DICE}")
        icon, sides = m.group(2), m.group(3)
        cell = _cell(space, m.group(4), m.group(5))
        if icon in ICON_WORDS:
            if sides:
                raise ValueError(f"a {icon} has no sides")
            var = ICON_WORDS.index(icon)
        elif icon == "coast":
            if sides:
                raise ValueError("draw the coast first ('d1 coast 3,4'), then choose its "
                                 "water sides ('sides NE')")
            var = V_COAST
        else:
            if not sides:
                raise ValueError("a river needs its two flow sides, e.g. 'd1 river NS 0,4'")
            mask = parse_mask(sides)
            if mask not in RIVER_VAR:
                raise ValueError("a river takes two sides: NS, EW, NE, ES, SW or NW")
            var = RIVER_VAR[mask]
        return (die * NVAR + var) * n + cell
    m = re.fullmatch(r"sides\s+([nesw]+)", t)
    if m:
        mask = parse_mask(m.group(1))
        if mask not in COAST_INDEX:
            raise ValueError("a coast has water on 1, 2 or 3 sides")
        return space.A_SIDES + COAST_INDEX[mask]
    m = re.fullmatch(r"adjust\s+d(\d)\s*([+-]1)", t)
    if m:
        die = int(m.group(1)) - 1
        if not 0 <= die < L.MAX_DICE:
            raise ValueError(f"die must be d1-d{L.MAX_DICE}")
        return space.A_ADJ + 2 * die + (1 if m.group(2) == "+1" else 0)
    if t == "fountain":
        return space.A_FOUNTAIN
    if t == "done":
        return space.A_DONE
    m = re.fullmatch(r"build\s+([a-z-]+)\s+" + _CELL, t)
    if m:
        names = [k[0] for k in L.BUILD_KINDS]
        if m.group(1) not in names:
            raise ValueError(f"unknown building {m.group(1)!r}; allowed: {', '.join(names)}")
        return space.A_BUILD + names.index(m.group(1)) * n + _cell(space, m.group(2),
                                                                   m.group(3))
    m = re.fullmatch(r"trade\s+(?:2\s+)?(food|stone|wood)\s+(?:for\s+)?(food|stone|wood)", t)
    if m:
        return (space.A_TRADE + L.RESOURCES.index(m.group(1)) * 3
                + L.RESOURCES.index(m.group(2)))
    m = re.fullmatch(r"(cut|grow)\s+" + _CELL, t)
    if m:
        base = space.A_CUT if m.group(1) == "cut" else space.A_GROW
        return base + _cell(space, m.group(2), m.group(3))
    m = re.fullmatch(r"roll\s+([1-6])", t)
    if m:
        return space.A_DIE + int(m.group(1)) - 1
    raise ValueError(
        "not a move; forms: 'd1 farm 3,4', 'd2 river NS 0,4', 'd3 coast 2,2' then 'sides NE', "
        "'adjust d1 +1', 'fountain', 'build house 3,4', 'trade 2 wood for food', "
        "'cut 3,4', 'grow 3,4', 'done'")
