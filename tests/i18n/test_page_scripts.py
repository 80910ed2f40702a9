"""The page scripts show people no string literal outside CB.t (their texts are translated
through the strings block the server puts in every page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "citybuilders" / "server" / "static"
# a literal with a word in it, put where people read it: text: "...", textContent = "...",
# .append("..."), title/placeholder/aria-label attributes, alert/confirm
SHOWN = re.compile(
    r"""(?:\btext\s*:\s*|\.textContent\s*=\s*|\.innerText\s*=\s*|\.append\(\s*|"""
    r"""\b(?:title|placeholder|"aria-label")\s*:\s*|\b(?:alert|confirm|prompt)\(\s*)"""
    r"""(["'`])([^"'`]*)""")


def _shows_words(literal: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2}", re.sub(r"\$\{[^}]*\}", "", literal)))


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_no_visible_string_literal_outside_cb_t(path):
    bad = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "/*", "*")):
            continue
        for m in SHOWN.finditer(line):
            if _shows_words(m.group(2)):
                bad.append(f"{path.name}:{n}: {line.strip()[:100]}")
    assert bad == [], "wrap these in CB.t(...):\n" + "\n".join(bad)


def test_the_scan_finds_a_bare_literal(tmp_path):
    def found(line):
        return [m for m in SHOWN.finditer(line) if _shows_words(m.group(2))]

    assert found('box.append(CB.el("p", { text: "Nothing here" }));')
    assert found('el.textContent = "Waiting";')
    assert found("el.textContent = `Move ${n}`;")
    assert not found("el.textContent = `${a} / ${b}`;")
    assert not found('box.append(CB.el("p", { text: CB.t("Nothing here") }));')
    assert not found('CB.el("div", { class: "status" })')


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_every_cb_t_call_names_its_msgid_literally(path):
    """The catalog extractor reads the first argument of ``CB.t(...)`` only when it is a
    string literal: ``CB.t(cond ? "a" : "b")`` left both strings English on every page
    (Roll into Town's "flowing N–S" buttons). The wrapper in online.js passes its own
    literal msgids on."""
    bad = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "/*", "*")):
            continue
        for m in re.finditer(r"\bCB\.t\(\s*(.)", line):
            if m.group(1) not in "\"'" and "CB.t(s, v)" not in line:
                bad.append(f"{path.name}:{n}: {line.strip()[:100]}")
    assert bad == []
