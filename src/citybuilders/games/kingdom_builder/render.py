"""Terminal and SVG drawings of a Kingdom Builder position.

Text: a 20×20 odd-r hex board (odd rows shifted right) with row/column coordinates; each hex
shows its terrain code (G grass, C canyon, D desert, F flower field, T forest, W water,
M mountain, K castle, L location), a settlement as its owner's 1-based number (``1`` = P1), ``*``
marking the hexes the player to move may pick now; a two-line key follows the board. Below: cards,
hands (own only), tiles, supply, running scores. Players are P1, P2... in every text.

SVG: one ``<polygon data-key="hex:R,C">`` per hex, tiles of the player to move as
``<g data-key="tile:<kind>">``, an ``end`` button; hexes that start a legal action get
``class="hex legal"``.
"""

from __future__ import annotations

from ...core.i18n import N_, current, localize, text_width
from ...core.i18n import gettext_now as _

import math
import re
from typing import Any, Sequence
from xml.sax.saxutils import escape

from citybuilders.core.panels import generic_panels, per_seat, seat_name, title_of
from citybuilders.core.view import Panel, View, move_in_words

from .actions import BUILD_BASE, CARD_BASE, END
from .rules import crossroads as X
from .rules.board import CARD_TERRAINS, NUM_HEXES, SIZE, TERRAINS, bits, hex_name
from .rules.crossroads_state import CrossroadsState
from .rules.state import NEW, READY, USED, KingdomBuilderState
from .rules.tiles import TILE_KINDS, kind_of_action
from . import texts as _texts
from .texts import PIECE_LETTERS

__all__ = ["KingdomBuilderView", "render_text", "render_svg", "action_path", "legal_first_hexes"]

CODES = "GCDFTWMKL"
_BG = (113, 173, 222, 218, 28, 39, 246, 252, 171)  # ANSI 256 background per terrain
_FG_DARK = {0, 2, 3, 7}
_PLAYER_BG = (160, 21, 208, 90, 30)
_PLAYER_FILL = ("#d62728", "#1f57c4", "#ff8c00", "#7b2fa0", "#208080")
_SVG_FILL = (
    "#9bd36b", "#b5774a", "#f0d77a", "#f4a6c8", "#2e7d32", "#4aa3df", "#8c8c8c", "#e0e0e0",
    "#c47ee0",
)
_STATUS_SUFFIX = {READY: "", USED: N_(" (used)"), NEW: N_(" (new)")}
_STATUS_WORD = {READY: "ready", USED: "used", NEW: "new"}
_STATUS_MSG = {READY: N_("ready"), USED: N_("used"), NEW: N_("new")}


def legal_first_hexes(st: KingdomBuilderState) -> int:
    """Bitset of hexes that are the first hex of some legal action of the player to move."""
    cp = st.current_player()
    if cp < 0:
        return 0
    mask = 0
    for a in st.legal_actions(cp):
        if BUILD_BASE <= a < BUILD_BASE + NUM_HEXES:
            mask |= 1 << (a - BUILD_BASE)
    return mask


def _owner(st: KingdomBuilderState, i: int) -> int:
    bit = 1 << i
    for p, o in enumerate(st.occ):
        if o & bit:
            return p
    return -1


def _legend(num_players: int, legal: bool, color: bool) -> list[str]:
    """The two-line key under the text board: terrain letters; castle, location, ``*`` (only
    when legal hexes are marked) and each player's settlement marker (the 1-based digit, on the
    player's colour if ``color``), e.g. ``settlements: 1 P1  2 P2``."""
    def code(t: int) -> str:
        if not color:
            return CODES[t]
        return f"\x1b[48;5;{_BG[t]}m\x1b[{'30' if t in _FG_DARK else '97'}m{CODES[t]}\x1b[0m"

    names = _texts.for_language(current()).TERRAIN_NAMES
    terrains = "  ".join(f"{code(t)} {names[TERRAINS[t]]}" for t in range(7))
    marks = []
    for p in range(num_players):
        digit = str(p + 1)
        if color:
            digit = f"\x1b[48;5;{_PLAYER_BG[p % 5]}m\x1b[97;1m{digit}\x1b[0m"
        marks.append(f"{digit} P{p + 1}")
    star = "  " + _("* legal hex") if legal else ""
    return [_("key: {terrains}", terrains=terrains),
            "     " + _("{castle} castle  {location} location (listed below){star}  settlements: "
                        "{marks}", castle=code(7), location=code(8), star=star,
                        marks="  ".join(marks))]


def _local(table: str, key: str) -> str:
    """``key`` (a card, terrain or tile id) as the text board names it: the id itself in
    English (the board's words since the first version), else the game's ``texts`` name."""
    lang = current()
    if lang == "en":
        return key
    return str(getattr(_texts.for_language(lang), table).get(key, key))


def _part(key: str) -> str:
    """A score part's key (a card id, a Crossroads task id or ``castles``) as the board names
    it: the key in English, else the card's or task's name (``castles``: the catalog's)."""
    if key == "castles":
        return _("castles")
    return _local("CARD_NAMES", key) if key in _texts.CARD_NAMES else _local("TASK_NAMES", key)


def render_text(st: KingdomBuilderState, player: int | None = None, color: bool = False) -> str:
    """The board and status as text (ANSI colours if ``color``); hidden cards of others are
    never shown. ``player`` = the viewer (None = public view)."""
    board = st.board
    legal = legal_first_hexes(st) if (player is None or player == st.current_player()) else 0
    lines = []
    head = "    " + "".join(f"{c:<4}" for c in range(SIZE))
    lines.append(head)
    for r in range(SIZE):
        parts = [f"{r:>2}  " + ("  " if r & 1 else "")]
        for c in range(SIZE):
            i = r * SIZE + c
            t = board.terrain[i]
            own = _owner(st, i)
            glyph = str(own + 1) if own >= 0 else CODES[t]
            mark = "*" if legal >> i & 1 else " "
            cell = f" {glyph}{mark} "
            if color:
                if own >= 0:
                    cell = f"\x1b[48;5;{_PLAYER_BG[own % 5]}m\x1b[97;1m{cell}\x1b[0m"
                else:
                    fg = "30" if t in _FG_DARK else "97"
                    cell = f"\x1b[48;5;{_BG[t]}m\x1b[{fg}m{cell}\x1b[0m"
            parts.append(cell)
        lines.append("".join(parts))
    lines.extend(_legend(st.num_players, bool(legal), color))
    lines.append("")
    tx = _texts.for_language(current())
    cards = "; ".join([*(f"{_local('CARD_NAMES', c)} ({tx.CARD_RULES.get(c, '')})"
                         for c in st.cards), tx.CASTLE_RULE])
    lines.append(_("Kingdom Builder cards: {cards}", cards=cards))
    scores = st.scores()
    cp = st.current_player()
    for p in range(st.num_players):
        vh = st.visible_hand(p, player)
        card = (_("hidden") if vh is None else
                (_local("TERRAIN_NAMES", CARD_TERRAINS[vh]) if vh >= 0 else _("none")))
        tiles = []
        for _i, kind, s in st.tiles_of(p):
            tiles.append(_local("TILE_NAMES", kind)
                         + localize(_STATUS_SUFFIX.get(s, ""), current()))
        name = f"P{p + 1}"
        if color:
            name = f"\x1b[48;5;{_PLAYER_BG[p % 5]}m\x1b[97;1m {name} \x1b[0m"
        turn = _(" <- to move") if p == cp else ""
        parts = ", ".join(f"{_part(k)} {v}" for k, v in scores[p].parts.items())
        lines.append(_(
            "{name}: card {card}, supply {supply}, gold {gold} ({parts}); tiles: {tiles}{turn}",
            name=name, card=card, supply=st.supply[p], gold=scores[p].total, parts=parts,
            tiles=", ".join(tiles) or _("none"), turn=turn))
    left = ", ".join(
        f"{_local('TILE_NAMES', kind)} {r},{c}: {st.loc_left[k]}"
        for k, (h, kind) in enumerate(board.locations) for r, c in [divmod(h, SIZE)]
    )
    lines.append(_("locations (L), tiles left: {left}", left=left))
    discard = ", ".join(f"{_local('TERRAIN_NAMES', t)} {n}"
                        for t, n in zip(CARD_TERRAINS, st.discard) if n)
    lines.append(_("deck {n} cards; discard: {discard}", n=sum(st.deck),
                   discard=discard or _("none")))
    if st.is_terminal():
        win = st.winners()
        lines.append(_("game over; winner(s): {names}",
                       names=", ".join(f"P{w + 1}" for w in win)))
    elif cp >= 0:
        phase = (_("mandatory action complete: use tiles or 'end'") if st.mandatory_done()
                 else _("mandatory action: {n} of 3 built", n=st.mand))
        lines.append(_("P{n} to move; {phase}; legal hexes marked *", n=cp + 1, phase=phase))
    return "\n".join(lines)


_SVG_SIZE = 14.0
_SVG_MARGIN = 6.0
_LABEL_X = 16.0  # room for the row numbers on the left
_LABEL_Y = 12.0  # and the column numbers on top
_GEOMETRY: list[tuple[str, str, str]] = []
_HEX_CACHE: dict[tuple[int, ...], list[tuple[str, str, str]]] = {}
_HEX_CACHE_SIZE = 128


def _centre(r: int, c: int) -> tuple[float, float]:
    """SVG centre of hex (row ``r``, column ``c``) (odd rows shifted right by half a hex)."""
    w = math.sqrt(3) * _SVG_SIZE
    return (_SVG_MARGIN + _LABEL_X + w / 2 + c * w + (w / 2 if r & 1 else 0),
            _SVG_MARGIN + _LABEL_Y + _SVG_SIZE + r * _SVG_SIZE * 1.5)


# one fill pattern per terrain (colour plus a mark), so terrains differ by more than colour
_PATTERN_MARK = (
    '<circle cx="3" cy="3" r="0.9" fill="#3d6b1f"/>',                      # grass: dots
    '<path d="M0 6L6 0" stroke="#6b3e1e" stroke-width="1"/>',              # canyon: hatching
    '<circle cx="1.5" cy="1.5" r="0.6" fill="#8a6d12"/>',                  # desert: sand grains
    '<circle cx="3" cy="3" r="1.3" fill="none" stroke="#a8326a" stroke-width="0.7"/>',  # flowers
    '<path d="M3 1L5 5H1z" fill="#1b4d1e"/>',                              # forest: trees
    '<path d="M0 3Q1.5 1.5 3 3T6 3" fill="none" stroke="#1d5f8f" stroke-width="0.7"/>',  # water
    '<path d="M0 5L3 1.5L6 5" fill="none" stroke="#444" stroke-width="0.8"/>',  # mountain
)


def _defs() -> str:
    """The terrain patterns ``kbt0`` ... ``kbt6`` (ids as the board's fill references)."""
    out = ["<defs>"]
    for t, mark in enumerate(_PATTERN_MARK):
        out.append(f'<pattern id="kbt{t}" width="6" height="6" patternUnits="userSpaceOnUse">'
                   f'<rect width="6" height="6" fill="{_SVG_FILL[t]}"/>{mark}</pattern>')
    out.append("</defs>")
    return "".join(out)


def _terrain_fill(t: int) -> str:
    return f"url(#kbt{t})" if t < 7 else _SVG_FILL[t]


def _geometry() -> list[tuple[str, str, str]]:
    """Per hex index (any board): its ``hex:R,C`` key, polygon ``points`` and centre as
    ``x="..." y="..."`` of its label. The trigonometry is done once."""
    if _GEOMETRY:
        return _GEOMETRY
    size = _SVG_SIZE
    for i in range(NUM_HEXES):
        r, c = divmod(i, SIZE)
        cx, cy = _centre(r, c)
        pts = " ".join(
            f"{cx + size * math.cos(math.radians(60 * k - 30)):.1f},"
            f"{cy + size * math.sin(math.radians(60 * k - 30)):.1f}"
            for k in range(6)
        )
        _GEOMETRY.append((f"hex:{r},{c}", pts, f'x="{cx:.1f}" y="{cy + 3:.1f}"'))
    return _GEOMETRY


def _hex_strings(board: Any, lang: str = "en") -> list[tuple[str, str, str]]:
    """Per hex of ``board``: its ``<polygon>`` as a plain hex, as a legal hex, and the overlay
    drawn when nobody owns it (castle/location label or ""). Kept for the last
    ``_HEX_CACHE_SIZE`` board layouts (the trigonometry and formatting of 400 hexes dominated
    the render time)."""
    terrain = board.terrain
    tx = _texts.for_language(lang)
    key = (lang, *terrain)
    hit = _HEX_CACHE.pop(key, None)
    if hit is not None:
        _HEX_CACHE[key] = hit  # most recently used last
        return hit
    out = []
    for i, (hex_key, pts, label_xy) in enumerate(_geometry()):
        t = terrain[i]
        kind = board.location_kind_at(i) if t == 8 else None
        extra = f' data-tile="{kind}"' if kind else ""
        tip = ""
        if kind:
            tip = f"<title>{escape(tx.TILE_NAMES.get(kind, kind))}: {escape(tx.TILE_RULES.get(kind, ''))}</title>"
        elif t == 7:
            tip = f"<title>{escape(tx.TERRAIN_NAMES['castle'])}: {escape(tx.CASTLE_RULE)}</title>"
        end = f">{tip}</polygon>" if tip else "/>"
        # data-name: the terrain in the reader's words, the hover tip of a hex without a title
        # on every page that draws the board (play, replay, score calculator)
        name = escape(str(tx.TERRAIN_NAMES.get(TERRAINS[t], TERRAINS[t])))
        tail = (f'data-terrain="{TERRAINS[t]}" data-name="{name}"{extra} points="{pts}" '
                f'fill="{_terrain_fill(t)}"{end}')
        plain = f'<polygon data-key="{hex_key}" class="hex" {tail}'
        legal = f'<polygon data-key="{hex_key}" class="hex legal" {tail}'
        label = ""
        if t in (7, 8):
            text = tx.CASTLE_LETTER if t == 7 else tile_label(kind, tx) if kind else "L"
            label = (f'<text {label_xy} font-size="8" text-anchor="middle" stroke="none" '
                     f'pointer-events="none">{escape(text)}</text>')
        out.append((plain, legal, label))
    while len(_HEX_CACHE) >= _HEX_CACHE_SIZE:
        del _HEX_CACHE[next(iter(_HEX_CACHE))]
    _HEX_CACHE[key] = out
    return out


def tile_label(kind: str, tx: Any) -> str:
    """The short label of a location hex in the texts' language (``TILE_LABELS``: ``Har``,
    ``Por``, ``港口``); a tile without one: the first 3 letters of its name."""
    label = tx.TILE_LABELS.get(kind)
    return str(label) if label else str(tx.TILE_NAMES.get(kind, kind))[:3]


def render_svg(st: KingdomBuilderState, player: int | None = None, lang: str = "en") -> str:
    """SVG of the board (row numbers left, column numbers on top, as in the notation ``R,C``),
    then below it the Kingdom Builder cards, the tiles of the player to move and the scores
    (see module docstring). Cards, tiles, castles and locations carry ``<title>`` rules."""
    tx = _texts.for_language(lang)
    size = _SVG_SIZE
    w = math.sqrt(3) * size
    margin = _SVG_MARGIN
    board = st.board
    cp = st.current_player()
    legal_keys: set[str] = set()
    if cp >= 0 and (player is None or player == cp):
        for a in st.legal_actions(cp):
            legal_keys.add(st.action_path(a, cp)[0])
    width = margin * 2 + _LABEL_X + w * SIZE + w / 2
    board_h = margin + _LABEL_Y + size * 1.5 * (SIZE - 1) + size * 2
    out = [_defs()]
    # row and column numbers: the notation's R,C
    for c in range(SIZE):
        x, _ = _centre(0, c)
        out.append(f'<text x="{x:.1f}" y="{margin + 8:.0f}" class="kb-label" font-size="8" '
                   f'text-anchor="middle" fill="#333">{c}</text>')
    for r in range(SIZE):
        _, y = _centre(r, 0)
        out.append(f'<text x="{margin + 11:.0f}" y="{y + 3:.1f}" class="kb-label" font-size="8" '
                   f'text-anchor="end" fill="#333">{r}</text>')
    owner = [-1] * NUM_HEXES
    for p, o in enumerate(st.occ):
        while o:
            low = o & -o
            owner[low.bit_length() - 1] = p
            o ^= low
    radius = f"{size * 0.55:.1f}"
    out.append('<g class="kb-hexes" stroke="#333" stroke-width="0.6">')  # the hexes' outline
    for i, (plain, legal, label) in enumerate(_hex_strings(board, lang)):
        if legal_keys and f"hex:{i // SIZE},{i % SIZE}" in legal_keys:
            out.append(legal)
        else:
            out.append(plain)
        own = owner[i]
        if own >= 0:
            cx, cy = _centre(*divmod(i, SIZE))
            out.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius}" class="kb-settlement" '
                f'data-owner="{own}" fill="{_PLAYER_FILL[own % 5]}" stroke="#fff" '
                f'stroke-width="1" pointer-events="none"/>'
            )
        elif label:
            out.append(label)
    out.append("</g>")
    # below the board: cards, the player to move, tiles, end button, scores
    x0 = margin + _LABEL_X
    y = board_h + 14
    cx = x0
    for c in st.cards:
        name, rule = tx.CARD_NAMES.get(c, c), tx.CARD_RULES.get(c, "")
        out.append(f'<g class="kb-card" data-at="card:{c}"><title>{escape(name)}: '
                   f'{escape(rule)}</title><rect x="{cx:.0f}" y="{y - 11:.0f}" width="96" '
                   f'height="16" rx="3" fill="#fff7dc" stroke="#7a5c00"/><text x="{cx + 4:.0f}" '
                   f'y="{y + 1:.0f}" font-size="10">{escape(name)}</text></g>')
        cx += 102
    castle = tx.TERRAIN_NAMES["castle"]
    out.append(f'<g class="kb-card" data-at="card:castle"><title>{escape(castle)}: '
               f'{escape(tx.CASTLE_RULE)}</title><rect x="{cx:.0f}" y="{y - 11:.0f}" width="80" '
               f'height="16" rx="3" fill="#eee" stroke="#555"/><text x="{cx + 4:.0f}" '
               f'y="{y + 1:.0f}" font-size="10">{escape(tx.CASTLE_LETTER)} '
               f'{escape(castle)}</text></g>')
    y += 22
    if cp >= 0:
        vh = st.visible_hand(cp, player)
        card = localize(N_("hidden"), lang) if vh is None else (
            tx.TERRAIN_NAMES.get(CARD_TERRAINS[vh], CARD_TERRAINS[vh]) if vh >= 0
            else localize(N_("none"), lang))
        turn = localize(N_("P{num} to move, card: {card}", num=cp + 1, card=card), lang)
        out.append(f'<text x="{x0:.0f}" y="{y:.0f}" font-size="11" class="kb-turn">'
                   f'{escape(turn)}</text>')
        y += 18
        seen: set[str] = set()
        tx_ = x0
        for _, kind, s in st.tiles_of(cp):
            status = _STATUS_WORD[s]
            status_word = localize(_STATUS_MSG[s], lang)
            key_attr = ""
            if kind not in seen and s == READY:
                key_attr = f' data-key="tile:{kind}"'
                seen.add(kind)
            cls = "tile legal" if f"tile:{kind}" in legal_keys and key_attr else "tile"
            name = tx.TILE_NAMES.get(kind, kind)
            rule = tx.TILE_RULES.get(kind, "")
            label = f"{name} ({status_word})"
            tw = max(96, 6 * text_width(label) + 10)
            if tx_ + tw > width - margin:
                tx_ = x0
                y += 22
            out.append(
                f'<g{key_attr} class="{cls}" data-status="{status}"><title>{escape(name)}: '
                f'{escape(rule)}</title>'
                f'<rect x="{tx_:.0f}" y="{y - 13:.0f}" width="{tw}" height="20" rx="3" '
                f'fill="{"#ffe9a8" if s == READY else "#ccc"}" stroke="#333"/>'
                f'<text x="{tx_ + 5:.0f}" y="{y + 1:.0f}" font-size="10">{escape(label)}</text></g>'
            )
            tx_ += tw + 6
        if "end" in legal_keys or END in st.legal_actions(cp):
            if tx_ + 70 > width - margin:
                tx_ = x0
                y += 22
            end_turn = escape(localize(N_("end turn"), lang))
            out.append(
                f'<g data-key="end" class="button"><title>{end_turn}</title>'
                f'<rect x="{tx_:.0f}" y="{y - 13:.0f}" '
                f'width="70" height="20" rx="3" fill="#eee" stroke="#333"/>'
                f'<text x="{tx_ + 6:.0f}" y="{y + 1:.0f}" font-size="10">{end_turn}</text></g>'
            )
        y += 22
    sx = x0
    for p, ps in enumerate(st.scores()):
        label = escape(localize(N_("P{num}: {gold} gold, supply {supply}", num=p + 1,
                                   gold=ps.total, supply=st.supply[p]), lang))
        out.append(
            f'<g class="kb-scoreline"><circle cx="{sx + 5:.0f}" cy="{y - 3:.0f}" r="5" '
            f'fill="{_PLAYER_FILL[p % 5]}"/><text x="{sx + 13:.0f}" y="{y + 1:.0f}" '
            f'font-size="10" fill="#222">{label}</text></g>'
        )
        sx += 150
        if sx + 150 > width:
            sx = x0
            y += 16
    height = y + 12
    board_label = escape(localize(N_("Kingdom Builder board"), lang))
    out.insert(0, f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} '
                  f'{height:.0f}" class="kb-board" role="group" aria-label="{board_label}">')
    out.append("</svg>")
    return "\n".join(out)


_COORDS = re.compile(r"(?<![\w.])(\d{1,2}),(\d{1,2})(?![\d.])")


def log_keys(text: str) -> list[str]:
    """``hex:R,C`` of every coordinate pair of a log line (``"paddock 3,4 5,4"``)."""
    return [f"hex:{r},{c}" for r, c in _COORDS.findall(text)
            if int(r) < SIZE and int(c) < SIZE]


def legend(lang: str = "en") -> list[tuple[str, str]]:
    """Every symbol the board draws and what it means."""
    tx = _texts.for_language(lang)
    out = [(tx.PATTERN_NAMES[TERRAINS[t]], tx.TERRAIN_NAMES[TERRAINS[t]]) for t in range(7)]
    out.append((tx.CASTLE_LETTER, f"{tx.TERRAIN_NAMES['castle']}: {tx.CASTLE_RULE}"))
    for kind in TILE_KINDS:
        out.append((tile_label(kind, tx), localize(N_(
            "{tile} location: {rule}", tile=tx.TILE_NAMES.get(kind, kind),
            rule=tx.TILE_RULES.get(kind, "")), lang)))
    out.append(("●", localize(N_("a settlement, in its owner's colour"), lang)))
    for piece, letter in tx.PIECE_LETTERS.items():
        out.append((letter, localize(N_("{piece} (Crossroads piece)",
                                        piece=tx.PIECE_NAMES.get(piece, piece)), lang)))
    out.append(("R,C", localize(N_("row and column numbers at the board's edges, as in the log"),
                                lang)))
    return out


# ------------------------------------------------------------------ panels: Kingdom Builder
def display_panels(obs: dict[str, Any], names: Sequence[str], you: int | None,
                     terminal: bool, lang: str = "en") -> list[Panel]:
    tx = _texts.for_language(lang)
    status = {"ready": N_("ready"), "used": N_("used"), "new": N_("new")}

    def terrain(name: Any) -> str:
        key = str(name).replace(" ", "_")
        return str(tx.TERRAIN_NAMES.get(key, key.replace("_", " ")))

    def counts(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        return {terrain(k): v for k, v in value.items() if v} or N_("(none)")

    def tile(kind: Any) -> str:
        return str(tx.TILE_NAMES.get(str(kind), str(kind).replace("_", " ")))

    xr = obs.get("crossroads") if isinstance(obs.get("crossroads"), dict) else {}
    xr_players = xr.get("players") if isinstance(xr.get("players"), list) else []
    players = obs.get("players") or []

    def player(i: int, row: dict[str, Any]) -> dict[str, Any]:
        card = row.get("card")
        d: dict[str, Any] = {
            N_("Terrain card"): N_("hidden") if card is None else (
                N_("none") if card == "none" else terrain(card)),
            N_("Settlements in supply"): row.get("supply"),
            N_("Settlements built"): len(row.get("settlements") or []),
            N_("Location tiles"): [N_("{tile} ({location}, {status})", tile=tile(t["kind"]),
                                      location=t["location"],
                                      status=localize(status.get(t["status"], t["status"]), lang))
                                   for t in row.get("tiles") or []] or N_("(none)"),
        }
        if row.get("lost_tiles"):
            d[N_("Tiles lost")] = [tile(k) for k in row["lost_tiles"]]
        if i < len(xr_players) and isinstance(xr_players[i], dict):
            x = xr_players[i]
            if "second_card" in x:
                d[N_("Second card")] = (N_("hidden") if x["second_card"] is None
                                        else terrain(x["second_card"]))
            for k in ("wagon", "ship", "warriors", "city_hall"):
                if x.get(k):
                    d[title_of(k)] = ", ".join(x[k])
        return d

    out: list[Panel] = []
    if not terminal:
        cp = obs.get("current_player")
        if isinstance(cp, int) and 0 <= cp < len(names):
            out.append({"title": N_("To move"), "value": seat_name(names, cp, you)})
        if isinstance(obs.get("turn"), int):
            out.append({"title": N_("Turn"), "value": obs["turn"] + 1})
        if obs.get("final_round"):
            out.append({"title": N_("Final round"),
                        "value": N_("yes: the game ends after this round")})
    if players:
        out.append({"title": N_("Players"), "value": per_seat(players, names, you, player)})
    if obs.get("cards"):
        out.append({"title": N_("Kingdom Builder cards"),
                    "value": ", ".join(str(tx.CARD_NAMES.get(c, str(c).replace("_", " ")))
                                       for c in obs["cards"])})
    if xr.get("tasks"):
        out.append({"title": N_("Tasks"), "value": [N_(
            "{task} ({gold} gold)",
            task=tx.TASK_NAMES.get(t.get("task"), t.get("name", t.get("task"))),
            gold=t.get("gold")) for t in xr["tasks"]]})
    if obs.get("locations"):
        out.append({"title": N_("Locations"), "value": [
            localize(N_("{tile} at {hex}: {n} tiles left", tile=tile(loc["kind"]), hex=loc["hex"],
                        n=loc["tiles_left"]), lang) if loc["tiles_left"] != 1 else
            localize(N_("{tile} at {hex}: 1 tile left", tile=tile(loc["kind"]), hex=loc["hex"]),
                     lang) for loc in obs["locations"]]})
    if xr.get("location_summary"):
        out.append({"title": N_("Crossroads locations"), "value": {
            t["name"]: t["text"] for s in xr["location_summary"] for t in s.get("tiles", [])}})
    for k, title in (("locked_terrain", N_("Locked terrain")), ("fort_card", N_("Fort card"))):
        if xr.get(k):
            out.append({"title": title, "value": terrain(xr[k])})
    if isinstance(obs.get("deck_size"), int):
        out.append({"title": N_("Terrain deck"), "value": N_("{n} cards", n=obs["deck_size"])})
    if obs.get("discard") is not None:
        out.append({"title": N_("Discard pile"), "value": counts(obs["discard"])})
    if isinstance(obs.get("removed"), dict) and any(obs["removed"].values()):
        out.append({"title": N_("Removed cards"), "value": counts(obs["removed"])})
    if obs.get("start_player") is not None and 0 <= obs["start_player"] < len(names):
        out.append({"title": N_("Start player"),
                    "value": seat_name(names, obs["start_player"], you)})
    if obs.get("sections"):
        out.append({"title": N_("Board sections"), "value": ", ".join(
            tile(s[0] if isinstance(s, list) else s) for s in obs["sections"])})
    known = {"current_player", "turn", "final_round", "players", "cards", "crossroads",
             "locations", "deck_size", "discard", "removed", "start_player", "sections",
             "mandatory_built"}
    return out + generic_panels(obs, names, you, known)


def action_path(st: KingdomBuilderState, action: int, player: int | None = None
                ) -> tuple[str, ...]:
    """Web click path: ``("hex:7,12",)`` for a build, ``("tile:paddock", "hex:7,12",
    "hex:9,12")`` for a move, ``("end",)``, ``("card:grass",)`` for a chance outcome.
    Raises ValueError for an id that is no Kingdom Builder action."""
    if CARD_BASE <= action < CARD_BASE + 5:
        return (f"card:{CARD_TERRAINS[action - CARD_BASE]}",)
    if action == END:
        return ("end",)
    if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
        return (f"hex:{hex_name(action - BUILD_BASE)}",)
    kind = kind_of_action(action)
    if kind is None:
        raise ValueError(f"action {action} is not a Kingdom Builder action")
    return kind.path(action)


def crossroads_text(st: CrossroadsState, player: int | None, text: str) -> str:
    """The base drawing ``text`` plus the Crossroads pieces, tasks and second cards."""
    tx = _texts.for_language(current())
    lines = [text, _("Crossroads tasks: {tasks}", tasks="; ".join(
        _("{task} ({gold} gold)", task=tx.TASK_NAMES[t], gold=X.TASK_GOLD[t])
        for t in st.tasks) or _("none"))]
    for q in range(st.num_players):
        parts = []
        for label, m in ((N_("wagon"), st.wagon[q]), (N_("ship"), st.ship[q]),
                         (N_("warriors"), st.warriors[q])):
            parts.append(f"{localize(label, current())} "
                         + (" ".join(hex_name(i) for i in bits(m)) or "-"))
        ch = st.city_hall[q]
        centre = X.erode(ch)
        parts.append(_("city hall {where}", where=(
            f"{hex_name(centre.bit_length() - 1)} (+6)" if ch else "-")))
        v2 = st.visible_hand2(q, player)
        if v2 is None:
            parts.append(_("second card hidden"))
        elif v2 >= 0:
            parts.append(_("second card {terrain}",
                           terrain=_local("TERRAIN_NAMES", CARD_TERRAINS[v2])))
        lines.append(_("P{n} pieces: {parts}", n=q + 1, parts=", ".join(parts)))
    if st.blocked:
        blocked = " ".join(hex_name(i) for i in bits(st.blocked))
        lines.append(_("blocked by warriors: {hexes}", hexes=blocked))
    if st.fort_card >= 0:
        lines.append(_("Fort card: {terrain} - build on it now",
                       terrain=_local("TERRAIN_NAMES", CARD_TERRAINS[st.fort_card])))
    for sec in st.crossroads_view(player)["location_summary"]:
        for t in sec["tiles"]:
            lines.append(f"  {tx.TILE_NAMES.get(t['kind'], t['name'])}: "
                         f"{tx.TILE_RULES.get(t['kind'], t['text'])}")
    return "\n".join(lines)


def crossroads_svg(st: CrossroadsState, svg: str, lang: str = "en") -> str:
    """The base SVG ``svg`` plus a letter on every Crossroads piece (W wagon, S ship, X warrior,
    H city hall; ``class="kb-piece" data-piece="<letter>"``, the English letter; the drawn mark
    is the texts' ``PIECE_LETTERS`` in ``lang``)."""
    drawn = _texts.for_language(lang).PIECE_LETTERS
    marks = []
    for q in range(st.num_players):
        for piece, m in (("wagon", st.wagon[q]), ("ship", st.ship[q]),
                         ("warrior", st.warriors[q]), ("city_hall", st.city_hall[q])):
            letter = PIECE_LETTERS[piece]
            for i in bits(m):
                cx, cy = _centre(*divmod(i, 20))
                marks.append(
                    f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="9" fill="#fff" '
                    f'text-anchor="middle" class="kb-piece" data-piece="{letter}" '
                    f'pointer-events="none">{escape(drawn[piece])}</text>'
                )
    if not marks:
        return svg
    cut = svg.rfind("</svg>")
    return svg[:cut] + "".join(marks) + svg[cut:]


def prompt(st: KingdomBuilderState, player: int, paths: Sequence[Sequence[str]],
           lang: str = "en") -> str | None:
    """The status line's "what to do now" from the kinds of ``player``'s first clicks: build
    on a hex (with the settlements the mandatory action still needs), use a tile, end the
    turn; None when the turn holds other choices (Crossroads pieces)."""
    firsts = {p[0].split(":", 1)[0] for p in paths if p}
    if not firsts or not firsts <= {"hex", "tile", "end"}:
        return None
    left = max(0, min(3 - st.mand, st.supply[player])) if "hex" in firsts else 0
    if "hex" in firsts and "tile" in firsts:
        msg = N_("build a settlement on a highlighted hex ({n} left), or use a tile", n=left)
    elif "hex" in firsts:
        msg = N_("build a settlement on a highlighted hex ({n} left)", n=left)
    elif "tile" in firsts and "end" in firsts:
        msg = N_("use a highlighted tile, or end your turn")
    elif "tile" in firsts:
        msg = N_("use a highlighted tile")
    else:
        msg = N_("end your turn")
    return localize(msg, lang)


_MOVE_FORMS = [
    (re.compile(r"build (?P<at>\d+,\d+)"), "build"),
    (re.compile(r"end"), "end"),
    (re.compile(r"(?P<tile>[a-z_]+) (?P<src>\d+,\d+)>(?P<dst>\d+,\d+)"), "move"),
    (re.compile(r"(?P<tile>[a-z_]+) (?P<at>\d+,\d+)"), "tile"),
]
"""Notation forms that have a sentence (texts ``MOVE_SENTENCES``): the hint line."""


class KingdomBuilderView(View):
    """How Kingdom Builder (and Crossroads) is presented (see ``core/view.py``)."""

    def move_words(self, text: str, lang: str = "en") -> str | None:
        """A hint's move as a sentence (texts ``MOVE_SENTENCES``), None if no form fits."""
        tx = _texts.for_language(lang)
        return move_in_words(text, _MOVE_FORMS, tx.MOVE_SENTENCES,
                             tx.NOTATION_WORDS if lang != "en" else {})

    def render_text(self, state: Any, player: int | None = None, color: bool = False) -> str:
        """Coloured hex board with coordinates, legal hexes marked, cards, tiles, supply and
        running scores; with Crossroads also its pieces, tasks and second cards."""
        text = render_text(state, player, color)
        if isinstance(state, CrossroadsState):
            return crossroads_text(state, player, text)
        return text

    def render_svg(self, state: Any, player: int | None = None, lang: str = "en") -> str:
        """SVG board: ``data-key="hex:R,C"`` polygons, ``data-key="tile:<kind>"`` tiles."""
        svg = render_svg(state, player, lang)
        if isinstance(state, CrossroadsState):
            return crossroads_svg(state, svg, lang)
        return svg

    def action_path(self, state: Any, action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        return action_path(state, action, player)

    def log_keys(self, text: str) -> list[str]:
        return log_keys(text)

    def final_actions(self, state: Any, player: int, legal: Sequence[int]) -> set[int]:
        """Ending the turn passes it on: no undo after it."""
        return {END} & set(legal)

    def legend(self, lang: str = "en") -> list[tuple[str, str]]:
        return legend(lang)

    def prompt(self, state: Any, player: int, paths: Sequence[Sequence[str]],
               lang: str = "en") -> str | None:
        return prompt(state, player, paths, lang)

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool, lang: str = "en") -> list[Panel] | None:
        return display_panels(obs, names, you, terminal, lang)


# ------------------------------------------------------------------ score calculator board
from citybuilders.core.view import esc as _esc  # noqa: E402  (score calculator section)

SCORE_COLORS = ("#d62728", "#1f57c4", "#ff8c00", "#7b2fa0", "#208080", "#e377c2", "#6b4f2a",
                "#111111")
"""The player colours the score calculator page offers (index = colour id)."""


def score_board_svg(board: Any, pieces: Sequence[tuple[int, int, str]],
                    colors: Sequence[str], lang: str = "en") -> str:
    """SVG of a score-file position: the 400 hexes of ``board`` (``<polygon
    data-key="hex:R,C" class="hex">``, castles and locations labelled) and ``pieces`` as
    ``(hex index, player, letter)`` (letter "" = a settlement, else the Crossroads piece
    letter), each a circle in ``colors[player]`` (``#rrggbb``). Pieces ignore pointer events,
    so a click always reaches the hex under them."""
    size = _SVG_SIZE
    w = math.sqrt(3) * size
    margin = _SVG_MARGIN
    # the play board's geometry (row/column label margins included): the same hex centres
    width = margin * 2 + _LABEL_X + w * SIZE + w / 2
    height = margin * 2 + _LABEL_Y + size * 1.5 * (SIZE - 1) + size * 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'class="kb-board score-board" role="img">', _defs(),
           '<g class="kb-hexes" stroke="#333" stroke-width="0.6">']  # outlines, as in play
    on: dict[int, tuple[int, str]] = {i: (p, letter) for i, p, letter in pieces}
    radius = f"{size * 0.55:.1f}"
    for i, (plain, _legal, label) in enumerate(_hex_strings(board, lang)):
        out.append(plain)
        if i in on:
            p, letter = on[i]
            cx, cy = _centre(*divmod(i, SIZE))
            fill = colors[p] if 0 <= p < len(colors) else "#000"
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius}" fill="{_esc(fill)}" '
                       f'stroke="#fff" pointer-events="none" class="kb-settlement" '
                       f'data-player="{p}"/>')
            if letter:
                out.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="9" fill="#fff" '
                           f'text-anchor="middle" class="kb-piece" data-piece="{_esc(letter)}" '
                           f'pointer-events="none">{_esc(letter)}</text>')
        elif label:
            out.append(label)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
