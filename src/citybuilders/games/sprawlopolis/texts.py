"""Every player-facing name and rule text of Sprawlopolis, keyed by stable ids (English).

Tables (later issues add other languages under the same keys):

* :data:`CONDITION_NAMES` / :data:`CONDITION_RULES` — card number 1..18 -> the condition's printed
  name / a short statement of how it scores, in our own words (rulebook ``seeds/002``, digest
  ``reference/sprawlopolis/rules.md`` §7 and the card data; the rules options that settle an
  ambiguity are named in brackets).
* :data:`ZONE_NAMES` — zone id (``loader.ZONES``) -> its name as used inside a sentence.
* :data:`SCORE_LABELS` — the rows of the score table; :data:`PANEL_TITLES` — the web "Your view"
  panels; :data:`OUTCOME` — the final line.

The rules keep using ids; the names the rules print themselves (score-breakdown keys such as
``"12 Superhighway"``, the observation's ``condition_names``) come from ``data/cards.json`` and a
test checks that they equal :data:`CONDITION_NAMES`.
"""

from __future__ import annotations

from typing import Any

from ...core.i18n import TextTables, text_tables

__all__ = [
    "CONDITION_NAMES",
    "CONDITION_RULES",
    "ZONE_NAMES",
    "ZONE_MARKS",
    "ZONE_RULES",
    "TERM_NAMES",
    "TERM_RULES",
    "TEXT_KEY",
    "SCORE_LABELS",
    "PANEL_TITLES",
    "OUTCOME",
    "RULES_HEADINGS",
    "condition_label",
    "rules_text",
]

CONDITION_NAMES: dict[int, str] = {
    1: "The Outskirts",
    2: "Bloom Boom",
    3: "Go Green",
    4: "Block Party",
    5: "Stacks and Scrapers",
    6: "Master Planned",
    7: "Central Perks",
    8: "The 'Burbs",
    9: "Concrete Jungle",
    10: "The Strip",
    11: "Mini Marts",
    12: "Superhighway",
    13: "Park Hopping",
    14: "Looping Lanes",
    15: "Skid Row",
    16: "Morning Commute",
    17: "Tourist Traps",
    18: "Sprawlopolis",
}
"""Condition number -> name printed on the card."""

CONDITION_RULES: dict[int, str] = {
    1: "Each road scores +1 when none of its ends reaches the edge of the city and -1 when one "
       "does. A closed loop has no ends: it scores +1 (a rule variant makes it 0).",
    2: "Check every row and every column: exactly three park blocks in it score +1, no park block "
       "at all scores -1, any other number nothing.",
    3: "+1 for every park block in the city, -3 for every industrial block.",
    4: "Count the 2x2 squares made of four blocks of the same zone; squares may overlap. 0, 1, 2, "
       "3, 4 or 5+ squares score -8, -5, -2, +1, +4 or +7.",
    5: "+2 for every industrial block that touches only commercial or industrial blocks (sides "
       "with no block next to them are fine).",
    6: "The size of your largest residential group minus the size of your largest industrial "
       "group.",
    7: "+1 for every park block surrounded by blocks on all four sides, -2 for every park block "
       "on the edge of the city.",
    8: "Look at the largest residential group: +1 for every park block next to it, -2 for every "
       "industrial block next to it, each block counted once (a tie: the best-scoring group; a "
       "variant takes the first).",
    9: "+1 for every industrial block that touches another industrial block corner to corner "
       "(touching along a side does not count).",
    10: "The number of commercial blocks in the one row or column that holds the most of them; "
        "gaps in the line do not matter.",
    11: "+2 for every commercial block a road runs through from one residential block into "
        "another residential block (a rule variant counts any commercial block beside two "
        "residential blocks).",
    12: "The length of your longest road in road sections, halved and rounded down.",
    13: "+3 for every road whose two ends both stop at park blocks, two different ones (a rule "
        "variant asks for two different park groups).",
    14: "+1 for every road section that is part of a closed loop, for every loop.",
    15: "+2 for every residential block that touches at least two industrial blocks along its "
        "sides.",
    16: "+2 for every road that passes through at least one residential block and at least one "
        "commercial block.",
    17: "+1 for every commercial block on the edge of the city and +1 more when it sits on a "
        "corner, open on two sides at right angles (a rule variant accepts any two open "
        "sides).",
    18: "The number of blocks in your fullest row plus the number in your fullest column; gaps "
        "are skipped.",
}
"""Condition number -> how it scores (our own words)."""

ZONE_NAMES: dict[str, str] = {
    "commercial": "commercial",
    "industrial": "industrial",
    "residential": "residential",
    "park": "park",
}
"""Zone id -> name inside a sentence (e.g. "largest park group")."""

ZONE_MARKS: dict[str, str] = {"commercial": "C", "industrial": "I", "residential": "R",
                              "park": "P"}
"""Zone -> the mark in a block's corner on the SVG board and in its legend (zones differ by
more than colour): a letter, or one CJK character of the zone's name."""

ZONE_COLOR_NAMES: dict[str, str] = {"commercial": "blue", "industrial": "grey",
                                    "residential": "orange", "park": "green"}
"""Zone -> the colour of its blocks on the SVG board, in words (the legend)."""

ZONE_RULES: dict[str, str] = {
    "commercial": "Commercial blocks (shops, drawn blue): your largest group of them scores 1 "
                  "point per block.",
    "industrial": "Industrial blocks (factories, drawn grey): your largest group of them scores "
                  "1 point per block.",
    "residential": "Residential blocks (homes, drawn orange): your largest group of them scores "
                   "1 point per block.",
    "park": "Park blocks (green): your largest group of them scores 1 point per block.",
}
"""Zone id -> what its blocks score, one sentence."""

TERM_NAMES: dict[str, str] = {
    "block": "block",
    "group": "group",
    "road": "road",
    "condition": "scoring condition",
    "target": "target score",
    "card": "card",
}
"""Game term id -> its name inside a sentence."""

TERM_RULES: dict[str, str] = {
    "block": "Each card shows 4 blocks in a 2x2 square; a newer card may cover blocks already in "
             "the city.",
    "group": "Blocks of one zone joined side to side form a group; only the largest group of "
             "each zone scores, 1 point per block.",
    "road": "A road is an unbroken run of road sections across blocks; every road in the city "
            "costs 1 point.",
    "condition": "Three cards are turned to their condition side at the start; each adds or "
                 "takes away points at the end.",
    "target": "The three condition card numbers added up: reach that final score to win.",
    "card": "On your turn put one card into the city, upright or turned half round, touching "
            "the city along a side (covering blocks is allowed, tucking under is not).",
}
"""Game term id -> its rule in one or two sentences."""

TEXT_KEY = ("key: C commercial  I industrial  R residential  P park  │ ─ └ ┌ ┐ ┘ road through "
            "the block  · legal top-left cell")
"""The key line of the text city (zone letters and road glyphs of ``render.py``)."""

SCORE_LABELS: dict[str, str] = {
    "title": "Sprawlopolis score",
    "largest_group": "largest {zone} group",
    "block_points": "block points (harder)",
    "roads": "roads ({roads})",
    "total": "total",
    "target": "target",
}
"""Rows of the score table (``citybuilders score``); ``{zone}`` / ``{roads}`` are filled in."""

PANEL_TITLES: dict[str, str] = {
    "hand": "Your hand",
    "to_play": "To play",
    "conditions": "Scoring conditions",
    "target": "Target",
    "hand_sizes": "Cards in hand",
    "deck": "Deck",
    "city": "Cards in the city",
}
"""Titles of the web "Your view" panels."""

OUTCOME: dict[str, str] = {
    "won": "WON: the city reaches the target",
    "lost": "LOST: below the target",
    "final_won": "target reached - you win!",
    "final_lost": "below the target - you lose",
}
"""The verdict lines of the score table (``won``/``lost``) and the text board (``final_*``)."""


RULES_HEADINGS: dict[str, str] = {
    "title": "Rules in play",
    "line": "{name}: {rule}",
    "conditions": "Scoring conditions (target {target})",
    "zones": "Zones",
    "terms": "Cards, blocks and roads",
}
"""Headings of :func:`rules_text` (``{target}`` is filled in)."""


def _ln(h: Any, name: str, rule: str) -> str:
    """One indented ``name: rule`` line of :func:`rules_text` (the separator is translated)."""
    return "  " + h["line"].format(name=name, rule=rule)


def rules_text(state: Any, lang: str = "en") -> str:
    """The rules of ``state``'s game in ``lang``: its 3 scoring conditions (``N Name: rule``)
    with the target, the zones, and the terms (card, block, group, road, target)."""
    t = for_language(lang)
    h = t.RULES_HEADINGS
    out = [h["title"], h["conditions"].format(target=state.target)]
    out += [_ln(h, f"{n} {t.CONDITION_NAMES[n]}", t.CONDITION_RULES[n]) for n in state.conditions]
    out.append(h["zones"])
    out += [_ln(h, t.ZONE_NAMES[z], t.ZONE_RULES[z]) for z in ZONE_RULES]
    out.append(f"  {t.TEXT_KEY}")
    out.append(h["terms"])
    out += [_ln(h, t.TERM_NAMES[k], t.TERM_RULES[k]) for k in TERM_RULES]
    return "\n".join(out)


MOVE_SENTENCES: dict[str, str] = {
    "play": "play card {card} with its top-left block on row {r}, column {c}",
    "play_turned": "play card {card} turned upside down, its top-left block on row {r}, column {c}",
}
"""A move as a sentence (the hint line; render.py's forms pick one and fill it from the
notation ``play 15 at 0,0 rot 180``)."""

NOTATION_WORDS = {"play": "play", "at": "at", "rot": "turned", "card": "card"}
"""English word of a move's notation (``"play 7 at 1,2 rot 180"``, ``"card 9"``) -> the same
word for a person reading the log or a button (``core.i18n.gloss``); the notation itself
stays English."""


def condition_label(number: int) -> str:
    """``"12 Superhighway"``: the card number and its name."""
    return f"{number} {CONDITION_NAMES[number]}"


def for_language(lang: str) -> TextTables:
    """This module's tables in ``lang`` (one of core.i18n.LANGUAGES; others give English):
    the same attribute names, values from this game's catalogs in ``locale/``."""
    return text_tables(__name__, lang)
