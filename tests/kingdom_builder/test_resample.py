"""Resampling (ISMCTS determinizations): the redealt position replays from its own history,
also after reshuffles, and the Crossroads second card is redealt jointly with the first."""

from __future__ import annotations

import random

import citybuilders
from citybuilders.core.game import CHANCE


def _walk(options: dict, seeds: range, players: int):
    g = citybuilders.load_game("kingdom-builder", **options)
    for seed in seeds:
        s = g.new_initial_state(players, seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_legal(s.sample_chance(rng))
            else:
                s.apply_legal(s.sample_action(rng))
            yield g, s


def test_resampled_history_replays_after_reshuffles() -> None:
    for options in ({}, {"expansions": ["crossroads"]}):
        reshuffled = 0
        for i, (g, s) in enumerate(_walk(options, range(3), 4)):
            if i % 13 or s.is_terminal():
                continue
            reshuffled += s.epoch > 0
            for p in range(s.num_players):
                d = s.resample_from_infostate(p, random.Random(i + p))
                replayed = g.state_from_json(d.to_json(), verify=True)  # RecordError if not
                assert replayed.information_state_key(p) == s.information_state_key(p)
                assert replayed.observation(p) == s.observation(p)
        assert reshuffled > 6, options


def test_crossroads_second_card_is_redealt_jointly() -> None:
    """An opponent holds two hidden cards and the deck has no card left of the second one's
    terrain: a joint redeal still gives that terrain to the first card sometimes (a draw of the
    first card from the deck alone, before the second, never could)."""
    found = 0
    for g, s in _walk({"expansions": ["crossroads"]}, range(40), 2):
        if s.is_terminal() or s.current_player() == CHANCE:
            continue
        me = s.current_player()
        q = 1 - me
        if s.visible_hand(q, me) is not None or s.visible_hand2(q, me) is not None:
            continue
        t2 = s.hand2[q]
        if s.deck[t2] or s.hand[q] == t2 or s.hand_epoch[q] != s.epoch \
                or s.hand2_epoch[q] != s.epoch:
            continue
        firsts = {s.resample_from_infostate(me, random.Random(k)).hand[q] for k in range(60)}
        assert t2 in firsts
        found += 1
        if found >= 3:
            break
    assert found >= 1
