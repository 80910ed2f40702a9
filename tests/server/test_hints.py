"""GET /api/games/{id}/hint: the hard level's move for the token's seat, on its turn only,
computed from that seat's information state alone."""

from __future__ import annotations

import random
import time

import citybuilders
from citybuilders.core.game import CHANCE
from citybuilders.server.hints import compute_hint, hint_state

H = "X-Seat-Token"


def create(client, game, seats, **extra):
    r = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["id"], [s.get("token") for s in d["seats"]]


def test_hint_on_my_turn_is_a_legal_move_with_notation_and_path(client):
    gid, toks = create(client, "kingdom-builder", [{"kind": "human"}, {"kind": "human"}])
    v = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    mover = v["current_player"]
    t0 = time.perf_counter()
    r = client.get(f"/api/games/{gid}/hint", params={"t": toks[mover]})
    # the hard level searches 0.25 s; the bound leaves room for a loaded test machine
    assert time.perf_counter() - t0 < 2.5
    assert r.status_code == 200, r.text
    h = r.json()
    assert set(h) == {"action", "text", "path", "state_id", "level"}
    assert h["level"] == "hard" and h["state_id"] == v["state_id"]
    # a sentence a person reads, not the notation "build 11,4" (new-user item 11)
    assert h["text"].startswith("build a settlement on hex ")
    assert h["path"] == [f"hex:{h['text'].split()[-1]}"]
    # the hint is a move the seat may play: acting on it is accepted
    r = client.post(f"/api/games/{gid}/act", headers={H: toks[mover]},
                    json={"state_id": h["state_id"], "action": h["action"]})
    assert r.status_code == 200, r.text
    # asked again for the same state: the same answer (computed once)
    again = client.get(f"/api/games/{gid}/hint", params={"t": toks[mover]}).json()
    assert again["state_id"] == h["state_id"] + 1


def test_hint_errors_are_clear(client):
    gid, toks = create(client, "kingdom-builder", [{"kind": "human"}, {"kind": "human"}])
    v = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    mover = v["current_player"]
    waiting = 1 - mover
    r = client.get(f"/api/games/{gid}/hint", params={"t": toks[waiting]})
    assert r.status_code == 409
    assert r.json()["error"] == f"not your turn: hints are for the seat to move (to act: P{mover + 1})"
    r = client.get(f"/api/games/{gid}/hint")
    assert r.status_code == 401 and "missing seat token" in r.json()["error"]
    r = client.get(f"/api/games/{gid}/hint", params={"t": "nope"})
    assert r.status_code == 403
    r = client.get(f"/api/games/{gid}/hint", params={"t": toks[mover], "level": "expert"})
    assert r.status_code == 400
    assert r.json()["error"] == "unknown query parameter 'level'; allowed: t, token, lang"
    r = client.get("/api/games/doesnotexist/hint", params={"t": toks[mover]})
    assert r.status_code == 404


def test_no_hint_after_the_game_is_over(client):
    gid, toks = create(client, "toy", [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                       options={"turns": 1})
    for _ in range(50):
        v = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
        if v["terminal"]:
            break
        if 0 in v["active_players"] and v["legal"]:
            client.post(f"/api/games/{gid}/act", headers={H: toks[0]},
                        json={"state_id": v["state_id"], "action": v["legal"][0]["action"]})
        time.sleep(0.05)
    assert v["terminal"]
    r = client.get(f"/api/games/{gid}/hint", params={"t": toks[0]})
    assert r.status_code == 409 and r.json()["error"] == "the game is over: no hint"


def _kb_position(seed: int):
    g = citybuilders.load_game("kingdom-builder")
    s = g.new_initial_state(3, seed)
    rng = random.Random(seed)
    for _ in range(40):
        if s.current_player() == CHANCE:
            s.apply_legal(s.sample_chance(rng))
        else:
            s.apply_legal(s.sample_action(rng))
    while s.current_player() == CHANCE:
        s.apply_legal(s.sample_chance(rng))
    return s


def test_the_hint_bot_sees_only_the_seats_information_state():
    """Two positions that differ only in another seat's hidden card give the hint bot the very
    same position to search (and so the same hint for the same seed)."""
    s = _kb_position(4)
    me = s.current_player()
    other = next(q for q in range(s.num_players)
                 if q != me and s.visible_hand(q, me) is None)
    # the same position with the other seat's hidden card swapped for one from the deck
    t = s.clone()
    new = next(c for c in range(5) if t.deck[c] and c != t.hand[other])
    t.deck[new] -= 1
    t.deck[t.hand[other]] += 1
    t.hand[other] = new
    t._history[t.last_draw[other]] = (t._history[t.last_draw[other]][0], new)
    assert t.information_state_key(me) == s.information_state_key(me)
    assert t.to_json() != s.to_json()
    a = hint_state(s, me, random.Random(11))
    b = hint_state(t, me, random.Random(11))
    assert a.to_json() == b.to_json()
    assert compute_hint(s, me, 5) == compute_hint(t, me, 5)


# a hint's move as a sentence in the reader's words (new-user item 11: "play 15 at 0,0 rot
# 180", "Dica: d2 montanha 3,6", "Dica: concluir" were notation)
SENTENCES = {
    "sprawlopolis": [("play 15 at 0,0 rot 180", "play card 15 turned upside down, its top-left "
                      "block on row 0, column 0"),
                     ("play 6 at -1,2", "play card 6 with its top-left block on row -1, column 2")],
    "roll-into-town": [("d2 mountain 3,6", "die 2: draw mountain on row 3, column 6"),
                       ("d1 river NS 0,4", "die 1: draw a river flowing NS on row 0, column 4"),
                       ("adjust d1 -1", "town hall: change die 1 by -1"),
                       ("build quarry 3,4", "build: quarry on row 3, column 4"),
                       ("sides NW", "the coast's water on side(s) NW"),
                       ("done", "nothing more to do in this phase: finish it")],
    "roll-builder": [("done", "nothing more worth doing: end your turn")],
    "kingdom-builder": [("build 11,4", "build a settlement on hex 11,4"),
                        ("end", "end your turn"),
                        ("paddock 3,4>5,4", "paddock: move a settlement from hex 3,4 to hex 5,4"),
                        ("oracle 2,3", "oracle: build a settlement on hex 2,3")],
}


def test_every_game_says_its_hints_in_words_in_every_language():
    import re

    from citybuilders.core.registry import load_game

    for game, cases in SENTENCES.items():
        view = load_game(game).view
        for notation, english in cases:
            assert view.move_words(notation, "en") == english, notation
            zh = view.move_words(notation, "zh_Hant")
            pt = view.move_words(notation, "pt_BR")
            assert zh and pt and zh != english and pt != english, (notation, zh, pt)
            # no English word left in Chinese (side letters and digits are notation)
            assert not re.findall(r"[A-Za-z]{3,}", zh), (notation, zh)
        assert view.move_words("no such move", "en") is None


def test_the_hint_endpoint_answers_a_sentence_in_the_page_language(client):
    gid, toks = create(client, "sprawlopolis", [{"kind": "human"}], seed=4)
    v = client.get(f"/api/games/{gid}/view", headers={H: toks[0]}).json()
    assert v["current_player"] == 0
    en = client.get(f"/api/games/{gid}/hint", params={"t": toks[0]}).json()
    zh = client.get(f"/api/games/{gid}/hint", params={"t": toks[0], "lang": "zh-Hant"}).json()
    assert en["text"].startswith("play card ") and " at " not in en["text"], en
    assert zh["text"].startswith("打出卡片 "), zh
