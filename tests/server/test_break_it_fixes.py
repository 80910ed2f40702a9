"""Findings of a break-it trial, each fixed: lone surrogates, conflicting move fields, the rate
limit on imports, non-regular files given to the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from citybuilders.server.app import create_app

H = "X-Seat-Token"


@pytest.fixture()
def client(db_url):
    with TestClient(create_app(db_url, create_rate=3)) as c:
        yield c


def post_raw(client, url, text):
    return client.post(url, content=text.encode("utf-8"),
                       headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("url, text, message", [
    ("/api/games", '{"game": "sprawlopolis", "options": {"\\udfff": 1}}',
     "body.options: a key is not valid Unicode (a lone surrogate)"),
    ("/api/games", '{"game": "sprawlopolis", "seats": [{"kind": "human", "name": "\\udfff"}]}',
     "body.seats[0].name: not valid Unicode (a lone surrogate)"),
    ("/api/games", '{"game": "roll-builder", "options": {"sheet_doc": {"id": "\\udfff"}}}',
     "body.options.sheet_doc.id: not valid Unicode (a lone surrogate)"),
    ("/api/records", '{"game": "sprawlopolis", "rules_version": "\\udfff", "num_players": 1, '
                     '"seed": 1, "actions": []}',
     "body.rules_version: not valid Unicode (a lone surrogate)"),
])
def test_a_lone_surrogate_is_400_naming_the_field(client, url, text, message):
    r = post_raw(client, url, text)
    assert r.status_code == 400 and r.json() == {"error": message}


def test_conflicting_move_fields_are_refused(client):
    info = client.post("/api/games", json={"game": "sprawlopolis", "seed": 3}).json()
    tok = info["seats"][0]["token"]
    view = client.get(f"/api/games/{info['id']}/view", headers={H: tok}).json()
    legal = view["legal"]
    body = {"state_id": view["state_id"], "action": legal[0]["action"],
            "move": legal[-1]["text"]}
    r = client.post(f"/api/games/{info['id']}/act", json=body, headers={H: tok})
    assert r.status_code == 400
    assert r.json()["error"] == "body: give exactly one of action, move, path (got action, move)"
    after = client.get(f"/api/games/{info['id']}/view", headers={H: tok}).json()
    assert after["state_id"] == view["state_id"]  # nothing applied


def test_imports_count_against_the_create_rate(client):
    rec = {"game": "sprawlopolis", "rules_version": "1", "num_players": 1, "seed": 1,
           "actions": []}
    codes = [client.post("/api/records", json=rec).status_code for _ in range(5)]
    assert codes[:3] == [201, 201, 201] and codes[3:] == [429, 429]


@pytest.mark.parametrize("args", [["score", "sprawlopolis", "/dev/zero"],
                                  ["moves", "FIFO"], ["replay", "FIFO"]])
def test_the_cli_refuses_devices_and_fifos_at_once(tmp_path, args):
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    args = [str(fifo) if a == "FIFO" else a for a in args]
    out = subprocess.run([sys.executable, "-m", "citybuilders", *args], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2
    assert out.stderr.endswith("not a regular file (a device, FIFO or socket), expected a JSON "
                               "file\n") and out.stderr.count("\n") == 1


def test_the_cli_names_a_lone_surrogate(tmp_path):
    f = tmp_path / "final.json"
    f.write_text('{"cards": [{"card": 3, "row": 0, "col": 0, "note": "\\udfff"}]}')
    out = subprocess.run([sys.executable, "-m", "citybuilders", "score", "sprawlopolis", str(f)],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert out.stderr == ("error: final.json.cards[0].note: not valid Unicode (a lone "
                          "surrogate)\n")


def test_the_home_form_refuses_an_unknown_option(client):
    r = client.post("/new", data={"game": "sprawlopolis", "opt.nope": "1"})
    assert r.status_code == 400
    assert "options.nope: unknown option for sprawlopolis; allowed: " in r.text
