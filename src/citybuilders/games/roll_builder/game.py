"""Roll Builder (registry id ``roll-builder``): the game class that wires the rooms together.

* rules: rules/ (state, legal moves, moves, effects, player sheet, geometry, tables, options);
* presentation: render.py (``RollBuilderView``) with texts.py; strategy: strategy.py
  (``RollBuilderStrategy``);
* data: loader.py (sheet format, shipped sheets); scoring.py; scorefile.py (score calculator).

Action notation: actions.py and docs/games/roll-builder.md.
"""

from __future__ import annotations

from typing import Any, Mapping

from citybuilders.core.errors import OptionError

from .render import RollBuilderView
from .rules.state import RollBuilderRules, RollBuilderState
from .scorefile import RollBuilderScore, score_file
from .strategy import RollBuilderStrategy
from . import texts as _texts
from ...core.i18n import N_

__all__ = ["RollBuilderGame", "RollBuilderState"]


class RollBuilderGame(RollBuilderRules):
    """Roll Builder: 1-6 players, simultaneous, 15 turns (options: rules/options.py).

    The game never opens files: ``sheet_file`` is refused here with an OptionError (the command
    line reads the file and passes the document as ``sheet_doc``). Raises OptionError for a bad
    option (one line naming it).
    """

    view = RollBuilderView()
    texts = _texts
    """Player-facing names and rule texts (``texts.py``; ``texts.rules_text(state, lang)``)."""
    strategy = RollBuilderStrategy()

    def __init__(self, **options: Any) -> None:
        if "sheet_file" in options and options["sheet_file"] is None:
            # records saved before issue 11 list every option, ``"sheet_file": null`` included
            options = {k: v for k, v in options.items() if k != "sheet_file"}
        if "sheet_file" in options:
            raise OptionError(
                N_("option 'sheet_file' of roll-builder: the game does not read files; pass "
                   "the parsed sheet document as 'sheet_doc' (the command line's -o "
                   "sheet_file=PATH reads the file and does this)"))
        super().__init__(**options)

    def score_file(self, data: Mapping[str, Any]) -> RollBuilderScore:
        """Score a sheet-state file (docs/formats.md, Roll Builder). Raises FormatError."""
        from . import texts

        result = score_file(data)
        result.texts = texts
        return result
