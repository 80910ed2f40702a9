"""Alembic revision scripts, oldest first (``0001`` creates the first tables)."""
