"""RL adapter benchmarks: random play through each adapter against the raw engine loop.

Run: ``python benchmarks/bench_rl.py [--games N] [--repeat R] [--only openspiel,...]
[--game kingdom-builder,...]``.
Needs the ``[rl]`` extra. Prints one table; not a test.

Every row plays ``N`` random games (seeds 0..N-1) of one configuration and reports engine
history entries (player moves + chance outcomes) per second, and the cost relative to two raw
loops. The loops play the same games (setup seed, chance outcomes and random choices drawn from
the same RNG streams as the envs draw them; the Gymnasium Kingdom Builder row differs: its
opponent is an embedded random bot with its own RNG):

* ``raw``: ``legal_actions`` + ``random.choice`` + ``apply_legal``, chance from
  ``sample_chance`` - the bare engine;
* ``raw+obs``: the same plus ``observation(player)`` of the acting player every move (the JSON
  every RL env must read; the adapters build their tensors from it).

The random agents of the adapter rows pick from the env's legal-action list (the same list the
action mask is made from), so scanning a 970,032-entry mask - an agent's cost - is not counted.
Adapter rows: OpenSpiel without observations (``legal_actions``/``apply_action`` through pyspiel,
validated moves), OpenSpiel with the observation tensor of every acting player every move
(``make_observation(game).set_from``, numpy views), PettingZoo AEC / Parallel
and Gymnasium (observation tensor + action mask every step). Also: clone time of a mid-game
Kingdom Builder state through pyspiel and through the engine.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Callable


from citybuilders.core.registry import load_game

CONFIGS = [("kingdom-builder", 2, {}), ("kingdom-builder", 3, {"expansions": ["crossroads"]}),
           ("sprawlopolis", 1, {}), ("roll-into-town", 2, {}), ("roll-builder", 2, {})]


def _rngs(seed: int) -> tuple[random.Random, int, random.Random]:
    """(chance RNG, setup seed, choice RNG) exactly as the envs draw them from ``seed``, so every
    loop plays the same games."""
    chance = random.Random(seed)
    return chance, chance.randrange(2 ** 31), random.Random(seed)


def raw(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    chance, setup, rng = _rngs(seed)
    game = load_game(game_id, **options)
    state = game.new_initial_state(n, setup)
    while True:
        cp = state.current_player()
        if cp == -4:
            return state.move_number()
        if cp == -1:
            state.apply_legal(state.sample_chance(chance))
            continue
        if game.simultaneous:  # every active player once, in order (as play_out does)
            for p in state.active_players():
                if obs:
                    state.observation(p)
                state.apply_legal(rng.choice(state.legal_actions(p)), p)
            continue
        if obs:
            state.observation(cp)
        state.apply_legal(rng.choice(state.legal_actions(cp)), cp)


_GAMES: dict = {}


def openspiel(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    import pyspiel

    from citybuilders.rl import openspiel as cos

    chance, setup, rng = _rngs(seed)
    key = (game_id, n, repr(options), setup)
    if key not in _GAMES:  # loaded once (by the warm-up round), as an RL loop does
        _GAMES[key] = cos.load(game_id, players=n, seed=setup, **options)
    game = _GAMES[key]
    state = game.new_initial_state()
    if obs:
        from open_spiel.python.observation import make_observation

        observer = make_observation(game)  # numpy views, no copy (observation_tensor copies)
    engine = cos.engine_state(state)
    sim = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pass_id = game.num_distinct_actions() - 1
    while not state.is_terminal():
        if state.is_chance_node():
            # the engine's sampler (same draws as the other loops; games may override it)
            state.apply_action(engine.sample_chance(chance))
        elif sim:
            if obs:
                for p in range(n):
                    observer.set_from(state, p)
            joint = []
            for p in range(n):
                legal = state.legal_actions(p)
                joint.append(pass_id if legal == [pass_id] else rng.choice(legal))
            state.apply_actions(joint)
        else:
            if obs:
                observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
    return cos.engine_state(state).move_number()


def pz_aec(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    from citybuilders.rl import pettingzoo as cpz

    env = cpz.env(game_id, n, **options)
    env.reset(seed=seed)
    rng = _rngs(seed)[2]
    driver = env.unwrapped.driver
    for agent in env.agent_iter():
        ob, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = driver.legal(int(agent.split("_")[1]))
        env.step(legal[0] if legal == [driver.pass_action] else rng.choice(legal))
    return env.unwrapped.driver.state.move_number()


def pz_parallel(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    from citybuilders.rl import pettingzoo as cpz

    env = cpz.parallel_env(game_id, n, **options)
    ob, _ = env.reset(seed=seed)
    rng = _rngs(seed)[2]
    driver = env.driver
    while env.agents:
        active = driver.state.active_players()
        ob, *_ = env.step({env.possible_agents[p]: rng.choice(driver.legal(p)) for p in active})
    return env.driver.state.move_number()


def gym_env(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    from citybuilders.rl.gymnasium import CitybuildersEnv

    env = CitybuildersEnv(game_id, opponents=("random",) * (n - 1), **options)
    env.reset(seed=seed)
    rng = _rngs(seed)[2]
    done = False
    while not done:
        _, _, done, _, _ = env.step(rng.choice(env.driver.legal(0)))
    return env.driver.state.move_number()


def rate(fn: Callable[..., int], game_id: str, n: int, options: dict, games: int,
         obs: bool = False) -> float:
    """History entries per second over ``games`` seeded games."""
    t = time.perf_counter()
    moves = sum(fn(game_id, n, options, seed, obs) for seed in range(games))
    return moves / (time.perf_counter() - t)


def best_rates(loops: list[tuple[str, Callable[..., int], bool]], game_id: str, n: int,
               options: dict, games: int, repeat: int) -> dict[str, float]:
    """Best of ``repeat`` rounds per loop; the loops take turns within each round, so a burst
    of load from other processes hits them alike."""
    for _, fn, obs in loops:
        fn(game_id, n, options, 10_000, obs)  # warm caches (board parse, imports)
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, fn, obs in loops:
            best[name] = max(best.get(name, 0.0), rate(fn, game_id, n, options, games, obs))
    return best


def clone_us(repeat: int) -> tuple[float, float]:
    """µs per clone of a mid-game 2-player Kingdom Builder state: pyspiel, engine."""
    from citybuilders.rl import openspiel as cos

    state = cos.load("kingdom-builder").new_initial_state()
    rng = random.Random(0)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    engine = cos.engine_state(state)
    a = b = float("inf")
    for _ in range(5):  # best of 5 interleaved rounds
        t = time.perf_counter()
        for _ in range(repeat):
            state.clone()
        a = min(a, (time.perf_counter() - t) / repeat * 1e6)
        t = time.perf_counter()
        for _ in range(repeat):
            engine.clone()
        b = min(b, (time.perf_counter() - t) / repeat * 1e6)
    return a, b


def tensor_us(game_id: str, n: int, options: dict, repeat: int) -> tuple[float, float]:
    """µs per observation tensor of a mid-game position (60 random history entries):
    ``Encoder.encode`` (the direct path) and ``encode_from_observation`` (through the JSON);
    best of 5 interleaved rounds of ``repeat`` tensors, each round over every seat."""
    from citybuilders.rl.encoders import encoder_for

    game = load_game(game_id, **options)
    enc = encoder_for(game, n)
    state = game.new_initial_state(n, 3)
    rng = random.Random(3)
    while state.move_number() < 60 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_legal(state.sample_chance(rng))
        else:
            p = rng.choice(state.active_players())
            state.apply_legal(rng.choice(state.legal_actions(p)), p)
    from_obs = getattr(enc, "encode_from_observation", None)
    a = b = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for i in range(repeat):
            enc.encode(state, i % n)
        a = min(a, (time.perf_counter() - t) / repeat * 1e6)
        if from_obs is not None:
            t = time.perf_counter()
            for i in range(repeat):
                from_obs(state, i % n)
            b = min(b, (time.perf_counter() - t) / repeat * 1e6)
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description="RL adapter throughput vs the raw engine loop")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept")
    parser.add_argument("--only", default="openspiel,pettingzoo,gymnasium")
    parser.add_argument("--game", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--tensors", action="store_true",
                        help="only time one observation tensor per game (direct and via JSON)")
    args = parser.parse_args()
    games = set(filter(None, args.game.split(",")))
    if args.tensors:
        for game_id, n, options in CONFIGS:
            if games and game_id not in games:
                continue
            a, b = tensor_us(game_id, n, options, 200)
            extra = "+crossroads" if options.get("expansions") else ""
            print(f"{game_id}{extra} {n}p tensor: encode {a:.0f} µs, "
                  f"via observation JSON {b:.0f} µs", flush=True)
        return
    only = set(args.only.split(","))
    print(f"{'game':30} {'loop':22} {'moves/s':>9} {'x raw':>6} {'x raw+obs':>9}")
    for game_id, n, options in CONFIGS:
        if games and game_id not in games:
            continue
        loops: list[tuple[str, Callable[..., int], bool]] = [("raw", raw, False),
                                                             ("raw+obs", raw, True)]
        if "openspiel" in only:
            loops += [("openspiel", openspiel, False), ("openspiel+obs tensor", openspiel, True)]
        if "pettingzoo" in only:
            loops += [("pettingzoo AEC", pz_aec, False), ("pettingzoo Parallel", pz_parallel,
                                                          False)]
        if "gymnasium" in only and (n == 1 or game_id == "kingdom-builder"):
            loops.append(("gymnasium", gym_env, False))
        rates = best_rates(loops, game_id, n, options, args.games, args.repeat)
        base, base_obs = rates["raw"], rates["raw+obs"]
        label = f"{game_id} {n}p" + ("+" + "+".join(options["expansions"])
                                     if options.get("expansions") else "")
        for name, r in rates.items():
            print(f"{label:30} {name:22} {r:9.0f} {base / r:6.2f} {base_obs / r:9.2f}",
                  flush=True)
    if "openspiel" in only:
        a, b = clone_us(2000)
        print(f"kingdom-builder 2p clone: pyspiel {a:.1f} µs, engine {b:.1f} µs")


if __name__ == "__main__":
    main()
