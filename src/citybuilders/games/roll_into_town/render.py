"""Roll into Town renderers: terminal text (optionally ANSI-coloured) and SVG for the web app.

Text map legend (two characters a cell): ``..`` empty, ``TH`` town hall, ``fa`` farm, ``mo``
mountain, ``tr`` tree, river ``║ ═ ╚ ╔ ╗ ╝`` (doubled), coast ``c`` + water sides digit-free arrow
(``c^`` water N, ``c>`` E, ``cv`` S, ``c<`` W, ``c*`` several), ``~~`` ocean, buildings in capitals
(``HO`` house, ``QU`` quarry, ``LJ`` lumberjack, ``HA`` harbor, ``WM`` watermill, ``TA`` tavern,
``FO`` fountain, ``MA`` market, ``LT``/``LB`` lighthouse top/bottom, ``CA`` cathedral).
"""

from __future__ import annotations

from ...core.i18n import N_, current, localize
from ...core.i18n import gettext_now as _

import re
from html import escape
from typing import Any, Sequence

from ...core.panels import clean, generic_panels, per_seat, seat_name, title_of
from ...core.view import Panel, View, prompt_of, move_in_words
from . import rules as R
from .actions import (BUILDING_CODES, DISCOVER, END, ICON_WORDS, PHASE_NAMES, ROLL, V_COAST,
                      V_RIVER, VAR_MASK, decode, mask_text, rc)
from .rules import RollIntoTownState
from . import texts as _texts
from .loader import B_IDS

__all__ = ["RollIntoTownView", "render_text", "render_svg", "action_path", "display_panels",
           "cell_glyph"]

_RIVER_GLYPH = {R.N_ | R.S_: "║║", R.E_ | R.W_: "══", R.N_ | R.E_: "╚═", R.E_ | R.S_: "╔═",
                R.S_ | R.W_: "═╗", R.W_ | R.N_: "═╝"}
_ARROW = {R.N_: "^", R.E_: ">", R.S_: "v", R.W_: "<"}
_COLOR = {R.FARM: "33", R.MOUNTAIN: "37", R.TREE: "32", R.RIVER: "36", R.COAST: "93",
          R.OCEAN: "34", R.TOWN_HALL: "35"}


def cell_glyph(sheet: R.Sheet, i: int) -> tuple[str, str]:
    """Two-character glyph of cell ``i`` and its ANSI colour code ('' for none)."""
    b = sheet.bld[i]
    t = sheet.terrain[i]
    if b:
        return BUILDING_CODES[b], "1;97" if t == R.EMPTY else "1;" + _COLOR.get(t, "97")
    if t == R.EMPTY:
        return "..", "90"
    if t == R.RIVER:
        return _RIVER_GLYPH.get(sheet.sides[i], "r?"), _COLOR[t]
    if t == R.COAST:
        m = sheet.sides[i]
        return "c" + (_ARROW.get(m, "*") if m else "?"), _COLOR[t]
    return {R.FARM: "fa", R.MOUNTAIN: "mo", R.TREE: "tr", R.OCEAN: "~~", R.TOWN_HALL: "TH"}[t], \
        _COLOR[t]


def _paint(text: str, code: str, color: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if color and code else text


def _sheet_lines(sheet: R.Sheet, color: bool) -> list[str]:
    geo = sheet.geo
    head = "    " + " ".join(f"{c:>2}" for c in range(geo.cols))
    lines = [head]
    for r in range(geo.rows):
        cells = []
        for c in range(geo.cols):
            g, code = cell_glyph(sheet, r * geo.cols + c)
            cells.append(_paint(g, code, color))
        lines.append(f"{r:>2}  " + " ".join(cells))
    return lines


def render_text(state: RollIntoTownState, player: int | None, color: bool) -> str:
    """Round, phase, dice (with used/adjusted marks), every map, resources and uses left."""
    g = state.game
    me = 0 if player is None else player
    tx = _texts.for_language(current())
    out = []
    if state.phase == END:
        out.append(f"{tx.GAME_TITLE}: {tx.PHASE_NAMES['game over']}")
    else:
        out.append(_("{title}: round {round}/{rounds}, {phase} phase", title=tx.GAME_TITLE,
                     round=state.round + 1, rounds=R.ROUNDS,
                     phase=tx.PHASE_NAMES[PHASE_NAMES[state.phase]]))
    dice = state.dice[me] if state.phase != ROLL else state.rolled
    if state.phase == ROLL:
        out.append(_("dice rolled so far: {dice}",
                     dice=" ".join(str(d) for d in state.rolled) or "-"))
    elif dice:
        parts = []
        for d, v in enumerate(dice):
            mark = ""
            if state.used[me] >> d & 1:
                mark += " " + _("used")
            if state.adjusted[me] >> d & 1:
                mark += " " + _("adjusted")
            parts.append(f"d{d + 1}={v} ({tx.DIE_FACES[v]}{mark})")
        out.append(_("dice: {dice}", dice=", ".join(parts)))
        if state.phase == DISCOVER:
            out.append(_("icons left to draw: {n}", n=state.to_draw[me]))
            if state.pending_coast[me] >= 0:
                r, c = divmod(state.pending_coast[me], g.options["cols"])
                out.append(_("choose the water sides of the coast at {r},{c}: 'sides NE', ...",
                             r=r, c=c))
    scores = state.scores()
    order = [me] + [p for p in range(state.num_players) if p != me]
    for p in order:
        sheet = state.sheets[p]
        sc = scores[p]
        title = _("Player {n}", n=p + 1) + (_(" (you)") if player is not None and p == me and
                                             state.num_players > 1 else "")
        status = "" if state.done[p] or state.phase in (ROLL, END) else "  " + _("[choosing]")
        out.append("")
        detail = ", ".join(f"{tx.CATEGORY_NAMES[k]} {v}" for k, v in sc.parts.items() if v)
        out.append(_("{title}: {n} points", title=title, n=sc.total)
                   + (f" ({detail})" if detail else "") + status)
        out.extend(_sheet_lines(sheet, color))
        fountain = (str(sheet.fountain_uses) if sheet.unique_built & R.UNIQUE_BIT["fountain"]
                    else _("{n} (not built)", n=sheet.fountain_uses))
        out.append(_("food {food}  stone {stone}  wood {wood}  (cap 9)   town hall uses left "
                      "{hall}   fountain uses left {fountain}", food=sheet.res[0],
                      stone=sheet.res[1], wood=sheet.res[2], hall=sheet.hall_uses,
                      fountain=fountain))
        river = _("river {n} squares", n=len(sheet.river))
        if sheet.river:
            river += _(", finished") if sheet.river_finished() else _(", open")
            if sheet.river_connects(g.options["river_connect_rule"]):
                river += _(", joins opposite edges")
        out.append(river)
    out.append("")
    out.extend(tx.TEXT_MAP_KEY)
    if state.phase == END and state.num_players == 1:
        out.append(_("solo rank: {rank}", rank=tx.RANK_NAMES[R.solo_rank(scores[0].total)]))
    return "\n".join(out)


_FILL = {R.EMPTY: "#f4f1e8", R.FARM: "#f1d36b", R.MOUNTAIN: "#a9a29a", R.TREE: "#6fae5a",
         R.RIVER: "#f4f1e8", R.COAST: "#f3e2a9", R.OCEAN: "#4f86c6", R.TOWN_HALL: "#c9a0dc"}


def _water_lines(t: int, sides: int, x: float, y: float, size: float) -> list[str]:
    """The blue lines of one square of ``size`` px at ``x, y``: a river through the middle
    to each flow side, a coast along each water side (``sides``: bit k = side k of N, E, S,
    W); nothing on other terrain."""
    if t not in (R.RIVER, R.COAST):
        return []
    cx, cy = x + size / 2, y + size / 2
    out = []
    for s in range(4):
        if not sides >> s & 1:
            continue
        if t == R.RIVER:
            x1, y1 = cx, cy
            x2, y2 = cx + size / 2 * (0, 1, 0, -1)[s], cy + size / 2 * (-1, 0, 1, 0)[s]
            width = size * 0.15
        else:
            x1, y1, x2, y2 = ((x, y, x + size, y), (x + size, y, x + size, y + size),
                              (x, y + size, x + size, y + size), (x, y, x, y + size))[s]
            width = size * 0.125
        out.append(f"<line x1='{x1}' y1='{y1}' x2='{x2}' y2='{y2}' stroke='#2a6fd1' "
                   f"stroke-width='{width:.1f}'/>")
    return out


def _text_width(text: str, font: float) -> float:
    """Estimated width in px of ``text`` at ``font`` px: 0.6 em a Latin letter (a little
    more than the average of sans-serif fonts), 1 em a CJK character."""
    return font * sum(1.0 if ord(ch) >= 0x2E80 else 0.6 for ch in text)


def _wrap(text: str, font: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` px (estimated), broken after its ``" · "``
    separators; a single part wider than that stays whole on its line."""
    lines: list[str] = []
    for part in text.split(" · "):
        if lines and _text_width(lines[-1] + " · " + part, font) <= width:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def _label_text(label: str, cx: float, baseline: float, size: float, extra: str = "") -> str:
    """The ``<text>`` of a square's label centred at ``cx`` on ``baseline``, font 0.28 of
    the square's ``size`` px; a label wider than 0.86 of the square (estimated: 0.6 em a
    Latin letter, 1 em a CJK character; "fazenda") is drawn a size smaller and squeezed into
    that width, so it never runs into the next square. ``extra``: more attributes."""
    font = size * 0.28
    width = size * 0.86
    fit = ""
    if _text_width(label, font) > width:
        font = size * 0.24
        if _text_width(label, font) > width:
            fit = f" textLength='{width:.1f}' lengthAdjust='spacingAndGlyphs'"
    return (f"<text x='{cx}' y='{baseline:.1f}' text-anchor='middle' font-size='{font:.0f}'"
            f"{fit}{extra}>{escape(label)}</text>")


def _map_svg(sheet: R.Sheet, x0: float, top: float, size: float, keyed: bool,
             tx: Any) -> list[str]:
    """The map of ``sheet`` with its top-left corner at ``x0, top``: cells
    ``data-key="sq:R,C"`` if ``keyed`` (the viewer's own map) else ``data-at`` (another
    player's map, not clickable); every cell's ``<title>`` names its terrain or building and
    gives its rule."""
    labels = {R.TERRAIN_IDS.index(t): label for t, label in tx.SHORT_LABELS.items()}
    geo = sheet.geo
    attr = "data-key" if keyed else "data-at"
    parts = []
    for i in range(geo.n):
        r, c = divmod(i, geo.cols)
        x, y = x0 + c * size, top + r * size
        t = sheet.terrain[i]
        tid = R.TERRAIN_IDS[t]
        bid = B_IDS[sheet.bld[i]] if sheet.bld[i] < len(B_IDS) else ""
        if bid.startswith("lighthouse"):
            bid = "lighthouse"
        if bid:
            tip = f"{r},{c} {tx.BUILDING_NAMES.get(bid, bid)}: {tx.BUILDING_RULES.get(bid, '')}"
        else:
            tip = f"{r},{c} {tx.ICON_NAMES.get(tid, tid)}" + (
                f": {tx.ICON_RULES[tid]}" if tid in tx.ICON_RULES else "")
        parts.append(f"<g {attr}='sq:{r},{c}' class='rit-cell'><title>{escape(tip)}</title>"
                     f"<rect x='{x}' y='{y}' width='{size}' "
                     f"height='{size}' fill='{_FILL[t]}' stroke='#999'/>")
        parts += _water_lines(t, sheet.sides[i], x, y, size)
        label = _building_label(sheet.bld[i], tx) or labels.get(t)
        if label:
            parts.append(_label_text(label, x + size / 2, y + size * 0.6, size))
        parts.append("</g>")
    return parts


def render_svg(state: RollIntoTownState, player: int | None, lang: str = "en") -> str:
    """SVG of ``player``'s map (cells ``data-key="sq:R,C"``), the dice (``die:i``, titled with
    the value they show and the icon the face gives), the die -> icon table, a status line;
    buildings as labels, rivers as blue lines, coast water sides as blue edges. Below, the
    other players' maps at half size (``g[data-seat]``, cells ``data-at``). The SVG is as
    wide as the map (or the dice, or two half-size maps); a longer text line wraps after its
    ``" · "`` separators."""
    tx = _texts.for_language(lang)
    me = 0 if player is None else player
    sheet = state.sheets[me]
    geo = sheet.geo
    size = 40
    dice = state.dice[me] if state.phase != ROLL else state.rolled
    header = localize(N_("round {round} · food {food} stone {stone} wood {wood}",
                         round=min(state.round + 1, R.ROUNDS), food=sheet.res[0],
                         stone=sheet.res[1], wood=sheet.res[2]), lang)
    footer = localize(N_("town hall uses left {hall} · fountain uses left {fountain}",
                         hall=sheet.hall_uses, fountain=sheet.fountain_uses), lang)
    table = localize(N_("die → icon: {table}", table=tx.DIE_FACE_TABLE), lang)
    # as wide as the map (or the dice); a longer line breaks at its " · " (a phone shows
    # the map at the width of the screen, not shrunk to fit the die -> icon table)
    w = max(geo.cols * size + 20, 10 + max(len(dice), 6) * 44 + 2)
    heads = _wrap(header, 12, w - 20)
    feet = [(line, 12) for line in _wrap(footer, 12, w - 20)]
    feet += [(line, 11) for line in _wrap(table, 11, w - 20)]
    dice_y = 26 + 18 * (len(heads) - 1)
    top = dice_y + 36 + 12
    h = top + geo.rows * size + 28 + 18 * (len(feet) - 1) + 12
    parts = [f"<text x='10' y='{17 + 18 * k}' font-size='12'>{escape(line)}</text>"
             for k, line in enumerate(heads)]
    used_word = localize(N_("(used)"), lang)
    for d, v in enumerate(dice):
        used = state.phase == DISCOVER and state.used[me] >> d & 1
        x = 10 + d * 44
        face = tx.DIE_FACES.get(v, "") if isinstance(v, int) else ""
        # named by the value it shows (the page's "selected: die showing 2"), not its place
        die_word = localize(N_("die showing {value}", value=v), lang)
        parts.append(
            f"<g data-key='die:{d}' class='die'><title>{escape(die_word)}: {v}"
            f"{' → ' + escape(face) if face else ''}"
            f"{' ' + escape(used_word) if used else ''}</title>"
            f"<rect x='{x}' y='{dice_y}' width='36' height='36' rx='6' "
            f"fill='{'#ddd' if used else '#fff'}' stroke='#333'/>"
            f"<text x='{x + 18}' y='{dice_y + 25}' text-anchor='middle' font-size='20'>{v}"
            f"</text></g>")
    parts.append(f"<g data-seat='{me}'>")
    parts.extend(_map_svg(sheet, 10, top, size, True, tx))
    parts.append("</g>")
    y0 = top + geo.rows * size
    for k, (line, font) in enumerate(feet):
        parts.append(f"<text x='10' y='{y0 + 28 + 18 * k}' font-size='{font}'>"
                     f"{escape(line)}</text>")
    # the other players' maps, half size, two to a row
    others = [q for q in range(state.num_players) if q != me]
    small = size / 2
    ow = geo.cols * small + 20
    y = h
    for k, q in enumerate(others):
        col = k % 2
        if col == 0 and k:
            y += geo.rows * small + 30
        x = 10 + col * ow
        caption = localize(N_("map of P{n}", n=q + 1), lang)
        parts.append(f"<g data-seat='{q}' class='rit-other'><text x='{x}' y='{y + 14}' "
                     f"font-size='12'>{escape(caption)}</text>")
        parts.extend(_map_svg(state.sheets[q], x, y + 20, small, False, tx))
        parts.append("</g>")
    if others:
        h = y + geo.rows * small + 30
        w = max(w, 10 + min(2, len(others)) * ow)
    label = localize(N_("Roll into Town map"), lang)
    parts.insert(0, f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w} {h}' "
                    f"width='{w}' height='{h}' font-family='sans-serif' class='rit-map' "
                    f"role='group' aria-label='{escape(label)}'>")
    parts.append("</svg>")
    return "".join(parts)


_COORDS = re.compile(r"(?<![\w.])(\d{1,2}),(\d{1,2})(?![\d.])")


def log_keys(text: str) -> list[str]:
    """``sq:R,C`` of every coordinate pair of a log line (``"d1 farm 1,8"``)."""
    return [f"sq:{r},{c}" for r, c in _COORDS.findall(text)]


def _building_label(code: int, tx: Any) -> str:
    """The short label of building ``code`` on an SVG map square in the texts' language
    (``BUILDING_LABELS``; the lighthouse's two squares apart); "" for no building."""
    return tx.BUILDING_LABELS[B_IDS[code]] if code in BUILDING_CODES else ""


def legend(lang: str = "en") -> list[tuple[str, str]]:
    tx = _texts.for_language(lang)
    words = tx.LEGEND_WORDS
    out = [(label, tx.ICON_NAMES.get(t, t)) for t, label in tx.SHORT_LABELS.items()]
    out.append((words["blue line"], words["river"].format(river=tx.ICON_NAMES["river"])))
    out.append((words["blue edge"], words["coast"].format(coast=tx.ICON_NAMES["coast"])))
    for b, code in BUILDING_CODES.items():
        bid = B_IDS[b] if b < len(B_IDS) else ""
        name = tx.BUILDING_NAMES.get("lighthouse" if bid.startswith("lighthouse") else bid, bid)
        part = {"LT": "top", "LB": "bottom"}.get(code)
        out.append((_building_label(b, tx),
                    words[part].format(lighthouse=name) if part else name))
    out.append((words["dice"], tx.DIE_FACE_TABLE))
    return out


_PROMPTS = {
    "die": N_("choose a die, then the icon it draws and a highlighted square"),
    "sides": N_("choose which sides of the coast square are water"),
    "sq": N_("choose a highlighted square"),
    "build": N_("choose a building, then a highlighted square for it"),
    "give": N_("trade: choose what to give, then what to take"),
    "fountain": N_("use the fountain"),
    "roll": N_("choose the die's face"),
    "done": N_("end your turn"),
}
"""The status line's "what to do now" per kind of first click (``core.view.prompt_of``)."""


def action_path(state: RollIntoTownState, action: int) -> tuple[str, ...]:
    """Web click path of ``action``: keys of :func:`render_svg` elements (``die:i``, ``sq:R,C``)
    or buttons (``icon:farm``, ``flow:NS``, ``sides:NE``, ``adj:+1``, ``build:house``, ...).
    Raises ValueError for an id outside the action space."""
    space = state.game.space
    kind, f = decode(space, action)
    if kind == "draw":
        die, var, cell = f
        sq = "sq:" + rc(space, cell)
        if var < V_RIVER:
            return (f"die:{die}", f"icon:{ICON_WORDS[var]}", sq)
        if var < V_COAST:
            return (f"die:{die}", "icon:river", f"flow:{mask_text(VAR_MASK[var])}", sq)
        return (f"die:{die}", "icon:coast", sq)
    if kind == "sides":
        return (f"sides:{mask_text(f[0])}",)
    if kind == "adjust":
        return (f"die:{f[0]}", "adj:+1" if f[1] > 0 else "adj:-1")
    if kind == "fountain":
        return ("fountain:use",)
    if kind == "build":
        return (f"build:{R.BUILD_KINDS[f[0]][0]}", "sq:" + rc(space, f[1]))
    if kind == "trade":
        return (f"give:{R.RESOURCES[f[0]]}", f"take:{R.RESOURCES[f[1]]}")
    if kind in ("cut", "grow"):
        return ("sq:" + rc(space, f[0]),)
    if kind == "done":
        return ("done",)
    return (f"roll:{f[0]}",)


# ------------------------------------------------------------------ panels: Roll into Town
def display_panels(obs: dict[str, Any], names: Sequence[str], you: int | None,
                   terminal: bool, rounds: int = R.ROUNDS, lang: str = "en") -> list[Panel]:
    """The "Your view" panels of an observation (rounds: 12, rulebook game play; the
    observation does not carry it); phase names from the texts in ``lang``."""
    out: list[Panel] = []
    rnd = obs.get("round")
    if terminal:
        out.append({"title": N_("Round"),
                    "value": N_("game over after {rounds} rounds", rounds=rounds)})
    elif isinstance(rnd, int):
        phase = obs.get("phase")
        phase = _texts.for_language(lang).PHASE_NAMES.get(phase, phase) if phase else ""
        out.append({"title": N_("Round"), "value": N_("{round} of {rounds}", round=min(rnd, rounds),
                                                    rounds=rounds)
                    if not phase else N_("{round} of {rounds} · {phase}",
                                         round=min(rnd, rounds), rounds=rounds, phase=phase)})
    dice = obs.get("dice") if isinstance(obs.get("dice"), list) else []
    if dice and not terminal and obs.get("phase") != "roll":  # (roll: last round's dice)
        used = set(obs.get("used_dice") or [])
        adjusted = set(obs.get("adjusted_dice") or [])
        out.append({"title": N_("Your dice"), "value": ", ".join(
            f"{v}" + (" " + localize(N_("(adjusted)"), lang) if i in adjusted else "")
            for i, v in enumerate(dice))})
        out.append({"title": N_("Dice left to use"),
                    "value": ", ".join(str(v) for i, v in enumerate(dice) if i not in used)
                    or N_("(none)")})
    if obs.get("icons_to_draw"):
        out.append({"title": N_("Icons to draw"), "value": obs["icons_to_draw"]})
    act = obs.get("active_players")
    if not terminal and isinstance(act, list) and len(names) > 1:
        out.append({"title": N_("Still to play this round"),
                    "value": ", ".join(seat_name(names, p, you) for p in act) or N_("(none)")})

    def sheet(_: int, row: dict[str, Any]) -> dict[str, Any]:
        d: dict[str, Any] = {}
        labels = {"food": N_("Food"), "stone": N_("Stone"), "wood": N_("Wood"),
                  "town_hall_uses_left": N_("Town hall uses left"),
                  "fountain_uses_left": N_("Fountain uses left")}
        for k, label in labels.items():
            if k in row:
                d[label] = row[k]
        if "river_connects" in row:
            d[N_("River connects")] = N_("yes") if row["river_connects"] else N_("no")
        for k, v in row.items():
            if k not in labels and k != "river_connects" and title_of(k) not in d and k != "map":
                c = clean(v, names, you, k)
                if c is not None:
                    d[title_of(k)] = c
        return d

    if isinstance(obs.get("sheets"), list):
        out.append({"title": N_("Resources"), "value": per_seat(obs["sheets"], names, you, sheet)})
    known = {"round", "phase", "rolled", "dice", "used_dice", "adjusted_dice", "icons_to_draw",
             "active_players", "sheets"}
    return out + generic_panels(obs, names, you, known)


_AT = r"(?P<r>\d+),(?P<c>\d+)"
_MOVE_FORMS = [
    (re.compile(r"d(?P<die>\d) river (?P<dirs>[NESW]+) " + _AT), "river"),
    (re.compile(r"d(?P<die>\d) (?P<icon>[a-z]+) " + _AT), "icon"),
    (re.compile(r"adjust d(?P<die>\d) (?P<delta>[+-]?\d+)"), "adjust"),
    (re.compile(r"build (?P<building>[a-z]+) " + _AT), "build"),
    (re.compile(r"cut " + _AT), "cut"),
    (re.compile(r"grow " + _AT), "grow"),
    (re.compile(r"sides (?P<dirs>[NESW]+)"), "sides"),
    (re.compile(r"done"), "done"),
]
"""Notation forms that have a sentence (texts ``MOVE_SENTENCES``): the hint line."""


class RollIntoTownView(View):
    """How Roll into Town is presented (see ``core/view.py``): the text map, the SVG map, the
    click paths and the "Your view" panels."""

    def thumbnail_box(self, state: Any) -> tuple[float, float, float, float] | None:
        """The dice and the first map (render_svg's layout: dice at y 26, the map 40-unit
        squares from y 74, x 10)."""
        geo = state.sheets[0].geo
        return (0.0, 20.0, geo.cols * 40 + 20.0, 74 + geo.rows * 40 + 6 - 20.0)

    def move_words(self, text: str, lang: str = "en") -> str | None:
        """A hint's move as a sentence (texts ``MOVE_SENTENCES``), None if no form fits."""
        tx = _texts.for_language(lang)
        return move_in_words(text, _MOVE_FORMS, tx.MOVE_SENTENCES,
                             tx.NOTATION_WORDS if lang != "en" else {})

    def render_text(self, state: Any, player: int | None = None, color: bool = False) -> str:
        """Terminal view: round, phase, dice, the map with icons and buildings, resources,
        uses left of town hall and fountain (ANSI colours with ``color``)."""
        return render_text(state, player, color)

    def render_svg(self, state: Any, player: int | None = None, lang: str = "en") -> str:
        """SVG map (``data-key="sq:R,C"`` cells, ``die:i`` dice)."""
        return render_svg(state, player, lang)

    def log_keys(self, text: str) -> list[str]:
        return log_keys(text)

    def final_actions(self, state: Any, player: int, legal: Sequence[int]) -> set[int]:
        """``done`` ends the phase for the player: no undo after it."""
        return {a for a in legal if action_path(state, a) == ("done",)}

    def legend(self, lang: str = "en") -> list[tuple[str, str]]:
        return legend(lang)

    def prompt(self, state: Any, player: int, paths: Sequence[Sequence[str]],
               lang: str = "en") -> str | None:
        """Use a die, say the water sides, build, trade, or be done, as the phase offers."""
        return prompt_of(paths, _PROMPTS, lang)

    def action_path(self, state: Any, action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        """Web click path, e.g. ``("die:0", "icon:coast", "sq:3,4")``."""
        return action_path(state, action)

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool, lang: str = "en") -> list[Panel] | None:
        """Round, dice, icons to draw, who still plays, resources per seat."""
        return display_panels(obs, names, you, terminal, lang=lang)


# ------------------------------------------------------------------ score calculator board
from ...core.view import esc as _esc  # noqa: E402  (score calculator section)


def score_map_svg(cells: Sequence[Sequence[tuple[int, int, int] | None]],
                  lang: str = "en") -> str:
    """SVG of a sheet file's map: ``cells[r][c]`` = ``(terrain, water/flow sides, building
    code)`` or None for a token that does not parse (drawn as a red ``?``). Every square is a
    ``<g data-key="sq:R,C">``; rivers are blue lines through their flow sides, coasts blue
    edges on their water sides, buildings their label (``BUILDING_LABELS``) and terrain its
    short label in ``lang``, each squeezed into its square when too wide."""
    labels = {R.TERRAIN_IDS.index(t): label
              for t, label in _texts.for_language(lang).SHORT_LABELS.items()}
    size = 40
    rows = len(cells)
    cols = max((len(r) for r in cells), default=0)
    w, h = cols * size + 20, rows * size + 20
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w} {h}' "
             f"font-family='sans-serif' class='rit-map score-board' role='img'>"]
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            x, y = 10 + c * size, 10 + r * size
            t, sides, b = cell if cell is not None else (R.EMPTY, 0, 0)
            parts.append(f"<g data-key='sq:{r},{c}' class='sq'><rect x='{x}' y='{y}' "
                         f"width='{size}' height='{size}' fill='{_FILL[t]}' stroke='#999'/>")
            parts += _water_lines(t, sides, x, y, size)
            label = "?" if cell is None else (
                _building_label(b, _texts.for_language(lang)) or labels.get(t))
            if label:
                fill = "#b00000" if cell is None else ("#000" if b else "#333")
                weight = " font-weight='bold'" if b or cell is None else ""
                parts.append(_label_text(label, x + size / 2, y + size * 0.6, size,
                                         f" fill='{fill}'{weight} pointer-events='none'"))
            parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
