"""Optional: the packaged card data and transcribed examples match the research digest files.

Skips when /work/shared (the digest) is not present; the package never reads it at run time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citybuilders.games.sprawlopolis.loader import CARDS, token_of

from .examples_data import PLACEMENT, SCORING

REF = Path("/work/shared/reference/sprawlopolis")
pytestmark = pytest.mark.skipif(not REF.is_dir(), reason="research digest not available")


def test_cards_match_digest() -> None:
    data = json.loads((REF / "cards.json").read_text(encoding="utf-8"))
    for entry in data["cards"]:
        card = CARDS[entry["number"]]
        assert card.name == entry["condition"]["name"]
        assert " ".join(token_of(c) for c in card.blocks) == " ".join(entry["block_side"]["grid"])


def test_examples_transcribed_completely() -> None:
    data = json.loads((REF / "examples.json").read_text(encoding="utf-8"))
    ids = {e["id"] for e in data["examples"]}
    assert ids == {e["id"] for e in SCORING} | {e["id"] for e in PLACEMENT}
    by_id = {e["id"]: e for e in data["examples"]}
    for e in SCORING:
        ref = by_id[e["id"]]
        assert {int(k): v for k, v in ref["expected"]["conditions"].items()} == e["conditions"]
        assert ref.get("rows", ref.get("resulting_rows")) == e.get("rows", e.get("resulting_rows"))
