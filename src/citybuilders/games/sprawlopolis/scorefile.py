"""The Sprawlopolis score-file format (``citybuilders score sprawlopolis FILE [--json]``).

Two input forms (docs/formats.md, Sprawlopolis section)::

    {"game": "sprawlopolis", "conditions": [n1, n2, n3],
     "cards": [{"card": n, "row": r, "col": c, "rot": 0}, ...]}     # in play order

    {"game": "sprawlopolis", "conditions": [n1, n2, n3],
     "grid": ["P I-NE", "C-EW R-EW"]}                                # block tokens, top row first

``cards``: (row, col) = the card's top-left block in block units, rows grow downward; each card
covers rows r..r+1 and columns c..c+1 in the orientation of the card data, rotated by ``rot``
(0 or 180); later cards cover earlier ones. 1 to 15 cards; every card after the first must be a
placement the game allows (the game's own check, :func:`.rules.city.placement_problem`, with the
rules option ``cover_whole_card``), no card twice, no condition card. ``grid``: any zone with or
without a road piece, ``.`` for an empty cell, at most 60 blocks (15 cards × 4); a grid is a
scoring input and need not be reachable by play. An optional ``"options"`` object sets rules
options (e.g. ``{"city_edge": "outer"}``).

Unknown keys are errors at every level (the file, each ``cards`` entry, ``options``). Every error
is a FormatError with one line that starts with the field (``file``, ``game``, ``conditions[2]``,
``cards[1] (card 5)``, ``grid[0] column 1``, ``options``) and says what is allowed.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...core.errors import CitybuildersError, FormatError
from ...core.options import resolve_options
from ...core.registry import normalize_game_name
from .actions import MAX_USER, MIN_USER, WIDTH, index_of
from .loader import CARD_RANGE_TEXT, CARDS, parse_token
from .rules.city import CITY_SIZE, PLACEMENT_TEXT, City, Placement, placement_problem
from .rules.options import OPTION_SPECS
from .scoring import Breakdown, Rules, score_city
from ...core.i18n import N_

__all__ = ["FILE_KEYS", "CARD_KEYS", "MAX_GRID", "MAX_GRID_BLOCKS", "MAX_INT", "score_city_file",
           "grid_cells", "cards_city"]

FILE_KEYS = ("game", "conditions", "cards", "grid", "options")
"""Keys a score file may have."""
CARD_KEYS = ("card", "row", "col", "rot")
"""Keys of one ``cards`` entry (``rot`` optional, default 0)."""
MAX_GRID = WIDTH - 6
"""Most rows and most tokens per row of a ``grid``."""
MAX_GRID_BLOCKS = 4 * CITY_SIZE
"""Most blocks in a ``grid``: a city has 15 cards of 4 blocks."""


MAX_INT = 1_000_000
"""Largest ``|n|`` of a card number or rotation a score file may give (row/col: any integer)."""


def _show(value: Any) -> str:
    """``repr(value)`` cut to 40 characters: one short line, control characters escaped."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a very large integer"
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value: Any, field: str, bounded: bool = True) -> int:
    """``value`` if it is an integer (within ±:data:`MAX_INT` when ``bounded``); else FormatError
    naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(N_("{field}: expected an integer, got {show}",
                             field=field, show=_show(value)))
    if bounded and not -MAX_INT <= value <= MAX_INT:
        raise FormatError(
            N_("{field}: expected an integer from {value} to {MAX_INT}, got {show}",
               field=field, value=-MAX_INT, MAX_INT=MAX_INT, show=_show(value)))
    return value


def _conditions(data: Mapping[str, Any]) -> list[int]:
    conds = data.get("conditions")
    if not isinstance(conds, list) or len(conds) != 3:
        raise FormatError(
            N_("conditions: expected a list of 3 condition card numbers ({CARD_RANGE_TEXT})",
               CARD_RANGE_TEXT=CARD_RANGE_TEXT))
    out = []
    for k, n in enumerate(conds):
        n = _int(n, f"conditions[{k}]")
        if n not in CARDS:
            raise FormatError(N_("conditions[{k}]: unknown card {n}; cards are numbered "
                                 "{CARD_RANGE_TEXT}", k=k, n=n, CARD_RANGE_TEXT=CARD_RANGE_TEXT))
        if n in out:
            raise FormatError(N_("conditions[{k}]: card {n} is listed twice", k=k, n=n))
        out.append(n)
    return out


def grid_cells(rows: Any) -> tuple[list[int], list[int]]:
    """Flat cells and occupied list of a ``grid`` (list of token rows). Raises FormatError."""
    if not isinstance(rows, list) or not rows:
        raise FormatError(N_("grid: expected a non-empty list of rows of block tokens"))
    if len(rows) > MAX_GRID:
        raise FormatError(N_("grid: at most {MAX_GRID} rows", MAX_GRID=MAX_GRID))
    width = None
    cells = [0] * (WIDTH * WIDTH)
    occ: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise FormatError(N_("grid[{r}]: expected a string of block tokens, got {show}",
                                 r=r, show=_show(row)))
        tokens = row.split()
        if width is None:
            width = len(tokens)
            if not 1 <= width <= MAX_GRID:
                raise FormatError(N_("grid[{r}]: expected 1 to {MAX_GRID} block tokens",
                                     r=r, MAX_GRID=MAX_GRID))
        elif len(tokens) != width:
            raise FormatError(
                N_("grid[{r}]: has {count} tokens, row 0 has {width}; use '.' for empty cells",
                   r=r, count=len(tokens), width=width)
            )
        for c, tok in enumerate(tokens):
            try:
                code = parse_token(tok if len(tok) <= 12 else tok[:9] + "...")
            except ValueError as exc:
                raise FormatError(N_("grid[{r}] column {c}: {exc}", r=r, c=c, exc=exc)) from None
            if code:
                i = (r + 3) * WIDTH + c + 3
                cells[i] = code
                occ.append(i)
    if not occ:
        raise FormatError(N_("grid: no blocks at all"))
    if len(occ) > MAX_GRID_BLOCKS:
        raise FormatError(
            N_("grid: {count} blocks; a city has at most {MAX_GRID_BLOCKS} ({CITY_SIZE} cards "
               "of 4 blocks)",
               count=len(occ), MAX_GRID_BLOCKS=MAX_GRID_BLOCKS, CITY_SIZE=CITY_SIZE))
    return cells, occ


def cards_city(entries: Any, conditions: list[int], cover_whole_card: str = "allowed") -> City:
    """Build a city from ``cards`` entries in play order, checking every placement with the
    game's own rule (:func:`.rules.city.placement_problem`).

    Raises FormatError naming the entry and card: not 1..15 entries, unknown key, missing key,
    unknown card, card used twice, condition card, rotation other than 0/180, corner-only,
    detached or (``cover_whole_card="forbidden"``) card-burying placement.
    """
    if not isinstance(entries, list) or not entries:
        raise FormatError(N_("cards: expected a non-empty list of {card, row, col, rot} objects"))
    if len(entries) > CITY_SIZE:
        raise FormatError(N_("cards: a city has at most {CITY_SIZE} cards, got {count}",
                             CITY_SIZE=CITY_SIZE, count=len(entries)))
    parsed = []
    used: dict[int, int] = {}
    for k, e in enumerate(entries):
        where = f"cards[{k}]"
        if not isinstance(e, Mapping):
            raise FormatError(N_("{where}: expected an object with card, row, col, rot",
                                 where=where))
        for key in e:
            if key not in CARD_KEYS:
                raise FormatError(
                    N_("{where}: unknown key {show}; allowed: {allowed}",
                       where=where, show=_show(key), allowed=', '.join(CARD_KEYS)))
        for key in ("card", "row", "col"):
            if key not in e:
                raise FormatError(N_("{where}: missing '{key}'", where=where, key=key))
        card = _int(e["card"], f"{where}.card")
        if card not in CARDS:
            raise FormatError(N_("{where}: unknown card {card}; cards are numbered "
                                 "{CARD_RANGE_TEXT}",
                                 where=where, card=card, CARD_RANGE_TEXT=CARD_RANGE_TEXT))
        where = f"cards[{k}] (card {card})"
        if card in used:
            raise FormatError(N_("{where}: card {card} is used twice (also cards[{used}])",
                                 where=where, card=card, used=used[card]))
        if card in conditions:
            raise FormatError(
                N_("{where}: card {card} is a scoring condition of this game; its blocks side "
                   "is not used", where=where, card=card)
            )
        used[card] = k
        row = _int(e["row"], f"{where}.row", bounded=False)
        col = _int(e["col"], f"{where}.col", bounded=False)
        rot = _int(e.get("rot", 0), f"{where}.rot")
        if rot not in (0, 180):
            raise FormatError(
                N_("{where}: rotation {rot} is not allowed; cards stay horizontal (rot 0 or "
                   "180)", where=where, rot=rot)
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
                N_("cards[{k}] (card {card}) at {show},{show2}: illegal placement, does not "
                   "touch the city (it is {show3} blocks from cards[0])",
                   k=k, card=card, show=_show(row), show2=_show(col), show3=_show(max(abs(dr), abs(dc))))
            )
        pos = index_of(dr, dc)
        problem = placement_problem(city, pos, cover_whole_card)
        if problem != Placement.LEGAL:
            raise FormatError(
                N_("cards[{k}] (card {card}) at {row},{col}: illegal placement, "
                   "{PLACEMENT_TEXT}",
                   k=k, card=card, row=row, col=col, PLACEMENT_TEXT=PLACEMENT_TEXT[problem]))
        city.place(card, pos, 1 if rot == 180 else 0)
    return city


def _options(game_name: str, game_options: Mapping[str, Any], data: Mapping[str, Any]
             ) -> dict[str, Any]:
    """The game's options overridden by the file's ``options`` object (validated)."""
    base = {k: v for k, v in game_options.items() if k != "conditions"}
    if "options" not in data:
        return dict(game_options)
    extra = data["options"]
    if not isinstance(extra, Mapping):
        raise FormatError(N_("options: expected an object of rules options"))
    specs = {o.name: o for o in OPTION_SPECS if o.name != "conditions"}
    for key, value in extra.items():
        if key == "conditions":
            raise FormatError(N_("options: 'conditions' is not a rules option here; give the "
                                 "file's top-level 'conditions'"))
        spec = specs.get(key)
        if spec is None:
            raise FormatError(N_("options: unknown option {show} for {game_name}; allowed: "
                                 "{allowed}",
                                 show=_show(key), game_name=game_name, allowed=', '.join(sorted(specs))))
        if spec.type is str and (not isinstance(value, str) or (
                spec.choices is not None and value not in spec.choices)):
            raise FormatError(N_("options: option '{key}' of {game_name}: bad value {show}; "
                                 "allowed: {allowed_text}",
                                 key=key, game_name=game_name, show=_show(value), allowed_text=spec.allowed_text()))
    try:
        return resolve_options(OPTION_SPECS, {**base, **extra}, game_name)
    except CitybuildersError as exc:
        raise FormatError(N_("options: {exc}", exc=exc)) from None


def score_city_file(game_name: str, game_options: Mapping[str, Any], data: Any) -> Breakdown:
    """Score a city file under the game's options (``game_options``, overridden by the file's
    ``options``). ``game_name``: the registry name the file's ``game`` must match if given.

    Raises FormatError for a malformed file or an illegal placement (one line, names the field).
    """
    if not isinstance(data, Mapping):
        raise FormatError(N_("file: expected a JSON object"))
    for key in data:
        if key not in FILE_KEYS:
            raise FormatError(N_("file: unknown key {show}; allowed: {allowed}",
                                 show=_show(key), allowed=', '.join(FILE_KEYS)))
    named = data.get("game", game_name)
    if not isinstance(named, str) or normalize_game_name(named) != game_name:
        raise FormatError(N_("game: expected {game_name!r}, got {show}",
                             game_name=game_name, show=_show(data['game'])))
    options = _options(game_name, game_options, data)
    conditions = _conditions(data)
    has_cards, has_grid = "cards" in data, "grid" in data
    if has_cards == has_grid:
        raise FormatError(N_("file: give exactly one of 'cards' (placements in play order) or "
                             "'grid'"))
    if has_cards:
        city = cards_city(data["cards"], conditions, options["cover_whole_card"])
        cells, occ = city.cells, city.occ
    else:
        cells, occ = grid_cells(data["grid"])
    return score_city(cells, occ, conditions, Rules.from_options(options))
