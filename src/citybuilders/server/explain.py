"""What scored: for each score part, the board elements that earned it.

One leave-out test serves the score calculator page (``server/scorer.py``: a position rebuilt
from a score file) and the play page's end screen (:func:`explain_state`: a finished game's
final state). For each part, the pieces without which that part would score less (a
settlement, a block, a building...) are the ones that scored it. Kingdom Builder cards that
count rows, sectors or areas leave out the player's pieces of one row / sector / connected area
at a time (:data:`KB_GROUPS`); castles are the castles next to the player's pieces; the Roll
into Town river is its squares; Roll Builder parts show the buildings, connected spaces,
filled boxes and discovered innovations.

Board keys are those of the boards' SVG (``data-key`` / ``data-at``): Kingdom Builder
``hex:R,C``; Sprawlopolis ``cell:R,C`` on the play page (``blk:R,C`` on the calculator's
drawing); Roll into Town ``sq:R,C``; Roll Builder ``space:NAME``, ``box:ID``, ``circle:ID.J``.
Only public information is used (the board, the pieces, the sheets): nothing hidden.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from ..games.kingdom_builder import scoring as kb_scoring
from ..games.kingdom_builder.rules.board import NEIGHBORS, SIZE, bits
from ..games.roll_builder import render as rb_render
from ..games.sprawlopolis.actions import rc_of as sp_rc_of
from ..games.sprawlopolis.loader import ROAD_SHIFT as SP_ROAD_SHIFT
from ..games.sprawlopolis.scoring import score_city

__all__ = ["KB_GROUPS", "kb_what_scored", "sp_what_scored", "rit_what_scored",
           "rb_what_scored", "explain_state", "MAX_SP_BLOCKS"]

Keys = dict[str, list[str]]
"""Score part id -> the board keys that earned it."""

KB_GROUPS = {"knights": ("rows",), "discoverers": ("rows",), "lords": ("sectors",),
             "farmers": ("singles", "sectors"), "hermits": ("areas",), "citizens": ("areas",),
             "merchants": ("areas",)}
"""Which groups of a player's pieces the leave-out test removes for each Kingdom Builder card
(default: each piece alone): a card that counts rows, sectors or areas drops only when a whole
group goes."""
MAX_SP_BLOCKS = 60
"""Largest Sprawlopolis city (blocks) the leave-out test runs on (15 cards of 4 blocks)."""


def _hex_key(i: int) -> str:
    return f"hex:{i // SIZE},{i % SIZE}"


def _kb_groups(board: Any, mask: int) -> dict[str, list[int]]:
    """A player's pieces ``mask`` as groups: ``singles`` (each piece), ``sectors``, ``rows``
    and ``areas`` (connected pieces), each a list of bitsets."""
    rows = [mask & (((1 << SIZE) - 1) << (r * SIZE)) for r in range(SIZE)]
    areas = []
    rest = mask
    while rest:
        area = rest & -rest
        while True:
            grown = area
            for i in bits(area):
                grown |= NEIGHBORS[i] & rest
            if grown == area:
                break
            area = grown
        areas.append(area)
        rest &= ~area
    return {"singles": [1 << i for i in bits(mask)],
            "sectors": [mask & m for m in board.sector_masks if mask & m],
            "rows": [m for m in rows if m], "areas": areas}


def kb_what_scored(board: Any, cards: Sequence[str], own: Sequence[int],
                   opts: dict[str, Any] | None) -> dict[int, Keys]:
    """Kingdom Builder: player -> {card id or ``"castles"`` -> [``hex:R,C``...]}.

    ``own``: each player's hexes as a bitset (settlements and every Crossroads piece: they
    all count as settlements for the cards and castles). A card's hexes are the player's
    pieces (or groups, :data:`KB_GROUPS`) without which it would score less; castles are the
    castle hexes next to the player's pieces (rulebook: 3 gold per castle next to one's own
    settlement)."""
    out: dict[int, Keys] = {}
    for p in range(len(own)):
        funcs: dict[str, Callable[[list[int]], int]] = {
            c: (lambda o, c=c, p=p: kb_scoring.CARD_FUNCS[c](board, o, p, opts)) for c in cards}
        funcs["castles"] = lambda o, p=p: kb_scoring.castles(board, o, p, opts)
        base = {k: f(list(own)) for k, f in funcs.items()}
        found: dict[str, int] = {k: 0 for k in funcs}
        groups = _kb_groups(board, own[p])
        for k, f in funcs.items():
            if base[k] <= 0:
                continue
            for kind in KB_GROUPS.get(k, ("singles",)):
                for group in groups[kind]:
                    trial = list(own)
                    trial[p] &= ~group
                    if f(trial) < base[k]:
                        found[k] |= group
        hl = {k: [_hex_key(i) for i in bits(m)] for k, m in found.items()}
        hl["castles"] += [_hex_key(c) for c, nb in zip(board.castles, board.castle_nbr)
                          if nb & own[p]]
        out[p] = hl
    return out


def sp_what_scored(cells: Sequence[int], occ: Sequence[int], conditions: Sequence[int],
                   rules: Any, key: Callable[[int], str]) -> Keys:
    """Sprawlopolis: ``{"group:<zone>" | "roads" | "condition:<n>": [key(i)...]}``.

    ``cells``: the flat city grid (block codes, 0 = empty), ``occ``: its occupied indices;
    ``key(i)``: the board key of grid index ``i``. A group or condition lists the blocks
    without which it would score less (only parts scoring above 0); ``roads`` lists every
    block that carries a road piece (each road costs a point). Empty for a city over
    :data:`MAX_SP_BLOCKS` blocks."""
    base_bd = score_city(list(cells), list(occ), list(conditions), rules)

    def parts(bd: Any) -> dict[str, int]:
        out = {f"group:{z}": v for z, v in bd.groups.items()}
        out.update({f"condition:{n}": v for n, v in bd.conditions.items()})
        return out

    base = parts(base_bd)
    hl: Keys = {k: [] for k in base}
    hl["roads"] = []
    if not occ or len(occ) > MAX_SP_BLOCKS:
        return hl
    for i in occ:
        if len(occ) < 2:
            break
        trial = list(cells)
        trial[i] = 0
        got = parts(score_city(trial, [j for j in occ if j != i], list(conditions), rules))
        for k, v in got.items():
            if base[k] > 0 and v < base[k]:
                hl[k].append(key(i))
    hl["roads"] = [key(i) for i in occ if cells[i] >> SP_ROAD_SHIFT]
    return hl


def rit_what_scored(sheet: Any, rule: str, cols: int, categories: Sequence[str]) -> Keys:
    """Roll into Town: category -> [``sq:R,C``...]: the buildings without which the category
    would score less; the river (when it scores) is its squares."""
    base = sheet.score_parts(rule)
    hl: Keys = {c: [] for c in categories}
    for i, b in enumerate(sheet.bld):
        if not b:
            continue
        trial = sheet.clone()
        trial.bld[i] = 0
        trial.derive_masks()
        got = trial.score_parts(rule)
        for c in categories:
            if base.get(c, 0) > 0 and got.get(c, 0) < base[c]:
                hl[c].append(f"sq:{i // cols},{i % cols}")
    if base.get("river", 0) > 0:
        hl["river"] = [f"sq:{i // cols},{i % cols}" for i in sheet.river]
    return hl


def rb_what_scored(state: Any, player: int, parts: dict[str, int]) -> Keys:
    """Roll Builder: category -> keys on ``player``'s sheet: buildings (their spaces), roads
    (the connected spaces, when roads score), wonder (its filled boxes), innovations (the
    circles of the discovered ones); resources and bonuses have no board element."""
    p = state.players[player]
    sheet = state.game.sheet
    hl: Keys = {c: [] for c in parts}
    hl["buildings"] = [f"space:{sheet.space_name(rb_render.placement_of(code)[0])}"
                       for code in p.placements]
    if parts.get("roads"):
        hl["roads"] = [f"space:{sheet.space_name(s)}" for s in range(sheet.n_spaces)
                       if p.connected >> s & 1]
    hl["wonder"] = [f"box:{b.id}" for k, b in enumerate(sheet.boxes) if p.filled >> k & 1]
    hl["innovations"] = [f"circle:{inn.id}.{j + 1}" for k, inn in enumerate(sheet.innovations)
                         if p.discovered >> k & 1 for j in range(len(inn.cost))]
    return hl


_SP_CONDITION = re.compile(r"^(\d+)\b")


def explain_state(game: str, state: Any) -> dict[str, Keys]:
    """The end screen's "what scored" of a finished ``state`` of registry game ``game``:
    ``{seat as str: {score part (the keys of state.scores()[seat].parts): [board key...]}}``
    in the keys of the play page's board. Co-operative Sprawlopolis: one entry, seat "0" (the
    city is shared). A game without a leave-out test: ``{}``. Never raises (a drawing aid)."""
    try:
        scores = state.scores()
        if game == "kingdom-builder":
            found = kb_what_scored(state.board, state.cards, state.occ, state.opts)
            return {str(p): {k: v for k, v in hl.items() if k in scores[p].parts}
                    for p, hl in found.items()}
        if game == "sprawlopolis":
            city = state.city
            hl = sp_what_scored(city.cells, city.occ, state.conditions, state.game.rules,
                                lambda i: "cell:{},{}".format(*sp_rc_of(i)))
            out: Keys = {}
            for part in scores[0].parts:
                m = _SP_CONDITION.match(part)
                got = hl.get(f"condition:{m.group(1)}" if m else
                             ("roads" if part == "roads" else f"group:{part}"))
                if got is not None:
                    out[part] = got
            return {"0": out}
        if game == "roll-into-town":
            rule = state.game.options["river_connect_rule"]
            cols = state.game.geo.cols
            return {str(p): rit_what_scored(sheet, rule, cols, list(scores[p].parts))
                    for p, sheet in enumerate(state.sheets)}
        if game == "roll-builder":
            return {str(p): rb_what_scored(state, p, scores[p].parts)
                    for p in range(state.num_players)}
    except Exception:  # noqa: BLE001 - the end screen still shows its totals
        return {}
    return {}
