"""Game flow: setup, deal, turns (solo and co-op), placement legality, notation, hidden hands."""

from __future__ import annotations

import random

import pytest

from citybuilders.bots import make_bot
from citybuilders.core.errors import IllegalActionError, OptionError
from citybuilders.core.game import CHANCE, TERMINAL, private_chance
from citybuilders.core.registry import load_game
from citybuilders.core.rng import make_rng
from citybuilders.core.runner import play_out
from citybuilders.core.undo import undoable_count
from citybuilders.games.sprawlopolis.actions import CHANCE_BASE, decode, encode
from citybuilders.games.sprawlopolis.rules.state import SprawlopolisState
from citybuilders.games.sprawlopolis.actions import index_of


def dealt(num_players: int = 1, seed: int = 0, **options) -> SprawlopolisState:
    """A new game advanced through the deal, the start card and the first reveal."""
    state = load_game("sprawlopolis", **options).new_initial_state(num_players, seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    return state


def deal_cards(state: SprawlopolisState, cards: list[int]) -> SprawlopolisState:
    for c in cards:
        state.apply_action(CHANCE_BASE + c - 1)
    return state


@pytest.mark.parametrize("n, deck", [(1, 11), (2, 10), (3, 9), (4, 8)])
def test_setup_sizes(n: int, deck: int) -> None:
    s = dealt(n, seed=5)
    assert len(s.deck) + 1 == deck  # the digest counts the face-up top card as part of the deck
    assert [len(h) for h in s.hands] == [3] + [1] * (n - 1)
    assert len(s.city.placements) == 1 and s.top and s.current_player() == 0
    assert s.city.placements[0][1:] == (index_of(0, 0), 0)
    assert len(set(s.conditions)) == 3 and s.target == sum(s.conditions)
    all_cards = sorted(s.deck + [c for h in s.hands for c in h] + [s.top, s.city.placements[0][0]]
                       + list(s.conditions))
    assert all_cards == list(range(1, 19))


def test_conditions_option_and_seed() -> None:
    s = load_game("sprawlopolis", conditions=[4, 9, 17]).new_initial_state(1, 3)
    assert s.conditions == (4, 9, 17) and s.target == 30
    assert 4 not in s.deck and 9 not in s.deck
    a = load_game("sprawlopolis").new_initial_state(1, 11).conditions
    assert a == load_game("sprawlopolis").new_initial_state(1, 11).conditions
    for bad in ([1, 2], [1, 1, 2], [0, 1, 2], [1, 2, 19]):
        with pytest.raises(OptionError):
            load_game("sprawlopolis", conditions=bad)
    with pytest.raises(OptionError):
        load_game("sprawlopolis", city_edge="inner")
    with pytest.raises(OptionError):
        load_game("sprawlopolis").new_initial_state(5)


def test_deal_is_private_start_and_reveal_public() -> None:
    s = load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(3, 0)
    viewers = []
    for c in (4, 5, 6, 7, 8, 9, 10):
        viewers.append(s.chance_viewer())
        s.apply_action(CHANCE_BASE + c - 1)
    assert viewers == [0, 0, 0, 1, 2, None, None]
    assert s.hands == [[4, 5, 6], [7], [8]]
    assert s.city.placements == [(9, index_of(0, 0), 0)] and s.top == 10
    assert [a for a, _ in s.history()[:5]] == [private_chance(0)] * 3 + [private_chance(1), private_chance(2)]
    assert s.history()[5][0] == CHANCE and s.current_player() == 0
    outcomes = load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(1).chance_outcomes()
    assert len(outcomes) == 15 and abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_coop_turn_passes_left_and_draws_top() -> None:
    s = deal_cards(load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(2, 0),
                   [4, 5, 6, 7, 8, 9])
    assert s.hands == [[4, 5, 6], [7]] and s.top == 9
    s.apply_action(s.string_to_action("play 5 at 0,2"))
    assert s.hands == [[9], [7, 4, 6]] and s.top == 0 and s.active == 1
    assert s.is_chance_node() and s.chance_viewer() is None   # the next top card is revealed
    s.apply_action(CHANCE_BASE + 10 - 1)
    assert s.current_player() == 1 and s.top == 10


def test_solo_turn_draws_back_to_three() -> None:
    s = deal_cards(load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(1, 0),
                   [4, 5, 6, 7, 8])
    s.apply_action(s.string_to_action("play 4 at 0,2 rot 180"))
    assert sorted(s.hands[0]) == [5, 6, 8] and s.is_chance_node()


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_full_game_has_14_plays_and_active_player_always_holds_a_card(n: int) -> None:
    for seed in range(3):
        s = load_game("sprawlopolis").new_initial_state(n, seed)
        rng = random.Random(seed)
        plays = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            p = s.current_player()
            assert s.hands[p], "the active player always has a card"
            if n > 1:
                assert p == plays % n
            s.apply_action(rng.choice(s.legal_actions()))
            plays += 1
        assert plays == 14 and len(s.city.placements) == 15
        assert all(not h for h in s.hands) and not s.deck and not s.top
        assert s.current_player() == TERMINAL


def test_returns_winners_and_result_info() -> None:
    for seed in range(6):
        s = load_game("sprawlopolis").new_initial_state(2, seed)
        play_out(s, [make_bot("greedy", 1), make_bot("greedy", 2)], make_rng(seed, "c"))
        b = s.breakdown()
        assert s.returns() == ([1.0, 1.0] if b.total >= s.target else [0.0, 0.0])
        assert s.winners() == ([0, 1] if b.won else [])
        sc = s.scores()
        assert sc[0].total == sc[1].total == b.total and sc[0].parts == sc[1].parts
        assert sc[0].extra == {"won": b.won, "target": s.target}
        info = s.result_info()
        assert info == {"won": b.won, "target": s.target,
                        "conditions": "-".join(map(str, sorted(s.conditions)))}
        assert s.game.describe_setup(s) == f"conditions {info['conditions']} (target {s.target})"


def test_returns_zero_before_end() -> None:
    assert dealt(1).returns() == [0.0]


# ------------------------------------------------------------------ placement rules in play
def _start(conditions=(1, 2, 3), **options) -> SprawlopolisState:
    s = load_game("sprawlopolis", conditions=list(conditions), **options).new_initial_state(1, 0)
    return deal_cards(s, [4, 5, 6, 7, 8])   # hand 4 5 6, city: card 7 at 0,0, top 8


@pytest.mark.parametrize("text, legal", [
    ("play 4 at 0,2", True),         # full side
    ("play 4 at 1,2", True),         # half offset
    ("play 4 at 1,1", True),         # covers one block
    ("play 4 at 0,0", True),         # covers the whole card (A1 default)
    ("play 4 at -2,-1", True),       # above, offset
    ("play 4 at 2,2", False),        # corner only
    ("play 4 at -2,2", False),       # corner only
    ("play 4 at 0,3", False),        # detached
    ("play 4 at 5,5", False),        # far away
])
def test_placement_legality(text: str, legal: bool) -> None:
    s = _start()
    if legal:
        s.apply_action(s.string_to_action(text))
        assert s.is_chance_node()
    else:
        with pytest.raises(IllegalActionError) as err:
            s.string_to_action(text)
        assert "card 4" in str(err.value)


def test_illegal_reasons() -> None:
    s = _start()
    with pytest.raises(IllegalActionError, match="only at a corner"):
        s.string_to_action("play 4 at 2,2")
    with pytest.raises(IllegalActionError, match="does not touch"):
        s.string_to_action("play 4 at 0,3")
    with pytest.raises(IllegalActionError, match="horizontal"):
        s.string_to_action("play 4 at 0,2 rot 90")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        s.string_to_action("play 9 at 0,2")
    with pytest.raises(IllegalActionError, match="cards are 1-18"):
        s.string_to_action("play 19 at 0,2")
    with pytest.raises(IllegalActionError, match="expected"):
        s.string_to_action("hello")
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action(encode(4, index_of(2, 2), 0))
    assert s.to_json() == before


def test_notation_round_trip_and_variants() -> None:
    s = _start()
    a = encode(5, index_of(-1, 2), 1)
    assert s.action_to_string(a) == "play 5 at -1,2 rot 180"
    for text in ("play 5 at -1,2 rot 180", "5 -1,2 180", "5 -1 2 180", "  PLAY 5 at -1, 2 rot 180 "):
        assert s.string_to_action(text) == a
    assert s.string_to_action("5 -1,2") == encode(5, index_of(-1, 2), 0)
    assert decode(a) == (5, index_of(-1, 2), 1)
    assert s.action_path(a) == ("card:5", "pos:-1,2", "rot:180")
    assert s.action_to_string(CHANCE_BASE + 8) == "card 9"
    legal = s.legal_actions()
    assert legal == sorted(legal) and len(set(legal)) == len(legal)
    assert all(s.string_to_action(s.action_to_string(x)) == x for x in legal[:50])


def test_cover_whole_card_forbidden_option() -> None:
    s = _start(cover_whole_card="forbidden")
    with pytest.raises(IllegalActionError, match="every visible block"):
        s.string_to_action("play 4 at 0,0")
    s.apply_action(s.string_to_action("play 4 at 0,1"))   # covers 2 blocks of card 7: fine
    s.apply_action(CHANCE_BASE + 9 - 1)
    # card 7 now shows only column 0; covering both its visible blocks is forbidden
    with pytest.raises(IllegalActionError):
        s.string_to_action("play 5 at 0,-1")
    s.apply_action(s.string_to_action("play 5 at 1,-1"))   # covers one of the two: fine


def test_covering_never_removes_more_than_the_covered_blocks() -> None:
    s = _start()
    s.apply_action(s.string_to_action("play 4 at 1,1"))
    from citybuilders.games.sprawlopolis.loader import card_blocks

    cells = s.city.cells
    assert len(s.city.occ) == 7
    assert [s.city.owner[index_of(r, c)] for r, c in ((0, 0), (0, 1), (1, 0), (1, 1), (2, 2))] \
        == [0, 0, 0, 1, 1]
    assert [cells[index_of(r, c)] for r, c in ((1, 1), (1, 2), (2, 1), (2, 2))] == list(card_blocks(4, 0))
    assert [cells[index_of(r, c)] for r, c in ((0, 0), (0, 1), (1, 0))] == list(card_blocks(7, 0)[:3])


def test_undo_only_latest_play() -> None:
    s = load_game("sprawlopolis").new_initial_state(1, 4)
    rng = random.Random(0)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            assert undoable_count(s, 0) == 1


# ------------------------------------------------------------------ hidden information
def test_observation_hides_other_hands_and_deck_order() -> None:
    s = deal_cards(load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(3, 0),
                   [4, 5, 6, 7, 8, 9, 10])
    obs1 = s.observation(1)
    assert obs1["hand"] == [7] and obs1["hand_sizes"] == [3, 1, 1]
    text = repr(obs1)
    assert "hands" not in obs1 and "deck" not in obs1
    assert obs1["deck_top"] == 10 and obs1["deck_size"] == 8
    assert s.observation(0)["hand"] == [4, 5, 6]
    assert "hand" not in s.observation(None)
    assert "'card': 4" not in text and "'card': 8" not in text
    assert s.information_state_key(1) != s.information_state_key(0)
    k1 = s.information_state_key(1)
    assert f"{private_chance(0)}:?" in k1 and f"{private_chance(1)}:{CHANCE_BASE + 6}" in k1


def test_resample_keeps_what_the_player_knows() -> None:
    s = deal_cards(load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(3, 0),
                   [4, 5, 6, 7, 8, 9, 10])
    s.apply_action(s.string_to_action("play 4 at 0,2"))   # P1 now holds 7 5 6 (knows all three)
    s.apply_action(CHANCE_BASE + 11 - 1)
    rng = random.Random(1)
    changed = False
    for _ in range(20):
        r = s.resample_from_infostate(1, rng)
        assert sorted(r.hands[1]) == [5, 6, 7]          # P2's own hand is unchanged
        assert r.hands[0] == [10] and r.top == 11        # drawn from the face-up deck: known
        assert r.city.placements == s.city.placements
        assert len(r.hands[2]) == 1 and len(r.deck) == len(s.deck)
        assert sorted(r.deck + r.hands[2]) == sorted(s.deck + s.hands[2])
        assert r.information_state_key(1) == s.information_state_key(1)
        changed |= r.hands[2] != s.hands[2]
        # the resampled history replays to the resampled state
        g = s.game
        t = g.new_initial_state(3, s.seed)
        for actor, action in r.history():
            t.apply_action(action, actor if actor >= 0 else None)
        assert t.hands == r.hands and sorted(t.deck) == r.deck
    assert changed


def test_json_round_trip() -> None:
    s = dealt(2, seed=9)
    s.apply_action(s.legal_actions()[3])
    t = s.game.state_from_json(s.to_json())
    assert t == s and t.legal_actions() == s.legal_actions()


# ------------------------------------------------------------------ bots
def test_greedy_action_is_a_best_immediate_play() -> None:
    s = dealt(1, seed=2, conditions=[5, 12, 17])
    for _ in range(3):
        a = s.greedy_action(0, random.Random(0))
        values = {}
        for x in s.legal_actions():
            t = s.clone()
            t.apply_action(x)
            values[x] = t.breakdown().total
        assert values[a] == max(values.values())
        s.apply_action(a)
        s.apply_action(s.sample_chance(random.Random(3)))


def test_rendering_and_web_hooks() -> None:
    s = _start()
    text = s.render_text(0, color=True)
    assert "\x1b[" in text and "legal top-left positions" in text and "target 6" in text
    plain = s.render_text(0, color=False)
    assert "\x1b[" not in plain and "1 The Outskirts" in plain and "your hand (P1)" in plain
    svg = s.render_svg(0)
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)   # well-formed XML
    keys = [el.get("data-key") for el in root.iter() if el.get("data-key")]
    assert len([k for k in keys if k.startswith("pos:")]) == len(s._positions())
    assert sorted(k for k in keys if k.startswith("card:")) == ["card:4", "card:5", "card:6"]
    for key in ("card:4", "card:5", "card:6", "pos:0,2", "pos:-2,-1"):
        assert f"data-key='{key}'" in svg
    assert "data-key='pos:2,2'" not in svg
    for a in s.legal_actions()[:40]:
        card_key, pos_key, rot_key = s.action_path(a)
        assert f"data-key='{card_key}'" in svg and f"data-key='{pos_key}'" in svg
        assert rot_key in ("rot:0", "rot:180")
    assert "card:" not in s.render_svg(None)
    assert str(s)
