"""Roll into Town player-facing texts: names and short rules of the buildings, icons, die faces,
phases, resources, score categories and solo ranks, in one place.

English for now, written in our own words from the rulebook (shared seed 001) and
rules_proposal.json. Every table is keyed by the stable ids the rules use (``loader``: building
ids, terrain ids, phase ids, rank ids), so later issues can add other languages beside it.
The rules never import this module; ``render.py`` does.
"""

from __future__ import annotations

from typing import Any

from ...core.i18n import TextTables, text_tables

__all__ = ["BUILDING_NAMES", "BUILDING_RULES", "ICON_NAMES", "ICON_RULES", "DIE_FACES",
           "DIE_FACE_TABLE", "DIE_FACE_RULES", "PHASE_NAMES", "PHASE_RULES",
           "RESOURCE_RULES", "RANK_RULES", "RESOURCE_NAMES", "CATEGORY_NAMES", "RANK_NAMES",
           "GAME_TITLE", "SHORT_LABELS", "BUILDING_LABELS", "LEGEND_WORDS",
           "TEXT_MAP_KEY", "RULES_HEADINGS", "die_face_text", "rules_text"]

GAME_TITLE = "Roll into Town"

BUILDING_NAMES = {
    "house": "house",
    "quarry": "quarry",
    "lumberjack": "lumberjack",
    "harbor": "harbor",
    "watermill": "watermill",
    "tavern": "tavern",
    "fountain": "fountain",
    "market": "market",
    "lighthouse": "lighthouse",
    "cathedral": "cathedral",
}
"""Building id -> name (the rulebook's "pick" is called a quarry here)."""

BUILDING_RULES = {
    "house": "Costs 3 food and 2 stone. Worth 2 points at the end.",
    "quarry": "Costs 1 wood. Each collect phase it yields 1 stone for every mountain around it "
              "(diagonals too); quarries may share a mountain.",
    "lumberjack": "Costs 1 wood. In a collect phase you may use it: every tree around it "
                  "(diagonals too) is cut down for 1 wood each.",
    "harbor": "Costs 2 wood. Goes on a coast square that has no building yet; gives 1 food "
              "each collect phase.",
    "watermill": "Costs 3 wood. Goes beside the river on a side the water does not flow "
                 "through, never straight in front of the river's open end; every farm gives "
                 "1 more food per watermill.",
    "tavern": "Costs 5 wood. Each house touching a tavern (diagonals too) scores 1 more point; "
              "a house counts for one tavern only, at most 8 per tavern.",
    "fountain": "Costs 5 stone, once per game. In a discover phase you may use it to take one "
                "more die; three uses per game.",
    "market": "Costs 4 stone, once per game. While building you may swap 2 of one resource "
              "for 1 of any other, as often as you like.",
    "lighthouse": "Costs 3 stone, once per game. Two squares, top above bottom, never turned: "
                  "the bottom on a coast or on an empty square touching a coast, the top on an "
                  "empty, ocean or coast square, no harbor under either. Scores 1 point per "
                  "coast and ocean square.",
    "cathedral": "Costs 7 wood, once per game. Five squares (it may be flipped, not turned). "
                 "Worth 10 points.",
}
"""Building id -> its rule in one or two sentences."""

ICON_NAMES = {
    "empty": "empty",
    "farm": "farm",
    "mountain": "mountain",
    "tree": "tree",
    "river": "river",
    "coast": "coast",
    "ocean": "ocean",
    "town hall": "town hall",
}
"""Terrain id -> name."""

ICON_RULES = {
    "empty": "A blank square: draw an icon on it in a discover phase, or build on it.",
    "farm": "Gives 1 food each collect phase, plus 1 for every watermill on your map.",
    "mountain": "Each quarry next to it (diagonals too) yields 1 stone per collect phase.",
    "tree": "Two or more trees joined by their sides are a forest, which grows 1 new tree per "
            "2 trees each maintenance phase; a lumberjack may cut trees for wood.",
    "river": "A straight or bent piece. The first one starts at the map edge, every later one "
             "continues the river. 1 point a square, 2 if the river joins opposite edges.",
    "coast": "Has water on 1, 2 or 3 sides. An empty square with water on two sides floods "
             "and becomes ocean, which may flood more squares. 1 point a coast square.",
    "ocean": "Made by flooding; scores for the lighthouse.",
    "town hall": "In the middle of the map. Three times a game it turns a die up or down by "
                 "one (once per die, never into a 6).",
}
"""Terrain id -> its rule in one or two sentences."""

SHORT_LABELS = {"farm": "farm", "mountain": "mtn", "tree": "tree", "town hall": "hall"}
"""Terrain id -> the short label written on an SVG map square."""

BUILDING_LABELS = {"house": "HO", "quarry": "QU", "lumberjack": "LJ", "harbor": "HA",
                   "watermill": "WM", "tavern": "TA", "fountain": "FO", "market": "MA",
                   "lighthouse top": "LT", "lighthouse bottom": "LB", "cathedral": "CA"}
"""Building id (the lighthouse's two squares apart) -> the short label written on an SVG map
square: the text map's two-letter code in English, the reader's own abbreviation elsewhere
(two CJK characters, two letters of the Portuguese name)."""

LEGEND_WORDS = {
    "blue line": "blue line", "blue edge": "blue edge",
    "river": "{river} (through the square's middle)", "coast": "{coast}: the water side(s)",
    "top": "{lighthouse} (top)", "bottom": "{lighthouse} (bottom)", "dice": "die → icon",
}
"""The legend's own words under the SVG map (``{name}`` is filled with a building or icon
name)."""

TEXT_MAP_KEY = (
    "key: .. empty  TH town hall  fa farm  mo mountain  tr tree  ║║ ══ ╚═ ╔═ ═╗ ═╝ river  "
    "c^ c> cv c< coast (arrow = water side, c* several)  ~~ ocean",
    "     HO house  QU quarry  LJ lumberjack  HA harbor  WM watermill  TA tavern  FO fountain  "
    "MA market  LT/LB lighthouse top/bottom  CA cathedral",
)
"""The two key lines under the text maps (the two-character cell codes of ``render.py``)."""

DIE_FACES = {1: "farm", 2: "mountain", 3: "tree", 4: "river", 5: "coast", 6: "any"}
"""Die face -> the icon it lets you draw (6: any of the five)."""

DIE_FACE_RULES = {
    1: "A 1 lets you draw a farm.",
    2: "A 2 lets you draw a mountain.",
    3: "A 3 lets you draw a tree.",
    4: "A 4 lets you draw a river piece, straight or bent.",
    5: "A 5 lets you draw a coast with water on 1, 2 or 3 sides.",
    6: "A 6 is wild: draw any one of the five icons (the town hall never makes a 6).",
}
"""Die face -> what a die showing it lets you draw, one sentence."""

DIE_FACE_TABLE = "1 farm · 2 mountain · 3 tree · 4 river · 5 coast · 6 any icon"
"""The die -> icon table as one line of text."""


def die_face_text(face: int) -> str:
    """The icon name of a die face (``4`` -> ``"river"``)."""
    return DIE_FACES[face]


MOVE_SENTENCES = {
    "river": "die {die}: draw a river flowing {dirs} on row {r}, column {c}",
    "icon": "die {die}: draw {icon} on row {r}, column {c}",
    "adjust": "town hall: change die {die} by {delta}",
    "build": "build: {building} on row {r}, column {c}",
    "cut": "cut the tree on row {r}, column {c}",
    "grow": "grow a tree on row {r}, column {c}",
    "sides": "the coast's water on side(s) {dirs}",
    "done": "nothing more to do in this phase: finish it",
}
"""A move as a sentence (the hint line; render.py's forms pick one and fill it from the
notation ``d2 mountain 3,6``)."""

NOTATION_WORDS = {
    **{w: w for w in ("house", "quarry", "lumberjack", "harbor", "watermill", "tavern",
                      "fountain", "market", "lighthouse", "cathedral", "farm", "mountain",
                      "tree", "river", "coast", "food", "stone", "wood", "build", "roll")},
    "mirrored": "mirrored",
    "adjust": "adjust",
    "sides": "sides",
    "trade": "trade",
    "for": "for",
    "cut": "cut",
    "grow": "grow",
    "done": "done",
    "icon": "icon",
    "flow": "flow",
    "adj": "adjust",
    # the sides of a square as written after "sides"/"flow" (N, E, S, W run together in that
    # order: "sides NW"): each set of sides is a word of its own
    **{w: w for w in ("".join(c for k, c in enumerate("NESW") if m >> k & 1)
                      for m in range(1, 16))},
}
"""English word of a move's notation (``"d1 coast 0,0 sides NW"``, ``"trade 2 food for
wood"``, the click keys ``icon:farm``) -> the same word for a person reading the log or a
button (``core.i18n.gloss``); the notation itself stays English."""

PHASE_NAMES = {
    "roll": "roll",
    "discover": "discover",
    "build": "build",
    "collect": "collect",
    "maintenance": "maintenance",
    "game over": "game over",
}
"""Phase id -> name."""

PHASE_RULES = {
    "roll": "The dice of the round are rolled once and every player uses the same results: 5 "
            "dice in rounds 1-6, 4 in rounds 7-9, 3 in rounds 10-12.",
    "discover": "Pick dice and draw their icons on your map: 3 icons in rounds 1-3, 2 in rounds "
                "4-9, 1 in rounds 10-12.",
    "build": "Pay resources to put up as many buildings as you can afford on empty squares "
             "(harbors and the lighthouse have their own places).",
    "collect": "Farms, harbors and quarries pay their income; you may use lumberjacks to cut "
               "the trees around them for wood.",
    "maintenance": "Every forest grows: 1 new tree for each 2 trees it had at the start of the "
                   "phase.",
    "game over": "After 12 rounds the most points wins; a tie goes to the most house points, "
                 "then the win is shared.",
}
"""Phase id -> what happens in it, one or two sentences."""

RESOURCE_RULES = {
    "food": "Pays for houses. You start with none and hold at most 9.",
    "stone": "Pays for houses and the stone buildings. You start with none and hold at most 9.",
    "wood": "Pays for the wooden buildings. You start with 2 and hold at most 9.",
}
"""Resource id -> what it pays for, start amount and cap."""

RESOURCE_NAMES = {"food": "food", "stone": "stone", "wood": "wood"}

CATEGORY_NAMES = {
    "houses": "houses",
    "taverns": "taverns",
    "river": "river",
    "coast": "coast",
    "lighthouse": "lighthouse",
    "cathedral": "cathedral",
}
"""Score category id -> name."""

RANK_NAMES = {
    "failed mayor": "failed mayor",
    "ordinary mayor": "ordinary mayor",
    "good mayor": "good mayor",
    "great mayor": "great mayor",
    "legendary mayor": "legendary mayor",
}
"""Solo rank id -> name (50 or less; 51-60; 61-70; 71-80; 81 or more)."""

RANK_RULES = {
    "failed mayor": "A solo game that ends with 50 points or fewer.",
    "ordinary mayor": "A solo game that ends with 51 to 60 points.",
    "good mayor": "A solo game that ends with 61 to 70 points.",
    "great mayor": "A solo game that ends with 71 to 80 points.",
    "legendary mayor": "A solo game that ends with 81 points or more.",
}
"""Solo rank id -> the score range that earns it."""


RULES_HEADINGS = {
    "title": "Rules",
    "line": "{name}: {rule}",
    "dice": "Dice and icons",
    "icons": "Map squares",
    "buildings": "Buildings",
    "phases": "Phases of a round",
    "resources": "Resources",
    "ranks": "Solo ranks",
}
"""Headings of :func:`rules_text`."""


def _ln(h: Any, name: str, rule: str) -> str:
    """One indented ``name: rule`` line of :func:`rules_text` (the separator is translated)."""
    return "  " + h["line"].format(name=name, rule=rule)


def rules_text(state: Any = None, lang: str = "en") -> str:
    """Every rule of Roll into Town in ``lang``: the die -> icon table and each face, the map
    squares, the buildings, the phases, the resources and (solo games) the ranks."""
    t = for_language(lang)
    h = t.RULES_HEADINGS
    out = [h["title"], h["dice"], f"  {t.DIE_FACE_TABLE}"]
    out += [f"  {t.DIE_FACE_RULES[f]}" for f in DIE_FACE_RULES]
    out.append(h["icons"])
    out += [f"  {line.strip()}" for line in t.TEXT_MAP_KEY]
    out += [_ln(h, t.ICON_NAMES[k], t.ICON_RULES[k]) for k in ICON_RULES]
    out.append(h["buildings"])
    out += [_ln(h, t.BUILDING_NAMES[k], t.BUILDING_RULES[k]) for k in BUILDING_RULES]
    out.append(h["phases"])
    out += [_ln(h, t.PHASE_NAMES[k], t.PHASE_RULES[k]) for k in PHASE_RULES]
    out.append(h["resources"])
    out += [_ln(h, t.RESOURCE_NAMES[k], t.RESOURCE_RULES[k]) for k in RESOURCE_RULES]
    if state is None or getattr(state, "num_players", 1) == 1:
        out.append(h["ranks"])
        out += [_ln(h, t.RANK_NAMES[k], t.RANK_RULES[k]) for k in RANK_RULES]
    return "\n".join(out)


def for_language(lang: str) -> TextTables:
    """This module's tables in ``lang`` (one of core.i18n.LANGUAGES; others give English):
    the same attribute names, values from this game's catalogs in ``locale/``."""
    return text_tables(__name__, lang)
