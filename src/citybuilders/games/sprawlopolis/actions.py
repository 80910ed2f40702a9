"""The fixed Sprawlopolis action space, the city's cell numbering and the move notation.

=================================  ===========================================================
id range                           meaning
=================================  ===========================================================
0 .. CHANCE_BASE - 1               ``play CARD at ROW,COL [rot 180]``: id =
                                   ``(card - 1) * CARD_SPAN + 2 * cell + rot_index``
                                   (card 1..18, ``cell`` = flat index of the card's top-left
                                   block, ``rot_index`` 0 = 0°, 1 = 180°)
CHANCE_BASE .. NUM_ACTIONS - 1     chance: ``card N`` dealt, starting the city or revealed on
                                   the deck (id = ``CHANCE_BASE + card - 1``)
=================================  ===========================================================

``CARD_SPAN = 2 * NCELL = 8192``, ``CHANCE_BASE = 18 * CARD_SPAN = 147456``,
``NUM_ACTIONS = CHANCE_BASE + 18`` (docs/formats.md, "Actions and notation").

Cells: the city lives on a fixed ``WIDTH × WIDTH`` board; user coordinates (row, col) — rows grow
downward, the first card of a game at (0, 0) — map to the flat index
``(row + OFFSET) * WIDTH + (col + OFFSET)``. 14 plays extend the city by at most 2 blocks each,
so user rows/cols stay in -28..29, well inside the board, and every neighbour index of an
occupied cell is on the board.

Notation: ``play 7 at 2,-1`` / ``play 7 at 2,-1 rot 180`` (also ``7 2,-1 180``, ``7 2 -1``) for a
placement; ``card 7`` (or ``7``) for a chance outcome.
"""

from __future__ import annotations

import re

from ...core.errors import IllegalActionError
from .loader import CARD_RANGE_TEXT, NUM_CARDS
from ...core.i18n import N_

__all__ = [
    "WIDTH",
    "OFFSET",
    "NCELL",
    "MIN_USER",
    "MAX_USER",
    "CARD_SPAN",
    "CHANCE_BASE",
    "NUM_ACTIONS",
    "index_of",
    "rc_of",
    "encode",
    "decode",
    "chance_action",
    "chance_card",
    "action_to_string",
    "notation_numbers",
    "parse_chance",
    "parse_play",
]

WIDTH = 64
"""Board width and height in blocks."""
OFFSET = 31
"""Flat index of user row/col 0 along each axis."""
NCELL = WIDTH * WIDTH
MIN_USER = 1 - OFFSET
MAX_USER = WIDTH - 3 - OFFSET
"""Range of user coordinates a card's top-left block may take (the card must fit on the board)."""

CARD_SPAN = 2 * NCELL
"""Action ids per card: every cell × 2 rotations."""
CHANCE_BASE = NUM_CARDS * CARD_SPAN
"""First chance action id; chance action = ``CHANCE_BASE + card - 1``."""
NUM_ACTIONS = CHANCE_BASE + NUM_CARDS
"""Size of the action space (placements plus chance outcomes)."""


def index_of(row: int, col: int) -> int:
    """Flat cell index of user coordinates (row, col)."""
    return (row + OFFSET) * WIDTH + col + OFFSET


def rc_of(index: int) -> tuple[int, int]:
    """User coordinates (row, col) of a flat cell index."""
    r, c = divmod(index, WIDTH)
    return r - OFFSET, c - OFFSET


def encode(card: int, pos: int, rot_index: int) -> int:
    """Action id of playing ``card`` with top-left block at flat ``pos`` and rotation index."""
    return (card - 1) * CARD_SPAN + 2 * pos + rot_index


def decode(action: int) -> tuple[int, int, int]:
    """Inverse of :func:`encode`: ``(card, pos, rot_index)``."""
    card0, rest = divmod(action, CARD_SPAN)
    pos, rot = divmod(rest, 2)
    return card0 + 1, pos, rot


def chance_action(card: int) -> int:
    """Action id of the chance outcome "card ``card`` comes up"."""
    return CHANCE_BASE + card - 1


def chance_card(action: int) -> int:
    """Card number of a chance action id (inverse of :func:`chance_action`)."""
    return action - CHANCE_BASE + 1


def action_to_string(action: int) -> str:
    """``play 7 at 2,-1`` (rotation 0) / ``play 7 at 2,-1 rot 180``; ``card 7`` for a chance id."""
    if action >= CHANCE_BASE:
        return f"card {action - CHANCE_BASE + 1}"
    card, pos, rot = decode(action)
    r, c = rc_of(pos)
    return f"play {card} at {r},{c}" + (" rot 180" if rot else "")


def notation_numbers(text: str) -> list[int]:
    """The integers of a move text, in order. Raises IllegalActionError for a number of more
    than 6 characters (``number too large``)."""
    found = re.findall(r"-?\d+", text)
    if any(len(x) > 6 for x in found):
        raise IllegalActionError(N_("'{strip}': number too large", strip=text.strip()[:40]))
    return [int(x) for x in found]


def parse_chance(text: str, nums: list[int]) -> int:
    """The card number of a chance-outcome text (``card 7`` / ``7``) with integers ``nums``
    (from :func:`notation_numbers`). Raises IllegalActionError unless there is exactly one
    number; whether that card is in the deck is the state's check."""
    if len(nums) != 1:
        raise IllegalActionError(N_("'{strip}': expected a card number, e.g. 'card 7'",
                                    strip=text.strip()))
    return nums[0]


def parse_play(text: str, nums: list[int]) -> int:
    """The action id of a placement text (``play 7 at 2,-1 rot 180``, ``7 2,-1 180``, ``7 2 -1``;
    rotation 0 if omitted) with integers ``nums`` (from :func:`notation_numbers`).

    Raises IllegalActionError for a wrong number count, a rotation other than 0/180, an unknown
    card or a position off the board. Legality in the position is the state's check.
    """
    if len(nums) not in (3, 4):
        raise IllegalActionError(
            N_("'{strip}': expected 'play CARD at ROW,COL [rot 180]', e.g. 'play 7 at 0,2'",
               strip=text.strip())
        )
    card, row, col = nums[:3]
    rot = nums[3] if len(nums) == 4 else 0
    if rot not in (0, 180):
        raise IllegalActionError(
            N_("rotation {rot} is not allowed: cards stay horizontal (rot 0 or 180)", rot=rot)
        )
    if not 1 <= card <= NUM_CARDS:
        raise IllegalActionError(N_("card {card} does not exist (cards are {CARD_RANGE_TEXT})",
                                    card=card, CARD_RANGE_TEXT=CARD_RANGE_TEXT))
    if not (MIN_USER <= row <= MAX_USER and MIN_USER <= col <= MAX_USER):
        raise IllegalActionError(N_("position {row},{col} is too far from the city",
                                    row=row, col=col))
    return encode(card, index_of(row, col), 1 if rot == 180 else 0)
