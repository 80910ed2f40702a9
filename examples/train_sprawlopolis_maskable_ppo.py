"""Train sb3-contrib MaskablePPO on solo Sprawlopolis and plot its learning curve.

Needs the ``[train]`` extra and torch (offline here: ``pip install torch==2.13.0`` first, then
``pip install -e '.[train]'``). Not run in CI.

    python examples/train_sprawlopolis_maskable_ppo.py --timesteps 20000 \
        --out docs/rl_sprawlopolis_ppo.png

The policy acts in a compact action space (``CompactSprawlopolis``: hand slot x position
relative to the city x rotation, 6,936 ids instead of the engine's 147,474). Every
``--eval-every`` timesteps the deterministic policy plays ``--eval-games`` fixed deals
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

from citybuilders.games.sprawlopolis.actions import decode, rc_of


W = 34  # window side: a 15-card city spans at most 30 blocks, plus 2 on each side


class CompactSprawlopolis:
    """A gymnasium wrapper with a small action space for solo Sprawlopolis (training only).

    Action = ``((hand slot * W + row offset) * W + column offset) * 2 + rotated``, the offsets
    counted from 2 blocks above/left of the city's top-left block; observation = the block
    planes cropped to that window (so actions and planes share coordinates) + the hand (card
    numbers one-hot per slot), the face-up top card, the conditions and the counts/score
    pieces. Decoding goes through the engine's action encoding (``actions.decode``/``rc_of``).
    """

    def __init__(self, env) -> None:
        import gymnasium as gym

        self.env = env
        enc = env.driver.encoder
        self.enc = enc
        self.n = 3 * W * W * 2
        extra = sum(int(np.prod(shape)) for name, shape in enc.pieces if name != "blocks")
        self.size = 8 * W * W + 3 * 18 + extra
        self.action_space = gym.spaces.Discrete(self.n)
        self.observation_space = gym.spaces.Box(-1e6, 1e6, (self.size,), np.float32)
        self._map: dict[int, int] = {}

    def _wrap(self, obs: np.ndarray) -> np.ndarray:
        state = self.env.driver.state
        view = state.observation(0)
        v = self.enc.views(obs)
        origin = v["blocks"].shape[1] // 2 - 2  # block 0 of the encoder's window
        top, left = view["grid"]["top"] - 2 + origin, view["grid"]["left"] - 2 + origin
        out = np.zeros(self.size, dtype=np.float32)
        crop = out[:8 * W * W].reshape(8, W, W)
        blocks = v["blocks"][:, max(top, 0):top + W, max(left, 0):left + W]
        crop[:, :blocks.shape[1], :blocks.shape[2]] = blocks
        hand = out[8 * W * W:8 * W * W + 54].reshape(3, 18)
        for slot, card in enumerate(sorted(view["hand"])[:3]):
            hand[slot, card - 1] = 1.0
        out[8 * W * W + 54:] = np.concatenate(
            [v[name].ravel() for name, _ in self.enc.pieces if name != "blocks"])
        self._map = {}
        if not state.is_terminal():
            slots = {card: i for i, card in enumerate(sorted(view["hand"]))}
            top0, left0 = view["grid"]["top"] - 2, view["grid"]["left"] - 2
            for a in state.legal_actions(0):
                card, pos, rot = decode(a)  # the engine's action encoding (actions.py)
                r, c = rc_of(pos)
                dr, dc = r - top0, c - left0
                if 0 <= dr < W and 0 <= dc < W:
                    self._map[((slots[card] * W + dr) * W + dc) * 2 + rot] = a
        return out

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.n, dtype=bool)
        mask[list(self._map)] = True
        return mask

    def reset(self, seed=None, options=None):
        obs, info = self.env.reset(seed=seed)
        return self._wrap(obs), info

    def step(self, action):
        obs, reward, done, trunc, info = self.env.step(self._map[int(action)])
        return self._wrap(obs), reward, done, trunc, info


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


def _as_gym(wrapper: CompactSprawlopolis):
    """A real ``gymnasium.Env`` around the duck-typed wrapper (what stable-baselines3 wants)."""
    import gymnasium as gym

    class Env(gym.Env):
        metadata: dict = {"render_modes": []}

        def __init__(self) -> None:
            self.inner = wrapper
            self.action_space = wrapper.action_space
            self.observation_space = wrapper.observation_space

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return wrapper.reset(seed=seed)

        def step(self, action):
            return wrapper.step(action)

        def action_masks(self):
            return wrapper.action_masks()

    return Env()


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

    import citybuilders.rl.gymnasium  # noqa: F401 (registers the citybuilders/... ids)
    from citybuilders.bots import make_bot

    import torch

    torch.set_num_threads(1)
    base_env = gym.make("citybuilders/Sprawlopolis-v0", reward="score_delta").unwrapped
    eval_env = gym.make("citybuilders/Sprawlopolis-v0").unwrapped
    env = _as_gym(CompactSprawlopolis(base_env))
    compact_eval = _as_gym(CompactSprawlopolis(gym.make("citybuilders/Sprawlopolis-v0").unwrapped))
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

        score = play_deals(compact_eval, choose, seeds)
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
    ax.legend(loc="center right")  # between the bots' lines, clear of the curve
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
