"""OpenSpiel adapter: pyspiel's own random_sim_test, MCTSBot and evaluate_bots through it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import citybuilders  # noqa: E402
from citybuilders.core.errors import IllegalActionError  # noqa: E402
from citybuilders.rl import openspiel as cos  # noqa: E402

GAMES = [
    ("kingdom-builder", {"players": 2}),
    ("kingdom-builder", {"players": 3, "expansions": "crossroads", "seed": 5}),
    ("kingdom-builder", {"players": 4, "preset": "first-game"}),
    ("sprawlopolis", {"players": 1}),
    ("sprawlopolis", {"players": 3, "difficulty": "harder"}),
    ("roll-into-town", {"players": 1}),
    ("roll-into-town", {"players": 3, "rows": 7, "cols": 7}),
    ("roll-builder", {"players": 1, "sheet": "rivermouth"}),
    ("roll-builder", {"players": 1, "sheet": "highcrag"}),
    ("roll-builder", {"players": 2, "sheet": "goldplain"}),
]


@pytest.mark.parametrize("name,params", GAMES)
def test_random_sim_test_with_serialization(name, params):
    game = cos.load(name, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_types_are_honest():
    kb = cos.load("kingdom-builder").get_type()
    assert kb.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kb.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kb.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kb.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kb.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kb.min_num_players, kb.max_num_players) == (2, 4)
    spr = cos.load("sprawlopolis", players=2)
    assert spr.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert spr.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    for name in ("roll-into-town", "roll-builder"):
        g = cos.load(name, players=2)
        assert g.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        assert g.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        # the engine's actions plus one 'pass'
        assert g.num_distinct_actions() == citybuilders.load_game(name).num_distinct_actions() + 1
    assert cos.load("kingdom-builder").num_distinct_actions() == 970032
    assert cos.load("kingdom-builder", players=3).max_game_length() == 3 * 16 * 25 + 3
    assert cos.load("kingdom-builder").utility_sum() == 1.0


def test_bad_parameter_is_one_clear_error():
    with pytest.raises(Exception, match="option 'rare_exception'"):
        cos.load("kingdom-builder", rare_exception="sometimes")
    with pytest.raises(Exception, match="num_players"):
        cos.load("kingdom-builder", players=7)


def test_simultaneous_node_and_pass():
    game = cos.load("roll-into-town", players=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    engine = cos.engine_state(state)
    joint = [state.legal_actions(p)[0] for p in range(2)]
    before = len(engine.history())
    state.apply_actions(joint)
    assert len(cos.engine_state(state).history()) == before + 2
    # a player who is done must pass: its only legal action is the pass id
    pass_id = game.num_distinct_actions() - 1
    for _ in range(200):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        legal = [state.legal_actions(p) for p in range(2)]
        if [pass_id] in legal:
            break
        state.apply_actions([rng.choice(a) for a in legal])
    assert [pass_id] in [state.legal_actions(p) for p in range(2)]
    assert state.action_to_string(0, pass_id) == "pass"


def test_illegal_action_raises_and_leaves_state():
    state = cos.load("kingdom-builder").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    text = str(state)
    assert 0 not in state.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(0)
    assert str(err.value) == "'card grass': only drawn as a chance outcome, not played by a player"
    assert str(state) == text


def test_clone_serialize_and_engine_state():
    game = cos.load("kingdom-builder")
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0]) if not clone.is_chance_node() else \
        clone.apply_action(clone.chance_outcomes()[0][0])
    assert len(clone.history()) == len(state.history()) + 1  # independent
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state)
    assert cos.engine_state(state2).to_json() == cos.engine_state(state).to_json()
    # the initial state is shared copy-on-write: playing one game leaves new ones fresh
    assert game.new_initial_state().history() == []


def test_observers():
    from open_spiel.python.observation import make_observation

    game = cos.load("kingdom-builder")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    obs = make_observation(game)
    obs.set_from(state, 0)
    assert obs.tensor.shape == (game.observation_tensor_size(),)
    assert obs.dict["terrain"].shape == (10, 20, 20)
    assert obs.dict["terrain"].sum() == 400
    assert state.observation_tensor(0) == list(obs.tensor)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor is None
    assert info.string_from(state, 0) == cos.engine_state(state).information_state_key(0)
    assert state.information_state_string(1) == cos.engine_state(state).information_state_key(1)
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                         private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 0) == cos.engine_state(state).render_text(None)
    assert state.observation_string(0) == cos.engine_state(state).render_text(0)


def _mcts(game, sims, seed):
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(game, 2.0, sims, evaluator, solve=False,
                        random_state=np.random.RandomState(seed))


@pytest.mark.parametrize("name,params", [("sprawlopolis", {"players": 1}),
                                         ("kingdom-builder", {"players": 2})])
def test_openspiel_mcts_plays_full_games(name, params):
    game = cos.load(name, **params)
    state = game.new_initial_state()
    bot = _mcts(game, 3, 0)
    rng = np.random.RandomState(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    returns = state.returns()
    assert cos.engine_state(state).is_terminal()
    assert returns == cos.engine_state(state).returns()
    assert len(returns) == params["players"]


def test_evaluate_bots_mcts_against_our_ismcts():
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    for name, params in (("kingdom-builder", {"players": 2, "preset": "first-game"}),
                         ("sprawlopolis", {"players": 2})):
        game = cos.load(name, **params)
        bots = [_mcts(game, 3, 1), cos.EngineBot("ismcts", 1, seed=1, iterations=4)]
        returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
        assert len(returns) == 2
        if name == "kingdom-builder":
            assert sum(returns) == pytest.approx(1.0) and set(returns) <= {0.0, 0.5, 1.0}
        else:
            assert returns[0] == returns[1] and returns[0] in (0.0, 1.0)


def test_engine_bots_as_pyspiel_bots_on_simultaneous_games():
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = cos.load("roll-builder", players=2)
    bots = [cos.EngineBot("greedy", 0, seed=0), cos.EngineBot("random", 1, seed=1)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0)


def test_resample_keeps_information_state_and_tensor():
    """Through pyspiel: a resampled state has the same information-state string and the same
    observation tensor for the player, while the hidden card of the other player varies."""
    game = cos.load("kingdom-builder")
    state = game.new_initial_state()
    rng = random.Random(4)
    while not (state.current_player() == 0 and len(state.history()) > 8
               and cos.engine_state(state).observation(0)["players"][1]["card"] is None):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    others = set()
    for _ in range(10):
        other = state.resample_from_infostate(0, None)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert other.observation_tensor(0) == state.observation_tensor(0)
        others.add(tuple(other.observation_tensor(1)))
        state = other  # a new key each time: chain the resamples
    assert len(others) > 1


def test_illegal_joint_action_changes_nothing():
    game = cos.load("roll-builder", players=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    legal0 = state.legal_actions(0)
    illegal1 = next(a for a in range(game.num_distinct_actions() - 1)
                    if a not in state.legal_actions(1))
    before = cos.engine_state(state).to_json()
    with pytest.raises(IllegalActionError):
        state.apply_actions([legal0[0], illegal1])
    assert cos.engine_state(state).to_json() == before  # P1's legal move was not applied
    with pytest.raises(Exception, match="joint action: expected 2 actions, got 1"):
        state.apply_actions([legal0[0]])


@pytest.mark.parametrize("name,params", [GAMES[1], GAMES[3], GAMES[6], GAMES[9]])
def test_python_fast_paths_answer_as_pyspiel_does(name, params):
    """legal_actions([player]), is_chance_node, is_simultaneous_node, is_player_node and
    current_player answered in Python equal pyspiel's own C++ answers (pyspiel.State's
    methods) at every node of a random game, for every player."""
    game = cos.load(name, **params)
    n = game.num_players()
    state = game.new_initial_state()
    rng = random.Random(2)
    B = pyspiel.State
    kinds = set()
    while True:
        assert state.current_player() == B.current_player(state)
        assert state.is_chance_node() == B.is_chance_node(state)
        assert state.is_simultaneous_node() == B.is_simultaneous_node(state)
        assert state.is_player_node() == B.is_player_node(state)
        assert state.legal_actions() == B.legal_actions(state)
        for p in range(n):
            assert state.legal_actions(p) == B.legal_actions(state, p)
        first = state.legal_actions()
        if first:
            first.append(-7)  # a new list each call: the adapter's memory is not changed
            assert state.legal_actions()[-1] != -7
        if state.is_terminal():
            kinds.add("terminal")
            break
        if state.is_chance_node():
            kinds.add("chance")
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.is_simultaneous_node():
            kinds.add("simultaneous")
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
        else:
            kinds.add("player")
            state.apply_action(rng.choice(state.legal_actions()))
    assert kinds == ({"terminal", "chance", "simultaneous"} if name.startswith("roll")
                     else {"terminal", "chance", "player"})
