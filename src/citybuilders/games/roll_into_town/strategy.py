"""Roll into Town bot heuristics (placeholder)."""
from __future__ import annotations
def evaluate(state, player):
    return float(state.scores()[player].total)
def greedy_action(state, player, rng):
    return None
