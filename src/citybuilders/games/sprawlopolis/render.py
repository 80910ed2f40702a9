"""Terminal (ANSI) and SVG drawings of a Sprawlopolis position, click paths, the web "Your view"
panels and the score calculator's table: :class:`SprawlopolisView` and :class:`SprawlScoreResult`.

Text: each block is three characters, zone letter + road glyph (``│ ─ └ ┌ ┐ ┘``) on the zone's
colour (commercial blue, industrial grey, residential orange, park green); ``·`` marks empty cells
where a card's top-left block may go. SVG: blocks as coloured rectangles with road strokes; every
candidate top-left cell carries ``data-key="pos:R,C"``, every hand card ``data-key="card:N"``.
"""

from __future__ import annotations

from ...core.i18n import N_, localize, text_width

import re
from typing import TYPE_CHECKING, Any, Sequence
from xml.sax.saxutils import escape

from ...core.i18n import current
from ...core.i18n import gettext_now as _
from ...core.game import ScoreResult
from ...core.panels import generic_panels, seat_name
from ...core.view import Panel, View, prompt_of, move_in_words
from .actions import CHANCE_BASE, action_to_string, decode, index_of, rc_of
from .loader import ROAD_SHIFT, ZONE_LETTERS, ZONE_MASK, ZONES, E, N, S, W, card_blocks
from .rules.city import CITY_SIZE
from .scoring import Breakdown
from . import texts
from . import texts as _texts

if TYPE_CHECKING:  # pragma: no cover
    from ...core.game import State
    from .rules.state import SprawlopolisState

__all__ = ["SprawlopolisView", "SprawlScoreResult", "ROAD_GLYPHS", "ZONE_COLORS"]

ROAD_GLYPHS = {0: " ", N | S: "│", E | W: "─", N | E: "└", E | S: "┌", S | W: "┐", N | W: "┘"}
ZONE_COLORS = {"commercial": "#3b7dd8", "industrial": "#8c8c8c", "residential": "#f08c2e", "park": "#4caf50"}
_ANSI_BG = {1: "\x1b[48;5;33m", 2: "\x1b[48;5;246m", 3: "\x1b[48;5;208m", 4: "\x1b[48;5;34m"}
_RESET = "\x1b[0m"


def _block_text(code: int, color: bool) -> str:
    if not code:
        return "   "
    glyph = ROAD_GLYPHS.get(code >> ROAD_SHIFT, "+")
    text = f"{ZONE_LETTERS[(code & ZONE_MASK) - 1]}{glyph} "
    if color:
        return f"{_ANSI_BG[code & ZONE_MASK]}\x1b[1;97m{text}{_RESET}"
    return text


def _ranges(values: list[int]) -> str:
    out: list[str] = []
    start = prev = None
    for v in values:
        if start is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            out.append(str(start) if start == prev else f"{start}..{prev}")
            start = prev = v
    if start is not None:
        out.append(str(start) if start == prev else f"{start}..{prev}")
    return ", ".join(out)


def _render_text(state: "SprawlopolisState", player: int | None, color: bool = False) -> str:
    """The city, conditions, running score, hands/deck and the legal top-left positions."""
    city = state.city
    lines: list[str] = []
    # the header starts with the game's setup line (``conditions 3-7-12 (target 22)``) so the
    # terminal can leave its own copy of that line out; then the names of the conditions
    tx = texts.for_language(current())
    conds = ", ".join(f"{n} {tx.CONDITION_NAMES[n]}" for n in sorted(state.conditions))
    nums = "-".join(str(n) for n in sorted(state.conditions))
    lines.append(_("Sprawlopolis - conditions {numbers} (target {target}): {names}",
                   numbers=nums, target=state.target, names=conds))
    cands: set[int] = set()
    my_turn = not state.is_terminal() and not state.is_chance_node() and (
        player is None or player == state.current_player()
    )
    if my_turn:
        cands = set(state._positions())
    if city.occ:
        r0, c0, r1, c1 = city.bounds()
        r0, c0, r1, c1 = r0 - 2, c0 - 2, r1 + 1, c1 + 1  # room for every candidate top-left cell
        header = "     " + "".join(f"{c:>3}" for c in range(c0, c1 + 1))
        lines.append(header)
        for r in range(r0, r1 + 1):
            row = [f"{r:>4} "]
            for c in range(c0, c1 + 1):
                i = index_of(r, c)
                code = city.cells[i]
                if code:
                    row.append(_block_text(code, color))
                elif i in cands:
                    row.append(" · ")
                else:
                    row.append("   ")
            lines.append("".join(row))
        lines.append(tx.TEXT_KEY)
    b = state.breakdown()
    parts = [f"{tx.ZONE_NAMES.get(z, z)} {v}" for z, v in b.groups.items()]
    parts.append(_("roads -{tax} ({roads})", tax=b.road_tax, roads=b.roads))
    parts += [f"#{n} {v:+d}" for n, v in b.conditions.items()]
    lines.append(_("score {total} / target {target}: {parts}", total=b.total, target=b.target,
                   parts=", ".join(parts)))
    top = (_("next card {n}", n=state.top) if state.top else _("deck empty") if not state.deck
           else _("no card shown"))
    plays = max(0, len(city.placements) - 1)
    lines.append(_("deck: {n} face down, {top}; plays {plays}/{most}", n=len(state.deck),
                   top=top, plays=plays, most=CITY_SIZE - 1))
    if state.num_players > 1:
        lines.append(_("hands: {hands}; active P{n}", hands=", ".join(
            f"P{p + 1} {len(h)}" for p, h in enumerate(state.hands)), n=state.active + 1))
    if player is not None and 0 <= player < state.num_players:
        hand = sorted(state.hands[player])
        shown = []
        for n in hand:
            blocks = ("".join(_block_text(c, color) for c in card_blocks(n, 0)[:2]) + "/ "
                      + "".join(_block_text(c, color) for c in card_blocks(n, 0)[2:]))
            shown.append(_("card {n} [{blocks}]", n=n, blocks=blocks))
        lines.append(_("your hand (P{n}): {cards}", n=player + 1,
                       cards="   ".join(shown) or _("empty")))
    if state.is_terminal():
        lines.append(_("final: {outcome}", outcome=(
            tx.OUTCOME["final_won"] if b.won else tx.OUTCOME["final_lost"])))
    elif cands:
        by_row: dict[int, list[int]] = {}
        for p in sorted(cands):
            r, c = rc_of(p)
            by_row.setdefault(r, []).append(c)
        lines.append(_("legal top-left positions (any card in hand, rot 0 or 180), row: cols"))
        lines.append("  " + "; ".join(f"{r}: {_ranges(cs)}" for r, cs in sorted(by_row.items())))
        first = sorted(state.hands[state.active])[0] if state.hands[state.active] else 1
        lines.append(_("move: play CARD at ROW,COL [rot 180]   e.g. play {card} at {r},{c}",
                       card=first, r=rc_of(min(cands))[0], c=rc_of(min(cands))[1]))
    return "\n".join(lines)


_CW, _CH = 54, 39  # block width/height in SVG units (blocks are wider than tall; large beside
# the 11-12 unit texts, so the city is most of the drawing when the page fits it to the box)
_HAND_W, _HAND_H = 38, 28  # a hand card's block
_HAND_STEP = 92  # hand cards' spacing: a card (76) and its frame (84) with a gap


def _svg_block(x: float, y: float, code: int, w: float = _CW, h: float = _CH,
               at: str = "", letter: bool = True, marks: Any = None) -> str:
    """One block: its zone's colour, its zone mark in the top-left corner (zones differ by
    more than colour; ``marks``: zone -> mark, the texts' ``ZONE_MARKS`` in the reader's
    language, default the English letters) and its road; ``at`` = the ``data-at`` cell key
    ("cell:R,C")."""
    zone = ZONES[(code & ZONE_MASK) - 1]
    attr = f" data-at='{at}'" if at else ""
    out = [f"<g class='sp-block' data-zone='{zone}'{attr}><rect x='{x}' y='{y}' width='{w}' "
           f"height='{h}' fill='{ZONE_COLORS[zone]}' stroke='#ffffff' stroke-width='1'/>"]
    if letter:
        fs = max(9, round(h * 0.33))
        mark = marks[zone] if marks else ZONE_LETTERS[(code & ZONE_MASK) - 1]
        out.append(f"<text x='{x + 3}' y='{y + fs + 1}' font-size='{fs}' fill='#111' "
                   f"pointer-events='none' aria-hidden='true'>{escape(mark)}</text>")
    m = code >> ROAD_SHIFT
    if m:
        cx, cy = x + w / 2, y + h / 2
        mids = {N: (cx, y), E: (x + w, cy), S: (cx, y + h), W: (x, cy)}
        pts = [mids[b] for b in (N, E, S, W) if m & b]
        d = f"M{pts[0][0]},{pts[0][1]} L{cx},{cy} L{pts[-1][0]},{pts[-1][1]}"
        out.append(f"<path class='sp-road' d='{d}' fill='none' stroke='#333333' "
                   f"stroke-width='{max(2, w / 9):.1f}'/>")
    out.append("</g>")
    return "".join(out)


def _card_svg(n: int, rot: int, x: float, y: float, w: float, h: float,
              letter: bool = False) -> str:
    """Card ``n``'s four blocks in rotation ``rot`` (0 or 1 = 180°) with top-left ``x, y``
    (zone letters only with ``letter``: a clickable card names its zones in its title)."""
    return "".join(_svg_block(x + (k % 2) * w, y + (k // 2) * h, code, w, h, letter=letter)
                   for k, code in enumerate(card_blocks(n, rot)))


def _card_zones(n: int, tx: Any) -> str:
    """``"commercial, park / industrial, residential"``: card ``n``'s zones, row by row."""
    z = [tx.ZONE_NAMES.get(ZONES[(c & ZONE_MASK) - 1], "") for c in card_blocks(n, 0)]
    return f"{z[0]}, {z[1]} / {z[2]}, {z[3]}"


def _wrap(text: str, width: int) -> list[str]:
    """``text`` cut into lines of at most ``width`` columns (``text_width``: a CJK character
    counts 2) at spaces; a word longer than a line (CJK text has no spaces) is cut anywhere."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while text_width(word) > width:
            room = width - (text_width(line) + 1 if line else 0)
            cut = 0
            while cut < len(word) and text_width(word[:cut + 1]) <= room:
                cut += 1
            if cut == 0:
                lines.append(line)
                line = ""
                continue
            lines.append(f"{line} {word[:cut]}" if line else word[:cut])
            line, word = "", word[cut:]
        if line and text_width(line) + 1 + text_width(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def _render_svg(state: "SprawlopolisState", player: int | None, lang: str = "en") -> str:
    """SVG: city grid (zones, roads; blocks ``data-at="cell:R,C"``), candidate cells with
    ``data-key="pos:R,C"``, the condition cards (``<title>``: name and rule), the score line,
    the player's hand cards ``data-key="card:N"`` and, hidden, each hand card's 2×2 footprint
    in both rotations (``g.sp-preview-src``, at the origin, for the page's placement preview)."""
    tx = _texts.for_language(lang)
    city = state.city
    cands: list[int] = []
    if not state.is_terminal() and not state.is_chance_node() and (
        player is None or player == state.current_player()
    ):
        cands = state._positions()
    cells = list(city.occ) + cands
    if cells:
        rcs = [rc_of(i) for i in cells]
        r0, r1 = min(r for r, _ in rcs), max(r for r, _ in rcs) + 1
        c0, c1 = min(c for _, c in rcs), max(c for _, c in rcs) + 1
    else:
        r0 = c0 = 0
        r1 = c1 = 1
    hand = sorted(state.hands[player]) if player is not None and 0 <= player < state.num_players else []
    width = max((c1 - c0 + 1) * _CW + 20, 20 + _HAND_STEP * (len(hand) + 1) + 20, 400)
    grid_w = (c1 - c0 + 1) * _CW
    grid_h = (r1 - r0 + 1) * _CH + 20
    out: list[str] = []
    ox, oy = 10 - c0 * _CW + (width - 20 - grid_w) // 2, 10 - r0 * _CH
    for i in city.occ:
        r, c = rc_of(i)
        out.append(_svg_block(ox + c * _CW, oy + r * _CH, city.cells[i], at=f"cell:{r},{c}",
                              marks=tx.ZONE_MARKS))
    for i in cands:
        r, c = rc_of(i)
        at = f"{r},{c}"
        pos_title = N_("the card's top-left block goes here (row {r}, column {c})", r=r, c=c)
        fill = "rgba(255,255,255,0.01)" if city.cells[i] else "rgba(0,0,0,0.04)"
        out.append(f"<rect data-key='pos:{r},{c}' class='sp-pos' x='{ox + c * _CW + 2}' "
                   f"y='{oy + r * _CH + 2}' width='{_CW - 4}' height='{_CH - 4}' fill='{fill}' "
                   f"stroke='#222' stroke-dasharray='3,2' stroke-width='1'>"
                   f"<title>{escape(localize(pos_title, lang))}</title></rect>")
    y = grid_h + 4
    b = state.breakdown()
    words = {"score": localize(N_("score {total} / target {target}", total=b.total,
                                  target=b.target), lang),
             "won": localize(N_("won"), lang), "lost": localize(N_("lost"), lang)}
    # the condition cards: number, name and points now; the rule on hover. The name wraps
    # left of the points column (never under it), up to three lines; every card as tall as
    # the tallest
    cw = (width - 20 - 2 * 6) / 3
    names = {n: _wrap(f"{n} {tx.CONDITION_NAMES.get(n, str(n))}", int((cw - 34) / 6.2))[:3]
             for n in state.conditions}
    ch = 10 + 12 * max([len(v) for v in names.values()] + [2])
    for k, n in enumerate(state.conditions):
        x = 10 + k * (cw + 6)
        pts = b.conditions.get(n, 0)
        name = tx.CONDITION_NAMES.get(n, str(n))
        out.append(f"<g class='sp-condition' data-at='condition:{n}'><title>{n} "
                   f"{escape(name)}: {escape(tx.CONDITION_RULES.get(n, ''))}</title>"
                   f"<rect x='{x:.0f}' y='{y}' width='{cw:.0f}' height='{ch}' rx='4' "
                   f"fill='#fff7dc' stroke='#7a5c00'/>")
        for li, line in enumerate(names[n]):
            out.append(f"<text x='{x + 4:.0f}' y='{y + 13 + li * 12}' font-size='11'>"
                       f"{escape(line)}</text>")
        out.append(f"<text x='{x + cw - 4:.0f}' y='{y + 13}' font-size='11' text-anchor='end' "
                   f"font-weight='bold'>{pts:+d}</text></g>")
    y += ch + 6
    verdict = ""
    if state.is_terminal():
        verdict = " - " + (words["won"] if b.won else words["lost"])
    out.append(f"<text x='10' y='{y + 10}' class='sp-score'>{escape(words['score'])}"
               f"{escape(verdict)}</text>")
    x = 10
    y += 22
    for n in hand:
        card = escape(localize(N_("card {n}", n=n), lang))
        # the frame (what the page outlines when the card is a target or chosen) is a
        # rectangle of its own: an outline of the group would follow its text's box
        out.append(f"<g data-key='card:{n}' class='sp-card'><title>{card}: "
                   f"{escape(_card_zones(n, tx))}</title><rect class='sp-frame' x='{x - 4}' "
                   f"y='{y - 4}' width='{2 * _HAND_W + 8}' height='82' rx='3' fill='#fff' "
                   f"stroke='none'/>")
        out.append(_card_svg(n, 0, x, y, _HAND_W, _HAND_H))
        out.append(f"<text x='{x}' y='{y + 72}'>{card}</text></g>")
        x += _HAND_STEP
    if state.top:
        nxt = escape(localize(N_("next card of the deck: {n}", n=state.top), lang))
        nxt_label = escape(localize(N_("next: card {n}", n=state.top), lang))
        out.append(f"<g class='sp-next'><title>{nxt}</title>")
        out.append(_card_svg(state.top, 0, x, y, _HAND_W, _HAND_H))
        out.append(f"<text x='{x}' y='{y + 72}'>{nxt_label}</text></g>")
    if cands:
        for n in hand:
            for rot in (0, 1):
                out.append(f"<g class='sp-preview-src' data-card='{n}' data-rot='{180 * rot}' "
                           f"display='none' pointer-events='none'>"
                           f"{_card_svg(n, rot, 0, 0, _CW, _CH)}</g>")
    height = y + 84
    city_label = escape(localize(N_("Sprawlopolis city"), lang))
    out.insert(0, f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
                  f"width='{width}' height='{height}' font-family='sans-serif' font-size='12' "
                  f"class='sp-city' role='group' aria-label='{city_label}'>")
    out.append("</svg>")
    return "".join(out)


_PROMPTS = {"card": N_("choose a card of your hand, then a highlighted place in the city")}
"""The status line's "what to do now" per kind of first click (``core.view.prompt_of``)."""

_PLAY = re.compile(r"play \d+ at (-?\d+),(-?\d+)")


def log_keys(text: str) -> list[str]:
    """``"play 7 at 1,2"`` -> the four cells of the card's 2×2 footprint."""
    m = _PLAY.search(text)
    if not m:
        return []
    r, c = int(m.group(1)), int(m.group(2))
    return [f"cell:{r + dr},{c + dc}" for dr in (0, 1) for dc in (0, 1)]


def legend(lang: str = "en") -> list[tuple[str, str]]:
    tx = _texts.for_language(lang)
    out = [(tx.ZONE_MARKS[z], localize(N_("{zone} block ({color})", zone=tx.ZONE_NAMES.get(z, z),
                                          color=tx.ZONE_COLOR_NAMES[z]), lang))
           for z in ZONES]
    out.append(("━", localize(N_("road section (dark line across a block)"), lang)))
    out.append(("┄", localize(N_("dashed box: a top-left block where the chosen card may go"),
                              lang)))
    out.append(("+n", localize(N_("points a condition card scores now"), lang)))
    return out


# ------------------------------------------------------------------ panels: Sprawlopolis
def _display_panels(obs: dict[str, Any], names: Sequence[str], you: int | None,
                    terminal: bool, lang: str = "en") -> list[Panel]:
    titles = _texts.for_language(lang).PANEL_TITLES
    out: list[Panel] = []
    if obs.get("hand") is not None:
        out.append({"title": titles["hand"],
                    "value": [N_("card {n}", n=c) for c in obs["hand"]] or N_("(empty)")})
    if not terminal and isinstance(obs.get("active_player"), int) and len(names) > 1 \
            and 0 <= obs["active_player"] < len(names):
        out.append({"title": titles["to_play"],
                    "value": seat_name(names, obs["active_player"], you)})
    if obs.get("condition_names"):
        cond = _texts.for_language(lang).CONDITION_NAMES
        out.append({"title": titles["conditions"], "value": [
            cond.get(n, name) for n, name in zip(obs.get("conditions") or [None] * 3,
                                                 obs["condition_names"])]})
    score = obs.get("score") if isinstance(obs.get("score"), dict) else {}
    if "target" in obs or "target" in score:
        target = obs.get("target", score.get("target"))
        total = score.get("total")
        line = (N_("{target} points (score now {total})", target=target, total=total)
                if total is not None else N_("{target} points", target=target))
        out.append({"title": titles["target"], "value": line})
    sizes = obs.get("hand_sizes")
    if isinstance(sizes, list) and len(sizes) == len(names) and len(names) > 1:
        out.append({"title": titles["hand_sizes"], "value": {
            seat_name(names, i, you): n for i, n in enumerate(sizes)}})
    if isinstance(obs.get("deck_size"), int):
        out.append({"title": titles["deck"], "value": N_("{n} cards left", n=obs["deck_size"])})
    if isinstance(obs.get("placements"), list):
        out.append({"title": titles["city"], "value": len(obs["placements"])})
    known = {"conditions", "condition_names", "target", "placements", "grid", "hand_sizes",
             "deck_top", "deck_size", "active_player", "plays", "score", "player", "hand"}
    return out + generic_panels(obs, names, you, known)


_MOVE_FORMS = [
    (re.compile(r"play (?P<card>\d+) at (?P<r>-?\d+),(?P<c>-?\d+) rot 180"), "play_turned"),
    (re.compile(r"play (?P<card>\d+) at (?P<r>-?\d+),(?P<c>-?\d+)"), "play"),
]
"""Notation forms that have a sentence (texts ``MOVE_SENTENCES``): the hint line."""


class SprawlopolisView(View):
    """How Sprawlopolis is presented (see ``core/view.py``)."""

    def move_words(self, text: str, lang: str = "en") -> str | None:
        """A hint's move as a sentence (texts ``MOVE_SENTENCES``), None if no form fits."""
        tx = _texts.for_language(lang)
        return move_in_words(text, _MOVE_FORMS, tx.MOVE_SENTENCES,
                             tx.NOTATION_WORDS if lang != "en" else {})

    def render_text(self, state: "State", player: int | None = None, color: bool = False) -> str:
        """The city (coloured zones and roads), conditions, score breakdown, hand, legal places."""
        return _render_text(state, player, color)  # type: ignore[arg-type]

    def render_svg(self, state: "State", player: int | None = None, lang: str = "en") -> str:
        """SVG of the city; candidate cells ``data-key="pos:R,C"``, hand ``data-key="card:N"``."""
        return _render_svg(state, player, lang)  # type: ignore[arg-type]

    def log_keys(self, text: str) -> list[str]:
        return log_keys(text)

    def final_actions(self, state: "State", player: int, legal: Sequence[int]) -> set[int]:
        """Every play: a card is drawn right after it, so it can never be taken back."""
        return {a for a in legal if a < CHANCE_BASE}

    def prompt(self, state: "State", player: int, paths: Sequence[Sequence[str]],
               lang: str = "en") -> str | None:
        """Choose a card, then its place (and turn it with the buttons)."""
        return prompt_of(paths, _PROMPTS, lang)

    def legend(self, lang: str = "en") -> list[tuple[str, str]]:
        return legend(lang)

    def action_path(self, state: "State", action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        """``("card:N", "pos:R,C", "rot:0|180")`` for a play; the notation at chance nodes."""
        if action >= CHANCE_BASE:
            return (action_to_string(action),)
        card, pos, rot = decode(action)
        r, c = rc_of(pos)
        return (f"card:{card}", f"pos:{r},{c}", f"rot:{180 * rot}")

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool, lang: str = "en") -> list[Panel] | None:
        """Hand, active player, conditions, target and score, hand sizes, deck, city size."""
        return _display_panels(obs, names, you, terminal, lang)


class SprawlScoreResult(ScoreResult):
    """A scored city (the score calculator's result): ``breakdown`` (see
    :class:`.scoring.Breakdown`)."""

    def __init__(self, breakdown: Breakdown) -> None:
        self.breakdown = breakdown

    def to_json(self) -> dict[str, Any]:
        """``{"total", "target", "won", "groups": {zone: int}, "roads": int, "conditions": {"n": int}}``."""
        return self.breakdown.to_json()

    def to_text(self) -> str:
        """A readable table of the breakdown."""
        from ...core.i18n import current, ljust, text_width

        b = self.breakdown
        t = texts.for_language(current())
        labels, zones, outcome = t.SCORE_LABELS, t.ZONE_NAMES, t.OUTCOME
        rows: list[tuple[str, int]] = [
            (labels["largest_group"].format(zone=zones[zone]), v)
            for zone, v in b.groups.items()]
        if b.blocks != sum(b.groups.values()):
            rows.append((labels["block_points"], b.blocks))
        rows.append((labels["roads"].format(roads=b.roads), -b.road_tax))
        rows += [(f"{n} {t.CONDITION_NAMES[n]}", v) for n, v in b.conditions.items()]
        rows += [(labels["total"], b.total), (labels["target"], b.target)]
        lines = [labels["title"], ""]
        w = max(28, *(text_width(label) + 1 for label, _v in rows))
        lines += [f"  {ljust(label, w)}{value:>5}" for label, value in rows]
        lines.append("")
        lines.append(outcome["won"] if b.won else outcome["lost"])
        return "\n".join(lines)


# ------------------------------------------------------------------ score calculator board
def score_city_svg(placements: Sequence[tuple[int, int, int, int]], margin: int = 2,
                   grid: dict[tuple[int, int], int] | None = None) -> str:
    """SVG of a score file's ``cards`` (``(card, row, col, rot)`` in play order; later cards
    cover earlier ones) in the file's own block coordinates, drawn at 1.5× the play board's
    block size: every block ``data-key="blk:R,C"``,
    and every block cell within ``margin`` of the city (or around 0,0 when empty) a target
    ``data-key="pos:R,C"`` (a card's top-left block goes there). ``grid`` (a score file's
    ``grid`` form: ``{(row, col): block code}``) is drawn instead of ``placements`` when
    given."""
    cells: dict[tuple[int, int], int] = dict(grid or {})
    owner: dict[tuple[int, int], int] = {}
    for k, (card, row, col, rot) in enumerate(() if grid else placements):
        for j, code in enumerate(card_blocks(card, rot)):
            cells[(row + j // 2, col + j % 2)] = code
            owner[(row + j // 2, col + j % 2)] = k
    if cells:
        r0 = min(r for r, _ in cells) - margin
        r1 = max(r for r, _ in cells) + margin
        c0 = min(c for _, c in cells) - margin
        c1 = max(c for _, c in cells) + margin
    else:
        r0, r1, c0, c1 = -1, 2, -1, 2
    width = (c1 - c0 + 1) * _CW + 20
    height = (r1 - r0 + 1) * _CH + 20
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' "
           f"width='{width * 3 // 2}' height='{height * 3 // 2}' font-family='sans-serif' "
           f"font-size='10' "
           f"class='sp-city score-board' role='img'>"]
    ox, oy = 10 - c0 * _CW, 10 - r0 * _CH
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            x, y = ox + c * _CW, oy + r * _CH
            if (r, c) in cells:
                card = placements[owner[(r, c)]][0] if (r, c) in owner else 0
                out.append(f"<g data-key='blk:{r},{c}' class='block' data-card='{card}'>"
                           + _svg_block(x, y, cells[(r, c)]) + "</g>")
            out.append(f"<rect data-key='pos:{r},{c}' class='slot' x='{x}' y='{y}' "
                       f"width='{_CW}' height='{_CH}' fill='rgba(0,0,0,0)' stroke='#bbb' "
                       f"stroke-width='0.5' stroke-dasharray='2,2'/>")
    out.append("</svg>")
    return "".join(out)


def card_svg(number: int, rot: int = 0) -> str:
    """A small SVG of card ``number`` (its 4 blocks at rotation ``rot``)."""
    out = ["<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 76 56' width='76' "
           "height='56' aria-hidden='true'>"]
    for k, code in enumerate(card_blocks(number, rot)):
        out.append(_svg_block((k % 2) * 38, (k // 2) * 28, code, 38, 28))
    out.append("</svg>")
    return "".join(out)
