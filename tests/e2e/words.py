"""What a person sees on a page, word by word: the helpers of tests/e2e/test_no_english.py.

``page_texts(page)`` collects every visible text of a page in a real browser: each text node
of a shown element (HTML and SVG ``<text>`` alike), the document title, the ``title``,
``aria-label``, ``placeholder`` and ``alt`` attributes and SVG ``<title>`` elements of visible
elements (what a pointer or a screen reader shows), the rule popover each board element shows
when pointed at (``CB.tipText``: a non-target hex's "hex 2,12 forest" too), and the ``<text>``
and ``<title>`` of the SVG pictures shown as ``<img>`` (the lobby's thumbnails); every
``<details>`` is opened first (the legend, "More choices", "Sources and alternatives"), so a
collapsed block is read as a person who opens it reads it. ``latin_words(texts, allow)`` lists the
Latin-letter words of three letters or more that are not in ``allow``: in 繁體中文 every such
word is English that was never translated (or never marked for translation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

COLLECT = """async () => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const out = [document.title];
  const shown = (el) => {
    if (el.closest('[hidden], template, script, style, noscript')) return false;
    if (typeof el.checkVisibility === 'function') {
      return el.checkVisibility({checkVisibilityCSS: true});
    }
    return true;
  };
  // one string per text node (two inline elements side by side are two texts)
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.nodeValue.trim() || !el || el.closest('svg title') || !shown(el)) continue;
    out.push(n.nodeValue);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (!shown(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) out.push(v);
    }
  }
  for (const t of document.querySelectorAll('svg title')) {
    if (t.parentElement && shown(t.parentElement)) out.push(t.textContent);
  }
  // the popover of every board element a pointer can rest on (play.js/common.js CB.tipText)
  if (typeof CB !== "undefined" && CB.tipText) {  // a global const, not a window property
    for (const el of document.querySelectorAll('svg [data-key], svg [data-terrain], svg [data-at]')) {
      if (shown(el)) out.push(CB.tipText(el)[1]);
    }
  }
  // the words drawn inside SVG pictures shown as images
  for (const img of document.querySelectorAll('img[src$=".svg"], img[src*=".svg?"]')) {
    if (!shown(img)) continue;
    const svg = new DOMParser().parseFromString(await (await fetch(img.src)).text(), 'image/svg+xml');
    for (const t of svg.querySelectorAll('text, title')) out.push(t.textContent);
  }
  return out;
}"""

WORD = re.compile(r"[A-Za-z\u00c0-\u024f_]+(?:['\u2019][A-Za-z]+)?")
"""A Latin-letter word (with accents, one apostrophe: "player's"); a word with an underscore
is an identifier (an option such as ``outskirts_loop``, typed as it is in every language)."""


def page_texts(page) -> list[str]:
    """Every visible text of ``page`` (see the module docstring), one string per source."""
    return [t for t in page.evaluate(COLLECT) if t and t.strip()]


SIDES = re.compile(r"[NESW]{3,4}")
"""Side letters run together (``sides NEW``: water on the north, east and west sides): the
notation of square and hex sides, the same in every language."""


def latin_words(texts: Iterable[str], allow: Iterable[str] = ()) -> dict[str, str]:
    """{word: the line it was seen in} of each Latin word of 3+ letters not in ``allow``
    (compared in lower case) and not side letters (``SIDES``)."""
    ok = {a.lower() for a in allow}
    found: dict[str, str] = {}
    for text in texts:
        for line in text.splitlines():
            for w in WORD.findall(line):
                if len(w) >= 3 and w.lower() not in ok and w not in found and not (
                        SIDES.fullmatch(w) or "_" in w):
                    found[w] = line.strip()[:120]
    return found
