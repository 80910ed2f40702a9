"""The "Your view" panels of the play and replay pages: a seat's observation for people.

An observation is the engine's JSON view of the position (``State.observation``), made for bots
and tests: it carries bitsets (``"roads": "0x1080..."``), sentinels (``current_player: -4`` at
the end), 0-based seat and die indices and fields a player never needs. ``display_panels``
turns it into a short list of panels ``[{"title": str, "value": JSON}]`` (``value``: a string,
number, list or object of those; the page draws objects as tables and lists as lists):

* a game whose observation has a ``"display"`` object supplies its own panels (title -> value);
* the four shipped games get a hand-made selection (hand, resources, tiles, dice, supply...);
* any other key goes through ``clean``: internal values are dropped (hex strings, integers
  outside 0..65535 such as bitsets or negative sentinels, ``None``, ids), seat indices become
  seat names ("Player 1 (you)"), ``players``/``sheets`` lists become one entry per seat.

Only what is in the seat's observation is shown, so nothing hidden can leak through here.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

__all__ = ["display_panels", "clean"]

Panel = dict[str, Any]
_HEX = re.compile(r"^0x[0-9a-fA-F]+$")
_DROP_KEYS = {"game", "you", "player", "seat", "scores", "score", "id"}
_SEAT_KEYS = {"current_player", "start_player", "active_player", "to_move", "first_player"}
_SEAT_LIST_KEYS = {"active_players", "winners"}
_PER_SEAT_KEYS = {"players", "sheets"}
_MAX_SMALL_INT = 65535


def _title(key: str) -> str:
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _seat_name(names: Sequence[str], seat: int, you: int | None) -> str:
    name = names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"
    return name + (" (you)" if you is not None and seat == you else "")


def _internal(value: Any) -> bool:
    """A value no player needs: a bitset, a sentinel, a hex string, nothing."""
    if value is None:
        return True
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value < 0 or value > _MAX_SMALL_INT
    if isinstance(value, str):
        return bool(_HEX.match(value))
    return False


def clean(value: Any, names: Sequence[str], you: int | None, key: str = "") -> Any:
    """``value`` without internal fields, seat indices as names; ``None`` = leave it out.

    Rules: keys ``game, you, player, seat, scores, score, id``, ``*_id`` and ``_*`` are left
    out; a seat key (``current_player``...) becomes the seat's name (left out if negative);
    a list of as many objects as there are seats under ``players``/``sheets`` becomes an
    object seat name -> entry; booleans read yes/no."""
    if key in _SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return _seat_name(names, value, you) if 0 <= value < len(names) else None
    if key in _SEAT_LIST_KEYS and isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return ", ".join(_seat_name(names, v, you) for v in value) or "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _internal(value):
        return None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            k = str(k)
            if k in _DROP_KEYS or k.endswith("_id") or k.startswith("_"):
                continue
            c = clean(v, names, you, k)
            if c is not None:
                out[_title(k)] = c
        return out
    if isinstance(value, list):
        if key in _PER_SEAT_KEYS and len(value) == len(names) and all(
                isinstance(v, dict) for v in value):
            return {_seat_name(names, i, you): clean(v, names, you) for i, v in enumerate(value)}
        items = [clean(v, names, you) for v in value]
        return [v for v in items if v is not None]
    return value


def _generic(obs: dict[str, Any], names: Sequence[str], you: int | None,
             skip: set[str] = frozenset()) -> list[Panel]:  # type: ignore[assignment]
    out = []
    for k, v in obs.items():
        if k in skip or k in _DROP_KEYS or k.endswith("_id") or k.startswith("_"):
            continue
        c = clean(v, names, you, k)
        if c is None or c == {} or c == []:
            continue
        out.append({"title": _title(k), "value": c})
    return out


def _per_seat(rows: Sequence[Any], names: Sequence[str], you: int | None,
              fn: Callable[[int, dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Seat name -> ``fn(seat, row)``, your own seat first."""
    order = list(range(len(rows)))
    if you is not None and 0 <= you < len(rows):
        order.remove(you)
        order.insert(0, you)
    return {_seat_name(names, i, you): fn(i, rows[i]) for i in order
            if isinstance(rows[i], dict)}


def _nonzero(counts: Any) -> Any:
    if not isinstance(counts, dict):
        return counts
    shown = {k.replace("_", " "): v for k, v in counts.items() if v}
    return shown or "(none)"


# ---------------------------------------------------------------------- Kingdom Builder
def _kingdom_builder(obs: dict[str, Any], names: Sequence[str], you: int | None,
                     terminal: bool) -> list[Panel]:
    xr = obs.get("crossroads") if isinstance(obs.get("crossroads"), dict) else {}
    xr_players = xr.get("players") if isinstance(xr.get("players"), list) else []
    players = obs.get("players") or []

    def player(i: int, row: dict[str, Any]) -> dict[str, Any]:
        card = row.get("card")
        d: dict[str, Any] = {
            "Terrain card": "hidden" if card is None else card.replace("_", " "),
            "Settlements in supply": row.get("supply"),
            "Settlements built": len(row.get("settlements") or []),
            "Location tiles": [f"{str(t['kind']).replace('_', ' ')} ({t['location']}, "
                               f"{t['status']})"
                               for t in row.get("tiles") or []] or "(none)",
        }
        if row.get("lost_tiles"):
            d["Tiles lost"] = list(row["lost_tiles"])
        if i < len(xr_players) and isinstance(xr_players[i], dict):
            x = xr_players[i]
            if "second_card" in x:
                d["Second card"] = ("hidden" if x["second_card"] is None
                                    else str(x["second_card"]).replace("_", " "))
            for k in ("wagon", "ship", "warriors", "city_hall"):
                if x.get(k):
                    d[_title(k)] = ", ".join(x[k])
        return d

    out: list[Panel] = []
    if not terminal:
        cp = obs.get("current_player")
        if isinstance(cp, int) and 0 <= cp < len(names):
            out.append({"title": "To move", "value": _seat_name(names, cp, you)})
        if isinstance(obs.get("turn"), int):
            out.append({"title": "Turn", "value": obs["turn"] + 1})
        if obs.get("final_round"):
            out.append({"title": "Final round", "value": "yes: the game ends after this round"})
    if players:
        out.append({"title": "Players", "value": _per_seat(players, names, you, player)})
    if obs.get("cards"):
        out.append({"title": "Kingdom Builder cards",
                    "value": ", ".join(str(c).replace("_", " ") for c in obs["cards"])})
    if xr.get("tasks"):
        out.append({"title": "Tasks", "value": [f"{t.get('name', t.get('task'))} "
                                                f"({t.get('gold')} gold)" for t in xr["tasks"]]})
    if obs.get("locations"):
        out.append({"title": "Locations", "value": [
            f"{loc['kind'].replace('_', ' ')} at {loc['hex']}: {loc['tiles_left']} tile"
            f"{'' if loc['tiles_left'] == 1 else 's'} left" for loc in obs["locations"]]})
    if xr.get("location_summary"):
        out.append({"title": "Crossroads locations", "value": {
            t["name"]: t["text"] for s in xr["location_summary"] for t in s.get("tiles", [])}})
    for k, title in (("locked_terrain", "Locked terrain"), ("fort_card", "Fort card")):
        if xr.get(k):
            out.append({"title": title, "value": str(xr[k]).replace("_", " ")})
    if isinstance(obs.get("deck_size"), int):
        out.append({"title": "Terrain deck", "value": f"{obs['deck_size']} cards"})
    if obs.get("discard") is not None:
        out.append({"title": "Discard pile", "value": _nonzero(obs["discard"])})
    if isinstance(obs.get("removed"), dict) and any(obs["removed"].values()):
        out.append({"title": "Removed cards", "value": _nonzero(obs["removed"])})
    if obs.get("start_player") is not None and 0 <= obs["start_player"] < len(names):
        out.append({"title": "Start player",
                    "value": _seat_name(names, obs["start_player"], you)})
    if obs.get("sections"):
        out.append({"title": "Board sections", "value": ", ".join(
            str(s[0] if isinstance(s, list) else s).replace("_", " ") for s in obs["sections"])})
    known = {"current_player", "turn", "final_round", "players", "cards", "crossroads",
             "locations", "deck_size", "discard", "removed", "start_player", "sections",
             "mandatory_built"}
    return out + _generic(obs, names, you, known)


# ---------------------------------------------------------------------- Sprawlopolis
def _sprawlopolis(obs: dict[str, Any], names: Sequence[str], you: int | None,
                  terminal: bool) -> list[Panel]:
    out: list[Panel] = []
    if obs.get("hand") is not None:
        out.append({"title": "Your hand",
                    "value": [f"card {c}" for c in obs["hand"]] or "(empty)"})
    if not terminal and isinstance(obs.get("active_player"), int) and len(names) > 1 \
            and 0 <= obs["active_player"] < len(names):
        out.append({"title": "To play", "value": _seat_name(names, obs["active_player"], you)})
    if obs.get("condition_names"):
        out.append({"title": "Scoring conditions", "value": list(obs["condition_names"])})
    score = obs.get("score") if isinstance(obs.get("score"), dict) else {}
    if "target" in obs or "target" in score:
        target = obs.get("target", score.get("target"))
        total = score.get("total")
        line = f"{target} points" + (f" (score now {total})" if total is not None else "")
        out.append({"title": "Target", "value": line})
    sizes = obs.get("hand_sizes")
    if isinstance(sizes, list) and len(sizes) == len(names) and len(names) > 1:
        out.append({"title": "Cards in hand", "value": {
            _seat_name(names, i, you): n for i, n in enumerate(sizes)}})
    if isinstance(obs.get("deck_size"), int):
        out.append({"title": "Deck", "value": f"{obs['deck_size']} cards left"})
    if isinstance(obs.get("placements"), list):
        out.append({"title": "Cards in the city", "value": len(obs["placements"])})
    known = {"conditions", "condition_names", "target", "placements", "grid", "hand_sizes",
             "deck_top", "deck_size", "active_player", "plays", "score", "player", "hand"}
    return out + _generic(obs, names, you, known)


# ---------------------------------------------------------------------- Roll into Town
def _roll_into_town(obs: dict[str, Any], names: Sequence[str], you: int | None,
                    terminal: bool, rounds: int = 12) -> list[Panel]:
    # 12 rounds: Roll into Town rulebook, game play (the observation does not carry it)
    out: list[Panel] = []
    rnd = obs.get("round")
    if terminal:
        out.append({"title": "Round", "value": f"game over after {rounds} rounds"})
    elif isinstance(rnd, int):
        out.append({"title": "Round", "value": f"{min(rnd, rounds)} of {rounds}"
                    + (f" · {obs['phase']}" if obs.get("phase") else "")})
    dice = obs.get("dice") if isinstance(obs.get("dice"), list) else []
    if dice and not terminal and obs.get("phase") != "roll":  # (roll: last round's dice)
        used = set(obs.get("used_dice") or [])
        adjusted = set(obs.get("adjusted_dice") or [])
        out.append({"title": "Your dice", "value": ", ".join(
            f"{v}" + (" (adjusted)" if i in adjusted else "") for i, v in enumerate(dice))})
        out.append({"title": "Dice left to use",
                    "value": ", ".join(str(v) for i, v in enumerate(dice) if i not in used)
                    or "(none)"})
    if obs.get("icons_to_draw"):
        out.append({"title": "Icons to draw", "value": obs["icons_to_draw"]})
    act = obs.get("active_players")
    if not terminal and isinstance(act, list) and len(names) > 1:
        out.append({"title": "Still to play this round",
                    "value": ", ".join(_seat_name(names, p, you) for p in act) or "(none)"})

    def sheet(_: int, row: dict[str, Any]) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for k in ("food", "stone", "wood"):
            if k in row:
                d[_title(k)] = row[k]
        for k in ("town_hall_uses_left", "fountain_uses_left"):
            if k in row:
                d[_title(k)] = row[k]
        if "river_connects" in row:
            d["River connects"] = "yes" if row["river_connects"] else "no"
        for k, v in row.items():
            if k not in d and _title(k) not in d and k != "map":
                c = clean(v, names, you, k)
                if c is not None:
                    d[_title(k)] = c
        return d

    if isinstance(obs.get("sheets"), list):
        out.append({"title": "Resources", "value": _per_seat(obs["sheets"], names, you, sheet)})
    known = {"round", "phase", "rolled", "dice", "used_dice", "adjusted_dice", "icons_to_draw",
             "active_players", "sheets"}
    return out + _generic(obs, names, you, known)


# ---------------------------------------------------------------------- Roll Builder
def _roll_builder(obs: dict[str, Any], names: Sequence[str], you: int | None,
                  terminal: bool) -> list[Panel]:
    out: list[Panel] = []
    if obs.get("sheet"):
        out.append({"title": "Sheet", "value": str(obs["sheet"])})
    if isinstance(obs.get("turn"), int):
        out.append({"title": "Turn", "value": "game over" if terminal
                    else f"{obs['turn']} of 15"})
    if obs.get("dice") and not terminal:
        out.append({"title": "Dice", "value": ", ".join(str(v) for v in obs["dice"])})
    if obs.get("turn_list"):
        out.append({"title": "Rolls so far", "value": " · ".join(
            "+".join(str(v) for v in r) if isinstance(r, list) else str(r)
            for r in obs["turn_list"])})

    def player(_: int, row: dict[str, Any]) -> dict[str, Any]:
        def bits(k: str) -> int:
            v = row.get(k)
            if isinstance(v, str) and _HEX.match(v):
                v = int(v, 16)
            return bin(v).count("1") if isinstance(v, int) and v >= 0 else 0

        d: dict[str, Any] = {
            "Roads drawn": len(row.get("roads_named") or []),
            "Buildings": sum(row.get("bcount") or []),
            "Innovations discovered": bits("discovered"),
            "Wonder boxes filled": bits("filled"),
            "Favor": row.get("favor"),
            "Strength": row.get("strength"),
        }
        if isinstance(row.get("w_marked"), int) and isinstance(row.get("w_spent"), int):
            d["Wealth stored"] = row["w_marked"] - row["w_spent"]
        if not terminal and "done" in row:
            d["Done this turn"] = "yes" if row["done"] else "no"
        return {k: v for k, v in d.items() if v is not None}

    if isinstance(obs.get("players"), list):
        out.append({"title": "Sheets", "value": _per_seat(obs["players"], names, you, player)})
    known = {"turn", "dice", "turn_list", "over", "players", "sheet"}
    return out + _generic(obs, names, you, known)


_GAMES: dict[str, Callable[..., list[Panel]]] = {
    "kingdom-builder": _kingdom_builder,
    "sprawlopolis": _sprawlopolis,
    "roll-into-town": _roll_into_town,
    "roll-builder": _roll_builder,
}


def display_panels(game: str, obs: Any, names: Sequence[str], you: int | None,
                   terminal: bool) -> list[Panel]:
    """The panels of seat ``you``'s observation ``obs`` of game ``game`` (see module doc).

    ``names``: the seat names in seat order; ``you``: the viewing seat, or None on a replay
    without a seat of one's own (no "(you)"). Never raises: a game-specific layout that fails
    falls back to the generic one."""
    if not isinstance(obs, dict):
        return []
    own = obs.get("display")
    if isinstance(own, dict):
        return [{"title": str(k), "value": v} for k, v in own.items()]
    fn = _GAMES.get(game)
    if fn is not None:
        try:
            return fn(obs, names, you, terminal)
        except Exception:  # noqa: BLE001 - an unexpected observation shape: generic panels
            pass
    return _generic(obs, names, you)
