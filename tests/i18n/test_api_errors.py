"""The web API's own refusals in the request's language (``?lang=`` or the ``cb_lang``
cookie): unknown routes (404), wrong methods (405), path parameters of the wrong type
(pydantic's validation) and bodies over the size limit (413). The JSON key stays ``error``;
without a language the messages are English."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from citybuilders.server import create_app
from jsonpaths import field_paths

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("api-errors") / "db.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", max_body=1000)) as c:
        yield c


def test_unknown_route_and_wrong_method(client):
    r = client.get("/api/nothing-here?lang=zh-Hant")
    assert r.status_code == 404
    assert r.json() == {"error": "/api/nothing-here：沒有這個頁面或 API 端點（請見 /api/docs）"}
    r = client.delete("/api/games?lang=pt-BR")
    assert r.status_code == 405
    assert r.json()["error"].startswith("DELETE /api/games: ")
    assert "not allowed" not in r.json()["error"]
    assert client.get("/api/nothing-here").json() == {
        "error": "/api/nothing-here: no such page or API endpoint (see /api/docs)"}


def test_path_parameter_of_the_wrong_type(client):
    r = client.post("/api/games/abc/seats/x/reissue?lang=zh-Hant")
    assert r.status_code == 400
    assert r.json() == {"error": "path.seat: 應為整數"}
    client.cookies.set("cb_lang", "pt_BR")
    try:
        r = client.post("/api/games/abc/seats/x/reissue")
        assert r.json() == {"error": "path.seat: esperava um número inteiro"}
    finally:
        client.cookies.clear()
    r = client.post("/api/games/abc/seats/x/reissue")
    assert r.json()["error"].startswith("path.seat: Input should be a valid integer")


def test_body_over_the_limit(client):
    r = client.post("/api/games?lang=zh-Hant", content=b"{" + b" " * 2000 + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert HAN.search(r.json()["error"]) and "1000" in r.json()["error"]
    assert "larger" not in r.json()["error"]
    r = client.post("/api/games", content=b"{" + b" " * 2000 + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.json() == {"error": "body: larger than 1000 bytes"}


def test_score_file_problems_in_the_readers_language(client):
    """The score calculator's 400 answers: the calculator's message in the page's language,
    its field (the file's own key) unchanged; English without a language."""
    bad = {"conditions": [1, 2, 3], "cards": []}
    r = client.post("/api/score/sprawlopolis?lang=pt-BR", json=bad)
    assert r.status_code == 400
    assert r.json()["error"] == ("cards: esperava-se uma lista não vazia de objetos "
                                 "{card, row, col, rot}")
    assert r.json()["field"] == "cards"
    r = client.post("/api/score/sprawlopolis?lang=zh-Hant", json=bad)
    assert r.status_code == 400 and r.json()["field"] == "cards"
    assert r.json()["error"].startswith("cards") and HAN.search(r.json()["error"])
    r = client.post("/api/score/sprawlopolis", json=bad)
    assert r.json()["error"] == "cards: expected a non-empty list of {card, row, col, rot} objects"


EXAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "score"
BROKEN = ["zz", -1, 99, None, [], {}, ["zz"], [[99, 99]], ["0,0"], [["zz", 1]], "c:+HO",
          10 ** 30]
"""What each field of an example score file is replaced with, one at a time."""
OPTION_FIELDS = [("options", "lords_zero_scores"), ("options", "zz"), ("options", "sections_doc"),
                 ("options", "start_player")]
"""Rules options broken the same way (a file's ``options``)."""
# words of the English catalogs a Portuguese message may still show: the JSON type name of
# the "must be of type list" check, Python's None, "hex" inside "hexágono" (the word scan
# stops at accented letters), the notation {box: value} and an option named cols
IDS = {"list", "none", "hex", "value", "cols"}


def _english_left(message: str, data: dict) -> set[str]:
    """English catalog words in a Portuguese message, leaving out what is the file's or the
    notation's: quoted, bracketed or underscored text, the ids after "permitid..." and any
    word of the file itself."""
    import json

    from catalogs import english_words

    text = re.sub(r"'[^']*'|\"[^\"]*\"|\b\w*_\w*\b|\[[^\]]*\]|permitid\w*:[^;]*", " ", message)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)} & english_words()
    return {w for w in words - IDS - _ids() if w not in json.dumps(data).lower()}


def _ids() -> set[str]:
    """Values a message lists as they are typed: sheet ids, board section ids, option names
    and choices of every game."""
    from citybuilders.core.registry import game_class
    from citybuilders.games.kingdom_builder.loader import section_data
    from citybuilders.games.roll_builder.loader import shipped_sheet_names

    out = set(shipped_sheet_names()) | set(section_data())
    for name in ("kingdom-builder", "sprawlopolis", "roll-into-town", "roll-builder"):
        for o in game_class(name).option_specs:
            out |= {o.name, *(str(c) for c in (o.choices or ()))}
    return {w.lower() for i in out for w in re.findall(r"[A-Za-z]{3,}", i)}


def test_every_score_file_refusal_is_translated(client):
    """Each field of each example score file (and its rules options) broken twelve ways:
    every 400 answer reads differently from English in pt-BR and in zh-Hant, and the
    Portuguese one has no English word left (a message raised without ``N_`` comes out
    English in every language, as Roll Builder's "bad edge 'zz'" did; an English part inside
    a translated one, as "... of kingdom-builder" or Sprawlopolis's placement reasons did)."""
    import copy
    import json

    english, mixed = [], []
    for path in sorted(EXAMPLES.glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))
        game = example["game"]
        for fields in [*field_paths(example, items=2), *OPTION_FIELDS]:
            if fields in ((), ("game",)):
                continue
            for bad in BROKEN:
                data = copy.deepcopy(example)
                box = data
                for k in fields[:-1]:
                    box = box.setdefault(k, {}) if isinstance(box, dict) else box[k]
                box[fields[-1]] = bad
                en = client.post(f"/api/score/{game}", json=data)
                assert en.status_code in (200, 400), (game, fields, bad)
                if en.status_code == 200:
                    continue
                for lang in ("pt-BR", "zh-Hant"):
                    other = client.post(f"/api/score/{game}?lang={lang}", json=data).json()
                    assert other["field"] == en.json()["field"]
                    if other["error"] == en.json()["error"]:
                        english.append((game, fields, bad, lang, other["error"]))
                    elif lang == "pt-BR" and _english_left(other["error"], data):
                        mixed.append((game, fields, bad, _english_left(other["error"], data),
                                      other["error"]))
    assert english == []
    assert mixed == []
