"""Game records: ``{game, rules_version, options, num_players, seed, actions}`` as JSON.

``actions`` lists every applied action in order, chance outcomes included. An entry is an int
(applied for the player to move, or for chance) or a pair ``[player, action]`` for a player who
acted in a simultaneous phase. Replaying a record gives the identical state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import CitybuildersError, RecordError, short
from .game import State, chance_viewer_of
from .registry import load_game
from .i18n import N_, json_reason
from .names import check_name

__all__ = ["Record", "record_of", "replay", "load_record", "visible_history"]


@dataclass
class Record:
    """A replayable game record (see module docstring)."""

    game: str
    rules_version: str
    options: dict[str, Any]
    num_players: int
    seed: int
    actions: list[Any] = field(default_factory=list)
    players: list[str] | None = None
    """The seat names in seat order (optional: records without names stay valid)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-able dict in the documented record format (``players`` only when known)."""
        out: dict[str, Any] = {
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "num_players": self.num_players,
            "seed": self.seed,
            "actions": list(self.actions),
        }
        if self.players is not None:
            out["players"] = list(self.players)
        return out

    def dumps(self) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_json())


def record_of(state: State) -> Record:
    """The record of ``state``'s game so far (contains every hidden outcome: not for players)."""
    simultaneous = state.game.simultaneous
    actions: list[Any] = []
    for actor, action in state._history:
        if actor >= 0 and simultaneous:
            actions.append([actor, action])
        else:
            actions.append(action)
    return Record(
        game=state.game.name,
        rules_version=state.game.rules_version,
        options=dict(state.game.options),
        num_players=state.num_players,
        seed=state.seed,
        actions=actions,
    )


RECORD_KEYS = ("game", "rules_version", "options", "num_players", "seed", "actions", "players",
               "complete")
"""The keys a record may have (docs/formats.md); ``complete`` is written by the web server's
export (false for a running game's)."""


def load_record(data: Mapping[str, Any] | str) -> Record:
    """Validate a record given as dict or JSON text. Raises RecordError naming the bad field."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(N_("record: not valid JSON ({msg} at line {lineno})",
                                 msg=json_reason(exc), lineno=exc.lineno)) from None
    if not isinstance(data, Mapping):
        raise RecordError(N_("record: expected a JSON object"))
    extra = sorted(str(k) for k in data if k not in RECORD_KEYS)
    if extra:
        raise RecordError(N_("record: unknown key {short}; allowed: {allowed}",
                             short=short(extra[0]), allowed=", ".join(RECORD_KEYS)))
    for key, typ in (("game", str), ("num_players", int), ("seed", int), ("actions", list)):
        if key not in data:
            raise RecordError(N_("record: missing key '{key}'", key=key))
        if not isinstance(data[key], typ) or isinstance(data[key], bool):
            raise RecordError(N_("record: '{key}' must be {name__}", key=key, name__=typ.__name__))
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError(N_("record: 'options' must be an object"))
    return Record(
        game=data["game"],
        rules_version=str(data.get("rules_version", "")),
        options=dict(options),
        num_players=data["num_players"],
        seed=data["seed"],
        actions=list(data["actions"]),
        players=_players_of(data),
    )


def _players_of(data: Mapping[str, Any]) -> list[str] | None:
    """The optional ``players`` field: one name per seat (``core.names.check_name``: 1 to 40
    characters, one line). Raises RecordError naming the field."""
    if data.get("players") is None:
        return None
    names = data["players"]
    n = data["num_players"]
    if not isinstance(names, list) or len(names) != n:
        raise RecordError(N_("record: 'players' must be a list of {n} seat names", n=n))
    return [str(check_name(name, f"record: players[{i}]", error=RecordError))
            for i, name in enumerate(names)]


def replay(
    record: Record | Mapping[str, Any] | str,
    upto: int | None = None,
    on_move: Callable[[int, int, str], None] | None = None,
) -> State:
    """Replay a record (optionally only its first ``upto`` actions) and return the state.

    ``on_move(number, actor, notation)`` is called after each applied move (1-based number,
    history actor code, the move's notation in the position before it).

    Raises RecordError for another rules version, a bad option, or an illegal action (naming the
    1-based move number and the move).

    >>> import citybuilders
    >>> state = citybuilders.load_game("sprawlopolis").new_initial_state(num_players=1, seed=4)
    >>> while not state.is_terminal():
    ...     state.apply_action(state.legal_actions()[0])
    >>> record = record_of(state).to_json()
    >>> record["game"], record["num_players"], len(record["actions"]) == state.move_number()
    ('sprawlopolis', 1, True)
    >>> replay(record) == state
    True
    >>> replay(dict(record, actions=record["actions"][:3] + ["build"]))
    Traceback (most recent call last):
        ...
    citybuilders.core.errors.RecordError: record: move 4: expected an action number, got 'build'
    """
    rec = record if isinstance(record, Record) else load_record(record)
    try:
        game = load_game(rec.game, **rec.options)
    except CitybuildersError as exc:
        raise RecordError(N_("record: {exc}", exc=exc)) from None
    if rec.rules_version and rec.rules_version != game.rules_version:
        raise RecordError(
            N_("record: made with {name} rules version {rules_version}, this is rules version "
               "{rules_version2}",
               name=game.name, rules_version=rec.rules_version, rules_version2=game.rules_version)
        )
    try:
        state = game.new_initial_state(rec.num_players, rec.seed)
    except CitybuildersError as exc:
        raise RecordError(N_("record: {exc}", exc=exc)) from None
    actions = rec.actions if upto is None else rec.actions[:upto]
    for i, entry in enumerate(actions, start=1):
        player = None
        if isinstance(entry, (list, tuple)) and len(entry) == 2:
            player, action = entry
        else:
            action = entry
        if isinstance(action, bool) or not isinstance(action, int) or (
            player is not None and (isinstance(player, bool) or not isinstance(player, int))
        ):
            raise RecordError(N_("record: move {i}: expected an action number, got {entry!r}",
                                 i=i, entry=entry))
        text = ""
        if on_move is not None:
            try:
                text = state.action_to_string(action, player)
            except Exception:  # noqa: BLE001 - an illegal id is reported by apply_action below
                text = str(action)
        try:
            state.apply_action(action, player)
        except CitybuildersError as exc:
            raise RecordError(N_("record: move {i}: {exc}", i=i, exc=exc)) from None
        if on_move is not None:
            on_move(i, state._history[-1][0], text)
    return state


def visible_history(state: State, player: int) -> list[Any]:
    """The history as ``player`` may see it: hidden chance outcomes replaced by None."""
    out: list[Any] = []
    for actor, action in state._history:
        viewer = chance_viewer_of(actor)
        out.append(None if viewer is not None and viewer != player else action)
    return out

