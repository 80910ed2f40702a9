"""Fixed-shape observation tensors built from ``state.observation(player)``.

Every encoder reads only the documented observation JSON of one player (so a tensor never holds
what that player may not see) plus static data of the game (board terrain drawn by
``render_text`` of a fresh initial state, card counts read off the initial observation), cached
per setup. The layout is a flat ``float32`` vector made of named pieces (see ``pieces``); each
piece is documented plane by plane in ``docs/rl.md``. Players are ordered *relative to the
observer*: index 0 is the observing player, 1 the next player, and so on.

Every game also has a *direct* path that reads the same facts straight from
the engine's fields (bitsets, cell lists, hands, dice, sheet fields)
without building the JSON: ``encode``/``encode_into`` use it, ``encode_from_observation`` keeps
the reference path, and tests/rl/test_direct_encoders.py checks that both give the identical
tensor on random positions (so the direct path shows nothing the observation does not).

Only numpy is needed (no RL framework).
"""

from __future__ import annotations

import math
from operator import attrgetter
from typing import Any, Callable, Sequence

import numpy as np

from ..core.game import Game, State

__all__ = ["Encoder", "encoder_for"]

_KB_TERRAINS = ("G", "C", "D", "F", "T", "W", "M", "K", "L")
_KB_CARD_TERRAINS = ("grass", "canyon", "desert", "flower_field", "forest")
_KB_LOCATIONS = ("oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock",
                 "foresters_lodge", "monastery", "fort", "crossroads", "city_hall", "lighthouse",
                 "barracks", "wagon")
_KB_CARDS = ("fishermen", "miners", "workers", "merchants", "discoverers", "hermits",
             "citizens", "knights", "lords", "farmers")
_KB_TASKS = ("home_country", "fortress", "road", "place_of_refuge", "advance", "compass_points")
_KB_PIECES = ("wagon", "ship", "warriors", "city_hall")

_RIT_TOKENS = (".", "fa", "mo", "tr", "oc", "TH", "HO", "QU", "LJ", "HA", "WM", "TA", "FO", "MA",
               "LT", "LB", "CA", "r", "c")
_RIT_PHASES = ("roll", "discover", "build", "collect", "maintenance", "game over")
_SIDES = "NESW"

_SPR_ZONES = ("C", "I", "R", "P")

_RB_BITSETS = ("roads", "corners", "connected", "frontier", "blocked", "marked", "crossed",
               "unlocked", "used", "filled", "hex_done", "discovered")


class Encoder:
    """A fixed-shape tensor layout for one game, option set and player count.

    Attributes:
        pieces: ``[(name, shape), ...]`` in tensor order (the OpenSpiel observer ``dict``).
        size: total number of floats.

    ``encode(state, player)`` returns a new ``float32`` array of shape ``(size,)``;
    ``encode_into(state, player, out)`` fills ``out`` in place (no allocation).
    """

    def __init__(self, pieces: Sequence[tuple[str, tuple[int, ...]]],
                 fill: Callable[[State, int, dict[str, Any], dict[str, np.ndarray]], None],
                 direct: Callable[[State, int, dict[str, np.ndarray]], bool] | None = None
                 ) -> None:
        self.pieces = [(n, tuple(s)) for n, s in pieces]
        self._slices: list[tuple[str, int, int, tuple[int, ...]]] = []
        offset = 0
        for name, shape in self.pieces:
            size = math.prod(shape)
            self._slices.append((name, offset, offset + size, shape))
            offset += size
        self.size = offset
        self._fill = fill
        self._direct = direct

    def views(self, out: np.ndarray) -> dict[str, np.ndarray]:
        """Named reshaped views into ``out`` (same memory)."""
        return {name: out[a:b].reshape(shape) for name, a, b, shape in self._slices}

    def encode_into(self, state: State, player: int, out: np.ndarray,
                    views: dict[str, np.ndarray] | None = None) -> None:
        """Fill ``out`` (float32, shape ``(size,)``) for ``player``; ``views`` from ``views(out)``."""
        out[:] = 0.0
        v = views or self.views(out)
        if self._direct is None or not self._direct(state, player, v):
            self._fill(state, player, state.observation(player), v)

    def encode(self, state: State, player: int) -> np.ndarray:
        """A new ``float32`` tensor of shape ``(size,)`` for ``player``."""
        out = np.zeros(self.size, dtype=np.float32)
        v = self.views(out)
        if self._direct is None or not self._direct(state, player, v):
            self._fill(state, player, state.observation(player), v)
        return out

    def encode_from_observation(self, state: State, player: int) -> np.ndarray:
        """The same tensor built only from ``state.observation(player)`` (the reference path:
        tests check the direct path gives the identical array)."""
        out = np.zeros(self.size, dtype=np.float32)
        self._fill(state, player, state.observation(player), self.views(out))
        return out


_CACHE: dict[tuple[Any, ...], Encoder] = {}


def encoder_for(game: Game, num_players: int) -> Encoder:
    """The encoder of ``game`` (options included) for ``num_players`` players (cached).

    Raises ValueError for a game without an encoder.
    """
    key = (game.name, repr(sorted(game.options.items())), num_players)
    enc = _CACHE.get(key)
    if enc is None:
        builder = _BUILDERS.get(game.name)
        if builder is None:
            raise ValueError(f"game: no observation encoder for {game.name!r}; "
                             f"known: {', '.join(sorted(_BUILDERS))}")
        enc = builder(game, num_players)
        _CACHE[key] = enc
    return enc


def _rel(player: int, n: int) -> list[int]:
    """Absolute player index of each relative seat (0 = ``player``)."""
    return [(player + k) % n for k in range(n)]


_RC: dict[str, tuple[int, int]] = {}


def _rc(text: str) -> tuple[int, int]:
    """``"R,C"`` -> ``(R, C)`` (memoised: hex names repeat)."""
    rc = _RC.get(text)
    if rc is None:
        r, c = text.split(",")[:2]
        rc = _RC[text] = (int(r), int(c))
    return rc


# ------------------------------------------------------------------ Kingdom Builder
def _kb_terrain(game: Game, state: State, cache: dict[Any, np.ndarray],
                sections: Any) -> np.ndarray:
    """Terrain planes (9, 20, 20) of the setup, from the text board of a fresh initial state."""
    key = repr(sections)
    planes = cache.get(key)
    if planes is None:
        fresh = game.new_initial_state(state.num_players, state.seed)
        planes = np.zeros((len(_KB_TERRAINS) + 1, 20, 20), dtype=np.float32)
        for line in fresh.render_text(None, color=False).splitlines():
            parts = line.split()
            if len(parts) != 21 or not parts[0].isdigit():
                continue
            r = int(parts[0])
            for c, tok in enumerate(parts[1:]):
                code = tok.rstrip("*")
                idx = _KB_TERRAINS.index(code) if code in _KB_TERRAINS else len(_KB_TERRAINS)
                planes[idx, r, c] = 1.0
        cache[key] = planes
    return planes


def _kb_builder(game: Game, n: int) -> Encoder:
    crossroads = "crossroads" in (game.options.get("expansions") or [])
    nt, nl, nk = len(_KB_TERRAINS) + 1, len(_KB_LOCATIONS) + 1, len(_KB_CARD_TERRAINS)
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("terrain", (nt, 20, 20)),
        ("settlements", (n, 20, 20)),
        ("location_kind", (nl, 20, 20)),
        ("location_tiles_left", (20, 20)),
        ("card", (n, nk + 1)),
        ("tiles", (n, nl, 3)),
        ("supply", (n,)),
        ("score", (n,)),
        ("kb_cards", (len(_KB_CARDS),)),
        ("deck", (1 + 2 * nk,)),
        ("turn", (n + 3,)),
    ]
    if crossroads:
        pieces += [("pieces", (n, len(_KB_PIECES), 20, 20)), ("second_card", (n, nk + 1)),
                   ("tasks", (len(_KB_TASKS),)), ("crossroads_turn", (2, nk))]
    terrain_cache: dict[Any, np.ndarray] = {}
    status = {"ready": 0, "new": 1, "used": 2}

    def card_index(card: Any) -> int:
        return _KB_CARD_TERRAINS.index(card) if card in _KB_CARD_TERRAINS else nk

    def fill(state: State, player: int, obs: dict[str, Any], v: dict[str, np.ndarray]) -> None:
        v["terrain"][:] = _kb_terrain(game, state, terrain_cache, obs["sections"])
        seats = _rel(player, n)
        players = obs["players"]
        for k, p in enumerate(seats):
            info = players[p]
            plane = v["settlements"][k]
            for h in info["settlements"]:
                r, c = _rc(h)
                plane[r, c] = 1.0
            card = info.get("card")
            if card is not None and card != "none":
                v["card"][k, card_index(card)] = 1.0
            for t in info.get("tiles", []):
                kind = t["kind"] if isinstance(t, dict) else t
                st = t.get("status", "ready") if isinstance(t, dict) else "ready"
                ki = _KB_LOCATIONS.index(kind) if kind in _KB_LOCATIONS else nl - 1
                v["tiles"][k, ki, status.get(st, 0)] += 1.0
            v["supply"][k] = info["supply"] / 40.0
            v["score"][k] = obs["scores"][p]["total"] / 100.0
        for loc in obs["locations"]:
            r, c = _rc(loc["hex"])
            kind = loc["kind"]
            v["location_kind"][_KB_LOCATIONS.index(kind) if kind in _KB_LOCATIONS else nl - 1,
                               r, c] = 1.0
            v["location_tiles_left"][r, c] = loc["tiles_left"] / 2.0
        for card in obs["cards"]:
            if card in _KB_CARDS:
                v["kb_cards"][_KB_CARDS.index(card)] = 1.0
        deck = v["deck"]
        deck[0] = obs["deck_size"] / 25.0
        for i, t in enumerate(_KB_CARD_TERRAINS):
            deck[1 + i] = obs["discard"].get(t, 0) / 5.0
            deck[1 + nk + i] = obs["removed"].get(t, 0) / 5.0
        turn = v["turn"]
        cp = obs["current_player"]
        if cp >= 0:
            turn[(cp - player) % n] = 1.0
        turn[n] = obs["turn"] / 100.0
        turn[n + 1] = obs["mandatory_built"] / 3.0
        turn[n + 2] = 1.0 if obs["final_round"] else 0.0
        cr = obs.get("crossroads")
        if crossroads and cr:
            for k, p in enumerate(seats):
                pinfo = cr["players"][p]
                for j, piece in enumerate(_KB_PIECES):
                    for h in pinfo.get(piece, []):
                        r, c = _rc(h)
                        v["pieces"][k, j, r, c] = 1.0
                card = pinfo.get("second_card")
                if card is not None and card != "none":
                    v["second_card"][k, card_index(card)] = 1.0
            for task in cr.get("tasks", []):
                name = task.get("task") if isinstance(task, dict) else task
                if name in _KB_TASKS:
                    v["tasks"][_KB_TASKS.index(name)] = 1.0
            for row, key in enumerate(("fort_card", "locked_terrain")):
                if cr.get(key) in _KB_CARD_TERRAINS:
                    v["crossroads_turn"][row, _KB_CARD_TERRAINS.index(cr[key])] = 1.0

    direct = _kb_direct(game, n, terrain_cache, crossroads)
    return Encoder(pieces, fill, direct)


def _bitplane(mask: int) -> np.ndarray:
    """A 400-hex bitset as a (20, 20) 0/1 uint8 array (bit ``R*20+C`` -> ``[R, C]``)."""
    raw = np.frombuffer(mask.to_bytes(50, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little").reshape(20, 20)


def _kb_direct(game: Game, n: int, terrain_cache: dict[Any, np.ndarray],
               crossroads: bool = False) -> Callable[[State, int, dict[str, np.ndarray]], bool]:
    """The tensor read straight from the engine's bitsets (no observation JSON).

    Reads exactly what ``observation(player)`` shows: settlements, supplies, tiles and their
    status, the visible cards (``visible_hand``), location tiles left, the Kingdom Builder
    cards, deck size, discard and removed counts, turn data and scores; with ``crossroads``
    also every seat's pieces (wagon, ship, warriors, city hall bitsets), the visible second
    cards (``visible_hand2``), the task cards, the Fort's card and the locked terrain (the
    public facts of ``crossroads_view``). Identical to the JSON path (tests/rl check both on
    random positions)."""
    from ..games.kingdom_builder.rules.state import STATUS_NAMES

    nk = len(_KB_CARD_TERRAINS)
    nl = len(_KB_LOCATIONS) + 1
    status_col = {i: {"ready": 0, "new": 1, "used": 2}.get(name, 0)
                  for i, name in enumerate(STATUS_NAMES)}
    static: dict[Any, tuple[np.ndarray, list[tuple[int, int, int]], np.ndarray]] = {}

    def board_data(state: Any) -> tuple[np.ndarray, list[tuple[int, int, int]], np.ndarray]:
        board = state.board
        key = (board.sections, tuple(state.cards))
        hit = static.get(key)
        if hit is None:
            terrain = _kb_terrain(game, state, terrain_cache, [list(x) for x in board.sections])
            locs = []
            for h, kind in board.locations:
                r, c = divmod(h, 20)
                locs.append((_KB_LOCATIONS.index(kind) if kind in _KB_LOCATIONS else nl - 1, r, c))
            cards = np.zeros(len(_KB_CARDS), dtype=np.float32)
            for card in state.cards:
                if card in _KB_CARDS:
                    cards[_KB_CARDS.index(card)] = 1.0
            hit = static[key] = (terrain, locs, cards)
        return hit

    last: list[Any] = [None, None]  # (position key, totals): every seat's tensor of one position

    def totals(state: Any) -> list[int]:
        key = (state.board.sections, tuple(state.cards), tuple(state.occ))
        if last[0] != key:
            last[0], last[1] = key, [sc.total for sc in state.scores()]
        return last[1]

    def direct(state: Any, player: int, v: dict[str, np.ndarray]) -> bool:
        terrain, locs, cards = board_data(state)
        v["terrain"][:] = terrain
        scores = totals(state)
        settlements, card_v, tiles_v = v["settlements"], v["card"], v["tiles"]
        supply_v, score_v = v["supply"], v["score"]
        for k in range(n):
            p = (player + k) % n
            settlements[k] = _bitplane(state.stl[p])
            vh = state.visible_hand(p, player)
            if vh is not None and vh >= 0:
                card_v[k, vh] = 1.0
            for _, kind, st in state.tiles_of(p):
                ki = _KB_LOCATIONS.index(kind) if kind in _KB_LOCATIONS else nl - 1
                tiles_v[k, ki, status_col[st]] += 1.0
            supply_v[k] = state.supply[p] / 40.0
            score_v[k] = scores[p] / 100.0
        kind_v, left_v = v["location_kind"], v["location_tiles_left"]
        for k, (ki, r, c) in enumerate(locs):
            kind_v[ki, r, c] = 1.0
            left_v[r, c] = state.loc_left[k] / 2.0
        v["kb_cards"][:] = cards
        deck = v["deck"]
        deck[0] = sum(state.deck) / 25.0
        for i in range(nk):
            deck[1 + i] = state.discard[i] / 5.0
            deck[1 + nk + i] = state.removed[i] / 5.0
        turn = v["turn"]
        cp = state.current_player()
        if cp >= 0:
            turn[(cp - player) % n] = 1.0
        turn[n] = state.turn / 100.0
        turn[n + 1] = state.mand / 3.0
        turn[n + 2] = 1.0 if state.final_round else 0.0
        if crossroads:
            pieces_v, second_v = v["pieces"], v["second_card"]
            for k in range(n):
                p = (player + k) % n
                plane = pieces_v[k]
                for j, masks in enumerate((state.wagon, state.ship, state.warriors,
                                           state.city_hall)):
                    if masks[p]:
                        plane[j] = _bitplane(masks[p])
                vh = state.visible_hand2(p, player)
                if vh is not None and vh >= 0:
                    second_v[k, vh] = 1.0
            v["tasks"][:] = tasks_of(state.tasks)
            xt = v["crossroads_turn"]
            if state.fort_card >= 0:
                xt[0, state.fort_card] = 1.0
            if state.lock >= 0:
                xt[1, state.lock] = 1.0
        return True

    task_cache: dict[tuple[str, ...], np.ndarray] = {}

    def tasks_of(tasks: tuple[str, ...]) -> np.ndarray:
        hit = task_cache.get(tasks)
        if hit is None:
            hit = task_cache[tasks] = np.array([1.0 if t in tasks else 0.0 for t in _KB_TASKS],
                                               dtype=np.float32)
        return hit

    return direct


# ------------------------------------------------------------------ Sprawlopolis
def _spr_builder(game: Game, n: int) -> Encoder:
    first = game.new_initial_state(n, 0).observation(0)
    n_cards = first["deck_size"] + sum(first["hand_sizes"]) + len(first["placements"])
    n_ids = n_cards + len(first["conditions"])  # card numbers 1..n_ids
    side = 4 * n_cards  # rows/cols -2N+2 .. 2N-1 hold any city of N 2x2 cards
    origin = 2 * n_cards - 2
    nz = len(_SPR_ZONES)
    memo: dict[str, tuple[int, ...]] = {}
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("blocks", (nz + 4, side, side)),
        ("hand", (n_ids,)),
        ("deck_top", (n_ids,)),
        ("conditions", (n_ids,)),
        ("counts", (3 + n,)),
        ("score", (2 + nz + len(first["conditions"]),)),
        ("turn", (n,)),
    ]

    def fill(state: State, player: int, obs: dict[str, Any], v: dict[str, np.ndarray]) -> None:
        grid = obs["grid"]
        top, left = grid["top"] + origin, grid["left"] + origin
        blocks = v["blocks"]
        for i, row in enumerate(grid["rows"]):
            r = top + i
            for j, tok in enumerate(row.split()):
                if tok == ".":
                    continue
                idx = memo.get(tok)
                if idx is None:
                    zone, _, road = tok.partition("-")
                    idx = memo[tok] = tuple(
                        ([_SPR_ZONES.index(zone)] if zone in _SPR_ZONES else [])
                        + [nz + _SIDES.index(ch) for ch in road if ch in _SIDES])
                for i in idx:
                    blocks[i, r, left + j] = 1.0
        for card in obs["hand"]:
            v["hand"][int(card) - 1] = 1.0
        if obs.get("deck_top") is not None:
            v["deck_top"][int(obs["deck_top"]) - 1] = 1.0
        for card in obs["conditions"]:
            v["conditions"][int(card) - 1] = 1.0
        counts = v["counts"]
        counts[0] = obs["deck_size"] / n_cards
        counts[1] = obs["plays"] / n_cards
        counts[2] = obs["target"] / 50.0
        seats = _rel(player, n)
        for k, p in enumerate(seats):
            counts[3 + k] = obs["hand_sizes"][p] / 3.0
        sc = obs["score"]
        score = v["score"]
        score[0] = sc["total"] / 50.0
        score[1] = sc.get("roads", 0) / 20.0
        for i, z in enumerate(("commercial", "industrial", "residential", "park")):
            score[2 + i] = sc["groups"].get(z, 0) / 20.0
        for i, cond in enumerate(obs["conditions"]):
            score[2 + nz + i] = sc["conditions"].get(str(cond), 0) / 20.0
        ap = obs.get("active_player")
        if ap is not None and 0 <= ap < n:
            v["turn"][(ap - player) % n] = 1.0

    from ..games.sprawlopolis.actions import rc_of
    from ..games.sprawlopolis.loader import token_of

    cell_memo: dict[int, tuple[int, ...]] = {}

    def planes_of(code: int) -> tuple[int, ...]:
        idx = cell_memo.get(code)
        if idx is None:
            zone, _, road = token_of(code).partition("-")
            idx = cell_memo[code] = tuple(
                ([_SPR_ZONES.index(zone)] if zone in _SPR_ZONES else [])
                + [nz + _SIDES.index(ch) for ch in road if ch in _SIDES])
        return idx

    def direct(state: Any, player: int, v: dict[str, np.ndarray]) -> bool:
        """Straight from the city's cells, the hands and the cached breakdown: what
        ``observation(player)`` shows (own hand, other hands as sizes, the face-up top card)."""
        if not 0 <= player < n:
            return False
        blocks = v["blocks"]
        cells = state.city.cells
        for i in state.city.occ:
            code = cells[i]
            if code:
                r, c = rc_of(i)
                for k in planes_of(code):
                    blocks[k, r + origin, c + origin] = 1.0
        hand = v["hand"]
        for card in state.hands[player]:
            hand[card - 1] = 1.0
        if state.top:
            v["deck_top"][state.top - 1] = 1.0
        conds = v["conditions"]
        for card in state.conditions:
            conds[card - 1] = 1.0
        counts = v["counts"]
        counts[0] = len(state.deck) / n_cards
        counts[1] = max(0, len(state.city.placements) - 1) / n_cards
        counts[2] = state.target / 50.0
        for k in range(n):
            counts[3 + k] = len(state.hands[(player + k) % n]) / 3.0
        b = state.breakdown()
        sc = b.to_json()
        score = v["score"]
        score[0] = b.total / 50.0
        score[1] = sc.get("roads", 0) / 20.0
        groups = sc["groups"]
        for i, z in enumerate(("commercial", "industrial", "residential", "park")):
            score[2 + i] = groups.get(z, 0) / 20.0
        per = sc["conditions"]
        for i, cond in enumerate(state.conditions):
            score[2 + nz + i] = per.get(str(cond), 0) / 20.0
        ap = state.active
        if ap is not None and 0 <= ap < n:
            v["turn"][(ap - player) % n] = 1.0
        return True

    return Encoder(pieces, fill, direct)


# ------------------------------------------------------------------ Roll into Town
def _rit_planes(tok: str, nt: int) -> tuple[int, ...]:
    """Plane indices set by one map token (``c:NE+HA``: coast, harbor, N and E sides)."""
    base, _, building = tok.partition("+")
    kind, _, sides = base.partition(":")
    out = [_RIT_TOKENS.index(kind) if kind in _RIT_TOKENS else nt - 1]
    if building:
        out.append(_RIT_TOKENS.index(building) if building in _RIT_TOKENS else nt - 1)
    out += [nt + _SIDES.index(ch) for ch in sides if ch in _SIDES]
    return tuple(out)


def _rit_builder(game: Game, n: int) -> Encoder:
    rows, cols = int(game.options["rows"]), int(game.options["cols"])
    nt = len(_RIT_TOKENS) + 1
    memo: dict[str, tuple[int, ...]] = {}
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("map", (n, nt + 4, rows, cols)),
        ("resources", (n, 6)),
        ("phase", (len(_RIT_PHASES) + 1,)),
        ("round", (1,)),
        ("rolled", (5, 6)),
        ("dice", (5, 8)),
        ("icons_to_draw", (1,)),
        ("active", (n,)),
    ]

    def fill(state: State, player: int, obs: dict[str, Any], v: dict[str, np.ndarray]) -> None:
        seats = _rel(player, n)
        for k, p in enumerate(seats):
            sheet = obs["sheets"][p]
            plane = v["map"][k]
            for r, line in enumerate(sheet["map"]):
                for c, tok in enumerate(line.split()):
                    idx = memo.get(tok)
                    if idx is None:
                        idx = memo[tok] = _rit_planes(tok, nt)
                    for i in idx:
                        plane[i, r, c] = 1.0
            res = v["resources"][k]
            res[0] = sheet["food"] / 9.0
            res[1] = sheet["stone"] / 9.0
            res[2] = sheet["wood"] / 9.0
            res[3] = sheet["town_hall_uses_left"] / 3.0
            res[4] = sheet["fountain_uses_left"] / 3.0
            res[5] = 1.0 if sheet["river_connects"] else 0.0
        ph = obs["phase"]
        v["phase"][_RIT_PHASES.index(ph) if ph in _RIT_PHASES else len(_RIT_PHASES)] = 1.0
        v["round"][0] = obs["round"] / 12.0
        for i, d in enumerate(obs["rolled"][:5]):
            v["rolled"][i, int(d) - 1] = 1.0
        dice = v["dice"]
        for i, d in enumerate(obs["dice"][:5]):
            dice[i, int(d) - 1] = 1.0
        for i in obs["used_dice"]:
            if i < 5:
                dice[i, 6] = 1.0
        for i in obs["adjusted_dice"]:
            if i < 5:
                dice[i, 7] = 1.0
        v["icons_to_draw"][0] = obs["icons_to_draw"] / 5.0
        for p in obs["active_players"]:
            v["active"][(p - player) % n] = 1.0

    from ..games.roll_into_town import loader as rit_loader
    from ..games.roll_into_town.actions import PHASE_NAMES, cell_token

    sided = (rit_loader.RIVER, rit_loader.COAST)
    cell_memo: dict[tuple[int, int, int], int] = {}  # cell -> bitmask of its planes
    sheet_memo: dict[tuple[tuple[int, ...], ...], np.ndarray] = {}  # sheet cells -> map planes
    shifts = np.arange(nt + 4, dtype=np.int64)[:, None]
    rule = game.options["river_connect_rule"]

    def direct(state: Any, player: int, v: dict[str, np.ndarray]) -> bool:
        """Straight from the sheets' cell arrays (memoised per (terrain, sides, building)) and
        the dice: what ``observation(player)`` shows (everything but future dice)."""
        if not 0 <= player < n:
            return False
        maps, resources = v["map"], v["resources"]
        for k in range(n):
            sheet = state.sheets[(player + k) % n]
            terrain, sides, bld = sheet.terrain, sheet.sides, sheet.bld
            # a sheet changes a few cells a round: its planes are remembered by its cells
            sheet_key = (tuple(terrain), tuple(sides), tuple(bld))
            planes = sheet_memo.get(sheet_key)
            if planes is None:
                codes = []
                for i in range(sheet.geo.n):
                    t = terrain[i]
                    key = (t, sides[i] if t in sided else 0, bld[i])
                    m = cell_memo.get(key)
                    if m is None:
                        m = cell_memo[key] = sum(1 << j for j in set(
                            _rit_planes(cell_token(sheet, i), nt)))
                    codes.append(m)
                # one bit per plane of each cell's code -> (planes, rows, cols) in one step
                planes = ((np.array(codes, dtype=np.int64)[None, :] >> shifts) & 1).reshape(
                    maps[k].shape).astype(np.float32)
                if len(sheet_memo) >= 4096:
                    sheet_memo.clear()
                sheet_memo[sheet_key] = planes
            maps[k] = planes
            res = resources[k]
            res[0] = sheet.res[0] / 9.0
            res[1] = sheet.res[1] / 9.0
            res[2] = sheet.res[2] / 9.0
            res[3] = sheet.hall_uses / 3.0
            res[4] = sheet.fountain_uses / 3.0
            res[5] = 1.0 if sheet.river_connects(rule) else 0.0
        ph = PHASE_NAMES[state.phase]
        v["phase"][_RIT_PHASES.index(ph) if ph in _RIT_PHASES else len(_RIT_PHASES)] = 1.0
        v["round"][0] = (state.round + 1) / 12.0
        for i, d in enumerate(state.rolled[:5]):
            v["rolled"][i, int(d) - 1] = 1.0
        dice = v["dice"]
        mine = state.dice[player]
        used, adjusted = state.used[player], state.adjusted[player]
        for i, d in enumerate(mine[:5]):
            dice[i, int(d) - 1] = 1.0
            if used >> i & 1:
                dice[i, 6] = 1.0
            if adjusted >> i & 1:
                dice[i, 7] = 1.0
        v["icons_to_draw"][0] = state.to_draw[player] / 5.0
        for p in state.active_players():
            v["active"][(p - player) % n] = 1.0
        return True

    return Encoder(pieces, fill, direct)


# ------------------------------------------------------------------ Roll Builder
def _rb_builder(game: Game, n: int) -> Encoder:
    first = game.new_initial_state(n, 0).observation(0)
    width = 0
    for attr in ("n_edges", "n_spaces", "n_circles", "n_boxes"):
        value = getattr(game, attr, 0)
        if isinstance(value, int):
            width = max(width, value)
    width = max(64, -(-width // 64) * 64) if width else 512
    proto = first["players"][0]
    bit_fields = [k for k in sorted(proto) if k in _RB_BITSETS]
    scalar_fields = [k for k in sorted(proto) if k not in _RB_BITSETS
                     and (proto[k] is None or isinstance(proto[k], (int, bool)))]
    list_fields = [(k, len(proto[k])) for k in sorted(proto)
                   if isinstance(proto[k], list) and proto[k]
                   and all(isinstance(x, int) for x in proto[k])]
    nd = max(2, len(first.get("dice", [])))
    per_list = sum(m for _, m in list_fields)
    score_parts = sorted(first["scores"][0]["parts"])
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("bitsets", (n, len(bit_fields), width)),
        ("scalars", (n, len(scalar_fields) + per_list)),
        ("score", (n, 1 + len(score_parts))),
        ("dice", (nd, 6)),
        ("turn", (2,)),
    ]
    def bits(value: Any, out: np.ndarray) -> None:
        if value is None or value == 0:
            return
        x = int(value, 16) if isinstance(value, str) else int(value)
        if x >> width:
            raise ValueError(f"roll-builder bitset wider than {width} bits")
        raw = np.frombuffer(x.to_bytes(width // 8, "little"), dtype=np.uint8)
        out[:] = np.unpackbits(raw, bitorder="little")[:width]

    def fill(state: State, player: int, obs: dict[str, Any], v: dict[str, np.ndarray]) -> None:
        for k, p in enumerate(_rel(player, n)):
            info = obs["players"][p]
            for j, name in enumerate(bit_fields):
                bits(info.get(name), v["bitsets"][k, j])
            sc = v["scalars"][k]
            for j, name in enumerate(scalar_fields):
                x = info.get(name)
                if isinstance(x, (int, bool)):
                    sc[j] = float(x)
                elif x is not None:
                    sc[j] = 1.0
            j = len(scalar_fields)
            for name, m in list_fields:
                vals = info.get(name) or []
                for i in range(min(m, len(vals))):
                    if isinstance(vals[i], (int, float)):
                        sc[j + i] = float(vals[i])
                j += m
            s = obs["scores"][p]
            v["score"][k, 0] = s["total"] / 100.0
            for i, part in enumerate(score_parts):
                v["score"][k, 1 + i] = s["parts"].get(part, 0) / 50.0
        for i, d in enumerate(obs.get("dice", [])[:nd]):
            v["dice"][i, int(d) - 1] = 1.0
        v["turn"][0] = obs["turn"] / 15.0
        v["turn"][1] = 1.0 if obs.get("over") else 0.0

    from ..games.roll_builder.rules.player_sheet import FIELDS

    attr_of = {key: (attr, kind) for attr, key, kind, _ in FIELDS}
    if not all(name in attr_of for name in bit_fields + scalar_fields
               + [name for name, _ in list_fields]):
        return Encoder(pieces, fill)  # a field the sheet does not save: the JSON path only
    bit_attrs = [attr_of[name][0] for name in bit_fields]
    scalar_attrs = [attr_of[name] for name in scalar_fields]
    list_attrs = [(attr_of[name][0], m) for name, m in list_fields]
    big = 1 << 52
    nbytes = width // 8
    scalar_kinds = [kind for _, kind in scalar_attrs]

    def getter(attrs: list[str]) -> Callable[[Any], tuple[Any, ...]]:
        """A function reading ``attrs`` of a sheet as one tuple (attrgetter, any count)."""
        if len(attrs) == 1:
            one = attrgetter(attrs[0])
            return lambda sheet: (one(sheet),)
        return attrgetter(*attrs) if attrs else (lambda sheet: ())

    get_bits = getter(bit_attrs)
    get_scalars = getter([attr for attr, _ in scalar_attrs])

    def direct(state: Any, player: int, v: dict[str, np.ndarray]) -> bool:
        """Straight from the player sheets' fields (the values ``_position_json`` saves) and
        ``scores()``: Roll Builder has no hidden information."""
        scores = state.scores()
        for k, p in enumerate(_rel(player, n)):
            sheet = state.players[p]
            masks = [x or 0 for x in get_bits(sheet)]
            if any(masks):
                if max(masks) >> width:
                    raise ValueError(f"roll-builder bitset wider than {width} bits")
                # every field of the sheet in one unpack: bit i of field j -> [k, j, i]
                raw = b"".join(int(x).to_bytes(nbytes, "little") for x in masks)
                v["bitsets"][k] = np.unpackbits(np.frombuffer(raw, dtype=np.uint8),
                                                bitorder="little").reshape(len(masks), width)
            sc = v["scalars"][k]
            for j, (x, kind) in enumerate(zip(get_scalars(sheet), scalar_kinds)):
                if kind in ("gain", "conversion", "list"):
                    if x is not None:
                        sc[j] = 1.0  # a list in the JSON: "present"
                elif isinstance(x, bool) or x < big:
                    sc[j] = float(x)
                else:
                    sc[j] = 1.0  # the JSON writes such a bitset as a hex string
            j = len(scalar_fields)
            for attr, m in list_attrs:
                vals = getattr(sheet, attr) or ()
                for i in range(min(m, len(vals))):
                    sc[j + i] = float(vals[i])
                j += m
            score = scores[p]
            v["score"][k, 0] = score.total / 100.0
            for i, part in enumerate(score_parts):
                v["score"][k, 1 + i] = score.parts.get(part, 0) / 50.0
        for i, d in enumerate(state.dice[:nd]):
            v["dice"][i, int(d) - 1] = 1.0
        v["turn"][0] = state.turn / 15.0
        v["turn"][1] = 1.0 if state.over else 0.0
        return True

    return Encoder(pieces, fill, direct)


_BUILDERS: dict[str, Callable[[Game, int], Encoder]] = {
    "kingdom-builder": _kb_builder,
    "sprawlopolis": _spr_builder,
    "roll-into-town": _rit_builder,
    "roll-builder": _rb_builder,
}
