"""Undo under Board Game Arena's policy, shared by terminal play and the web server.

A player may take back their own actions of the current turn/phase, never across a chance event
(draw, roll, reveal) or another player's action. Undo works on the history: the undoable actions
are the trailing run of ``player``'s own actions with no chance or other actor after them, minus
any the game marks as final via ``State.undo_blocked_after`` (optional hook).

Simultaneous turns (opt-in): a state whose ``undo_per_player()`` method returns True (Roll Builder)
lets a player take back their own actions since the last chance event even when other players'
independent actions are interleaved; those stay in place (:func:`undo_own_last`).
"""

from __future__ import annotations

from .game import State

__all__ = ["undoable_count", "undo_last", "undo_own_last"]


def _per_player(state: State) -> bool:
    hook = getattr(state, "undo_per_player", None)
    return bool(hook is not None and hook())


def undoable_count(state: State, player: int) -> int:
    """How many trailing history entries ``player`` may take back now.

    For states with ``undo_per_player()`` True: ``player``'s own entries since the last chance
    entry, other players' entries skipped.
    """
    hist = state._history
    if _per_player(state):
        blocked = getattr(state, "undo_blocked_after", None)
        n = 0
        for i in range(len(hist) - 1, -1, -1):
            actor = hist[i][0]
            if actor < 0 or (blocked is not None and blocked(i)):
                break
            if actor == player:
                n += 1
        return n
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
    if _per_player(state):
        return undo_own_last(state, player)
    return rebuild(state, len(state._history) - 1)


def undo_own_last(state: State, player: int) -> State:
    """Simultaneous turns: a new state with ``player``'s last own action of the current phase
    taken back and every other player's action kept (replayed in order).

    Only for games whose players do not interact within a phase. Raises IllegalActionError if
    ``player`` has no action since the last chance event.
    """
    from .errors import IllegalActionError

    hist = state._history
    blocked = getattr(state, "undo_blocked_after", None)
    idx = None
    for i in range(len(hist) - 1, -1, -1):
        actor = hist[i][0]
        if actor < 0 or (blocked is not None and blocked(i)):
            break
        if actor == player:
            idx = i
            break
    if idx is None:
        raise IllegalActionError(
            "nothing to undo: only your own actions since the last roll can be taken back"
        )
    s = state.game.new_initial_state(state.num_players, state.seed)
    for i, (actor, action) in enumerate(hist):
        if i != idx:
            s.apply_legal(action, actor if actor >= 0 else None)
    return s


def rebuild(state: State, upto: int) -> State:
    """Replay the first ``upto`` history entries of ``state`` on a fresh initial state."""
    game = state.game
    s = game.new_initial_state(state.num_players, state.seed)
    for actor, action in state._history[:upto]:
        s.apply_legal(action, actor if actor >= 0 else None)
    return s
