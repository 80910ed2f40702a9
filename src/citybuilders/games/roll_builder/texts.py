"""Roll Builder's player-facing names and rule texts, keyed by stable ids (English for now).

Written in our own words from the rulebook (Como Jogar Roll Builder) and the research digest.
The rules use the ids only; render.py (and later the web pages) show these texts. Sheet-specific
names (buildings, innovations, wonders, abilities) are part of each sheet's data; the texts here
explain the vocabulary those sheets are made of.
"""

from __future__ import annotations

from ...core.i18n import TextTables, text_tables

__all__ = [
    "ACTION_NAMES", "ACTION_RULES", "RESOURCE_NAMES", "RESOURCE_RULES", "TERRAIN_NAMES",
    "SYMBOL_NAMES", "SYMBOL_LEGEND", "TEXT_MAP_KEY", "EFFECT_RULES", "BUILDING_RULES",
    "WONDER_RULES", "ROAD_ABILITY_RULES", "TURN_BONUS_RULE", "SCORING_RULES", "symbol_legend",
]

ACTION_NAMES = {"road": "Road", "build": "Build", "wonder": "Wonder", "skip": "Skip"}
"""What a die can be used for (ids = actions.KINDS)."""

ACTION_RULES = {
    "road": "Use a die of value N to draw up to N roads, one per hex side, each joined to a road "
            "you already have. A space touched by a road, even at one corner, is connected.",
    "build": "Use a die of value N to write building N on a connected land space that holds no "
             "building; gain what the building gives at once.",
    "wonder": "Use a die to fill an open box of your wonder, following the wonder's own rule; "
              "grey boxes must be unlocked first.",
    "skip": "Leave the die unused.",
    "mark": "Put an X on a connected space to collect its icon (once per space).",
    "done": "End your turn; unassigned food, supplies, favor and strength are lost.",
}

RESOURCE_NAMES = {"food": "food", "supplies": "supplies", "wealth": "wealth", "favor": "favor",
                  "strength": "strength", "innovation_bonus": "innovation bonus"}

RESOURCE_RULES = {
    "food": "Spend it at once on a food circle of an innovation, or lose it.",
    "supplies": "Spend it at once on a supplies circle of an innovation, or lose it.",
    "wealth": "Spend it on a wealth circle, or store it in a storage circle to spend in a later "
              "turn; every 2 wealth still stored at the end score 1 point.",
    "favor": "Spend it on a favor circle, or cross the next number of the favor track "
             "(the leftmost number not crossed scores at the end).",
    "strength": "Spend it on a strength circle, or cross the next number of the strength track.",
    "innovation_bonus": "Cross any one innovation circle, including the circles only an "
                        "innovation bonus can pay.",
}

TERRAIN_NAMES = {"land": "land", "mountain": "mountain", "water": "water", "town": "town centre",
                 "partial": "partial space"}

SYMBOL_NAMES = {
    "Fo": "food", "Su": "supplies", "We": "wealth", "Fa": "favor", "St": "strength",
    "BB": "bonus Build action", "BW": "bonus Wonder action", "IB": "innovation bonus",
    "U!": "unlocks a wonder box", "2v": "points when connected (the digit is the number)",
}
"""The map symbols of the text board and the SVG (an X or a lower-case symbol = collected)."""

SYMBOL_LEGEND = ("Fo food", "Su supplies", "We wealth", "Fa favor", "St strength",
                 "BB bonus Build", "BW bonus Wonder", "IB innovation bonus",
                 "U! unlocks a wonder box", "2v points", "✗ collected")
"""Short legend entries of the SVG sheet, in display order."""

TEXT_MAP_KEY = ("key: / \\ | road  . free side  x-case icon = collected  digit = building  "
                "^ mountain  : partial  ~ water  T town")
"""The key line under the text board."""

EFFECT_RULES = {
    "roads_allowed_on_river_edges": "You may draw roads on river sides.",
    "roads_allowed_on_ridges": "You may draw roads between two mountain spaces.",
    "extra_roads_on_first_road_action_each_turn": "Your first Road action of each turn draws "
                                                  "extra roads.",
    "on_mark_space_adjacent_to_water_space": "Each X on a space next to water also gives a gain.",
    "on_mark_mountain_space": "Each X on a mountain space also gives a gain.",
    "on_build_action": "Each building you write also gives a gain.",
    "on_wonder_box_filled": "Each wonder box you fill also gives a gain.",
    "unlock_wonder_boxes": "Unlocks grey wonder boxes.",
    "end_bonus_points_per_building": "At the end, bonus points for each mark of one building.",
    "points_only": "Worth its points only.",
    "road_toll": "Once per Road action, a road on a river side or a side of a water space gives "
                 "a gain.",
    "convert_stored_wealth": "Once per turn, spend stored wealth for one favor or strength.",
}
"""What each effect of the sheet vocabulary does (innovations, special abilities)."""

BUILDING_RULES = {
    "adjacent_to_water_or_river": "Only on a space next to water or with a river side.",
    "shares_space": "May be written on a space that holds exactly one other building.",
    "two_marks": "Takes two adjacent connected land spaces (both marks score).",
    "adjacent_to_water": "Extra gain when next to water.",
    "on_or_adjacent_to_mountain": "Extra gain on or next to a mountain.",
}

WONDER_RULES = {
    "ascending": "A box's die value must be at least the values of the boxes it requires.",
    "requires": "A box can be filled only once the boxes it requires are filled.",
    "locked": "A grey box must be unlocked (map icon, innovation or road milestone) first.",
    "wing": "Filling every box of a wing scores its completion bonus.",
}

ROAD_ABILITY_RULES = {
    "full_hexagon": "Roads on all six sides of a space (a full hexagon) give its reward, a "
                    "limited number of times.",
    "milestones": "Placing a given number of roads gives a one-time reward.",
}

TURN_BONUS_RULE = ("At the end of turns 5, 10 and 15 you receive an innovation bonus, a Build "
                   "action and a Wonder action respectively.")

SCORING_RULES = {
    "buildings": "1 point per building mark.",
    "roads": "The points printed on every space your roads connect.",
    "innovations": "The points of the innovations you discovered.",
    "resources": "Stored wealth // 2 plus the leftmost uncrossed number of each track.",
    "wonder": "1 point per filled wonder box.",
    "bonuses": "Wonder and wing bonuses, full-hexagon points, end-of-game innovation bonuses.",
}


def symbol_legend() -> str:
    """The symbols' legend as one line (entries of :data:`SYMBOL_LEGEND`)."""
    return "  ".join(SYMBOL_LEGEND)


def for_language(lang: str) -> TextTables:
    """This module's tables in ``lang`` (one of core.i18n.LANGUAGES; others give English):
    the same attribute names, values from this game's catalogs in ``locale/``."""
    return text_tables(__name__, lang)
