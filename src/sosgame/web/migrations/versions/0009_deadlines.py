"""Correspondence games: when the seat to move of each runs out of days, so that the sweep
finds the games overdue without reading every clock; and the days per move of a seek.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline_ms", sa.BigInteger, nullable=True))
    op.create_index("games_deadline", "games", ["deadline_ms"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("days", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("days")
    op.drop_index("games_deadline", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline_ms")
