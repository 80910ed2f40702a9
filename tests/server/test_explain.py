"""What scored (server/explain.py): the end screen's board keys per seat and score part, from
the same leave-out test as the score calculator (exact keys on seeded games; the calculator
given the same final position highlights the same pieces)."""

from __future__ import annotations

import random

from citybuilders.core.registry import load_game
from citybuilders.games.kingdom_builder.rules.board import SIZE, bits
from citybuilders.server.explain import explain_state
from citybuilders.server.scorer import score_position


def finish(name: str, seed: int):
    """A game played to its end with seeded random moves (chance by its odds)."""
    st = load_game(name).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            st.apply_action(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
        else:
            p = st.active_players()[0]
            st.apply_action(rng.choice(st.legal_actions(p)))
    return st


def test_kingdom_builder_what_scored_and_the_calculator_agree():
    st = finish("kingdom-builder", 3)
    assert st.cards == ("miners", "citizens", "workers")
    ex = explain_state("kingdom-builder", st)
    assert set(ex) == {"0", "1"}
    assert set(ex["0"]) == {"miners", "citizens", "workers", "castles"}
    assert ex["0"]["workers"] == ["hex:2,18", "hex:3,17", "hex:7,15", "hex:7,16", "hex:8,15",
                                  "hex:9,15", "hex:9,16"]
    assert ex["0"]["castles"] == ["hex:2,17", "hex:8,16"]  # 6 gold: two castles
    assert ex["1"]["workers"] == ["hex:13,8"]
    assert ex["1"]["castles"] == []
    # the same position as a score file: the calculator highlights the same hexes
    data = {"sections": [list(s) for s in st.board.sections], "cards": list(st.cards),
            "settlements": [[[i // SIZE, i % SIZE] for i in bits(m)] for m in st.occ]}
    status, answer = score_position("kingdom-builder", data)
    assert status == 200
    assert answer["highlight"] == ex


def test_sprawlopolis_what_scored_is_one_shared_entry_matching_the_calculator():
    st = finish("sprawlopolis", 3)
    ex = explain_state("sprawlopolis", st)
    assert list(ex) == ["0"]  # co-operative: one shared city
    parts = st.scores()[0].parts
    assert set(ex["0"]) == set(parts)
    assert ex["0"]["commercial"] == ["cell:1,0", "cell:2,0"]
    assert ex["0"]["12 Superhighway"] == ["cell:-2,-2", "cell:-1,-2", "cell:-4,-2", "cell:-3,-2"]
    assert ex["0"]["park"] == []
    assert len(ex["0"]["roads"]) == 30
    status, answer = score_position("sprawlopolis", {"conditions": list(st.conditions),
                                                     "cards": st.placements_json()})
    assert status == 200
    hl = answer["highlight"]["0"]
    for part, keys in ex["0"].items():
        head = part.split(" ")[0]
        row = f"condition:{head}" if head.isdigit() else part if part == "roads" \
            else f"group:{part}"
        assert sorted(k.replace("cell:", "blk:") for k in keys) == sorted(hl[row]), part


def test_roll_into_town_and_roll_builder_what_scored():
    rit = explain_state("roll-into-town", finish("roll-into-town", 3))
    assert rit["0"]["houses"] == ["sq:0,3", "sq:2,3", "sq:3,1"]
    assert rit["0"]["river"] == ["sq:0,1"]
    assert rit["0"]["taverns"] == []
    rb = explain_state("roll-builder", finish("roll-builder", 3))
    assert rb["0"]["buildings"] == ["space:4,6", "space:1,5", "space:0,5", "space:4,4",
                                    "space:2,5", "space:7,3", "space:3,5"]
    assert rb["0"]["wonder"] == ["box:C1", "box:C2"]
    assert rb["0"]["roads"] == []  # roads scored 0: nothing to show


def test_a_running_game_or_an_unknown_game_explains_nothing():
    st = load_game("kingdom-builder").new_initial_state(seed=1)
    assert explain_state("no-such-game", st) == {}
    assert explain_state("sprawlopolis", object()) == {}
