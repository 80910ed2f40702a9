"""The lobby (home page) as a new player reads it (new-user trial, items 7, 8 and 14): the
bot menu in level order, "My games" with the game's title, players, last move and whose turn,
seat names given by default in the reader's language, thumbnails in the page's language, a
co-operative game's quick button, and ``?lang=`` remembered beyond its page."""

from __future__ import annotations

import re

from citybuilders.bots import bot_names

LEVEL_ORDER = ["easy", "normal", "hard", "expert"]


def test_bot_menu_lists_the_levels_from_easy_to_expert_then_the_named_bots(client):
    html = client.get("/").text
    form = html[html.index('id="new-kingdom-builder"'):]
    seat = form[form.index('name="seat1"'):form.index("</select>", form.index('name="seat1"'))]
    bots = re.findall(r'value="bot:(\w+)"', seat)
    others = sorted(set(bot_names()) - set(LEVEL_ORDER))
    assert bots == LEVEL_ORDER + others, bots


def test_my_games_names_title_players_last_move_and_turn(client):
    r = client.post("/new", data={"game": "kingdom-builder", "num_players": "2",
                                  "seat0": "human", "name0": "Ana", "seat1": "bot:expert"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = r.headers["location"].split("/play/")[1].split("?")[0]
    html = client.get("/?lang=zh-Hant").text
    row = html[html.index(f'data-game-id="{gid}"'):]
    row = row[:row.index("</tr>")]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
    assert cells[0] == "Kingdom Builder" and gid not in cells[0]
    assert cells[1].startswith("Ana （你）"), cells  # this browser's seat
    assert "專家" in cells[1], cells  # the bot's default name in the reader's language
    assert cells[2].startswith("進行中") and "輪到" in cells[2], cells
    assert re.search(r"\d", cells[3]), cells  # the date and time of the last move


def test_a_default_bot_name_reads_in_the_readers_language(client):
    r = client.post("/api/games", json={"game": "kingdom-builder", "seats": [
        {"kind": "human", "name": "Ana"}, {"kind": "bot", "bot": "expert"}]})
    assert r.status_code == 201
    d = r.json()
    assert d["seats"][1]["name"] == "Expert (bot)"  # stored in the creator's language
    tok = d["seats"][0]["token"]
    zh = client.get(f"/api/games/{d['id']}/view?lang=zh-Hant", headers={"X-Seat-Token": tok})
    pt = client.get(f"/api/games/{d['id']}/view?lang=pt-BR", headers={"X-Seat-Token": tok})
    en = client.get(f"/api/games/{d['id']}/view", headers={"X-Seat-Token": tok})
    names = [v.json()["seats"][1]["name"] for v in (zh, pt, en)]
    assert names[0] != "Expert (bot)" and "Expert" not in names[0], names
    assert names[1] == "Especialista (robô)", names
    assert names[2] == "Expert (bot)"
    assert zh.json()["seats"][0]["name"] == "Ana"  # a name a person gave stays as given
    page = client.get(f"/play/{d['id']}?t={tok}&lang=zh-Hant").text
    assert names[0] in page and "Expert (bot)" not in page


def test_thumbnails_speak_the_page_language_and_show_one_sheet(client):
    html = client.get("/?lang=zh-Hant").text
    assert 'src="/thumb/sprawlopolis.svg?lang=zh_Hant"' in html
    zh = client.get("/thumb/sprawlopolis.svg?lang=zh_Hant").text
    en = client.get("/thumb/sprawlopolis.svg").text
    assert "target" in en and "target" not in zh and "next: card" not in zh
    # a roll-and-write's picture is the sheet of one player, not a row of miniature sheets
    rit = client.get("/thumb/roll-into-town.svg").text
    assert "P2" not in rit


def test_a_cooperative_game_offers_to_play_with_a_bot(client):
    html = client.get("/").text
    spr = html[html.index('id="card-sprawlopolis"'):]
    spr = spr[:spr.index("</article>")]
    kb = html[html.index('id="card-kingdom-builder"'):]
    assert "Play with a bot" in spr and "Play vs bot" not in spr
    assert "Play vs bot" in kb[:kb.index("</article>")]


def test_lang_in_a_page_address_is_remembered_for_the_next_pages(client):
    client.cookies.clear()
    r = client.get("/?lang=pt-BR")
    assert r.cookies.get("cb_lang") == "pt_BR" or "cb_lang=pt_BR" in r.headers.get("set-cookie", "")
    r = client.post("/new", data={"game": "sprawlopolis", "num_players": "1", "seat0": "human"})
    assert r.status_code == 200 and '<html lang="pt-BR"' in r.text, r.text[:200]
    # API calls and pictures never change it; the switch still does
    client.get("/thumb/sprawlopolis.svg?lang=zh-Hant")
    client.get("/api/games?lang=zh-Hant")
    assert '<html lang="pt-BR"' in client.get("/").text
    client.get("/lang/en?next=/")
    assert '<html lang="en"' in client.get("/").text
