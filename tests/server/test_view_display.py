"""The human-readable side of a view: the "Your view" panels (``view["display"]``), the end
screen's result line (``result.summary``/``outcome``) and "(you)" only for one's own seat.

From a new-user trial: raw observations showed ``Current Player -4``, bitsets such as
``roads 0x108000...``, die indices and ``Round 13`` of a 12-round game; co-op and solo end
screens did not say won/lost or the rank; imported replays called seat 1 "Player 1 (you)".
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

from citybuilders.core.registry import load_game, registered_games
from citybuilders.server.display import clean, display_panels
from citybuilders.server.manager import _jsonable, _result_summary

H = "X-Seat-Token"
NAMES = ["Ann", "Bob"]


def need(game: str) -> None:
    if game not in registered_games():
        pytest.skip("game not registered")


def random_game(name: str, n: int, seed: int = 5, stop: int | None = None, **opts):
    """A game of random moves (to the end, or after ``stop`` history entries)."""
    g = load_game(name, **opts)
    s = g.new_initial_state(n, seed)
    rng = random.Random(seed)
    while not s.is_terminal() and (stop is None or len(s._history) < stop):
        if s.current_player() == -1:
            s.apply_legal(s.sample_chance(rng))
        else:
            p = s.active_players()[0]
            s.apply_action(rng.choice(s.legal_actions(p)), p)
    return s


def panels_of(state, you=0):
    names = [f"Player {i + 1}" for i in range(state.num_players)]
    obs = _jsonable(state.observation(you))
    return display_panels(state.game.name, obs, names, you, state.is_terminal())


def leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def assert_readable(panels):
    text = json.dumps(panels)
    assert "0x" not in text
    for leaf in leaves(panels):
        if isinstance(leaf, int) and not isinstance(leaf, bool):
            assert 0 <= leaf <= 65535, (leaf, panels)
    titles = [p["title"] for p in panels]
    assert "Current player" not in titles and "Adjusted dice" not in titles, titles


# ---------------------------------------------------------------------- generic rules
def test_clean_drops_internal_values_and_names_seats():
    obs = {"current_player": -4, "start_player": 1, "roads": "0x1080000000800000",
           "bld1": 274877906944, "turn": 3, "done": True, "id": 7, "game_id": "abc",
           "you": 0, "scores": [1], "card": None, "active_players": [0, 1],
           "players": [{"supply": 3, "mask": 1 << 40}, {"supply": 5, "mask": 0}],
           "tiles": ["tavern"]}
    assert clean(obs, NAMES, 0) == {
        "Start player": "Bob", "Turn": 3, "Done": "yes",
        "Active players": "Ann (you), Bob",
        "Players": {"Ann (you)": {"Supply": 3}, "Bob": {"Supply": 5, "Mask": 0}},
        "Tiles": ["tavern"]}
    assert clean({"current_player": 1}, NAMES, None) == {"Current player": "Bob"}


def test_unknown_game_gets_generic_panels_and_a_display_hook_wins():
    obs = {"hand": [3, 4], "current_player": -1, "bits": "0xff"}
    assert display_panels("other", obs, NAMES, 1, False) == [{"title": "Hand",
                                                              "value": [3, 4]}]
    obs["display"] = {"Your hand": "3, 4"}
    assert display_panels("other", obs, NAMES, 1, False) == [{"title": "Your hand",
                                                              "value": "3, 4"}]
    assert display_panels("other", None, NAMES, 1, False) == []


# ---------------------------------------------------------------------- each game
def test_kingdom_builder_panels_mid_game_and_at_the_end():
    need("kingdom-builder")
    mid = random_game("kingdom-builder", 2, stop=14)
    p = {x["title"]: x["value"] for x in panels_of(mid)}
    assert p["To move"] == f"Player {mid.current_player() + 1}" + (
        " (you)" if mid.current_player() == 0 else "")
    assert p["Turn"] == mid.observation(0)["turn"] + 1
    me = p["Players"]["Player 1 (you)"]
    obs = mid.observation(0)
    assert me["Settlements in supply"] == obs["players"][0]["supply"]
    assert me["Settlements built"] == len(obs["players"][0]["settlements"])
    assert list(p["Players"])[0] == "Player 1 (you)"
    # the cards by their names (issue 13: panel values in words, translated), not their ids
    from citybuilders.games.kingdom_builder.texts import CARD_NAMES
    assert p["Kingdom Builder cards"] == ", ".join(CARD_NAMES[c] for c in obs["cards"])
    assert_readable(panels_of(mid))
    end = random_game("kingdom-builder", 2)
    assert end.observation(0)["current_player"] < 0  # the sentinel that used to show
    panels = panels_of(end)
    assert_readable(panels)
    titles = [x["title"] for x in panels]
    assert "To move" not in titles and "Turn" not in titles


def test_kingdom_builder_crossroads_panels():
    need("kingdom-builder")
    st = random_game("kingdom-builder", 2, stop=40, expansions=["crossroads"])
    panels = panels_of(st)
    assert_readable(panels)
    p = {x["title"]: x["value"] for x in panels}
    assert "Tasks" in p and all("gold" in t for t in p["Tasks"])
    assert "Second card" in p["Players"]["Player 1 (you)"]
    assert p["Players"]["Player 2"]["Second card"] in ("hidden", "none")


def test_sprawlopolis_panels_show_hand_conditions_target():
    need("sprawlopolis")
    st = random_game("sprawlopolis", 2, stop=8)
    obs = st.observation(0)
    p = {x["title"]: x["value"] for x in panels_of(st)}
    assert p["Your hand"] == [f"card {c}" for c in obs["hand"]]
    assert p["Scoring conditions"] == obs["condition_names"]
    assert p["Target"].startswith(f"{obs['target']} points")
    assert p["Cards in hand"] == {"Player 1 (you)": obs["hand_sizes"][0],
                                  "Player 2": obs["hand_sizes"][1]}
    assert "Grid" not in p and "Placements" not in p
    assert_readable(panels_of(st))


def test_roll_into_town_panels_show_dice_values_and_a_sane_round():
    need("roll-into-town")
    for stop in range(5, 40):
        st = random_game("roll-into-town", 1, stop=stop)
        obs = st.observation(0)
        if obs["phase"] == "build" and obs["used_dice"]:
            break
    p = {x["title"]: x["value"] for x in panels_of(st)}
    assert p["Round"] == f"{obs['round']} of 12 · build"
    assert p["Your dice"].replace(" (adjusted)", "") == ", ".join(map(str, obs["dice"]))
    left = [v for i, v in enumerate(obs["dice"]) if i not in obs["used_dice"]]
    assert p["Dice left to use"] == (", ".join(map(str, left)) or "(none)")
    assert p["Resources"]["Player 1 (you)"]["Food"] == obs["sheets"][0]["food"]
    assert_readable(panels_of(st))
    end = random_game("roll-into-town", 1)
    assert end.observation(0)["round"] == 13  # what used to show as "Round 13"
    panels = panels_of(end)
    assert {"title": "Round", "value": "game over after 12 rounds"} in panels
    assert "13" not in json.dumps(panels[0])
    assert_readable(panels)


def test_roll_builder_panels_have_no_bitsets():
    need("roll-builder")
    st = random_game("roll-builder", 1, stop=30)
    raw = json.dumps(st.observation(0))
    assert "0x" in raw  # the raw observation is full of bitsets
    panels = panels_of(st)
    assert_readable(panels)
    p = {x["title"]: x["value"] for x in panels}
    obs = st.observation(0)
    me = p["Sheets"]["Player 1 (you)"]
    assert me["Roads drawn"] == len(obs["players"][0]["roads_named"])
    assert me["Favor"] == obs["players"][0]["favor"]
    assert p["Turn"] == f"{obs['turn']} of 15"


# ---------------------------------------------------------------------- result line
def _fake(coop: bool, n: int, totals, info, returns=None):
    names = [f"P{i + 1}" for i in range(n)]
    lg = SimpleNamespace(game=SimpleNamespace(cooperative=coop),
                         row=SimpleNamespace(seats=[
                             SimpleNamespace(name=x, kind="human", bot=None, seat=i)
                             for i, x in enumerate(names)]))
    st = SimpleNamespace(num_players=n,
                         scores=lambda: [SimpleNamespace(total=t) for t in totals],
                         returns=lambda: returns or [0.0] * n)
    return lg, st


def test_result_summary_cooperative_won_and_lost_solo_rank_and_winners():
    lg, st = _fake(True, 1, [45], {"won": True, "target": 41})
    assert _result_summary(lg, st, [], {"won": True, "target": 41}, 0) == {
        "summary": "You won! Score 45, target 41 reached", "outcome": "won"}
    lg, st = _fake(True, 2, [14, 14], {})
    assert _result_summary(lg, st, [], {"won": False, "target": 41}, 1) == {
        "summary": "Together you lost: score 14, target 41 not reached", "outcome": "lost"}
    lg, st = _fake(False, 1, [23], {})
    assert _result_summary(lg, st, [0], {"rank": "Hamlet"}, 0) == {
        "summary": "Final score: 23 · your rank: Hamlet", "outcome": None}
    lg, st = _fake(False, 3, [5, 9, 9], {})
    assert _result_summary(lg, st, [1, 2], {}, 1) == {
        "summary": "Shared win: P2 (you), P3", "outcome": "won"}
    assert _result_summary(lg, st, [1], {}, 0)["outcome"] == "lost"
    assert _result_summary(lg, st, [1], {}, None) == {"summary": "Winner: P2",
                                                       "outcome": None}


def _import(client, state):
    from citybuilders.core.records import record_of

    r = client.post("/api/records", json=record_of(state).to_json())
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("name,n,expect", [
    ("sprawlopolis", 1, "target"), ("roll-into-town", 1, "your rank: "),
    ("roll-builder", 1, "your rank: "), ("kingdom-builder", 2, "Winner"),
])
def test_end_view_has_the_result_line(client, name, n, expect):
    need(name)
    st = random_game(name, n)
    gid = _import(client, st)
    v = client.get(f"/api/games/{gid}/replay?seat=0").json()
    assert v["terminal"] and expect in v["result"]["summary"]
    info = st.result_info()
    if name == "sprawlopolis":
        word = "won" if info["won"] else "lost"
        assert v["result"]["outcome"] == word
        assert v["result"]["summary"].startswith(f"You {word}")
        assert str(info["target"]) in v["result"]["summary"]
    elif n == 1:
        assert v["result"]["summary"].endswith(info["rank"])


def test_imported_replay_has_no_you_and_token_replay_has_it(client):
    gid = _import(client, random_game("toy", 2, seed=3))
    for seat in (0, 1):
        v = client.get(f"/api/games/{gid}/replay?seat={seat}").json()
        assert v["seat"] == seat and v["you"] is None
        assert "(you)" not in json.dumps(v["display"])
    html = client.get(f"/replay/{gid}").text
    assert '"seat_names": ["Player 1", "Player 2"]' in html
    r = client.post("/api/games", json={"game": "toy", "seats": [{"kind": "human"},
                                                                  {"kind": "human"}]})
    info = r.json()
    tok = info["seats"][1]["token"]
    v = client.get(f"/api/games/{info['id']}/view", headers={H: tok}).json()
    assert v["you"] == 1 and isinstance(v["display"], list)
    v = client.get(f"/api/games/{info['id']}/replay", headers={H: tok}).json()
    assert v["you"] == 1


def test_favicon_is_served_and_linked(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.content.startswith(b"<svg")
    assert client.get("/static/favicon.svg").status_code == 200
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").text


def test_replay_buttons_use_no_media_control_glyphs(client):
    gid = _import(client, random_game("toy", 2, seed=3))
    html = client.get(f"/replay/{gid}").text
    for glyph in "⏮⏭◀▶":
        assert glyph not in html
    assert html.count('class="ico"') == 4


def test_seat_rows_hidden_attribute_wins_over_inline_block():
    from pathlib import Path

    import citybuilders.server as server

    css = (Path(server.__file__).parent / "static" / "style.css").read_text()
    assert ".seat-row[hidden]" in css and "display: none" in css
    # no highlight stroke on text labels
    # (a highlight stroke rule names the shapes it outlines, or excludes text)
    shapes = ("polygon", "rect", "circle", "line", "path")
    for line in css.splitlines():
        if "stroke-width: 3px" in line or "stroke-width: 4px" in line:
            sels = line.split("{")[0].split(",")
            assert "> *" not in line and all(
                ":not(text)" in s or s.split()[-1].startswith(shapes) for s in sels), line
