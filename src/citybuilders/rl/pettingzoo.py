"""PettingZoo adapter: AEC envs for the turn-based games, Parallel envs for the roll-and-writes.

``aec_env(game, num_players=None, **kw)`` / ``parallel_env(game, ...)`` build either kind for any
game; ``env(game, ...)`` gives the natural one (AEC for Kingdom Builder and Sprawlopolis, a
Parallel env wrapped by PettingZoo's ``parallel_to_aec`` otherwise). ``game_module(game, ...)``
returns an object with ``env`` / ``parallel_env`` / ``raw_env`` functions, the shape
``pettingzoo.test.max_cycles_test`` expects. Needs ``pip install 'citybuilders[pettingzoo]'``.

Common keywords: ``render_mode`` (``"ansi"``: the public text board; ``"svg"``: the public SVG
board, as a string), ``max_cycles`` (truncation, see below), ``reward`` (``"terminal"`` or
``"score_delta"``), ``illegal_action`` (``"random"`` or ``"raise"``) and the game's options.

* Agents are ``player_0`` ... ``player_{n-1}``. Observations are
  ``{"observation": float32 (size,), "action_mask": int8 (num_actions,)}`` (docs/rl.md), built
  from ``state.observation(player)`` only. The action space is ``Discrete(num_actions)`` =
  the engine's ids plus one ``pass`` id (the last), the only legal action of a player who may
  not act now (Parallel envs); in AEC envs a non-selected agent's mask is all zeros.
* Chance (card draws, dice) is resolved inside the env from its RNG, seeded by
  ``reset(seed=...)``, which also draws the public setup seed.
* ``max_cycles``: Parallel envs truncate after that many ``step`` calls; AEC envs once every
  agent has acted at least ``max_cycles`` times (a Kingdom Builder turn is several actions).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from .common import require
from ._driver import Driver

require("pettingzoo", "pettingzoo")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402
from pettingzoo.utils.conversions import parallel_to_aec  # noqa: E402

from ..core.registry import load_game  # noqa: E402

__all__ = ["CitybuildersAECEnv", "CitybuildersParallelEnv", "aec_env", "parallel_env", "env",
           "game_module"]

_RENDER_MODES = ["ansi", "svg"]


def _spaces(driver: Driver) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, (driver.encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (driver.num_actions,), np.int8),
    })
    return obs, spaces.Discrete(driver.num_actions)


def _render(driver: Driver, mode: str | None) -> str | None:
    if mode is None or driver.state is None:
        return None
    if mode == "svg":
        return driver.state.render_svg(None)
    return driver.state.render_text(None, color=False)


def _check_render_mode(mode: str | None) -> None:
    if mode is not None and mode not in _RENDER_MODES:
        raise ValueError(f"render_mode: expected one of {', '.join(_RENDER_MODES)} or None, "
                         f"got {mode!r}")


class CitybuildersAECEnv(AECEnv):
    """Turn-based AEC env: the selected agent is the engine's ``current_player()``."""

    def __init__(self, game: str = "kingdom-builder", num_players: int | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None,
                 reward: str = "terminal", illegal_action: str = "random",
                 **options: Any) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        self.driver = Driver(game, num_players, options, reward, illegal_action)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        n = self.driver.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = self.possible_agents[:]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space, act_space = _spaces(self.driver)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {"render_modes": _RENDER_MODES, "name": f"citybuilders_{game}_v0",
                         "is_parallelizable": False}
        self._zeros = np.zeros(self.driver.num_actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; ``seed`` seeds setup and chance."""
        self.driver.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._acted = [0] * self.driver.num_players
        self.agent_selection = self.possible_agents[self.driver.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``agent`` (zeros mask unless selected)."""
        p = self._index[agent]
        acting = (agent == self.agent_selection and not self.terminations[agent]
                  and not self.truncations[agent])
        return {"observation": self.driver.observe(p),
                "action_mask": self.driver.mask(p) if acting else self._zeros.copy()}

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (None for a finished agent), then chance."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.driver
        p = self._index[agent]
        self._cumulative_rewards[agent] = 0.0
        illegal = d.act(p, int(action))
        self._acted[p] += 1
        d.resolve_chance()
        rewards = d.rewards()
        self.rewards = {a: rewards[i] for i, a in enumerate(self.agents)}
        self.infos = {a: {} for a in self.agents}
        if illegal:
            self.infos[agent]["illegal_action"] = True
        state = d.state
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and min(self._acted) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if state.is_terminal() or any(self.truncations.values()):
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def render(self) -> str | None:
        """The public board: text (``ansi``) or SVG (``svg``)."""
        return _render(self.driver, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def action_masks(self) -> np.ndarray:
        """Mask of the selected agent (sb3-contrib convention)."""
        return self.driver.mask(self._index[self.agent_selection])


class CitybuildersParallelEnv(ParallelEnv):
    """Parallel env: every active player acts each step; the others must ``pass``."""

    def __init__(self, game: str = "roll-into-town", num_players: int | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None,
                 reward: str = "terminal", illegal_action: str = "random",
                 **options: Any) -> None:
        _check_render_mode(render_mode)
        self.driver = Driver(game, num_players, options, reward, illegal_action)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        n = self.driver.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.agents = self.possible_agents[:]
        obs_space, act_space = _spaces(self.driver)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.metadata = {"render_modes": _RENDER_MODES, "name": f"citybuilders_{game}_v0"}
        self._cycles = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def _obs(self) -> dict[str, dict[str, np.ndarray]]:
        d = self.driver
        return {a: {"observation": d.observe(p), "action_mask": d.mask(p)}
                for p, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New game; ``seed`` seeds setup and chance. Returns ``(observations, infos)``."""
        self.driver.reset(seed)
        self.agents = self.possible_agents[:]
        self._cycles = 0
        return self._obs(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply one action per active agent (in player order; missing = pass), then chance."""
        d = self.driver
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        active = d.state.active_players()
        for p, a in enumerate(self.possible_agents):
            if p in active:
                act = actions.get(a)
                illegal = d.act(p, d.pass_action if act is None else int(act))
                if illegal:
                    infos[a]["illegal_action"] = True
        d.resolve_chance()
        self._cycles += 1
        rewards = d.rewards()
        done = d.state.is_terminal()
        trunc = (not done and self.max_cycles is not None and self._cycles >= self.max_cycles)
        obs = self._obs()
        rew = {a: rewards[p] for p, a in enumerate(self.possible_agents) if a in self.agents}
        terms = {a: done for a in self.agents}
        truncs = {a: trunc for a in self.agents}
        if done or trunc:
            self.agents = []
        return obs, rew, terms, truncs, infos

    def render(self) -> str | None:
        """The public board: text (``ansi``) or SVG (``svg``)."""
        return _render(self.driver, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray:
        """Not provided: a global state tensor would reveal hidden information."""
        raise NotImplementedError("state(): no global state tensor (hidden information)")


def aec_env(game: str, num_players: int | None = None, **kwargs: Any) -> CitybuildersAECEnv:
    """The turn-based AEC env of ``game``."""
    return CitybuildersAECEnv(game, num_players, **kwargs)


def parallel_env(game: str, num_players: int | None = None, **kwargs: Any
                 ) -> CitybuildersParallelEnv:
    """The Parallel env of ``game`` (one action per active player per step)."""
    return CitybuildersParallelEnv(game, num_players, **kwargs)


def env(game: str, num_players: int | None = None, **kwargs: Any) -> AECEnv:
    """The natural AEC env: turn-based for sequential games, ``parallel_to_aec`` of the
    Parallel env for the simultaneous roll-and-writes."""
    if load_game(game).simultaneous:
        return parallel_to_aec(parallel_env(game, num_players, **kwargs))
    return aec_env(game, num_players, **kwargs)


def game_module(game: str, num_players: int | None = None, **kwargs: Any) -> SimpleNamespace:
    """An object with ``env(**kw)``, ``parallel_env(**kw)`` and ``raw_env(**kw)`` for ``game``
    (the module shape of PettingZoo's test helpers)."""

    def _env(**kw: Any) -> AECEnv:
        return env(game, num_players, **{**kwargs, **kw})

    def _par(**kw: Any) -> CitybuildersParallelEnv:
        return parallel_env(game, num_players, **{**kwargs, **kw})

    return SimpleNamespace(env=_env, raw_env=_env, parallel_env=_par)
