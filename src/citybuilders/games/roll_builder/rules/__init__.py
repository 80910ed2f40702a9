"""Roll Builder rules: the state, legal moves and applying them (see rules/state.py)."""
