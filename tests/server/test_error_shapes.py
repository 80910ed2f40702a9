"""Every API error has the server's shape ``{"error": ...}``; pages get the HTML error page.

From the robustness pass: deeply nested JSON (RecursionError in the parser), non-ASCII seat
tokens (compare_digest TypeError) and unmatched routes (FastAPI's ``{"detail": ...}``).
"""

from __future__ import annotations

import pytest

H = "X-Seat-Token"


def create(client):
    r = client.post("/api/games", json={"game": "toy", "seats": [{"kind": "human"},
                                                                  {"kind": "human"}]})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("path", ["/api/games", "/api/records"])
def test_deeply_nested_json_body_is_400(client, path):
    r = client.post(path, content=b"[" * 50000 + b"]" * 50000,
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json() == {"error": "body: JSON nested too deeply"}


def test_deeply_nested_json_act_body_is_400_and_game_untouched(client):
    info = create(client)
    tok = info["seats"][0]["token"]
    r = client.post(f"/api/games/{info['id']}/act", content=b"{\"a\":" * 30000 + b"1"
                    + b"}" * 30000, headers={H: tok, "content-type": "application/json"})
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]
    assert client.get(f"/api/games/{info['id']}/view", headers={H: tok}).json()["state_id"] \
        == info["state_id"]


def test_deeply_nested_record_import_page_is_400_html(client):
    r = client.post("/import", files={"file": ("r.json", b"[" * 50000 + b"]" * 50000)})
    assert r.status_code == 400 and "nested too deeply" in r.text
    assert "<html" in r.text


@pytest.mark.parametrize("how", ["header", "query", "body"])
def test_non_ascii_token_is_403(client, how):
    info = create(client)
    url = f"/api/games/{info['id']}"
    if how == "header":
        r = client.get(url + "/view", headers={H: "é".encode()})
    elif how == "query":
        r = client.get(url + "/view?token=%C3%A9%F0%9F%98%80")
    else:
        # a lone surrogate escaped in JSON: json.loads gives a str that cannot encode to UTF-8
        r = client.post(url + "/act", content=b'{"state_id": 0, "action": 0, '
                        b'"token": "\\udcff \xc3\xa9"}',
                        headers={"content-type": "application/json"})
    assert r.status_code == 403, r.text
    assert r.json() == {"error": "token: this token does not hold a seat of this game"}


def test_non_ascii_token_on_play_page_and_websocket(client):
    info = create(client)
    r = client.get(f"/play/{info['id']}?t=%C3%A9")
    assert r.status_code == 403 and "does not hold a seat" in r.text
    with client.websocket_connect(f"/ws/games/{info['id']}?token=%C3%A9") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["status"] == 403


@pytest.mark.parametrize("method,path,status", [
    ("GET", "/api/nothing-here", 404),
    ("GET", "/api/games/abc/unknown", 404),
    ("POST", "/api/health", 405),
    ("DELETE", "/api/games", 405),
])
def test_unmatched_api_routes_use_the_error_shape(client, method, path, status):
    r = client.request(method, path)
    assert r.status_code == status
    body = r.json()
    assert set(body) == {"error"} and path in body["error"]
    assert "detail" not in body


def test_unmatched_page_is_a_friendly_html_404(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Error 404" in r.text and "/no/such/page" in r.text and 'href="/"' in r.text


def test_missing_static_file_is_404(client):
    r = client.get("/static/nope.js")
    assert r.status_code == 404
