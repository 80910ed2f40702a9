"""Gymnasium adapter: env_checker for every registered id, masks, rewards."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from citybuilders.rl import gymnasium as cg  # noqa: E402


def test_registered_ids():
    assert cg.ENV_IDS == ("citybuilders/Sprawlopolis-v0", "citybuilders/RollIntoTown-v0",
                          "citybuilders/RollBuilder-Rivermouth-v0",
                          "citybuilders/RollBuilder-Highcrag-v0",
                          "citybuilders/RollBuilder-Goldplain-v0",
                          "citybuilders/KingdomBuilder-v0")


@pytest.mark.parametrize("env_id", cg.ENV_IDS)
def test_check_env(env_id):
    env = gym.make(env_id, render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=0)
    assert isinstance(env.render(), str)


@pytest.mark.parametrize("env_id,kwargs", [("citybuilders/Sprawlopolis-v0", {}),
                                           ("citybuilders/RollBuilder-Highcrag-v0", {}),
                                           ("citybuilders/KingdomBuilder-v0",
                                            {"opponents": ("random", "greedy")})])
def test_episode_masks_and_rewards(env_id, kwargs):
    dense = gym.make(env_id, reward="score_delta", **kwargs).unwrapped
    sparse = gym.make(env_id, **kwargs).unwrapped
    results = []
    for env in (dense, sparse):
        obs, info = env.reset(seed=11)
        start = info.pop("score")
        rng = np.random.default_rng(0)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert (mask == info["action_mask"]).all() and mask.sum() > 0
            obs, reward, done, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
        results.append((total, info, start))
    (d_total, d_info, d_start), (s_total, s_info, _) = results
    assert d_total == d_info["score"] - d_start  # dense rewards sum to the score gained
    assert s_info["score"] == d_info["score"]  # same seed, same actions: same game
    if env_id.endswith("KingdomBuilder-v0"):
        assert s_total == s_info["returns"][0]
        assert dense.driver.num_players == 3
    else:
        assert s_total == s_info["score"]


def test_one_step_make_and_bad_arguments():
    env = gym.make("citybuilders.rl.gymnasium:citybuilders/RollIntoTown-v0")
    assert env.action_space.n == 5144
    from citybuilders.core.errors import OptionError

    with pytest.raises(OptionError, match="unknown bot 'smart'"):
        gym.make("citybuilders/KingdomBuilder-v0", opponents=("smart",))
    with pytest.raises(ValueError, match="reward: expected terminal or score_delta"):
        gym.make("citybuilders/Sprawlopolis-v0", reward="bonus")
