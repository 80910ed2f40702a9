"""Roll into Town random playouts: the rollout of a tree search as one fused loop.

:func:`playout` is :meth:`State.playout` (random moves to the end, or for a number of player
actions) for a Roll into Town state. Its contract is the core's: the state afterwards (history
included) and the draws taken from ``rng`` are exactly those of the plain loop (chance by
``sample_chance``, a player's move ``legal[rng.randrange(len(legal))]`` applied with
``apply_legal``; tests/bots/test_playout.py). The loop differs only in how it finds and applies
the chosen move:

* a die is drawn inline (the same comparisons with the same running sums as
  :meth:`RollIntoTownState.sample_chance`);
* in the discover and build phases (about 90 % of a game's player moves) :func:`discover_step`
  and :func:`build_step` count the legal actions by parts (bit counts of cell masks) without
  listing them, pick the chosen one in its part with :func:`.geometry.nth_bit`, and apply it
  from what the pick found (die, variant, cell, building kind) instead of decoding the id again;
* :func:`collect_step` and :func:`maintain_step` draw from the lumberjacks' cuts and the
  forests' room as the legal list orders them, each forest's room found once for the count
  and the growth.

The phase entries the moves lead to are the state's own (``RollIntoTownState._enter``).

Each step is the plain draw-and-apply of one move (``tests/roll_into_town/test_playout_steps.py``
compares them with it for every index of the legal list on positions of random games). The
counting keeps the order of :meth:`RollIntoTownState.legal_actions`: draws die by die (a die
with the same value and town-hall state as an earlier one is skipped), then town-hall
adjustments, the fountain and done; builds kind by kind and anchor by anchor, then trades, then
done.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import TYPE_CHECKING

from ....core.game import CHANCE, State
from ..actions import (BUILD, COLLECT, DISCOVER, END, FACE_SIMPLE, MAINTAIN, N_SHAPES, ROLL,
                       RIVER_VAR, V_COAST, V_RIVER, VAR_TERRAIN)
from ..loader import (BUILD_KINDS, CAP, COAST, COAST_MASKS, DICE_PER_ROUND, FACE_ANY,
                      FACE_COAST, FACE_MOUNTAIN, FACE_RIVER, FREE_KINDS, KIND_COST,
                      RIVER_SHAPES, UNIQUE_BIT)
from .geometry import nth_bit

if TYPE_CHECKING:  # pragma: no cover
    from .state import RollIntoTownState

__all__ = ["playout", "discover_step", "build_step", "collect_step", "maintain_step"]

_FOUNTAIN = UNIQUE_BIT["fountain"]
_MARKET = UNIQUE_BIT["market"]
_CELL_PARTS = tuple(len(FACE_SIMPLE[v]) + (v >= FACE_COAST) for v in range(FACE_ANY + 1))
"""Die face -> how many of its draw parts are "any empty cell" (farm, mountain, tree, coast)."""
_ADJUSTS = tuple((FACE_MOUNTAIN <= v <= FACE_ANY) + (v <= FACE_RIVER)
                 for v in range(FACE_ANY + 1))
"""Die face -> town-hall adjustments offered for it (-1 from mountain up, +1 up to river)."""
_ENTRY_SHAPES = tuple(tuple(m for m in RIVER_SHAPES if m >> side & 1) for side in range(4))
"""Side -> the river pieces with a flow side there, in ``RIVER_SHAPES`` order."""
_FREE_KIND = tuple(k in FREE_KINDS for k in range(len(BUILD_KINDS)))
"""Build kind -> whether it goes on any empty cell (its anchor mask is ``free``)."""


def playout(s: RollIntoTownState, rng: random.Random, max_actions: int | None = None) -> None:
    """:meth:`State.playout` for ``s`` (see the module docstring): random moves in place, to
    the end or until ``max_actions`` player actions; the same state, history and draws."""
    left = -1 if max_actions is None else max_actions
    g = s.game
    hist = s._history
    thresholds = g.die_thresholds
    accs = [acc for _, acc in thresholds]
    last = len(accs) - 1
    faces = [a - g.A_DIE + 1 for a, _ in thresholds]
    actions = [a for a, _ in thresholds]
    done = s.done
    random_ = rng.random
    while True:
        ph = s.phase
        if ph == ROLL:  # the round's dice (chance does not count towards max_actions)
            rolled = s.rolled
            need = DICE_PER_ROUND[s.round]
            while True:
                # RollIntoTownState.sample_chance: the first running sum above r (bisect_right
                # is the first index with r < acc), the last face if none
                i = bisect_right(accs, random_())
                if i > last:
                    i = last
                rolled.append(faces[i])
                if len(rolled) == need:
                    s._enter(DISCOVER)  # before the history entry: it reads move_number()
                    hist.append((CHANCE, actions[i]))
                    break
                hist.append((CHANCE, actions[i]))
            continue
        if ph == END:
            return
        if left == 0:
            return
        left -= 1
        p = done.index(False)
        if ph == DISCOVER:
            discover_step(s, p, rng)
        elif ph == BUILD:
            build_step(s, p, rng)
        elif ph == COLLECT:
            collect_step(s, p, rng)
        else:
            maintain_step(s, p, rng)


def discover_step(s: RollIntoTownState, p: int, rng: random.Random) -> None:
    """Player ``p``'s random discover move, drawn and applied: exactly ``legal =
    s.legal_actions(p); s.apply_legal(legal[rng.randrange(len(legal))], p)`` (the same action,
    effect, history entry and draws), the draws counted by parts instead of listed.

    Raises IllegalActionError (from the core's draw) if ``p`` has no legal action."""
    g = s.game
    sheet = s.sheets[p]
    hist = s._history
    pending = s.pending_coast[p]
    if pending >= 0:  # the water sides of the coast just drawn
        sides = g.coast_sides
        a = sides[rng._randbelow(len(sides))]
        s.pending_coast[p] = -1
        sheet.draw_coast(pending, COAST_MASKS[a - g.A_SIDES], g.options["ocean_sides_rule"])
        hist.append((p, a))
        return
    free = sheet.free
    to_draw = s.to_draw[p]
    dice = s.dice[p]
    used = s.used[p]
    adj = s.adjusted[p]
    nd = len(dice)
    # ---- count: draws by parts (RollIntoTownState.draw_options), then the extras
    ndraw = nf = 0
    ds: list[int] = []  # the dice offered (the first of each value and town-hall state)
    river_counts: list[int] | None = None
    river: tuple[int, ...] | None = None  # the shapes that may continue the river
    nxt = -1
    nriver = 0
    fountain = (sheet.unique_built & _FOUNTAIN and sheet.fountain_uses > 0
                and nd - used.bit_count() > to_draw)
    hall = sheet.hall_uses > 0 and (to_draw > 0 or fountain)
    nadj = 0
    if to_draw > 0 and free:
        nf = free.bit_count()
        seen = 0
        for d in range(nd):
            if used >> d & 1:
                continue
            v = dice[d]
            if hall and not adj >> d & 1:  # the town-hall adjustments of this die
                nadj += _ADJUSTS[v]
            key = 1 << (v * 2 + (adj >> d & 1))
            if seen & key:
                continue
            seen |= key
            ds.append(d)
            ndraw += _CELL_PARTS[v] * nf
            if v == FACE_RIVER or v == FACE_ANY:
                if river_counts is None and river is None:
                    if sheet.river_src < 0:  # first piece: border cells, one part per shape
                        starts = sheet.geo.river_start_mask
                        river_counts = [(free & starts[k]).bit_count() for k in range(N_SHAPES)]
                        nriver = sum(river_counts)
                    else:  # Sheet.river_options: the square in front, if empty
                        nxt = sheet.geo.side_nb[sheet.river[-1]][sheet.river_exit]
                        if nxt >= 0 and free >> nxt & 1:
                            river = _ENTRY_SHAPES[(sheet.river_exit + 2) & 3]
                            nriver = len(river)
                        else:
                            river = ()
                ndraw += nriver
    elif hall:
        off = used | adj
        for d in range(nd):
            if not off >> d & 1:
                nadj += _ADJUSTS[dice[d]]
    can_end = to_draw <= 0 or not ndraw
    total = ndraw + nadj + (1 if fountain else 0) + can_end
    if not total:
        State.sample_action(s, rng, p)  # raises the core's error
    r = rng._randbelow(total)
    # ---- a draw: find its die and part, apply it as RollIntoTownState._apply does
    if r < ndraw:
        bases_of = g.draw_base
        for d in ds:
            v = dice[d]
            bases = bases_of[d]
            for b in FACE_SIMPLE[v]:
                if r < nf:
                    cell = nth_bit(free, r)
                    s.used[p] = used | 1 << d
                    s.to_draw[p] = to_draw - 1
                    sheet.draw_simple(cell, VAR_TERRAIN[b])
                    hist.append((p, bases[b] + cell))
                    return
                r -= nf
            if v == FACE_RIVER or v == FACE_ANY:
                if r < nriver:
                    if river_counts is not None:
                        k = 0
                        while r >= river_counts[k]:
                            r -= river_counts[k]
                            k += 1
                        cell = nth_bit(free & sheet.geo.river_start_mask[k], r)
                        shape = RIVER_SHAPES[k]
                        a = bases[V_RIVER + k] + cell
                    else:
                        cell = nxt
                        shape = river[r]  # type: ignore[index]
                        a = bases[RIVER_VAR[shape]] + cell
                    s.used[p] = used | 1 << d
                    s.to_draw[p] = to_draw - 1
                    sheet.draw_river(cell, shape)
                    hist.append((p, a))
                    return
                r -= nriver
            if v >= FACE_COAST:
                if r < nf:
                    cell = nth_bit(free, r)
                    s.used[p] = used | 1 << d
                    s.to_draw[p] = to_draw - 1
                    sheet.draw_simple(cell, COAST)  # water sides come with the next action
                    s.pending_coast[p] = cell
                    hist.append((p, bases[V_COAST] + cell))
                    return
                r -= nf
        raise AssertionError("discover draw out of range")  # pragma: no cover
    r -= ndraw
    if r < nadj:  # a town-hall adjustment: die by die, -1 before +1
        off = used | adj
        for d in range(nd):
            if off >> d & 1:
                continue
            v = dice[d]
            if FACE_MOUNTAIN <= v <= FACE_ANY:
                if not r:
                    dice[d] = v - 1
                    a = g.A_ADJ + 2 * d
                    break
                r -= 1
            if v <= FACE_RIVER:
                if not r:
                    dice[d] = v + 1
                    a = g.A_ADJ + 2 * d + 1
                    break
                r -= 1
        s.adjusted[p] = adj | 1 << d
        sheet.hall_uses -= 1
    elif fountain and r == nadj:
        sheet.fountain_uses -= 1
        s.to_draw[p] = to_draw + 1
        a = g.A_FOUNTAIN
    else:
        a = g.A_DONE
        done = s.done
        done[p] = True
        if all(done):
            s._enter(DISCOVER + 1)
    hist.append((p, a))


def build_step(s: RollIntoTownState, p: int, rng: random.Random) -> None:
    """Player ``p``'s random build move, drawn and applied: exactly ``legal =
    s.legal_actions(p); s.apply_legal(legal[rng.randrange(len(legal))], p)``, the builds
    counted kind by kind (bit counts of each kind's anchor mask) instead of listed.

    Raises IllegalActionError (from the core's draw) if ``p`` has no legal action."""
    g = s.game
    sheet = s.sheets[p]
    res = sheet.res
    ub = sheet.unique_built
    free = sheet.free
    nf = free.bit_count()
    masks: list[int] = []
    counts: list[int] = []
    kinds = sheet.buildable_kinds()
    nb = 0
    for kind in kinds:
        if _FREE_KIND[kind]:
            masks.append(free)
            counts.append(nf)
            nb += nf
        else:
            m = sheet.anchor_mask(kind)
            c = m.bit_count()
            masks.append(m)
            counts.append(c)
            nb += c
    trades = s._trade_options(p) if ub & _MARKET else ()
    nt = len(trades)
    pending = s.trade_pending
    can_end = not pending[p] or not (nb or nt)
    total = nb + nt + can_end
    if not total:  # pragma: no cover - done is always there when nothing else is
        State.sample_action(s, rng, p)
    r = rng._randbelow(total)
    if r < nb:
        i = 0
        while r >= counts[i]:
            r -= counts[i]
            i += 1
        kind = kinds[i]
        anchor = nth_bit(masks[i], r)
        cf, cs, cw = KIND_COST[kind]
        res[0] -= cf
        res[1] -= cs
        res[2] -= cw
        sheet.place(kind, anchor)
        pending[p] = False
        a = g.build_base[kind] + anchor
    elif r - nb < nt:
        a = trades[r - nb]
        give, take = divmod(a - g.A_TRADE, 3)
        res[give] -= 2
        v = res[take] + 1
        res[take] = CAP if v > CAP else v
        if g.options["market_timing"] == "only_while_paying":
            pending[p] = True
    else:
        a = g.A_DONE
        done = s.done
        done[p] = True
        if all(done):
            s._enter(BUILD + 1)
    s._history.append((p, a))


def collect_step(s: RollIntoTownState, p: int, rng: random.Random) -> None:
    """Player ``p``'s random collect move (a lumberjack's cut or done), drawn and applied:
    exactly ``legal = s.legal_actions(p); s.apply_legal(legal[rng.randrange(len(legal))], p)``."""
    g = s.game
    sheet = s.sheets[p]
    cuts = sheet.lumberjacks_with_trees()
    r = rng._randbelow(len(cuts) + 1)
    if r < len(cuts):
        cell = cuts[r]
        opts = g.options
        sheet.cut(cell, opts["ocean_check_timing"], opts["ocean_sides_rule"])
        a = g.A_CUT + cell
    else:
        a = g.A_DONE
        done = s.done
        done[p] = True
        if all(done):
            s._enter(COLLECT + 1)
    s._history.append((p, a))


def maintain_step(s: RollIntoTownState, p: int, rng: random.Random) -> None:
    """Player ``p``'s random maintenance move (a new tree or done), drawn and applied: exactly
    ``legal = s.legal_actions(p); s.apply_legal(legal[rng.randrange(len(legal))], p)``, each
    growing forest's room found once for the count and the growth it uses."""
    g = s.game
    sheet = s.sheets[p]
    free = sheet.free
    spread4 = sheet.geo.spread4
    group_of = sheet.group_of
    rooms: list[tuple[list[int], int]] = []
    room = 0
    for entry in s.growth[p]:
        if entry[1] > 0:
            grow = spread4(group_of(entry[0])) & free
            rooms.append((entry, grow))
            room |= grow
    if room:
        cell = nth_bit(room, rng._randbelow(room.bit_count()))
        for entry, grow in rooms:  # the first forest that may grow there (as _apply finds it)
            if grow >> cell & 1:
                entry[1] -= 1
                break
        sheet.grow(cell)
        a = g.A_GROW + cell
    else:
        rng._randbelow(1)  # the one legal action: done
        a = g.A_DONE
        done = s.done
        done[p] = True
        if all(done):
            s._enter(MAINTAIN + 1)
    s._history.append((p, a))
