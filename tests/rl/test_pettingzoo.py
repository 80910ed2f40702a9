"""PettingZoo adapter: pettingzoo.test's own checks for every env."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from pettingzoo import AECEnv  # noqa: E402

from citybuilders.rl import pettingzoo as cpz  # noqa: E402

ENVS = [("kingdom-builder", 2, {}), ("kingdom-builder", 3, {"expansions": ["crossroads"]}),
        ("sprawlopolis", 1, {}), ("sprawlopolis", 3, {}), ("roll-into-town", 1, {}),
        ("roll-into-town", 2, {}), ("roll-builder", 2, {}),
        ("roll-builder", 1, {"sheet": "goldplain"})]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game,n,options", ENVS)
def test_pettingzoo_suite(game, n, options):
    mod = cpz.game_module(game, n, **options)
    api_test(mod.env(), num_cycles=40)
    parallel_api_test(mod.parallel_env(), num_cycles=40)
    seed_test(mod.env, num_cycles=20)
    parallel_seed_test(mod.parallel_env, num_cycles=20)
    max_cycles_test(mod)


def test_natural_env_kinds():
    assert isinstance(cpz.env("kingdom-builder"), cpz.CitybuildersAECEnv)
    aec = cpz.env("roll-into-town", 2)
    assert isinstance(aec, AECEnv) and isinstance(aec.unwrapped, cpz.CitybuildersParallelEnv)


def test_aec_game_to_the_end_and_terminal_rewards():
    env = cpz.aec_env("kingdom-builder", 2, render_mode="ansi")
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    state = env.driver.state
    assert state.is_terminal()
    assert [totals[a] for a in env.possible_agents] == state.returns()
    assert "key:" in env.render()


def test_parallel_pass_and_score_delta():
    env = cpz.parallel_env("roll-builder", 2, reward="score_delta")
    obs, _ = env.reset(seed=3)
    pass_id = env.action_space("player_0").n - 1
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rew, term, trunc, info = env.step(actions)
        for a, r in rew.items():
            total[a] += r
        for a in env.agents:
            if obs[a]["action_mask"][pass_id]:
                assert obs[a]["action_mask"].sum() == 1  # pass is the only move of a waiting player
    scores = [s.total for s in env.driver.state.scores()]
    assert [total[a] for a in env.possible_agents] == scores


def test_illegal_action_policies():
    env = cpz.parallel_env("roll-into-town", 1)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    _, _, _, _, info = env.step({"player_0": illegal})
    assert info["player_0"] == {"illegal_action": True}
    strict = cpz.parallel_env("roll-into-town", 1, illegal_action="raise")
    obs, _ = strict.reset(seed=0)
    from citybuilders.core.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        strict.step({"player_0": illegal})
    with pytest.raises(ValueError, match="render_mode: expected one of ansi, svg"):
        cpz.aec_env("kingdom-builder", render_mode="human")


def test_svg_render():
    env = cpz.aec_env("sprawlopolis", 1, render_mode="svg")
    env.reset(seed=1)
    assert env.render().lstrip().startswith("<svg")
