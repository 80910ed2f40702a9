"""The 10 Kingdom Builder cards and castles on the first-game board (digest §7; rulebook
'Fim de Jogo e Pontuação'). Expected values are counted by hand from the section data."""

from __future__ import annotations

import random

import pytest

from citybuilders.games.kingdom_builder.rules.board import make_board
from citybuilders.games.kingdom_builder.scoring import (
    CARDS, castles, citizens, discoverers, farmers, fishermen, hermits, knights, lords, lords_all,
    merchants, miners, score_all, score_player, score_totals, workers,
)

from .helpers import mask

B = make_board((("tavern", 0), ("paddock", 0), ("oasis", 0), ("farm", 0)))


def test_fishermen_on_water_scores_zero() -> None:
    own = [mask((3, 2), (2, 2), (0, 0), (3, 0))]
    assert fishermen(B, own, 0) == 2


def test_miners() -> None:
    assert miners(B, [mask((0, 2), (1, 4), (9, 9))], 0) == 2


def test_workers_each_settlement_once() -> None:
    assert workers(B, [mask((3, 4), (4, 4), (5, 2), (0, 0))], 0) == 3


def test_castles_once_per_castle() -> None:
    assert castles(B, [mask((3, 4), (4, 4))], 0) == 3
    assert castles(B, [mask((3, 4), (4, 4), (7, 14))], 0) == 6


def test_merchants_link_once() -> None:
    chain = mask((3, 2), (4, 2), (5, 2))  # castle (3,3) ... tavern (6,2)
    assert merchants(B, [chain], 0) == 8
    assert merchants(B, [chain | mask((4, 4), (5, 3), (6, 3), (0, 0))], 0) == 8
    assert merchants(B, [mask((3, 2), (5, 2))], 0) == 0  # broken chain


def test_merchants_three_specials() -> None:
    # castle (3,3) - tavern (6,2) chain extended along row 7 to tavern (6,7)
    own = mask((3, 2), (4, 2), (5, 2), (6, 3), (7, 3), (7, 4), (7, 5), (7, 6))
    assert merchants(B, [own], 0) == 12


def test_discoverers_hermits_citizens_knights() -> None:
    own = [mask((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (5, 5), (19, 10))]
    assert discoverers(B, own, 0) == 4  # rows 0, 1, 5, 19
    assert hermits(B, own, 0) == 3
    assert citizens(B, own, 0) == 2  # largest area 5 -> 2
    assert knights(B, own, 0) == 6  # 3 on row 0


def test_lords_ranked_default_and_options() -> None:
    own = [
        mask((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (14, 5)),  # TL 5, BL 1
        mask((0, 5), (0, 6), (0, 12), (0, 13), (0, 14)),  # TL 2, TR 3
    ]
    assert [lords(B, own, p) for p in (0, 1)] == [30, 24]
    never = {"lords_zero_scores": "never"}
    assert [lords(B, own, p, never) for p in (0, 1)] == [24, 18]
    always = {"lords_zero_scores": "always"}
    assert [lords(B, own, p, always) for p in (0, 1)] == [42, 36]


def test_lords_ties_12_12_6_0() -> None:
    own = [
        mask((0, 0), (0, 1), (0, 2)),
        mask((2, 0), (2, 1), (2, 2)),
        mask((5, 5)),
        mask((14, 5)),  # absent from TL: 4th in TL
    ]
    # TL: 12, 12, 6, 0; BL: player 3 alone 12, everybody else 0 -> 6
    assert [lords(B, own, p) for p in range(4)] == [18, 18, 12, 12]


def test_farmers() -> None:
    own = [
        mask((0, 0), (0, 12), (14, 5)),  # absent from BR
        mask((0, 0 + 1), (1, 0), (0, 12), (14, 4), (14, 5), (15, 14), (15, 15), (15, 16)),
    ]
    assert farmers(B, own, 0) == 0
    assert farmers(B, own, 1) == 3


def test_score_all_parts_and_total() -> None:
    own = [mask((3, 4), (4, 4), (3, 2)), 0]
    res = score_all(B, ["fishermen", "knights", "merchants"], own)
    assert res[0].parts == {"fishermen": 2, "knights": 4, "merchants": 0, "castles": 3}
    assert res[0].total == 9  # (4,4) touches water (4,3)
    assert res[1].total == 0


@pytest.mark.parametrize("card", ["fishermen", "miners", "workers", "merchants", "discoverers",
                                  "hermits", "citizens", "knights", "lords", "farmers"])
def test_empty_player_scores_zero(card: str) -> None:
    from citybuilders.games.kingdom_builder.scoring import CARD_FUNCS

    own = [0, mask((5, 5))]
    assert CARD_FUNCS[card](B, own, 0) == (6 if card == "lords" else 0)


def _random_owns(rng: random.Random, players: int) -> list[int]:
    """Disjoint random settlement sets (each hex to one player or nobody; sparse to dense)."""
    own = [0] * players
    density = rng.random()
    for i in range(400):
        if rng.random() < density:
            own[rng.randrange(players)] |= 1 << i
    return own


@pytest.mark.parametrize("mode", ["ranked", "never", "always"])
def test_lords_all_is_lords_per_player(mode: str) -> None:
    """The all-players Lords (rollout scoring) against the per-player unit, ties and empty
    sectors included."""
    rng = random.Random(7)
    opts = {"lords_zero_scores": mode}
    for trial in range(300):
        own = _random_owns(rng, 2 + trial % 4)
        if trial % 3 == 0:  # few settlements: empty sectors and ties at 0 and 1
            own = [o & rng.getrandbits(400) & rng.getrandbits(400) & rng.getrandbits(400)
                   & rng.getrandbits(400) for o in own]
        assert lords_all(B, own, opts) == [lords(B, own, p, opts) for p in range(len(own))]


def test_score_totals_are_the_score_all_totals() -> None:
    rng = random.Random(8)
    for trial in range(200):
        own = _random_owns(rng, 2 + trial % 4)
        cards = rng.sample(CARDS, 3)
        opts = {"lords_zero_scores": rng.choice(["ranked", "never", "always"])}
        assert score_totals(B, cards, own, opts) == [s.total for s in score_all(B, cards, own, opts)]
        assert score_totals(B, cards, own, opts) == [score_player(B, cards, own, p, opts)
                                                    for p in range(len(own))]
