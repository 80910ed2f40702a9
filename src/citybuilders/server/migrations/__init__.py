"""Alembic migrations of the web server's database (package data; run by ``store.migrate``)."""
