"""The first tables: games, seats, actions.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``games`` (one row a game: its record header), ``seats`` and ``actions``."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("num_players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("note", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_games_owner", "games", ["owner"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_claimed_by", "seats", ["claimed_by"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("actor", sa.Integer, nullable=False),
        sa.Column("action", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    op.drop_table("actions")
    op.drop_index("ix_seats_claimed_by", "seats")
    op.drop_table("seats")
    op.drop_index("ix_games_owner", "games")
    op.drop_table("games")
