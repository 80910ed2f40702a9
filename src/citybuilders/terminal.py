"""Terminal play: humans type moves in notation, bots move by themselves.

Commands at the prompt: a move in notation, ``moves`` (list legal moves), ``hint`` (what greedy
would do), ``undo`` (your own actions since the last draw/roll/other player's move), ``score``,
``board``, ``save FILE`` (the position as ``State.to_json()``, for ``citybuilders moves FILE``),
``help``, ``quit``. End of input (Ctrl-D) quits.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

from .bots import make_bot
from .core.errors import CitybuildersError
from .core.game import CHANCE, TERMINAL, Game, State
from .core.i18n import normalize
from .core.i18n import gettext_now as _
from .core.i18n import current, ljust, localize, rjust, text_width
from .core.rng import derive_seed, make_rng
from .core.undo import undo_last, undoable_count

__all__ = ["play_terminal", "format_scores", "format_moves", "format_result", "format_rules"]

HELP_EN = """Type a move in notation (see 'moves'), or one of:
  moves   list your legal moves          hint   what the greedy bot would play
  undo    take back your last action     score  running scores with breakdown
  board   draw the board again           save FILE  write the position (JSON) to FILE
  rules   every card, tile, condition and symbol in play, with its rule
  help    this text                      quit   leave the game
Squares and hexes are written ROW,COL (rows counted downwards, columns to the right)."""
"""The prompt's help in English (the prompt shows :func:`help_text` in the current language)."""


def help_text() -> str:
    """The prompt's commands in the current language (the command words stay English)."""
    return _("Type a move in notation (see 'moves'), or one of:\n"
             "  moves   list your legal moves          hint   what the greedy bot would play\n"
             "  undo    take back your last action     score  running scores with breakdown\n"
             "  board   draw the board again           save FILE  write the position (JSON) to FILE\n"
             "  help    this text                      quit   leave the game\n"
             "Squares and hexes are written ROW,COL (rows counted downwards, columns to the "
             "right).")


HELP = HELP_EN

_COORD = re.compile(r"^-?\d+,-?\d+$")


def format_moves(texts: Sequence[str], width: int = 100) -> str:
    """Legal moves in notation, grouped for reading.

    Moves that differ only in one ``ROW,COL`` token are shown on one line as
    ``build ROW,COL: 0,1 0,2 ...``; other moves are listed comma-separated. ``texts`` is the
    notation of each legal move (any order is kept); returns the lines joined by newlines.
    """
    groups: dict[str, list[str]] = {}
    singles: list[str] = []
    for text in texts:
        tokens = text.split(" ")
        idx = [i for i, tok in enumerate(tokens) if _COORD.match(tok)]
        if len(idx) != 1:
            singles.append(text)
            continue
        i = idx[0]
        key = " ".join(tokens[:i] + ["ROW,COL"] + tokens[i + 1:])
        groups.setdefault(key, []).append(tokens[i])
    lines: list[str] = []
    for key, coords in groups.items():
        if len(coords) == 1:
            singles.append(key.replace("ROW,COL", coords[0]))
            continue
        line = f"{key} ({len(coords)}):"
        for c in coords:
            if len(line) + len(c) + 1 > width:
                lines.append(line)
                line = "   "
            line += " " + c
        lines.append(line)
    if singles:
        line = ""
        for s in singles:
            piece = s if not line else ", " + s
            if line and len(line) + len(piece) > width:
                lines.append(line + ",")
                line = s
            else:
                line += piece
        lines.append(line)
    return "\n".join(lines)


def format_result(state: State, names: Sequence[str] | None = None) -> str:
    """One line with the outcome of a finished game.

    Cooperative games: whether the players reached the target together (``returns()`` > 0);
    one player in a competitive game: the final score (and the solo rank from
    ``result_info()`` where the game has one); otherwise the winner(s) after the game's
    tie-breaks (``winners()``).
    """
    n = state.num_players
    names = list(names or [f"P{p + 1}" for p in range(n)])
    info = state.result_info() or {}
    if state.game.cooperative:
        won = bool(state.returns()) and state.returns()[0] > 0
        target = info.get("target")
        if n == 1:
            if target is None:
                return _("Result: you won") if won else _("Result: you lost")
            return (_("Result: you won (target {target} reached)", target=target) if won
                    else _("Result: you lost (target {target} not reached)", target=target))
        if target is None:
            return _("Result: the players won") if won else _("Result: the players lost")
        return (_("Result: the players won (target {target} reached)", target=target) if won
                else _("Result: the players lost (target {target} not reached)", target=target))
    if n == 1:
        total = state.scores()[0].total
        if "rank" in info:
            return _("Final score: {total} (rank: {rank})", total=total,
                     rank=_rank_name(state, info["rank"]))
        return _("Final score: {total}", total=total)
    winners = state.winners()
    if len(winners) == 1:
        return _("Winner: {names}", names=names[winners[0]])
    return _("Shared win: {names}", names=", ".join(names[p] for p in winners))


def _rank_name(state: State, rank: str) -> str:
    """A solo rank id in the current language (the game's ``texts.RANK_NAMES``)."""
    import importlib

    try:
        mod = importlib.import_module(type(state.game).__module__.rsplit(".", 1)[0] + ".texts")
        return str(getattr(mod.for_language(current()), "RANK_NAMES", {}).get(rank, rank))
    except (ImportError, AttributeError):
        return rank


def format_rules(state: State, lang: str | None = None) -> str:
    """The names and rules of everything in play (cards, tiles, conditions, buildings,
    symbols...) from the game's ``texts.rules_text`` in ``lang`` (any tag :func:`normalize`
    knows; None = the terminal's language from ``LC_ALL``/``LC_MESSAGES``/``LANG``); a game
    without rule texts gives an empty string."""
    texts = getattr(state.game, "texts", None)
    rules_text = getattr(texts, "rules_text", None)
    if rules_text is None:
        return ""
    return rules_text(state, normalize(lang) or current())


_PART_TABLES = ("CATEGORY_NAMES", "SCORING_NAMES", "CARD_NAMES", "ZONE_NAMES")
"""The ``texts`` tables that name a score part (Roll into Town's categories, Roll Builder's
scoring categories, Kingdom Builder's cards, Sprawlopolis' zones), searched in this order."""


def _part_name(state: State, key: str) -> str:
    """A score part's key (``hermits``, ``houses``, ``12 Superhighway``) in the current
    language: the key itself in English, else the first of the game's ``texts`` tables
    (:data:`_PART_TABLES`) that names it, else the interface catalog's word (``castles``)."""
    lang = current()
    if lang == "en":
        return key
    import importlib

    try:
        mod = importlib.import_module(type(state.game).__module__.rsplit(".", 1)[0] + ".texts")
        tables = mod.for_language(lang)
    except (ImportError, AttributeError):
        tables = None
    for table in _PART_TABLES:
        found = getattr(tables, "__dict__", {}).get(table, {}).get(key)
        if isinstance(found, str):
            return found
    number = re.fullmatch(r"(\d+) .+", key)  # a Sprawlopolis condition: "12 Superhighway"
    conditions = getattr(tables, "__dict__", {}).get("CONDITION_NAMES", {})
    if number and int(number.group(1)) in conditions:
        return f"{number.group(1)} {conditions[int(number.group(1))]}"
    return localize(key, lang)


def format_scores(state: State, names: Sequence[str] | None = None) -> str:
    """A plain-text table of every player's total and breakdown (part names in the current
    language; columns counted in terminal cells, CJK-aware)."""
    scores = state.scores()
    names = list(names or [f"P{p + 1}" for p in range(len(scores))])
    cats: list[str] = []
    for s in scores:
        for k in s.parts:
            if k not in cats:
                cats.append(k)
    labels = {c: _part_name(state, c) for c in cats}
    total = _("total")
    width = max([text_width(labels[c]) for c in cats] + [5, text_width(total)])
    head = "".ljust(width) + "".join(rjust(n, 12) for n in names)
    lines = [head]
    for c in cats:
        lines.append(ljust(labels[c], width)
                     + "".join(f"{s.parts.get(c, 0):>12}" for s in scores))
    lines.append(ljust(total, width) + "".join(f"{s.total:>12}" for s in scores))
    return "\n".join(lines)


def play_terminal(
    game: Game,
    seats: Sequence[str],
    seed: int = 0,
    color: bool = True,
    inp: Callable[[str], str] | None = None,
    out: TextIO | None = None,
    lang: str | None = None,
) -> State:
    """Play one game in the terminal; returns the final (or abandoned) state.

    ``seats``: one entry per player, ``"human"`` or a bot name; ``lang``: the language of the
    ``rules`` command (None = the environment's). Raises OptionError for a bad seat list or
    player count.
    """
    out = out or sys.stdout
    read = inp or input
    n = game.check_num_players(len(seats))
    bots = {p: make_bot(name, derive_seed(seed, "bot", p)) for p, name in enumerate(seats)
            if name != "human"}
    # "P1 (human)", "P2 (greedy)": the seat's kind in the reader's words (the bots' names
    # are msgids of the interface catalog: the lobby's bot levels)
    names = [_("P{num} ({seat})", num=p + 1, seat=_("human") if name == "human" else _(name))
             for p, name in enumerate(seats)]
    state = game.new_initial_state(n, seed)
    chance = make_rng(seed, "chance")
    hinter = make_bot("greedy", derive_seed(seed, "hint"))

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    say(f"{game.title} — {', '.join(names)} — " + _("seed {seed}", seed=seed))
    setup = game.describe_setup(state)
    # said once: a human will see the board before the first prompt, so the setup line is
    # left out when the board text already carries it (Roll Builder's sheet name, Sprawlopolis'
    # conditions); with bots only it is printed, the board only comes at the end
    # the setup line is notation-like English (sim rows, lobby): in another language the
    # board, which names the same setup in the reader's words, stands for it
    if setup and not ("human" in seats and (current() != "en"
                                            or setup in state.render_text(None, color=False))):
        say(setup)
    shown_for: tuple[int, int] | None = None
    hinted = False
    while True:
        cp = state.current_player()
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            state.apply_legal(state.sample_chance(chance))
            continue
        # in simultaneous phases humans and bots act one after another in seat order
        player = cp
        if player in bots:
            a = bots[player].step(state, player)
            say(f"{names[player]}: {state.action_to_string(a, player)}")
            state.apply_legal(a, player)
            continue
        if shown_for != (player, state.move_number()):
            say("")
            say(state.render_text(player, color=color))
            shown_for = (player, state.move_number())
            if not hinted and state.legal_actions(player):
                hinted = True
                example = state.action_to_string(state.legal_actions(player)[0], player)
                say(_("(type a move, e.g. '{example}'; 'moves' lists them all, 'hint' suggests "
                      "one, 'rules' explains what is in play, 'help' shows the commands)",
                      example=example))
        try:
            line = read(f"{names[player]}> ")
        except EOFError:
            say("\n" + _("(end of input: game abandoned)"))
            return state
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            continue
        if low in ("quit", "exit", "q"):
            say(_("game abandoned"))
            return state
        if low in ("help", "?"):
            say(help_text())
            continue
        if low == "rules":
            say(format_rules(state, lang) or _("no rule texts for this game"))
            continue
        if low in ("moves", "legal"):
            legal = state.legal_actions(player)
            say(format_moves([state.action_to_string(a, player) for a in legal]))
            continue
        if low == "save" or low.startswith("save "):
            target = cmd[4:].strip()
            if not target:
                say(_("usage: save FILE (writes the position as JSON; "
                      "'citybuilders moves FILE' lists its legal moves)"))
                continue
            try:
                Path(target).write_text(json.dumps(state.to_json()) + "\n", encoding="utf-8")
            except OSError as exc:
                say(_("error: cannot write {target}: {reason}", target=target,
                      reason=exc.strerror))
                continue
            say(_("saved the position to {target}", target=target))
            continue
        if low == "hint":
            a = hinter.step(state.clone(), player)
            say(_("hint: {move}", move=state.action_to_string(a, player)))
            continue
        if low == "score":
            say(format_scores(state, names))
            continue
        if low == "board":
            shown_for = None
            continue
        if low == "undo":
            if undoable_count(state, player) == 0:
                say(_("nothing to undo: only your own actions since the last draw, roll or "
                      "other player's move"))
                continue
            state = undo_last(state, player)
            shown_for = None
            continue
        try:
            a = state.string_to_action(cmd, player)
            state.apply_action(a, player)
        except CitybuildersError as exc:
            say(_("error: {message}", message=localize(exc, current())))
            continue
    say("")
    say(state.render_text(None, color=color))
    say("")
    say(_("Final scores"))
    say(format_scores(state, names))
    say(format_result(state, names))
    return state
