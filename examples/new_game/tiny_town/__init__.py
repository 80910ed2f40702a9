"""Tiny Town (registry id ``tiny-town``): the smallest game in the one folder shape.

A template for adding a game: copy this folder to ``src/citybuilders/games/tiny_town`` and add
one line to ``_GAMES`` in ``citybuilders/core/registry.py`` (see docs/developing.md).
"""
