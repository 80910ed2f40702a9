"""Kingdom Builder rules options (rules digest §10: each disputed point is a named option whose
default is the digest's recommendation), named setups and the section-spec parser.

``OPTIONS`` = the base options, then the Crossroads setup and rules options (``crossroads.py``).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from citybuilders.core.errors import FormatError
from citybuilders.core.i18n import message_of, without_field
from citybuilders.core.options import Option

from ..loader import MAX_SECTIONS_BYTES, check_sections_document, section_data
from ..scoring import CARDS
from .crossroads import CROSSROADS_OPTIONS, CROSSROADS_SETUP_OPTIONS

__all__ = ["OPTIONS", "PRESETS", "parse_section_spec"]

PRESETS: dict[str, dict[str, list[str]]] = {
    "first-game": {
        "sections": ["tavern", "paddock", "oasis", "farm"],
        "cards": ["fishermen", "knights", "merchants"],
    },
}
"""Named setups. ``first-game``: the rulebook's suggestion for a first game (Setup 1 and 4)."""


def parse_section_spec(spec: Any, catalog: Mapping[str, Any] | None = None,
                       lenient: bool = False) -> tuple[str, int | None]:
    """``"tavern"`` -> ("tavern", None); ``"tavern:180"`` -> ("tavern", 180).

    ``catalog``: the section ids allowed (default: the shipped sections; a game with option
    ``sections_doc`` passes its :class:`~..loader.SectionCatalog`). ``lenient``: accept any id
    spelled like a custom section id (the option check, which runs before the custom sections
    are known; the game checks the ids afterwards).

    Raises ValueError naming the bad element and listing the section ids."""
    if not isinstance(spec, str):
        raise ValueError(f"section {spec!r} must be a string like 'tavern' or 'tavern:180'")
    sid, _, rot = spec.strip().lower().partition(":")
    known = section_data() if catalog is None else catalog
    if sid not in known and not (lenient and _CUSTOM_ID.fullmatch(sid)):
        raise ValueError(
            f"unknown section {sid!r}; allowed: {', '.join(known)} "
            f"(optionally ':0' or ':180')"
        )
    if not rot:
        return sid, None
    if rot not in ("0", "180"):
        raise ValueError(f"rotation of section {sid!r} must be 0 or 180, got {rot!r}")
    return sid, int(rot)


def _check_sections(value: list[Any]) -> list[str]:
    if len(value) != 4:
        raise ValueError(
            f"need exactly 4 sections (top-left, top-right, bottom-left, bottom-right), "
            f"got {len(value)}"
        )
    ids = [parse_section_spec(v, lenient=True)[0] for v in value]
    if len(set(ids)) != 4:
        raise ValueError(f"the 4 sections must differ, got {', '.join(ids)}")
    return [str(v).strip().lower() for v in value]


_CUSTOM_ID = re.compile(r"[a-z0-9_]{1,40}")


class _DocumentOption(Option):
    """An option whose value is a JSON document (shown as such in docs/rules-options.md)."""

    def allowed_text(self, _: Callable[[str], str] = str) -> str:
        return _("a sections document: a JSON object {{\"sections\": [...]}} shaped like "
                 "data/sections.json, at most {kib} KiB").format(kib=MAX_SECTIONS_BYTES // 1024)


def _check_sections_doc(value: Any) -> dict[str, Any]:
    try:
        return check_sections_document(value, "sections_doc")
    except FormatError as exc:
        # Option.check prefixes "option 'sections_doc' of kingdom-builder: "
        raise ValueError(without_field(message_of(exc), "sections_doc")) from None


def _check_cards(value: list[Any]) -> list[str]:
    if len(value) != 3 or len(set(value)) != 3:
        raise ValueError(f"need exactly 3 different Kingdom Builder cards, got {value!r}")
    return list(value)


OPTIONS: tuple[Option, ...] = (
    Option(
        "sections", None,
        "The 4 board sections in the order top-left, top-right, bottom-left, bottom-right, "
        "each written like tavern, tavern:0 or tavern:180 (without a rotation, it is drawn "
        "from the seed). Empty = 4 random sections and rotations from the seed.",
        type=list, validate=_check_sections, kind="setup",
        source="rulebook Preparação 1; digest §1-2",
        label="Board sections",
        question="Which four board sections make up the kingdom, and in which place?",
    ),
    _DocumentOption(
        "sections_doc", None,
        "Board sections of your own design, a JSON file in the board-sections format "
        "(docs/formats.md): they join the random pool and may be named in 'sections'; they are "
        "saved in the record, so the game replays anywhere.",
        type=dict, validate=_check_sections_doc, kind="setup",
        source="issue 15: custom sections for what-if studies",
        note="The engine never reads files: it takes the parsed JSON document (its text is "
             "accepted too); on the command line `-o sections_file=PATH` reads a regular file "
             "of at most 64 KiB and passes it here.",
        label="Your own board sections",
        question="Which board sections of your own design join the shipped ones?",
    ),
    Option(
        "cards", None,
        "The 3 Kingdom Builder cards that decide how settlements score. Empty = 3 random cards "
        "from the seed.",
        note="Card ids: " + ", ".join(CARDS) + ".",
        type=list, choices=CARDS, validate=_check_cards, kind="setup",
        source="rulebook Preparação 4; digest §7",
        label="Kingdom Builder cards",
        question="Which three cards decide how settlements score?",
    ),
    Option(
        "preset", None,
        "A named setup: 'first-game' = sections Tavern, Paddock, Oasis, Farm (0°) and the cards "
        "Fishermen, Knights, Merchants. Sections or cards chosen as well take the place of its own.",
        type=str, choices=tuple(PRESETS), kind="setup",
        source="rulebook Preparação 1 and 4 (first game)",
        label="Named setup",
        question="Play a ready-made setup, such as the one suggested for a first game?",
    ),
    Option(
        "start_player", None,
        "Who plays first, counting the seats from 0 (0 = the first seat). Empty = drawn from "
        "the seed (the rulebook's 'oldest player').",
        type=int, minimum=0, maximum=3, kind="setup",
        source="rulebook Preparação 7; digest §1, §10.9",
        label="Start player",
        question="Which seat takes the first turn?",
    ),
    Option(
        "expansions", [],
        "Expansions in play. 'crossroads' adds its 4 sections, with their location tiles and "
        "task cards, to the random pool.",
        type=list, choices=("crossroads",), kind="setup",
        source="digest §9",
        label="Expansions",
        question="Which expansions are in play?",
    ),
    Option(
        "rare_exception", "redraw",
        "When no empty hex of the played card's terrain is left (at the start of or during the "
        "turn), the card leaves the game and a new card is drawn and played, repeatedly.",
        type=str, choices=("redraw", "no_redraw"),
        source="rulebook 'Exceção Rara'; digest §4.4, §10.1",
        alternatives={
            "no_redraw": "no new card: the mandatory action builds as many as possible (none) "
                         "and Oracle/Barn cannot be used (BGA behaviour).",
        },
        label="Terrain card with no free hex",
        question="What happens when your terrain card shows a terrain with no empty hex left?",
    ),
    Option(
        "tile_loss_timing", "immediate",
        "When a move leaves none of your settlements next to a location you took a tile from, "
        "the tile is lost at once (it goes out of the game and cannot be taken again).",
        type=str, choices=("immediate", "end_of_turn"),
        source="rulebook 'Manutenção das Peças de Local'; digest §5, §10.2",
        alternatives={
            "end_of_turn": "the loss is checked only when the turn ends, so moving back next to "
                           "the location within the same turn keeps the tile (BGA help text).",
        },
        label="When a location tile is lost",
        question=("If you move away from a location, do you lose its tile at once or only at the "
                  "end of your turn?"),
    ),
    Option(
        "lords_zero_scores", "ranked",
        "Lords: in every sector where at least one player has a settlement, players are ranked "
        "by count alone (12 for the most, 6 for the next count), a count of 0 included.",
        type=str, choices=("ranked", "never", "always"),
        source="digest §7 Lords, §10.3 (BGG FAQ lists 'needs a settlement' as an app bug)",
        alternatives={
            "never": "a player with no settlement in a sector never scores there "
                     "(Counterfeiter implementation).",
            "always": "also sectors nobody entered score: everybody tied at 0 gets 12 (BGA).",
        },
        label="Lords and empty sectors",
        question=("Does a player with no settlement in a sector still take part in the Lords "
                  "ranking there?"),
    ),
    Option(
        "null_move", "forbidden",
        "Barn/Harbor may not put the lifted settlement back on the hex it came from.",
        type=str, choices=("forbidden", "allowed"),
        source="digest §6, §10.4",
        alternatives={
            "allowed": "the origin hex is an eligible target after lifting (a move that changes "
                       "nothing but spends the tile).",
        },
        label="Moving back to the same hex",
        question="May a Barn or Harbor move put the settlement back where it came from?",
    ),
)

OPTIONS = OPTIONS + CROSSROADS_SETUP_OPTIONS + CROSSROADS_OPTIONS
"""Base options, then the Crossroads setup and rules options (crossroads.py)."""
