"""The 8 Crossroads location tiles as Kingdom Builder tile kinds (Crossroads rulebook, seed 004;
rules digest §9.2).

Action blocks (see :mod:`.actions`; base slots 0-4 and pair slots 0-2 are the base game's):

=================  ==========  ==============================================================
tile               hex slots   actions (notation)
=================  ==========  ==============================================================
Forester's Lodge   5           ``foresters_lodge R,C`` build on forest
Monastery          6           ``monastery R,C`` build on canyon
Fort               7, 8[0]     ``fort`` draw a terrain card (public chance), then the forced
                               ``fort R,C`` build on its terrain (slot 7)
City Hall          9           ``city_hall R,C`` place the city hall centred on R,C
Wagon              10-12[0]    ``wagon R,C`` place, ``wagon move R,C`` move, ``wagon remove``
Lighthouse (ship)  13-15[0]    ``lighthouse R,C`` / ``lighthouse move R,C`` /
                               ``lighthouse remove`` (alias ``ship``)
Barracks           16-17       ``barracks R,C`` place a warrior, ``barracks remove R,C``
                               (alias ``warrior``)
=================  ==========  ==============================================================

The Crossroads tile itself has no action (it gives a second terrain card; see
:mod:`.crossroads_state`). Targets come from the pure functions of :mod:`.crossroads`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import hex_slot_base
from .board import CANYON, FOREST, NUM_HEXES, hex_name, parse_hex
from .placement import PIECE_LIMIT
from .tiles import TILE_KINDS, TerrainBuildTile, TileKind, mask_actions, register_tile_kind

if TYPE_CHECKING:  # pragma: no cover
    from .crossroads_state import CrossroadsState

__all__ = [
    "FortTile",
    "CityHallTile",
    "PieceTile",
    "BarracksTile",
    "FOREST_SLOT",
    "FORT_BUILD_BASE",
    "FORT_DRAW",
    "CROSSROADS_KIND_IDS",
]

FOREST_SLOT = 5
FORT_BUILD_BASE = hex_slot_base(7)
"""``fort R,C`` (the forced build after the Fort draw) = FORT_BUILD_BASE + hex."""
FORT_DRAW = hex_slot_base(8)
"""``fort``: draw the Fort's terrain card."""


class FortTile(TileKind):
    """Fort (rulebook 'Fort'; Crossroads FAQ: atomic): draw a terrain card (a public chance
    node), then build 1 settlement on an empty hex of its terrain, adjacent if possible; nothing
    else may happen in between; the card is discarded. If no hex of that terrain can be built on,
    nothing is built (option ``fort_without_target="redraw"``: draw again)."""

    def __init__(self) -> None:
        self.id = "fort"
        self.doc = (
            "Draw a terrain card and build 1 settlement on its terrain, adjacent if possible "
            "(Crossroads rulebook 'Fort'; digest §9.2: draw and build are one action)."
        )
        self.base = FORT_BUILD_BASE
        self.size = NUM_HEXES + 1

    def legal(self, st: "CrossroadsState", p: int) -> list[int]:
        return [FORT_DRAW] if self.count(st, p)[0] else []

    def count(self, st: "CrossroadsState", p: int) -> tuple[int, Any]:
        """``(1, None)`` while ``p`` has a settlement and a card can be drawn, else ``(0,
        None)`` (random play without the list)."""
        if st.supply[p] <= 0 or not (sum(st.deck) or sum(st.discard)):
            return 0, None
        return 1, None

    def nth(self, data: Any, r: int) -> int:
        return FORT_DRAW

    def marks_use(self, action: int) -> bool:
        return action == FORT_DRAW

    def apply(self, st: "CrossroadsState", p: int, action: int) -> None:
        if action == FORT_DRAW:
            st.start_fort(p)
        else:
            st.fort_build(p, action - FORT_BUILD_BASE)

    def to_string(self, action: int) -> str:
        if action == FORT_DRAW:
            return "fort"
        return f"fort {hex_name(action - FORT_BUILD_BASE)}"

    def path(self, action: int) -> tuple[str, ...]:
        if action == FORT_DRAW:
            return ("tile:fort",)
        return (f"hex:{hex_name(action - FORT_BUILD_BASE)}",)

    def parse(self, args: str) -> int:
        if not args.strip():
            return FORT_DRAW
        return FORT_BUILD_BASE + parse_hex(args)


class CityHallTile(TileKind):
    """City Hall (rulebook 'City Hall Tile'): once per game place your city hall on 7 empty
    buildable hexes (a centre and its 6 neighbours), touching one of your settlements; it stays
    for good and counts as 7 settlements. Notation ``city_hall R,C`` names the centre."""

    def __init__(self) -> None:
        self.id = "city_hall"
        self.doc = (
            "Place your city hall (7 hexes: a centre and its 6 neighbours) on empty buildable "
            "hexes next to your settlements; it stays and counts as 7 settlements "
            "(Crossroads rulebook 'City Hall Tile'; digest §9.2)."
        )
        self.base = hex_slot_base(9)
        self.size = NUM_HEXES

    def legal(self, st: "CrossroadsState", p: int) -> list[int]:
        return mask_actions(st.city_hall_targets(p), self.base)

    def apply(self, st: "CrossroadsState", p: int, action: int) -> None:
        st.place_city_hall(p, action - self.base)

    def to_string(self, action: int) -> str:
        return f"city_hall {hex_name(action - self.base)}"

    def path(self, action: int) -> tuple[str, ...]:
        return ("tile:city_hall", f"hex:{hex_name(action - self.base)}")

    def parse(self, args: str) -> int:
        return self.base + parse_hex(args)


class PieceTile(TileKind):
    """Wagon / Lighthouse: place the piece (if it is in your supply), or move it up to 3 spaces,
    or take it back (rulebook 'Wagon', 'Ship'). Block: place (400) | move (400) | remove (1)."""

    def __init__(self, id: str, slot: int, piece: str, doc: str) -> None:
        self.id, self.doc = id, doc
        self.piece = piece
        self.base = hex_slot_base(slot)
        self.size = 2 * NUM_HEXES + 1

    def legal(self, st: "CrossroadsState", p: int) -> list[int]:
        pos = st.piece_mask(self.piece, p)
        if not pos:
            return mask_actions(st.piece_place_targets(self.piece, p), self.base)
        out = mask_actions(st.piece_move_targets(self.piece, p), self.base + NUM_HEXES)
        out.append(self.base + 2 * NUM_HEXES)
        return out

    def apply(self, st: "CrossroadsState", p: int, action: int) -> None:
        off = action - self.base
        if off < NUM_HEXES:
            st.put_piece(p, self.piece, off)
        elif off < 2 * NUM_HEXES:
            st.move_piece(p, self.piece, off - NUM_HEXES)
        else:
            st.remove_piece(p, self.piece, st.piece_mask(self.piece, p).bit_length() - 1)

    def to_string(self, action: int) -> str:
        off = action - self.base
        if off < NUM_HEXES:
            return f"{self.id} {hex_name(off)}"
        if off < 2 * NUM_HEXES:
            return f"{self.id} move {hex_name(off - NUM_HEXES)}"
        return f"{self.id} remove"

    def path(self, action: int) -> tuple[str, ...]:
        off = action - self.base
        if off < NUM_HEXES:
            return (f"tile:{self.id}", f"hex:{hex_name(off)}")
        if off < 2 * NUM_HEXES:
            return (f"tile:{self.id}", "move", f"hex:{hex_name(off - NUM_HEXES)}")
        return (f"tile:{self.id}", "remove")

    def parse(self, args: str) -> int:
        words = args.strip().split(None, 1)
        if words and words[0] == "remove":
            return self.base + 2 * NUM_HEXES
        if words and words[0] == "move":
            if len(words) < 2:
                raise ValueError(f"write {self.id} move R,C")
            return self.base + NUM_HEXES + parse_hex(words[1])
        return self.base + parse_hex(args)


class BarracksTile(TileKind):
    """Barracks (rulebook 'Warrior'): place one of your 2 warriors on an empty buildable hex
    (adjacent if possible) or take one of yours back. Block: place (400) | remove (400)."""

    def __init__(self) -> None:
        self.id = "barracks"
        self.doc = (
            "Place one of your 2 warriors on an empty buildable hex, adjacent if possible, or "
            "take one back; nobody may build on or move onto a hex next to a warrior "
            "(Crossroads rulebook 'Warrior'; digest §9.2-9.3)."
        )
        self.base = hex_slot_base(16)
        self.size = 2 * NUM_HEXES

    def legal(self, st: "CrossroadsState", p: int) -> list[int]:
        out: list[int] = []
        if st.warriors[p].bit_count() < PIECE_LIMIT["warrior"]:
            out = mask_actions(st.piece_place_targets("warrior", p), self.base)
        out.extend(mask_actions(st.warriors[p], self.base + NUM_HEXES))
        return out

    def apply(self, st: "CrossroadsState", p: int, action: int) -> None:
        off = action - self.base
        if off < NUM_HEXES:
            st.put_piece(p, "warrior", off)
        else:
            st.remove_piece(p, "warrior", off - NUM_HEXES)

    def to_string(self, action: int) -> str:
        off = action - self.base
        if off < NUM_HEXES:
            return f"barracks {hex_name(off)}"
        return f"barracks remove {hex_name(off - NUM_HEXES)}"

    def path(self, action: int) -> tuple[str, ...]:
        off = action - self.base
        if off < NUM_HEXES:
            return ("tile:barracks", f"hex:{hex_name(off)}")
        return ("tile:barracks", "remove", f"hex:{hex_name(off - NUM_HEXES)}")

    def parse(self, args: str) -> int:
        words = args.strip().split(None, 1)
        if words and words[0] == "remove":
            if len(words) < 2:
                raise ValueError("write barracks remove R,C (the warrior to take back)")
            return self.base + NUM_HEXES + parse_hex(words[1])
        return self.base + parse_hex(args)


CROSSROADS_KIND_IDS: tuple[str, ...] = (
    "foresters_lodge", "monastery", "fort", "city_hall", "wagon", "lighthouse", "barracks",
)
"""Crossroads tile kinds with an action (the Crossroads tile itself is passive)."""


def _register() -> None:
    if "foresters_lodge" in TILE_KINDS:
        return
    register_tile_kind(TerrainBuildTile(
        "foresters_lodge", FOREST_SLOT, FOREST,
        "Build 1 settlement on forest, adjacent if possible (Crossroads rulebook "
        "'Forester's Lodge'; digest §9.2).",
    ))
    register_tile_kind(TerrainBuildTile(
        "monastery", 6, CANYON,
        "Build 1 settlement on canyon, adjacent if possible (Crossroads rulebook 'Monastery'; "
        "digest §9.2).",
    ))
    register_tile_kind(FortTile())
    register_tile_kind(CityHallTile())
    register_tile_kind(PieceTile(
        "wagon", 10, "wagon",
        "Place your wagon on an empty buildable or mountain hex (adjacent if possible), move it "
        "up to 3 spaces across such empty hexes, or take it back (Crossroads rulebook 'Wagon').",
    ))
    register_tile_kind(PieceTile(
        "lighthouse", 13, "ship",
        "Place your ship on an empty water hex (adjacent if possible), move it up to 3 spaces "
        "across empty water, or take it back (Crossroads rulebook 'Ship').",
    ))
    register_tile_kind(BarracksTile())


_register()
