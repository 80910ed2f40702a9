"""Roll Builder options: the sheet (setup) and the rules options of the digest's ambiguity table.

``sheet`` takes a shipped sheet id; ``sheet_doc`` a whole sheet document (the parsed JSON object,
format roll-builder-sheet/1, at most 64 KiB), so a record carries its sheet and replays anywhere.
The engine never reads a file: the command line's ``-o sheet_file=PATH`` reads the file and passes
the document as ``sheet_doc``.
"""

from __future__ import annotations

from typing import Any, Callable

from citybuilders.core.errors import FormatError
from citybuilders.core.i18n import message_of, without_field
from citybuilders.core.options import Option

from ..loader import MAX_SHEET_BYTES, check_sheet_document, shipped_sheet_names

__all__ = ["OPTION_SPECS"]

_SOURCE = "Roll Builder research digest (roll_games_notes.md §6)"


class _DocumentOption(Option):
    """An option whose value is a JSON document (shown as such in docs/rules-options.md)."""

    def allowed_text(self, _: Callable[[str], str] = str) -> str:
        return _("a sheet document: a JSON object of format roll-builder-sheet/1, at most "
                 "{kib} KiB").format(kib=MAX_SHEET_BYTES // 1024)


def _check_doc(value: Any) -> dict[str, Any]:
    try:
        return check_sheet_document(value, "sheet_doc")
    except FormatError as exc:
        # Option.check prefixes "option 'sheet_doc' of roll-builder: "
        raise ValueError(without_field(message_of(exc), "sheet_doc")) from None


OPTION_SPECS: tuple[Option, ...] = (
    Option("sheet", "rivermouth", "City sheet every player uses.", type=str,
           choices=shipped_sheet_names(), note="`citybuilders sheets` lists the shipped sheets.",
           kind="setup", source="rulebook Preparação 1; digest §4.3 (original sheets)",
           label="City sheet",
           question="Which city sheet does every player draw on?"),
    _DocumentOption("sheet_doc", None, "A whole city sheet of your own design, a JSON file "
                    "in the format roll-builder-sheet/1 (docs/formats.md); when given it "
                    "replaces the chosen sheet and is saved in the record.", type=dict,
                    note="The engine never reads files: it takes the parsed JSON document (its "
                         "text is accepted too); on the command line `-o sheet_file=PATH` reads "
                         "a regular file of at most 64 KiB and passes it here; "
                         "`load_game(..., sheet_file=...)` is refused.",
                    validate=_check_doc, kind="setup", source="issues 5 and 11: sheets as data",
                    label="Own city sheet",
                    question="Play on a city sheet of your own design?"),
    Option("dice_use", "separate", "'use the dice on the same action' means both dice may "
           "take the same action type, each die being its own action.", type=str,
           choices=("separate", "combine"), source=f"{_SOURCE}, B1; rulebook Fluxo do Jogo 3",
           alternatives={"combine": "additionally both dice may be spent together on one "
                         "action whose value is their sum (Build only up to 6)"},
           label="Using both dice",
           question="May both dice be added together for one action?"),
    Option("road_count", "up_to", "A Road action with die N places up to N roads; unplaced "
           "roads are lost at the end of the turn.", type=str, choices=("up_to", "all"),
           source=f"{_SOURCE}, B2; rulebook Ação de Estrada",
           alternatives={"all": "you may not end the turn while a road of a Road action can "
                         "still be placed"},
           label="Roads of a Road action",
           question="Must you place every road a Road die gives you?"),
    Option("marking", "any_time", "Marking a connected space with an X is free at any "
           "moment of your own turn.", type=str, choices=("any_time", "after_road_action"),
           source=f"{_SOURCE}, B3; rulebook Ação de Estrada",
           alternatives={"after_road_action": "spaces may only be marked in a turn in which "
                         "you took a Road action (revision-1 reading)"},
           label="When spaces may be marked",
           question="May you mark a connected space at any time in your turn?"),
    Option("building_uses_space", False, "Writing a building on an unmarked space does "
           "not use its icons; they can still be collected with an X later.", type=bool,
           source=f"{_SOURCE}, B4; rulebook Ação de Construção",
           alternatives={"true": "a building on an unmarked space marks it: its icons are "
                         "lost"},
           label="Building on an unmarked space",
           question="Does building on a space you have not marked lose its icons?"),
    Option("resource_timing", "immediate", "Food, supplies and every other gained unit "
           "must be assigned (innovation circle, track, storage or discarded) before you do "
           "anything else.", type=str, choices=("immediate", "end_of_turn"),
           source=f"{_SOURCE}, B6; rulebook Recursos",
           alternatives={"end_of_turn": "gained units may wait until the end of the turn "
                         "(unassigned ones are lost when you end it)"},
           label="When gained resources are placed",
           question=("Must gained resources be placed at once or may they wait until the end of "
                     "the turn?")),
)
