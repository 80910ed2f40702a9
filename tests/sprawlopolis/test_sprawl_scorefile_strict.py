"""Score files are checked at every level: unknown keys, ranges, the game's own placement rule.
Exact messages (issue 11)."""

from __future__ import annotations

import random

import pytest

from citybuilders.core.errors import FormatError
from citybuilders.core.registry import load_game
from citybuilders.games.sprawlopolis.actions import CARD_SPAN, index_of
from citybuilders.games.sprawlopolis.scorefile import cards_city

GAME = load_game("sprawlopolis")
C = [1, 2, 3]
CARD4 = {"card": 4, "row": 0, "col": 0}
OPTION_NAMES = ("burbs_tie, city_edge, cover_whole_card, difficulty, harder_zone, mini_marts, "
                "outskirts_loop, park_hopping_parks, tourist_corner")


@pytest.mark.parametrize("data, message", [
    # the file
    ([1], "file: expected a JSON object"),
    ({"conditions": C, "grid": ["C"], "colour": 1},
     "file: unknown key 'colour'; allowed: game, conditions, cards, grid, options"),
    ({"conditions": C, "grid": ["C"], "game": "kingdom-builder"},
     "game: expected 'sprawlopolis', got 'kingdom-builder'"),
    ({"conditions": C, "grid": ["C"], "game": 7}, "game: expected 'sprawlopolis', got 7"),
    # options
    ({"conditions": C, "grid": ["C"], "options": []}, "options: expected an object of rules options"),
    ({"conditions": C, "grid": ["C"], "options": {"city_edg": "outer"}},
     f"options: unknown option 'city_edg' for sprawlopolis; allowed: {OPTION_NAMES}"),
    ({"conditions": C, "grid": ["C"], "options": {"city_edge": 3}},
     "options: option 'city_edge' of sprawlopolis: bad value 3; allowed: local, outer"),
    ({"conditions": C, "grid": ["C"], "options": {"city_edge": "x"}},
     "options: option 'city_edge' of sprawlopolis: bad value 'x'; allowed: local, outer"),
    ({"conditions": C, "grid": ["C"], "options": {"conditions": [4, 5, 6]}},
     "options: 'conditions' is not a rules option here; give the file's top-level 'conditions'"),
    # conditions
    ({"conditions": "1,2,3", "grid": ["C"]},
     "conditions: expected a list of 3 condition card numbers (1-18)"),
    ({"conditions": [1, 2, True], "grid": ["C"]}, "conditions[2]: expected an integer, got True"),
    ({"conditions": [1, 2, 10 ** 5000], "grid": ["C"]},
     "conditions[2]: expected an integer from -1000000 to 1000000, got a very large integer"),
    ({"conditions": [0, 2, 3], "grid": ["C"]}, "conditions[0]: unknown card 0; cards are numbered 1-18"),
    # cards: every level
    ({"conditions": C, "cards": []}, "cards: expected a non-empty list of {card, row, col, rot} objects"),
    ({"conditions": C, "cards": [{"card": n, "row": 0, "col": 2 * k}
                                 for k, n in enumerate(range(4, 20))]},
     "cards: a city has at most 15 cards, got 16"),
    ({"conditions": C, "cards": [[4, 0, 0]]}, "cards[0]: expected an object with card, row, col, rot"),
    ({"conditions": C, "cards": [dict(CARD4, Card=1)]},
     "cards[0]: unknown key 'Card'; allowed: card, row, col, rot"),
    ({"conditions": C, "cards": [dict(CARD4, **{"rot\n": 1})]},
     "cards[0]: unknown key 'rot\\n'; allowed: card, row, col, rot"),
    ({"conditions": C, "cards": [{"row": 0, "col": 0}]}, "cards[0]: missing 'card'"),
    ({"conditions": C, "cards": [dict(CARD4, rot=10 ** 7)]},
     "cards[0] (card 4).rot: expected an integer from -1000000 to 1000000, got 10000000"),
    ({"conditions": C, "cards": [CARD4, {"card": 5, "row": 10 ** 5000, "col": 0}]},
     "cards[1] (card 5) at a very large integer,0: illegal placement, does not touch the city "
     "(it is a very large integer blocks from cards[0])"),
    ({"conditions": C, "cards": [dict(CARD4, rot=None)]}, "cards[0] (card 4).rot: expected an integer, got None"),
    ({"conditions": C, "cards": [CARD4, {"card": 5, "row": 0, "col": 40}]},
     "cards[1] (card 5) at 0,40: illegal placement, does not touch the city (it is 40 blocks from cards[0])"),
    ({"conditions": C, "cards": [CARD4, {"card": 5, "row": 0, "col": 0}],
      "options": {"cover_whole_card": "forbidden"}},
     "cards[1] (card 5) at 0,0: illegal placement, covers every visible block of an earlier card "
     "(cover_whole_card=forbidden)"),
    # grid: every level
    ({"conditions": C, "grid": ["C", 5]}, "grid[1]: expected a string of block tokens, got 5"),
    ({"conditions": C, "grid": [""]}, "grid[0]: expected 1 to 58 block tokens"),
    ({"conditions": C, "grid": ["C " * 59]}, "grid[0]: expected 1 to 58 block tokens"),
    ({"conditions": C, "grid": ["C"] * 59}, "grid: at most 58 rows"),
    ({"conditions": C, "grid": ["C " * 8] * 8}, "grid: 64 blocks; a city has at most 60 (15 cards of 4 blocks)"),
    ({"conditions": C, "grid": ["C", "C-NN"]},
     "grid[1] column 0: bad block token 'C-NN': road sides must be two different letters of N, E, S, W"),
])
def test_exact_messages(data: object, message: str) -> None:
    with pytest.raises(FormatError) as err:
        GAME.score_file(data)  # type: ignore[arg-type]
    assert str(err.value) == message


def test_game_name_spellings_accepted() -> None:
    for name in ("sprawlopolis", "Sprawlopolis", " SPRAWLOPOLIS "):
        assert GAME.score_file({"game": name, "conditions": C, "grid": ["C"]}).to_json()["total"] == -1


def test_sixty_blocks_is_the_largest_grid() -> None:
    rows = ["C " * 6] * 10
    assert GAME.score_file({"conditions": [10, 11, 12], "grid": rows}).to_json()["groups"]["commercial"] == 60


def test_the_game_option_forbids_burying_in_the_calculator_too() -> None:
    data = {"conditions": C, "cards": [CARD4, {"card": 5, "row": 0, "col": 0}]}
    forbidding = load_game("sprawlopolis", cover_whole_card="forbidden")
    with pytest.raises(FormatError) as err:
        forbidding.score_file(data)
    assert str(err.value) == ("cards[1] (card 5) at 0,0: illegal placement, covers every visible "
                              "block of an earlier card (cover_whole_card=forbidden)")
    # and the file may lift it again
    ok = forbidding.score_file(dict(data, options={"cover_whole_card": "allowed"}))
    assert ok.to_json()["groups"] == {"commercial": 1, "industrial": 1, "residential": 1, "park": 1}


def test_calculator_and_game_reject_the_same_placements() -> None:
    """Every position around a small city: the calculator accepts a second card exactly where the
    game offers it (both use rules.city.placement_problem)."""
    for cover in ("allowed", "forbidden"):
        game = load_game("sprawlopolis", conditions=C, cover_whole_card=cover)
        s = game.new_initial_state(1, 0)
        rng = random.Random(0)
        while s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
        first, pos0, _ = s.city.placements[0]
        card = sorted(s.hands[0])[0]
        offered = {(a % CARD_SPAN) // 2 for a in s.legal_actions() if a // CARD_SPAN + 1 == card}
        for r in range(-4, 5):
            for c in range(-4, 5):
                entries = [{"card": first, "row": 0, "col": 0},
                           {"card": card, "row": r, "col": c}]
                try:
                    cards_city(entries, C, cover)
                    accepted = True
                except FormatError:
                    accepted = False
                assert accepted == (index_of(r, c) in offered), (cover, r, c)
