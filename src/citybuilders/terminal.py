"""Terminal play: humans type moves in notation, bots move by themselves.

Commands at the prompt: a move in notation, ``moves`` (list legal moves), ``hint`` (what greedy
would do), ``undo`` (your own actions since the last draw/roll/other player's move), ``score``,
``board``, ``help``, ``quit``. End of input (Ctrl-D) quits.
"""

from __future__ import annotations

import sys
from typing import Callable, Sequence, TextIO

from .bots import make_bot
from .core.errors import CitybuildersError
from .core.game import CHANCE, TERMINAL, Game, State
from .core.rng import derive_seed, make_rng
from .core.undo import undo_last, undoable_count

__all__ = ["play_terminal", "format_scores"]

HELP = """Type a move in notation (see 'moves'), or one of:
  moves   list your legal moves          hint   what the greedy bot would play
  undo    take back your last action     score  running scores with breakdown
  board   draw the board again           help   this text
  quit    leave the game"""


def format_scores(state: State, names: Sequence[str] | None = None) -> str:
    """A plain-text table of every player's total and breakdown."""
    scores = state.scores()
    names = list(names or [f"P{p + 1}" for p in range(len(scores))])
    cats: list[str] = []
    for s in scores:
        for k in s.parts:
            if k not in cats:
                cats.append(k)
    width = max([len(c) for c in cats] + [5])
    head = "".ljust(width) + "".join(f"{n:>12}" for n in names)
    lines = [head]
    for c in cats:
        lines.append(c.ljust(width) + "".join(f"{s.parts.get(c, 0):>12}" for s in scores))
    lines.append("total".ljust(width) + "".join(f"{s.total:>12}" for s in scores))
    return "\n".join(lines)


def play_terminal(
    game: Game,
    seats: Sequence[str],
    seed: int = 0,
    color: bool = True,
    inp: Callable[[str], str] | None = None,
    out: TextIO | None = None,
) -> State:
    """Play one game in the terminal; returns the final (or abandoned) state.

    ``seats``: one entry per player, ``"human"`` or a bot name. Raises OptionError for a bad
    seat list or player count.
    """
    out = out or sys.stdout
    read = inp or input
    n = game.check_num_players(len(seats))
    bots = {p: make_bot(name, derive_seed(seed, "bot", p)) for p, name in enumerate(seats)
            if name != "human"}
    names = [f"P{p + 1} ({name})" for p, name in enumerate(seats)]
    state = game.new_initial_state(n, seed)
    chance = make_rng(seed, "chance")
    hinter = make_bot("greedy", derive_seed(seed, "hint"))

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    say(f"{game.title} — {', '.join(names)} — seed {seed}")
    setup = game.describe_setup(state)
    if setup:
        say(setup)
    shown_for: tuple[int, int] | None = None
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
        if shown_for != (player, len(state._history)):
            say("")
            say(state.render_text(player, color=color))
            shown_for = (player, len(state._history))
        try:
            line = read(f"{names[player]}> ")
        except EOFError:
            say("\n(end of input: game abandoned)")
            return state
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            continue
        if low in ("quit", "exit", "q"):
            say("game abandoned")
            return state
        if low in ("help", "?"):
            say(HELP)
            continue
        if low in ("moves", "legal"):
            legal = state.legal_actions(player)
            say(", ".join(state.action_to_string(a, player) for a in legal))
            continue
        if low == "hint":
            a = hinter.step(state.clone(), player)
            say(f"hint: {state.action_to_string(a, player)}")
            continue
        if low == "score":
            say(format_scores(state, names))
            continue
        if low == "board":
            shown_for = None
            continue
        if low == "undo":
            if undoable_count(state, player) == 0:
                say("nothing to undo: only your own actions since the last draw, roll or "
                    "other player's move")
                continue
            state = undo_last(state, player)
            shown_for = None
            continue
        try:
            a = state.string_to_action(cmd, player)
            state.apply_action(a, player)
        except CitybuildersError as exc:
            say(f"error: {exc}")
            continue
    say("")
    say(state.render_text(None, color=color))
    say("")
    say("Final scores")
    say(format_scores(state, names))
    winners = state.winners()
    say("Winner: " + ", ".join(names[p] for p in winners) if len(winners) == 1
        else "Shared win: " + ", ".join(names[p] for p in winners))
    return state
