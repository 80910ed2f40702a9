"""RL adapter benchmarks: random play through each adapter against the raw engine loop.

Run: ``python benchmarks/bench_rl.py [--games N] [--repeat R] [--only openspiel,...]
[--game kingdom-builder,...] [--wall]``; ``--tensors`` times one observation tensor per game
instead (direct path and through the observation JSON).
Needs the ``[rl]`` extra. Prints one table; not a test. Times are this process's CPU time
(``time.process_time``; ``--wall`` for wall-clock), so load from other jobs on a shared machine
inflates them less; compare ratios measured in one run.

Every row plays ``N`` random games (seeds 0..N-1) of one configuration and reports engine
history entries (player moves + chance outcomes) per second, and the cost relative to two raw
loops. The loops play the same games (setup seed, chance outcomes and random choices drawn from
the same RNG streams as the envs draw them; the Gymnasium Kingdom Builder row differs: its
opponent is an embedded random bot with its own RNG):

* ``raw``: ``legal_actions`` + ``random.choice`` + ``apply_legal``, chance from
  ``sample_chance`` - the bare engine;
* ``raw+obs``: the same plus ``observation(player)`` of the acting player every move (the JSON of
  what every RL env must show; the adapters' tensors hold the same facts, read from the
  engine's fields).

The random agents of the adapter rows pick from the env's legal-action list (the same list the
action mask is made from), so scanning a 970,032-entry mask - an agent's cost - is not counted.
Adapter rows: OpenSpiel without observations (``is_terminal``/``is_chance_node``/
``legal_actions`` of the pyspiel state, ``apply_action`` through pyspiel's C++, validated
moves), OpenSpiel with the observation tensor of every acting player every move
(``make_observation(game).set_from``, numpy views), PettingZoo AEC / Parallel
and Gymnasium (observation tensor + action mask every step). Also: clone time of a mid-game
Kingdom Builder state through pyspiel and through the engine, and pyspiel's per-move dispatch
floor (a trivial Python game played directly and through pyspiel).
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

_clock = time.process_time
"""CPU seconds of this process: on the shared machine the time other jobs hold the cores does
not count as ours (their cache and memory traffic still does). ``--wall`` uses
``time.perf_counter`` instead."""


def _pyspiel_game(game_id: str, n: int, options: dict, seed: int):
    """The pyspiel game of the setup of ``seed``, loaded once (by the warm-up, before any timed
    round), as an RL loop loads its game once."""
    from citybuilders.rl import openspiel as cos

    setup = _rngs(seed)[1]
    key = (game_id, n, repr(options), setup)
    if key not in _GAMES:
        params = {k: ",".join(v) if isinstance(v, list) else v for k, v in options.items()}
        _GAMES[key] = cos.load(game_id, players=n, seed=setup, **params)
    return _GAMES[key]


def openspiel(game_id: str, n: int, options: dict, seed: int, obs: bool) -> int:
    import pyspiel

    from citybuilders.rl import openspiel as cos

    chance, setup, rng = _rngs(seed)
    game = _pyspiel_game(game_id, n, options, seed)
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
    t = _clock()
    moves = sum(fn(game_id, n, options, seed, obs) for seed in range(games))
    return moves / (_clock() - t)


def best_rates(loops: list[tuple[str, Callable[..., int], bool]], game_id: str, n: int,
               options: dict, games: int, repeat: int) -> dict[str, float]:
    """Best of ``repeat`` rounds per loop; the loops take turns within each round, so a burst
    of load from other processes hits them alike."""
    for _, fn, obs in loops:
        fn(game_id, n, options, 10_000, obs)  # warm caches (board parse, imports)
        if fn is openspiel:
            for seed in range(games):
                _pyspiel_game(game_id, n, options, seed)
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
        t = _clock()
        for _ in range(repeat):
            state.clone()
        a = min(a, (_clock() - t) / repeat * 1e6)
        t = _clock()
        for _ in range(repeat):
            engine.clone()
        b = min(b, (_clock() - t) / repeat * 1e6)
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
        t = _clock()
        for i in range(repeat):
            enc.encode(state, i % n)
        a = min(a, (_clock() - t) / repeat * 1e6)
        if from_obs is not None:
            t = _clock()
            for i in range(repeat):
                from_obs(state, i % n)
            b = min(b, (_clock() - t) / repeat * 1e6)
    return a, b


def dispatch_floor(moves: int = 20_000) -> tuple[float, float]:
    """µs per move of a trivial one-player Python game (a counter: actions 0 and 1, the game
    ends after 100 moves) played directly and through pyspiel (registered as a Python game the
    way the adapter registers ours, with the same Python-side fast paths): the per-move cost of
    pyspiel's C++ dispatch that no adapter can remove (``apply_action`` enters C++, which calls
    back ``current_player`` and ``_apply_action``)."""
    import pyspiel

    name = "citybuilders_bench_counter"

    class Counter:
        def __init__(self) -> None:
            self.n = 0
            self.legal = [0, 1]

        def current_player(self) -> int:
            return -4 if self.n >= 100 else 0

        def apply(self, action: int) -> None:
            self.n += 1

    class CounterState(pyspiel.State):
        def __init__(self, game: object) -> None:
            super().__init__(game)
            self.c = Counter()

        def current_player(self) -> int:
            return self.c.current_player()

        def is_terminal(self) -> bool:
            return self.c.n >= 100

        def is_chance_node(self) -> bool:
            return False

        def legal_actions(self, player: int | None = None) -> list[int]:
            return [] if self.c.n >= 100 else list(self.c.legal)

        def _legal_actions(self, player: int) -> list[int]:
            return self.c.legal

        def _apply_action(self, action: int) -> None:
            self.c.apply(action)

        def returns(self) -> list[float]:
            return [0.0]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def __str__(self) -> str:
            return str(self.c.n)

    class CounterGame(pyspiel.Game):
        def __init__(self, params: object = None) -> None:
            super().__init__(gtype, pyspiel.GameInfo(
                num_distinct_actions=2, max_chance_outcomes=0, num_players=1, min_utility=0.0,
                max_utility=1.0, utility_sum=None, max_game_length=100), params or {})

        def new_initial_state(self) -> CounterState:
            return CounterState(self)

    gtype = pyspiel.GameType(
        short_name=name, long_name="bench counter",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=1,
        min_num_players=1, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    if name not in pyspiel.registered_names():
        pyspiel.register_game(gtype, CounterGame)
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    a = b = float("inf")
    for _ in range(5):
        t = _clock()
        done = 0
        while done < moves:
            c = Counter()
            while c.current_player() != -4:
                c.apply(rng.choice(c.legal))
                done += 1
        a = min(a, (_clock() - t) / done * 1e6)
        t = _clock()
        done = 0
        while done < moves:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
        b = min(b, (_clock() - t) / done * 1e6)
    return a, b


def main() -> None:
    parser = argparse.ArgumentParser(description="RL adapter throughput vs the raw engine loop")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept")
    parser.add_argument("--only", default="openspiel,pettingzoo,gymnasium")
    parser.add_argument("--game", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--wall", action="store_true",
                        help="wall-clock time instead of this process's CPU time")
    parser.add_argument("--tensors", action="store_true",
                        help="only time one observation tensor per game (direct and via JSON)")
    args = parser.parse_args()
    if args.wall:
        global _clock
        _clock = time.perf_counter
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
        a, b = dispatch_floor()
        print(f"trivial Python game, per move: direct {a:.2f} µs, through pyspiel {b:.2f} µs "
              f"(pyspiel's dispatch floor: {b - a:.2f} µs a move)")


if __name__ == "__main__":
    main()
