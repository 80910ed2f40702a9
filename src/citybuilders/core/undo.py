"""Undo under Board Game Arena's policy, shared by terminal play and the web server.

A player may take back their own actions of the current turn/phase, never across a chance event
(draw, roll, reveal) or another player's action. Undo works on the history: the undoable actions
are the trailing run of ``player``'s own actions with no chance or other actor after them, minus
any the game marks as final via ``State.undo_blocked_after`` (optional hook).

Simultaneous turns (opt-in): a state whose ``undo_per_player()`` method returns True (Roll Builder)
lets a player take back their own actions since the last chance event even when other players'
independent actions are interleaved; those stay in place.
"""

from __future__ import annotations

from .game import State
from .i18n import N_

__all__ = ["undoable_count", "undo_last", "rebuild"]


def _per_player(state: State) -> bool:
    hook = getattr(state, "undo_per_player", None)
    return bool(hook is not None and hook())


def _undoable_indices(state: State, player: int) -> list[int]:
    """History indices of ``player``'s entries that may be taken back now, newest first.

    The scan from the end stops at a chance entry, at an index the game blocks
    (``undo_blocked_after``) and, unless the state opts into per-player undo, at another player's
    entry (per-player: other players' entries are skipped).
    """
    hist = state._history
    blocked = getattr(state, "undo_blocked_after", None)
    per_player = _per_player(state)
    out: list[int] = []
    for i in range(len(hist) - 1, -1, -1):
        if blocked is not None and blocked(i):
            break
        actor = hist[i][0]
        if actor == player:
            out.append(i)
        elif actor < 0 or not per_player:
            break
    return out


def undoable_count(state: State, player: int) -> int:
    """How many history entries ``player`` may take back now (see :func:`_undoable_indices`)."""
    return len(_undoable_indices(state, player))


def undo_last(state: State, player: int) -> State:
    """A new state equal to ``state`` with ``player``'s last undoable action taken back.

    Rebuilt by replaying the history without that entry (exact); in per-player mode the other
    players' later actions of the phase are kept. Raises IllegalActionError if nothing is
    undoable.
    """
    from .errors import IllegalActionError

    indices = _undoable_indices(state, player)
    if not indices:
        raise IllegalActionError(
            N_("nothing to undo: only your own actions since the last draw, roll or other "
               "player's move can be taken back")
        )
    return rebuild(state, skip=indices[0])


def rebuild(state: State, upto: int | None = None, skip: int | None = None) -> State:
    """Replay ``state``'s history on a fresh initial state: the first ``upto`` entries (all if
    None), leaving out entry ``skip`` if given."""
    s = state.game.new_initial_state(state.num_players, state.seed)
    hist = state._history if upto is None else state._history[:upto]
    for i, (actor, action) in enumerate(hist):
        if i != skip:
            s.apply_legal(action, actor if actor >= 0 else None)
    return s
