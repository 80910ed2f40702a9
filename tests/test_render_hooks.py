"""The presentation hooks of issue 12 (core/view.py): log keys, legends, final actions, rule
titles in the SVG, exact values per game."""

from __future__ import annotations

from citybuilders.core.registry import load_game


def test_log_keys_of_each_game() -> None:
    assert load_game("kingdom-builder").view.log_keys("paddock 3,4 5,4") == ["hex:3,4", "hex:5,4"]
    assert load_game("kingdom-builder").view.log_keys("end") == []
    assert load_game("sprawlopolis").view.log_keys("play 7 at -1,2 rot 180") == [
        "cell:-1,2", "cell:-1,3", "cell:0,2", "cell:0,3"]
    assert load_game("roll-into-town").view.log_keys("d1 farm 1,8") == ["sq:1,8"]
    rb = load_game("roll-builder").view
    assert rb.log_keys("road 4,5,E") == ["edge:4,5,E"]
    assert rb.log_keys("build 5 2,6") == ["space:2,6"]
    assert rb.log_keys("cross I5.5 bonus") == ["circle:I5.5"]


def test_final_actions_and_legends() -> None:
    from citybuilders.games.kingdom_builder.actions import END

    g = load_game("kingdom-builder")
    st = g.new_initial_state(2, 1)
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    p = st.current_player()
    assert g.view.final_actions(st, p, st.legal_actions(p)) == set()  # END not legal yet
    assert g.view.final_actions(st, p, [END, 0]) == {END}
    legend = dict(g.view.legend())
    assert legend["K"] == "castle: castles 3 gold each" and legend["W"].startswith("wagon")
    sp = load_game("sprawlopolis")
    s = sp.new_initial_state(1, 1)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    legal = s.legal_actions(0)
    assert sp.view.final_actions(s, 0, legal) == set(legal)
    assert [k for k, _ in sp.view.legend()][:4] == ["C", "I", "R", "P"]


def test_svg_titles_carry_the_rules() -> None:
    from citybuilders.games.sprawlopolis import texts as st

    sp = load_game("sprawlopolis")
    s = sp.new_initial_state(1, 2)
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    svg = s.render_svg(0)
    for n in s.conditions:
        assert f"<title>{n} " in svg and st.CONDITION_RULES[n].split("(")[0][:30] in svg
    kb = load_game("kingdom-builder").new_initial_state(2, 1)
    while kb.is_chance_node():
        kb.apply_action(kb.chance_outcomes()[0][0])
    svg = kb.render_svg(0)
    assert ">castle: castles 3 gold each</title>" in svg
    assert svg.count('class="kb-label"') == 40  # 20 row and 20 column numbers
