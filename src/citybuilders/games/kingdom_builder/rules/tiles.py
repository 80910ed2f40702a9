"""Location tiles as a table of kinds, each with its own move generator (rules digest §5-6).

A :class:`TileKind` owns a block of the action space (see :mod:`.actions`), generates its legal
actions for a state, applies one, and converts to/from notation and web click paths. The two base
shapes are :class:`BuildTile` (one target hex: Oracle, Farm, Oasis, Tower, Tavern) and
:class:`MoveTile` (move one of your settlements from one hex to another: Barn, Harbor, Paddock).
Expansions add kinds with :func:`register_tile_kind` (new slots; base slots never move).

The state passed in is a :class:`~.state.KingdomBuilderState`; generators use its bitsets:
``occ[p]`` (hexes counting as p's settlements), ``stl[p]`` (p's movable settlements),
``all_occ`` (every occupied hex), ``blocked`` (hexes nobody may build on or move onto).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import HEX_BASE, PAIR_BASE, hex_slot_base, pair_slot_base
from .board import (
    DESERT,
    EDGE,
    FULL,
    GRASS,
    NEIGHBORS,
    NUM_HEXES,
    WATER,
    beyond_lines_of_three,
    bits,
    dilate,
    hex_name,
    SHIFTS,
    parse_hex,
    shift,
    two_steps,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import KingdomBuilderState

__all__ = [
    "TileKind",
    "BuildTile",
    "MoveTile",
    "TILE_KINDS",
    "KINDS_BY_BASE",
    "register_tile_kind",
    "kind_of_action",
    "with_adjacency",
    "own_dilation",
    "DILATION_SEEN",
    "mask_actions",
    "nth_bit",
    "neighbour_masks",
    "PADDOCK_STEPS",
    "board_kinds",
    "location_ids",
]


def with_adjacency(eligible: int, own: int) -> int:
    """The adjacency rule (rulebook "adjacente a ao menos uma de suas próprias vilas, se
    possível"; digest §4.3): the eligible hexes next to ``own`` if any, else all of them."""
    near = eligible & dilate(own)
    return near if near else eligible


DILATION_SEEN: list[tuple[int, int]] = [(0, 0)] * 8
"""Per player index (below 8): ``(own, dilate(own))`` for the last piece bitset of that player
:func:`own_dilation` saw; a caller that knows ``dilate(own)`` may store it here (the
playout's builds do). Pure values: sharing them between states and games is safe."""


def own_dilation(own: int, p: int) -> int:
    """``dilate(own)`` for the pieces ``own`` of player index ``p``: the one in
    :data:`DILATION_SEEN` if ``own`` is unchanged, else grown by the neighbours of the few hexes
    added since (``dilate(a | h) == dilate(a) | NEIGHBORS[h]``), else computed afresh (a piece
    gone or more than 5 new). A random player's turn asks for the same pieces at its start, at
    the Fort and the Forester's Lodge, with a few pieces built in between."""
    last, near = DILATION_SEEN[p]
    if own != last:
        new = own ^ last
        if new & last or new.bit_count() > 5:
            near = dilate(own)
        else:
            while new:
                low = new & -new
                near |= NEIGHBORS[low.bit_length() - 1]
                new ^= low
        DILATION_SEEN[p] = (own, near)
    return near


def neighbour_masks(own: int) -> tuple[int, int]:
    """``(one, two)``: the hexes next to at least one / at least two hexes of ``own`` (a hex of
    ``own`` counts only its neighbours, never itself). ``one == dilate(own)``; together they give
    the adjacency rule "next to your *other* pieces" for every lifted piece ``s`` at once: the
    hexes next to ``own`` minus ``s`` are ``two | (one & ~NEIGHBORS[s])``.

    Memoised by ``own`` (see :data:`_MEMO_SIZE`): a player's pieces are the same from the end of
    one turn, where a random player or rollout counts its move-tile moves, to the start of the
    next, where it counts them again."""
    got = _NEIGHBOUR_MEMO.get(own)
    if got is None:
        one = two = 0
        for step in _LINE_SHIFTS:
            m = step(own)
            two |= one & m
            one |= m
        got = (one, two)
        if len(_NEIGHBOUR_MEMO) >= _MEMO_SIZE:
            _NEIGHBOUR_MEMO.clear()
        _NEIGHBOUR_MEMO[own] = got
    return got


_MEMO_SIZE = 4096
"""Entries kept by the memos of pure mask functions (:func:`neighbour_masks`,
:func:`tavern_targets`): keyed by a player's piece bitset, emptied when full (a few hundred KB at
most; shared by every state, which is safe as the functions are pure)."""
_NEIGHBOUR_MEMO: dict[int, tuple[int, int]] = {}
_TAVERN_MEMO: dict[int, int] = {}


_HALVES: tuple[tuple[int, int], ...] = tuple((w, (1 << w) - 1) for w in (256, 128, 64, 32, 16))


def nth_bit(mask: int, r: int) -> int:
    """Index of the ``r``-th lowest set bit of ``mask`` (``r`` from 0; ``mask`` below 2**512
    with more than ``r`` bits set): ``bits(mask)[r]`` without building the list (a few low bits
    dropped one by one, else halves chosen by their bit counts)."""
    base = 0
    if r > 8:
        for w, low in _HALVES:
            part = mask & low
            c = part.bit_count()
            if r < c:
                mask = part
            else:
                r -= c
                mask >>= w
                base += w
    while r:
        mask &= mask - 1
        r -= 1
    return base + (mask & -mask).bit_length() - 1


def mask_actions(mask: int, base: int) -> list[int]:
    """Action ids ``base + i`` for the set bits ``i`` of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(base + low.bit_length() - 1)
        mask ^= low
    return out


class TileKind:
    """One kind of location tile.

    Attributes:
        id: lowercase id used in notation and keys (``"farm"``, ``"paddock"``); its player-facing
            name and rule text are ``texts.TILE_NAMES[id]`` / ``texts.TILE_RULES[id]``.
        base: first action id of its block; ``size``: number of ids in the block.
        doc: the tile text as implemented, with its rule source.
    """

    id: str = ""
    base: int = 0
    size: int = 0
    doc: str = ""

    def legal(self, st: "KingdomBuilderState", p: int) -> list[int]:  # pragma: no cover
        """Sorted legal actions of player ``p`` with this tile (empty = not usable now)."""
        raise NotImplementedError

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        """``(n, data)``: the number of legal actions of ``p`` with this tile and what
        :meth:`nth` needs to pick one (random play without the full list; default: the list)."""
        legal = self.legal(st, p)
        return len(legal), legal

    def nth(self, data: Any, r: int) -> int:
        """``legal(st, p)[r]`` from the ``data`` of :meth:`count`."""
        return data[r]

    def apply(self, st: "KingdomBuilderState", p: int, action: int) -> None:  # pragma: no cover
        """Apply a legal action (the tile is marked used by the caller)."""
        raise NotImplementedError

    def to_string(self, action: int) -> str:  # pragma: no cover
        """Notation of ``action`` (e.g. ``farm 3,4``)."""
        raise NotImplementedError

    def path(self, action: int) -> tuple[str, ...]:  # pragma: no cover
        """Web click path of ``action`` (``("tile:farm", "hex:3,4")``)."""
        raise NotImplementedError

    def parse(self, args: str) -> int:  # pragma: no cover
        """Action id for the notation arguments (after the tile name); ValueError if malformed."""
        raise NotImplementedError

    def marks_use(self, action: int) -> bool:
        """True if ``action`` spends the tile (False for the second step of a two-step tile
        action, e.g. the Crossroads Fort's build after its draw)."""
        return True

    def describe_targets(self) -> str:
        """Short description for help texts."""
        return self.doc


class BuildTile(TileKind):
    """Build one settlement from the supply on a target hex (``<tile> R,C``)."""

    def __init__(self, id: str, slot: int, doc: str) -> None:
        self.id, self.doc = id, doc
        self.slot = slot
        self.base = hex_slot_base(slot)
        self.size = NUM_HEXES

    def targets(self, st: "KingdomBuilderState", p: int) -> int:  # pragma: no cover
        """Bitset of legal target hexes for player ``p``."""
        raise NotImplementedError

    def legal(self, st: "KingdomBuilderState", p: int) -> list[int]:
        if st.supply[p] <= 0:
            return []
        return mask_actions(self.targets(st, p), self.base)

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        if st.supply[p] <= 0:
            return 0, 0
        mask = self.targets(st, p)
        return mask.bit_count(), mask

    def nth(self, data: Any, r: int) -> int:
        return self.base + nth_bit(data, r)

    def apply(self, st: "KingdomBuilderState", p: int, action: int) -> None:
        st.place(p, action - self.base)

    def to_string(self, action: int) -> str:
        return f"{self.id} {hex_name(action - self.base)}"

    def path(self, action: int) -> tuple[str, ...]:
        return (f"tile:{self.id}", f"hex:{hex_name(action - self.base)}")

    def parse(self, args: str) -> int:
        return self.base + parse_hex(args)


class TerrainBuildTile(BuildTile):
    """Build on a fixed terrain (Farm: grass, Oasis: desert), adjacency rule applies."""

    def __init__(self, id: str, slot: int, terrain: int, doc: str) -> None:
        super().__init__(id, slot, doc)
        self.terrain = terrain

    def targets(self, st: "KingdomBuilderState", p: int) -> int:
        elig = st.board.tmask[self.terrain] & ~(st.all_occ | st.blocked)  # = & st.empty()
        near = elig & own_dilation(st.occ[p], p)  # = with_adjacency(elig, st.occ[p])
        return near if near else elig


class OracleTile(BuildTile):
    """Build on the terrain of the card played this turn, adjacency rule applies."""

    def targets(self, st: "KingdomBuilderState", p: int) -> int:
        out = 0
        empty = st.empty()
        for card in st.card_terrains(p):
            out |= with_adjacency(st.board.tmask[card] & empty, st.occ[p])
        return out


class TowerTile(BuildTile):
    """Build on an edge hex of any buildable terrain; the adjacency rule applies with the
    eligible set = every empty buildable edge hex (digest §4.3, §6)."""

    def targets(self, st: "KingdomBuilderState", p: int) -> int:
        return with_adjacency(st.board.buildable & EDGE & st.empty(), st.occ[p])


_LINE_DIRS = ("E", "W", "NE", "NW", "SE", "SW")
_LINE_SHIFTS = tuple(SHIFTS[d] for d in _LINE_DIRS)
"""The one-step shifts of :data:`_LINE_DIRS` (``shift(m, d)`` without its dispatch)."""


def tavern_targets(own: int, free: int) -> int:
    """Hexes directly beyond an end of a straight line of >= 3 consecutive ``own`` hexes
    (any of the 3 axes) that are in ``free`` (digest §6 Tavern).

    The line ends (before ``& free``) are memoised by ``own`` as in :func:`neighbour_masks`: a
    player with a Tavern has it checked at the end of a turn and again, on the same pieces, at
    the start of the next."""
    out = _TAVERN_MEMO.get(own)
    if out is None:
        out = beyond_lines_of_three(own)
        if len(_TAVERN_MEMO) >= _MEMO_SIZE:
            _TAVERN_MEMO.clear()
        _TAVERN_MEMO[own] = out
    return out & free


class TavernTile(BuildTile):
    """Build at either end of a straight line of at least 3 of your settlements, on any empty
    buildable hex (rulebook: "no fim de uma linha de, pelo menos, 3 vilas suas")."""

    def targets(self, st: "KingdomBuilderState", p: int) -> int:
        empty = FULL & ~(st.all_occ | st.blocked)  # = st.empty(), inlined (random play)
        return tavern_targets(st.tavern_own(p), st.board.buildable & empty)

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        """As :meth:`BuildTile.count` without the :meth:`targets` call (random play)."""
        if st.supply[p] <= 0:
            return 0, 0
        mask = tavern_targets(st.tavern_own(p), st.board.buildable & ~(st.all_occ | st.blocked))
        return mask.bit_count(), mask


class MoveTile(TileKind):
    """Move one of your settlements (``<tile> R,C>R,C``); tile loss/gain handled by the state."""

    def __init__(self, id: str, slot: int, doc: str) -> None:
        self.id, self.doc = id, doc
        self.slot = slot
        self.base = pair_slot_base(slot)
        self.size = NUM_HEXES * NUM_HEXES

    def moves(self, st: "KingdomBuilderState", p: int) -> list[tuple[int, int]]:  # pragma: no cover
        """``[(from_hex, targets_bitset), ...]`` for player ``p``, from ascending."""
        raise NotImplementedError

    def legal(self, st: "KingdomBuilderState", p: int) -> list[int]:
        out: list[int] = []
        cache: dict[int, list[int]] = {}
        for s, mask in self.moves(st, p):
            targets = cache.get(mask)
            if targets is None:
                targets = cache[mask] = mask_actions(mask, 0)
            out.extend(map((self.base + s * NUM_HEXES).__add__, targets))
        return out

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        moves = self.moves(st, p)
        n = 0
        for _, mask in moves:
            n += mask.bit_count()
        return n, moves

    def nth(self, data: Any, r: int) -> int:
        for s, mask in data:
            c = mask.bit_count()
            if r < c:
                return self.base + s * NUM_HEXES + nth_bit(mask, r)
            r -= c
        raise IndexError("move index out of range")  # pragma: no cover

    def apply(self, st: "KingdomBuilderState", p: int, action: int) -> None:
        src, dst = divmod(action - self.base, NUM_HEXES)
        st.move(p, src, dst)

    def decode(self, action: int) -> tuple[int, int]:
        """``(from_hex, to_hex)`` of ``action``."""
        return divmod(action - self.base, NUM_HEXES)

    def to_string(self, action: int) -> str:
        src, dst = self.decode(action)
        return f"{self.id} {hex_name(src)}>{hex_name(dst)}"

    def path(self, action: int) -> tuple[str, ...]:
        src, dst = self.decode(action)
        return (f"tile:{self.id}", f"hex:{hex_name(src)}", f"hex:{hex_name(dst)}")

    def parse(self, args: str) -> int:
        if ">" not in args:
            raise ValueError(f"write {self.id} FROM>TO, e.g. {self.id} 7,12>9,12")
        a, b = args.split(">", 1)
        return self.base + parse_hex(a) * NUM_HEXES + parse_hex(b)


class TerrainMoveTile(MoveTile):
    """Move a settlement onto an eligible hex, adjacency rule against your *other* pieces
    (digest §6: lift first; Barn = card terrain, Harbor = water)."""

    def __init__(self, id: str, slot: int, terrain: int | None, doc: str) -> None:
        super().__init__(id, slot, doc)
        self.terrain = terrain  # None = the card played this turn

    def moves(self, st: "KingdomBuilderState", p: int) -> list[tuple[int, int]]:
        terrains = st.card_terrains(p) if self.terrain is None else [self.terrain]
        if not terrains:
            return []
        board = st.board
        empty = st.empty()
        allow_null = st.allow_null_move
        blocked = st.blocked
        # next to >= 1 / >= 2 own pieces, once: "next to the others" per lifted piece from these
        one, two = neighbour_masks(st.occ[p])
        elig_t = [board.tmask[t] & empty for t in terrains]
        out = []
        for s in bits(st.movable(p)):
            low = 1 << s
            near_other = two | (one & ~NEIGHBORS[s])  # s is one of own (occ holds every piece)
            mask = 0
            for t, elig in zip(terrains, elig_t):  # two with the Crossroads tile, until one is used
                if allow_null and board.tmask[t] & low and not blocked & low:
                    elig |= low
                if elig:
                    near = elig & near_other
                    mask |= near if near else elig
            if mask:
                out.append((s, mask))
        return out

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        """The number of moves without a mask per piece: with one playable terrain and no null
        move, a lifted piece ``s`` has ``|e2| + |e1| - |e1 & NEIGHBORS[s]|`` targets (``e2``/``e1``:
        eligible hexes next to >= 2 / exactly 1 own piece), or every eligible hex when that is 0.
        Summed over the pieces in closed form (each ``e1`` hex touches one own piece)."""
        terrains = st.card_terrains(p) if self.terrain is None else [self.terrain]
        if len(terrains) != 1 or st.allow_null_move:
            return super().count(st, p)
        elig = st.board.tmask[terrains[0]] & st.empty()
        movable = st.movable(p)
        if not elig or not movable:
            return 0, None
        one, two = neighbour_masks(st.occ[p])
        e2 = elig & two
        e1 = elig & one & ~two
        n1, n2 = e1.bit_count(), e2.bit_count()
        ne = elig.bit_count()
        pieces = movable.bit_count()
        if not n1 and not n2:
            return pieces * ne, (movable, elig, e1, e2, ne, 0)
        n = (n1 + n2) * pieces - (e1 & dilate(movable)).bit_count()
        if not n2:
            # a piece that is the only neighbour of every e1 hex leaves no adjacent target
            common = movable
            for h in bits(e1):
                common &= NEIGHBORS[h]
                if not common:
                    break
            n += common.bit_count() * ne
        return n, (movable, elig, e1, e2, ne, n1 + n2)

    def nth(self, data: Any, r: int) -> int:
        """The pieces in order, each with ``|e2| + |e1| - |e1 & NEIGHBORS[s]|`` targets (or
        every eligible hex when that is 0): a piece next to no ``e1`` hex counts without a mask."""
        if isinstance(data, list):
            return super().nth(data, r)
        movable, elig, e1, e2, ne, n12 = data
        while movable:
            low = movable & -movable
            s = low.bit_length() - 1
            movable ^= low
            lost = e1 & NEIGHBORS[s]  # e1 hexes next to s only: not next to the others once lifted
            c = n12 - lost.bit_count() if lost else n12
            if not c:
                c = ne
            if r < c:
                mask = (e2 | (e1 ^ lost)) or elig
                return self.base + s * NUM_HEXES + nth_bit(mask, r)
            r -= c
        raise IndexError("move index out of range")  # pragma: no cover


def _paddock_table() -> tuple[int, ...]:
    out = []
    for i in range(NUM_HEXES):
        m = 0
        for d in _LINE_DIRS:
            m |= shift(shift(1 << i, d), d)
        out.append(m)
    return tuple(out)


PADDOCK_STEPS: tuple[int, ...] = _paddock_table()
"""``PADDOCK_STEPS[i]``: the hexes exactly 2 steps from ``i`` in a straight line (<= 6)."""


class PaddockTile(MoveTile):
    """Move a settlement exactly 2 hexes in a straight line onto an empty buildable hex; the
    hex jumped over may hold anything; no adjacency rule (rulebook "Curral"; digest §6)."""

    def moves(self, st: "KingdomBuilderState", p: int) -> list[tuple[int, int]]:
        free = st.board.buildable & st.empty()
        out = []
        for s in bits(st.movable(p)):
            m = PADDOCK_STEPS[s] & free
            if m:
                out.append((s, m))
        return out

    def count(self, st: "KingdomBuilderState", p: int) -> tuple[int, Any]:
        """Per direction, the 2-step jump is one-to-one: the moves are counted by shifting the
        pieces 2 steps in each of the 6 directions (:func:`~.board.two_steps`)."""
        free = st.board.buildable & st.empty()
        movable = st.movable(p)
        n = 0
        for m in two_steps(movable):
            n += (m & free).bit_count()
        return n, (movable, free)

    def nth(self, data: Any, r: int) -> int:
        movable, free = data
        while movable:
            low = movable & -movable
            s = low.bit_length() - 1
            movable ^= low
            m = PADDOCK_STEPS[s] & free
            c = m.bit_count()
            if r < c:
                return self.base + s * NUM_HEXES + nth_bit(m, r)
            r -= c
        raise IndexError("move index out of range")  # pragma: no cover


TILE_KINDS: dict[str, TileKind] = {}
"""Every known tile kind by id (base kinds here; expansions register more)."""
KINDS_BY_BASE: list[TileKind] = []
"""Kinds sorted by their first action id (the order of their legal actions)."""


def register_tile_kind(kind: TileKind) -> TileKind:
    """Add a tile kind (expansions). Raises ValueError if its action block overlaps another."""
    for other in TILE_KINDS.values():
        if other.id == kind.id:
            raise ValueError(f"tile kind {kind.id!r} already registered")
        if kind.base < other.base + other.size and other.base < kind.base + kind.size:
            raise ValueError(f"tile kind {kind.id!r} overlaps the action block of {other.id!r}")
    TILE_KINDS[kind.id] = kind
    KINDS_BY_BASE.append(kind)
    KINDS_BY_BASE.sort(key=lambda k: k.base)
    span = NUM_HEXES if kind.base < PAIR_BASE else _PAIR_SPAN
    first = HEX_BASE if kind.base < PAIR_BASE else PAIR_BASE
    for slot in range((kind.base - first) // span, (kind.base + kind.size - 1 - first) // span + 1):
        _BY_BASE[first + slot * span] = kind  # every slot the block touches
    _BOARD_KINDS.clear()
    return kind


_BY_BASE: dict[int, TileKind] = {}
"""Kinds by the first action id of each hex or pair slot their block touches (the slot of an
action is found by division)."""
_PAIR_SPAN = NUM_HEXES * NUM_HEXES


_LOCATION_IDS: dict[Any, dict[str, tuple[int, ...]]] = {}
_BOARD_KINDS: dict[Any, tuple[tuple[TileKind, tuple[int, ...]], ...]] = {}


def location_ids(board: Any) -> dict[str, tuple[int, ...]]:
    """``{kind id: (k, ...)}``: the ids ``k`` (ascending) of ``board``'s locations
    (``board.locations[k]``) of each kind. Cached per board object (a board is immutable)."""
    got = _LOCATION_IDS.get(board)
    if got is None:
        got = {}
        for k, (_, kind) in enumerate(board.locations):
            got[kind] = got.get(kind, ()) + (k,)
        if len(_LOCATION_IDS) >= _MEMO_SIZE:
            _LOCATION_IDS.clear()
        _LOCATION_IDS[board] = got
    return got


def board_kinds(board: Any) -> tuple[tuple[TileKind, tuple[int, ...]], ...]:
    """``((kind, location ids), ...)``: the registered kinds among ``board``'s locations in
    :data:`KINDS_BY_BASE` order (the order of their legal actions), each with its
    :func:`location_ids`. Kinds without an action (the passive Crossroads tile) are not
    registered and left out. Cached per board object (emptied when a kind is registered)."""
    got = _BOARD_KINDS.get(board)
    if got is None:
        ids = location_ids(board)
        got = tuple((kind, ids[kind.id]) for kind in KINDS_BY_BASE if kind.id in ids)
        if len(_BOARD_KINDS) >= _MEMO_SIZE:
            _BOARD_KINDS.clear()
        _BOARD_KINDS[board] = got
    return got


def kind_of_action(action: int) -> TileKind | None:
    """The tile kind whose block contains ``action``, or None."""
    if HEX_BASE <= action < PAIR_BASE:
        k = _BY_BASE.get(HEX_BASE + (action - HEX_BASE) // NUM_HEXES * NUM_HEXES)
    elif action >= PAIR_BASE:
        k = _BY_BASE.get(PAIR_BASE + (action - PAIR_BASE) // _PAIR_SPAN * _PAIR_SPAN)
    else:
        k = None
    if k is not None and k.base <= action < k.base + k.size:
        return k
    for k in KINDS_BY_BASE:
        if k.base <= action < k.base + k.size:
            return k
    return None


register_tile_kind(OracleTile(
    "oracle", 0,
    "Build 1 settlement on the terrain of the card you played this turn, adjacent if possible "
    "(rulebook 'Oráculo'; digest §6).",
))
register_tile_kind(TerrainBuildTile(
    "farm", 1, GRASS,
    "Build 1 settlement on grass, adjacent if possible (rulebook 'Fazenda'; digest §6).",
))
register_tile_kind(TerrainBuildTile(
    "oasis", 2, DESERT,
    "Build 1 settlement on desert, adjacent if possible (rulebook 'Oásis'; digest §6).",
))
register_tile_kind(TowerTile(
    "tower", 3,
    "Build 1 settlement on an edge hex of any buildable terrain, adjacent if possible "
    "(rulebook 'Torre'; digest §6).",
))
register_tile_kind(TavernTile(
    "tavern", 4,
    "Build 1 settlement at either end of a straight line of at least 3 of your settlements "
    "(rulebook 'Taverna'; digest §6).",
))
register_tile_kind(TerrainMoveTile(
    "barn", 0, None,
    "Move 1 of your settlements to the terrain of the card played this turn, adjacent to your "
    "other settlements if possible (rulebook 'Celeiro'; digest §6).",
))
register_tile_kind(TerrainMoveTile(
    "harbor", 1, WATER,
    "Move 1 of your settlements onto water, adjacent to your other settlements if possible "
    "(rulebook 'Porto'; digest §6).",
))
register_tile_kind(PaddockTile(
    "paddock", 2,
    "Move 1 of your settlements exactly 2 hexes in a straight line onto an empty buildable hex; "
    "no adjacency needed (rulebook 'Curral'; digest §6).",
))

BASE_TILE_IDS: tuple[str, ...] = (
    "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock",
)


def tile_kind(kind_id: str) -> TileKind:
    """The registered kind ``kind_id``. Raises KeyError listing the kinds."""
    try:
        return TILE_KINDS[kind_id]
    except KeyError:
        raise KeyError(f"unknown tile kind {kind_id!r}; known: {', '.join(TILE_KINDS)}") from None
