"""The score calculator in the browser: ``GET /score`` (the page) and ``POST /api/score/<game>``.

The API is the CLI's calculator (``citybuilders score <game> FILE``, docs/formats.md): the body
is the same score file, checked by the same strict code (``games/<g>/scorefile.py``). Answers:

* 200 ``{"game", "result": <the CLI's --json>, "columns": [name...], "rows": [{"id", "label",
  "values": [int per column]}], "highlight": {"<column>": {"<row id>": [board key...]}}}``;
* 4xx ``{"error": "<field>: <problem>", "field": "<field>", "keys": [board key...]}``: the
  calculator's own message (it starts with the field); ``keys`` are the board elements of that
  field (the hex, block, square, space, road or box to flag). 400 for every problem in the file,
  404 for an unknown game, 413 for a body over :data:`MAX_SCORE_BODY` bytes.

With ``?draw=1`` both answers also carry ``"svg"``: the position drawn for the page (elements
``data-key`` = the board keys above), as far as it can be drawn (None when not at all). Board
keys: Kingdom Builder ``hex:R,C``; Sprawlopolis ``blk:R,C`` (a visible block, file coordinates)
and ``pos:R,C`` (an empty slot); Roll into Town ``sq:R,C``; Roll Builder ``space:R,C``,
``edge:R,C,SIDE``, ``box:ID``, ``circle:ID.J``.

``highlight`` says what scored: for each breakdown row, the pieces without which that row would
score less (a settlement, a block, a building...) — a leave-out test the page shows when a row
is pointed at. Kingdom Builder cards that count rows, sectors or areas leave out the player's
pieces of one row / sector / connected area at a time (``server/explain.py``); castles are the
castles next to the player's pieces; the Roll into Town river is its squares; Roll Builder
rows show the buildings, connected spaces, filled boxes and discovered innovations. Nothing is stored; the page keeps the position in its URL fragment.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.errors import CitybuildersError
from ..core.i18n import N_, json_reason, localize, message_of, negotiate, normalize
from ..core.jsonsafe import unicode_problem
from ..core.registry import load_game
from ..games.kingdom_builder import render as kb_render
from ..games.kingdom_builder import scoring as kb_scoring
from ..games.kingdom_builder import texts as kb_texts
from ..games.kingdom_builder.loader import section_data
from ..games.kingdom_builder.rules import crossroads as kb_x
from ..games.kingdom_builder.rules import options as kb_options
from ..games.kingdom_builder.rules.board import NEIGHBORS, SIZE, bits, make_board
from ..games.kingdom_builder.scorefile import PIECE_KEYS, parse_score_input, section_catalog
from ..games.roll_builder import render as rb_render
from ..games.roll_builder import texts as rb_texts
from ..games.roll_builder.loader import load_shipped_sheet, shipped_sheet_names
from ..games.roll_builder.scorefile import replay_position
from ..games.roll_into_town import actions as rit_actions
from ..games.roll_into_town import render as rit_render
from ..games.roll_into_town import rules as rit_rules
from ..games.roll_into_town import scorefile as rit_file
from ..games.roll_into_town import texts as rit_texts
from ..games.sprawlopolis import render as sp_render
from ..games.sprawlopolis import texts as sp_texts
from ..games.sprawlopolis.loader import CARDS as SP_CARDS
from ..games.sprawlopolis.loader import card_blocks
from ..games.sprawlopolis.actions import WIDTH as SP_WIDTH
from ..games.sprawlopolis.scorefile import grid_cells
from ..games.sprawlopolis.scoring import Rules as SpRules
from .explain import (KB_GROUPS, MAX_SP_BLOCKS, kb_what_scored, rb_what_scored,
                      rit_what_scored, sp_what_scored)
from .manager import ApiError

__all__ = ["score_router", "score_position", "SCORE_GAMES", "MAX_SCORE_BODY", "field_of"]

SCORE_GAMES = ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder")
"""The games the calculator page and API serve (registry ids)."""
MAX_SCORE_BODY = 262_144
"""Largest score-file body in bytes (413 past it): a full Kingdom Builder file is ~3 KB."""
_FIELD = re.compile(r"'?([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\]|\.[A-Za-z0-9_]+)*)")


def field_of(message: str) -> str:
    """The field a calculator message starts with: ``"settlements[1][3]: hex ..."`` ->
    ``settlements[1][3]``; ``"'cards' must ..."`` -> ``cards``; ``"score file: ..."`` ->
    ``file``; a message that names no field -> ``file``."""
    if message.startswith("score file"):
        return "file"
    m = _FIELD.match(message)
    return m.group(1) if m else "file"


def _lang(request: Request) -> str:
    return (normalize(request.query_params.get("lang"))
            or normalize(request.cookies.get("cb_lang"))
            or negotiate(request.headers.get("accept-language")))


# ------------------------------------------------------------------ Kingdom Builder
def _kb_pieces(data: Mapping[str, Any]) -> list[tuple[int, int, str, str]]:
    """``(hex, player, letter, field)`` of every well-formed cell of the file (settlements and
    Crossroads pieces; later duplicates drawn over earlier ones)."""
    out = []
    keys = [("settlements", "")] + [(k, kb_texts.PIECE_LETTERS[v]) for k, v in PIECE_KEYS.items()]
    for key, letter in keys:
        lists = data.get(key)
        if not isinstance(lists, list):
            continue
        for p, lst in enumerate(lists[:8]):
            if not isinstance(lst, list):
                continue
            for k, rc in enumerate(lst[:400]):
                if (isinstance(rc, list) and len(rc) == 2
                        and all(type(v) is int and 0 <= v < SIZE for v in rc)):
                    out.append((rc[0] * SIZE + rc[1], p, letter, f"{key}[{p}][{k}]"))
    return out


def _kb_board(data: Any) -> Any:
    secs = data.get("sections") if isinstance(data, Mapping) else None
    if not (isinstance(secs, list) and len(secs) == 4):
        return None
    try:
        # the file's own sections (options.sections_doc) may be on the board
        return make_board(tuple((s[0], s[1]) for s in secs),  # type: ignore[index]
                          section_catalog(data))
    except Exception:  # noqa: BLE001 - a drawing aid: an unusable 'sections' draws nothing
        return None


def _kb_draw(data: Any, colors: list[str], lang: str = "en") -> str | None:
    board = _kb_board(data)
    if board is None:
        return None
    pieces = [(i, p, letter) for i, p, letter, _ in _kb_pieces(data)]
    return kb_render.score_board_svg(board, pieces, colors, lang)


def _kb_keys(data: Any, field: str) -> list[str]:
    hexes = [i for i, _, _, f in _kb_pieces(data) if f == field or f.startswith(field + "[")]
    return [f"hex:{i // SIZE},{i % SIZE}" for i in hexes]


_KB_GROUPS = KB_GROUPS  # the leave-out groups (server/explain.py); kept for importers


def _kb_result(data: Any, result: Any, tr: Any, gettext: Callable[[str], str]
               ) -> dict[str, Any]:
    js = result.to_json()
    players = js["players"]
    rows = [{"id": c, "label": tr.CARD_NAMES.get(c, c), "rule": tr.CARD_RULES.get(c, ""),
             "values": [pl["cards"][c] for pl in players]} for c in result.cards]
    rows.append({"id": "castles", "label": gettext("castles"),
                 "rule": tr.CASTLE_RULE, "values": [pl["castles"] for pl in players]})
    for t in getattr(result, "tasks", []):
        rows.append({"id": t, "label": tr.TASK_NAMES.get(t, t), "rule": tr.TASK_RULES.get(t, ""),
                     "values": [pl["tasks"][t] for pl in players]})
    board, cards, own, opts = parse_score_input(data)
    own = list(own)
    for i, p, _, f in _kb_pieces(data):
        if not f.startswith("settlements"):
            own[p] |= 1 << i
    highlight = {str(p): hl for p, hl in kb_what_scored(board, cards, own, opts).items()}
    return {"columns": [f"P{p + 1}" for p in range(len(players))], "rows": rows,
            "totals": [pl["total"] for pl in players], "highlight": highlight}


# ------------------------------------------------------------------ Sprawlopolis
def _sp_placements(data: Any) -> list[tuple[int, int, int, int]]:
    """The well-formed ``cards`` entries ``(card, row, col, rot)`` within 30 blocks of the
    first one (a city of 15 cards spans at most 29; farther ones are not drawn)."""
    out: list[tuple[int, int, int, int]] = []
    entries = data.get("cards") if isinstance(data, Mapping) else None
    for e in entries[:18] if isinstance(entries, list) else []:
        if not isinstance(e, Mapping):
            continue
        card, row, col, rot = e.get("card"), e.get("row"), e.get("col"), e.get("rot", 0)
        if (type(card) is int and card in SP_CARDS and type(row) is int and type(col) is int
                and rot in (0, 180) and type(rot) is int
                and (not out or max(abs(row - out[0][1]), abs(col - out[0][2])) <= 30)):
            out.append((card, row, col, rot))
    return out


def _sp_grid(data: Any) -> dict[tuple[int, int], int] | None:
    """The blocks of a ``grid`` form file (``{(row, col): code}``, top row 0), or None when
    the file has no well-formed grid."""
    if not isinstance(data, Mapping) or "grid" not in data:
        return None
    try:
        flat, occ = grid_cells(data["grid"])
    except CitybuildersError:
        return None
    return {(i // SP_WIDTH - 3, i % SP_WIDTH - 3): flat[i] for i in occ}


def _sp_cells(data: Any) -> dict[tuple[int, int], int]:
    """The visible blocks of either form (``{(row, col): code}``, later cards on top)."""
    grid = _sp_grid(data)
    if grid is not None:
        return grid
    cells: dict[tuple[int, int], int] = {}
    for card, row, col, rot in _sp_placements(data):
        for j, code in enumerate(card_blocks(card, rot)):
            cells[(row + j // 2, col + j % 2)] = code
    return cells


def _sp_draw(data: Any, colors: list[str], lang: str = "en") -> str | None:
    return sp_render.score_city_svg(_sp_placements(data), grid=_sp_grid(data))


def _sp_keys(data: Any, field: str) -> list[str]:
    m = re.fullmatch(r"cards\[(\d+)\].*", field)
    entries = data.get("cards") if isinstance(data, Mapping) else None
    if not m or not isinstance(entries, list) or int(m.group(1)) >= len(entries):
        return []
    e = entries[int(m.group(1))]
    if not (isinstance(e, Mapping) and type(e.get("row")) is int and type(e.get("col")) is int
            and abs(e["row"]) < 100 and abs(e["col"]) < 100):
        return []
    return [f"pos:{e['row'] + dr},{e['col'] + dc}" for dr in (0, 1) for dc in (0, 1)]


def _sp_result(data: Any, result: Any, tr: Any) -> dict[str, Any]:
    b = result.breakdown if hasattr(result, "breakdown") else None
    js = result.to_json()
    rows = [{"id": f"group:{z}", "label": tr.SCORE_LABELS["largest_group"].format(
        zone=tr.ZONE_NAMES[z]), "values": [v]} for z, v in js["groups"].items()]
    tax = b.road_tax if b is not None else js["roads"]
    rows.append({"id": "roads", "label": tr.SCORE_LABELS["roads"].format(roads=js["roads"]),
                 "values": [-tax]})
    for n, v in js["conditions"].items():
        rows.append({"id": f"condition:{n}", "label": f"{n} {tr.CONDITION_NAMES[int(n)]}",
                     "rule": tr.CONDITION_RULES[int(n)], "values": [v]})
    rows.append({"id": "target", "label": tr.SCORE_LABELS["target"], "values": [js["target"]]})
    # what scored: the visible blocks without which a row would score less
    cells = _sp_cells(data)
    hl: dict[str, list[str]] = {r["id"]: [] for r in rows}
    if cells and len(cells) <= MAX_SP_BLOCKS:
        conds = [int(n) for n in js["conditions"]]
        opts = load_game("sprawlopolis").options
        options = {**opts, **(data.get("options") or {})}
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        flat = [0] * (SP_WIDTH * SP_WIDTH)
        occ = []
        for (r, c), code in cells.items():
            i = (r - r0 + 3) * SP_WIDTH + c - c0 + 3
            flat[i] = code
            occ.append(i)
        hl.update(sp_what_scored(
            flat, occ, conds, SpRules.from_options(options),
            lambda i: f"blk:{i // SP_WIDTH - 3 + r0},{i % SP_WIDTH - 3 + c0}"))
    return {"columns": [tr.SCORE_LABELS["total"]], "rows": rows, "totals": [js["total"]],
            "highlight": {"0": hl},
            "verdict": tr.OUTCOME["won"] if js["won"] else tr.OUTCOME["lost"]}




# ------------------------------------------------------------------ Roll into Town
def _rit_maps(data: Any) -> list[tuple[Any, str]]:
    if not isinstance(data, Mapping):
        return []
    if isinstance(data.get("players"), list):
        return [(p.get("map"), f"players[{k}].map") for k, p in enumerate(data["players"][:6])
                if isinstance(p, Mapping)]
    return [(data.get("map"), "map")]


def _rit_draw(data: Any, colors: list[str], lang: str = "en") -> str | None:
    maps = _rit_maps(data)
    rows = maps[0][0] if maps else None
    if not isinstance(rows, list) or not 0 < len(rows) <= 40:
        return None
    cells: list[list[tuple[int, int, int] | None]] = []
    for row in rows:
        line: list[tuple[int, int, int] | None] = []
        for tok in (row.split()[:40] if isinstance(row, str) else []):
            try:
                line.append(rit_file._parse_token(tok, "map"))
            except CitybuildersError:
                line.append(None)
        cells.append(line)
    return rit_render.score_map_svg(cells, lang)


def _rit_keys(data: Any, field: str) -> list[str]:
    m = re.fullmatch(r"(?:players\[0\]\.)?map\[(\d+)\]\[(\d+)\]", field)
    return [f"sq:{m.group(1)},{m.group(2)}"] if m else []


def _rit_result(data: Any, result: Any, tr: Any) -> dict[str, Any]:
    js = result.to_json()
    players = js["players"]
    cats = list(players[0]["parts"])
    rows = [{"id": c, "label": tr.CATEGORY_NAMES.get(c, c),
             "values": [pl["parts"][c] for pl in players]} for c in cats]
    game = rit_file._game_for(load_game("roll-into-town"), data.get("options", {}))
    rule = game.options["river_connect_rule"]
    front = game.options["watermill_rule"] == "non_flow_side"
    highlight: dict[str, dict[str, list[str]]] = {}
    for k, (rows_data, field) in enumerate(_rit_maps(data)):
        sheet = rit_file.parse_map(rows_data, game.geo, field, front)
        hl = rit_what_scored(sheet, rule, game.geo.cols, cats)
        highlight[str(k)] = hl
    out = {"columns": [pl["name"] for pl in players], "rows": rows,
           "totals": [pl["total"] for pl in players], "highlight": highlight}
    if len(players) == 1:
        out["verdict"] = tr.RANK_NAMES.get(players[0]["rank"], players[0]["rank"])
    return out


# ------------------------------------------------------------------ Roll Builder
_RB_LABELS = {"buildings": "buildings", "roads": "roads", "innovations": "innovations",
              "resources": "resources", "wonder": "wonder", "bonuses": "bonuses"}
"""Score category id -> English label (translated with the page's gettext)."""


def _rb_draw(data: Any, colors: list[str], lang: str = "en") -> str | None:
    state, _ = replay_position(data)
    if state is None:
        return None
    p = state.players[0]
    sheet = state.game.sheet  # type: ignore[attr-defined]
    for key, attr, top in (("favor_crossed", "favor", len(sheet.tracks[0]) - 1),
                           ("strength_crossed", "strength", len(sheet.tracks[1]) - 1)):
        v = data.get(key, 0)
        if type(v) is int and 0 <= v <= top:
            setattr(p, attr, v)
    wealth = data.get("wealth_stored", 0)
    if type(wealth) is int and 0 <= wealth <= sheet.wealth_storage:
        p.wealth_marked, p.wealth_spent = wealth, 0
    return rb_render.render_svg(state, 0, lang)


def _rb_keys(data: Any, field: str) -> list[str]:
    m = re.fullmatch(r"(roads|marks|buildings|wonder|innovations)\[(\d+)\]", field)
    if m is None:
        m2 = re.fullmatch(r"wonder\.([A-Za-z0-9_]+)", field)
        return [f"box:{m2.group(1)}"] if m2 else []
    lst = data.get(m.group(1)) if isinstance(data, Mapping) else None
    k = int(m.group(2))
    if not isinstance(lst, list) or k >= len(lst):
        return []
    item = lst[k]
    kind = m.group(1)
    if kind == "roads" and isinstance(item, str):
        return [f"edge:{item}"]
    if kind == "marks" and isinstance(item, str):
        return [f"space:{item}"]
    if kind == "buildings" and isinstance(item, list) and item and isinstance(item[0], str):
        return [f"space:{item[0]}"]
    if kind == "wonder" and isinstance(item, str):
        return [f"box:{item}"]
    if kind == "innovations" and isinstance(item, str):
        return [f"circle:{item}.1"]
    return []


def _rb_result(data: Any, result: Any, tr: Any, gettext: Callable[[str], str]
               ) -> dict[str, Any]:
    js = result.to_json()
    rows = [{"id": c, "label": gettext(_RB_LABELS.get(c, c)), "rule": tr.SCORING_RULES.get(c, ""),
             "values": [v]} for c, v in js["parts"].items()]
    state, _ = replay_position(data)
    hl: dict[str, list[str]] = {r["id"]: [] for r in rows}
    if state is not None:
        hl.update(rb_what_scored(state, 0, js["parts"]))
    sheet = result.sheet
    sid = data.get("sheet") if isinstance(data, Mapping) else None
    if isinstance(sid, str) and sheet == rb_texts.SHEET_NAMES.get(sid):
        sheet = tr.SHEET_NAMES.get(sid, sheet)  # a shipped sheet's name in the reader's language
    return {"columns": [sheet], "rows": rows, "totals": [js["total"]],
            "highlight": {"0": hl}}


# ------------------------------------------------------------------ dispatch
_DRAW = {"kingdom-builder": _kb_draw, "sprawlopolis": _sp_draw, "roll-into-town": _rit_draw,
         "roll-builder": _rb_draw}
_KEYS = {"kingdom-builder": _kb_keys, "sprawlopolis": _sp_keys, "roll-into-town": _rit_keys,
         "roll-builder": _rb_keys}
_TEXTS = {"kingdom-builder": kb_texts, "sprawlopolis": sp_texts, "roll-into-town": rit_texts,
          "roll-builder": rb_texts}


def score_position(game: str, data: Any, lang: str = "en", draw: bool = False,
                   colors: list[str] | None = None,
                   gettext: Callable[[str], str] = str) -> tuple[int, dict[str, Any]]:
    """``(status, answer)`` of the calculator API for ``game`` (one of :data:`SCORE_GAMES`)
    and the parsed score file ``data`` (module docstring for the shapes). Never raises for
    a bad file: every problem is a 400 answer naming the field."""
    colors = colors or list(kb_render.SCORE_COLORS)
    tr = _TEXTS[game].for_language(lang)
    answer: dict[str, Any] = {"game": game}
    try:
        result = load_game(game).score_file(data)
        answer["result"] = result.to_json()
        if game == "kingdom-builder":
            answer.update(_kb_result(data, result, tr, gettext))
        elif game == "sprawlopolis":
            answer.update(_sp_result(data, result, tr))
        elif game == "roll-into-town":
            answer.update(_rit_result(data, result, tr))
        else:
            answer.update(_rb_result(data, result, tr, gettext))
        status = 200
    except CitybuildersError as exc:
        # the reader's language; the field comes from the English text (the file's own key)
        text = message_of(exc) if str(exc) else N_("file: not a valid score file")
        message = localize(text, lang).splitlines()[0]
        field = field_of(str(text).splitlines()[0])
        status = 400
        answer = {"game": game, "error": message, "field": field, "keys": []}
        try:
            answer["keys"] = _KEYS[game](data, field)
        except Exception:  # noqa: BLE001 - flagging is a drawing aid, the error stands
            answer["keys"] = []
    except RecursionError:
        return 400, {"game": game, "error": localize(N_("file: nested too deeply"), lang),
                     "field": "file", "keys": []}
    if draw:
        try:
            answer["svg"] = _DRAW[game](data, colors, lang)
        except Exception:  # noqa: BLE001 - an undrawable position still gets its answer
            answer["svg"] = None
    return status, answer


# ------------------------------------------------------------------ the page's data
def page_data(lang: str, gettext: Callable[[str], str]) -> dict[str, Any]:
    """Everything the page script needs to build the editors (names in ``lang``)."""
    kb = kb_texts.for_language(lang)
    sections = []
    for sid, sec in section_data().items():
        kinds = sorted({kind for _, _, kind in sec.locations})
        sections.append({"id": sid, "name": " + ".join(kb.TILE_NAMES.get(k, k) for k in kinds),
                         "crossroads": sid in kb_x.SECTIONS})
    sp = sp_texts.for_language(lang)
    rit = rit_texts.for_language(lang)
    rb = rb_texts.for_language(lang)
    sheets = []
    for name in shipped_sheet_names():
        sh = load_shipped_sheet(name)
        bnames = rb.BUILDING_NAMES.get(name, {})
        inames = rb.INNOVATION_NAMES.get(name, {})
        sheets.append({"id": name, "name": rb.SHEET_NAMES.get(name, sh.name),
                       "buildings": [{"number": b.number, "name": bnames.get(b.number, b.name),
                                      "marks": b.marks} for b in sh.buildings],
                       "innovations": [{"id": i.id, "name": inames.get(i.id, i.name)}
                                       for i in sh.innovations],
                       "boxes": [b.id for b in sh.boxes],
                       "favor_max": len(sh.tracks[0]) - 1,
                       "strength_max": len(sh.tracks[1]) - 1,
                       "wealth_max": sh.wealth_storage})
    return {
        "games": [{"id": g, "title": load_game(g).title or g} for g in SCORE_GAMES],
        "kingdom_builder": {
            "sections": sections,
            "cards": [{"id": c, "name": kb.CARD_NAMES.get(c, c), "rule": kb.CARD_RULES.get(c, "")}
                      for c in kb_scoring.CARDS],
            "tasks": [{"id": t, "name": kb.TASK_NAMES.get(t, t), "rule": kb.TASK_RULES.get(t, "")}
                      for t in kb_x.TASKS],
            "colors": list(kb_render.SCORE_COLORS),
            "lords_rule": _rule_choice(KB_OPTIONS["lords_zero_scores"], gettext),
            "pieces": [{"id": "settlements", "name": gettext("settlement")}]
            + [{"id": k, "name": kb.PIECE_NAMES.get(v, v), "letter": kb.PIECE_LETTERS[v]}
               for k, v in PIECE_KEYS.items()],
            "neighbors": [list(bits(NEIGHBORS[i])) for i in range(SIZE * SIZE)],
        },
        "sprawlopolis": {
            "cards": [{"number": n, "name": sp.CONDITION_NAMES[n],
                       "rule": sp.CONDITION_RULES[n], "svg": sp_render.card_svg(n),
                       "svg180": sp_render.card_svg(n, 180)} for n in sorted(SP_CARDS)],
        },
        "roll_into_town": {
            "rows": 9, "cols": 9,
            # code: the file's token; label: what the map draws on the square in ``lang``
            "buildings": [{"code": code, "label": rit.BUILDING_LABELS[bid],
                           "name": _rit_building_name(rit, bid)}
                          for bid, code in _RIT_BUILDINGS],
            # the sides of a square as the file writes them (N, E, S, W) -> in ``lang``
            "sides": {w: rit.NOTATION_WORDS.get(w, w)
                      for w in map(rit_actions.mask_text, range(1, 16))},
        },
        "roll_builder": {"sheets": sheets},
    }


KB_OPTIONS = {o.name: o for o in kb_options.OPTIONS}
"""Kingdom Builder's options by name (the score page offers the one scoring reads)."""


def _rule_choice(o: Any, gettext: Callable[[str], str]) -> dict[str, Any]:
    """A rules option as the score page's select: its name, label, question and doc, its
    ``[value, words]`` choices (the usual rule marked) and the default, in the page's
    language."""
    usual = gettext(" (usual rule)")  # the space is the language's: none before Chinese "（"
    return {"name": o.name, "label": gettext(o.title), "question": gettext(o.question),
            "default": o.default,
            "choices": [[c, gettext(o.value_label(c)) + (usual if c == o.default else "")]
                        for c in o.choices],
            "doc": gettext(o.doc)}


_RIT_BUILDINGS = (("house", "HO"), ("quarry", "QU"), ("lumberjack", "LJ"), ("harbor", "HA"),
                  ("watermill", "WM"), ("tavern", "TA"), ("fountain", "FO"), ("market", "MA"),
                  ("lighthouse top", "LT"), ("lighthouse bottom", "LB"), ("cathedral", "CA"))
"""Roll into Town building id (the lighthouse's two squares apart) -> its sheet-file token."""


def _rit_building_name(rit: Any, bid: str) -> str:
    """A Roll into Town building's name in the tables ``rit``; a lighthouse square says which
    of the two it is ("lighthouse (top)")."""
    if bid.startswith("lighthouse "):
        half = bid.split(" ", 1)[1]
        return rit.LEGEND_WORDS[half].format(lighthouse=rit.BUILDING_NAMES["lighthouse"])
    return rit.BUILDING_NAMES.get(bid, bid)


# ------------------------------------------------------------------ routes
async def _score_body(request: Request) -> Any:
    """The request's JSON score file; ApiError 413 past :data:`MAX_SCORE_BODY`, 400 for an
    empty or malformed body (naming ``body``)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > MAX_SCORE_BODY:
        raise ApiError(413, N_("body: larger than {MAX_SCORE_BODY} bytes (a score file is "
                               "small)", MAX_SCORE_BODY=MAX_SCORE_BODY))
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_SCORE_BODY:
            raise ApiError(413, N_("body: larger than {MAX_SCORE_BODY} bytes (a score file is "
                                   "small)", MAX_SCORE_BODY=MAX_SCORE_BODY))
    if not raw.strip():
        raise ApiError(400, N_("body: expected a score file (a JSON object), got an empty body"))
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, N_("body: malformed JSON ({getattr})",
                               getattr=json_reason(exc))) from None
    except ValueError:
        raise ApiError(400, N_("body: a number has too many digits")) from None
    except RecursionError:
        raise ApiError(400, N_("body: JSON nested too deeply")) from None
    problem = unicode_problem(value, "body")
    if problem is not None:
        raise ApiError(400, problem)
    return value


def _gettext(templates: Jinja2Templates, request: Request) -> Callable[[str], str]:
    """The request language's gettext, from the app's template context (``_``)."""
    for proc in templates.context_processors:
        got = proc(request).get("_")
        if callable(got):
            return got
    return str


def score_router(templates: Jinja2Templates) -> APIRouter:
    """The calculator's routes (``create_app`` includes them): the page ``GET /score`` drawn
    with ``templates`` (the app's, with its language context) and ``POST /api/score/{game}``."""
    router = APIRouter()

    @router.get("/score", response_class=HTMLResponse)
    async def score_page(request: Request) -> Response:
        page = page_data(_lang(request), _gettext(templates, request))
        text = json.dumps(page).translate(_SCRIPT_ESCAPES)
        return templates.TemplateResponse(request, "score.html", {"page_json": text})

    @router.post("/api/score/{game}")
    async def api_score(request: Request, game: str) -> JSONResponse:
        if game not in SCORE_GAMES:
            raise ApiError(404, N_("game: unknown game {game!r} for the score calculator; "
                                   "allowed: {allowed}",
                                   game=game[:60], allowed=', '.join(SCORE_GAMES)))
        data = await _score_body(request)
        draw = request.query_params.get("draw") == "1"
        colors = None
        raw = request.query_params.get("colors")
        if raw:
            palette = kb_render.SCORE_COLORS
            try:
                picks = [int(k) for k in raw.split(",")[:8]]
                if any(not 0 <= k < len(palette) for k in picks):  # no negative indexing
                    raise IndexError
                colors = [palette[k] for k in picks]
            except (ValueError, IndexError):
                raise ApiError(400, N_("colors: expected colour numbers 0-{count} separated by "
                                       "commas", count=len(palette) - 1)) from None
        status, answer = score_position(game, data, _lang(request), draw, colors,
                                        _gettext(templates, request))
        return JSONResponse(answer, status_code=status)

    return router


_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                   0x2028: "\\u2028", 0x2029: "\\u2029"}
