"""Hostile input files for every CLI command that reads a file: each must give one line
``error: ...`` and exit code 2, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import assert_user_error, run_cli

COMMANDS = [
    ("score", "kingdom-builder"),
    ("score", "sprawlopolis"),
    ("score", "roll-into-town"),
    ("score", "roll-builder"),
    ("moves",),
    ("replay",),
    ("sheets", "check"),
]

BAD_CONTENTS = {
    "deeply_nested_array": ("[" * 100000 + "]" * 100000, "nested too deeply"),
    "deeply_nested_object": ('{"a":' * 50000 + "1" + "}" * 50000, "nested too deeply"),
    "huge_integer": ('{"game": 1, "a": ' + "9" * 5000 + "}", "digits"),
    "nan": ('{"game": "kingdom-builder", "num_players": NaN}', "NaN is not a JSON number"),
    "infinity": ('{"seed": -Infinity}', "-Infinity is not a JSON number"),
}


@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("kind", sorted(BAD_CONTENTS))
def test_malformed_json_is_one_line(capsys, tmp_path: Path, cmd, kind: str) -> None:
    text, fragment = BAD_CONTENTS[kind]
    p = tmp_path / "bad.json"
    p.write_text(text, encoding="utf-8")
    code, out, err = run_cli(capsys, *cmd, str(p))
    assert_user_error(code, err, str(p), fragment)


@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
def test_binary_file_is_one_line(capsys, tmp_path: Path, cmd) -> None:
    p = tmp_path / "bin.json"
    p.write_bytes(bytes(range(128, 256)) * 8)
    code, out, err = run_cli(capsys, *cmd, str(p))
    assert_user_error(code, err, "not a UTF-8 text file")


@pytest.mark.parametrize("cmd", COMMANDS, ids=" ".join)
def test_directory_and_missing_file(capsys, tmp_path: Path, cmd) -> None:
    code, out, err = run_cli(capsys, *cmd, str(tmp_path))
    assert_user_error(code, err, "is a directory")
    code, out, err = run_cli(capsys, *cmd, str(tmp_path / "nope.json"))
    assert_user_error(code, err, "no such file")


def test_byte_order_mark_is_accepted(capsys, tmp_path: Path) -> None:
    """Windows editors save UTF-8 with a BOM; the file is still the documented JSON."""
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + b'{"conditions": [10, 12, 18], "grid": ["P I-NE", "C-EW R-EW"]}')
    code, out, err = run_cli(capsys, "score", "sprawlopolis", str(p), "--json")
    assert code == 0, err
    assert '"total": 8' in out


def test_too_large_file_is_refused_without_reading(capsys, tmp_path: Path, monkeypatch) -> None:
    import citybuilders.cli as cli

    monkeypatch.setattr(cli, "MAX_FILE_BYTES", 1000)
    p = tmp_path / "big.json"
    p.write_text('{"a": "' + "x" * 2000 + '"}', encoding="utf-8")
    code, out, err = run_cli(capsys, "score", "kingdom-builder", str(p))
    assert_user_error(code, err, "file too large")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(capsys, tmp_path: Path) -> None:
    p = tmp_path / "secret.json"
    p.write_text("{}", encoding="utf-8")
    p.chmod(0)
    code, out, err = run_cli(capsys, "moves", str(p))
    assert_user_error(code, err, "cannot read")
