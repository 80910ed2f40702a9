"""The folder's rooms hold together: state fields declared once, texts match the card data, the
move generator agrees with the shared placement check, the card-data loader validates."""

from __future__ import annotations

import random

import pytest

from citybuilders.core.registry import load_game
from citybuilders.games.sprawlopolis.actions import (
    CHANCE_BASE,
    NUM_ACTIONS,
    action_to_string,
    encode,
    index_of,
)
from citybuilders.games.sprawlopolis.loader import (
    CARD_NUMBERS,
    CARDS,
    NUM_CARDS,
    ROAD_SHIFT,
    ZONE_MASK,
    ZONES,
    block_code,
    load_cards,
)
from citybuilders.games.sprawlopolis.render import SprawlopolisView
from citybuilders.games.sprawlopolis.rules.city import Placement, placement_problem
from citybuilders.games.sprawlopolis.rules.state import (
    CACHE_FIELDS,
    SAVED_FIELDS,
    Pending,
    SprawlopolisState,
)
from citybuilders.games.sprawlopolis.strategy import SprawlopolisStrategy
from citybuilders.games.sprawlopolis.texts import (
    CONDITION_NAMES,
    CONDITION_RULES,
    ZONE_NAMES,
    condition_label,
)


def _midgame(players: int = 2, plays: int = 6, seed: int = 3, **options: object) -> SprawlopolisState:
    s = load_game("sprawlopolis", **options).new_initial_state(players, seed)
    rng = random.Random(seed)
    while len(s.city.placements) < plays + 1 or s.is_chance_node():
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    return s


def _value(state: SprawlopolisState, field: str) -> object:
    v = getattr(state, field)
    return (v.placements, v.cells, v.owner, v.occ, v.cand) if field == "city" else v


# ------------------------------------------------------------------ fields declared once
def test_slots_are_the_declared_fields() -> None:
    assert SprawlopolisState.__slots__ == SAVED_FIELDS + CACHE_FIELDS
    assert len(set(SAVED_FIELDS + CACHE_FIELDS)) == len(SAVED_FIELDS) + len(CACHE_FIELDS) == 13


def test_clone_copies_every_field_and_shares_no_mutable_one() -> None:
    s = _midgame()
    s.breakdown()
    c = s._clone()
    for f in SAVED_FIELDS + ("target", "_score"):
        assert _value(c, f) == _value(s, f), f
    for f in ("city", "hands", "deck", "known"):
        assert getattr(c, f) is not getattr(s, f), f
    for part in ("cells", "owner", "occ", "cand", "placements"):
        assert getattr(c.city, part) is not getattr(s.city, part), part
    assert all(a is not b for a, b in zip(c.hands, s.hands))
    assert c._legal is None and c.legal_actions() == s.legal_actions()


def test_position_json_has_one_key_per_saved_field_in_order() -> None:
    s = _midgame(3)
    keys = ["placements" if f == "city" else f for f in SAVED_FIELDS]
    assert list(s._position_json()) == keys


def test_load_position_restores_every_saved_field() -> None:
    s = _midgame(4, plays=9)
    back = s.game.state_from_json(s.to_json(), verify=True)
    assert isinstance(back, SprawlopolisState)
    for f in SAVED_FIELDS + ("target",):
        assert _value(back, f) == _value(s, f), f


def test_pending_codes_are_the_saved_integers() -> None:
    assert [int(p) for p in Pending] == [0, 1, 2, 3]
    assert [p.name for p in Pending] == ["NONE", "DEAL", "START", "REVEAL"]
    s = load_game("sprawlopolis").new_initial_state(1, 0)
    assert s.pending == Pending.DEAL and type(s._position_json()["pending"]) is int


# ------------------------------------------------------------------ codes named once
def test_zone_mask_and_road_shift_split_every_block_code() -> None:
    for z in range(4):
        for m in range(16):
            code = block_code(z, m)
            assert code & ZONE_MASK == z + 1 and code >> ROAD_SHIFT == m


def test_card_numbers_and_action_space() -> None:
    assert NUM_CARDS == 18 and CARD_NUMBERS == tuple(range(1, 19)) == tuple(sorted(CARDS))
    assert CHANCE_BASE == 147456 and NUM_ACTIONS == 147474
    assert load_game("sprawlopolis").num_distinct_actions() == NUM_ACTIONS
    assert action_to_string(CHANCE_BASE + 6) == "card 7"


# ------------------------------------------------------------------ texts
def test_condition_names_match_the_card_data() -> None:
    assert CONDITION_NAMES == {n: CARDS[n].name for n in CARD_NUMBERS}
    assert condition_label(12) == "12 Superhighway"


def test_every_condition_has_its_own_rule_text() -> None:
    assert sorted(CONDITION_RULES) == list(CARD_NUMBERS)
    for n, text in CONDITION_RULES.items():
        assert 20 <= len(text) <= 200, n
        assert text != CARDS[n].rule, n  # our own words, not the data's paraphrase
    assert CONDITION_RULES[3] == "+1 for every park block in the city, -3 for every industrial block."


def test_zone_names_cover_the_zones() -> None:
    assert list(ZONE_NAMES) == list(ZONES)


# ------------------------------------------------------------------ view and strategy wiring
def test_view_and_strategy_are_wired_and_the_state_delegates() -> None:
    game = load_game("sprawlopolis")
    assert type(game.view) is SprawlopolisView and type(game.strategy) is SprawlopolisStrategy
    s = _midgame(1)
    assert s.evaluate(0) == float(s.breakdown().total)
    a = s.legal_actions()[0]
    assert s.action_path(a, 0) == game.view.action_path(s, a, 0)
    assert s.greedy_action(0, random.Random(5)) == game.strategy.greedy_action(s, 0, random.Random(5))
    assert s.render_svg(0) == game.view.render_svg(s, 0)


# ------------------------------------------------------------------ one placement rule
@pytest.mark.parametrize("cover", ["allowed", "forbidden"])
@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_move_generator_agrees_with_the_shared_placement_check(cover: str, seed: int) -> None:
    s = _midgame(1, plays=4 + 2 * seed, seed=seed, cover_whole_card=cover)
    legal = set(s._positions())
    r0, c0, r1, c1 = s.city.bounds()
    seen = 0
    for r in range(r0 - 4, r1 + 4):
        for c in range(c0 - 4, c1 + 4):
            pos = index_of(r, c)
            ok = placement_problem(s.city, pos, cover) == Placement.LEGAL
            assert ok == (pos in legal), (r, c)
            seen += ok
    assert seen == len(legal)


def test_explain_illegal_states_the_shared_problem() -> None:
    s = load_game("sprawlopolis", conditions=[1, 2, 3]).new_initial_state(1, 0)
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    card = sorted(s.hands[0])[0]
    assert s.explain_illegal(encode(card, index_of(2, 2), 0), 0) == (
        f"'play {card} at 2,2': card {card} touches the city only at a corner")
    assert s.explain_illegal(encode(card, index_of(0, 3), 0), 0) == (
        f"'play {card} at 0,3': card {card} does not touch the city (it must share a block edge "
        "with it or cover a block)")
    g = load_game("sprawlopolis", conditions=[1, 2, 3], cover_whole_card="forbidden")
    f = g.new_initial_state(1, 0)
    for _actor, a in s.history():
        f.apply_action(a)
    assert f.explain_illegal(encode(card, index_of(0, 0), 0), 0) == (
        f"'play {card} at 0,0': card {card} it would cover every visible block of an earlier card "
        "(cover_whole_card=forbidden)")


# ------------------------------------------------------------------ the card-data loader
def _raw() -> dict:
    return {"cards": [{"number": n, "name": c.name, "rule": c.rule,
                       "blocks": ["P I-NE", "C-EW R-EW"]} for n, c in CARDS.items()]}


def test_loader_accepts_the_packaged_shape() -> None:
    assert sorted(load_cards(_raw())) == list(CARD_NUMBERS)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["cards"][3].update(number=19), "cards.json cards[3].number: expected a card number 1-18, got 19"),
    (lambda d: d["cards"][3].update(number=1), "cards.json cards[3].number: card 1 appears twice"),
    (lambda d: d["cards"][0].update(name=""), "cards.json cards[0].name: expected a non-empty string"),
    (lambda d: d["cards"][2].update(blocks=["P I-NE"]), "cards.json cards[2].blocks: expected two rows of two block tokens"),
    (lambda d: d["cards"][2].update(blocks=["P .", "C R"]), "cards.json cards[2].blocks: every block of a card has a zone ('.' found)"),
    (lambda d: d["cards"].pop(), "cards.json cards: cards [18] are missing"),
    (lambda d: d.pop("cards"), "cards.json: expected an object with a 'cards' list"),
])
def test_loader_rejects_bad_card_data(change, message: str) -> None:
    data = _raw()
    change(data)
    with pytest.raises(ValueError) as err:
        load_cards(data)
    assert str(err.value) == message
