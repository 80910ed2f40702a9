"""Kingdom Builder with the Crossroads expansion: the position subclass (Crossroads rulebook,
seed 004; rules digest §9).

:class:`CrossroadsState` extends :class:`~.state.KingdomBuilderState` with, per player, bitsets
``wagon``, ``ship``, ``warriors`` (≤ 2 hexes) and ``city_hall`` (0 or 7 hexes); every piece
hex is also in ``occ[p]`` (it counts as a settlement for adjacency, every Kingdom Builder card and
every task) and in ``all_occ``, never in ``stl[p]`` (the 40-settlement supply: pieces never
trigger the end of the game). ``blocked`` = every hex next to a warrior of any player (nobody
builds, places or moves onto them; pieces already there stay).

Crossroads tile: ``hand2[p]`` is a second terrain card, drawn (private chance) right after the
normal draw at the end of each turn in which ``p`` holds the tile (also the turn it was taken,
rulebook; option ``crossroads_first_draw``). The first use of a card terrain this turn (a
mandatory build, Oracle or Barn) locks it (``lock``); both cards are discarded at the turn's end.

Fort: ``fort`` puts the state at a public chance node (the Fort's terrain card); ``fort_card`` then
holds the drawn terrain and the only legal actions are the ``fort R,C`` builds on it.

Task cards (``tasks``): one per Crossroads section in play, scored in :meth:`scores`.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, NamedTuple

from citybuilders.core.game import CHANCE, PlayerScore, State

from ..actions import BUILD_BASE, CARD_BASE, END
from . import crossroads as X
from .board import (
    CARD_TERRAINS,
    FULL,
    MOUNTAIN,
    NUM_HEXES,
    WATER,
    Board,
    bits,
    hex_name,
)
from .crossroads_tiles import CROSSROADS_KIND_IDS, FORT_BUILD_BASE
from .placement import piece_terrain
from .state import (
    HELD,
    NO_CARD,
    P_DRAW,
    P_NONE,
    P_REDRAW,
    READY,
    USED,
    _PLAIN_STEP,
    KingdomBuilderState,
    Pending,
    dump_fields,
    load_fields,
)
from .tiles import (
    BASE_TILE_IDS,
    TILE_KINDS,
    kind_of_action,
    location_ids,
    mask_actions,
    nth_bit,
    own_dilation,
)

__all__ = [
    "CrossroadsState",
    "CrossroadsRules",
    "CROSSROADS_SAVED_FIELDS",
    "P_FORT",
    "P_DRAW2",
    "task_areas",
    "PIECES",
]

_ORACLE, _BARN = TILE_KINDS["oracle"], TILE_KINDS["barn"]
"""The base tiles that play the turn's card terrain (the first use locks it)."""
P_FORT = int(Pending.FORT)
"""Pending chance kind: the Fort's terrain card (public)."""
P_DRAW2 = int(Pending.DRAW2)
"""Pending chance kind: the Crossroads tile's second card (seen by the drawing player only)."""
CROSSROADS_SAVED_FIELDS: tuple[tuple[str, str], ...] = (
    ("tasks", "strs"), ("wagon", "masks"), ("ship", "masks"), ("warriors", "masks"),
    ("city_hall", "masks"), ("hand2", "ints"), ("hand2_epoch", "ints"), ("last_draw2", "ints"),
    ("need2", "bools"), ("lock", "int"), ("fort_card", "int"),
)
"""The Crossroads fields of a position (position JSON ``"crossroads"``; codecs as
:data:`~.state.SAVED_FIELDS`). ``__slots__`` and the JSON are derived from it."""


class CrossroadsRules(NamedTuple):
    """The Crossroads rules options of a game, decoded once (see ``rules/options.py``)."""

    draw_on_acquisition: bool
    """``crossroads_first_draw == "acquisition_turn"``."""
    identical_any_terrain: bool
    """``crossroads_identical_cards == "any_terrain"``."""
    wagon_on_mountains: bool
    piece_move_path: str
    base_tiles_move_pieces: bool
    tavern_counts_pieces: bool
    fort_redraw: bool
    """``fort_without_target == "redraw"``."""
    home_country_all: bool
    """``home_country_terrains == "all"``."""
    city_hall_adjacent: bool
    """``city_hall_adjacency == "required"``."""
PIECES: tuple[str, ...] = ("wagon", "ship", "warrior", "city_hall")
_LOCK_PENDING = -2

_AREAS: dict[Any, tuple[list[int], list[int]]] = {}
"""Task areas by board object and by the board's key (at most 8,192 entries, then emptied)."""


def task_areas(board: Board) -> tuple[list[int], list[int]]:
    """``(all_areas, buildable_areas)``: maximal one-terrain areas of ``board`` (digest §9.4),
    with water and mountain areas in the first list only (cached per board)."""
    got = _AREAS.get(board)  # this board object (the end of every search rollout), else
    if got is None:  # its sections (and the custom sections document if any)
        key = board.key
        got = _AREAS.get(key)
        if got is None:
            build = X.terrain_areas(board.tmask[t] for t in range(5))
            extra = X.terrain_areas([board.tmask[WATER], board.tmask[MOUNTAIN]])
            got = (build + extra, build)
            _AREAS[key] = got
        if len(_AREAS) >= 8192:
            _AREAS.clear()
        _AREAS[board] = got
    return got


class CrossroadsState(KingdomBuilderState):
    """A Kingdom Builder position with the Crossroads expansion (see the module docstring)."""

    __slots__ = tuple(name for name, _ in CROSSROADS_SAVED_FIELDS) + ("xo",)
    VERBS: tuple[str, ...] = BASE_TILE_IDS + CROSSROADS_KIND_IDS
    PRIVATE_DRAWS: tuple[int, ...] = KingdomBuilderState.PRIVATE_DRAWS + (P_DRAW2,)
    """The base game's private draws and the Crossroads tile's second card (the Fort's card is
    public)."""

    def __init__(
        self, game: Any, num_players: int, seed: int, board: Board, cards: tuple[str, ...],
        start: int, tasks: tuple[str, ...],
    ) -> None:
        super().__init__(game, num_players, seed, board, cards, start)
        n = num_players
        self.tasks = tuple(tasks)
        self.wagon = [0] * n
        self.ship = [0] * n
        self.warriors = [0] * n
        self.city_hall = [0] * n
        self.hand2 = [NO_CARD] * n
        self.hand2_epoch = [0] * n
        self.last_draw2 = [-1] * n
        self.need2 = [False] * n
        self.lock = -1
        self.fort_card = -1
        o = X.option_values(game.options)
        self.xo = CrossroadsRules(
            o["crossroads_first_draw"] == "acquisition_turn",
            o["crossroads_identical_cards"] == "any_terrain",
            bool(o["wagon_on_mountains"]),
            str(o["piece_move_path"]),
            bool(o["base_tiles_move_pieces"]),
            bool(o["tavern_counts_pieces"]),
            o["fort_without_target"] == "redraw",
            o["home_country_terrains"] == "all",
            o["city_hall_adjacency"] == "required",
        )

    # ------------------------------------------------------------------ queries
    def piece_mask(self, piece: str, p: int) -> int:
        """Bitset of ``p``'s pieces of kind ``piece`` (wagon, ship, warrior, city_hall)."""
        if piece == "wagon":
            return self.wagon[p]
        if piece == "ship":
            return self.ship[p]
        if piece == "warrior":
            return self.warriors[p]
        return self.city_hall[p]

    def pieces_of(self, p: int) -> int:
        """Every Crossroads piece hex of ``p`` (wagon, ship, warriors, city hall)."""
        return self.wagon[p] | self.ship[p] | self.warriors[p] | self.city_hall[p]

    def _piece_terrain(self, piece: str) -> int:
        return piece_terrain(self.board, piece, self.xo.wagon_on_mountains)

    def piece_place_targets(self, piece: str, p: int) -> int:
        """Legal hexes to place ``piece`` (wagon, ship, warrior) for ``p`` (rulebook: empty,
        not next to a warrior, adjacent to your settlements if possible)."""
        free = FULL & ~self.all_occ
        own = self.occ[p]
        b = self.board
        land = piece_terrain(b, piece, self.xo.wagon_on_mountains) & free
        if piece == "wagon":
            return X.wagon_place_targets(own, land, 0, self.blocked)
        if piece == "ship":
            return X.ship_place_targets(own, land, self.blocked)
        return X.warrior_place_targets(own, land, self.blocked)

    def piece_move_targets(self, piece: str, p: int) -> int:
        """Destinations of ``p``'s wagon or ship: up to 3 steps (rulebook; option
        ``piece_move_path``)."""
        start = self.piece_mask(piece, p)
        terrain = self._piece_terrain(piece)
        passable = terrain & ~self.all_occ
        return X.piece_move_targets(
            start, passable, self.blocked, X.MOVE_DISTANCE, self.xo.piece_move_path, terrain
        )

    def city_hall_targets(self, p: int) -> int:
        """Legal city-hall centres for ``p`` (none once it is placed)."""
        if self.city_hall[p]:
            return 0
        free = piece_terrain(self.board, "city_hall") & ~self.all_occ
        return X.city_hall_centres(self.occ[p], free, self.blocked, self.xo.city_hall_adjacent)

    def card_terrains(self, p: int) -> list[int]:
        """The terrains ``p`` may play now: the locked one, or those of the cards in hand (two
        with the Crossroads tile; all five for two identical cards with option
        ``crossroads_identical_cards="any_terrain"``)."""
        if p != self.cur or self.pending != P_NONE or self.over:
            return []
        if self.lock >= 0:
            return [self.lock]
        h1, h2 = self.hand[p], self.hand2[p]
        if h2 == NO_CARD:
            return [h1] if h1 != NO_CARD else []
        if h1 == NO_CARD:
            return [h2]
        if h1 == h2:
            return [0, 1, 2, 3, 4] if self.xo.identical_any_terrain else [h1]
        return [h1, h2]

    def card_terrain(self, p: int) -> int:
        ts = self.card_terrains(p)
        return ts[0] if len(ts) == 1 else (NO_CARD if not ts else self.hand[p])

    def movable(self, p: int) -> int:
        if self.xo.base_tiles_move_pieces:
            return self.stl[p] | self.wagon[p] | self.ship[p] | self.warriors[p]
        return self.stl[p]

    def tavern_own(self, p: int) -> int:
        return self.occ[p] if self.xo.tavern_counts_pieces else self.stl[p]

    def holds(self, p: int, kind: str, statuses: tuple[int, ...] = HELD) -> bool:
        """True if ``p`` holds a tile of ``kind`` with one of ``statuses``."""
        base = p * self.nloc
        hold = self.hold
        for k in location_ids(self.board).get(kind, ()):
            if hold[base + k] in statuses:
                return True
        return False

    def _card_has_room(self, p: int) -> bool:
        """True if one of the terrains ``p`` may play (:meth:`card_terrains`) has an empty hex."""
        tm = self.board.tmask
        if p == self.cur and self.pending == P_NONE and not self.over:
            # card_terrains' one-terrain cases inlined (every turn start and rare-exception check)
            if self.lock >= 0:
                return tm[self.lock] & ~(self.all_occ | self.blocked) != 0
            if self.hand2[p] == NO_CARD:
                h = self.hand[p]
                return h != NO_CARD and tm[h] & ~(self.all_occ | self.blocked) != 0
        e = FULL & ~(self.all_occ | self.blocked)  # = self.empty(), inlined (hot path)
        for t in self.card_terrains(p):
            if tm[t] & e:
                return True
        return False

    def _build_mask(self, p: int) -> int:
        """Mandatory-build hexes: the union over the playable terrains of each terrain's
        hexes with the adjacency rule applied (rules digest §9.2)."""
        mask = 0
        if self.mand < 3 and self.supply[p] > 0:
            terrains = self.card_terrains(p)
            if not terrains:
                return 0
            e = FULL & ~(self.all_occ | self.blocked)  # = self.empty()
            near_own = own_dilation(self.occ[p], p)  # with_adjacency per terrain, one for all
            tm = self.board.tmask
            for t in terrains:
                cand = tm[t] & e
                near = cand & near_own
                mask |= near if near else cand
        return mask

    def _playout_terrain(self, p: int) -> int:
        """For :meth:`~.state.KingdomBuilderState.playout`: the locked terrain, or before the
        turn's first build the one card in hand; the plain step during the Fort and with two
        cards to choose from."""
        if self.fort_card >= 0:
            return _PLAIN_STEP
        if self.lock >= 0:
            return self.lock
        if self.mand or self.hand2[p] != NO_CARD:
            return _PLAIN_STEP
        return self.hand[p]

    def _plain_step(self, rng: random.Random, p: int) -> None:
        """As the base game; the Fort's forced build without the protocol calls (the draw of
        :meth:`sample_action`, the effect of :meth:`_apply`)."""
        if self.fort_card < 0:
            super()._plain_step(rng, p)
            return
        mask = self._fort_targets(p)
        h = nth_bit(mask, rng._randbelow(mask.bit_count()))
        self.fort_build(p, h)
        self._check_card()
        self._history.append((p, FORT_BUILD_BASE + h))

    def _first_build(self, p: int, t: int) -> None:
        """The first build locks its terrain (as :meth:`_apply`; :meth:`_lock` inline)."""
        if self.lock < 0:
            if self.hand[p] != t and self.hand2[p] == t:
                self.hand[p], self.hand2[p] = self.hand2[p], self.hand[p]
            self.lock = t

    def _fort_targets(self, p: int) -> int:
        if self.fort_card < 0:
            return 0
        elig = self.board.tmask[self.fort_card] & ~(self.all_occ | self.blocked)
        near = elig & own_dilation(self.occ[p], p)  # = with_adjacency(elig, self.occ[p])
        return near if near else elig

    # ------------------------------------------------------------------ pieces
    def _refresh_blocked(self) -> None:
        allw = 0
        for w in self.warriors:
            allw |= w
        self.blocked = X.warrior_blocked(allw)

    def _set_piece(self, p: int, piece: str, mask: int) -> None:
        if piece == "wagon":
            self.wagon[p] = mask
        elif piece == "ship":
            self.ship[p] = mask
        elif piece == "warrior":
            self.warriors[p] = mask
        else:
            self.city_hall[p] = mask

    def put_piece(self, p: int, piece: str, h: int) -> None:
        """Place ``p``'s ``piece`` on hex ``h`` (no checks): it counts as a settlement from now
        on and takes a location tile like a settlement (placing is building, digest §9.2)."""
        bit = 1 << h
        self._set_piece(p, piece, self.piece_mask(piece, p) | bit)
        self.occ[p] |= bit
        self.all_occ |= bit
        if piece == "warrior":
            self._refresh_blocked()
        self.acquire(p, h)

    def remove_piece(self, p: int, piece: str, h: int) -> None:
        """Take ``p``'s ``piece`` on hex ``h`` back to the supply; tiles whose location no piece
        of ``p`` touches any more are lost (immediately, or at the turn's end with
        ``tile_loss_timing="end_of_turn"``)."""
        bit = 1 << h
        self._set_piece(p, piece, self.piece_mask(piece, p) & ~bit)
        self.occ[p] &= ~bit
        self.all_occ &= ~bit
        if piece == "warrior":
            self._refresh_blocked()
        if self.loss_immediate:
            self.check_loss(p, self.board.hex_locs[h])

    def move_piece(self, p: int, piece: str, dst: int) -> None:
        """Move ``p``'s wagon or ship to ``dst``; like a settlement move it may take a tile at
        the destination and lose tiles at the origin (digest §9.2)."""
        src = self.piece_mask(piece, p).bit_length() - 1
        self._relocate(p, piece, src, dst)

    def _relocate(self, p: int, piece: str, src: int, dst: int) -> None:
        sbit, dbit = 1 << src, 1 << dst
        self._set_piece(p, piece, (self.piece_mask(piece, p) & ~sbit) | dbit)
        self.occ[p] = (self.occ[p] & ~sbit) | dbit
        self.all_occ = (self.all_occ & ~sbit) | dbit
        if piece == "warrior":
            self._refresh_blocked()
        self.acquire(p, dst)
        if self.loss_immediate:
            self.check_loss(p, self.board.hex_locs[src])

    def move(self, p: int, src: int, dst: int) -> None:
        """Barn/Harbor/Paddock move: a settlement, or (option ``base_tiles_move_pieces``) a
        wagon, ship or warrior, which keeps its kind."""
        if self.stl[p] >> src & 1:
            super().move(p, src, dst)
            return
        for piece in ("wagon", "ship", "warrior"):
            if self.piece_mask(piece, p) >> src & 1:
                self._relocate(p, piece, src, dst)
                return
        raise AssertionError(f"no piece of player {p} on {hex_name(src)}")  # pragma: no cover

    def place_city_hall(self, p: int, centre: int) -> None:
        """Put ``p``'s city hall on the 7 hexes around ``centre`` for good; each hex takes
        location tiles like a settlement (kbc #286)."""
        fp = X.city_hall_footprint(centre)
        self.city_hall[p] = fp
        self.occ[p] |= fp
        self.all_occ |= fp
        for i in bits(fp):
            self.acquire(p, i)

    def start_fort(self, p: int) -> None:
        """Fort, step 1: a public chance node draws the Fort's terrain card."""
        self._ensure_deck()
        self.pending = P_FORT
        self.pending_player = p

    def fort_build(self, p: int, h: int) -> None:
        """Fort, step 2: build on the drawn terrain, then discard the card."""
        self.place(p, h)
        self.discard[self.fort_card] += 1
        self.fort_card = -1

    # ------------------------------------------------------------------ protocol
    def _legal_actions(self, player: int) -> list[int]:
        """As the base game, with: the forced Fort build, up to two playable terrains for the
        mandatory action, and warrior-blocked hexes excluded (rules digest §3, §9)."""
        if self.fort_card >= 0 and player == self.cur and self.pending == P_NONE and not self.over:
            return mask_actions(self._fort_targets(player), FORT_BUILD_BASE)
        return super()._legal_actions(player)

    def sample_action(self, rng: random.Random, player: int | None = None) -> int:
        """As the base game (:meth:`_draw_move` with this game's :meth:`_build_mask`), with the
        forced Fort build first (see :meth:`_legal_actions`)."""
        if self.over or self.pending != P_NONE or (player is not None and player != self.cur):
            return State.sample_action(self, rng, player)
        p = self.cur
        if self.fort_card >= 0:
            mask = self._fort_targets(p)
            return FORT_BUILD_BASE + nth_bit(mask, rng._randbelow(mask.bit_count()))
        return self._draw_move(rng._randbelow, p, self._build_mask(p))

    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self._apply_chance(action - CARD_BASE)
            return
        p = player
        if self.fort_card >= 0:
            self.fort_build(p, action - FORT_BUILD_BASE)
            self._check_card()
            return
        if self.lock < 0 and action != END:
            h = -1
            if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
                h = action - BUILD_BASE
            elif _ORACLE.base <= action < _ORACLE.base + _ORACLE.size:
                h = action - _ORACLE.base
            elif _BARN.base <= action < _BARN.base + _BARN.size:
                h = (action - _BARN.base) % NUM_HEXES
            if h >= 0:
                self._lock(p, self.board.terrain[h])
        KingdomBuilderState._apply(self, action, player)

    def _lock(self, p: int, t: int) -> None:
        """The first terrain used this turn becomes the turn's card (digest §9.2, kbc d6fe0c8):
        the card showing it moves to ``hand[p]``, the other stays as ``hand2[p]``."""
        if self.hand[p] != t and self.hand2[p] == t:
            self.hand[p], self.hand2[p] = self.hand2[p], self.hand[p]
        self.lock = t

    def _apply_chance(self, card: int) -> None:
        pend = self.pending
        if pend == P_FORT:
            self.deck[card] -= 1
            self.pending = P_NONE
            p = self.cur
            self.fort_card = card
            if not self.board.tmask[card] & ~(self.all_occ | self.blocked):  # = no _fort_targets
                self.fort_card = -1
                if self.xo.fort_redraw:  # redraw
                    self.removed[card] += 1
                    if self._ensure_deck():
                        self.pending = P_FORT
                        self.pending_player = p
                else:
                    self.discard[card] += 1
            return
        if pend == P_DRAW2:
            q = self.pending_player
            self.deck[card] -= 1
            self.hand2[q] = card
            self.hand2_epoch[q] = self.epoch
            self.last_draw2[q] = self.move_number()
            self.pending = P_NONE
            self._start_turn((q + 1) % self.num_players)
            return
        if pend == P_DRAW:
            q = self.pending_player
            self.deck[card] -= 1
            self._take_card(q, card)
            if self.need2[q]:
                self.need2[q] = False
                if self._ensure_deck():
                    self.pending = P_DRAW2
                    return
            self.pending = P_NONE  # (without the second card: the base game's draw)
            self._start_turn((q + 1) % self.num_players)
            return
        KingdomBuilderState._apply_chance(self, card)
        if pend == P_REDRAW and self.lock == _LOCK_PENDING and self.pending == P_NONE:
            self.lock = self.hand[self.cur]

    def _start_turn(self, p: int) -> None:
        """No lock and no Fort yet; both cards become public; then the base turn start inline
        (every turn of a rollout): the rare-exception check of :meth:`_check_card` with one
        card in hand and nothing locked tests that card's room itself."""
        self.lock = -1
        self.fort_card = -1
        if self.last_draw2[p] >= 0 and self.hand2[p] != NO_CARD:
            self.revealed.append(self.last_draw2[p])
        self.cur = p
        self.mand = 0
        h = self.hand[p]
        if h == NO_CARD:
            return  # _check_card: nothing to set aside
        if self.last_draw[p] >= 0:
            self.revealed.append(self.last_draw[p])
        if not self.redraw or self.pending != P_NONE or self.over:
            return
        if self.hand2[p] == NO_CARD:
            if self.board.tmask[h] & ~(self.all_occ | self.blocked):
                return  # = _card_has_room(p)
        elif self._card_has_room(p):
            return
        KingdomBuilderState._check_card(self)

    def _check_card(self) -> None:
        """Rare exception with up to two cards: only when none of the playable terrains has an
        empty hex is the played card set aside and a new one drawn (digest §4.4)."""
        if self.fort_card >= 0 or not self.redraw or self.pending != P_NONE or self.over:
            return
        p = self.cur
        if self.hand[p] == NO_CARD:  # the base game's test: nothing to set aside
            return
        # _card_has_room(p)'s one-terrain cases inline (after every tile move of a rollout)
        t = self.lock if self.lock >= 0 else self.hand[p] if self.hand2[p] == NO_CARD else -1
        if t >= 0:
            if self.board.tmask[t] & ~(self.all_occ | self.blocked):
                return
        elif self._card_has_room(p):
            return
        KingdomBuilderState._check_card(self)

    def _card_set_aside(self) -> None:
        """A locked terrain's card was set aside: the redrawn card becomes the lock."""
        if self.lock >= 0:
            self.lock = _LOCK_PENDING

    def _end_turn(self) -> None:
        p = self.cur
        if self.hand2[p] != NO_CARD:
            self.discard[self.hand2[p]] += 1
            self.hand2[p] = NO_CARD
        if "crossroads" not in location_ids(self.board):  # no Crossroads tile, no second card
            KingdomBuilderState._end_turn(self)
            self.need2[p] = False
            return
        statuses = HELD if self.xo.draw_on_acquisition else (READY, USED)
        want = self.holds(p, "crossroads", statuses)
        super()._end_turn()
        self.need2[p] = (
            want and self.pending == P_DRAW and self.holds(p, "crossroads")
        )

    def _clone(self) -> "CrossroadsState":
        s = super()._clone()
        s.tasks = self.tasks
        s.wagon = self.wagon[:]
        s.ship = self.ship[:]
        s.warriors = self.warriors[:]
        s.city_hall = self.city_hall[:]
        s.hand2 = self.hand2[:]
        s.hand2_epoch = self.hand2_epoch[:]
        s.last_draw2 = self.last_draw2[:]
        s.need2 = self.need2[:]
        s.lock = self.lock
        s.fort_card = self.fort_card
        s.xo = self.xo
        return s  # type: ignore[return-value]

    # ------------------------------------------------------------------ scoring
    def score_totals(self) -> list[int]:
        """As the base game, plus each player's task gold (as :meth:`scores`)."""
        out = super().score_totals()
        if self.tasks:  # as task_gold, the areas found once
            all_areas, build_areas = task_areas(self.board)
            areas = all_areas if self.xo.home_country_all else build_areas
            specials = self.board.special
            for p, own in enumerate(self.occ):
                for t in self.tasks:
                    out[p] += X.task_score(t, own, areas, specials)
        return out

    def task_gold(self, p: int) -> dict[str, int]:
        """``{task: gold}`` of player ``p`` for the task cards in play (digest §9.4)."""
        if not self.tasks:
            return {}
        all_areas, build_areas = task_areas(self.board)
        return X.score_tasks(
            self.tasks, self.occ[p], areas=all_areas if self.xo.home_country_all else build_areas,
            specials=self.board.special,
        )

    def scores(self) -> list[PlayerScore]:
        """Kingdom Builder cards + castles + task cards (each task once per player)."""
        out = super().scores()
        for p, ps in enumerate(out):
            tg = self.task_gold(p)
            ps.parts.update(tg)
            ps.total += sum(tg.values())
        return out

    # ------------------------------------------------------------------ views
    def visible_hand(self, p: int, viewer: int | None) -> int | None:
        """As the base game; the played card also stays public while the Fort's card is being
        drawn (it was face up before)."""
        h = self.hand[p]
        if h != NO_CARD and p == self.cur and self.pending == P_FORT and not self.over:
            return h
        return super().visible_hand(p, viewer)

    def visible_hand2(self, p: int, viewer: int | None) -> int | None:
        """Second card of ``p`` as ``viewer`` sees it (None = hidden, -1 = none)."""
        h = self.hand2[p]
        if h == NO_CARD:
            return NO_CARD
        if viewer == p or (p == self.cur and self.pending in (P_NONE, P_FORT) and not self.over):
            return h
        return None

    def crossroads_view(self, viewer: int | None) -> dict[str, Any]:
        """The public Crossroads facts (pieces, tasks, location summaries) plus ``viewer``'s
        own second card (names and texts from the game's ``texts`` table)."""
        texts = self.game.texts
        players = []
        for q in range(self.num_players):
            v2 = self.visible_hand2(q, viewer)
            players.append({
                "wagon": [hex_name(i) for i in bits(self.wagon[q])],
                "ship": [hex_name(i) for i in bits(self.ship[q])],
                "warriors": [hex_name(i) for i in bits(self.warriors[q])],
                "city_hall": [hex_name(i) for i in bits(self.city_hall[q])],
                "second_card": None if v2 is None else (CARD_TERRAINS[v2] if v2 >= 0 else "none"),
            })
        summary = []
        for sid, _ in self.board.sections:
            if sid in X.SECTIONS:
                summary.append({
                    "section": sid,
                    "tiles": [
                        {"kind": k, "name": texts.TILE_NAMES[k], "text": texts.TILE_RULES[k]}
                        for k in X.SECTIONS[sid]
                    ],
                })
        return {
            "tasks": [
                {"task": t, "name": texts.TASK_NAMES[t], "gold": X.TASK_GOLD[t]}
                for t in self.tasks
            ],
            "location_summary": summary,
            "players": players,
            "fort_card": CARD_TERRAINS[self.fort_card] if self.fort_card >= 0 else None,
            "locked_terrain": CARD_TERRAINS[self.lock] if self.lock >= 0 else None,
            "blocked": [hex_name(i) for i in bits(self.blocked)],
        }

    def observation(self, player: int) -> dict[str, Any]:
        """The base observation plus ``"crossroads"`` (:meth:`crossroads_view`)."""
        obs = super().observation(player)
        obs["crossroads"] = self.crossroads_view(player)
        return obs

    def resample_from_infostate(self, player: int, rng: random.Random) -> "CrossroadsState":
        """As the base game, with the others' hidden second cards (Crossroads tile) redealt
        jointly with their first cards: one pool per deck generation holds every unseen card,
        so neither card is drawn knowing the other (digest §9)."""
        s = self.clone()
        slots = []
        for q in range(self.num_players):
            if q == player:
                continue
            if self.visible_hand(q, player) is None:
                slots.append((s.hand, q, self.hand_epoch[q], s.last_draw))
            if self.visible_hand2(q, player) is None:
                slots.append((s.hand2, q, self.hand2_epoch[q], s.last_draw2))
        s._redeal(slots, rng)
        return s

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str) -> int:
        """As the base notation, with aliases ``ship`` (= lighthouse) and ``warrior``
        (= barracks)."""
        words = text.strip().lower().split(None, 1)
        if words and words[0] in ("ship", "warrior"):
            verb = "lighthouse" if words[0] == "ship" else "barracks"
            text = verb + (" " + words[1] if len(words) > 1 else "")
        return super().parse_action(text)

    def explain_illegal(self, action: int, player: int) -> str:
        """Base reasons plus the Fort's forced build and warrior blocking."""
        if self.fort_card >= 0 and self.pending == P_NONE and not self.over:
            try:
                text = self.action_to_string(action, player)
            except ValueError:
                text = str(action)
            return (f"'{text}': finish the Fort first: build on an empty "
                    f"{CARD_TERRAINS[self.fort_card]} hex (fort R,C)")
        msg = super().explain_illegal(action, player)
        kind = kind_of_action(action)
        h = -1
        if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
            h = action - BUILD_BASE
        elif kind is not None and kind.id in ("foresters_lodge", "monastery", "city_hall"):
            h = action - kind.base
        if h >= 0 and self.blocked >> h & 1:
            text = self.action_to_string(action, player)
            return f"'{text}': hex {hex_name(h)} is next to a warrior"
        return msg

    # ------------------------------------------------------------------ JSON
    def _position_json(self) -> dict[str, Any]:
        d = super()._position_json()
        d["crossroads"] = dump_fields(self, CROSSROADS_SAVED_FIELDS)
        return d

    def _load_position(self, data: Mapping[str, Any]) -> None:
        super()._load_position(data)
        load_fields(self, CROSSROADS_SAVED_FIELDS, data["crossroads"])
        if len(self.wagon) != self.num_players:
            raise ValueError("player count does not match the saved Crossroads position")
