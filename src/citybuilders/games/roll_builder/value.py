"""Roll Builder: a fitted value of a sheet at a turn boundary, for the ``hard``/``expert`` bots.

:func:`value_features` describes a player's sheet by a few counts that matter for the rest of the
game (points still to connect, icons and build sites within reach, innovation progress, wonder
boxes filled and unlocked, track positions, stored wealth, ...). :func:`fitted_value` is the score
now plus a linear estimate of the points still to come::

    value = score + sum_j r**j * sum_k w[j][k] * f[k]      (j = 0, 1, 2)

with ``r`` the turns still to play (0 once the game is over: the value is then the score). The
weights ``w`` were fitted by least squares to the points the greedy player went on to make
from each turn boundary of its games (``benchmarks/fit_roll_builder_value.py``, seeds 30000+ that
``benchmarks/bench_bots.py`` does not use); they are per shipped sheet (:data:`WEIGHTS`, keyed by
sheet id and checked against the sheet's shape). A sheet without weights (an uploaded one) has no
fitted value (:func:`fitted_value` returns None) and the bots fall back to ``strategy.evaluate``.

It is a heuristic of the bots, not a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules.moves import TURNS
from .value_weights import WEIGHTS

if TYPE_CHECKING:  # pragma: no cover
    from .rules.state import RollBuilderState

__all__ = ["value_features", "feature_names", "fitted_value", "turns_left", "WEIGHTS"]


def turns_left(state: "RollBuilderState", player: int = 0) -> int:
    """Turns still to play at a turn boundary: 0 once the game is over, else the turns from the
    current one to the last (1-15), less the current one once ``player`` has ended it."""
    if state.over:
        return 0
    return TURNS - state.turn + (0 if state.players[player].done else 1)


def _tables(g):  # noqa: ANN001, ANN202 - per-game feature tables, cached on the game
    t = getattr(g, "_value_tables", None)
    if t is None:
        sh = g.sheet
        n = sh.n_spaces
        vp = [s for s in range(n) if sh.space_points[s]]
        res = [sh.space_res[s] for s in range(n)]
        bonus = [len(sh.space_bonus[s]) for s in range(n)]
        ib = [sh.space_ib[s] for s in range(n)]
        locked = [i for i, b in enumerate(sh.boxes) if b.locked]
        t = g._value_tables = {"vp": vp, "res": res, "bonus": bonus, "ib": ib, "locked": locked}
    return t


def feature_names(g) -> list[str]:  # noqa: ANN001
    """Names of :func:`value_features`'s entries for game ``g`` (its sheet's innovations and boxes)."""
    sh = g.sheet
    names = ["one", "vp_unconnected", "vp_next", "res_connected", "res_next",
             "bonus_connected", "bonus_next", "ib_connected", "free_land", "connected",
             "favor", "strength", "favor_room", "strength_room", "stored", "storage_room",
             "roads_placed", "hex_uses", "boxes_ready"]
    names += [f"res_connected_{k}" for k in ("food", "supplies", "wealth", "favor", "strength")]
    names += [f"circles_left_{k}" for k in ("food", "supplies", "wealth", "favor", "strength",
                                            "bonus")]
    names += [f"progress_{inn.id}" for inn in sh.innovations]
    names += [f"discovered_{inn.id}" for inn in sh.innovations]
    names += [f"filled_{b.id}" for b in sh.boxes]
    names += [f"unlocked_{sh.boxes[i].id}" for i in _tables(g)["locked"]]
    return names


def value_features(state: "RollBuilderState", player: int) -> list[float]:
    """Features of ``player``'s sheet (in :func:`feature_names` order); counts, 0/1 flags and
    fractions, all >= 0.

    * ``vp_unconnected`` — points printed on spaces not connected yet; ``vp_next`` — those of
      them next to a connected space;
    * ``res_*``/``bonus_*``/``ib_connected`` — resource units, bonus actions and innovation
      bonuses on unmarked spaces that are connected (``*_connected``) or next to a connected
      space (``*_next``);
    * ``free_land`` — connected land spaces without a building; ``connected`` — spaces connected;
    * track positions and the spaces left on them, stored wealth and the storage circles left,
      roads placed, full hexagons rewarded;
    * per innovation the share of its circles crossed (0 once discovered) and whether it is
      discovered; per box whether it is filled; per locked box whether it is unlocked."""
    g = state.game
    sh = g.sheet
    p = state.players[player]
    t = _tables(g)
    conn = p.connected
    nxt = g.neighbours_of(conn) & ~conn
    vp_u = vp_n = 0
    pts = sh.space_points
    for s in t["vp"]:
        if not conn >> s & 1:
            vp_u += pts[s]
            if nxt >> s & 1:
                vp_n += pts[s]
    res, bonus, ib = t["res"], t["bonus"], t["ib"]
    rc = rn = bc = bn = ic = 0
    kinds = [0, 0, 0, 0, 0]
    m = (conn | nxt) & ~p.marked & g.icon_mask
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        if conn & low:
            rs = res[s]
            rc += sum(rs)
            for k in range(5):
                kinds[k] += rs[k]
            bc += bonus[s]
            ic += ib[s]
        else:
            rn += sum(res[s])
            bn += bonus[s]
    free_land = (conn & sh.land_mask & ~p.built).bit_count()
    stored = p.wealth_marked - p.wealth_spent
    f = [1.0, float(vp_u), float(vp_n), float(rc), float(rn), float(bc), float(bn), float(ic),
         float(free_land), float(conn.bit_count()), float(p.favor), float(p.strength),
         float(g.favor_max - p.favor), float(g.strength_max - p.strength), float(stored),
         float(g.wealth_storage - p.wealth_marked), float(p.roads_placed),
         float(p.full_hexagon_uses)]
    ready = g.req_ok.get(p.filled)
    if ready is None:
        ready = g.boxes_ready(p.filled)
    f.append(float((ready & p.unlocked & ~p.filled).bit_count()))
    f += [float(x) for x in kinds]
    open_c = ~p.crossed & g.all_circles
    for i in range(len(g.innov_circles)):
        if p.discovered >> i & 1:
            open_c &= ~g.innov_circles[i]
    f += [float((g.kind_circles[k] & open_c).bit_count()) for k in range(6)]
    crossed, disc = p.crossed, p.discovered
    circles = g.innov_circles
    for i in range(len(circles)):
        if disc >> i & 1:
            f.append(0.0)
        else:
            c = circles[i]
            f.append((c & crossed).bit_count() / c.bit_count())
    for i in range(len(circles)):
        f.append(float(disc >> i & 1))
    filled = p.filled
    for i in range(len(sh.boxes)):
        f.append(float(filled >> i & 1))
    for i in t["locked"]:
        f.append(float(p.unlocked >> i & 1))
    return f


def fitted_value(state: "RollBuilderState", player: int) -> float | None:
    """Score + fitted points to come (module docstring) of ``player`` at a turn boundary; None
    when the sheet has no weights (:data:`WEIGHTS`)."""
    g = state.game
    w = getattr(g, "_value_weights", False)
    if w is False:
        w = WEIGHTS.get(g.sheet.id)
        if w is not None and len(w[0]) != len(feature_names(g)):
            w = None  # same id, another shape: not the shipped sheet
        g._value_weights = w
    if w is None:
        return None
    total = float(sum(state.player_parts(player).values()))
    r = turns_left(state, player)
    if r == 0:
        return total
    f = value_features(state, player)
    v = 0.0
    rk = 1.0
    for wk in w:
        part = 0.0
        for x, c in zip(f, wk):
            if x:
                part += x * c
        v += part * rk
        rk *= r
    return total + v
