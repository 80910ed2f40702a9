"""The mask helpers' fast forms equal the straightforward ones on random bitsets.

``board.SHIFTS`` (one function per direction) against a per-hex step of every set bit;
``tiles.neighbour_masks`` and ``tiles.tavern_targets`` (memoised by the piece bitset) against
counting neighbours hex by hex and walking every line of three from every hex, each asked twice
(the second answer comes from the memo); ``board.beyond_lines_of_three`` (shifts by two rows at
once) and ``board.two_steps`` against the six-direction walk of single steps.
"""

from __future__ import annotations

import random

from citybuilders.games.kingdom_builder.rules import tiles
from citybuilders.games.kingdom_builder.rules.board import (
    DIRECTIONS,
    FULL,
    NEIGHBORS,
    NUM_HEXES,
    SHIFTS,
    beyond_lines_of_three,
    bits,
    shift,
    step,
    two_steps,
)


def _random_masks(seed: int, n: int) -> list[int]:
    rng = random.Random(seed)
    out = [0, FULL]
    for k in range(n):
        density = (k % 7 + 1) / 12
        out.append(sum(1 << i for i in range(NUM_HEXES) if rng.random() < density / 4))
    return out


def _step_hexes(mask: int, d: str) -> int:
    out = 0
    for i in bits(mask):
        j = step(i, d)
        if j is not None:
            out |= 1 << j
    return out


def test_shift_functions_are_hex_steps() -> None:
    for mask in _random_masks(1, 40):
        for d in DIRECTIONS:
            assert SHIFTS[d](mask) == shift(mask, d) == _step_hexes(mask, d)


def test_neighbour_masks_count_neighbours() -> None:
    for mask in _random_masks(2, 60):
        count = [0] * NUM_HEXES
        for i in bits(mask):
            for j in bits(NEIGHBORS[i]):
                count[j] += 1
        one = sum(1 << j for j in range(NUM_HEXES) if count[j] >= 1)
        two = sum(1 << j for j in range(NUM_HEXES) if count[j] >= 2)
        assert tiles.neighbour_masks(mask) == (one, two)
        assert tiles.neighbour_masks(mask) == (one, two)  # memo hit


def test_tavern_targets_walk_the_lines() -> None:
    masks = _random_masks(3, 60)
    for k, own in enumerate(masks):
        free = masks[(k * 5 + 1) % len(masks)] & ~own
        expected = 0
        for i in bits(own):
            for d in DIRECTIONS:
                a = step(i, d)
                b = step(a, d) if a is not None else None
                c = step(b, d) if b is not None else None
                if (a is not None and b is not None and c is not None
                        and own >> a & 1 and own >> b & 1):
                    expected |= 1 << c
        expected &= free
        assert tiles.tavern_targets(own, free) == expected
        assert tiles.tavern_targets(own, free) == expected  # memo hit
        assert tiles.tavern_targets(own, FULL) & free == expected


def test_memos_stay_bounded() -> None:
    for own in range(1, tiles._MEMO_SIZE + 50):
        tiles.tavern_targets(own << 40, FULL)
        tiles.neighbour_masks(own << 40)
    assert len(tiles._TAVERN_MEMO) <= tiles._MEMO_SIZE
    assert len(tiles._NEIGHBOUR_MEMO) <= tiles._MEMO_SIZE
    assert tiles.neighbour_masks(0) == (0, 0)


def test_beyond_lines_of_three_is_the_six_direction_walk() -> None:
    rng = random.Random(11)
    masks = _random_masks(4, 80)
    for _ in range(300):  # dense masks: many lines, ends on every edge
        masks.append(sum(1 << i for i in range(NUM_HEXES) if rng.random() < 0.6))
    for own in masks:
        expected = 0
        for d in DIRECTIONS:
            one = SHIFTS[d]
            expected |= one(one(one(own) & own) & own)
        assert beyond_lines_of_three(own) == expected


def test_two_steps_are_two_single_steps() -> None:
    for mask in _random_masks(6, 60) + [1 << i for i in range(NUM_HEXES)]:
        assert two_steps(mask) == tuple(SHIFTS[d](SHIFTS[d](mask)) for d in DIRECTIONS)


def test_own_dilation_follows_growing_and_shrinking_pieces() -> None:
    """own_dilation (kept per player index, grown by the hexes added) against dilate on random
    walks: one to seven hexes added, a hex removed, a piece set of another player index, the
    same set again; DILATION_SEEN holds the last answer."""
    from citybuilders.games.kingdom_builder.rules.board import dilate

    rng = random.Random(12)
    own = [0, 0, 0, 0]
    for _ in range(3000):
        p = rng.randrange(4)
        roll = rng.random()
        if roll < 0.6:
            for _ in range(rng.choice((1, 1, 2, 3, 4, 6, 7))):
                own[p] |= 1 << rng.randrange(NUM_HEXES)
        elif roll < 0.8 and own[p]:
            own[p] &= ~(1 << rng.choice(bits(own[p])))
        assert tiles.own_dilation(own[p], p) == dilate(own[p])
        assert tiles.DILATION_SEEN[p] == (own[p], dilate(own[p]))
