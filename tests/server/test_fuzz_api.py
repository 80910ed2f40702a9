"""Property tests of the HTTP API and the websocket with hostile input (hypothesis).

Random JSON (huge integers, deep nesting, hostile strings, wrong types) is sent to create, act,
undo, import, view/replay/record; random text and binary frames to the websocket. Every reply
is a 2xx or a 4xx ``{"error": "field: problem"}`` (never 5xx, never a traceback); the server
logs no error. Imported records that were tampered with are refused with a 4xx or replayed
exactly. Bounded to about a minute (``max_examples`` below); ``COUNTS`` tallies the inputs
(printed with ``-s``; docs/server.md quotes a run).
"""

from __future__ import annotations

import json
import logging
import random
import re
from urllib.parse import quote
from collections import Counter

import pytest
from helpers import BACKENDS
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

H = "X-Seat-Token"
COUNTS: Counter[str] = Counter()
FIELD = re.compile(r"^[A-Za-z_][\w\[\]. :'-]*[:;]|^(unknown field|illegal move|the game|this is|"
                   r"game '[^']*' not found|/)")
SETTINGS = settings(max_examples=120, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

HOSTILE_TEXT = st.sampled_from(["", "<!--<script>", "</script>", "é", "\x00", "😀",
                                "../../etc/passwd", "/dev/zero", "a" * 5000, "null", "1e999"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
                    st.sampled_from([10**30, 2**63, -2**63, 2**64, 10**4000]),
                    st.floats(allow_nan=False, allow_infinity=False), HOSTILE_TEXT,
                    st.text(max_size=20))
JSONS = st.recursive(SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)),
    max_leaves=12)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


@pytest.fixture(scope="module", params=BACKENDS)
def fz(request, tmp_path_factory):
    from citybuilders.server import create_app

    errors = _Errors()
    logging.getLogger().addHandler(errors)
    url = (f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
           if request.param == "sqlite" else request.getfixturevalue("pg_cluster")
           .create_database())
    app = create_app(url)
    with TestClient(app, raise_server_exceptions=False) as c:
        c.errors = errors  # type: ignore[attr-defined]
        yield c
    logging.getLogger().removeHandler(errors)
    print("\nfuzzed inputs:", dict(COUNTS), "5xx:", COUNTS["5xx"])


def _encode(body) -> bytes:
    try:
        return json.dumps(body).encode()
    except ValueError:  # an int over 4300 digits: write it by hand
        return json.dumps(body, default=str).encode()


def check(c, r, what: str) -> None:
    COUNTS[what] += 1
    if r.status_code >= 500:
        COUNTS["5xx"] += 1
    assert r.status_code < 500, (what, r.status_code, r.text[:300])
    assert "Traceback" not in r.text
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        err = r.json()["error"]
        assert isinstance(err, str) and "\n" not in err and FIELD.match(err), (what, err)
    assert c.errors.records == [], c.errors.records


def _game(c, game="toy", seats=2):
    r = c.post("/api/games", json={"game": game, "seats": [{"kind": "human"}] * seats})
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


CREATE = st.fixed_dictionaries({}, optional={
    "game": st.one_of(st.sampled_from(["toy", "secrets", "simul", "sprawlopolis",
                                       "roll-builder", "kingdom-builder"]), JSONS),
    "num_players": st.one_of(st.integers(-3, 8), JSONS),
    "seats": st.one_of(st.lists(st.fixed_dictionaries({}, optional={
        "kind": st.one_of(st.sampled_from(["human", "invite", "bot"]), JSONS),
        "bot": st.one_of(st.sampled_from(["random", "greedy"]), JSONS),
        "name": st.one_of(HOSTILE_TEXT, JSONS)}), max_size=5), JSONS),
    "options": st.one_of(st.dictionaries(st.sampled_from(
        ["turns", "bonus", "rounds", "sheet", "sheet_file", "sheet_doc", "x"]), JSONS,
        max_size=3), JSONS),
    "seed": st.one_of(st.integers(-10, 2**64), JSONS),
    "extra": JSONS,
})


@SETTINGS
@given(body=st.one_of(CREATE, JSONS))
def test_fuzz_create(fz, body):
    r = fz.post("/api/games", content=_encode(body), headers={"content-type": "application/json"})
    check(fz, r, "create")


@SETTINGS
@given(body=st.one_of(st.fixed_dictionaries({}, optional={
    "state_id": st.one_of(st.integers(0, 8), JSONS),
    "action": st.one_of(st.integers(-2, 12), JSONS),
    "move": st.one_of(HOSTILE_TEXT, JSONS), "path": st.one_of(st.lists(HOSTILE_TEXT), JSONS),
    "token": JSONS}), JSONS), undo=st.booleans(), token=st.sampled_from(["own", "none", "bad"]))
def test_fuzz_act_and_undo(fz, body, undo, token):
    gid, toks = _game(fz)
    headers = {"content-type": "application/json"}
    if token != "none":
        headers[H] = toks[0] if token == "own" else "wrong"
    r = fz.post(f"/api/games/{gid}/{'undo' if undo else 'act'}", content=_encode(body),
                headers=headers)
    check(fz, r, "undo" if undo else "act")


@SETTINGS
@given(step=st.one_of(st.integers(-5, 50), st.text(max_size=6), st.just("9" * 5000)),
       seat=st.one_of(st.integers(-3, 5), st.text(max_size=6)),
       token=st.one_of(st.none(), HOSTILE_TEXT), gid=st.one_of(st.none(), HOSTILE_TEXT))
def test_fuzz_view_replay_record(fz, step, seat, token, gid):
    real, toks = _game(fz)
    gid = real if gid is None else quote(gid, safe="") or "x"
    params = {"step": str(step), "seat": str(seat)}
    if token is not None:
        params["token"] = token
    for path in ("view", "replay", "record"):
        check(fz, fz.get(f"/api/games/{gid}/{path}", params=params), path)


@SETTINGS
@given(rec=st.one_of(st.fixed_dictionaries({}, optional={
    "game": st.one_of(st.sampled_from(["toy", "simul", "sprawlopolis"]), JSONS),
    "rules_version": st.one_of(st.just("1"), JSONS),
    "options": st.one_of(st.dictionaries(st.sampled_from(["turns", "sheet_file", "x"]), JSONS,
                                         max_size=2), JSONS),
    "num_players": st.one_of(st.integers(-1, 5), JSONS),
    "seed": st.one_of(st.integers(-5, 2**64), JSONS),
    "actions": st.one_of(st.lists(st.one_of(st.integers(-3, 12), JSONS), max_size=8), JSONS)}),
    JSONS))
def test_fuzz_import(fz, rec):
    r = fz.post("/api/records", content=_encode(rec), headers={"content-type": "application/json"})
    check(fz, r, "import")


FRAMES = st.one_of(
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
    st.text(max_size=64).map(lambda t: ("text", t)),
    JSONS.map(lambda j: ("text", _encode(j).decode())),
    st.sampled_from([("text", '{"type": 1' + "0" * 5000 + "}"), ("text", "[" * 10000),
                     ("text", '{"type": "ping"'), ("bytes", b'{"type": "ping"}')]),
)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(frames=st.lists(FRAMES, min_size=1, max_size=6))
def test_fuzz_websocket_frames(fz, frames):
    gid, toks = _game(fz)
    with fz.websocket_connect(f"/ws/games/{gid}?token={toks[0]}") as ws:
        assert ws.receive_json()["type"] == "view"
        for kind, data in frames:
            COUNTS["ws frame"] += 1
            (ws.send_bytes if kind == "bytes" else ws.send_text)(data)
            m = ws.receive_json()
            assert m["type"] in ("error", "pong", "view"), m
            if m["type"] == "error":
                assert m["status"] == 400 and FIELD.match(m["error"]) or m["error"] == (
                    "malformed JSON"), m
        ws.send_text('{"type": "ping"}')  # still usable
        assert ws.receive_json() == {"type": "pong"}
    assert fz.errors.records == []


# ------------------------------------------------------------------ record tampering
def _played_record(game: str, seed: int, n: int) -> dict:
    from citybuilders.core.game import CHANCE
    from citybuilders.core.records import record_of
    from citybuilders.core.registry import load_game

    rng = random.Random(seed)
    g = load_game(game)
    s = g.new_initial_state(n, seed)
    for _ in range(40):
        if s.is_terminal():
            break
        if s.current_player() == CHANCE:
            s.apply_action(s.sample_chance(rng))
            continue
        p = rng.choice(s.active_players())
        s.apply_action(rng.choice(s.legal_actions(p)), p)
    return record_of(s).to_json()


MUTATIONS = st.sampled_from(["action", "drop", "insert", "swap", "truncate", "seed",
                             "num_players", "options", "rules_version", "pair", "game"])


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(game=st.sampled_from(["toy", "secrets", "simul"]), seed=st.integers(0, 2**40),
       mutations=st.lists(st.tuples(MUTATIONS, st.integers(0, 60), st.integers(-3, 40)),
                          max_size=3))
def test_tampered_records_are_refused_or_replayed_exactly(fz, game, seed, mutations):
    from citybuilders.core.errors import CitybuildersError
    from citybuilders.core.records import record_of, replay

    rec = _played_record(game, seed, 2)
    acts = rec["actions"]
    for kind, i, v in mutations:
        j = i % max(1, len(acts))
        if kind == "action" and acts:
            acts[j] = [acts[j][0], v] if isinstance(acts[j], list) else v
        elif kind == "drop" and acts:
            del acts[j]
        elif kind == "insert":
            acts.insert(j, v)
        elif kind == "swap" and len(acts) > 1:
            acts[j], acts[j - 1] = acts[j - 1], acts[j]
        elif kind == "truncate":
            del acts[j:]
        elif kind == "seed":
            rec["seed"] = [seed + v, 2**63 + v, -v][i % 3]
        elif kind == "num_players":
            rec["num_players"] = v
        elif kind == "options":
            rec["options"] = {"turns": v} if game == "toy" else {"rounds": v}
        elif kind == "rules_version":
            rec["rules_version"] = str(v)
        elif kind == "pair" and acts:
            acts[j] = [v % 3, acts[j] if isinstance(acts[j], int) else 0]
        elif kind == "game":
            rec["game"] = ["toy", "secrets", "simul", "nope"][i % 4]
    COUNTS["tampered record"] += 1
    r = fz.post("/api/records", json=rec)
    check(fz, r, "import")
    try:
        expected = replay(rec) if 0 <= rec["seed"] < 2**63 else None
    except CitybuildersError:
        expected = None
    COUNTS["tampered record " + ("replayed" if r.status_code == 201 else "refused")] += 1
    if r.status_code == 201:
        assert expected is not None, rec
        got = fz.get(f"/api/games/{r.json()['id']}/record").json()
        # exactly the replayed history (a needless [actor, action] pair in a game that is not
        # simultaneous is written back as the plain action, as every record writes it)
        assert got["actions"] == record_of(expected).to_json()["actions"]
        assert got["seed"] == rec["seed"]
        assert r.json()["steps"] == len(expected.history())
    else:
        assert 400 <= r.status_code < 500
        assert expected is None, (rec, r.json())
