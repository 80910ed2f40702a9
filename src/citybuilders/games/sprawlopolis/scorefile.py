"""The Sprawlopolis score calculator (``citybuilders score sprawlopolis FILE [--json]``).

Two input forms (docs/formats.md, Sprawlopolis section)::

    {"game": "sprawlopolis", "conditions": [n1, n2, n3],
     "cards": [{"card": n, "row": r, "col": c, "rot": 0}, ...]}     # in play order

    {"game": "sprawlopolis", "conditions": [n1, n2, n3],
     "grid": ["P I-NE", "C-EW R-EW"]}                                # block tokens, top row first

``cards``: (row, col) = the card's top-left block in block units, rows grow downward; each card
covers rows r..r+1 and columns c..c+1 in the orientation of the card data, rotated by ``rot``
(0 or 180); later cards cover earlier ones. Every card after the first must be a legal placement
(shares a block edge with the city or covers a block; not corner-only, not detached), no card twice,
no condition card. ``grid``: any zone with or without a road piece, ``.`` for an empty cell; a grid
is a scoring input and need not be reachable by play. An optional ``"options"`` object sets rules
options (e.g. ``{"city_edge": "outer"}``).

Errors raise FormatError with one line naming the field (and the card) and the problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from ...core.errors import CitybuildersError, FormatError
from ...core.game import ScoreResult
from .cards import CARDS, parse_token
from .city import MAX_USER, MIN_USER, WIDTH, City, index_of, placement_problem
from .scoring import Breakdown, Rules, condition_name, score_city

if TYPE_CHECKING:  # pragma: no cover
    from .game import SprawlopolisGame

__all__ = ["SprawlScoreResult", "score_file", "grid_cells", "cards_city"]

MAX_GRID = WIDTH - 6


class SprawlScoreResult(ScoreResult):
    """A scored city: ``breakdown`` (see :class:`.scoring.Breakdown`)."""

    def __init__(self, breakdown: Breakdown) -> None:
        self.breakdown = breakdown

    def to_json(self) -> dict[str, Any]:
        """``{"total", "target", "won", "groups": {zone: int}, "roads": int, "conditions": {"n": int}}``."""
        return self.breakdown.to_json()

    def to_text(self) -> str:
        """A readable table of the breakdown."""
        b = self.breakdown
        rows: list[tuple[str, int]] = [(f"largest {zone} group", v) for zone, v in b.groups.items()]
        if b.blocks != sum(b.groups.values()):
            rows.append(("block points (harder)", b.blocks))
        rows.append((f"roads ({b.roads})", -b.road_tax))
        rows += [(f"{n} {condition_name(n)}", v) for n, v in b.conditions.items()]
        rows += [("total", b.total), ("target", b.target)]
        lines = ["Sprawlopolis score", ""]
        lines += [f"  {label:<28}{value:>5}" for label, value in rows]
        lines.append("")
        lines.append("WON: the city reaches the target" if b.won else "LOST: below the target")
        return "\n".join(lines)


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{field}: expected an integer, got {value!r}")
    return value


def _conditions(data: Mapping[str, Any]) -> list[int]:
    conds = data.get("conditions")
    if not isinstance(conds, list) or len(conds) != 3:
        raise FormatError("conditions: expected a list of 3 condition card numbers (1-18)")
    out = []
    for k, n in enumerate(conds):
        n = _int(n, f"conditions[{k}]")
        if n not in CARDS:
            raise FormatError(f"conditions[{k}]: unknown card {n}; cards are numbered 1-18")
        if n in out:
            raise FormatError(f"conditions[{k}]: card {n} is listed twice")
        out.append(n)
    return out


def grid_cells(rows: Any) -> tuple[list[int], list[int]]:
    """Flat cells and occupied list of a ``grid`` (list of token rows). Raises FormatError."""
    if not isinstance(rows, list) or not rows:
        raise FormatError("grid: expected a non-empty list of rows of block tokens")
    if len(rows) > MAX_GRID:
        raise FormatError(f"grid: at most {MAX_GRID} rows")
    width = None
    cells = [0] * (WIDTH * WIDTH)
    occ: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise FormatError(f"grid[{r}]: expected a string of block tokens, got {row!r}")
        tokens = row.split()
        if width is None:
            width = len(tokens)
            if not 1 <= width <= MAX_GRID:
                raise FormatError(f"grid[{r}]: expected 1 to {MAX_GRID} block tokens")
        elif len(tokens) != width:
            raise FormatError(
                f"grid[{r}]: has {len(tokens)} tokens, row 0 has {width}; use '.' for empty cells"
            )
        for c, tok in enumerate(tokens):
            try:
                code = parse_token(tok)
            except ValueError as exc:
                raise FormatError(f"grid[{r}] column {c}: {exc}") from None
            if code:
                i = (r + 3) * WIDTH + c + 3
                cells[i] = code
                occ.append(i)
    if not occ:
        raise FormatError("grid: no blocks at all")
    return cells, occ


def cards_city(entries: Any, conditions: list[int], cover_whole_card: str = "allowed") -> City:
    """Build a city from ``cards`` entries in play order, checking every placement.

    Raises FormatError naming the entry and card: unknown card, card used twice, condition card,
    rotation other than 0/180, corner-only or detached placement.
    """
    if not isinstance(entries, list) or not entries:
        raise FormatError("cards: expected a non-empty list of {card, row, col, rot} objects")
    parsed = []
    used: dict[int, int] = {}
    for k, e in enumerate(entries):
        where = f"cards[{k}]"
        if not isinstance(e, Mapping):
            raise FormatError(f"{where}: expected an object with card, row, col, rot")
        for key in e:
            if key not in ("card", "row", "col", "rot"):
                raise FormatError(f"{where}: unknown key '{key}'; allowed: card, row, col, rot")
        for key in ("card", "row", "col"):
            if key not in e:
                raise FormatError(f"{where}: missing '{key}'")
        card = _int(e["card"], f"{where}.card")
        if card not in CARDS:
            raise FormatError(f"{where}: unknown card {card}; cards are numbered 1-18")
        where = f"cards[{k}] (card {card})"
        if card in used:
            raise FormatError(f"{where}: card {card} is used twice (also cards[{used[card]}])")
        if card in conditions:
            raise FormatError(
                f"{where}: card {card} is a scoring condition of this game; its blocks side is not used"
            )
        used[card] = k
        row = _int(e["row"], f"{where}.row")
        col = _int(e["col"], f"{where}.col")
        rot = _int(e.get("rot", 0), f"{where}.rot")
        if rot not in (0, 180):
            raise FormatError(
                f"{where}: rotation {rot} is not allowed; cards stay horizontal (rot 0 or 180)"
            )
        parsed.append((card, row, col, rot))
    r0, c0 = parsed[0][1], parsed[0][2]
    city = City()
    for k, (card, row, col, rot) in enumerate(parsed):
        # translate so the first card sits at 0,0 as in a game (translation changes nothing);
        # a connected city of 15 cards stays within MIN_USER..MAX_USER of its first card
        dr, dc = row - r0, col - c0
        if not (MIN_USER <= dr <= MAX_USER and MIN_USER <= dc <= MAX_USER):
            raise FormatError(
                f"cards[{k}] (card {card}) at {row},{col}: illegal placement, does not touch the "
                f"city (it is {max(abs(dr), abs(dc))} blocks from cards[0])"
            )
        pos = index_of(dr, dc)
        if k > 0:
            why = placement_problem(city.cells, pos)
            if why is None and cover_whole_card == "forbidden" and city.buries_a_card(pos):
                why = "covers every visible block of an earlier card (cover_whole_card=forbidden)"
            if why is not None:
                raise FormatError(f"cards[{k}] (card {card}) at {row},{col}: illegal placement, {why}")
        city.place(card, pos, 1 if rot == 180 else 0)
    return city


def score_file(game: "SprawlopolisGame", data: Mapping[str, Any]) -> SprawlScoreResult:
    """Score a city file for ``game`` (its rules options, overridden by the file's ``options``).

    Raises FormatError for a malformed file or an illegal placement (one line, names the field).
    """
    if not isinstance(data, Mapping):
        raise FormatError("file: expected a JSON object")
    for key in data:
        if key not in ("game", "conditions", "cards", "grid", "options"):
            raise FormatError(
                f"unknown key '{key}'; allowed: game, conditions, cards, grid, options"
            )
    options = dict(game.options)
    if "options" in data:
        extra = data["options"]
        if not isinstance(extra, Mapping):
            raise FormatError("options: expected an object of rules options")
        try:
            from .game import SprawlopolisGame

            options = SprawlopolisGame(**{**{k: v for k, v in options.items() if k != "conditions"},
                                          **extra}).options
        except CitybuildersError as exc:
            raise FormatError(f"options: {exc}") from None
    conditions = _conditions(data)
    has_cards, has_grid = "cards" in data, "grid" in data
    if has_cards == has_grid:
        raise FormatError("file: give exactly one of 'cards' (placements in play order) or 'grid'")
    if has_cards:
        if isinstance(data["cards"], list) and len(data["cards"]) > 15:
            raise FormatError(f"cards: a city has at most 15 cards, got {len(data['cards'])}")
        city = cards_city(data["cards"], conditions, options["cover_whole_card"])
        cells, occ = city.cells, city.occ
    else:
        cells, occ = grid_cells(data["grid"])
    return SprawlScoreResult(score_city(cells, occ, conditions, Rules.from_options(options)))
