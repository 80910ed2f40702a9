"""Roll Builder drawing: terminal text (hex sheet with roads on edges) and SVG for the web UI.

Text map: each space is 3 characters between its edges; edges holding a road are drawn with
``/ \\ |`` (bold yellow in colour), usable empty edges as ``.``. Space content: first character =
building mark (digit) or terrain (``^`` mountain, ``:`` partial, ``T`` town, ``~`` water), then the
icon (``Fo Su We Fa St`` resources, ``2v`` points, ``BB``/``BW`` bonus Build/Wonder, ``IB``
innovation bonus, ``U!`` wonder unlock); a lower-case icon has been collected (X).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Sequence, TYPE_CHECKING

from citybuilders.core.errors import FormatError
from citybuilders.core.panels import HEX, generic_panels, per_seat
from citybuilders.core.view import Panel, View, esc, prompt_of, move_in_words

from .actions import A_BOTH, A_DIE, A_DONE, A_FIRST_VAR, A_STORE, A_TRACK, KINDS
from .loader import (INNOVATION_BONUS, RES_ABBR, RESOURCES, Sheet, compile_sheet,
                     load_shipped_sheet,
                     read_sheet_document, shipped_sheet_names)
from .rules.moves import NO_VALUE, TURNS
from .rules.player_sheet import placement_of
from . import texts as _texts
from ...core.i18n import N_, current, localize
from ...core.i18n import gettext_now as _

if TYPE_CHECKING:  # pragma: no cover
    from .rules.state import RollBuilderState

__all__ = ["RollBuilderView", "render_text", "render_svg", "action_path"]

_RESET = "\x1b[0m"
_STYLE = {"road": "\x1b[1;33m", "dim": "\x1b[2m", "conn": "\x1b[32m", "water": "\x1b[34m",
          "bld": "\x1b[1;35m", "used": "\x1b[2;32m", "head": "\x1b[1m"}


def _icon(sh: Any, s: int) -> str:
    res = sh.space_res[s]
    for k in range(5):
        if res[k]:
            return RES_ABBR[k]
    if sh.space_points[s]:
        return f"{sh.space_points[s]}v"
    if sh.space_bonus[s]:
        return "BB" if sh.space_bonus[s][0] == "build" else "BW"
    if sh.space_ib[s]:
        return "IB"
    if sh.space_unlock[s]:
        return "U!"
    return "  "


def _mark(icon: str, tx: Any) -> str:
    """The SVG mark of map symbol ``icon`` (``"Fo"``, ``"3v"``...) in the texts' language
    (``SYMBOL_MARKS``); "" stays ""."""
    if icon[:-1].isdigit() and icon.endswith("v"):
        return tx.SYMBOL_MARKS["2v"].format(n=icon[:-1])
    return tx.SYMBOL_MARKS.get(icon, icon)


def _map_lines(state: "RollBuilderState", player: int, color: bool) -> list[str]:
    g = state.game
    sh = g.sheet  # type: ignore[attr-defined]
    p = state.players[player]
    R, C = sh.rows, sh.cols
    margin = 3
    W = 4 * C + 4 + margin
    H = 2 * R + 1
    chars = [[" "] * W for _ in range(H)]
    style: list[list[str | None]] = [[None] * W for _ in range(H)]
    builds: dict[int, str] = {}
    for code in p.placements:
        s, n = placement_of(code)
        builds[s] = builds.get(s, "") + str(n)
    for r in range(R):
        for c in range(C):
            s = r * C + c
            cx = margin + 4 * c + 2 * (r & 1) + 2
            cy = 2 * r + 1
            ter = sh.terrain[s]
            icon = _icon(sh, s)
            marked = bool(p.marked >> s & 1)
            if ter == "water":
                txt, st = "~~~", "water"
            elif ter == "town":
                txt, st = " T ", "head"
            else:
                first = {"mountain": "^", "partial": ":"}.get(ter, " ")
                if s in builds:
                    first = builds[s][0] if len(builds[s]) == 1 else "#"
                ic = icon.lower() if marked else icon
                txt = first + ic
                st = "conn" if p.connected >> s & 1 else "dim"
                if marked:
                    st = "used"
                if s in builds:
                    st = "bld"
            for k in range(3):
                chars[cy][cx - 1 + k] = txt[k]
                style[cy][cx - 1 + k] = st
            for side, (dx, dy, ch) in {"W": (-2, 0, "|"), "E": (2, 0, "|"), "NW": (-1, -1, "/"),
                                       "NE": (1, -1, "\\"), "SW": (-1, 1, "\\"),
                                       "SE": (1, 1, "/")}.items():
                e = sh.edge_lookup[(r, c, side)]
                x, y = cx + dx, cy + dy
                if p.roads >> e & 1:
                    chars[y][x] = ch
                    style[y][x] = "road"
                elif sh.usable_edges >> e & 1 and chars[y][x] == " ":
                    chars[y][x] = "."
                    style[y][x] = "dim"
        label = f"{r:>2} "
        for k, ch in enumerate(label):
            chars[2 * r + 1][k] = ch
    header = " " * margin + "".join(f"{c:^4}" for c in range(C))
    lines = [header.rstrip()]
    for y in range(H):
        if not color:
            lines.append("".join(chars[y]).rstrip())
            continue
        out = []
        cur: str | None = None
        for x in range(W):
            st = style[y][x]
            if st != cur:
                out.append(_RESET if st is None else _RESET + _STYLE[st])
                cur = st
            out.append(chars[y][x])
        out.append(_RESET)
        lines.append("".join(out).rstrip())
    return lines


def render_text(state: "RollBuilderState", player: int, color: bool = False) -> str:
    """Terminal view of ``player``'s sheet plus the turn, dice, resources, tracks, innovations,
    wonder and score (Roll Builder has no hidden information)."""
    g = state.game
    sh = g.sheet  # type: ignore[attr-defined]
    p = state.players[player]
    tx = _texts.for_language(current())
    h = (lambda t: _STYLE["head"] + t + _RESET) if color else (lambda t: t)
    who = (_("P{n} of {count}", n=player + 1, count=state.num_players) + "  "
           if state.num_players > 1 else "")
    sheet_name = _shipped(sh.name, _texts.SHEET_NAMES.get(sh.id), tx.SHEET_NAMES.get(sh.id))
    lines = [h(_("Roll Builder — {sheet}  {who}turn {turn}/{turns}", sheet=sheet_name, who=who,
                 turn=state.turn, turns=TURNS)
               + ("  " + _("(game over)") if state.over else ""))]
    if state.dice:
        dice = []
        for i, v in enumerate(state.dice):
            used = len(state.dice) == 2 and p.dice_used >> i & 1
            dice.append(f"d{i + 1}=[{v}]" + (" " + _("used") if used else ""))
        lines.append(_("dice: {dice}", dice="  ".join(dice)))
    tl = " ".join(f"{i + 1}:{a}-{b}" for i, (a, b) in enumerate(state.turn_list))
    lines.append(_("turn list: {turns}", turns=tl or "-"))
    lines += _map_lines(state, player, color)
    lines.append(tx.TEXT_MAP_KEY)
    pend = _pending_text(state, player, tx)
    lines.append(_("pending: {pending}", pending=pend)
                 + ("   " + _("(+{n} roads per Road action this turn)", n=p.extra_roads)
                    if p.extra_roads else ""))
    fav, stg = sh.tracks
    lines.append(_("favor    {favor}   strength {strength}", favor=_track(fav, p.favor),
                   strength=_track(stg, p.strength)))
    lines.append(_("wealth: stored {stored}, circles used {used}/{storage}", stored=p.stored,
                   used=p.wealth_marked, storage=sh.wealth_storage)
                 + (" " + _("({n} stored this turn)", n=p.wealth_marked_this_turn)
                    if p.wealth_marked_this_turn else ""))
    lines.append(_("roads placed {roads}; full hexagons {used}/{most}", roads=p.roads_placed,
                   used=p.full_hexagon_uses, most=sh.hex_max))
    lines.append(h(_("innovations")))
    for i, inn in enumerate(sh.innovations):
        circ = []
        for j, kind in enumerate(inn.cost):
            k = inn.first_circle + j
            name = "IB" if kind == INNOVATION_BONUS else RES_ABBR[kind]
            circ.append(f"{j + 1}:{name}{'x' if p.crossed >> k & 1 else '.'}")
        done = " " + _("DISCOVERED") if p.discovered >> i & 1 else ""
        inn_name = _shipped(inn.name, _texts.INNOVATION_NAMES.get(sh.id, {}).get(inn.id),
                            tx.INNOVATION_NAMES.get(sh.id, {}).get(inn.id))
        lines.append(f"  {inn.id} " + _("{name} ({points} pts)", name=inn_name,
                                        points=inn.points) + f"{done}: " + " ".join(circ))
    boxes = []
    for i, b in enumerate(sh.boxes):
        if p.filled >> i & 1:
            v = p.box_values[i]
            boxes.append(f"{b.id}={'*' if v == NO_VALUE else v}")
        elif not p.unlocked >> i & 1:
            boxes.append(f"{b.id}#")
        else:
            boxes.append(f"{b.id}.")
    wonder = _shipped(sh.wonder_name, _texts.WONDER_NAMES.get(sh.id), tx.WONDER_NAMES.get(sh.id))
    lines.append(h(_("wonder {name}", name=wonder)) + ": " + " ".join(boxes) + "   "
                 + _("(# locked)"))
    parts = state.player_parts(player)
    names = tx.SCORING_NAMES if tx.lang != "en" else {}
    lines.append(_("score: {parts} = {total}", parts=", ".join(
        f"{names.get(k, k)} {v}" for k, v in parts.items()), total=sum(parts.values())))
    if state.num_players > 1:
        done = " " + _("(done)")
        lines.append(_("all players: {scores}", scores=", ".join(
            f"P{i + 1} {sum(state.player_parts(i).values())}" + (done if q.done else "")
            for i, q in enumerate(state.players))))
    return "\n".join(lines)


def _pending_text(state: "RollBuilderState", player: int, tx: Any) -> str:
    """``state.pending_text(player)`` (``2 food, bonus Build``) in the current language: the
    English one as the rules write it, else the same parts with the names of ``tx``."""
    if tx.lang == "en":
        return state.pending_text(player)
    p = state.players[player]
    res = tx.RESOURCE_NAMES
    acts = tx.ACTION_NAMES
    parts = [f"{n} {res.get(RESOURCES[k], RESOURCES[k])}"
             for k, n in enumerate(p.pending_resources) if n]
    if p.pending_innovation_bonus:
        parts.append(_("{n} innovation bonus", n=p.pending_innovation_bonus))
    for v in p.pending_builds:
        parts.append(f"{acts['build']} {v}" if v else _("bonus {action}", action=acts["build"]))
    for v in p.pending_wonders:
        parts.append(f"{acts['wonder']} {v}" if v else _("bonus {action}",
                                                         action=acts["wonder"]))
    if p.second_mark_of >= 0:
        parts.append(_("second Guildhall mark"))
    if p.roads_left:
        parts.append(_("{n} roads", n=p.roads_left))
    return ", ".join(parts) or _("nothing")


def _track(t: tuple[int, ...], crossed: int) -> str:
    return " ".join(f"[{v}]" if i == crossed else (f"x{v}" if i < crossed else str(v))
                    for i, v in enumerate(t))


# ----------------------------------------------------------------------------- SVG
_FILL = {"land": "#e8e2c0", "mountain": "#b8a48a", "water": "#8ec5e8", "town": "#d9a0a0",
         "partial": "#f4f1e4"}


_RES_IDS = ("food", "supplies", "wealth", "favor", "strength")


def _shipped(name: str, english: str | None, translated: str | None) -> str:
    """A sheet's own ``name`` in the reader's language when it is the shipped sheet's English
    name (``english``); a sheet file's own names are shown as written."""
    return translated if translated and name == english else name


def _space_tip(sh: Any, s: int, tx: Any) -> str:
    """A space's ``<title>``: its name, terrain and what its icon gives."""
    r, c = divmod(s, sh.cols)
    terrain = tx.TERRAIN_NAMES.get(sh.terrain[s], sh.terrain[s])
    icon = _icon(sh, s).strip()
    at = f"{r},{c}"
    tip = localize(N_("space {at}", at=at), tx.lang) + f", {terrain}"
    if icon:
        name = tx.SYMBOL_NAMES.get(icon) or tx.SYMBOL_NAMES.get("2v", "")
        rule = ""
        if icon in RES_ABBR:
            rule = tx.RESOURCE_RULES.get(_RES_IDS[RES_ABBR.index(icon)], "")
        tip += f": {icon} {name}" + (f" ({rule})" if rule else "")
    return tip


def render_svg(state: "RollBuilderState", player: int, lang: str = "en",
               others: bool = True) -> str:
    """SVG of ``player``'s sheet: spaces ``data-key="space:R,C"``, edges ``edge:R,C,SIDE``,
    dice ``die:0``/``die:1``, wonder boxes ``box:ID``, innovation circles ``circle:I.J``,
    tracks ``track:favor``/``track:strength``, wealth storage ``storage``; every one with a
    ``<title>`` rule. With ``others``, the other players' sheets follow at half size
    (``g[data-seat]``, their elements ``data-at`` instead of ``data-key``)."""
    tx = _texts.for_language(lang)
    g = state.game
    sh = g.sheet  # type: ignore[attr-defined]
    p = state.players[player]
    R = 22.0
    ux, uy = math.sqrt(3) * R / 2, R / 2
    ox, oy = 30.0, 40.0

    def pt(X: float, Y: float) -> tuple[float, float]:
        return ox + X * ux, oy + Y * uy

    out: list[str] = []
    # the viewBox is computed from the content at the end: ``right`` = the largest x drawn
    # (text widths estimated as 0.6 × font size a character), the height = the last line + margin
    right = ox + (2 * sh.cols + 1) * ux

    def text_right(x: float, text: str, size: float) -> float:
        return x + 0.6 * size * len(text)
    builds: dict[int, str] = {}
    for code in p.placements:
        s, n = placement_of(code)
        builds[s] = builds.get(s, "") + str(n)
    for s in range(sh.n_spaces):
        r, c = divmod(s, sh.cols)
        X, Y = 2 * c + (r & 1), 3 * r
        pts = " ".join(f"{pt(X + dx, Y + dy)[0]:.1f},{pt(X + dx, Y + dy)[1]:.1f}"
                       for dx, dy in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1)))
        conn = " connected" if p.connected >> s & 1 else ""
        out.append(f'<polygon data-key="space:{r},{c}" class="space {sh.terrain[s]}{conn}" '
                   f'points="{pts}" fill="{_FILL[sh.terrain[s]]}" stroke="#999" '
                   f'stroke-width="0.5" opacity="{1 if conn else 0.75}">'
                   f'<title>{esc(_space_tip(sh, s, tx))}</title></polygon>')
        cx, cy = pt(X, Y)
        icon = _mark(_icon(sh, s).strip(), tx)
        if p.marked >> s & 1:
            icon = icon.lower() + "✗"
        if icon:
            out.append(f'<text x="{cx:.1f}" y="{cy - 2:.1f}" font-size="9" '
                       f'text-anchor="middle" pointer-events="none">{esc(icon)}</text>')
        if s in builds:
            out.append(f'<text x="{cx:.1f}" y="{cy + 10:.1f}" font-size="11" font-weight="bold" '
                       f'fill="#7a1f7a" text-anchor="middle" pointer-events="none">'
                       f'{builds[s]}</text>')
    side_word, road_word = localize(N_("side"), lang), localize(N_("road"), lang)
    river_word = localize(N_("(river)"), lang)
    for e in range(sh.n_edges):
        if not (sh.usable_edges >> e & 1 or p.roads >> e & 1):
            continue
        a, b = sh.edge_corners[e]
        (x1, y1), (x2, y2) = pt(*sh.corner_xy[a]), pt(*sh.corner_xy[b])
        road = p.roads >> e & 1
        river = sh.river_edges >> e & 1
        stroke = "#333" if road else ("#3a7bd5" if river else "#000")
        op = 1 if road or river else 0.08
        out.append(f'<line data-key="edge:{esc(sh.edge_name[e])}" class="edge{" road" if road else ""}"'
                   f' x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                   f'stroke-opacity="{op}" stroke-width="{4 if road else 5}" '
                   f'stroke-linecap="round"><title>{esc(side_word)} {esc(sh.edge_name[e])}'
                   f'{": " + esc(road_word) if road else ""}'
                   f'{" " + esc(river_word) if river else ""}</title></line>')
    y0 = oy + (3 * sh.rows + 2) * uy
    used_word = localize(N_("(used)"), lang)
    die_words = [localize(N_("die {n}", n=i + 1), lang) for i in range(len(state.dice))]
    for i, v in enumerate(state.dice):
        used = len(state.dice) == 2 and p.dice_used >> i & 1
        x = ox + i * 34
        out.append(f'<g data-key="die:{i}" class="die{" used" if used else ""}">'
                   f'<title>{esc(die_words[i])}: {v}{" " + esc(used_word) if used else ""}</title><rect x="{x:.0f}" y="{y0:.0f}" width="28" height="28" rx="4" '
                   f'fill="{"#ccc" if used else "#fff"}" stroke="#333"/>'
                   f'<text x="{x + 14:.0f}" y="{y0 + 19:.0f}" font-size="16" '
                   f'text-anchor="middle">{v}</text></g>')
    sheet_name = _shipped(sh.name, _texts.SHEET_NAMES.get(sh.id), tx.SHEET_NAMES.get(sh.id))
    turn_text = localize(N_("turn {turn}/{turns} — {sheet}", turn=state.turn, turns=TURNS,
                            sheet=sheet_name), lang)
    out.append(f'<text x="{ox + 80:.0f}" y="{y0 + 19:.0f}" font-size="12">{esc(turn_text)}'
               f'</text>')
    right = max(right, text_right(ox + 80, turn_text, 12), ox + len(state.dice) * 34)
    y = y0 + 40
    for i, b in enumerate(sh.boxes):
        x = ox + i * 34
        filled = p.filled >> i & 1
        locked = not p.unlocked >> i & 1
        v = p.box_values[i]
        label = b.id + (f"={'*' if v == NO_VALUE else v}" if filled else "")
        box_tip = (localize(N_("wonder box {box}:", box=b.id), lang) + " "
                   + tx.WONDER_RULES["requires"]
                   + (" " + tx.WONDER_RULES["locked"] if locked else ""))
        out.append(f'<g data-key="box:{esc(b.id)}" class="box"><title>{esc(box_tip)}</title><rect x="{x:.0f}" y="{y:.0f}" '
                   f'width="32" height="20" fill="{"#9c9" if filled else ("#ccc" if locked else "#fff")}"'
                   f' stroke="#333" stroke-dasharray="{"3,2" if locked else "none"}"/>'
                   f'<text x="{x + 16:.0f}" y="{y + 14:.0f}" font-size="9" '
                   f'text-anchor="middle">{esc(label)}</text></g>')
    right = max(right, ox + len(sh.boxes) * 34)
    y += 30
    for i, inn in enumerate(sh.innovations):
        effects = " ".join(tx.EFFECT_RULES.get(str(e.get("type")), "") for e in inn.effects
                           if isinstance(e, dict))
        inn_name = _shipped(inn.name, _texts.INNOVATION_NAMES.get(sh.id, {}).get(inn.id),
                            tx.INNOVATION_NAMES.get(sh.id, {}).get(inn.id))
        inn_tip = (f"{inn.id} {inn_name}, "
                   + localize(N_("{n} points", n=inn.points), lang) + f": {effects}").strip()
        out.append(f'<g class="innovation" data-at="innovation:{esc(inn.id)}"><title>'
                   f'{esc(inn_tip)}</title><text x="{ox:.0f}" y="{y + 10:.0f}" font-size="10">'
                   f'{esc(f"{inn.id} {inn_name} ({inn.points})")}</text></g>')
        for j, kind in enumerate(inn.cost):
            k = inn.first_circle + j
            x = ox + 150 + j * 22
            name = _mark("IB" if kind == INNOVATION_BONUS else RES_ABBR[kind], tx)
            crossed = p.crossed >> k & 1
            what = (tx.RESOURCE_NAMES["innovation_bonus"] if kind == INNOVATION_BONUS
                    else tx.RESOURCE_NAMES[_RES_IDS[kind]])
            circle_tip = localize(N_("circle {n}: pay {what}", n=j + 1, what=what), lang)
            out.append(f'<g data-key="circle:{esc(inn.id)}.{j + 1}" class="circle">'
                       f'<title>{esc(inn.id)} {esc(inn_name)}, '
                       f'{esc(circle_tip)}'
                       f'</title><circle cx="{x:.0f}" cy="{y + 6:.0f}" r="9" '
                       f'fill="{"#999" if crossed else "#fff"}" stroke="#333"/>'
                       f'<text x="{x:.0f}" y="{y + 9:.0f}" font-size="7" text-anchor="middle">'
                       f'{esc(name)}</text></g>')
        right = max(right, ox + 150 + len(inn.cost) * 22,
                    text_right(ox, f"{inn.id} {inn_name} ({inn.points})", 10))
        y += 22
    for t, (name, nums, crossed) in enumerate((("favor", sh.tracks[0], p.favor),
                                               ("strength", sh.tracks[1], p.strength))):
        shown = tx.RESOURCE_NAMES.get(name, name)
        track = f"{shown}: " + " ".join(
            ("x" if i < crossed else "") + str(v) for i, v in enumerate(nums))
        track_tip = localize(N_("{name} track: {rule}", name=shown,
                                rule=tx.RESOURCE_RULES[name]), lang)
        out.append(f'<g data-key="track:{name}" class="track"><title>{esc(track_tip)}</title><text x="{ox:.0f}" y="{y + 10:.0f}"'
                   f' font-size="10">{esc(track)}</text></g>')
        right = max(right, text_right(ox, track, 10))
        y += 16
    storage = localize(N_("wealth stored {stored} ({used}/{total} circles used)", stored=p.stored,
                          used=p.wealth_marked, total=sh.wealth_storage), lang)
    storage_tip = localize(N_("wealth storage: {rule}", rule=tx.RESOURCE_RULES["wealth"]), lang)
    out.append(f'<g data-key="storage" class="storage"><title>{esc(storage_tip)}</title><text x="{ox:.0f}" y="{y + 10:.0f}" '
               f'font-size="10">{esc(storage)}</text></g>')
    right = max(right, text_right(ox, storage, 10))
    legend_rows = tuple(tx.SYMBOL_LEGEND)
    half = (len(legend_rows) + 1) // 2  # the map symbols' legend, on two lines
    for row in ((localize(N_("symbols:"), lang),) + legend_rows[:half], legend_rows[half:]):
        y += 16
        line = "  ".join(row)
        out.append(f'<text class="legend" x="{ox:.0f}" y="{y + 10:.0f}" font-size="9" '
                   f'fill="#555">{esc(line)}</text>')
        right = max(right, text_right(ox, line, 9))
    width, height = right + ox, y + 10 + 12
    if others and state.num_players > 1:
        # the other players' sheets, half size, two to a row (not clickable)
        y = height
        col_w = width / 2
        for k, q in enumerate(q for q in range(state.num_players) if q != player):
            inner = render_svg(state, q, lang, others=False)
            inner = inner.replace("data-key=", "data-at=")
            m = re.search(r'viewBox="0 0 (\d+) (\d+)"', inner)
            iw, ih = (int(m.group(1)), int(m.group(2))) if m else (width, height)
            sw, shh = col_w - 10, (col_w - 10) * ih / iw
            x = (k % 2) * col_w + 5
            if k and k % 2 == 0:
                y += shh + 24
            caption = localize(N_("sheet of P{n}", n=q + 1), lang)
            out.append(f'<g data-seat="{q}" class="rb-other"><text x="{x:.0f}" y="{y + 14:.0f}" '
                       f'font-size="12">{esc(caption)}</text>')
            out.append(inner.replace("<svg ", f'<svg x="{x:.0f}" y="{y + 18:.0f}" '
                                     f'width="{sw:.0f}" height="{shh:.0f}" ', 1))
            out.append("</g>")
        height = y + 18 + shh + 6
    sheet_label = esc(localize(N_("Roll Builder sheet"), lang))
    out.insert(0, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} '
                  f'{height:.0f}" class="roll-builder" font-family="sans-serif" role="group" '
                  f'aria-label="{sheet_label}">')
    out.append("</svg>")
    return "".join(out)


_EDGE = re.compile(r"\b(\d+,\d+,[A-Z]{1,2})\b")
_SPACE = re.compile(r"(?<![\d,])(\d+),(\d+)(?![\d,])")
_CIRCLE = re.compile(r"\b(I\d+\.\d+)\b")


def log_keys(text: str) -> list[str]:
    """``"road 4,5,E"`` -> ``edge:4,5,E``; ``"mark 3,6"`` / ``"build 5 2,6"`` -> ``space:R,C``;
    ``"cross I5.5"`` -> ``circle:I5.5``."""
    keys = [f"edge:{e}" for e in _EDGE.findall(text)]
    keys += [f"space:{r},{c}" for r, c in _SPACE.findall(_EDGE.sub("", text))]
    keys += [f"circle:{c}" for c in _CIRCLE.findall(text)]
    return keys


def legend(lang: str = "en") -> list[tuple[str, str]]:
    tx = _texts.for_language(lang)
    out = [(_mark(k, tx), v) for k, v in tx.SYMBOL_NAMES.items()]
    w = tx.LEGEND_WORDS
    out.append(("✗", w["collected"]))
    out.append((w["digit"], w["building"]))
    out.append((w["dark side"], w["road"]))
    out.append((w["blue side"], w["river"]))
    for k, name in tx.TERRAIN_NAMES.items():
        out.append((tx.TERRAIN_LOOKS.get(k, k), name))
    return out


_PROMPTS = {
    "die": N_("use a die"),
    "space": N_("mark a highlighted space"),
    "edge": N_("draw a road on a highlighted side"),
    "building": N_("choose a building, then a highlighted space for it"),
    "box": N_("fill a highlighted wonder box"),
    "circle": N_("collect: cross a highlighted circle of an innovation"),
    "track": N_("move up the favor or strength track"),
    "caravan": N_("take the caravan's favor or strength"),
    "storage": N_("store the wealth"),
    "discard": N_("discard what you cannot keep"),
    "skip": N_("skip this step"),
    "done": N_("end your turn"),
}
"""The status line's "what to do now" per kind of first click (``core.view.prompt_of``)."""


def action_path(state: "RollBuilderState", action: int, player: int | None = None
                ) -> tuple[str, ...]:
    """Click path of ``action`` (keys of :func:`render_svg`; other keys are buttons)."""
    g = state.game
    sh = g.sheet  # type: ignore[attr-defined]
    if A_DIE <= action < A_BOTH:
        i, k = divmod(action - A_DIE, 4)
        return (f"die:{i}", KINDS[k])
    if A_BOTH <= action < A_DONE:
        return ("die:0", "die:1", KINDS[action - A_BOTH])
    if action in (A_TRACK, A_TRACK + 1):
        return (f"track:{'favor' if action == A_TRACK else 'strength'}",)
    if action == A_STORE:
        return ("storage",)
    if action < A_FIRST_VAR:
        return (state.action_to_string(action, player),)
    if action < g.A_MARK:
        return (f"edge:{sh.edge_name[action - g.A_ROAD]}",)
    if action < g.A_BUILD:
        return (f"space:{sh.space_name(action - g.A_MARK)}",)
    if action < g.A_WONDER:
        n, s = divmod(action - g.A_BUILD, sh.n_spaces)
        return (f"building:{n + 1}", f"space:{sh.space_name(s)}")
    if action < g.A_CROSS:
        return (f"box:{sh.boxes[action - g.A_WONDER].id}",)
    k, var = divmod(action - g.A_CROSS, 3)
    inn = sh.innovations[sh.circles[k][0]]
    j = k - inn.first_circle + 1
    return (f"circle:{inn.id}.{j}", ("pay", "pay:bonus", "pay:wealth")[var])


# ------------------------------------------------------------------ panels: Roll Builder
def display_panels(obs: dict[str, Any], names: Sequence[str], you: int | None,
                  terminal: bool, lang: str = "en") -> list[Panel]:
    tx = _texts.for_language(lang)
    out: list[Panel] = []
    if obs.get("sheet"):
        out.append({"title": N_("Sheet"), "value": str(tx.SHEET_NAMES.get(str(obs["sheet"]),
                                                                         obs["sheet"]))})
    if isinstance(obs.get("turn"), int):
        out.append({"title": N_("Turn"), "value": N_("game over") if terminal
                    else N_("{turn} of {turns}", turn=obs["turn"], turns=TURNS)})
    if obs.get("dice") and not terminal:
        out.append({"title": N_("Dice"), "value": ", ".join(str(v) for v in obs["dice"])})
    if obs.get("turn_list"):
        out.append({"title": N_("Rolls so far"), "value": " · ".join(
            "+".join(str(v) for v in r) if isinstance(r, list) else str(r)
            for r in obs["turn_list"])})

    def player(_: int, row: dict[str, Any]) -> dict[str, Any]:
        def bits(k: str) -> int:
            v = row.get(k)
            if isinstance(v, str) and HEX.match(v):
                v = int(v, 16)
            return bin(v).count("1") if isinstance(v, int) and v >= 0 else 0

        d: dict[str, Any] = {
            N_("Roads drawn"): len(row.get("roads_named") or []),
            N_("Buildings"): sum(row.get("bcount") or []),
            N_("Innovations discovered"): bits("discovered"),
            N_("Wonder boxes filled"): bits("filled"),
            N_("Favor"): row.get("favor"),
            N_("Strength"): row.get("strength"),
        }
        if isinstance(row.get("w_marked"), int) and isinstance(row.get("w_spent"), int):
            d[N_("Wealth stored")] = row["w_marked"] - row["w_spent"]
        if not terminal and "done" in row:
            d[N_("Done this turn")] = N_("yes") if row["done"] else N_("no")
        return {k: v for k, v in d.items() if v is not None}

    if isinstance(obs.get("players"), list):
        out.append({"title": N_("Sheets"), "value": per_seat(obs["players"], names, you, player)})
    known = {"turn", "dice", "turn_list", "over", "players", "sheet"}
    return out + generic_panels(obs, names, you, known)


_MOVE_FORMS = [(re.compile(r"done"), "done")]
"""Notation forms that have a sentence (texts ``MOVE_SENTENCES``): the hint line."""


class RollBuilderView(View):
    """How Roll Builder is presented (see ``core/view.py``): text board, SVG, click paths and
    the web "Your view" panels. ``player`` None = seat 0 (Roll Builder hides nothing)."""

    def thumbnail_box(self, state: Any) -> tuple[float, float, float, float] | None:
        """The hex map of the first sheet: the bounding box of its spaces' polygons."""
        svg = render_svg(state, 0, "en", others=False)
        xs, ys = [], []
        for pts in re.findall(r'<polygon data-key="space:[^"]*"[^>]*points="([^"]+)"', svg):
            for pair in pts.split():
                x, y = pair.split(",")
                xs.append(float(x))
                ys.append(float(y))
        if not xs:
            return None
        return (min(xs) - 4, min(ys) - 4, max(xs) - min(xs) + 8, max(ys) - min(ys) + 8)

    def move_words(self, text: str, lang: str = "en") -> str | None:
        """A hint's move as a sentence (texts ``MOVE_SENTENCES``), None if no form fits."""
        tx = _texts.for_language(lang)
        return move_in_words(text, _MOVE_FORMS, tx.MOVE_SENTENCES,
                             tx.NOTATION_WORDS if lang != "en" else {})

    def render_text(self, state: Any, player: int | None = None, color: bool = False) -> str:
        """The hex sheet, dice, turn list, resources, tracks, innovations and wonder."""
        return render_text(state, 0 if player is None else player, color)

    def render_svg(self, state: Any, player: int | None = None, lang: str = "en") -> str:
        """SVG sheet with ``data-key`` spaces, edges, dice, boxes and circles."""
        return render_svg(state, 0 if player is None else player, lang)

    def log_keys(self, text: str) -> list[str]:
        return log_keys(text)

    def final_actions(self, state: Any, player: int, legal: Sequence[int]) -> set[int]:
        """``done`` ends the turn: the next roll follows, no undo after it."""
        return {a for a in legal if a == A_DONE}

    def prompt(self, state: Any, player: int, paths: Sequence[Sequence[str]],
               lang: str = "en") -> str | None:
        """Use a die, mark, draw roads, build, collect, store, or be done, as the turn offers."""
        return prompt_of(paths, _PROMPTS, lang)

    def legend(self, lang: str = "en") -> list[tuple[str, str]]:
        return legend(lang)

    def action_path(self, state: Any, action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        """Click path (keys of ``render_svg``; keys without an element are buttons)."""
        return action_path(state, action, player)

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool, lang: str = "en") -> list[Panel] | None:
        return display_panels(obs, names, you, terminal, lang)


# ------------------------------------------------------------------ sheets (`citybuilders sheets`)
def sheet_summary(sh: Sheet) -> str:
    """One paragraph describing a compiled sheet (size, content counts, wonder, abilities)."""
    land = sh.land_mask.bit_count()
    icons = sum(1 for s in range(sh.n_spaces) if sh.icons[s])
    pts = sum(sh.space_points)
    return (
        f"{sh.id}: {sh.name} — {sh.theme}\n"
        f"  map {sh.rows}x{sh.cols}: {land} buildable land spaces, {icons} spaces with icons, "
        f"{pts} road points; {sh.start_roads.bit_count()} starting roads; restrictions: "
        f"{', '.join(sh.restrictions) or 'none'}\n"
        f"  buildings: " + ", ".join(f"{b.number} {b.name}" for b in sh.buildings) + "\n"
        f"  innovations: " + ", ".join(f"{i.id} {i.name} ({i.points})" for i in sh.innovations)
        + "\n"
        f"  wonder: {sh.wonder_name} ({sh.wonder_rule or 'custom'}, {len(sh.boxes)} boxes); "
        f"special: {sh.special_name or 'none'}; full hexagon x{sh.hex_max}; milestones: "
        + (", ".join(str(c) for c, _ in sh.milestones) or "none")
    )


def list_sheets() -> str:
    """Text listing every shipped sheet (``citybuilders sheets``)."""
    return "\n".join(sheet_summary(load_shipped_sheet(n)) for n in shipped_sheet_names())


def check_sheet(path: str | Path) -> str:
    """Validate the sheet file at ``path``; return ``"OK: ..."`` with its summary.

    Raises FormatError (one line naming the field) when the file is not a valid sheet (or not a
    readable regular JSON file of at most 64 KiB).
    """
    name = Path(path).name
    data = read_sheet_document(path)
    try:
        sh = compile_sheet(data)
    except FormatError as exc:
        raise FormatError(N_("{name}: {exc}", name=name, exc=exc)) from None
    return f"OK: {name} is a valid Roll Builder sheet\n" + sheet_summary(sh)
