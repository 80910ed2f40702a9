"""Presentation and strategy hooks: how the core, the bots and the server reach a game's
``render.py`` and ``strategy.py`` without the rules importing them.

A game's ``game.py`` wires them in as class attributes of its :class:`~citybuilders.core.game.Game`::

    class MyGame(Game):
        view = MyView()          # from render.py
        strategy = MyStrategy()  # from strategy.py

and ``State.render_svg`` / ``State.evaluate`` ... delegate to ``state.game.view`` /
``state.game.strategy``. The defaults here are what a game without that room gets.

Layers (one way): core <- rules <- render/strategy/texts <- bots/sim/rl/server/cli.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover - types only
    from .game import State

__all__ = ["View", "Strategy", "Panel", "esc", "prompt_of", "move_in_words"]

Panel = dict[str, Any]
"""One "Your view" panel of the web pages: ``{"title": str, "value": JSON}``."""


def esc(text: object) -> str:
    """``text`` made safe for SVG/HTML text and attribute values (``& < > " '`` escaped).

    The one escaping helper of every SVG builder: any text that may come from a user, a sheet
    file or a record (names, innovation titles, notation) goes through it."""
    return html.escape(str(text), quote=True)


def prompt_of(paths: Sequence[Sequence[str]], phrases: dict[str, Any], lang: str = "en"
              ) -> str | None:
    """A :meth:`View.prompt` from a game's table ``phrases``: the kind of a first click (the
    key up to its ``:`` or first space, e.g. ``"hex"`` of ``"hex:7,12"``, ``"discard"``
    of ``"discard wealth"``) -> a message (``N_``) saying what
    to do with it; the kinds present in ``paths`` are said in the table's order, joined by
    "or". None when a first click's kind is not in the table."""
    from .i18n import N_, localize

    kinds = {p[0].split(":", 1)[0].split(" ", 1)[0] for p in paths if p}
    if not kinds or not kinds <= phrases.keys():
        return None
    said = [localize(m, lang) for k, m in phrases.items() if k in kinds]
    text = said[-1]
    for first in reversed(said[:-1]):
        text = localize(N_("{first}, or {then}", first=first, then=text), lang)
    return text


def move_in_words(text: str, forms: Sequence[tuple["re.Pattern[str]", str]],
                  sentences: Mapping[str, str], words: Mapping[str, str]) -> str | None:
    """A move's notation as a sentence a person reads (a hint: "play card 15 turned upside
    down, its top-left block on row 0, column 0" for ``"play 15 at 0,0 rot 180"``): the first
    of ``forms`` (``(pattern, key)``, the pattern's named groups the sentence's placeholders)
    that matches all of ``text`` picks ``sentences[key]`` (the game's texts table in the
    reader's language); each group's words are glossed with ``words`` (the game's
    ``NOTATION_WORDS`` in that language). None when no form matches (the caller shows the
    glossed notation)."""
    from .i18n import gloss

    for rx, key in forms:
        m = rx.fullmatch(text)
        if m and key in sentences:
            params = {k: gloss(v or "", words) for k, v in m.groupdict().items()}
            try:
                return sentences[key].format(**params)
            except (KeyError, IndexError, ValueError):
                return None
    return None


class View:
    """Presentation of a game's states. Override what the game draws; every method takes the
    state first. Never imported by the rules."""

    def render_text(self, state: "State", player: int | None = None, color: bool = False) -> str:
        """Terminal drawing of ``state`` from ``player``'s view (None = public view)."""
        return json.dumps(state.observation(player if player is not None else 0), indent=1)

    def render_svg(self, state: "State", player: int | None = None, lang: str = "en") -> str:
        """SVG drawing from ``player``'s view; interactive elements carry ``data-key``
        attributes matched by :meth:`action_path`. Every element a rule explains carries a
        ``<title>`` (first line: its name, then its rule; texts from the game's
        ``texts.for_language(lang)``) which the play page shows as a popover; elements a log
        line may name carry ``data-at`` (see :meth:`log_keys`)."""
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"

    def log_keys(self, text: str) -> list[str]:
        """The board elements a log line's notation names (``"build 11,4"`` ->
        ``["hex:11,4"]``): values matched against the SVG's ``data-key`` and ``data-at``
        attributes, so the page can highlight a line's hexes/blocks/cells on hover, outline
        each player's last turn and mark a replay step's move. Default: none."""
        return []

    def final_actions(self, state: "State", player: int, legal: Sequence[int]) -> set[int]:
        """The actions of ``legal`` that cannot be taken back once made (the undo policy of
        ``core/undo.py`` stops at them: a draw or roll follows, the turn passes): the play
        page asks for a confirmation before sending one. Default: none."""
        return set()

    def prompt(self, state: "State", player: int, paths: Sequence[Sequence[str]],
               lang: str = "en") -> str | None:
        """What ``player`` is to do now, in words for the play page's status line (``"build a
        settlement on a highlighted hex (2 left)"``, ``"end your turn"``): ``paths`` are the
        click paths of ``player``'s legal actions (:meth:`action_path`). None (the default):
        the page words it from the kinds of targets."""
        return None

    def legend(self, lang: str = "en") -> list[tuple[str, str]]:
        """The key of every symbol the SVG draws: ``[(symbol, meaning), ...]`` in ``lang``,
        shown under the board as the "Legend" panel. Default: none."""
        return []

    def action_path(self, state: "State", action: int, player: int | None = None
                    ) -> tuple[str, ...]:
        """Click path of ``action`` for the web UI: ``data-key`` values of SVG elements (e.g.
        ``("hex:7,12", "hex:9,12")``); a key without an element is shown as a button.
        Default: one button with the action's notation."""
        return (state.action_to_string(action, player),)

    def thumbnail_box(self, state: "State") -> tuple[float, float, float, float] | None:
        """The part of :meth:`render_svg` (public view) that makes the lobby's small picture,
        as an SVG viewBox ``(x, y, width, height)``: a roll-and-write's map without the text
        lines around it, big enough to read in a 180-pixel card. Default: None (all of it)."""
        return None

    def move_words(self, text: str, lang: str = "en") -> str | None:
        """The notation ``text`` of a move as a sentence in ``lang`` (the hint line), or None
        for the glossed notation (:func:`move_in_words` builds it from the game's forms).
        Default: None."""
        return None

    def display_panels(self, obs: Any, names: Sequence[str], you: int | None,
                       terminal: bool) -> list[Panel] | None:
        """The "Your view" panels of seat ``you``'s observation ``obs`` (see
        ``core/panels.py`` for helpers), or None for the generic panels. ``names``: seat
        names in seat order; ``you``: the viewing seat or None (a replay)."""
        return None


class Strategy:
    """Evaluation and greedy policy of a game. Never imported by the rules."""

    search_helps: bool = True
    """False where the greedy policy plans better than a search over :meth:`evaluate`: the
    ``hard`` and ``expert`` levels then play greedy (bots/levels.py)."""

    def evaluate(self, state: "State", player: int) -> float:
        """Greedy bot's value of ``state`` for ``player`` (default: the score total)."""
        return float(state.scores()[player].total)

    def greedy_action(self, state: "State", player: int, rng: random.Random) -> int | None:
        """A fast greedy move for ``player``, or None for the generic one-ply search."""
        return None

    def planned_action(self, state: "State", player: int, rng: random.Random,
                       seconds: float) -> int | None:
        """A move for ``player`` that plans further than :meth:`greedy_action` (a look-ahead
        within the hand, dice or turn), using about ``seconds`` of CPU at most; None (the
        default) when the game has no planner. Where a game returns moves here, the ``hard``
        and ``expert`` levels play them instead of searching (bots/levels.py)."""
        return None
