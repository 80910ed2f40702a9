"""OpenSpiel adapter: every citybuilders game as a registered pyspiel Python game.

Importing this module registers ``citybuilders_kingdom_builder``, ``citybuilders_sprawlopolis``,
``citybuilders_roll_into_town`` and ``citybuilders_roll_builder``; load them with
``pyspiel.load_game("citybuilders_kingdom_builder(players=3,expansions=crossroads)")``.
Parameters: ``players`` (int), ``seed`` (int, the public setup seed) and every option of the
game (``citybuilders options <game>``); list options are comma-separated strings, ``""`` means
the game's default. Needs ``pip install 'citybuilders[openspiel]'``.

Mapping (see docs/rl.md):

* Sequential games (Kingdom Builder, Sprawlopolis): ``current_player()`` is the engine's.
* Roll-and-writes (Roll into Town, Roll Builder) are ``SIMULTANEOUS``: at every non-chance node
  each active player picks one action and every inactive player the extra ``pass`` action
  (id ``engine.num_distinct_actions()``, the only legal one for it); the joint action is applied
  in player order (players' sheets are independent, so the order never matters).
* Chance is explicit (``EXPLICIT_STOCHASTIC``): card draws and dice are chance nodes with the
  engine's outcomes and probabilities.
* Utility: engine ``returns()`` at the end (terminal reward model): tied winners share 1.0
  (``CONSTANT_SUM``, sum 1); co-operative Sprawlopolis gives everyone 1.0 for reaching the target
  (``IDENTICAL``).
* Clone: the pyspiel state holds the engine state in a box whose deep copy is ``State.clone()``;
  serialisation pickles the box as the engine's ``to_json()`` record.
* Observations: ``make_py_observer``: the default observation (public + own private info) has
  a tensor (``citybuilders.rl.encoders``) and a string (``render_text(player)``); the
  perfect-recall information state has a string (``information_state_key``) but no tensor; the
  public observation (no private info) has a string (``render_text(None)``) and no tensor.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_left
from typing import Any

import numpy as np

from ..core.game import CHANCE, TERMINAL, State
from ..core.registry import load_game
from .common import GAME_IDS, is_imperfect, make_game, max_game_length, option_params, require
from .encoders import encoder_for

pyspiel = require("pyspiel", "openspiel")

__all__ = ["short_name", "load", "CitybuildersGame", "CitybuildersState", "EngineBot",
           "engine_state"]


def short_name(game_id: str) -> str:
    """pyspiel short name of a citybuilders game id (``kingdom-builder`` ->
    ``citybuilders_kingdom_builder``)."""
    return "citybuilders_" + game_id.replace("-", "_")


def load(game_id: str, **params: Any) -> "CitybuildersGame":
    """``pyspiel.load_game(short_name(game_id), params)`` with Python values."""
    return pyspiel.load_game(short_name(game_id), params)


def engine_state(state: Any) -> State:
    """The citybuilders State inside a pyspiel state of this adapter (yours to change: a
    change shows in the pyspiel state, but not in OpenSpiel's own action history)."""
    return state._box.own()


class _Box:
    """Holds the engine state; deep copy = ``clone()``, pickle = the ``to_json()`` record."""

    __slots__ = ("state", "shared", "simultaneous", "pass_action", "pass_list", "legal")

    def __init__(self, state: State, shared: bool = False, simultaneous: bool | None = None,
                 pass_action: int | None = None) -> None:
        self.state = state
        self.shared = shared  # True: ``state`` is the game's cached initial state (copy on write)
        if simultaneous is None:
            simultaneous = bool(state.game.simultaneous)
            pass_action = state.game.num_distinct_actions() if simultaneous else -1
        self.simultaneous = simultaneous
        self.pass_action = pass_action
        self.pass_list = [pass_action]
        # (move number, {player: legal actions}) of the position last asked about
        self.legal: tuple[int, dict[int, list[int]]] | None = None

    def own(self) -> State:
        """The engine state, made private to this box before a change."""
        if self.shared:
            self.state = self.state.clone()
            self.shared = False
        return self.state

    def __deepcopy__(self, memo: Any) -> "_Box":
        if self.shared:
            return _Box(self.state, True, self.simultaneous, self.pass_action)
        return _Box(self.state.clone(), False, self.simultaneous, self.pass_action)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_box_from_json, (json.dumps(self.state.to_json(), separators=(",", ":")),))


def _box_from_json(text: str) -> _Box:
    obj = json.loads(text)
    game = load_game(obj["game"], **{k: v for k, v in obj.get("options", {}).items()})
    return _Box(game.state_from_json(obj))


def _game_type(game_id: str) -> Any:
    engine = load_game(game_id)
    dyn = pyspiel.GameType.Dynamics
    utility = pyspiel.GameType.Utility
    info = pyspiel.GameType.Information
    params = {"players": engine.default_players, "seed": 0}
    params.update(option_params(game_id))
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"citybuilders {engine.title}",
        dynamics=dyn.SIMULTANEOUS if engine.simultaneous else dyn.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(info.IMPERFECT_INFORMATION if is_imperfect(engine)
                     else info.PERFECT_INFORMATION),
        utility=utility.IDENTICAL if engine.cooperative else utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


class CitybuildersGame(pyspiel.Game):
    """A pyspiel game over one citybuilders game with fixed options and player count."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        gtype = _GAME_TYPES[self.game_id]
        full = dict(gtype.parameter_specification)
        full.update(params)
        self.engine = make_game(self.game_id, full)
        self.players = self.engine.check_num_players(int(full["players"]))
        self.seed = int(full["seed"])
        self.simultaneous = bool(self.engine.simultaneous)
        n_actions = self.engine.num_distinct_actions()
        self.pass_action = n_actions if self.simultaneous else -1
        super().__init__(
            gtype,
            pyspiel.GameInfo(
                num_distinct_actions=n_actions + (1 if self.simultaneous else 0),
                max_chance_outcomes=n_actions,
                num_players=self.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None if self.engine.cooperative else 1.0,
                max_game_length=max_game_length(self.engine, self.players),
            ),
            full,
        )
        self.encoder = encoder_for(self.engine, self.players)
        self._initial: State | None = None

    def new_initial_state(self) -> "CitybuildersState":
        """A new game (public setup from the ``seed`` parameter)."""
        if self._initial is None:
            self._initial = self.engine.new_initial_state(self.players, self.seed)
        # pyspiel's Clone() of a Python state calls new_initial_state() and then deep-copies the
        # instance dict, so this must be cheap: a clone of the cached initial state
        state = CitybuildersState.__new__(CitybuildersState)
        pyspiel.State.__init__(state, self)
        state._box = _Box(self._initial, True, self.simultaneous, self.pass_action)
        return state

    def state_from_engine(self, state: State) -> "CitybuildersState":
        """Wrap an engine state of this game (e.g. a replayed record). History is not copied
        into OpenSpiel's own action history."""
        return CitybuildersState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        """Observer for ``iig_obs_type`` (default: public info + the player's private info)."""
        if params:
            raise ValueError(f"observer params: none are supported, got {params!r}")
        return Observer(self, iig_obs_type)


class CitybuildersState(pyspiel.State):
    """A pyspiel state holding a citybuilders State (``engine_state(state)``)."""

    def __init__(self, game: CitybuildersGame, state: State, shared: bool = False) -> None:
        super().__init__(game)
        self._box = _Box(state, shared)

    # --------------------------------------------------------------- dynamics
    # pyspiel calls the underscore methods (and current_player, is_terminal, chance_outcomes)
    # from C++. The public ones below that pyspiel.State also defines (legal_actions,
    # is_chance_node, ...) give pyspiel's answer from Python directly, so a Python caller
    # skips the C++ round trip (each pyspiel call re-enters Python 3-5 times and converts the
    # action list to a C++ vector and back).
    def current_player(self) -> int:
        """Player to act, CHANCE, SIMULTANEOUS or TERMINAL (the engine's ids are pyspiel's:
        -1 chance, -4 terminal)."""
        cp = self._box.state.current_player()
        if cp >= 0 and self._box.simultaneous:
            return _SIMULTANEOUS
        return cp

    def is_chance_node(self) -> bool:
        """True at a chance node (pyspiel's answer, without the C++ round trip)."""
        return self._box.state.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        """True where the active players act together (roll-and-writes)."""
        return self._box.simultaneous and self._box.state.current_player() >= 0

    def is_player_node(self) -> bool:
        """True where one player acts (False at simultaneous nodes, as pyspiel's)."""
        return not self._box.simultaneous and self._box.state.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's ``legal_actions([player])`` answered in Python (a new list each call).

        As pyspiel's Python-game rule: ``[]`` at the end; the chance outcomes at a chance
        node (any ``player``); ``player``'s actions if it is the current player or, at a
        simultaneous node, any player (``[pass]`` for an inactive one); ``[]`` for another
        player of a sequential game. A pseudo-player at a player node goes to pyspiel
        (which raises, naming it)."""
        box = self._box
        s = box.state
        cp = s.current_player()
        if cp < 0:
            if cp == CHANCE:
                return [a for a, _ in s.chance_outcomes()]
            if cp == TERMINAL:
                return []
        if player is None:
            player = _SIMULTANEOUS if box.simultaneous else cp
        elif player < 0 and player != (_SIMULTANEOUS if box.simultaneous else cp):
            return pyspiel.State.legal_actions(self, player)
        if player == cp or box.simultaneous:
            return list(self._legal_actions(player))
        return []

    def _legal_actions(self, player: int) -> list[int]:
        """``player``'s legal actions, remembered for this position: pyspiel asks for them
        before applying, and the apply then checks membership instead of recomputing them.
        The caller must not change the list."""
        box = self._box
        s = box.state
        move = s.move_number()
        cached = box.legal
        if cached is not None and cached[0] == move:
            legal = cached[1].get(player)
            if legal is not None:
                return legal
        else:
            cached = box.legal = (move, {})
        if box.simultaneous and player not in s.active_players():
            legal = box.pass_list
        else:
            legal = s.legal_actions(player)
        cached[1][player] = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability)]`` of the engine's chance node."""
        return self._box.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        box = self._box
        s = box.own()
        cp = s.current_player()
        action = int(action)
        if cp == CHANCE:
            s.apply_action(action)
        else:
            _apply_checked(box, s, action, cp)

    def _apply_actions(self, actions: list[int]) -> None:
        """Check the whole joint action on this position, then apply the active players'
        actions in player order (an illegal one raises before anything changes)."""
        box = self._box
        s = box.own()
        if len(actions) != s.num_players:
            raise ValueError(f"joint action: expected {s.num_players} actions, got "
                             f"{len(actions)}")
        active = s.active_players()
        cached = box.legal
        known = cached[1] if cached is not None and cached[0] == s.move_number() else {}
        moves = []
        for p, a in enumerate(actions):
            a = int(a)
            if p in active:
                legal = known.get(p)
                if legal is None:
                    legal = s.legal_actions(p)
                if not _contains(legal, a):
                    s.apply_action(a, p)  # raises IllegalActionError naming the reason
                moves.append((p, a))
            elif a != box.pass_action and a != _INVALID_ACTION:
                raise ValueError(f"player {p} may not act now (only 'pass', id "
                                 f"{box.pass_action}), got action {a}")
        box.legal = None
        for p, a in moves:
            s.apply_legal(a, p)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._box.simultaneous and action == self._box.pass_action:
            return "pass"
        try:
            return self._box.state.action_to_string(int(action),
                                                    None if player < 0 else player)
        except Exception:  # noqa: BLE001 - notation of an action of another position
            return f"action {action}"

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        """Engine ``returns()`` (0 before the end)."""
        return self._box.state.returns()

    def rewards(self) -> list[float]:
        """Terminal reward model: the returns at the end, else zeros."""
        return self._box.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None
                                ) -> "CitybuildersState":
        """A state consistent with ``player_id``'s information (engine resampling).

        ``probability_sampler`` (a callable returning a float in [0, 1), as pyspiel passes)
        seeds the redraw; without one a module RNG (seeded 0 at import) does."""
        if callable(probability_sampler):
            rng = random.Random(int(probability_sampler() * 2 ** 53))
        else:
            rng = _RESAMPLE_RNG
        return CitybuildersState(self.get_game(),
                                 self._box.state.resample_from_infostate(player_id, rng))

    def __str__(self) -> str:
        s = self._box.state
        return (f"{s.game.name} seed={s.seed} players={s.num_players} history="
                + ",".join(f"{a}:{b}" for a, b in s.history()))


def _contains(legal: list[int], action: int) -> bool:
    """``action in legal`` for the engine's sorted legal-action lists, by bisection (a list of
    Sprawlopolis holds ~1,000 actions). An unsorted list may answer False for a legal action;
    the caller then validates through ``apply_action``, so the answer is never wrong."""
    i = bisect_left(legal, action)
    return i < len(legal) and legal[i] == action


def _apply_checked(box: _Box, s: State, action: int, player: int) -> None:
    """Apply ``player``'s action, validated against the remembered legal actions when they are
    of this position, else by ``apply_action`` (IllegalActionError naming the reason)."""
    cached = box.legal
    if cached is not None and cached[0] == s.move_number():
        legal = cached[1].get(player)
        if legal is not None and _contains(legal, action):
            box.legal = None
            s.apply_legal(action, player)
            return
    s.apply_action(action, player)


class Observer:
    """PyObserver for ``make_py_observer`` (see the module docstring for what is provided)."""

    def __init__(self, game: CitybuildersGame, iig_obs_type: Any) -> None:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self._game = game
        self.iig_obs_type = iig_obs_type
        private = iig_obs_type.private_info
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self._public_only = private == pyspiel.PrivateInfoType.NONE
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observation type: private_info=ALL_PLAYERS is not provided "
                             "(a player never sees another player's hidden cards)")
        self._has_tensor = not (self._perfect_recall or self._public_only)
        enc = game.encoder
        self._last: tuple[Any, int, int] | None = None
        self._last_state: State | None = None
        if self._has_tensor:
            self.tensor = np.zeros(enc.size, dtype=np.float32)
            self.dict = enc.views(self.tensor)
        else:
            self.tensor = None
            self.dict = {}

    def set_from(self, state: CitybuildersState, player: int) -> None:
        """Fill ``tensor`` for ``player`` (no-op for the string-only observation types)."""
        if self._has_tensor:
            box = state._box
            key = (box, box.state.move_number(), player)
            last = self._last
            if last is not None and last[0] is box and last[1:] == key[1:] \
                    and box.state is self._last_state:
                return  # pyspiel asks twice per observation_tensor() call
            self._game.encoder.encode_into(box.state, player, self.tensor, self.dict)
            self._last, self._last_state = key, box.state

    def string_from(self, state: CitybuildersState, player: int) -> str:
        """Information-state key (perfect recall), public board text, or the player's text."""
        s = state._box.state
        if self._perfect_recall:
            if self._public_only:
                return s.information_state_key(-99)
            return s.information_state_key(player)
        if self._public_only:
            return s.render_text(None, color=False)
        return s.render_text(player, color=False)


class EngineBot(pyspiel.Bot):
    """A citybuilders bot (``make_bot(name, seed)``: random, greedy, ismcts) as a pyspiel.Bot.

    Works on the sequential games; at a simultaneous node it steps for its own player (``pass``
    when that player is not active).
    """

    def __init__(self, name: str, player_id: int, seed: int = 0, **kwargs: Any) -> None:
        pyspiel.Bot.__init__(self)
        from ..bots import make_bot

        self._bot = make_bot(name, seed) if not kwargs else _bot_with(name, seed, kwargs)
        self._player = player_id

    def restart_at(self, state: Any) -> None:
        """Nothing to reset (the engine bots are stateless between moves)."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Ignored (the bot reads the state each step)."""

    def provides_policy(self) -> bool:
        """False: the engine bots return a move, not a distribution."""
        return False

    def step(self, state: Any) -> int:
        """The bot's move for its player in ``state``."""
        box = state._box
        s = box.state
        if box.simultaneous and self._player not in s.active_players():
            return box.pass_action
        return int(self._bot.step(s, self._player))


_GAME_TYPES: dict[str, Any] = {}
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
_INVALID_ACTION = int(pyspiel.INVALID_ACTION)
_RESAMPLE_RNG = random.Random(0)


def _register() -> None:
    for game_id in GAME_IDS:
        if short_name(game_id) in pyspiel.registered_names():
            continue
        gtype = _game_type(game_id)
        _GAME_TYPES[game_id] = gtype
        cls = type(f"{game_id.title().replace('-', '')}Game", (CitybuildersGame,),
                   {"game_id": game_id, "__doc__": f"pyspiel game over {game_id}."})
        globals()[cls.__name__] = cls
        pyspiel.register_game(gtype, cls)


_register()


def _bot_with(name: str, seed: int, kwargs: dict[str, Any]) -> Any:
    """An engine bot with constructor keywords (``iterations`` for ismcts)."""
    from ..bots import GreedyBot, ISMCTSBot, RandomBot

    classes = {"ismcts": ISMCTSBot, "greedy": GreedyBot, "random": RandomBot}
    if name not in classes:
        raise ValueError(f"bot: keywords are only supported for {', '.join(classes)}")
    return classes[name](seed=seed, **kwargs)
