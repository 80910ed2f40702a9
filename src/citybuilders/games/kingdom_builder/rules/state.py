"""Kingdom Builder positions and the base rules (rulebook seed 003; rules digest §1-8).

Flat state over 400-hex integer bitsets. Per player: ``occ[p]`` = every hex holding a piece that
counts as p's settlement (adjacency anchor, scoring), ``stl[p]`` = p's settlements (the pieces
from the 40-settlement supply; the only pieces base move tiles move). ``all_occ`` = every
occupied hex; ``blocked`` = hexes no piece may arrive on (0 in the base game; Crossroads
warriors). ``x`` holds expansion state (None in the base game; must offer ``clone()``).

Turn (digest §3): the card is revealed at the start of the turn; tiles may be used before or
after the mandatory 3 builds but not between them; ``end`` discards the card and draws a new one
(a chance node seen only by the drawing player). Location tiles per (player, location hex) have a
status: none, ready, used (this turn), new (taken this turn, usable from the next), lost.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Any, Callable, Mapping

from citybuilders.core.errors import IllegalActionError
from citybuilders.core.game import (
    CHANCE,
    TERMINAL,
    PlayerScore,
    State,
    chance_viewer_of,
    private_chance,
)

from ..actions import BUILD_BASE, CARD_BASE, END, HEX_BASE, action_to_string, parse_action
from ..scoring import score_all, score_totals
from .board import (
    CARD_TERRAINS,
    FULL,
    NEIGHBORS,
    NUM_HEXES,
    TERRAINS,
    Board,
    bits,
    dilate,
    hex_name,
    make_board,
)
from .placement import SETTLEMENT_SUPPLY
from .tiles import (
    BASE_TILE_IDS,
    TILE_KINDS,
    board_kinds,
    kind_of_action,
    location_ids,
    DILATION_SEEN,
    nth_bit,
    own_dilation,
)
from ....core.i18n import message_of

__all__ = [
    "KingdomBuilderState",
    "TileStatus",
    "NONE",
    "READY",
    "USED",
    "NEW",
    "LOST",
    "HELD",
    "STATUS_NAMES",
    "Pending",
    "P_NONE",
    "P_DEAL",
    "P_DRAW",
    "P_REDRAW",
    "NO_CARD",
    "SUPPLY",
    "SETUP_FIELDS",
    "SAVED_FIELDS",
    "dump_fields",
    "load_fields",
]


class TileStatus(IntEnum):
    """Status of a player's location tile for one location hex (``hold[p * nloc + k]``;
    rulebook 'Pegando Peças' and 'Manutenção das Peças de Local')."""

    NONE = 0
    """Never taken from this location."""
    READY = 1
    """Held and usable now."""
    USED = 2
    """Held, already used this turn (ready again next turn)."""
    NEW = 3
    """Taken this turn: usable from the player's next turn."""
    LOST = 4
    """Lost for good (no piece next to the location any more); never taken again."""


NONE, READY, USED, NEW, LOST = (int(t) for t in TileStatus)
"""The codes as plain ints (comparing an int subclass costs more on the hot paths)."""
HELD: tuple[int, ...] = (READY, USED, NEW)
"""The statuses of a tile the player holds."""
STATUS_NAMES: tuple[str, ...] = tuple(s.name.lower() for s in TileStatus)
"""``"none", "ready", "used", "new", "lost"`` (observation ``tiles[].status``)."""
NO_CARD = -1
"""``hand[p]`` without a card (and "no terrain" in :meth:`KingdomBuilderState.card_terrain`)."""


class Pending(IntEnum):
    """What the pending chance node draws (``pending``; P_NONE = no chance node)."""

    NONE = 0
    DEAL = 1
    """The initial deal, one private card per player (``pending_player`` = who)."""
    DRAW = 2
    """The end-of-turn draw of ``pending_player`` (private)."""
    REDRAW = 3
    """The rare exception's public redraw (digest §4.4)."""
    FORT = 4
    """Crossroads: the Fort's terrain card (public)."""
    DRAW2 = 5
    """Crossroads: the Crossroads tile's second card (private)."""


P_NONE, P_DEAL, P_DRAW, P_REDRAW = (int(Pending.NONE), int(Pending.DEAL), int(Pending.DRAW),
                                    int(Pending.REDRAW))
"""The codes as plain ints (see :data:`NONE`)."""
_RANDBELOW_BITS = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
"""What ``rng._randbelow`` is for ``random.Random`` (see :meth:`KingdomBuilderState.playout`)."""
_READY_AGAIN = bytes(READY if s in (USED, NEW) else s for s in range(256))
"""``bytes.translate`` table of the turn's end: USED and NEW become READY, other codes stay."""
_PLAIN_STEP = -2
"""``_playout_terrain``'s answer "take the plain step" (see :meth:`KingdomBuilderState.playout`)."""
SUPPLY = SETTLEMENT_SUPPLY
"""Settlements per player (rulebook Preparação: 40 settlements each)."""

SETUP_FIELDS: tuple[str, ...] = (
    "board", "cards", "opts", "redraw", "loss_immediate", "allow_null_move", "nloc", "x",
)
"""State fields fixed by the setup and the options (not saved: the record's setup rebuilds them,
except ``board`` and ``cards`` which the position JSON repeats as ``sections``/``cards``)."""
SAVED_FIELDS: tuple[tuple[str, str], ...] = (
    ("occ", "masks"), ("stl", "masks"), ("all_occ", "mask"), ("blocked", "mask"),
    ("supply", "ints"), ("hand", "ints"), ("deck", "ints"), ("discard", "ints"),
    ("removed", "ints"), ("hold", "ints"), ("loc_left", "ints"), ("cur", "int"),
    ("start", "int"), ("pending", "int"), ("pending_player", "int"), ("mand", "int"),
    ("final_round", "bool"), ("over", "bool"), ("turn", "int"), ("epoch", "int"),
    ("hand_epoch", "ints"), ("last_draw", "ints"), ("revealed", "ints"),
)
"""The one list of the position's changing fields, in position-JSON order, with their JSON
codec: ``masks`` (list of bitsets as hex strings), ``mask`` (one bitset), ``ints``, ``int``,
``bool``, ``bools``, ``strs``. ``__slots__``, :meth:`KingdomBuilderState._position_json` and
``_load_position`` are derived from it; the hand-written ``_clone`` is checked against it by
tests/kingdom_builder/test_fields.py."""

_DUMP: dict[str, Callable[[Any], Any]] = {
    "masks": lambda v: [format(o, "x") for o in v],
    "mask": lambda v: format(v, "x"),
    "ints": list,
    "bools": list,
    "strs": list,
    "int": lambda v: v,
    "bool": lambda v: v,
}
_LOAD: dict[str, Callable[[Any], Any]] = {
    "masks": lambda v: [int(o, 16) for o in v],
    "mask": lambda v: int(v, 16),
    "ints": lambda v: [int(x) for x in v],
    "bools": lambda v: [bool(x) for x in v],
    "strs": lambda v: tuple(str(x) for x in v),
    "int": int,
    "bool": bool,
}


def dump_fields(obj: Any, fields: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """``{name: JSON value}`` of ``obj``'s ``fields`` (see :data:`SAVED_FIELDS`)."""
    return {name: _DUMP[codec](getattr(obj, name)) for name, codec in fields}


def load_fields(obj: Any, fields: tuple[tuple[str, str], ...], data: Mapping[str, Any]) -> None:
    """Inverse of :func:`dump_fields` (raises KeyError/ValueError/TypeError on bad data)."""
    for name, codec in fields:
        setattr(obj, name, _LOAD[codec](data[name]))


class KingdomBuilderState(State):
    """One Kingdom Builder position (see the module docstring for the representation)."""

    __slots__ = SETUP_FIELDS + tuple(name for name, _ in SAVED_FIELDS)
    VERBS: tuple[str, ...] = BASE_TILE_IDS
    """Tile kinds whose notation this game accepts (Crossroads adds its own)."""
    PRIVATE_DRAWS: tuple[int, ...] = (P_DEAL, P_DRAW)
    """The ``pending`` kinds whose card only ``pending_player`` sees (:meth:`chance_viewer`;
    the others are public). Crossroads adds the second card."""

    def __init__(
        self, game: Any, num_players: int, seed: int, board: Board, cards: tuple[str, ...],
        start: int,
    ) -> None:
        super().__init__(game, num_players, seed)
        opts = game.options
        self.board = board
        self.cards = cards
        self.opts = opts
        self.redraw = opts["rare_exception"] == "redraw"
        self.loss_immediate = opts["tile_loss_timing"] == "immediate"
        self.allow_null_move = opts["null_move"] == "allowed"
        n = num_players
        self.occ = [0] * n
        self.stl = [0] * n
        self.all_occ = 0
        self.blocked = 0
        self.supply = [SUPPLY] * n
        self.hand = [NO_CARD] * n
        self.deck = [5, 5, 5, 5, 5]
        self.discard = [0, 0, 0, 0, 0]
        self.removed = [0, 0, 0, 0, 0]
        self.nloc = len(board.locations)
        self.hold = [NONE] * (n * self.nloc)
        self.loc_left = list(board.tiles_per_location)
        self.cur = start
        self.start = start
        self.pending = P_DEAL
        self.pending_player = 0
        self.mand = 0
        self.final_round = False
        self.over = False
        self.turn = 0
        self.epoch = 0
        self.hand_epoch = [0] * n
        self.last_draw = [-1] * n
        self.revealed: list[int] = []
        self.x: Any = None

    # ------------------------------------------------------------------ helpers
    def empty(self) -> int:
        """Hexes a piece may arrive on as far as occupancy goes: not occupied, not blocked.

        (Written ``x & ~(a | b)``, not ``x & ~a & ~b``, here and on the other hot paths: one
        complement of a 400-bit int, which Python builds as a negative number, instead of two.)"""
        return FULL & ~(self.all_occ | self.blocked)

    def card_terrain(self, p: int) -> int:
        """Terrain id (0..4) of the card ``p`` plays this turn, or -1 (no card / not p's turn)."""
        if p != self.cur or self.pending != P_NONE:
            return NO_CARD
        return self.hand[p]

    def card_terrains(self, p: int) -> list[int]:
        """Terrain ids ``p`` may play this turn (mandatory action, Oracle, Barn): the card's
        terrain, or [] (no card / not p's turn). Crossroads overrides it (two cards in hand)."""
        t = self.card_terrain(p)
        return [t] if t >= 0 else []

    def movable(self, p: int) -> int:
        """Pieces of ``p`` that Barn/Harbor/Paddock may move: the settlements (Crossroads may
        add its pieces with option ``base_tiles_move_pieces``)."""
        return self.stl[p]

    def tavern_own(self, p: int) -> int:
        """Hexes that form ``p``'s Tavern lines (every piece counting as a settlement)."""
        return self.occ[p]

    def mandatory_done(self) -> bool:
        """True once the current player's mandatory action is complete (3 built, supply empty,
        no card left, or - with ``rare_exception="no_redraw"`` - no empty hex of the terrain)."""
        p = self.cur
        if self.mand >= 3 or self.supply[p] <= 0:
            return True
        return not self._card_has_room(p)

    def _card_has_room(self, p: int) -> bool:
        """True if a card ``p`` may play has an empty hex of its terrain (mandatory action,
        rare exception). Crossroads overrides it (up to two cards)."""
        card = self.hand[p]
        return card != NO_CARD and (self.board.tmask[card] & ~(self.all_occ | self.blocked)) != 0

    def _build_mask(self, p: int) -> int:
        """Hexes ``p`` may build on for the mandatory action now, adjacency rule applied
        (0 once it is complete or without a card). Crossroads overrides it (two cards)."""
        card = self.hand[p]
        if self.mand >= 3 or self.supply[p] <= 0 or card == NO_CARD:
            return 0
        cand = self.board.tmask[card] & ~(self.all_occ | self.blocked)
        near = cand & dilate(self.occ[p])
        return near if near else cand

    def mandatory_in_progress(self) -> bool:
        """True between the first and the last settlement of the mandatory action."""
        return self.mand > 0 and not self.mandatory_done()

    def status(self, p: int, loc: int) -> int:
        """Tile status of player ``p`` for location ``loc`` (NONE/READY/USED/NEW/LOST)."""
        return self.hold[p * self.nloc + loc]

    def tiles_of(self, p: int) -> list[tuple[int, str, int]]:
        """``[(loc, kind, status), ...]`` for the tiles ``p`` holds (ready/used/new)."""
        out = []
        base = p * self.nloc
        for k in range(self.nloc):
            s = self.hold[base + k]
            if s in HELD:
                out.append((k, self.board.locations[k][1], s))
        return out

    def ready_kinds(self, p: int) -> list[str]:
        """Kind ids of the tiles ``p`` may use now (one entry per kind)."""
        base = p * self.nloc
        locs = self.board.locations
        out = []
        for k in range(self.nloc):
            if self.hold[base + k] == READY:
                kind = locs[k][1]
                if kind not in out:
                    out.append(kind)
        return out

    # ------------------------------------------------------------------ mutation primitives
    def place(self, p: int, h: int) -> None:
        """Put a settlement of ``p`` from the supply on hex ``h`` (no checks) and take a
        location tile if ``h`` is next to a location hex ``p`` never took from (digest §5)."""
        bit = 1 << h
        self.stl[p] |= bit
        self.occ[p] |= bit
        self.all_occ |= bit
        self.supply[p] -= 1
        if self.supply[p] == 0:
            self.final_round = True
        if self.board.hex_locs[h]:
            self.acquire(p, h)

    def acquire(self, p: int, h: int) -> None:
        """Take a tile for each location next to ``h`` that ``p`` never took from (if any
        remain); it arrives 'new' (usable from p's next turn; rulebook 'Pegando Peças')."""
        locs = self.board.hex_locs[h]
        if locs:
            base = p * self.nloc
            for k in locs:
                if self.hold[base + k] == NONE and self.loc_left[k] > 0:
                    self.loc_left[k] -= 1
                    self.hold[base + k] = NEW

    def move(self, p: int, src: int, dst: int) -> None:
        """Move ``p``'s settlement from ``src`` to ``dst`` (no checks), then take tiles next to
        ``dst`` and, with immediate tile loss, lose tiles no settlement of ``p`` touches."""
        sbit, dbit = 1 << src, 1 << dst
        self.stl[p] = (self.stl[p] & ~sbit) | dbit
        self.occ[p] = (self.occ[p] & ~sbit) | dbit
        self.all_occ = (self.all_occ & ~sbit) | dbit
        self.acquire(p, dst)
        if self.loss_immediate:
            self.check_loss(p, self.board.hex_locs[src])

    def check_loss(self, p: int, locs: Any = None) -> None:
        """Lose (out of the game) each held tile whose location no piece of ``p`` touches any
        more (rulebook 'Manutenção das Peças de Local'). With two tiles of one kind the player
        keeps the more useful copy: an unused copy survives when a used one exists (digest §5)."""
        base = p * self.nloc
        board = self.board
        own = self.occ[p]
        for k in (range(self.nloc) if locs is None else locs):
            s = self.hold[base + k]
            if s in HELD and not board.loc_nbr[k] & own:
                self.hold[base + k] = LOST
                if s == READY:
                    kind = board.locations[k][1]
                    for j in range(self.nloc):
                        if board.locations[j][1] == kind and self.hold[base + j] in (USED, NEW):
                            self.hold[base + j] = READY
                            break

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending != P_NONE:
            return CHANCE
        return self.cur

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The core's :meth:`State.legal_actions` without its ``active_players()`` list (one
        player acts at a time here: the current one; a search asks at every tree node)."""
        if self.over:
            return []
        if player is None or self.pending != P_NONE:
            return self._legal_actions(self.current_player())
        if player != self.cur:
            return []
        return self._legal_actions(player)

    def chance_viewer(self) -> int | None:
        if self.pending in self.PRIVATE_DRAWS:
            return self.pending_player
        return None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.deck)
        if self.pending == P_NONE or total == 0:
            return []
        return [(CARD_BASE + t, c / total) for t, c in enumerate(self.deck) if c]

    def sample_chance(self, rng: random.Random) -> int:
        """One card drawn from the remaining deck (uniform over cards); the draw of
        ``rng.randrange(total)`` (``rng._randbelow``, as :meth:`sample_action`)."""
        total = sum(self.deck)
        r = rng._randbelow(total) if total > 0 else rng.randrange(total)
        for t, c in enumerate(self.deck):
            if r < c:
                return CARD_BASE + t
            r -= c
        raise AssertionError("empty deck")  # pragma: no cover

    def _legal_actions(self, player: int) -> list[int]:
        if self.over:
            return []
        if self.pending != P_NONE:
            return [CARD_BASE + t for t, c in enumerate(self.deck) if c]
        if player != self.cur:
            return []
        p = player
        mask = self._build_mask(p)
        if mask:
            out = []
            while mask:  # = mask_actions(mask, BUILD_BASE), inlined on this hot path
                low = mask & -mask
                out.append(BUILD_BASE + low.bit_length() - 1)
                mask ^= low
            if self.mand > 0:
                return out
        else:
            out = [END]
        base = p * self.nloc
        hold = self.hold
        if READY not in hold[base: base + self.nloc]:
            return out
        for kind, locs in board_kinds(self.board):
            for k in locs:
                if hold[base + k] == READY:
                    out.extend(kind.legal(self, p))
                    break
        return out

    def sample_action(self, rng: random.Random, player: int | None = None) -> int:
        """A uniformly random legal action of ``player``: exactly ``legal[rng.randrange(len(
        legal))]`` (the core contract), found by counting the build hexes and each tile's
        actions instead of listing them.

        The draws are ``rng._randbelow(n)``: what ``rng.randrange(n)`` returns and consumes for
        ``n >= 1`` (CPython's random.py; tests/bots/test_ismcts_fast.py checks it), without
        randrange's argument checks (one Python call fewer on the rollouts' hot path). Every
        ``n`` here is at least 1."""
        if self.over or self.pending != P_NONE or (player is not None and player != self.cur):
            return super().sample_action(rng, player)
        p = self.cur  # on p's own turn: the same order as :meth:`_legal_actions`
        # _build_mask(p) inlined (random play's hot path; Crossroads has its own sample_action)
        card, mand = self.hand[p], self.mand
        if mand >= 3 or self.supply[p] <= 0 or card == NO_CARD:
            return self._draw_move(rng._randbelow, p, 0)
        cand = self.board.tmask[card] & ~(self.all_occ | self.blocked)
        mask = (cand & dilate(self.occ[p])) or cand
        if mask and mand:  # mid-way through the mandatory action: a build (as _draw_move)
            return BUILD_BASE + nth_bit(mask, rng._randbelow(mask.bit_count()))
        return self._draw_move(rng._randbelow, p, mask)

    def _draw_move(self, below: Callable[[int], int], p: int, mask: int) -> int:
        """:meth:`sample_action` on ``p``'s own turn (no chance node pending), given ``mask ==
        self._build_mask(p)`` and ``below = rng._randbelow``."""
        if mask:
            head = mask.bit_count()
            if self.mand > 0:
                return BUILD_BASE + nth_bit(mask, below(head))
        else:
            head = 1  # END
        base = p * self.nloc
        if READY not in self.hold[base: base + self.nloc]:
            r = below(head)
            return BUILD_BASE + nth_bit(mask, r) if mask else END
        return self._draw_with_tiles(below, p, mask, head)

    def _draw_with_tiles(self, below: Callable[[int], int], p: int, mask: int,
                         head: int) -> int:
        """:meth:`_draw_move` for ``p`` holding a ready tile, given ``head``: the number of
        build moves (``mask``'s hexes) or 1 (``end``) listed before the tiles' moves."""
        base = p * self.nloc
        groups = []
        total = head
        hold = self.hold
        for kind, locs in board_kinds(self.board):
            for k in locs:
                if hold[base + k] == READY:
                    n, data = kind.count(self, p)
                    if n:
                        groups.append((kind, n, data))
                        total += n
                    break
        r = below(total)
        if r < head:
            return BUILD_BASE + nth_bit(mask, r) if mask else END
        r -= head
        for kind, n, data in groups:
            if r < n:
                return kind.nth(data, r)
            r -= n
        raise AssertionError("sampled index out of range")  # pragma: no cover

    def apply_legal(self, action: int, player: int | None = None) -> None:
        """The core's :meth:`State.apply_legal` (same effect and history entry) without its
        generic ``current_player()`` round trip (the hot path of random play and rollouts)."""
        if self.over:
            super().apply_legal(action, player)
            return
        if self.pending != P_NONE:
            # the actor of chance_viewer()'s draw, read before the draw changes ``pending``
            actor = (private_chance(self.pending_player) if self.pending in self.PRIVATE_DRAWS
                     else CHANCE)
            self._apply_chance(action - CARD_BASE)  # = _apply(action, CHANCE) in both editions
            self._history.append((actor, action))
            return
        if player is None:
            player = self.cur
        self._apply(action, player)
        self._history.append((player, action))

    def playout(self, rng: random.Random, max_actions: int | None = None) -> None:
        """:meth:`State.playout` fused: the same state afterwards (history included) and the same
        draws as the plain loop of :meth:`sample_chance` / :meth:`sample_action` /
        :meth:`apply_legal` (tests/bots/test_playout.py, tests/kingdom_builder/test_playout.py).

        Inline: the card draws (``rng._randbelow(n)`` is ``rng.randrange(n)`` for ``n >= 1``),
        the mandatory builds of a player whose playable terrain is one known card
        (:meth:`_playout_terrain`; a turn's builds in one inner loop) and ``end``; the own
        dilation is kept between builds (``dilate(occ | h) == dilate(occ) | NEIGHBORS[h]``). A
        player with a ready tile draws with :meth:`_draw_move` (sample_action's draw) and a tile
        move is applied with :meth:`_apply`; two cards to choose from and the Fort take
        :meth:`_plain_step`. (Kept in this module: it reads the state's codes, and a module of
        its own would import this one back.)

        The draws inline ``rng._randbelow(n)`` (CPython's ``_randbelow_with_getrandbits``:
        ``getrandbits(n.bit_length())`` until below ``n``); an ``rng`` drawing otherwise plays
        the core's loop."""
        if type(rng)._randbelow is not _RANDBELOW_BITS:
            State.playout(self, rng, max_actions)
            return
        private = self.PRIVATE_DRAWS
        actors = [private_chance(q) for q in range(self.num_players)]  # a private draw's actor
        below = rng._randbelow
        bits_of = rng.getrandbits
        hist = self._history
        left = -1 if max_actions is None else max_actions
        board = self.board
        tmask, hex_locs = board.tmask, board.hex_locs
        occ, stl, supply, hold = self.occ, self.stl, self.supply, self.hold
        nloc = self.nloc
        seen = DILATION_SEEN  # per player (own, dilate(own)): own_dilation's memo
        while not self.over:
            pend = self.pending
            if pend != P_NONE:
                deck = self.deck
                total = sum(deck)
                if total <= 0:  # never in play; the plain call raises as the plain loop does
                    self.apply_legal(self.sample_chance(rng))
                    continue
                k = total.bit_length()
                r = bits_of(k)
                while r >= total:
                    r = bits_of(k)
                t = 0
                for t, c in enumerate(deck):
                    if r < c:
                        break
                    r -= c
                actor = actors[self.pending_player] if pend in private else CHANCE  # chance_viewer
                self._apply_chance(t)
                hist.append((actor, CARD_BASE + t))
                continue
            if left == 0:
                return
            left -= 1
            p = self.cur
            t = self._playout_terrain(p)
            if t == _PLAIN_STEP:
                self._plain_step(rng, p)
                continue
            mand = self.mand
            mask = cand = 0
            if mand < 3 and t >= 0 and supply[p] > 0:  # = _build_mask
                cand = tmask[t] & ~(self.all_occ | self.blocked)
                if cand:
                    o = occ[p]
                    last, dil = seen[p]
                    if o != last:
                        dil = own_dilation(o, p)
                    mask = cand & dil
                    if not mask:
                        mask = cand
            if mask and mand:
                n = mask.bit_count()
                k = n.bit_length()
                r = bits_of(k)
                while r >= n:
                    r = bits_of(k)
                h = nth_bit(mask, r)
            else:
                k = p * nloc
                if READY in hold[k: k + nloc]:  # the tiles' moves too: sample_action's draw
                    a = self._draw_with_tiles(below, p, mask, mask.bit_count() if mask else 1)
                    if a >= HEX_BASE:  # a tile: apply_legal's player branch
                        self._apply(a, p)
                        hist.append((p, a))
                        continue
                elif mask:
                    n = mask.bit_count()
                    k = n.bit_length()
                    r = bits_of(k)
                    while r >= n:
                        r = bits_of(k)
                    a = BUILD_BASE + nth_bit(mask, r)
                else:
                    while bits_of(1):  # the one move, drawn as the plain loop draws it
                        pass
                    a = END
                if a == END:
                    self._end_turn()
                    hist.append((p, END))
                    continue
                h = a - BUILD_BASE
                self._first_build(p, t)  # mand == 0 here: the turn's first build
            # the build: place() and _apply()'s mand += 1 and rare-exception check, inline; then
            # the turn's next mandatory builds, drawn from the same terrain's empty hexes
            o = occ[p]  # dil == dilate(o) here (cand != 0)
            all_occ = self.all_occ
            while True:
                bit = 1 << h
                stl[p] |= bit
                o |= bit
                occ[p] = o
                all_occ |= bit
                self.all_occ = all_occ
                supply[p] -= 1
                mand += 1
                self.mand = mand
                dil |= NEIGHBORS[h]
                cand ^= bit  # h was an empty hex of the terrain
                if not supply[p]:
                    self.final_round = True
                if hex_locs[h]:
                    self.acquire(p, h)
                if not cand:  # the card's terrain is full: the plain rare-exception check
                    self._check_card()
                    hist.append((p, BUILD_BASE + h))
                    seen[p] = (o, dil)
                    break
                hist.append((p, BUILD_BASE + h))
                if mand >= 3 or not supply[p] or not left:
                    seen[p] = (o, dil)
                    break
                left -= 1
                mask = cand & dil
                if not mask:
                    mask = cand
                n = mask.bit_count()
                k = n.bit_length()
                r = bits_of(k)
                while r >= n:
                    r = bits_of(k)
                if r > 8:
                    h = nth_bit(mask, r)
                else:  # nth_bit's short case inline: drop the r lowest hexes
                    while r:
                        mask &= mask - 1
                        r -= 1
                    h = (mask & -mask).bit_length() - 1

    def _plain_step(self, rng: random.Random, p: int) -> None:
        """For :meth:`playout`: ``p``'s move as the plain loop plays it."""
        self.apply_legal(self.sample_action(rng, p), p)

    def _playout_terrain(self, p: int) -> int:
        """For :meth:`playout`, on ``p``'s turn: the one terrain ``p`` may build on now, or
        ``NO_CARD`` (none), or ``_PLAIN_STEP`` (take the plain step: e.g. two cards to choose
        from). Base game: ``p``'s card."""
        return self.hand[p]

    def _first_build(self, p: int, t: int) -> None:
        """For :meth:`playout`: ``p`` makes the turn's first build on terrain ``t`` (what
        :meth:`_apply` does for it beyond the build; nothing in the base game)."""

    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self._apply_chance(action - CARD_BASE)
            return
        p = player
        if action == END:
            self._end_turn()
            return
        if action < HEX_BASE:
            h = action - BUILD_BASE
            self.place(p, h)
            self.mand += 1
            board = self.board
            if board.tmask[board.terrain[h]] & ~(self.all_occ | self.blocked):
                return  # the card played has room left: _check_card() would do nothing
        else:
            kind = kind_of_action(action)
            assert kind is not None
            if kind.marks_use(action):
                self._mark_used(p, kind.id)
            kind.apply(self, p, action)
        self._check_card()

    def _mark_used(self, p: int, kind_id: str) -> None:
        base = p * self.nloc
        hold = self.hold
        for k in location_ids(self.board).get(kind_id, ()):
            if hold[base + k] == READY:
                hold[base + k] = USED
                return

    def _apply_chance(self, card: int) -> None:
        self.deck[card] -= 1
        kind, q = self.pending, self.pending_player
        if kind == P_REDRAW:
            self.hand[self.cur] = card
            self.pending = P_NONE
            self._check_card()
            return
        self._take_card(q, card)
        if kind == P_DEAL and q + 1 < self.num_players:
            self.pending_player = q + 1
            return
        self.pending = P_NONE
        self._start_turn(self.start if kind == P_DEAL else (q + 1) % self.num_players)

    def _take_card(self, q: int, card: int) -> None:
        """Player ``q``'s drawn card (already out of the deck) goes into ``hand[q]``."""
        self.hand[q] = card
        self.hand_epoch[q] = self.epoch
        self.last_draw[q] = len(self._history)  # = move_number(): this draw's history index

    def _start_turn(self, p: int) -> None:
        self.cur = p
        self.mand = 0
        if self.last_draw[p] >= 0 and self.hand[p] != NO_CARD:
            self.revealed.append(self.last_draw[p])
        self._check_card()

    def _ensure_deck(self) -> bool:
        """Reshuffle the discards into an empty deck; False if there is nothing to draw."""
        if sum(self.deck) == 0:
            if sum(self.discard) == 0:
                return False
            self.deck = self.discard
            self.discard = [0, 0, 0, 0, 0]
            self.epoch += 1
        return True

    def _check_card(self) -> None:
        """Rare exception (rulebook 'Exceção Rara'; digest §4.4): if no empty hex of the
        current card's terrain exists, the card leaves the game and a new one is drawn
        (public chance node). Off with ``rare_exception="no_redraw"``."""
        if not self.redraw or self.pending != P_NONE or self.over:
            return
        p = self.cur
        card = self.hand[p]
        if card == NO_CARD or self._card_has_room(p):
            return
        self.removed[card] += 1
        self.hand[p] = NO_CARD
        self._card_set_aside()
        if self._ensure_deck():
            self.pending = P_REDRAW
            self.pending_player = p

    def _card_set_aside(self) -> None:
        """Hook: the rare exception just set the current player's card aside."""

    def _end_turn(self) -> None:
        p = self.cur
        if self.hand[p] != NO_CARD:
            self.discard[self.hand[p]] += 1
            self.hand[p] = NO_CARD
        if not self.loss_immediate:
            self.check_loss(p)
        base = p * self.nloc
        hold = self.hold
        mine = hold[base: base + self.nloc]
        if USED in mine or NEW in mine:  # used and new tiles are ready again (one C-level pass)
            hold[base: base + self.nloc] = bytes(mine).translate(_READY_AGAIN)
        self.turn += 1
        nxt = (p + 1) % self.num_players
        if self.final_round and nxt == self.start:
            self.over = True
            return
        if sum(self.deck) or self._ensure_deck():  # (the sum: _ensure_deck's usual answer)
            self.pending = P_DRAW
            self.pending_player = p
        else:
            self._start_turn(nxt)

    def _clone(self) -> "KingdomBuilderState":
        cls = type(self)
        s = cls.__new__(cls)
        s.game = self.game
        s.num_players = self.num_players
        s.seed = self.seed
        s.board = self.board
        s.cards = self.cards
        s.opts = self.opts
        s.redraw = self.redraw
        s.loss_immediate = self.loss_immediate
        s.allow_null_move = self.allow_null_move
        s.occ = self.occ[:]
        s.stl = self.stl[:]
        s.all_occ = self.all_occ
        s.blocked = self.blocked
        s.supply = self.supply[:]
        s.hand = self.hand[:]
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.removed = self.removed[:]
        s.hold = self.hold[:]
        s.loc_left = self.loc_left[:]
        s.nloc = self.nloc
        s.cur = self.cur
        s.start = self.start
        s.pending = self.pending
        s.pending_player = self.pending_player
        s.mand = self.mand
        s.final_round = self.final_round
        s.over = self.over
        s.turn = self.turn
        s.epoch = self.epoch
        s.hand_epoch = self.hand_epoch[:]
        s.last_draw = self.last_draw[:]
        s.revealed = self.revealed[:]
        s.x = None if self.x is None else self.x.clone()
        return s

    # ------------------------------------------------------------------ scoring
    def scores(self) -> list[PlayerScore]:
        """Gold per player: the 3 Kingdom Builder cards + castles (digest §7)."""
        return score_all(self.board, self.cards, self.occ, self.opts)

    def score_totals(self) -> list[int]:
        """``[s.total for s in self.scores()]`` without the parts (scoring.score_totals)."""
        return score_totals(self.board, self.cards, self.occ, self.opts)

    def winners(self) -> list[int]:
        """The core's winners (the best totals, ties shared) from :meth:`score_totals` (the
        end of every search rollout)."""
        totals = self.score_totals()
        best = max(totals)
        return [p for p, t in enumerate(totals) if t == best]

    def successor(self, action: int, player: int) -> "KingdomBuilderState":
        """A copy with ``action`` applied for ``player`` without validation, for one-ply searches
        (strategy.py): the copy shares this state's history list and must not be played on."""
        s = self._clone()
        s._history = self._history
        s._apply(action, player)
        return s

    # ------------------------------------------------------------------ views
    def visible_hand(self, p: int, viewer: int | None) -> int | None:
        """Card of ``p`` as ``viewer`` sees it: the terrain id, or None if hidden. A player's
        card is public during that player's turn (it is played face up)."""
        h = self.hand[p]
        if h == NO_CARD:
            return NO_CARD
        if viewer == p or (p == self.cur and self.pending == P_NONE and not self.over):
            return h
        return None

    def observation(self, player: int) -> dict[str, Any]:
        """Public position plus ``player``'s own card (others' hidden cards and the deck order
        never appear; the deck shows its size only)."""
        n = self.num_players
        players = []
        for q in range(n):
            vh = self.visible_hand(q, player)
            players.append({
                "settlements": [hex_name(i) for i in bits(self.stl[q])],
                "supply": self.supply[q],
                "card": None if vh is None else (CARD_TERRAINS[vh] if vh >= 0 else "none"),
                "tiles": [
                    {"kind": kind, "location": hex_name(self.board.locations[k][0]),
                     "status": STATUS_NAMES[s]}
                    for k, kind, s in self.tiles_of(q)
                ],
                "lost_tiles": [
                    hex_name(self.board.locations[k][0]) for k in range(self.nloc)
                    if self.hold[q * self.nloc + k] == LOST
                ],
            })
        return {
            "game": "kingdom-builder",
            "sections": [list(s) for s in self.board.sections],
            "cards": list(self.cards),
            "current_player": self.current_player(),
            "start_player": self.start,
            "turn": self.turn,
            "mandatory_built": self.mand,
            "final_round": self.final_round,
            "players": players,
            "locations": [
                {"hex": hex_name(h), "kind": kind, "tiles_left": self.loc_left[k]}
                for k, (h, kind) in enumerate(self.board.locations)
            ],
            "deck_size": sum(self.deck),
            "discard": dict(zip(CARD_TERRAINS, self.discard)),
            "removed": dict(zip(CARD_TERRAINS, self.removed)),
            "scores": [s.to_dict() for s in self.scores()],
        }

    def information_state_key(self, player: int) -> str:
        """History with others' still-hidden draws masked (a draw becomes public when its
        owner's turn starts and the card is played face up)."""
        shown = set(self.revealed)
        parts = []
        for idx, (actor, action) in enumerate(self.history()):
            viewer = chance_viewer_of(actor)
            if viewer is not None and viewer != player and idx not in shown:
                parts.append(f"{actor}:?")
            else:
                parts.append(f"{actor}:{action}")
        return f"{self.game.name}|{self.seed}|{self.num_players}|p{player}|" + ",".join(parts)

    def resample_from_infostate(self, player: int, rng: random.Random) -> "KingdomBuilderState":
        """A state ``player`` cannot tell apart: the other players' hidden cards are redealt
        from the unseen cards of the same deck generation (cards drawn before a reshuffle are
        permuted among themselves; the current deck and current-generation hands are redrawn
        together). History entries of the redealt draws are relabelled accordingly."""
        s = self.clone()
        hidden = [
            q for q in range(self.num_players)
            if q != player and self.visible_hand(q, player) is None
        ]
        s._redeal([(s.hand, q, self.hand_epoch[q], s.last_draw) for q in hidden], rng)
        return s

    def _redeal(self, slots: list[tuple[list[int], int, int, list[int]]],
                rng: random.Random) -> None:
        """Redeal hidden cards jointly (in place, on a fresh clone). ``slots`` lists each hidden
        card as ``(cards, q, epoch, draws)``: the card is ``cards[q]``, drawn from deck
        generation ``epoch`` at history index ``draws[q]``. The cards of the current
        generation are redrawn together from the unseen pool (the deck plus those cards); the
        cards of an older generation (all drawn before a reshuffle, so the unseen ones are exactly
        these) are permuted among themselves. The history entries are relabelled, so the history
        replays to the redealt position: a card given to an earlier draw of its generation was
        still in the deck then, because the draws of a generation are a permutation of it."""
        by_epoch: dict[int, list[tuple[list[int], int, int, list[int]]]] = {}
        for slot in slots:
            by_epoch.setdefault(slot[2], []).append(slot)
        for ep, group in by_epoch.items():
            if ep == self.epoch:
                pool = list(self.deck)
                for cards, q, _, _ in group:
                    pool[cards[q]] += 1
                for cards, q, _, _ in group:
                    r = rng.randrange(sum(pool))
                    t = 0
                    for t, c in enumerate(pool):
                        if r < c:
                            break
                        r -= c
                    pool[t] -= 1
                    cards[q] = t
                self.deck = pool
            else:
                drawn = [cards[q] for cards, q, _, _ in group]
                rng.shuffle(drawn)
                for (cards, q, _, _), c in zip(group, drawn):
                    cards[q] = c
        history = self._history  # this state is a fresh clone: relabel its own history in place
        for cards, q, _, draws in slots:
            idx = draws[q]
            if 0 <= idx < len(history):
                actor, _ = history[idx]
                history[idx] = (actor, CARD_BASE + cards[q])

    # ------------------------------------------------------------------ notation
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """``card grass`` (chance), ``end``, ``build 7,12``, ``farm 7,12``,
        ``paddock 7,12>9,12`` (actions.action_to_string)."""
        return action_to_string(action, kind_of_action)

    def parse_action(self, text: str) -> int:
        """Action id of notation ``text`` whether legal or not (actions.parse_action). Raises
        IllegalActionError with a hint for text that does not parse."""
        try:
            return parse_action(text, TILE_KINDS, self.VERBS)
        except ValueError as exc:
            raise IllegalActionError(message_of(exc)) from None

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Parse notation into a legal action; the error explains why a parsed move is not
        legal now (wrong terrain, adjacency, tile not held or used, mid-mandatory ...)."""
        a = self.parse_action(text)
        p = self.current_player() if player is None else player
        if a in self.legal_actions(player):
            return a
        raise IllegalActionError(self.explain_illegal(a, p))

    def explain_illegal(self, action: int, player: int) -> str:
        """A one-line reason why ``action`` is not legal for ``player`` now."""
        try:
            text = self.action_to_string(action, player)
        except ValueError:
            return f"{action} is not a Kingdom Builder action"
        if self.over:
            return "the game is over"
        if self.pending != P_NONE:
            return "waiting for a terrain card to be drawn"
        if player != self.cur:
            return f"'{text}': it is P{self.cur + 1}'s turn"
        p = player
        if action == END:
            return (f"'end': finish the mandatory action first "
                    f"({self.mand} of 3 settlements built)")
        if BUILD_BASE <= action < BUILD_BASE + NUM_HEXES:
            h = action - BUILD_BASE
            return f"'{text}': " + self._why_not_build(p, h)
        kind = kind_of_action(action)
        if kind is None:
            return f"'{text}': only drawn as a chance outcome, not played by a player"
        if self.mandatory_in_progress():
            return (f"'{text}': tiles may not be used in the middle of the mandatory action "
                    f"({self.mand} of 3 built)")
        statuses = [s for k, kid, s in self.tiles_of(p) if kid == kind.id]
        name = self.game.texts.TILE_NAMES[kind.id]
        if not statuses:
            return f"'{text}': you hold no {name} tile"
        if READY not in statuses:
            if NEW in statuses:
                return f"'{text}': a {name} tile taken this turn is usable from your next turn"
            return f"'{text}': your {name} tile was already used this turn"
        return f"'{text}': not a legal {name} action here ({kind.doc})"

    def _why_not_build(self, p: int, h: int) -> str:
        card = self.hand[p]
        if self.mandatory_done():
            return "the mandatory action is complete; use a tile or 'end'"
        if self.all_occ >> h & 1:
            return f"hex {hex_name(h)} is occupied"
        terr = self.board.terrain[h]
        if terr != card:
            return (f"hex {hex_name(h)} is {TERRAINS[terr]}; your card is "
                    f"{CARD_TERRAINS[card]}")
        if self.blocked >> h & 1:
            return f"hex {hex_name(h)} is blocked"
        near = self.board.tmask[card] & self.empty() & dilate(self.occ[p])
        if near and not near >> h & 1:
            return (f"you must build next to your settlements when possible "
                    f"({near.bit_count()} {CARD_TERRAINS[card]} hexes qualify)")
        return "not legal now"

    def result_info(self) -> dict[str, Any]:
        """Extra sim columns: turns played and settlements left per player."""
        return {"turns": self.turn, "supply": list(self.supply)}

    def undo_blocked_after(self, history_index: int) -> bool:
        """Undo never crosses a card draw (all draws are chance entries already)."""
        return False

    # ------------------------------------------------------------------ JSON
    def _position_json(self) -> dict[str, Any]:
        """:data:`SAVED_FIELDS`, then ``sections``, ``cards`` and (with an expansion) ``x``."""
        d = dump_fields(self, SAVED_FIELDS)
        d["sections"] = [list(s) for s in self.board.sections]
        d["cards"] = list(self.cards)
        if self.x is not None:
            d["x"] = self.x.to_json()
        return d

    def _load_position(self, data: Mapping[str, Any]) -> None:
        self.board = make_board(tuple((str(s), int(r)) for s, r in data["sections"]),
                                getattr(self.game, "section_catalog", None))
        self.cards = tuple(str(c) for c in data["cards"])
        self.nloc = len(self.board.locations)
        load_fields(self, SAVED_FIELDS, data)
        if len(self.occ) != self.num_players or len(self.hold) != self.num_players * self.nloc:
            raise ValueError("player count does not match the saved position")
        if "x" in data and self.x is not None:
            self.x.load_json(data["x"])
