"""Sprawlopolis options: the condition cards (setup) and one rules option per flagged ambiguity.

Sources: the rulebook (``shared/seeds/002``, Portuguese edition) and the research digest
``reference/sprawlopolis/rules.md`` §8 (ambiguities A1–A9) and §6 (difficulty variants).
A9 (fractional offsets) has no option: the block grid cannot represent them, and the digest lists
no alternative.
"""

from __future__ import annotations

from typing import Any

from ....core.options import Option
from ..loader import CARD_NUMBERS, CARD_RANGE_TEXT

__all__ = ["OPTION_SPECS"]


def _check_conditions(value: Any) -> Any:
    if len(value) != 3 or len(set(value)) != 3:
        raise ValueError(f"give exactly 3 different card numbers from {CARD_NUMBERS[0]} to "
                         f"{CARD_NUMBERS[-1]}, e.g. 1,7,12")
    return [int(v) for v in value]


OPTION_SPECS: tuple[Option, ...] = (
    Option(
        "conditions",
        None,
        f"The three scoring-condition cards (card numbers {CARD_RANGE_TEXT}); their sum is the target score. "
        "Default: drawn at random from the seed.",
        type=list,
        choices=CARD_NUMBERS,
        validate=_check_conditions,
        source="rulebook, Preparação step 1",
        kind="setup",
        label="Scoring conditions",
        question="Which three scoring conditions set this game's goals?",
    ),
    Option(
        "difficulty",
        "normal",
        "Difficulty variant of the English rulebook (not in the Portuguese edition): "
        "`normal` scores every zone's largest group and -1 per road.",
        choices=("normal", "easier", "harder"),
        source="digest rules.md §6 (English rulebook variants)",
        kind="rule",
        alternatives={
            "easier": "no road tax",
            "harder": "block points only from the largest group of a single zone (see harder_zone)",
        },
        label="Difficulty",
        question="How hard should the city be to score?",
    ),
    Option(
        "harder_zone",
        "best",
        "Under difficulty=harder, which zone's largest group scores: `best` = the best one "
        "(the rulebook is silent on who picks it).",
        choices=("best", "commercial", "industrial", "residential", "park"),
        source="digest rules.md §8 A7",
        kind="rule",
        alternatives={
            "commercial": "the players named commercial in advance (likewise industrial, residential, park)",
        },
        label="Zone scored when harder",
        question="On the harder difficulty, which zone's largest group scores?",
    ),
    Option(
        "cover_whole_card",
        "allowed",
        "May a placement hide every still-visible block of an earlier card? `allowed`: yes, covering "
        "any number of blocks is legal.",
        choices=("allowed", "forbidden"),
        source="digest rules.md §4 and §8 A1 (rulebook: cover one or multiple blocks; reviews split)",
        kind="rule",
        alternatives={"forbidden": "every earlier card must keep at least one visible block"},
        label="Covering a whole card",
        question="May a new card hide every visible block of an earlier card?",
    ),
    Option(
        "city_edge",
        "local",
        "What is the edge of the city (The Outskirts, Central Perks, Tourist Traps)? `local`: any "
        "block side with no block beyond it, including sides facing an enclosed hole.",
        choices=("local", "outer"),
        source="digest rules.md §8 A2",
        kind="rule",
        alternatives={"outer": "only open sides connected to the outside of the city; enclosed holes are interior"},
        label="Edge of the city",
        question="Do the sides of an enclosed hole count as the edge of the city?",
    ),
    Option(
        "tourist_corner",
        "perpendicular",
        "Tourist Traps: a commercial block is on a corner of the city when two perpendicular sides "
        "are open (`perpendicular`).",
        choices=("perpendicular", "any_two"),
        source="digest rules.md §8 A3 (card 17)",
        kind="rule",
        alternatives={"any_two": "any two open sides, also two opposite ones"},
        label="Tourist Traps corner",
        question="Which two open sides make a corner for Tourist Traps?",
    ),
    Option(
        "outskirts_loop",
        "not_at_edge",
        "The Outskirts and a closed loop: `not_at_edge` = the loop never ends at the edge, +1.",
        choices=("not_at_edge", "zero"),
        source="digest rules.md §8 A4 (card 1 is silent)",
        kind="rule",
        alternatives={"zero": "a loop has no ends and scores 0"},
        label="Outskirts and a loop road",
        question="How many points does a closed loop road score for The Outskirts?",
    ),
    Option(
        "park_hopping_parks",
        "blocks",
        "Park Hopping 'different Park': the two ends must face different park blocks (`blocks`).",
        choices=("blocks", "groups"),
        source="digest rules.md §8 A5 (card 13)",
        kind="rule",
        alternatives={"groups": "the two park blocks must belong to different park groups"},
        label="Park Hopping parks",
        question="For Park Hopping, must the two parks be different blocks or different groups?",
    ),
    Option(
        "burbs_tie",
        "best",
        "The 'Burbs with tied largest residential groups: score the tied group that scores best "
        "(`best`, as base scoring lets you choose among tied groups).",
        choices=("best", "first"),
        source="digest rules.md §8 A6 (card 8; rulebook: tied groups, you choose)",
        kind="rule",
        alternatives={"first": "a fixed tie-break: the group holding the first block in reading order"},
        label="The 'Burbs tie",
        question="When two residential groups tie for largest, which one scores for The 'Burbs?",
    ),
    Option(
        "mini_marts",
        "road",
        "Mini Marts: the commercial block scores only when one road runs from a residential block "
        "through it into another residential block (`road`).",
        choices=("road", "adjacent"),
        source="digest rules.md §8 A8 (card 11 'directly between', card drawings)",
        kind="rule",
        alternatives={"adjacent": "any commercial block with two or more residential neighbours, roads ignored "
                                  "(one score-sheet app's reading)"},
        label="Mini Marts",
        question=("Must a road run through the shop for Mini Marts, or is being next to homes "
                  "enough?"),
    ),
)
