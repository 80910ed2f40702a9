"""Gymnasium adapter: single-agent envs, registered as ``citybuilders/<Game>-v0`` on import.

``gymnasium.make("citybuilders/Sprawlopolis-v0")`` after ``import citybuilders.rl.gymnasium``, or
in one step ``gymnasium.make("citybuilders.rl.gymnasium:citybuilders/Sprawlopolis-v0")``.
Needs ``pip install 'citybuilders[gymnasium]'``.

Registered ids (keywords of :class:`CitybuildersEnv` may be passed to ``make``):

* ``citybuilders/Sprawlopolis-v0`` (solo), ``citybuilders/RollIntoTown-v0`` (solo),
  ``citybuilders/RollBuilder-Rivermouth-v0`` / ``-Highcrag-v0`` / ``-Goldplain-v0`` (solo, one
  per sheet);
* ``citybuilders/KingdomBuilder-v0``: you are player 0 against embedded bots
  (``opponents=("greedy",)`` by default; any of ``random``, ``greedy``, ``ismcts``; the number
  of opponents sets the player count).

Observation: the float32 tensor of ``citybuilders.rl.encoders`` (docs/rl.md). Action:
``Discrete(engine.num_distinct_actions())``; the legal ones are ``info["action_mask"]`` and
``env.action_masks()`` (sb3-contrib MaskablePPO convention). Chance and the opponents' moves
are played inside ``step`` from the env RNG (seeded by ``reset(seed=...)``, which also draws the
public setup seed). Reward ``"terminal"`` (default): 0 until the end, then the final score total
(solo games) or the engine return of your seat (Kingdom Builder: 1 for a win, shared on ties);
``"score_delta"``: the change of your score total after every step (dense; sums to the final
score minus the score at ``reset``, given in its ``info["score"]``). An illegal action plays a random legal one and sets ``info["illegal_action"]``, or
raises with ``illegal_action="raise"``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .common import require, solo_games
from ._driver import Driver

gym = require("gymnasium", "gymnasium")
from gymnasium import spaces  # noqa: E402

__all__ = ["CitybuildersEnv", "register_envs", "ENV_IDS"]

_RENDER_MODES = ["ansi", "svg"]


class CitybuildersEnv(gym.Env):
    """One seat of a game; the other seats (if any) are embedded engine bots.

    Args:
        game: game id (``"sprawlopolis"``, ``"roll-into-town"``, ``"roll-builder"``,
            ``"kingdom-builder"``).
        opponents: bot names for the other seats (empty = solo).
        reward: ``"terminal"`` or ``"score_delta"``.
        render_mode: ``"ansi"`` (text board of your view) or ``"svg"`` (SVG string).
        illegal_action: ``"random"`` or ``"raise"``.
        **options: the game's options (e.g. ``sheet="highcrag"``, ``preset="first-game"``).

    Raises:
        OptionError / ValueError naming the bad argument.
    """

    metadata = {"render_modes": _RENDER_MODES, "render_fps": 1}

    def __init__(self, game: str = "sprawlopolis", opponents: Sequence[str] = (),
                 reward: str = "terminal", render_mode: str | None = None,
                 illegal_action: str = "random", **options: Any) -> None:
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode: expected one of {', '.join(_RENDER_MODES)} or "
                             f"None, got {render_mode!r}")
        if isinstance(opponents, str):
            opponents = tuple(o for o in opponents.split(",") if o)
        from ..bots import make_bot

        self._bot_names = tuple(opponents)
        self._make_bot = make_bot
        for name in self._bot_names:
            make_bot(name, 0)  # validates the name (OptionError listing the bots)
        self.driver = Driver(game, 1 + len(self._bot_names), options,
                             "score_delta" if reward == "score_delta" else "terminal",
                             illegal_action)
        if reward not in ("terminal", "score_delta"):
            raise ValueError(f"reward: expected terminal or score_delta, got {reward!r}")
        self.reward_kind = reward
        self.render_mode = render_mode
        self.seat = 0
        self._solo = not self._bot_names
        n_actions = self.driver.num_actions - 1  # no pass: the agent only steps when it acts
        self.action_space = spaces.Discrete(n_actions)
        self.observation_space = spaces.Box(-1e6, 1e6, (self.driver.encoder.size,),
                                            np.float32)
        self._bots: list[Any] = []
        self._last_score = 0

    # ------------------------------------------------------------------ helpers
    def _advance(self) -> None:
        """Play chance and opponents until the agent acts or the game ends."""
        d = self.driver
        s = d.state
        while True:
            d.resolve_chance()
            if s.is_terminal():
                return
            active = s.active_players()
            if self.seat in active:
                return
            p = s.current_player()
            s.apply_legal(self._bots[p].step(s, p), p)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """int8 mask ``(num_actions,)`` of the agent's legal actions (zeros at the end)."""
        m = np.zeros(self.action_space.n, dtype=np.int8)
        s = self.driver.state
        if s is not None and not s.is_terminal():
            legal = s.legal_actions(self.seat)
            if legal:
                m[legal] = 1
        return m

    def _score(self) -> int:
        return self.driver.state.scores()[self.seat].total

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """New game; ``seed`` seeds setup, chance and the opponents."""
        super().reset(seed=seed)
        d = self.driver
        d.reset(seed)
        base = d.rng.randrange(2 ** 31)
        self._bots = [None] + [self._make_bot(name, base + i)
                               for i, name in enumerate(self._bot_names)]
        self._advance()
        self._last_score = self._score()
        info = self._info()
        info["score"] = self._last_score
        return d.observe(self.seat), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's action, then chance and opponents up to its next decision."""
        d = self.driver
        s = d.state
        if s is None or s.is_terminal():
            raise RuntimeError("step() after the episode ended: call reset()")
        illegal = d.act(self.seat, int(action))
        self._advance()
        done = s.is_terminal()
        score = self._score()
        if self.reward_kind == "score_delta":
            reward = float(score - self._last_score)
        elif done:
            reward = float(score) if self._solo else float(s.returns()[self.seat])
        else:
            reward = 0.0
        self._last_score = score
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        if done:
            info["score"] = score
            info["returns"] = s.returns()
        return d.observe(self.seat), reward, done, False, info

    def render(self) -> str | None:
        """Your view: text board (``ansi``) or SVG string (``svg``)."""
        s = self.driver.state
        if self.render_mode is None or s is None:
            return None
        if self.render_mode == "svg":
            return s.render_svg(self.seat)
        return s.render_text(self.seat, color=False)


def _env_table() -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = {}
    for env_id, (game, options) in solo_games().items():
        table[f"citybuilders/{env_id}"] = {"game": game, **options}
    table["citybuilders/KingdomBuilder-v0"] = {"game": "kingdom-builder",
                                              "opponents": ("greedy",)}
    return table


ENV_IDS = tuple(_env_table())
"""The registered Gymnasium ids."""


def register_envs() -> None:
    """Register every id of :data:`ENV_IDS` with Gymnasium (idempotent)."""
    for env_id, kwargs in _env_table().items():
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point="citybuilders.rl.gymnasium:CitybuildersEnv",
                     kwargs=kwargs, disable_env_checker=False)


register_envs()
