"""The OpenSpiel-shaped Game/State protocol shared by every game.

A :class:`Game` holds validated options and creates states; a :class:`State` is one position.
Players are ``0..num_players-1``; :data:`CHANCE` and :data:`TERMINAL` are the special values of
``current_player()``. Actions are non-negative integers below ``game.num_distinct_actions()``
with a readable notation (``action_to_string`` / ``string_to_action``).

Randomness (rules: "chance stays small"):

* ``new_initial_state(seed=...)`` draws only *public* setup from the seed (board sections,
  Kingdom Builder cards, conditions, start player) unless options fix it.
* Every hidden or later random event (a card draw, one die) is an explicit chance node: the
  state's ``current_player()`` is :data:`CHANCE`, ``chance_outcomes()`` lists
  ``(action, probability)`` and ``sample_chance(rng)`` draws one quickly. Chance outcomes are
  recorded in the history like any action, so a record replays exactly.

History entries are ``(actor, action)``; ``actor`` is a player index, :data:`CHANCE` for a public
chance outcome, or ``private_chance(p)`` for an outcome only player ``p`` may see (a drawn card).

Simultaneous roll-and-writes: several players may act in the same phase; ``active_players()`` lists
them and ``legal_actions(player)`` / ``apply_action(action, player)`` take the acting player.
``current_player()`` is then the lowest active player, so sequential tools still work.

Subclasses implement the abstract ``_``-methods; the public wrappers here add validation,
history bookkeeping and JSON envelopes.

Example: a Kingdom Builder game starts with each player's hidden terrain card drawn at a
chance node only that player sees; actions are integers with a readable notation:

>>> import citybuilders
>>> game = citybuilders.load_game("kingdom-builder", preset="first-game")
>>> state = game.new_initial_state(num_players=2, seed=1)
>>> state.current_player() == CHANCE, state.chance_viewer()
(True, 0)
>>> state.chance_outcomes()[0]
(0, 0.2)
>>> state.apply_action(0)            # P1 draws grass (only P1 sees it)
>>> state.apply_action(1)            # P2 draws canyon
>>> state.current_player()
0
>>> first = state.legal_actions()[0]
>>> state.action_to_string(first), state.string_to_action("build 3,4") == first
('build 3,4', True)
>>> state.history()                  # (actor, action): private_chance(0) == -10
[(-10, 0), (-11, 1)]
>>> state.apply_action(10**6)
Traceback (most recent call last):
    ...
citybuilders.core.errors.IllegalActionError: 1000000 is not a Kingdom Builder action
>>> copy = state.clone(); copy == state, copy is state
(True, False)
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from .errors import IllegalActionError, RecordError
from .options import Option, resolve_options
from .view import Strategy, View
from .i18n import N_

__all__ = [
    "CHANCE",
    "TERMINAL",
    "private_chance",
    "chance_viewer_of",
    "PlayerScore",
    "Game",
    "State",
    "ScoreResult",
    "SEED_MAX",
    "check_seed",
]

CHANCE = -1
"""``current_player()`` value at a chance node (card draw, die roll)."""
TERMINAL = -4
"""``current_player()`` value once the game is over."""
_PRIVATE_BASE = -10
SEED_MAX = 2**63 - 1
"""Largest game seed (seeds are 0..2**63-1: they fit a signed 64-bit database column)."""


def check_seed(seed: Any, where: str = "seed") -> int:
    """``seed`` if it is an integer from 0 to ``SEED_MAX``; else OptionError naming ``where``.

    The one seed range of new games: the CLI's ``--seed`` and the server's create and import
    (its database stores seeds as signed 64-bit integers). Replaying a record in the core
    accepts any integer seed (records made with other seeds stay replayable)."""
    from .errors import OptionError

    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        big = isinstance(seed, int) and seed.bit_length() >= 80
        shown = N_("a larger one") if big else repr(seed)[:40]
        raise OptionError(N_("{where}: expected an integer from 0 to 2**63-1, got {shown}",
                             where=where, shown=shown))
    return seed



def private_chance(player: int) -> int:
    """History actor code for a chance outcome only ``player`` may see."""
    return _PRIVATE_BASE - player


def chance_viewer_of(actor: int) -> int | None:
    """Inverse of :func:`private_chance`: the viewing player, or None for public/player actors."""
    return _PRIVATE_BASE - actor if actor <= _PRIVATE_BASE else None


@dataclass(slots=True)
class PlayerScore:
    """One player's score: ``total`` points and a breakdown ``parts`` (category -> points).

    ``extra`` holds non-point facts worth showing (e.g. ``{"won": True, "target": 23}``).
    """

    total: int
    parts: dict[str, int] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict ``{"total": int, "parts": {...}, **extra}``."""
        d: dict[str, Any] = {"total": self.total, "parts": dict(self.parts)}
        d.update(self.extra)
        return d


class Game(ABC):
    """A game with validated options; a factory of states.

    Class attributes to set in a subclass: ``name`` (registry id, e.g. ``"kingdom-builder"``),
    ``title``, ``min_players``, ``max_players``, ``default_players``, ``rules_version``,
    ``option_specs`` and ``simultaneous`` (True for roll-and-writes); ``view`` (the game's
    ``render.py`` :class:`~citybuilders.core.view.View`) and ``strategy`` (its ``strategy.py``
    :class:`~citybuilders.core.view.Strategy`), wired in by the game's ``game.py``.

    Raises:
        OptionError: from ``__init__`` for an unknown option or a bad value.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    default_players: ClassVar[int] = 2
    rules_version: ClassVar[str] = "1"
    option_specs: ClassVar[tuple[Option, ...]] = ()
    simultaneous: ClassVar[bool] = False
    cooperative: ClassVar[bool] = False
    view: ClassVar[View] = View()
    strategy: ClassVar[Strategy] = Strategy()

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.option_specs, options, self.name)
        self._post_init()

    def _post_init(self) -> None:
        """Hook: build derived data from ``self.options`` (boards, sheets)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} options={self.options}>"

    def check_num_players(self, num_players: int | None) -> int:
        """Return a valid player count (default ``default_players``) or raise OptionError."""
        from .errors import OptionError

        n = self.default_players if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int) or not (
            self.min_players <= n <= self.max_players
        ):
            raise OptionError(
                N_("num_players: {name} takes {min_players} to {max_players} players, got "
                   "{num_players!r}",
                   name=self.name, min_players=self.min_players, max_players=self.max_players, num_players=num_players)
            )
        return n

    @abstractmethod
    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> "State":
        """A new game. ``seed`` draws the public setup not fixed by options."""

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the action space (every action id is below this)."""

    def state_from_json(self, obj: Mapping[str, Any], verify: bool = False) -> "State":
        """Rebuild a state saved with ``State.to_json()`` (exact round trip).

        The envelope is checked (``num_players``/``seed`` integers, ``history`` a list of
        ``[actor, action]`` integer pairs, ``game``/``rules_version`` of this game); the loaded
        position is probed (current player, legal actions, scores) so a damaged position fails
        here instead of later. With ``verify=True`` the history is also replayed from the initial
        state (every action validated) and the saved position must equal the replayed one: an
        edited position or history is refused, naming the first differing field.

        Raises RecordError (one line naming the field) on a malformed or mismatched position.
        """
        from .errors import CitybuildersError
        from .registry import normalize_game_name

        if not isinstance(obj, Mapping):
            raise RecordError(N_("position: expected a JSON object (a saved State.to_json())"))
        for key in ("num_players", "seed", "position"):
            if key not in obj:
                raise RecordError(N_("position: missing key '{key}'", key=key))
        for key in ("num_players", "seed"):
            if isinstance(obj[key], bool) or not isinstance(obj[key], int):
                raise RecordError(N_("{key}: expected an integer, got {obj!r}",
                                     key=key, obj=obj[key]))
        name = obj.get("game")
        if name is not None and (not isinstance(name, str)
                                 or normalize_game_name(name) != self.name):
            raise RecordError(N_("game: the position is of {name!r}, not {name2}",
                                 name=name, name2=self.name))
        version = obj.get("rules_version")
        if version is not None and str(version) != self.rules_version:
            raise RecordError(N_("rules_version: saved with {name} rules version {version!r}, "
                                 "this is rules version {rules_version}",
                                 name=self.name, version=version, rules_version=self.rules_version))
        raw_history = obj.get("history", [])
        if not isinstance(raw_history, list):
            raise RecordError(N_("history: expected a list of [actor, action] pairs"))
        history: list[tuple[int, int]] = []
        for i, entry in enumerate(raw_history):
            if (not isinstance(entry, (list, tuple)) or len(entry) != 2
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in entry)):
                raise RecordError(N_("history[{i}]: expected [actor, action] integers, got "
                                     "{entry!r}", i=i, entry=entry))
            history.append((entry[0], entry[1]))
        try:
            state = self.new_initial_state(obj["num_players"], obj["seed"])
        except CitybuildersError as exc:
            raise RecordError(N_("position: {exc}", exc=exc)) from None
        if verify:
            return _verified_state(state, history, obj["position"])
        try:
            state._load_position(obj["position"])
            state._history = history
            _probe(state)
        except CitybuildersError as exc:
            raise RecordError(N_("position: inconsistent saved state ({exc})", exc=exc)) from None
        except Exception as exc:  # noqa: BLE001 - a damaged position may fail anywhere
            raise RecordError(
                N_("position: malformed saved state ({name__}: {exc})",
                   name__=type(exc).__name__, exc=exc)
            ) from None
        return state

    def score_file(self, data: Mapping[str, Any]) -> "ScoreResult":
        """Score a position given in the game's score-file format (see docs/formats.md).

        Raises FormatError naming the bad field.
        """
        raise NotImplementedError(f"{self.name} has no score calculator")

    def describe_setup(self, state: "State") -> str:
        """A short human summary of a state's public setup (for sim rows, lobby)."""
        return ""


class ScoreResult(ABC):
    """What ``Game.score_file`` returns: a JSON form and a readable text form.

    ``texts``: the game's texts module (``for_language(lang)`` -> its name tables), set by the
    game's ``score_file`` so the text form can name things in the reader's language (a rules
    room never imports the texts); None = the ids as they are."""

    texts: Any = None

    def tables(self, lang: str | None = None) -> Any:
        """The game's name tables in ``lang`` (default: the current language), or None."""
        if self.texts is None:
            return None
        from .i18n import current

        return self.texts.for_language(lang or current())

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The documented ``--json`` output."""

    @abstractmethod
    def to_text(self) -> str:
        """A readable table."""


class State(ABC):
    """One position of a game. See the module docstring for conventions.

    Subclasses must define ``__slots__`` for their own fields and implement the abstract methods.
    """

    __slots__ = ("game", "num_players", "seed", "_history")

    def __init__(self, game: Game, num_players: int, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            # a record must replay: its seed is an integer (docs/formats.md)
            from .errors import OptionError

            raise OptionError(N_("seed: expected an integer, got {seed!r}", seed=seed))
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self._history: list[tuple[int, int]] = []

    # ----------------------------------------------------------------- to implement
    @abstractmethod
    def current_player(self) -> int:
        """Player to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[int]:
        """Sorted legal actions of ``player`` (or chance outcomes' actions at a chance node)."""

    @abstractmethod
    def _apply(self, action: int, player: int) -> None:
        """Apply a legal action for ``player`` (``CHANCE`` at a chance node). No validation."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability), ...]`` at a chance node (probabilities sum to 1)."""

    @abstractmethod
    def _clone(self) -> "State":
        """An independent copy (hand-written; no deepcopy). History is copied by ``clone``."""

    @abstractmethod
    def scores(self) -> list[PlayerScore]:
        """Current score of every player with its breakdown (final once terminal)."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """JSON-able view for ``player``: everything public plus that player's own secrets only."""

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Readable notation of ``action`` (e.g. ``build 7,12``)."""

    @abstractmethod
    def _position_json(self) -> dict[str, Any]:
        """The full position (hidden parts included) as JSON-able data."""

    @abstractmethod
    def _load_position(self, data: Mapping[str, Any]) -> None:
        """Inverse of ``_position_json`` on a fresh initial state of the same setup."""

    # ----------------------------------------------------------------- defaults
    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def active_players(self) -> list[int]:
        """Players who may act now (several in simultaneous phases; empty at chance/terminal)."""
        cp = self.current_player()
        return [cp] if cp >= 0 else []

    def chance_viewer(self) -> int | None:
        """At a chance node: the only player who sees the outcome, or None if public."""
        return None

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the current player / chance)."""
        cp = self.current_player()
        if cp == TERMINAL:
            return []
        if player is None or cp == CHANCE:
            player = cp
        elif player not in self.active_players():
            return []
        return self._legal_actions(player)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """0/1 list of length ``num_distinct_actions()`` marking the legal actions."""
        mask = [0] * self.game.num_distinct_actions()
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Apply ``action`` for ``player`` (default: the current player, or chance).

        Raises IllegalActionError (state unchanged) if the action is not legal, saying why.
        """
        cp = self.current_player()
        if cp == TERMINAL:
            raise IllegalActionError(N_("the game is over"))
        if cp == CHANCE:
            if player is not None and player != CHANCE:
                raise IllegalActionError(N_("waiting for a chance outcome, not a player action"))
            player = CHANCE
        elif player is None:
            player = cp
        elif player not in self.active_players():
            label = f"P{player + 1}" if isinstance(player, int) and player >= 0 else repr(player)
            now = ", ".join(f"P{p + 1}" for p in self.active_players())
            raise IllegalActionError(N_("{label} may not act now (to act: {now})",
                                        label=label, now=now))
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(N_("action must be an integer, got {action!r}", action=action))
        if action not in self._legal_actions(player):
            try:
                reason = self.explain_illegal(action, player)
            except Exception:  # noqa: BLE001 - a game's explanation must never hide the error
                reason = f"{action} is not a legal action now"
            raise IllegalActionError(reason)
        self.apply_legal(action, player)

    def apply_legal(self, action: int, player: int | None = None) -> None:
        """Apply an action known to be legal (fast path for bots and replays)."""
        cp = self.current_player()
        if cp == CHANCE:
            viewer = self.chance_viewer()
            actor = CHANCE if viewer is None else private_chance(viewer)
            player = CHANCE
        else:
            if player is None:
                player = cp
            actor = player
        self._apply(action, player)
        self._history.append((actor, action))

    def explain_illegal(self, action: int, player: int) -> str:
        """Why ``action`` is illegal for ``player`` (override for richer messages)."""
        try:
            text = self.action_to_string(action, player)
        except Exception:  # noqa: BLE001 - an out-of-range id has no notation
            text = str(action)
        return f"'{text}' is not a legal action now"

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation into a legal action of ``player`` (default current player).

        Default: match against the notation of every legal action. Raises IllegalActionError
        with the closest legal moves listed.
        """
        wanted = " ".join(text.strip().lower().split())
        legal = self.legal_actions(player)
        for a in legal:
            if self.action_to_string(a, player).lower() == wanted:
                return a
        sample = ", ".join(self.action_to_string(a, player) for a in legal[:8])
        more = "" if len(legal) <= 8 else f", ... ({len(legal)} in all)"
        raise IllegalActionError(N_("'{strip}' is not a legal move; legal: {sample}{more}",
                                    strip=text.strip(), sample=sample, more=more))

    def sample_action(self, rng: random.Random, player: int | None = None) -> int:
        """A uniformly random legal action of ``player`` (default: the current player).

        Contract (games' fast overrides keep it exactly): the result and the draws taken from
        ``rng`` are those of ``legal[rng.randrange(len(legal))]`` with ``legal =
        self.legal_actions(player)``, so a random player or rollout makes the same moves for the
        same seed whether a game has a fast path or not. A fast override counts the legal
        actions and picks the chosen one without building the list. At a chance node this is a
        uniform pick among the outcomes (use :meth:`sample_chance` for their probabilities).

        Raises IllegalActionError if ``player`` has no legal action now.
        """
        legal = self.legal_actions(player)
        if not legal:
            raise IllegalActionError(N_("no legal action to sample (the game is over or it is "
                                        "not this player's turn)"))
        # rng._randbelow(n) is what rng.randrange(n) returns and consumes for n >= 1 (CPython's
        # random.py; tests/bots/test_ismcts_fast.py checks it): one Python call fewer on the
        # rollouts' hot path
        return legal[rng._randbelow(len(legal))]

    def sample_chance(self, rng: random.Random) -> int:
        """Draw one chance action with the probabilities of ``chance_outcomes()`` (not applied)."""
        outcomes = self.chance_outcomes()
        r = rng.random()
        acc = 0.0
        for a, p in outcomes:
            acc += p
            if r < acc:
                return a
        return outcomes[-1][0]

    def playout(self, rng: random.Random, max_actions: int | None = None) -> None:
        """Play random moves in place: to the end, or until ``max_actions`` player actions.

        The rollout of a tree search. Chance outcomes are drawn with :meth:`sample_chance` and
        do not count towards ``max_actions``; a player's move is :meth:`sample_action`. A stop
        at ``max_actions`` leaves the state with a player (not chance) to move. Contract (games'
        fast overrides keep it exactly): the state afterwards (history included) and the draws
        taken from ``rng`` are those of this loop, so a search plays the same moves for the same
        seed whether a game overrides it or not.
        """
        left = -1 if max_actions is None else max_actions
        cp = self.current_player()
        while cp != TERMINAL:
            if cp == CHANCE:
                self.apply_legal(self.sample_chance(rng))
            else:
                if left == 0:
                    return
                left -= 1
                self.apply_legal(self.sample_action(rng, cp), cp)
            cp = self.current_player()

    def clone(self) -> "State":
        """A fully independent copy."""
        s = self._clone()
        s._history = list(self._history)
        return s

    def history(self) -> list[tuple[int, int]]:
        """Copy of the history as ``(actor, action)`` pairs (see module docstring)."""
        return list(self._history)

    def returns(self) -> list[float]:
        """Final outcome per player (valid at terminal; 0 before).

        Competitive default: the tied winners share 1.0 (each gets 1/k), others 0.
        Cooperative/solo games override (e.g. 1.0 for reaching the target).
        """
        if not self.is_terminal():
            return [0.0] * self.num_players
        winners = self.winners()
        share = 1.0 / len(winners)
        return [share if p in winners else 0.0 for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Players with the best score (ties shared). Games add tie-breaks where the rules do."""
        totals = [s.total for s in self.scores()]
        best = max(totals)
        return [p for p, t in enumerate(totals) if t == best]

    def information_state_key(self, player: int) -> str:
        """A string equal for exactly the states ``player`` cannot tell apart (perfect recall)."""
        parts = []
        for actor, action in self._history:
            viewer = chance_viewer_of(actor)
            if viewer is not None and viewer != player:
                parts.append(f"{actor}:?")
            else:
                parts.append(f"{actor}:{action}")
        return f"{self.game.name}|{self.seed}|{self.num_players}|p{player}|" + ",".join(parts)

    def resample_from_infostate(self, player: int, rng: random.Random) -> "State":
        """A state consistent with everything ``player`` knows, hidden parts redrawn.

        Default: the game has no hidden information, so a clone. Games with hands override.
        """
        return self.clone()

    def action_path(self, action: int, player: int | None = None) -> tuple[str, ...]:
        """Click path for the web UI: keys matching ``data-key`` attributes of ``render_svg``
        elements (e.g. ``("hex:7,12", "hex:9,12")``); a key without an SVG element is shown as
        a button. Default: one button with the action's notation."""
        return self.game.view.action_path(self, action, player)

    def render_text(self, player: int | None = None, color: bool = False) -> str:
        """Terminal drawing of the position from ``player``'s view (None = public view)."""
        return self.game.view.render_text(self, player, color)

    def render_svg(self, player: int | None = None) -> str:
        """SVG drawing of the position from ``player``'s view; interactive elements carry
        ``data-key`` attributes used by ``action_path``."""
        return self.game.view.render_svg(self, player)

    def evaluate(self, player: int) -> float:
        """Greedy bot's value of this state for ``player`` (default: current score total).

        Games refine it with a tie-break (e.g. + 0.01 per settlement placed)."""
        return self.game.strategy.evaluate(self, player)

    def greedy_action(self, player: int, rng: random.Random) -> int | None:
        """Optional fast greedy move for ``player``; None means "use the generic one-ply search"."""
        return self.game.strategy.greedy_action(self, player, rng)

    def result_info(self) -> dict[str, Any]:
        """Extra per-game facts for simulation rows (e.g. ``{"won": True}``, solo rank)."""
        return {}

    def move_number(self) -> int:
        """Number of entries in the history."""
        return len(self._history)

    # ----------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """Full position as JSON-able dict; ``game.state_from_json`` restores it exactly.

        Contains hidden information: never send it to a player (use ``observation``).
        """
        return {
            "game": self.game.name,
            "rules_version": self.game.rules_version,
            "options": self.game.options,
            "num_players": self.num_players,
            "seed": self.seed,
            "history": [list(h) for h in self._history],
            "position": self._position_json(),
        }

    def __str__(self) -> str:
        return self.render_text(None, color=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


def _probe(state: "State") -> None:
    """Touch the main queries of a freshly loaded state (raises if the position is damaged)."""
    cp = state.current_player()
    state.legal_actions()
    if cp == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise RecordError(N_("a chance node without outcomes"))
    elif cp != TERMINAL:
        if not (isinstance(cp, int) and 0 <= cp < state.num_players):
            raise RecordError(N_("current player {cp!r}, but there are {num_players} players",
                                 cp=cp, num_players=state.num_players))
        for p in state.active_players():
            if not 0 <= p < state.num_players:
                raise RecordError(N_("player {p} to act, but there are {num_players} players",
                                     p=p, num_players=state.num_players))
            for a in state.legal_actions(p)[:50]:
                state.action_to_string(a, p)
    state.scores()
    json.dumps(state.to_json())


def _first_difference(given: Any, expected: Any, where: str) -> str:
    """Path of the first place where two JSON values differ (``position.hands[1]``)."""
    if isinstance(given, dict) and isinstance(expected, dict):
        for k in list(expected) + [k for k in given if k not in expected]:
            if k not in given or k not in expected or given[k] != expected[k]:
                if k in given and k in expected:
                    return _first_difference(given[k], expected[k], f"{where}.{k}")
                return f"{where}.{k}"
    if isinstance(given, list) and isinstance(expected, list) and len(given) == len(expected):
        for i, (a, b) in enumerate(zip(given, expected)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return where


def _verified_state(state: "State", history: list[tuple[int, int]], position: Any) -> "State":
    """Replay ``history`` on the initial ``state`` (validated) and compare with ``position``."""
    from .errors import CitybuildersError

    for i, (actor, action) in enumerate(history):
        player = actor if actor >= 0 else None
        try:
            state.apply_action(action, player)
        except CitybuildersError as exc:
            raise RecordError(N_("history[{i}]: {exc}", i=i, exc=exc)) from None
        real = state._history[-1][0]
        if real != actor:
            raise RecordError(N_("history[{i}]: actor {actor} does not match the game "
                                 "(expected {real})", i=i, actor=actor, real=real))
    expected = json.loads(json.dumps(state._position_json()))
    try:
        given = json.loads(json.dumps(position))
    except (TypeError, ValueError):
        raise RecordError(N_("position: not JSON data")) from None
    if given != expected:
        where = _first_difference(given, expected, "position")
        raise RecordError(N_("{where}: does not match the game's history (the saved position "
                             "was edited or damaged)", where=where))
    return state
