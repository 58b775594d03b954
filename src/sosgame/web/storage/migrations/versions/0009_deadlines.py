"""Correspondence games: when the seat to move of each runs out of days, so that the sweep
finds the games overdue without reading every clock; and the days per move of a seek.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import add_columns, drop_columns

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("games", sa.Column("deadline_ms", sa.BigInteger, nullable=True))
    op.create_index("games_deadline", "games", ["deadline_ms"])
    add_columns("seeks", sa.Column("days", sa.Integer, nullable=True))


def downgrade() -> None:
    drop_columns("seeks", "days")
    op.drop_index("games_deadline", "games")
    drop_columns("games", "deadline_ms")
