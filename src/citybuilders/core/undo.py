"""Undo under Board Game Arena's policy, shared by terminal play and the web server.

A player may take back their own actions of the current turn/phase, never across a chance event
(draw, roll, reveal) or another player's action. Undo works on the history: the undoable actions
are the trailing run of ``player``'s own actions with no chance or other actor after them, minus
any the game marks as final via ``State.undo_blocked_after`` (optional hook).
"""

from __future__ import annotations

from .game import State

__all__ = ["undoable_count", "undo_last"]


def undoable_count(state: State, player: int) -> int:
    """How many trailing history entries ``player`` may take back now."""
    hist = state._history
    n = 0
    for actor, action in reversed(hist):
        if actor != player:
            break
        blocked = getattr(state, "undo_blocked_after", None)
        if blocked is not None and blocked(len(hist) - n - 1):
            break
        n += 1
    return n


def undo_last(state: State, player: int) -> State:
    """A new state equal to ``state`` with ``player``'s last action taken back.

    Rebuilt by replaying the history (exact). Raises IllegalActionError if nothing is undoable.
    """
    from .errors import IllegalActionError

    if undoable_count(state, player) == 0:
        raise IllegalActionError(
            "nothing to undo: only your own actions since the last draw, roll or other "
            "player's move can be taken back"
        )
    return rebuild(state, len(state._history) - 1)


def rebuild(state: State, upto: int) -> State:
    """Replay the first ``upto`` history entries of ``state`` on a fresh initial state."""
    game = state.game
    s = game.new_initial_state(state.num_players, state.seed)
    for actor, action in state._history[:upto]:
        s.apply_legal(action, actor if actor >= 0 else None)
    return s
