"""The score file is strict (issue 11): unknown keys, player counts and every placement rule the
engine keeps in play are errors with exact one-line messages naming the field."""

from __future__ import annotations

import pytest

import citybuilders
from citybuilders.core.errors import FormatError

from .test_crossroads_scorefile import CITY_HALL
from .test_crossroads_scorefile import example as crossroads_example
from .test_scorefile import example

GAME = citybuilders.load_game("kingdom-builder")
KEYS = "game, sections, cards, settlements, options, wagons, ships, warriors, city_hall, tasks"


def error(data: dict) -> str:
    with pytest.raises(FormatError) as exc:
        GAME.score_file(data)
    return str(exc.value)


def test_typo_key_is_an_error_not_a_lower_score() -> None:
    data = crossroads_example()
    assert GAME.score_file(data).to_json()["players"][0]["total"] == 49
    data["warrior"] = data.pop("warriors")
    assert error(data) == f"score file: unknown key 'warrior'; allowed: {KEYS}"


@pytest.mark.parametrize("key", ["settlement", "Cards", "option", "extra"])
def test_unknown_base_keys(key: str) -> None:
    assert error({**example(), key: []}) == f"score file: unknown key '{key}'; allowed: {KEYS}"


def test_unknown_option_key() -> None:
    msg = error({**example(), "options": {"lord_zero_scores": "never"}})
    assert msg.startswith("options: unknown option 'lord_zero_scores'")
    assert "lords_zero_scores" in msg


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_is_the_games(n: int) -> None:
    data = example()
    data["settlements"] = [[[0, k]] for k in (0, 1, 2, 5, 6)[:n]]
    assert error(data) == ("'settlements' must hold one list per player (2-4 players), "
                           f"got {n}")
    data.update(wagons=[], tasks=[])
    assert error(data) == ("'settlements' must hold one list per player (2-4 players), "
                           f"got {n}")


def test_four_players_accepted() -> None:
    data = example()
    data["settlements"] = [[[0, 0]], [[0, 5]], [[0, 12]], [[0, 13]]]
    assert [p["total"] for p in GAME.score_file(data).to_json()["players"]] == [20, 20, 20, 20]


def test_settlement_on_a_mountain() -> None:
    data = example()
    data["settlements"][0].append([0, 3])  # tavern section row 0: F D D M ...
    assert error(data) == ("settlements[0][6]: hex 0,3 is mountain; it must be a buildable "
                           "or water hex")


def test_supply_of_40_settlements() -> None:
    data = example()
    data["settlements"][0] = [[r, c] for r in range(10, 20) for c in range(10, 15)][:41]
    assert error(data) == "settlements[0]: 41 settlements, at most 40"


def test_two_pieces_on_one_hex() -> None:
    data = crossroads_example()
    data["warriors"] = [[], [[0, 1]]]
    assert error(data) == "warriors[1][0]: hex 0,1 already holds a piece of P1"


def test_wagon_on_water() -> None:
    data = crossroads_example()
    data["wagons"] = [[[4, 4]], []]  # row 4 of lighthouse_foresters_lodge: CCCCWWWW..
    assert error(data) == ("wagons[0][0]: hex 4,4 is water; it must be a buildable or "
                           "mountain hex")


def test_wagon_option_follows_the_engine() -> None:
    from citybuilders.games.kingdom_builder.rules.board import MOUNTAIN, make_board

    data = crossroads_example()
    board = make_board(tuple((s, r) for s, r in data["sections"]))
    h = next(i for i in range(400) if board.terrain[i] == MOUNTAIN and i // 20 < 10)
    r, c = divmod(h, 20)
    data["wagons"] = [[[r, c]], []]
    GAME.score_file(data)  # default wagon_on_mountains=True: accepted
    data["options"] = {"wagon_on_mountains": False}
    assert error(data) == f"wagons[0][0]: hex {r},{c} is mountain; it must be a buildable hex"


def test_piece_needs_its_location_on_the_board() -> None:
    data = example()
    data["ships"] = [[[3, 0]], []]
    data["settlements"] = [[[0, 0]], [[0, 5]]]
    assert error(data) == ("ships[0]: no location on the board gives this piece (lighthouse "
                           "tile), so no player has one")
    data = example()
    data["city_hall"] = [[], []]
    assert GAME.score_file(data).to_json()["players"][0]["tasks"] == {}


def test_warriors_never_neighbours() -> None:
    data = crossroads_example()
    data["warriors"] = [[[10, 19]], [[11, 19]]]
    assert error(data) == ("warriors[0][0]: hex 10,19 is next to another warrior (nobody "
                           "places a piece next to a warrior)")


def test_city_hall_shape_and_terrain() -> None:
    data = crossroads_example()
    data["city_hall"] = [CITY_HALL[:6] + [[16, 5]], []]
    assert error(data) == "city_hall[0]: must be 7 hexes, a hex and its 6 neighbours"


def test_tasks_at_most_one_per_crossroads_section() -> None:
    data = crossroads_example()
    data["sections"] = [["lighthouse_foresters_lodge", 0], ["barracks_crossroads", 0],
                        ["city_hall_fort", 0], ["farm", 0]]
    data["wagons"] = []
    data["warriors"] = []
    data["tasks"] = ["road", "fortress", "advance", "compass_points"]
    assert error(data) == ("'tasks': at most 3 task cards (one per Crossroads section on the "
                           "board), got 4")


def test_missing_key_message_starts_with_the_field() -> None:
    data = example()
    del data["sections"]
    assert error(data) == "sections: missing key 'sections'"
