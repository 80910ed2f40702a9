"""Train sb3-contrib MaskablePPO on solo Sprawlopolis and plot its learning curve.

Needs the ``[train]`` extra and torch (offline here: ``pip install torch==2.13.0`` first, then
``pip install -e '.[train]'``). Not run in CI.

    python examples/train_sprawlopolis_maskable_ppo.py --timesteps 20000 \
        --out docs/rl_sprawlopolis_ppo.png

Every ``--eval-every`` timesteps the deterministic policy plays ``--eval-games`` fixed deals
(env seeds 10_000, 10_001, ...); the random and greedy bots play the same deals (the deal
depends only on the seed: Sprawlopolis has the same chance nodes whatever is played). The plot
shows the mean final score of each against timesteps; the numbers are also printed as CSV.

Cost: the policy has one logit per engine action id (147,474), so on a CPU expect about 0.1 s
per ``predict`` and 40 s per 128 training timesteps (measured on a shared 2-core machine);
see docs/rl.md.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

import numpy as np


def play_deals(env, choose: Callable[[object, np.ndarray], int], seeds: list[int]) -> float:
    """Mean final score of ``choose(obs, mask) -> action`` over the deals ``seeds``."""
    scores = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, info = env.step(choose(obs, env.action_masks()))
        scores.append(info["score"])
    return float(np.mean(scores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=20_000)
    parser.add_argument("--eval-every", type=int, default=2_000)
    parser.add_argument("--eval-games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/rl_sprawlopolis_ppo.png")
    args = parser.parse_args()

    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    import citybuilders.rl.gymnasium  # noqa: F401 - registers citybuilders/... ids
    from citybuilders.bots import make_bot

    env = gym.make("citybuilders/Sprawlopolis-v0", reward="score_delta").unwrapped
    eval_env = gym.make("citybuilders/Sprawlopolis-v0").unwrapped
    seeds = [10_000 + i for i in range(args.eval_games)]

    rng = np.random.default_rng(args.seed)
    random_score = play_deals(eval_env, lambda o, m: int(rng.choice(np.flatnonzero(m))), seeds)
    greedy = make_bot("greedy", args.seed)
    greedy_score = play_deals(
        eval_env, lambda o, m: greedy.step(eval_env.driver.state, 0), seeds)
    print(f"random bot: {random_score:.2f}  greedy bot: {greedy_score:.2f} (mean final score)")

    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=4,
                        learning_rate=3e-4, gamma=1.0, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [128, 128]})
    curve: list[tuple[int, float, float]] = []

    def evaluate() -> None:
        def choose(obs: np.ndarray, mask: np.ndarray) -> int:
            action, _ = model.predict(obs, action_masks=mask, deterministic=True)
            return int(action)

        score = play_deals(eval_env, choose, seeds)
        curve.append((model.num_timesteps, score, time.perf_counter() - start))
        print(f"{model.num_timesteps},{score:.2f},{curve[-1][2]:.0f}s", flush=True)

    class Every(BaseCallback):
        def _on_step(self) -> bool:
            if self.num_timesteps % args.eval_every < self.training_env.num_envs:
                evaluate()
            return True

    start = time.perf_counter()
    print("timesteps,ppo_mean_score,seconds")
    evaluate()
    model.learn(total_timesteps=args.timesteps, callback=Every())
    if curve[-1][0] != model.num_timesteps:
        evaluate()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=110)
    ax.plot([c[0] for c in curve], [c[1] for c in curve], marker="o", label="MaskablePPO")
    ax.axhline(random_score, color="grey", linestyle="--", label="random bot")
    ax.axhline(greedy_score, color="green", linestyle=":", label="greedy bot")
    ax.set_xlabel("training timesteps (agent moves)")
    ax.set_ylabel(f"mean final score, {len(seeds)} fixed deals")
    ax.set_title("Sprawlopolis solo: MaskablePPO on citybuilders/Sprawlopolis-v0")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
