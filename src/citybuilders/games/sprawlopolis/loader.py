"""Sprawlopolis card data: loads and validates ``data/cards.json`` (the 18 cards), block codes,
the block-token notation and rotation.

Block model (digest rules.md §1, cards.json "geometry"): a card's blocks side is 2 × 2 blocks
(TL, TR, BL, BR in the landscape orientation, rotation 0). Each block has one zone
(commercial, industrial, residential, park) and at most one road piece joining the midpoints of two
of its sides (N, E, S, W; N = top). A block is stored as one small int *block code*::

    code = (road_mask << ROAD_SHIFT) | (zone_index + 1)      # 0 = no block (empty cell)

with ``zone_index`` 0..3 in the order of :data:`ZONES` and ``road_mask`` a 4-bit set of sides
(N=1, E=2, S=4, W=8). ``code & ZONE_MASK`` is the *zone code* (0 empty, 1..4 = :data:`COMMERCIAL`,
:data:`INDUSTRIAL`, :data:`RESIDENTIAL`, :data:`PARK`) and ``code >> ROAD_SHIFT`` the road mask; the
scoring loops use these two expressions inline (a function call per block would cost time).

Block-token notation (the digest's ``examples.json`` notation, also used by score files): ``.`` for
an empty cell, ``Z`` for a block of zone letter Z without road, ``Z-SIDES`` with the two sides its
road piece joins, e.g. ``C-EW`` or ``I-NE`` (zone letters C, I, R, P).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = [
    "NUM_CARDS",
    "CARD_RANGE_TEXT",
    "ZONE_MASK",
    "ROAD_SHIFT",
    "COMMERCIAL",
    "INDUSTRIAL",
    "RESIDENTIAL",
    "PARK",
    "ZONES",
    "ZONE_LETTERS",
    "N",
    "E",
    "S",
    "W",
    "SIDE_LETTERS",
    "Card",
    "CARDS",
    "CARD_NUMBERS",
    "block_code",
    "zone_of",
    "road_of",
    "parse_token",
    "token_of",
    "rotate_mask_180",
    "card_blocks",
    "card_blocks_fast",
    "load_cards",
]

NUM_CARDS = 18
"""Cards in the game, numbered 1..NUM_CARDS (checked against ``data/cards.json`` on load)."""
CARD_RANGE_TEXT = f"1-{NUM_CARDS}"
"""How messages name the card numbers (``"1-18"``)."""
ZONE_MASK = 7
"""``code & ZONE_MASK`` = zone code of a block code (0 = empty cell)."""
ROAD_SHIFT = 3
"""``code >> ROAD_SHIFT`` = road mask of a block code."""

ZONES: tuple[str, ...] = ("commercial", "industrial", "residential", "park")
"""Zone names; a block code's ``zone_index`` indexes this tuple."""
ZONE_LETTERS = "CIRP"
"""Zone letters of the token notation, same order as :data:`ZONES`."""
COMMERCIAL, INDUSTRIAL, RESIDENTIAL, PARK = 1, 2, 3, 4
"""``code & ZONE_MASK`` values of the four zones (zone_index + 1)."""

N, E, S, W = 1, 2, 4, 8
"""Road-mask bits of the four block sides (N = top)."""
SIDE_LETTERS = (("N", N), ("E", E), ("S", S), ("W", W))


def block_code(zone_index: int, road_mask: int) -> int:
    """The block code of a block of ``ZONES[zone_index]`` with road sides ``road_mask`` (0..15)."""
    return (road_mask << ROAD_SHIFT) | (zone_index + 1)


def zone_of(code: int) -> int:
    """Zone index (0..3) of a non-empty block code."""
    return (code & ZONE_MASK) - 1


def road_of(code: int) -> int:
    """Road mask (0..15) of a block code (0 = no road piece)."""
    return code >> ROAD_SHIFT


def rotate_mask_180(mask: int) -> int:
    """Road mask after a 180° rotation: N <-> S and E <-> W."""
    return ((mask << 2) | (mask >> 2)) & 15


def parse_token(token: str) -> int:
    """Block code of one block token (``.``, ``Z`` or ``Z-SIDES``; see module docstring).

    Accepts any zone with or without a road piece; a road piece joins exactly two different sides.
    Raises ValueError with a one-line message saying what is allowed.
    """
    tok = token.strip().upper()
    if tok == ".":
        return 0
    zone, _, sides = tok.partition("-")
    if len(zone) != 1 or zone not in ZONE_LETTERS:
        raise ValueError(
            f"bad block token {token!r}: expected '.', a zone letter C, I, R or P, "
            "or zone-sides such as C-EW"
        )
    mask = 0
    if _:
        for ch in sides:
            bit = dict(SIDE_LETTERS).get(ch)
            if bit is None or mask & bit:
                raise ValueError(
                    f"bad block token {token!r}: road sides must be two different letters of N, E, S, W"
                )
            mask |= bit
        if len(sides) != 2:
            raise ValueError(
                f"bad block token {token!r}: a road piece joins exactly two sides (e.g. C-EW, I-NE)"
            )
    return block_code(ZONE_LETTERS.index(zone), mask)


def token_of(code: int) -> str:
    """Block token of a block code (inverse of :func:`parse_token`, sides in N,E,S,W order)."""
    if code == 0:
        return "."
    letter = ZONE_LETTERS[zone_of(code)]
    mask = road_of(code)
    if not mask:
        return letter
    return letter + "-" + "".join(ch for ch, bit in SIDE_LETTERS if mask & bit)


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 18 cards.

    Attributes:
        number: 1..18, the condition number (also its contribution to the target score).
        name: the condition's name (e.g. ``"The Outskirts"``).
        rule: paraphrase of the condition.
        blocks: block codes of the blocks side at rotation 0, in the order TL, TR, BL, BR.
    """

    number: int
    name: str
    rule: str
    blocks: tuple[int, int, int, int]


def load_cards(raw: Any) -> dict[int, Card]:
    """Validated cards of a parsed ``cards.json`` object: ``{"cards": [{"number", "name", "rule",
    "blocks": ["TL TR", "BL BR"]}, ...]}``.

    Checks: numbers 1..:data:`NUM_CARDS`, each exactly once; a non-empty name and rule; two rows of
    two block tokens, every block a zone (not ``.``). Raises ValueError naming the card and field.
    """
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise ValueError("cards.json: expected an object with a 'cards' list")
    out: dict[int, Card] = {}
    for k, entry in enumerate(raw["cards"]):
        where = f"cards.json cards[{k}]"
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected an object")
        number = entry.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= NUM_CARDS:
            raise ValueError(f"{where}.number: expected a card number {CARD_RANGE_TEXT}, got {number!r}")
        if number in out:
            raise ValueError(f"{where}.number: card {number} appears twice")
        for key in ("name", "rule"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise ValueError(f"{where}.{key}: expected a non-empty string")
        rows = entry.get("blocks")
        if not isinstance(rows, list) or len(rows) != 2 or not all(
                isinstance(r, str) and len(r.split()) == 2 for r in rows):
            raise ValueError(f"{where}.blocks: expected two rows of two block tokens")
        codes = tuple(parse_token(t) for t in " ".join(rows).split())
        if not all(codes):
            raise ValueError(f"{where}.blocks: every block of a card has a zone ('.' found)")
        out[number] = Card(number, entry["name"], entry["rule"], codes)  # type: ignore[arg-type]
    if len(out) != NUM_CARDS:
        missing = sorted(set(range(1, NUM_CARDS + 1)) - set(out))
        raise ValueError(f"cards.json cards: cards {missing} are missing")
    return out


def _read_cards() -> dict[int, Card]:
    text = resources.files("citybuilders.games.sprawlopolis").joinpath("data/cards.json").read_text(
        encoding="utf-8")
    return load_cards(json.loads(text))


CARDS: dict[int, Card] = _read_cards()
"""The 18 cards by number (package data ``data/cards.json``)."""
CARD_NUMBERS: tuple[int, ...] = tuple(sorted(CARDS))


def card_blocks(number: int, rot: int) -> tuple[int, int, int, int]:
    """Block codes TL, TR, BL, BR of card ``number`` placed at rotation ``rot`` (0 or 180).

    Rotation 180 (cards.json geometry): block (r, c) moves to (1-r, 1-c) and road sides N<->S, E<->W.
    """
    b = CARDS[number].blocks
    if rot == 0:
        return b
    rot_codes = tuple((rotate_mask_180(c >> ROAD_SHIFT) << ROAD_SHIFT) | (c & ZONE_MASK) for c in b)
    return (rot_codes[3], rot_codes[2], rot_codes[1], rot_codes[0])


_BLOCKS_BY_ROT: dict[tuple[int, int], tuple[int, int, int, int]] = {
    (n, r): card_blocks(n, r) for n in CARDS for r in (0, 180)
}


def card_blocks_fast(number: int, rot_index: int) -> tuple[int, int, int, int]:
    """Cached :func:`card_blocks` with ``rot_index`` 0 (0°) or 1 (180°)."""
    return _BLOCKS_BY_ROT[(number, 180 * rot_index)]
