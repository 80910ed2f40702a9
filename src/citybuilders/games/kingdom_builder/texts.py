"""Every player-facing name and rule text of Kingdom Builder and Crossroads, keyed by stable ids.

English for now, in our own words (sources: the rulebooks, seeds 003 and 004, and the rules digest;
later issues add Portuguese and Chinese tables with the same keys). The rules keep using the ids and
reach these tables at run time through ``KingdomBuilderGame.texts`` (they never import this
module); render.py imports it. Tests check that every table covers exactly its ids
(tests/kingdom_builder/test_texts.py).
"""

from __future__ import annotations

from typing import Any

from ...core.i18n import TextTables, text_tables

__all__ = [
    "TERRAIN_NAMES",
    "CARD_NAMES",
    "CARD_RULES",
    "CARD_TEXTS",
    "CASTLE_TEXT",
    "TERRAIN_RULES",
    "BASIC_RULES",
    "PIECE_RULES",
    "TILE_NAMES",
    "TILE_RULES",
    "LOCATION_SUMMARY",
    "TASK_NAMES",
    "TASK_RULES",
    "PIECE_NAMES",
    "PIECE_LETTERS",
    "CASTLE_LETTER",
    "PATTERN_NAMES",
    "TILE_LABELS",
    "CASTLE_RULE",
    "RULES_HEADINGS",
    "rules_text",
]

TERRAIN_NAMES: dict[str, str] = {
    "grass": "grass",
    "canyon": "canyon",
    "desert": "desert",
    "flower_field": "flower field",
    "forest": "forest",
    "water": "water",
    "mountain": "mountain",
    "castle": "castle",
    "location": "location",
}
"""Terrain id -> name as printed in the text board's key (lower case)."""

CARD_NAMES: dict[str, str] = {
    'fishermen': 'Fishermen',
    'miners': 'Miners',
    'workers': 'Workers',
    'merchants': 'Merchants',
    'discoverers': 'Discoverers',
    'hermits': 'Hermits',
    'citizens': 'Citizens',
    'knights': 'Knights',
    'lords': 'Lords',
    'farmers': 'Farmers',
}
"""Kingdom Builder card id -> name."""

CARD_RULES: dict[str, str] = {
    'fishermen': '1 gold per settlement next to water',
    'miners': '1 gold per settlement next to a mountain',
    'workers': '1 gold per settlement next to a castle or location',
    'merchants': '4 gold per castle/location linked to another by your settlements',
    'discoverers': '1 gold per row with your settlements',
    'hermits': '1 gold per separate settlement area',
    'citizens': '1 gold per 2 settlements of your largest area',
    'knights': '2 gold per settlement on your fullest row',
    'lords': 'per sector: most settlements 12, second 6',
    'farmers': '3 gold per settlement in your weakest sector',
}
"""Kingdom Builder card id -> its scoring rule, short (printed by the text board)."""

CARD_TEXTS: dict[str, str] = {
    'fishermen': 'Score 1 gold for each of your settlements beside at least one water hex. '
                 'A piece standing on water itself earns nothing here.',
    'miners': 'Score 1 gold for each of your settlements beside at least one mountain hex.',
    'workers': 'Score 1 gold for each of your settlements beside a castle hex or a location '
               'hex.',
    'merchants': 'Score 4 gold for each castle or location hex that one unbroken group of your '
                 'settlements ties to another such hex; each hex counts once.',
    'discoverers': 'Score 1 gold for each horizontal row of the board that holds at least one '
                   'of your settlements.',
    'hermits': 'Score 1 gold for each separate group of your settlements; a settlement on its '
               'own is a group too.',
    'citizens': 'Score 1 gold for every 2 settlements in your largest connected group, rounded '
                'down.',
    'knights': 'Find the horizontal row where you have the most settlements: score 2 gold for '
               'each of them.',
    'lords': 'In each of the 4 board sections, the player with the most settlements scores 12 '
             'gold and the runner-up 6; tied players all take the higher amount.',
    'farmers': 'Find the board section where you have the fewest settlements: score 3 gold for '
               'each of them (none there, no gold).',
}
"""Kingdom Builder card id -> its full rule in one or two sentences (hover and help texts)."""

CASTLE_RULE = "castles 3 gold each"
"""Castle scoring, as printed after the cards (rulebook 'Pontuação dos Castelos')."""

CASTLE_TEXT = ("Nobody builds on a castle. At the end, each castle with at least one of your "
               "settlements beside it is worth 3 gold to you, however many touch it.")
"""The castle hex's full rule (hover and help texts)."""

TERRAIN_RULES: dict[str, str] = {
    "grass": "Buildable: a grass terrain card sends your 3 settlements here.",
    "canyon": "Buildable: a canyon terrain card sends your 3 settlements here.",
    "desert": "Buildable: a desert terrain card sends your 3 settlements here.",
    "flower_field": "Buildable: a flower field terrain card sends your 3 settlements here.",
    "forest": "Buildable: a forest terrain card sends your 3 settlements here.",
    "water": "No building here; only the Harbor tile (and a Crossroads ship) can put a piece "
             "on water.",
    "mountain": "No settlement may stand on a mountain (a Crossroads wagon may cross it).",
    "castle": "Not buildable; each castle your settlements touch scores 3 gold at the end.",
    "location": "Not buildable; build beside it to take one of its location tiles.",
}
"""Terrain id -> what may be built there, one sentence."""

BASIC_RULES: dict[str, str] = {
    "turn": "On your turn play your terrain card and build 3 settlements on empty hexes of "
            "that terrain; draw a new card at the end of the turn.",
    "adjacency": "Each new settlement must go beside one of yours if any hex of the right kind "
                 "allows it; only otherwise may you start somewhere new.",
    "tiles": "Building beside a location hex takes one of its tiles (one per location). Use "
             "each tile once per turn from your next turn on; lose it when no settlement of "
             "yours is left beside that location.",
    "end": "When a player builds their last settlement, the round is played to its end; then "
           "the Kingdom Builder cards and the castles are scored.",
}
"""The turn, the adjacency rule, location tiles and the end, one or two sentences each."""

TILE_NAMES: dict[str, str] = {
    'oracle': 'Oracle',
    'farm': 'Farm',
    'oasis': 'Oasis',
    'tower': 'Tower',
    'tavern': 'Tavern',
    'barn': 'Barn',
    'harbor': 'Harbor',
    'paddock': 'Paddock',
    'foresters_lodge': "Forester's Lodge",
    'monastery': 'Monastery',
    'fort': 'Fort',
    'crossroads': 'Crossroads',
    'city_hall': 'City Hall',
    'lighthouse': 'Lighthouse',
    'barracks': 'Barracks',
    'wagon': 'Wagon',
}
"""Location tile id -> name (the 8 base tiles, then the 8 Crossroads tiles)."""

TILE_RULES: dict[str, str] = {
    'oracle': 'Build 1 settlement on the terrain of the card you play this turn, next to your settlements if you can.',
    'farm': 'Build 1 settlement on an empty grass hex, next to your settlements if you can.',
    'oasis': 'Build 1 settlement on an empty desert hex, next to your settlements if you can.',
    'tower': 'Build 1 settlement on an empty buildable hex at the edge of the board, next to your settlements if you can.',
    'tavern': 'Build 1 settlement on an empty buildable hex at either end of a straight line of 3 or more of your settlements.',
    'barn': 'Move 1 of your settlements to an empty hex of the terrain of the card you play this turn, next to your other settlements if you can.',
    'harbor': 'Move 1 of your settlements to an empty water hex, next to your other settlements if you can.',
    'paddock': 'Move 1 of your settlements exactly 2 hexes in a straight line (jumping over anything) to an empty buildable hex.',
    'foresters_lodge': 'Build 1 settlement on an empty forest hex, adjacent to your settlements if possible.',
    'monastery': 'Build 1 settlement on an empty canyon hex, adjacent to your settlements if possible.',
    'fort': 'Draw a terrain card and build 1 settlement on an empty hex of its terrain, adjacent to your settlements if possible (draw and build are one action).',
    'crossroads': 'Draw an extra terrain card at the end of each of your turns; play either card (the first terrain you use counts for the whole turn), discard both at the end.',
    'city_hall': 'Once: place your city hall on 7 empty buildable hexes (a hex and its 6 neighbours) adjacent to your settlements; it stays and counts as 7 settlements.',
    'lighthouse': 'Place your ship on an empty water hex (adjacent if possible), move it up to 3 hexes across empty water, or take it back.',
    'barracks': 'Place one of your 2 warriors on an empty buildable hex (adjacent if possible) or take one back. No building or moving onto hexes next to a warrior.',
    'wagon': 'Place your wagon on an empty buildable or mountain hex (adjacent if possible), move it up to 3 hexes across such empty hexes, or take it back.',
}
"""Location tile id -> what the tile lets you do (Crossroads: the location summary card text)."""

LOCATION_SUMMARY: dict[str, str] = {k: TILE_RULES[k] for k in list(TILE_NAMES)[8:]}
"""The Crossroads location summary card: Crossroads tile id -> its text."""

TASK_NAMES: dict[str, str] = {
    'home_country': 'Home country',
    'fortress': 'Fortress',
    'road': 'Road',
    'place_of_refuge': 'Place of Refuge',
    'advance': 'Advance',
    'compass_points': 'Compass points',
}
"""Crossroads task card id -> name."""

TASK_RULES: dict[str, str] = {
    'home_country': "5 gold: your pieces fill one whole terrain area, with no empty hex and no other player's piece in it.",
    'fortress': '6 gold: one of your pieces is surrounded on all 6 sides by your own pieces.',
    'road': '7 gold: at least 7 of your pieces in one unbroken diagonal line.',
    'place_of_refuge': '8 gold: your pieces surround a castle or location hex on all sides.',
    'advance': '9 gold: at least 7 of your pieces along one edge of the board.',
    'compass_points': '10 gold: at least one of your pieces on each of the 4 edges of the board.',
}
"""Crossroads task card id -> its condition and gold."""

PIECE_NAMES: dict[str, str] = {
    "settlement": "settlement",
    "wagon": "wagon",
    "ship": "ship",
    "warrior": "warrior",
    "city_hall": "city hall",
}
"""Piece id -> name (the Crossroads pieces as printed by the text board)."""

PIECE_RULES: dict[str, str] = {
    "settlement": "Your 40 settlements are built from your supply; each scores through the "
                  "Kingdom Builder cards and the castles.",
    "wagon": "Crossroads: enters with the Wagon tile and travels over empty buildable and "
             "mountain hexes; it counts as one of your settlements.",
    "ship": "Crossroads: enters with the Lighthouse tile and sails over empty water; it counts "
            "as one of your settlements.",
    "warrior": "Crossroads: enters with the Barracks tile; nobody may build on or move onto the "
               "hexes next to it. It counts as one of your settlements.",
    "city_hall": "Crossroads: a 7-hex piece laid once with the City Hall tile; it never moves "
                 "and counts as 7 settlements.",
}
"""Piece id -> what it does, one or two sentences."""
PIECE_LETTERS: dict[str, str] = {"wagon": "W", "ship": "S", "warrior": "X", "city_hall": "H"}
"""Letter drawn on a Crossroads piece in the SVG board (in a language: its own short
abbreviation, one CJK character or one or two letters; ``data-piece`` keeps the English
letter)."""

CASTLE_LETTER = "K"
"""The mark of a castle hex on the SVG board and in its legend (the section files' code;
a language gives its own short abbreviation)."""

TILE_LABELS: dict[str, str] = {
    "oracle": "Ora", "farm": "Far", "oasis": "Oas", "tower": "Tow", "tavern": "Tav",
    "barn": "Bar", "harbor": "Har", "paddock": "Pad", "foresters_lodge": "For",
    "monastery": "Mon", "fort": "Frt", "crossroads": "Cro", "city_hall": "Cit",
    "lighthouse": "Lig", "barracks": "Brk", "wagon": "Wag",
}
"""Location tile -> the short label on its hex of the SVG board and in the legend (three
letters of its name, two CJK characters; each different from the others)."""

PATTERN_NAMES: dict[str, str] = {
    "grass": "dots", "canyon": "hatching", "desert": "grains", "flower_field": "rings",
    "forest": "trees", "water": "waves", "mountain": "peaks",
}
"""Terrain -> the mark of its fill pattern on the SVG board, as the legend names it (the
terrains differ by more than their colour)."""


MOVE_SENTENCES: dict[str, str] = {
    "build": "build a settlement on hex {at}",
    "end": "end your turn",
    "move": "{tile}: move a settlement from hex {src} to hex {dst}",
    "tile": "{tile}: build a settlement on hex {at}",
}
"""A move as a sentence (the hint line; render.py's forms pick one and fill it from the
notation ``build 11,4``, ``paddock 3,4>5,4``)."""

NOTATION_WORDS: dict[str, str] = {
    **TERRAIN_NAMES, **TILE_NAMES, "card": "card", "end": "end turn", "build": "build",
    "move": "move",
}
"""English word of a move's notation (``"build 11,4"``, ``"card flower_field"``, ``"tavern
3,4"``, ``"end"``) -> the same word for a person reading the log or a button
(``core.i18n.gloss``); the notation itself stays English."""

RULES_HEADINGS: dict[str, str] = {
    "title": "Rules in play",
    "line": "{name}: {rule}",
    "basics": "How a turn goes",
    "cards": "Kingdom Builder cards",
    "castles": "Castles",
    "tiles": "Location tiles on this board",
    "tasks": "Task cards",
    "pieces": "Pieces",
    "terrains": "Terrains",
}
"""Headings of :func:`rules_text`."""


def _ln(h: Any, name: str, rule: str) -> str:
    """One indented ``name: rule`` line of :func:`rules_text` (the separator is translated)."""
    return "  " + h["line"].format(name=name, rule=rule)


def rules_text(state: Any, lang: str = "en") -> str:
    """Every rule that applies to ``state``'s game, in ``lang``: the turn, the 3 Kingdom Builder
    cards, castles, the location tiles on the board, the Crossroads tasks and pieces (when the
    expansion is on) and the terrains, one ``name: rule`` line each (the terminal's ``rules``)."""
    t = for_language(lang)
    h = t.RULES_HEADINGS
    out = [h["title"], h["basics"]]
    out += [f"  {t.BASIC_RULES[k]}" for k in BASIC_RULES]
    out.append(h["cards"])
    out += [_ln(h, t.CARD_NAMES[c], t.CARD_TEXTS[c]) for c in state.cards]
    out += [h["castles"], f"  {t.CASTLE_TEXT}", h["tiles"]]
    kinds = list(dict.fromkeys(kind for _, kind in state.board.locations))
    out += [_ln(h, t.TILE_NAMES[k], t.TILE_RULES[k]) for k in kinds if k in TILE_RULES]
    tasks = getattr(state, "tasks", None)
    if tasks is not None:
        if tasks:
            out.append(h["tasks"])
            out += [_ln(h, t.TASK_NAMES[k], t.TASK_RULES[k]) for k in tasks]
        out.append(h["pieces"])
        out += [_ln(h, t.PIECE_NAMES[k], t.PIECE_RULES[k]) for k in PIECE_RULES]
    out.append(h["terrains"])
    out += [_ln(h, t.TERRAIN_NAMES[k], t.TERRAIN_RULES[k]) for k in TERRAIN_RULES]
    return "\n".join(out)


def for_language(lang: str) -> TextTables:
    """This module's tables in ``lang`` (one of core.i18n.LANGUAGES; others give English):
    the same attribute names, values from this game's catalogs in ``locale/``."""
    return text_tables(__name__, lang)
