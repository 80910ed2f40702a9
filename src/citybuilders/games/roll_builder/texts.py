"""Roll Builder's player-facing names and rule texts, keyed by stable ids (English for now).

Written in our own words from the rulebook (Como Jogar Roll Builder) and the research digest.
The rules use the ids only; render.py (and later the web pages) show these texts. Sheet-specific
names (buildings, innovations, wonders, abilities) are part of each sheet's data; the texts here
explain the vocabulary those sheets are made of.
"""

from __future__ import annotations

from typing import Any

from ...core.i18n import TextTables, text_tables

__all__ = [
    "ACTION_NAMES", "STEP_NAMES", "ACTION_RULES", "RESOURCE_NAMES", "RESOURCE_RULES", "TERRAIN_NAMES",
    "SYMBOL_NAMES", "SYMBOL_LEGEND", "TEXT_MAP_KEY", "EFFECT_RULES", "BUILDING_RULES",
    "WONDER_RULES", "ROAD_ABILITY_RULES", "TURN_BONUS_RULE", "SCORING_RULES", "SCORING_NAMES",
    "SYMBOL_RULES", "SHEET_NAMES", "SHEET_RULES", "BUILDING_NAMES", "BUILDING_TEXTS",
    "INNOVATION_NAMES", "INNOVATION_TEXTS", "WONDER_NAMES", "WONDER_TEXTS", "SPECIAL_NAMES",
    "SPECIAL_TEXTS", "ROAD_ABILITY_NAMES", "ROAD_ABILITY_TEXTS", "RULES_HEADINGS", "TERRAIN_RULES",
    "symbol_legend", "is_builtin_sheet", "rules_text",
]

ACTION_NAMES = {"road": "Road", "build": "Build", "wonder": "Wonder", "skip": "Skip"}
"""What a die can be used for (ids = actions.KINDS)."""

STEP_NAMES = {"mark": "Mark", "done": "Done"}
"""Names of the two steps that are not die actions (rules in :data:`ACTION_RULES`)."""

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

TERRAIN_RULES = {
    "land": "Once a road touches it, mark it with an X for its icon and write buildings on it.",
    "mountain": "Land too (mark it, build on it); some sheets forbid roads along the ridge "
                "between two mountain spaces.",
    "water": "Never marked or built on; the built-in sheets allow no road between two water "
             "spaces.",
    "town": "It sits in the middle of the sheet and is never marked or built on.",
    "partial": "A space cut by the map border: you may mark it but never build on it, and its "
               "cut sides take no road.",
}
"""Space kind id (``loader.TERRAINS`` values) -> what may be done on it."""

SYMBOL_NAMES = {
    "Fo": "food", "Su": "supplies", "We": "wealth", "Fa": "favor", "St": "strength",
    "BB": "bonus Build action", "BW": "bonus Wonder action", "IB": "innovation bonus",
    "U!": "unlocks a wonder box", "2v": "points when connected (the digit is the number)",
}
"""The map symbols of the text board and the SVG (an X or a lower-case symbol = collected)."""

SYMBOL_RULES = {
    "Fo": "Marking this space gives 1 food, to spend at once on an innovation.",
    "Su": "Marking this space gives 1 supplies, to spend at once on an innovation.",
    "We": "Marking this space gives 1 wealth, which you may also store for later turns.",
    "Fa": "Marking this space gives 1 favor: pay an innovation or cross the next favor number.",
    "St": "Marking this space gives 1 strength: pay an innovation or cross the next strength "
          "number.",
    "BB": "Marking this space gives a bonus Build action: write any building at once, no die "
          "needed.",
    "BW": "Marking this space gives a bonus Wonder action: fill any open wonder box at once.",
    "IB": "Marking this space gives an innovation bonus, which pays any one innovation circle.",
    "U!": "Marking this space opens a grey wonder box.",
    "2v": "Victory points (the digit says how many) scored at the end if your roads connect "
          "the space; no mark needed.",
}
"""Map symbol -> what marking (or connecting) its space gives, one sentence."""

SYMBOL_MARKS = {"Fo": "Fo", "Su": "Su", "We": "We", "Fa": "Fa", "St": "St", "BB": "BB",
                "BW": "BW", "IB": "IB", "U!": "U!", "2v": "{n}v"}
"""Map symbol -> the mark drawn on the SVG sheet (``{n}``: the points of a ``2v`` space): the
text board's two letters in English, the reader's own short mark elsewhere (one CJK
character, two letters of the Portuguese word); ``SYMBOL_LEGEND`` starts each entry with it."""

SYMBOL_LEGEND = ("Fo food", "Su supplies", "We wealth", "Fa favor", "St strength",
                 "BB bonus Build", "BW bonus Wonder", "IB innovation bonus",
                 "U! unlocks a wonder box", "2v points", "✗ collected")
"""Short legend entries of the SVG sheet, in display order."""

LEGEND_WORDS = {
    "collected": "the space's icon has been collected",
    "digit": "digit (purple)", "building": "a building of that number",
    "dark side": "dark side", "road": "a road; dashed orange: a side you may draw a road on now",
    "blue side": "blue side", "river": "a river side",
}
"""The SVG legend's own words (symbols drawn as shapes rather than letters)."""

TERRAIN_LOOKS = {"land": "pale yellow hex", "mountain": "brown hex", "water": "blue hex",
                 "town": "pink hex", "partial": "pale hex at the edge"}
"""Space kind -> how its hex looks on the SVG sheet (the legend names the colour in words)."""

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


SHEET_NAMES = {"goldplain": "Goldplain", "highcrag": "Highcrag", "rivermouth": "Rivermouth"}
"""Built-in sheet id -> its name (the sheets are our own designs; ``data/<id>.json``)."""

SHEET_RULES = {
    "goldplain": "An open trading plain around a pond: roads may not run between water spaces, "
                 "and the wonder splits low dice from high ones.",
    "highcrag": "A mountain town: no roads between water spaces, and none along a ridge between "
                "two mountain spaces until Mountain Passes is discovered.",
    "rivermouth": "A river town: no roads between water spaces or along the river until Bridges "
                  "is discovered, which opens the east bank.",
}
"""Built-in sheet id -> what is special about its map, one or two sentences."""

BUILDING_NAMES = {
    "goldplain": {1: "Granary", 2: "Workshop", 3: "Temple", 4: "Guard House", 5: "Bank",
                  6: "Guildhall"},
    "highcrag": {1: "Herders' Hut", 2: "Quarry", 3: "Shrine", 4: "Barracks", 5: "Trading Post",
                 6: "Watchtower"},
    "rivermouth": {1: "Fishers' Hut", 2: "Ferry Landing", 3: "Chapel", 4: "Watch House",
                   5: "Counting House", 6: "Docks"},
}
"""Built-in sheet id -> building number (the die value that builds it) -> name."""

BUILDING_TEXTS = {
    "goldplain": {
        1: "Gain 1 food.",
        2: "Gain 1 supplies; for the rest of this turn each Road action draws 1 more road.",
        3: "Gain 1 favor and 1 wealth.",
        4: "Gain 1 strength and 1 wealth.",
        5: "Gain 2 wealth.",
        6: "Gain 1 wealth; it takes two joined connected land spaces and both marks score.",
    },
    "highcrag": {
        1: "Gain 1 food, and 1 supplies more when it stands on or beside a mountain.",
        2: "Gain 1 supplies, and 1 strength more when it stands on or beside a mountain.",
        3: "Gain 1 favor and 1 food.",
        4: "Gain 1 strength and 1 supplies.",
        5: "Gain 2 wealth.",
        6: "Gain 1 strength and 1 favor; it may share a space that holds one other building.",
    },
    "rivermouth": {
        1: "Gain 1 food, and 1 wealth more when it stands beside water.",
        2: "Gain 1 supplies; for the rest of this turn each Road action draws 1 more road.",
        3: "Gain 1 favor and 1 food.",
        4: "Gain 1 strength and 1 supplies.",
        5: "Gain 2 wealth.",
        6: "Gain 1 wealth and a bonus Wonder action; only on a space beside water or with a "
           "river side.",
    },
}
"""Built-in sheet id -> building number -> what writing it gives, one or two sentences."""

INNOVATION_NAMES = {
    "goldplain": {"I1": "Paved Roads", "I2": "Granaries", "I3": "Banking", "I4": "Diplomacy",
                  "I5": "Law Code"},
    "highcrag": {"I1": "Mountain Passes", "I2": "Terraces", "I3": "Divine Rites",
                 "I4": "Militia", "I5": "Scholars"},
    "rivermouth": {"I1": "Bridges", "I2": "Fishing Fleet", "I3": "Navigation",
                   "I4": "Guild Law", "I5": "Astronomy"},
}
"""Built-in sheet id -> innovation id -> name."""

INNOVATION_TEXTS = {
    "goldplain": {
        "I1": "Your first Road action of every turn draws 1 more road. 2 points.",
        "I2": "At the end, 1 more point for each Granary you wrote. 2 points.",
        "I3": "Opens the grey wonder boxes B4 and B5. 3 points.",
        "I4": "Every wonder box you fill from now on also gives 1 wealth. 3 points.",
        "I5": "No ability, only its 5 points.",
    },
    "highcrag": {
        "I1": "Roads may now run along ridges, and your first Road action of every turn draws 1 "
              "more road. 2 points.",
        "I2": "Every mountain space you mark with an X from now on also gives 1 wealth. 2 points.",
        "I3": "Opens the grey top box P10 of the wonder. 3 points.",
        "I4": "Every wonder box you fill from now on also gives 1 strength. 3 points.",
        "I5": "No ability, only its 5 points.",
    },
    "rivermouth": {
        "I1": "Roads may now run along river sides. 2 points.",
        "I2": "Every space beside water you mark with an X from now on also gives 1 wealth. "
              "2 points.",
        "I3": "Opens the grey wonder box C7. 3 points.",
        "I4": "Every building you write from now on also gives 1 wealth. 4 points.",
        "I5": "No ability, only its 5 points.",
    },
}
"""Built-in sheet id -> innovation id -> its ability and points (the cost circles are drawn)."""

WONDER_NAMES = {"goldplain": "Grand Bazaar", "highcrag": "Sky Temple",
                "rivermouth": "Harbor Colossus"}
"""Built-in sheet id -> the name of its wonder."""

WONDER_TEXTS = {
    "goldplain": "Two wings filled left to right: the Copper wing (A1-A5) takes dice of 1 to 3, "
                 "the Silver wing (B1-B5) dice of 4 to 6. A finished wing scores 1 bonus point.",
    "highcrag": "A pyramid of 4, 3, 2 and 1 boxes: the bottom row takes any die; a higher box "
                "needs both boxes under it filled and at least 3, 4 or 5 (top).",
    "rivermouth": "One column C1 to C9 filled from the bottom: each die written must be at least "
                  "the value in the box below it.",
}
"""Built-in sheet id -> how its wonder is filled, one or two sentences."""

SPECIAL_NAMES = {"goldplain": "Caravans", "highcrag": "Stonecutters",
                 "rivermouth": "River Tolls"}
"""Built-in sheet id -> the name of its special ability."""

SPECIAL_TEXTS = {
    "goldplain": "Once a turn you may cross off 2 stored wealth to gain 1 favor or 1 strength.",
    "highcrag": "Every mountain space you mark with an X gives 1 supplies.",
    "rivermouth": "Once per Road action, a road laid on a river side or on a side of a water "
                  "space gives 1 wealth.",
}
"""Built-in sheet id -> what its special ability does."""

ROAD_ABILITY_NAMES = {"full_hexagon": "Full hexagon", "milestones": "Road milestones"}
"""Road ability id -> name."""

ROAD_ABILITY_TEXTS = {
    "goldplain": {
        "full_hexagon": "Closing all six sides of a space with roads gives 2 wealth, twice a "
                        "game at most.",
        "milestones": "Your 15th road gives 1 favor; your 30th opens the grey wonder box A5.",
    },
    "highcrag": {
        "full_hexagon": "Closing all six sides of a space with roads gives 2 strength, twice a "
                        "game at most.",
        "milestones": "Your 15th road gives 1 favor; your 30th gives a bonus Wonder action.",
    },
    "rivermouth": {
        "full_hexagon": "Closing all six sides of a space with roads gives 1 favor and 1 point, "
                        "twice a game at most.",
        "milestones": "Your 15th road gives 2 wealth; your 30th opens the grey wonder box C9.",
    },
}
"""Built-in sheet id -> road ability id -> what it gives on that sheet."""


SCORING_NAMES = {
    "buildings": "City and buildings",
    "roads": "Road network",
    "innovations": "Innovations",
    "resources": "Resources",
    "wonder": "Wonder",
    "bonuses": "Bonuses",
}
"""Score category id -> name (the categories of :data:`SCORING_RULES`)."""


def symbol_legend() -> str:
    """The symbols' legend as one line (entries of :data:`SYMBOL_LEGEND`)."""
    return "  ".join(SYMBOL_LEGEND)


RANK_NAMES = {"Hamlet": "Hamlet", "Village": "Village", "Town": "Town", "City": "City",
              "Capital": "Capital"}
"""Solo rank (``rules.state.solo_rank``: under 45, 45-54, 55-64, 65-74, 75+ points) -> name."""

MOVE_SENTENCES = {"done": "nothing more worth doing: end your turn"}
"""A move as a sentence (the hint line; render.py's forms pick one)."""

NOTATION_WORDS = {w: w for w in (
    "roll", "road", "build", "wonder", "skip", "done", "track", "favor", "strength", "store",
    "wealth", "discard", "food", "supplies", "bonus", "caravan", "mark", "cross", "stored")}
"""English word of a move's notation (``"mark 3,4"``, ``"cross I1.3 bonus"``, ``"track
favor"``) -> the same word for a person reading the log or a button (``core.i18n.gloss``);
the notation itself stays English."""

RULES_HEADINGS = {
    "title": "Rules of the sheet {sheet}",
    "line": "{name}: {rule}",
    "actions": "Actions",
    "resources": "Resources",
    "symbols": "Map symbols",
    "buildings": "Buildings (die value: name)",
    "innovations": "Innovations",
    "wonder": "Wonder: {name}",
    "special": "Special ability: {name}",
    "roads": "Road abilities",
    "scoring": "Scoring",
    "points": "{points} points.",
}
"""Headings of :func:`rules_text` (``{sheet}``, ``{name}``, ``{points}`` are filled in)."""


def is_builtin_sheet(sheet: Any) -> bool:
    """True when ``sheet`` is one of the built-in sheets unchanged (so the tables describe it)."""
    from .loader import load_shipped_sheet, shipped_sheet_names

    if sheet.id not in SHEET_NAMES or sheet.id not in shipped_sheet_names():
        return False
    return load_shipped_sheet(sheet.id).data == sheet.data


def _ln(h: Any, name: str, rule: str) -> str:
    """One indented ``name: rule`` line of :func:`rules_text` (the separator is translated)."""
    return "  " + h["line"].format(name=name, rule=rule)


def rules_text(state: Any, lang: str = "en") -> str:
    """The rules of ``state``'s sheet in ``lang``: the actions, the resources, the map symbols,
    the sheet's buildings, innovations, wonder, special ability and road abilities, the turn
    bonuses and the scoring. A sheet that is not a built-in one (an uploaded file) is described
    from its own data (its names and texts, untranslated)."""
    t = for_language(lang)
    h = t.RULES_HEADINGS
    sheet = state.game.sheet
    known = is_builtin_sheet(sheet)
    d = sheet.data
    out = [h["title"].format(sheet=t.SHEET_NAMES[sheet.id] if known else sheet.name)]
    if known:
        out.append(f"  {t.SHEET_RULES[sheet.id]}")
    out.append(h["actions"])
    out += [_ln(h, t.ACTION_NAMES[k], t.ACTION_RULES[k]) for k in ACTION_NAMES]
    out += [_ln(h, t.STEP_NAMES[k], t.ACTION_RULES[k]) for k in STEP_NAMES]
    out.append(f"  {t.TURN_BONUS_RULE}")
    out.append(h["resources"])
    out += [_ln(h, t.RESOURCE_NAMES[k], t.RESOURCE_RULES[k]) for k in RESOURCE_RULES]
    out.append(h["symbols"])
    out += [_ln(h, f"{k} = {t.SYMBOL_NAMES[k]}", t.SYMBOL_RULES[k]) for k in SYMBOL_RULES]
    out.append(f"  {t.TEXT_MAP_KEY}")
    out += [_ln(h, t.TERRAIN_NAMES[k], t.TERRAIN_RULES[k]) for k in TERRAIN_RULES]
    out.append(h["buildings"])
    for b in d.get("buildings", []):
        n = b["number"]
        if known:
            out.append(_ln(h, f"{n} {t.BUILDING_NAMES[sheet.id][n]}",
                           t.BUILDING_TEXTS[sheet.id][n]))
        else:
            gain = ", ".join(f"{t.RESOURCE_NAMES.get(r, r)} {v}"
                             for r, v in b.get("gain", {}).items())
            out.append(_ln(h, f"{n} {b['name']}", gain))
    out.append(h["innovations"])
    for inn in d.get("innovations", []):
        i = inn["id"]
        if known:
            out.append(_ln(h, t.INNOVATION_NAMES[sheet.id][i], t.INNOVATION_TEXTS[sheet.id][i]))
        else:
            effs = " ".join(t.EFFECT_RULES.get(e.get("type"), "") for e in inn.get("effects", []))
            out.append(_ln(h, inn["name"],
                           f"{effs} {h['points'].format(points=inn['points'])}".strip()))
    w, sp = d.get("wonder", {}), d.get("special_ability", {})
    out.append(h["wonder"].format(name=t.WONDER_NAMES[sheet.id] if known else w.get("name", "")))
    out.append(f"  {t.WONDER_TEXTS[sheet.id] if known else w.get('text', '')}")
    out += [f"  {t.WONDER_RULES[k]}" for k in WONDER_RULES]
    out.append(h["special"].format(name=t.SPECIAL_NAMES[sheet.id] if known else sp.get("name", "")))
    out.append(f"  {t.SPECIAL_TEXTS[sheet.id] if known else sp.get('text', '')}")
    out.append(h["roads"])
    for k in ROAD_ABILITY_NAMES:
        text = t.ROAD_ABILITY_TEXTS[sheet.id][k] if known else t.ROAD_ABILITY_RULES[k]
        out.append(_ln(h, t.ROAD_ABILITY_NAMES[k], text))
    out.append(h["scoring"])
    out += [_ln(h, t.SCORING_NAMES[k], t.SCORING_RULES[k]) for k in SCORING_RULES]
    return "\n".join(out)


def for_language(lang: str) -> TextTables:
    """This module's tables in ``lang`` (one of core.i18n.LANGUAGES; others give English):
    the same attribute names, values from this game's catalogs in ``locale/``."""
    return text_tables(__name__, lang)
