"""Online play: claimed invite links, spectator links and rematches.

``seats.invite_token``: the invite link of a seat once a browser claimed it (the seat's
``token`` is then that browser's own secret; later openers of the invite link get the
spectator view). ``games.spectator_token``: the secret of the game's spectator link (public
information only). ``games.rematch_id``: the game started as this one's rematch.

Revision ID: 0002_online
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_online"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three nullable columns (existing games: no claim, no spectator link yet)."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_token", sa.String(64), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("spectator_token", sa.String(64), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_id")
        batch.drop_column("spectator_token")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_token")
