"""Kingdom Builder: Crossroads — pure rules over 400-hex bitsets (no game state needed).

Board convention (rules digest §2): the assembled board is a 20×20 odd-r hex grid, hex index
``i = R * 20 + C`` (row ``R`` 0 on top, odd rows shifted half a hex to the right). A set of hexes
is an ``int`` bitset with bit ``i`` for hex ``i``.

What lives here (Crossroads rulebook, seed 004, and rules digest §9):

* the 6 task cards (:data:`TASKS`), one pure scoring unit each (``task_*``) plus
  :func:`score_tasks`;
* the new pieces — wagon, ship, 2 warriors, city hall — as target generators
  (:func:`wagon_place_targets`, :func:`ship_place_targets`, :func:`warrior_place_targets`,
  :func:`piece_move_targets`, :func:`city_hall_centres`, :func:`city_hall_footprint`) and the
  warrior blocking mask (:func:`warrior_blocked`);
* the 8 new location tile ids (:data:`TILE_KINDS`; their names and texts are in ``texts.py``) and
  the 4 Crossroads sections (:data:`SECTIONS`);
* the Crossroads rules options (:data:`CROSSROADS_OPTIONS`), one per disputed point of digest
  §9/§10, each with the digest default (or the rulebook's answer where the rulebook decides).

"A settlement of yours" for tasks, adjacency and Kingdom Builder cards means every hex holding your
settlement, wagon, ship, warrior or city-hall hex (rulebook: "conta como assentamento";
digest §9.3); callers pass that union as ``own``.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from citybuilders.core.grid import components
from citybuilders.core.options import Option

from .board import FULL, NEIGHBORS, NUM_HEXES, SIZE, hex_index, hex_rc

__all__ = [
    "SIZE",
    "NUM_HEXES",
    "FULL",
    "NEIGHBORS",
    "TOP_EDGE",
    "BOTTOM_EDGE",
    "LEFT_EDGE",
    "RIGHT_EDGE",
    "EDGES",
    "EDGE",
    "INTERIOR",
    "DIAGONAL_LINES",
    "TASKS",
    "TASK_GOLD",
    "TILE_KINDS",
    "SECTIONS",
    "PIECES_PER_PLAYER",
    "MOVE_DISTANCE",
    "CROSSROADS_OPTIONS",
    "hex_index",
    "hex_rc",
    "mask_of",
    "hexes_of",
    "dilate",
    "erode",
    "with_adjacency",
    "terrain_areas",
    "task_home_country",
    "task_fortress",
    "task_road",
    "task_place_of_refuge",
    "task_advance",
    "task_compass_points",
    "score_tasks",
    "task_score",
    "warrior_blocked",
    "wagon_place_targets",
    "ship_place_targets",
    "warrior_place_targets",
    "single_build_targets",
    "piece_move_targets",
    "city_hall_footprint",
    "city_hall_centres",
]

def mask_of(cells: Iterable[tuple[int, int]]) -> int:
    """Bitset of the given ``(row, col)`` hexes (raises ValueError for an off-board hex)."""
    m = 0
    for r, c in cells:
        m |= 1 << hex_index(r, c)
    return m


def hexes_of(mask: int) -> list[tuple[int, int]]:
    """``(row, col)`` of the set bits of ``mask``, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(hex_rc(low.bit_length() - 1))
        mask ^= low
    return out


def _row_mask(r: int) -> int:
    return ((1 << SIZE) - 1) << (r * SIZE)


def _col_mask(c: int) -> int:
    return sum(1 << (r * SIZE + c) for r in range(SIZE))


TOP_EDGE = _row_mask(0)
BOTTOM_EDGE = _row_mask(SIZE - 1)
LEFT_EDGE = _col_mask(0)
RIGHT_EDGE = _col_mask(SIZE - 1)
EDGES: tuple[int, int, int, int] = (TOP_EDGE, BOTTOM_EDGE, LEFT_EDGE, RIGHT_EDGE)
"""The 4 board edges (top row, bottom row, left column, right column); corners are in two."""
EDGE = TOP_EDGE | BOTTOM_EDGE | LEFT_EDGE | RIGHT_EDGE
"""The 76 edge hexes (digest §2)."""
INTERIOR = FULL & ~EDGE
"""Hexes with all 6 neighbours on the board."""

_EVEN_ROWS = sum(_row_mask(r) for r in range(0, SIZE, 2))
_ODD_ROWS = sum(_row_mask(r) for r in range(1, SIZE, 2))
_NOT_LEFT = FULL & ~LEFT_EDGE
_NOT_RIGHT = FULL & ~RIGHT_EDGE


def dilate(mask: int) -> int:
    """Bitset of every hex adjacent to a hex of ``mask`` (the hexes of ``mask`` themselves only
    if adjacent to another one). Constant-time shifts; equal to the union of ``NEIGHBORS[i]``.

    Odd-r neighbours of an even row: W, E, (-1,-1), (-1,0), (+1,-1), (+1,0); of an odd row:
    W, E, (-1,0), (-1,+1), (+1,0), (+1,+1) (digest §2).
    """
    out = ((mask & _NOT_RIGHT) << 1) | ((mask & _NOT_LEFT) >> 1)
    even = mask & _EVEN_ROWS
    if even:
        e_l = even & _NOT_LEFT
        out |= (e_l >> 21) | (even >> 20) | (e_l << 19) | (even << 20)
    odd = mask & _ODD_ROWS
    if odd:
        o_r = odd & _NOT_RIGHT
        out |= (odd >> 20) | (o_r >> 19) | (odd << 20) | (o_r << 21)
    return out & FULL


def erode(mask: int) -> int:
    """Interior hexes of ``mask`` whose 6 neighbours are all in ``mask`` (edge hexes never)."""
    return mask & INTERIOR & ~dilate(FULL & ~mask)


def with_adjacency(eligible: int, own: int) -> int:
    """The adjacency rule (rulebook "adjacente a um de seus assentamentos, se possível"; digest
    §4.3): the eligible hexes next to ``own`` if there are any, else all of ``eligible``."""
    near = eligible & dilate(own)
    return near if near else eligible


# --------------------------------------------------------------------------- diagonal lines
def _diagonal_lines() -> tuple[tuple[int, ...], ...]:
    """Every maximal straight line along the two diagonal axes (NE–SW and NW–SE), as index
    tuples ordered top to bottom. From row r the SE step is (+1, 0) on even rows and (+1, +1) on
    odd rows; the SW step is (+1, -1) on even rows and (+1, 0) on odd rows (boards.json
    ``straight_line_directions``)."""
    lines = []
    for dc_even, dc_odd in ((0, 1), (-1, 0)):  # SE axis, SW axis
        starts = set()
        for r in range(SIZE):
            for c in range(SIZE):
                # (r, c) starts a line iff its predecessor (one step up the axis) is off-board
                pr = r - 1
                if pr < 0:
                    starts.add((r, c))
                    continue
                pc = c - (dc_odd if pr & 1 else dc_even)
                if not (0 <= pc < SIZE):
                    starts.add((r, c))
        for r0, c0 in sorted(starts):
            line = []
            r, c = r0, c0
            while 0 <= r < SIZE and 0 <= c < SIZE:
                line.append(r * SIZE + c)
                c += dc_odd if r & 1 else dc_even
                r += 1
            lines.append(tuple(line))
    return tuple(lines)


DIAGONAL_LINES: tuple[tuple[int, ...], ...] = _diagonal_lines()
"""Every maximal diagonal line of the board (both axes) as hex-index tuples, top to bottom."""
_DIAGONAL_LINE_MASKS = tuple(sum(1 << i for i in line) for line in DIAGONAL_LINES)


# --------------------------------------------------------------------------- data
TASKS: tuple[str, ...] = (
    "home_country",
    "fortress",
    "road",
    "place_of_refuge",
    "advance",
    "compass_points",
)
"""Task card ids (lowercase English names), in order of their gold."""
TASK_GOLD: dict[str, int] = {
    "home_country": 5,
    "fortress": 6,
    "road": 7,
    "place_of_refuge": 8,
    "advance": 9,
    "compass_points": 10,
}
TILE_KINDS: tuple[str, ...] = (
    "foresters_lodge",
    "monastery",
    "fort",
    "crossroads",
    "city_hall",
    "lighthouse",
    "barracks",
    "wagon",
)
"""The 8 Crossroads location tile ids."""
SECTIONS: dict[str, tuple[str, str]] = {
    "lighthouse_foresters_lodge": ("lighthouse", "foresters_lodge"),
    "barracks_crossroads": ("barracks", "crossroads"),
    "city_hall_fort": ("city_hall", "fort"),
    "monastery_wagon": ("monastery", "wagon"),
}
"""The 4 Crossroads board sections and their two location kinds (boards.json)."""

PIECES_PER_PLAYER: dict[str, int] = {"wagon": 1, "ship": 1, "warrior": 2, "city_hall": 1}
"""Crossroads pieces each player gets (rulebook, setup)."""
MOVE_DISTANCE = 3
"""Wagon and ship move up to 3 spaces (rulebook)."""

# --------------------------------------------------------------------------- options
CROSSROADS_OPTIONS: tuple[Option, ...] = (
    Option(
        "crossroads_first_draw",
        "acquisition_turn",
        "Crossroads tile: when the first extra terrain card is drawn.",
        choices=("acquisition_turn", "next_turn"),
        source="Crossroads rulebook, 'Crossroads' (\"Compre a primeira terrain card adicional no "
        "final do seu turno durante o qual você ganhou esta location tile\"); digest §9.2, §10.5",
        alternatives={"next_turn": "the extra card is drawn only from the end of the turn after "
        "the one in which the tile was taken (reading of the general 'not usable in the turn "
        "taken' rule)."},
        label="First extra terrain card",
        question="With the Crossroads tile, when do you draw your first extra terrain card?",
        expansion="crossroads",
    ),
    Option(
        "crossroads_identical_cards",
        "same_terrain",
        "Crossroads tile: what two identical terrain cards in hand allow.",
        choices=("same_terrain", "any_terrain"),
        source="digest §9.2 (kbc: designer house rule)",
        alternatives={"any_terrain": "with two identical cards you may choose any terrain for the "
        "turn (Donald X. house rule reported by kbc)."},
        label="Two identical terrain cards",
        question="With the Crossroads tile, what can you do with two identical terrain cards?",
        expansion="crossroads",
    ),
    Option(
        "wagon_on_mountains",
        True,
        "Wagon: may be placed on and moved across empty mountain hexes as well as empty "
        "buildable hexes.",
        type=bool,
        source="Crossroads rulebook, 'Wagon' (\"espaço vazio elegível para construção ou um espaço "
        "de montanha\"); digest §9.2, §10.6",
        alternatives={"false": "the wagon uses the 5 buildable terrains only."},
        label="Wagon on mountains",
        question="May the wagon stand on and cross mountain hexes?",
        expansion="crossroads",
    ),
    Option(
        "piece_move_path",
        "empty_steps",
        "Wagon/ship move: how the up-to-3 spaces are travelled.",
        choices=("empty_steps", "any_path"),
        source="Crossroads rulebook, 'Wagon'/'Ship' (\"por espaços vazios\"); digest §9.2, §10.6 "
        "(kbc: each step onto an empty hex)",
        alternatives={"any_path": "only the destination must be an empty, unblocked hex of the "
        "piece's kind within 3 steps of its kind; intermediate hexes may be occupied or "
        "next to a warrior."},
        label="Wagon and ship path",
        question="Must every hex a wagon or ship passes through be empty?",
        expansion="crossroads",
    ),
    Option(
        "base_tiles_move_pieces",
        False,
        "Whether Barn, Harbor and Paddock may move a wagon, ship or warrior like a settlement "
        "(city-hall hexes never move).",
        type=bool,
        source="digest §9.2, §10.7 (kbc: designer house rule — pieces move only by their own tile)",
        alternatives={"true": "Barn/Harbor/Paddock may also move your wagon, ship or warriors "
        "(the piece keeps its kind)."},
        label="Base tiles move pieces",
        question="May Barn, Harbor and Paddock move a wagon, ship or warrior too?",
        expansion="crossroads",
    ),
    Option(
        "tavern_counts_pieces",
        True,
        "Tavern: wagons, ships, warriors and city-hall hexes count as settlements in the line "
        "of 3.",
        type=bool,
        source="Crossroads rulebook (the pieces count as settlements); digest §6, §10.8",
        alternatives={"false": "Tavern lines are made of settlements only."},
        label="Tavern counts pieces",
        question="Do wagons, ships, warriors and city halls count towards a Tavern line?",
        expansion="crossroads",
    ),
    Option(
        "fort_without_target",
        "build_nothing",
        "Fort: what happens when no empty hex of the drawn card's terrain can be built on.",
        choices=("build_nothing", "redraw"),
        source="digest §9.2 (Crossroads FAQ: Fort is atomic; kbc/DXV: nothing is built) vs "
        "digest §4.4 (rare-exception redraw lists Fort)",
        alternatives={"redraw": "set the card aside and draw again until a terrain with an "
        "empty hex appears (as the base game's rare exception)."},
        label="Fort with no free hex",
        question="What does the Fort do when the drawn terrain has no empty hex?",
        expansion="crossroads",
    ),
    Option(
        "home_country_terrains",
        "all",
        "Home country task: which terrain areas qualify.",
        choices=("all", "buildable"),
        source="Crossroads rulebook, 'Home country'; digest §9.4 (kbc/DXV: water and mountain "
        "areas count too)",
        alternatives={"buildable": "only areas of the 5 buildable terrains count."},
        label="Home country terrains",
        question="Which terrain areas count for the Home country task?",
        expansion="crossroads",
    ),
    Option(
        "city_hall_adjacency",
        "required",
        "City hall: whether its 7 hexes must touch one of your settlements.",
        choices=("required", "if_possible"),
        source="Crossroads rulebook, 'City Hall Tile' (\"Você deve colocá-la adjacente a um de "
        "seus assentamentos\", no 'if possible'); digest §9.2 (kbc)",
        alternatives={"if_possible": "adjacent if possible, anywhere on 7 free buildable hexes "
        "otherwise (like the other pieces)."},
        label="City hall placement",
        question="Must the city hall touch one of your settlements?",
        expansion="crossroads",
    ),
)
"""Rules options of the Crossroads expansion (only in effect with ``expansions=["crossroads"]``)."""


# --------------------------------------------------------------------------- tasks
def terrain_areas(terrain_masks: Iterable[int]) -> list[int]:
    """Maximal connected areas of one terrain, for every terrain bitset given (digest §9.4:
    areas span section borders). Returns a list of bitsets."""
    out: list[int] = []
    for m in terrain_masks:
        out.extend(components(m, NEIGHBORS))
    return out


def task_home_country(own: int, areas: Sequence[int]) -> int:
    """Home country (5 gold): one complete terrain area holds only your pieces — no empty hex,
    no other player's piece (rulebook 'Home country'; digest §9.4). ``areas`` from
    :func:`terrain_areas`. Returns 5 or 0."""
    for a in areas:
        if a & own == a:
            return TASK_GOLD["home_country"]
    return 0


def task_fortress(own: int) -> int:
    """Fortress (6 gold): one of your pieces has all 6 neighbours held by your pieces (so it is
    not on the board edge) (rulebook 'Fortress'; digest §9.4). Returns 6 or 0.

    ``erode(own) != 0`` one neighbour pair at a time, stopping once no hex is left (a few
    big-int operations for most players instead of erode's dilation of the complement): the
    hexes at index ``i +- 1`` and ``i +- 20`` are neighbours in every row, ``i - 21`` and
    ``i + 19`` in even rows, ``i - 19`` and ``i + 21`` in odd rows (odd-r; interior hexes only,
    so no step leaves the board)."""
    m = own & INTERIOR & (own >> 1) & (own << 1)
    if m:
        m &= (own >> 20) & (own << 20)
        if m and ((m & _EVEN_ROWS & (own << 21) & (own >> 19))
                  or (m & _ODD_ROWS & (own << 19) & (own >> 21))):
            return TASK_GOLD["fortress"]
    return 0


def task_road(own: int) -> int:
    """Road (7 gold): at least 7 of your pieces form one unbroken straight diagonal line (either
    diagonal axis; rows do not count) (rulebook 'Road'; digest §9.4). Returns 7 or 0."""
    for line, lm in zip(DIAGONAL_LINES, _DIAGONAL_LINE_MASKS):
        if (own & lm).bit_count() < 7:
            continue
        run = 0
        for i in line:
            if own >> i & 1:
                run += 1
                if run >= 7:
                    return TASK_GOLD["road"]
            else:
                run = 0
    return 0


def task_place_of_refuge(own: int, specials: int) -> int:
    """Place of Refuge (8 gold): a castle or location hex (``specials``) has all its neighbours
    held by your pieces (rulebook 'Place of Refuge'; digest §9.4). Special hexes are never on the
    board edge (boards.json invariant), so they always have 6 neighbours. Returns 8 or 0."""
    s = specials
    while s:
        low = s & -s
        nb = NEIGHBORS[low.bit_length() - 1]
        if nb & own == nb:
            return TASK_GOLD["place_of_refuge"]
        s ^= low
    return 0


def task_advance(own: int) -> int:
    """Advance (9 gold): at least 7 of your pieces on one single board edge (corners count for
    both their edges) (rulebook 'Advance'; digest §9.4). Returns 9 or 0."""
    for e in EDGES:
        if (own & e).bit_count() >= 7:
            return TASK_GOLD["advance"]
    return 0


def task_compass_points(own: int) -> int:
    """Compass points (10 gold): at least one of your pieces on each of the 4 board edges (a
    corner piece counts for both its edges) (rulebook 'Compass points'; digest §9.4).
    Returns 10 or 0."""
    for e in EDGES:
        if not own & e:
            return 0
    return TASK_GOLD["compass_points"]


def task_score(task: str, own: int, areas: Sequence[int], specials: int) -> int:
    """Gold of one task card for one player (the ``task_*`` unit of ``task``; ``areas`` and
    ``specials`` as :func:`score_tasks`). Raises KeyError for an unknown task id."""
    if task == "home_country":
        return task_home_country(own, areas)
    if task == "fortress":
        return task_fortress(own)
    if task == "road":
        return task_road(own)
    if task == "place_of_refuge":
        return task_place_of_refuge(own, specials)
    if task == "advance":
        return task_advance(own)
    if task == "compass_points":
        return task_compass_points(own)
    raise KeyError(task)


def score_tasks(
    tasks: Sequence[str], own: int, *, areas: Sequence[int], specials: int
) -> dict[str, int]:
    """Gold per task card in play for one player: ``{task_id: gold}`` (each task scores once,
    rulebook "Cumprir o requisito ... mais de uma vez não aumenta"). Raises KeyError for an
    unknown task id."""
    return {t: task_score(t, own, areas, specials) for t in tasks}


# --------------------------------------------------------------------------- pieces
def warrior_blocked(warriors: int) -> int:
    """Hexes where nobody may build, place or move a piece onto: every neighbour of a warrior
    of any player (rulebook "Um warrior impede todas as ações de construção e movimento ... em
    todos os espaços adjacentes a ele"). Pieces already there stay. ``warriors``: all players'
    warriors."""
    return dilate(warriors) if warriors else 0


def single_build_targets(eligible_empty: int, own: int, blocked: int) -> int:
    """Legal hexes for one build/placement restricted to ``eligible_empty`` (empty hexes of the
    action's kind), minus warrior-blocked hexes, with the adjacency rule (digest §4.3)."""
    return with_adjacency(eligible_empty & ~blocked, own)


def wagon_place_targets(own: int, empty_buildable: int, empty_mountain: int, blocked: int) -> int:
    """Wagon placement (rulebook 'Wagon'): an empty buildable or mountain hex (pass 0 as
    ``empty_mountain`` when option ``wagon_on_mountains`` is off), not next to a warrior,
    adjacent to your pieces if possible."""
    return with_adjacency((empty_buildable | empty_mountain) & ~blocked, own)


def ship_place_targets(own: int, empty_water: int, blocked: int) -> int:
    """Ship placement (rulebook 'Ship'): an empty water hex not next to a warrior, adjacent to
    your pieces if possible."""
    return with_adjacency(empty_water & ~blocked, own)


def warrior_place_targets(own: int, empty_buildable: int, blocked: int) -> int:
    """Warrior placement (rulebook 'Warrior'): an empty buildable hex not next to a warrior
    (placing is building, digest §9.2), adjacent to your pieces if possible."""
    return with_adjacency(empty_buildable & ~blocked, own)


def piece_move_targets(
    start: int,
    passable: int,
    blocked: int,
    steps: int = MOVE_DISTANCE,
    path: str = "empty_steps",
    terrain: int = 0,
) -> int:
    """Destinations of a wagon/ship move of up to ``steps`` single steps from hex bitset
    ``start`` (one bit) (rulebook: "Mover seu wagon até 3 espaços por espaços vazios").

    ``passable``: empty hexes of the piece's kind (wagon: buildable [+ mountain]; ship: water).
    ``path="empty_steps"`` (default): every step lands on a passable hex not in ``blocked``.
    ``path="any_path"`` (option ``piece_move_path``): steps may cross any hex of ``terrain`` (the
    piece's kind, occupied or blocked); only the destination must be passable and unblocked.
    The start hex is never a destination.
    """
    if path == "empty_steps":
        through = passable & ~blocked
    else:
        through = terrain | passable
    reach = start
    for _ in range(steps):
        reach |= dilate(reach) & through
    return reach & passable & ~blocked & ~start


def city_hall_footprint(centre: int) -> int:
    """Bitset of the 7 hexes of a city hall centred on hex index ``centre`` (the centre and its
    6 neighbours). Raises ValueError for an edge centre (the tile would leave the board)."""
    if not (INTERIOR >> centre) & 1:
        raise ValueError(f"city hall centre {hex_rc(centre)} is on the board edge")
    return (1 << centre) | NEIGHBORS[centre]


def city_hall_centres(
    own: int, empty_buildable: int, blocked: int, require_adjacent: bool = True
) -> int:
    """Bitset of legal city-hall centres (rulebook 'City Hall Tile'; digest §9.2): all 7 hexes
    empty, buildable and not next to a warrior, and (``require_adjacent``) at least one of them
    adjacent to your pieces; with ``require_adjacent=False`` the adjacency applies only if
    possible (option ``city_hall_adjacency="if_possible"``)."""
    free = empty_buildable & ~blocked
    centres = erode(free)
    if not centres:
        return 0
    near = dilate(own) & free
    touching = centres & (near | dilate(near))
    if require_adjacent or touching:
        return touching
    return centres


def option_values(options: Mapping[str, object]) -> dict[str, object]:
    """The Crossroads rules options from a game's options dict, defaults filled in."""
    return {o.name: options.get(o.name, o.default) for o in CROSSROADS_OPTIONS}


def _check_tasks(value: list) -> list:
    if len(set(value)) != len(value) or len(value) > 4:
        raise ValueError(f"need up to 4 different task cards, got {value!r}")
    return list(value)


CROSSROADS_SETUP_OPTIONS: tuple[Option, ...] = (
    Option(
        "tasks",
        None,
        "Crossroads task cards in play, one per Crossroads section on the board. Empty = "
        "drawn from the seed.",
        note="Task card ids: " + ", ".join(TASKS) + ".",
        type=list,
        choices=TASKS,
        validate=_check_tasks,
        kind="setup",
        source="Crossroads rulebook, Preparação (one task card per Crossroads section)",
        label="Crossroads task cards",
        question="Which Crossroads task cards are in play?",
        expansion="crossroads",
    ),
)
"""Setup options of the Crossroads expansion."""
