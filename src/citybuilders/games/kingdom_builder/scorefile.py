"""Score calculator: ``citybuilders score kingdom-builder FILE [--json]`` (docs/formats.md).

Input::

    {"game": "kingdom-builder",
     "sections": [["tavern", 0], ["paddock", 0], ["oasis", 0], ["farm", 180]],
     "cards": ["fishermen", "knights", "lords"],
     "settlements": [[[r, c], ...], [[r, c], ...]],
     "options": {}}

Output (``--json``): ``{"players": [{"total": int, "cards": {card: int}, "castles": int}]}``.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import CitybuildersError, FormatError
from citybuilders.core.game import PlayerScore, ScoreResult

from .board import CASTLE, LOCATION, SIZE, TERRAINS, Board, make_board, section_data
from .scoring import CARDS, score_all

__all__ = ["KingdomBuilderScore", "score_file", "parse_score_input", "cell_index"]


class KingdomBuilderScore(ScoreResult):
    """Scores of a score file: ``cards`` (the 3 card ids) and one PlayerScore per player."""

    def __init__(self, cards: list[str], players: list[PlayerScore]) -> None:
        self.cards = cards
        self.players = players

    def to_json(self) -> dict[str, Any]:
        """``{"players": [{"total", "cards": {card: gold}, "castles"}]}``."""
        return {
            "players": [
                {
                    "total": ps.total,
                    "cards": {c: ps.parts[c] for c in self.cards},
                    "castles": ps.parts["castles"],
                }
                for ps in self.players
            ]
        }

    def _rows(self) -> list[tuple[str, list[int]]]:
        """``[(label, gold per player), ...]`` above the total: the cards, then castles."""
        rows = [(c, [ps.parts[c] for ps in self.players]) for c in self.cards]
        rows.append(("castles", [ps.parts["castles"] for ps in self.players]))
        return rows

    def to_text(self) -> str:
        """A readable table: one row per :meth:`_rows` entry and the total, one column per
        player."""
        heads = [f"P{p + 1}" for p in range(len(self.players))]
        rows = self._rows()
        rows.append(("total", [ps.total for ps in self.players]))
        w = max(len(r[0]) for r in rows)
        lines = [" " * w + "  " + "  ".join(f"{h:>9}" for h in heads)]
        for name, vals in rows:
            if name == "total":
                lines.append("-" * len(lines[0]))
            lines.append(f"{name:<{w}}  " + "  ".join(f"{v:>9}" for v in vals))
        return "\n".join(lines)


def _req(data: Mapping[str, Any], key: str, typ: type) -> Any:
    if key not in data:
        raise FormatError(f"missing key '{key}'")
    v = data[key]
    if not isinstance(v, typ) or isinstance(v, bool):
        raise FormatError(f"'{key}' must be a {typ.__name__}")
    return v


def cell_index(rc: Any, where: str) -> int:
    """Hex index of a score-file cell ``[row, col]`` (two integers, 0..19 each). Raises
    FormatError naming ``where`` (e.g. ``settlements[0][3]``) otherwise."""
    if not (isinstance(rc, list) and len(rc) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in rc)):
        raise FormatError(f"{where}: expected [row, col] integers, got {rc!r}")
    r, c = rc
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise FormatError(f"{where}: hex {r},{c} is off the board (rows/cols 0..19)")
    return r * SIZE + c


def parse_score_input(data: Any) -> tuple[Board, list[str], list[int], dict[str, Any]]:
    """Validate a score file; returns ``(board, cards, own_bitsets, rule_options)``.

    Raises FormatError naming the field: unknown section or card, bad rotation, a hex off the
    board, two settlements on one hex, a settlement on a castle or location hex, wrong types,
    missing keys. Settlements on water or mountain are accepted (Harbor; expansions).
    """
    if not isinstance(data, Mapping):
        raise FormatError("score file: expected a JSON object")
    game = data.get("game", "kingdom-builder")
    if game != "kingdom-builder":
        raise FormatError(f"'game' must be 'kingdom-builder', got {game!r}")
    secs = _req(data, "sections", list)
    if len(secs) != 4:
        raise FormatError(f"'sections' must list 4 sections (TL, TR, BL, BR), got {len(secs)}")
    sections = []
    for k, s in enumerate(secs):
        if not (isinstance(s, list) and len(s) == 2):
            raise FormatError(f"sections[{k}]: expected [section_id, rotation], got {s!r}")
        sid, rot = s
        if not isinstance(sid, str) or sid not in section_data():
            raise FormatError(
                f"sections[{k}]: unknown section {sid!r}; allowed: {', '.join(section_data())}"
            )
        if isinstance(rot, bool) or rot not in (0, 180):
            raise FormatError(f"sections[{k}]: rotation must be 0 or 180, got {rot!r}")
        sections.append((sid, int(rot)))
    if len({s for s, _ in sections}) != 4:
        raise FormatError("'sections': the 4 sections must differ")
    cards = _req(data, "cards", list)
    if len(cards) != 3:
        raise FormatError(f"'cards' must list 3 Kingdom Builder cards, got {len(cards)}")
    for k, c in enumerate(cards):
        if c not in CARDS:
            raise FormatError(f"cards[{k}]: unknown card {c!r}; allowed: {', '.join(CARDS)}")
    if len(set(cards)) != 3:
        raise FormatError("'cards': the 3 cards must differ")
    players = _req(data, "settlements", list)
    if not 1 <= len(players) <= 5:
        raise FormatError(f"'settlements' must hold one list per player (1-5), got {len(players)}")
    board = make_board(tuple(sections))
    own = []
    seen: dict[int, int] = {}
    for p, lst in enumerate(players):
        if not isinstance(lst, list):
            raise FormatError(f"settlements[{p}]: expected a list of [row, col]")
        if len(lst) > 40:
            raise FormatError(f"settlements[{p}]: {len(lst)} settlements, at most 40")
        mask = 0
        for k, rc in enumerate(lst):
            where = f"settlements[{p}][{k}]"
            i = cell_index(rc, where)
            r, c = rc
            if i in seen:
                raise FormatError(
                    f"{where}: hex {r},{c} already holds a settlement of P{seen[i] + 1} (settlements[{seen[i]}])"
                )
            t = board.terrain[i]
            if t in (CASTLE, LOCATION):
                raise FormatError(f"{where}: hex {r},{c} is a {TERRAINS[t]} hex")
            seen[i] = p
            mask |= 1 << i
        own.append(mask)
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise FormatError("'options' must be an object")
    from .game import OPTIONS
    from citybuilders.core.options import resolve_options

    try:
        opts = resolve_options(OPTIONS, dict(options), "kingdom-builder")
    except CitybuildersError as exc:
        raise FormatError(f"options: {exc}") from None
    return board, list(cards), own, opts


def score_file(data: Any, game_options: Mapping[str, Any] | None = None) -> KingdomBuilderScore:
    """Score a score file (see module docstring). File options override ``game_options``."""
    board, cards, own, opts = parse_score_input(data)
    merged = dict(game_options or {})
    file_opts = data.get("options", {}) if isinstance(data, Mapping) else {}
    merged.update({k: opts[k] for k in file_opts})
    for k, v in opts.items():
        merged.setdefault(k, v)
    return KingdomBuilderScore(cards, score_all(board, cards, own, merged))
