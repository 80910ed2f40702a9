"""Card data (transcribed from the digest's cards.json) and the block-token notation."""

from __future__ import annotations

import pytest

from citybuilders.games.sprawlopolis.loader import (
    CARDS,
    card_blocks,
    parse_token,
    road_of,
    token_of,
    zone_of,
)
from citybuilders.games.sprawlopolis.rules.city import City
from citybuilders.games.sprawlopolis.scoring import CONDITIONS, Analysis, Rules

# number -> (name, blocks TL TR BL BR) as printed in the digest
EXPECTED = {
    1: ("The Outskirts", "P I-NE C-EW R-EW"),
    2: ("Bloom Boom", "R-NS P C-NE I-EW"),
    3: ("Go Green", "I-NW C-NS P R-NS"),
    4: ("Block Party", "I-NS P R-NS C-ES"),
    5: ("Stacks and Scrapers", "C-EW R-SW P I-NS"),
    6: ("Master Planned", "I-EW C-EW P R-ES"),
    7: ("Central Perks", "R-ES C-EW I-NS P"),
    8: ("The 'Burbs", "P R-NS I-EW C-NW"),
    9: ("Concrete Jungle", "P I-NS C-SW R-NS"),
    10: ("The Strip", "C-NS P I-NE R-EW"),
    11: ("Mini Marts", "C-NS I-NE R-NS P"),
    12: ("Superhighway", "P R-NE I-EW C-EW"),
    13: ("Park Hopping", "P C-NS R-EW I-NW"),
    14: ("Looping Lanes", "P C-NE R-EW I-EW"),
    15: ("Skid Row", "C-EW R-EW P I-ES"),
    16: ("Morning Commute", "P C-NS R-SW I-NS"),
    17: ("Tourist Traps", "R-EW I-EW P C-ES"),
    18: ("Sprawlopolis", "R-NW I-NS P C-NS"),
}


@pytest.mark.parametrize("number", sorted(EXPECTED))
def test_card_data(number: int) -> None:
    name, blocks = EXPECTED[number]
    card = CARDS[number]
    assert card.name == name == CONDITIONS[number][0]
    assert " ".join(token_of(c) for c in card.blocks) == blocks
    # rulebook: one block of each zone per card; digest: 3 road pieces, parks without road
    assert sorted(zone_of(c) for c in card.blocks) == [0, 1, 2, 3]
    assert sum(1 for c in card.blocks if road_of(c)) == 3
    assert all(road_of(c) == 0 for c in card.blocks if zone_of(c) == 3)


def test_one_or_two_roads_per_card() -> None:
    counts = []
    for n in CARDS:
        city = City()
        city.place(n, 5 * 64 + 5, 0)
        counts.append(len(Analysis(city.cells, city.occ, Rules()).roads))
    assert sorted(counts) == [1] * 6 + [2] * 12


def test_rotation_180() -> None:
    assert [token_of(c) for c in card_blocks(1, 180)] == ["R-EW", "C-EW", "I-SW", "P"]
    assert [token_of(c) for c in card_blocks(4, 180)] == ["C-NW", "R-NS", "P", "I-NS"]
    for n in CARDS:
        assert card_blocks(n, 0) == CARDS[n].blocks


@pytest.mark.parametrize("token", [".", "C", "P", "I-NE", "R-SW", "C-EW", "P-NS"])
def test_token_round_trip(token: str) -> None:
    assert token_of(parse_token(token)) == token


@pytest.mark.parametrize("token", ["X", "C-N", "C-NN", "C-NEW", "C-XY", "CC", ""])
def test_bad_tokens(token: str) -> None:
    with pytest.raises(ValueError):
        parse_token(token)


def test_sides_in_any_order() -> None:
    assert token_of(parse_token("i-en")) == "I-NE"
