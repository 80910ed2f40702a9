"""End-of-game scoring: the 10 Kingdom Builder cards and castles (rules digest §7).

Every unit takes the board and the players' "own" bitsets (every hex holding a piece that counts
as a settlement of that player) and returns gold for one player. ``score_all`` combines the 3
cards of a game with castles.
"""

from __future__ import annotations

from typing import Callable, Sequence

from citybuilders.core.game import PlayerScore

from .rules.board import MOUNTAIN, ROW_MASKS, WATER, Board, dilate

__all__ = [
    "CARDS",
    "CARD_FUNCS",
    "areas",
    "fishermen",
    "miners",
    "workers",
    "merchants",
    "discoverers",
    "hermits",
    "citizens",
    "knights",
    "lords",
    "farmers",
    "castles",
    "lords_all",
    "score_all",
    "score_player",
    "score_totals",
]

def areas(own: int) -> list[int]:
    """Settlement areas: the connected groups of ``own`` as bitsets (flood fill by dilation)."""
    out = []
    while own:
        comp = own & -own
        while True:
            grown = (comp | dilate(comp)) & own
            if grown == comp:
                break
            comp = grown
        out.append(comp)
        own &= ~comp
    return out


_NEAR: dict[Board, tuple[int, int, int]] = {}
""":func:`_near_masks` by board object (at most 4,096 entries, then emptied)."""


def _near_masks(board: Board) -> tuple[int, int, int]:
    """``(shore, foothills, near_special)``: the hexes Fishermen, Miners and Workers score for
    on ``board`` (next to water but not water, next to a mountain but not a mountain, next to a
    castle or location hex). Memoised per board (a board is immutable)."""
    got = _NEAR.get(board)
    if got is None:
        water, mountain = board.tmask[WATER], board.tmask[MOUNTAIN]
        got = (~water & dilate(water), ~mountain & dilate(mountain), dilate(board.special))
        if len(_NEAR) >= 4096:
            _NEAR.clear()
        _NEAR[board] = got
    return got


def fishermen(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per settlement next to water; a settlement on water scores 0 (digest §7)."""
    return (own[p] & _near_masks(board)[0]).bit_count()


def miners(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per settlement next to a mountain (one on a mountain scores 0; digest §7)."""
    return (own[p] & _near_masks(board)[1]).bit_count()


def workers(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per settlement next to a castle or location hex (digest §7)."""
    return (own[p] & _near_masks(board)[2]).bit_count()


def merchants(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """4 gold per castle/location hex linked by one of your settlement areas to another
    castle/location hex; each special hex scores at most once (digest §7)."""
    linked = 0
    special = board.special
    for comp in areas(own[p]):
        touched = dilate(comp) & special
        if touched & (touched - 1):  # at least 2 special hexes
            linked |= touched
    return 4 * linked.bit_count()


def discoverers(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per horizontal line (board row) holding at least one settlement (digest §7)."""
    o = own[p]
    return sum(1 for m in ROW_MASKS if o & m)


def hermits(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per separate settlement area (a lone settlement is an area; digest §7)."""
    return len(areas(own[p]))


def citizens(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """1 gold per 2 settlements of your largest settlement area, rounded down (digest §7)."""
    comps = areas(own[p])
    return max((c.bit_count() for c in comps), default=0) // 2


def knights(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """2 gold per settlement on the horizontal line where you have the most (digest §7)."""
    o = own[p]
    return 2 * max((o & m).bit_count() for m in ROW_MASKS)


def lords(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """Per sector: 12 gold to the player(s) with the most settlements, 6 to the player(s) with the
    next-highest count (digest §7: "12, 12, 6, 0").

    ``opts["lords_zero_scores"]`` (rules option, digest §7/§10.3): ``"ranked"`` (default) counts
    only sectors where someone has a settlement and ranks zero counts like any other;
    ``"never"``: a player with no settlement in a sector gets nothing there; ``"always"``: even
    sectors nobody entered score (everybody tied at 0 gets 12).
    """
    mode = (opts or {}).get("lords_zero_scores", "ranked")
    gold = 0
    for sector in board.sector_masks:
        counts = [(o & sector).bit_count() for o in own]
        mine = counts[p]
        if mode == "never" and mine == 0:
            continue
        pool = [c for c in counts if c > 0] if mode == "never" else counts
        distinct = sorted(set(pool), reverse=True)
        if not distinct or (distinct[0] == 0 and mode != "always"):
            continue
        if mine == distinct[0]:
            gold += 12
        elif len(distinct) > 1 and mine == distinct[1]:
            gold += 6
    return gold


def lords_all(board: Board, own: Sequence[int], opts: dict | None = None) -> list[int]:
    """``[lords(board, own, p, opts) for p in range(len(own))]`` with each sector's counts
    ranked once for every player (the end of every search rollout)."""
    mode = (opts or {}).get("lords_zero_scores", "ranked")
    if len(own) == 2:  # two players written out: a tie is 12 each, else 12 and 6
        a, b = own
        ga = gb = 0
        second_if_zero = mode != "never"
        for sector in board.sector_masks:
            ca, cb = (a & sector).bit_count(), (b & sector).bit_count()
            if ca == cb:
                if ca or mode == "always":
                    ga += 12
                    gb += 12
            elif ca > cb:
                ga += 12
                if cb or second_if_zero:
                    gb += 6
            else:
                gb += 12
                if ca or second_if_zero:
                    ga += 6
        return [ga, gb]
    gold = [0] * len(own)
    for sector in board.sector_masks:
        counts = [(o & sector).bit_count() for o in own]
        best = max(counts)
        if not best and mode != "always":  # nobody in the sector ("always": everybody 12)
            continue
        second = -1  # the next-highest count: a zero ranks like any other except with "never"
        for c in counts:
            if second < c < best:
                second = c
        if not second and mode == "never":
            second = -1
        q = 0
        for c in counts:
            if c == best:
                gold[q] += 12
            elif c == second:
                gold[q] += 6
            q += 1
    return gold


def farmers(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """3 gold per settlement in the sector where you have the fewest (0 if you are absent from
    a sector; digest §7)."""
    o = own[p]
    return 3 * min((o & s).bit_count() for s in board.sector_masks)


def castles(board: Board, own: Sequence[int], p: int, opts: dict | None = None) -> int:
    """3 gold per castle hex next to at least one of your settlements (rulebook "Pontuação dos
    Castelos": once per castle however many settlements touch it)."""
    o = own[p]
    n = 0
    for m in board.castle_nbr:
        if m & o:
            n += 3
    return n


CARD_FUNCS: dict[str, Callable[..., int]] = {
    "fishermen": fishermen,
    "miners": miners,
    "workers": workers,
    "merchants": merchants,
    "discoverers": discoverers,
    "hermits": hermits,
    "citizens": citizens,
    "knights": knights,
    "lords": lords,
    "farmers": farmers,
}
"""The one table of the 10 Kingdom Builder cards: card id -> scoring unit (rulebook order).
Their names and texts are ``texts.CARD_NAMES`` / ``texts.CARD_RULES`` (same keys, tested)."""
CARDS: tuple[str, ...] = tuple(CARD_FUNCS)
"""The 10 Kingdom Builder card ids."""


def score_all(
    board: Board, cards: Sequence[str], own: Sequence[int], opts: dict | None = None
) -> list[PlayerScore]:
    """Score every player: parts ``{card: gold, ..., "castles": gold}`` and the total."""
    out = []
    for p in range(len(own)):
        parts = {c: CARD_FUNCS[c](board, own, p, opts) for c in cards}
        parts["castles"] = castles(board, own, p, opts)
        out.append(PlayerScore(sum(parts.values()), parts))
    return out


def score_player(
    board: Board, cards: Sequence[str], own: Sequence[int], p: int, opts: dict | None = None
) -> int:
    """Total gold of player ``p`` only (fast path for the greedy bot)."""
    return sum(CARD_FUNCS[c](board, own, p, opts) for c in cards) + castles(board, own, p)


def score_totals(
    board: Board, cards: Sequence[str], own: Sequence[int], opts: dict | None = None
) -> list[int]:
    """``[score_player(board, cards, own, p, opts) for p in range(len(own))]`` (the totals of
    :func:`score_all`) with Lords scored for every player at once (:func:`lords_all`)."""
    n = len(own)
    totals = [castles(board, own, p) for p in range(n)]
    for c in cards:
        if c == "lords":
            for p, g in enumerate(lords_all(board, own, opts)):
                totals[p] += g
        else:
            f = CARD_FUNCS[c]
            for p in range(n):
                totals[p] += f(board, own, p, opts)
    return totals
