"""Roll Builder sheets on the server: shipped ids or an uploaded document, never a path."""

from __future__ import annotations

import json
import os
import time
from importlib import resources

import pytest

from citybuilders.core.errors import CitybuildersError
from citybuilders.core.registry import load_game

H = "X-Seat-Token"
PATHS = ["/dev/zero", "/etc/passwd", "/nonexistent/sheet.json", "../../etc/hostname"]


def shipped_doc(name: str = "rivermouth") -> dict:
    text = resources.files("citybuilders.games.roll_builder").joinpath(
        f"data/{name}.json").read_text(encoding="utf-8")
    return json.loads(text)


def _assert_refused(r, field="options.sheet_file"):
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err.startswith(f"{field}: refused; the server reads no files"), err
    assert "root:" not in r.text  # nothing of the file is echoed


@pytest.mark.parametrize("path", PATHS)
def test_create_refuses_a_sheet_file_path(client, path):
    t0 = time.monotonic()
    r = client.post("/api/games", json={"game": "roll-builder",
                                        "options": {"sheet_file": path}})
    _assert_refused(r)
    assert time.monotonic() - t0 < 2


def test_a_fifo_is_refused_without_being_opened(client, tmp_path):
    fifo = tmp_path / "sheet.fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    r = client.post("/api/games", json={"game": "roll-builder",
                                        "options": {"sheet_file": str(fifo)}})
    _assert_refused(r)
    assert time.monotonic() - t0 < 2  # opening a FIFO would block until a writer comes


def test_the_form_and_the_import_refuse_sheet_file_too(client):
    r = client.post("/new", data={"game": "roll-builder", "opt.sheet_file": "/etc/passwd"})
    assert r.status_code == 400
    assert "options.sheet_file: refused" in r.text and "root:" not in r.text
    rec = {"game": "roll-builder", "rules_version": "1", "num_players": 1, "seed": 1,
           "options": {"sheet_file": "/dev/zero"}, "actions": []}
    _assert_refused(client.post("/api/records", json=rec), "record: options.sheet_file")
    # the home page form offers no path field
    assert 'name="opt.sheet_file"' not in client.get("/").text


def test_a_record_with_a_null_sheet_file_still_imports(client):
    info = client.post("/api/games", json={"game": "roll-builder", "seed": 5}).json()
    rec = client.get(f"/api/games/{info['id']}/record",
                     headers={H: info["seats"][0]["token"]}).json()
    # records made before the game took sheet documents carry "sheet_file": null
    assert rec["options"].get("sheet_file") is None
    rec["options"]["sheet_file"] = None
    rec["actions"] = [a for a in rec["actions"] if a is not None][:1]
    r = client.post("/api/records", json=rec)
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("doc, status, message", [
    ("rivermouth", 400, "options.sheet_doc: expected the sheet document as a JSON object, "
                        "got 'rivermouth'"),
    ([1, 2], 400, "options.sheet_doc: expected the sheet document as a JSON object, got a "
                  "JSON list"),
    ({"pad": "x" * 300_000}, 413, "options.sheet_doc: 300010 bytes, at most 200000"),
])
def test_a_bad_sheet_document_is_refused(client, doc, status, message):
    r = client.post("/api/games", json={"game": "roll-builder", "options": {"sheet_doc": doc}})
    assert r.status_code == status and r.json() == {"error": message}


def _engine_takes_sheet_doc() -> None:
    try:
        load_game("roll-builder", sheet_doc=shipped_doc())
    except CitybuildersError as exc:
        pytest.skip(f"the Roll Builder engine has no sheet_doc option yet ({exc})")


def test_an_uploaded_sheet_document_is_stored_in_the_game(client):
    _engine_takes_sheet_doc()
    doc = shipped_doc()
    r = client.post("/api/games", json={"game": "roll-builder", "seed": 3,
                                        "options": {"sheet_doc": doc}})
    assert r.status_code == 201, r.text
    info = r.json()
    tok = info["seats"][0]["token"]
    rec = client.get(f"/api/games/{info['id']}/record", headers={H: tok}).json()
    assert rec["options"]["sheet_doc"] == doc and rec["options"].get("sheet_file") is None
    rec["actions"] = [a for a in rec["actions"] if a is not None]
    r = client.post("/api/records", json=rec)  # the record is self-contained
    assert r.status_code == 201, r.text
    assert client.get(f"/api/games/{r.json()['id']}/replay?step=0&seat=0").status_code == 200


def test_an_invalid_uploaded_sheet_document_is_a_400_naming_it(client):
    _engine_takes_sheet_doc()
    r = client.post("/api/games", json={"game": "roll-builder",
                                        "options": {"sheet_doc": {"format": "nope"}}})
    assert r.status_code == 400 and "sheet" in r.json()["error"]


def test_the_lobby_form_uploads_a_sheet_file(client):
    _engine_takes_sheet_doc()
    assert 'name="opt.sheet_doc"' in client.get("/").text
    doc = shipped_doc()
    r = client.post("/new", data={"game": "roll-builder", "num_players": "1", "seat0": "human"},
                    files={"opt.sheet_doc": ("mine.json", json.dumps(doc, indent=1),
                                             "application/json")}, follow_redirects=False)
    assert r.status_code == 303, r.text
    gid, tok = r.headers["location"].split("/play/")[1].split("?t=")
    rec = client.get(f"/api/games/{gid}/record", headers={H: tok}).json()
    assert rec["options"]["sheet_doc"] == doc
