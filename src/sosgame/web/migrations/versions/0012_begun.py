"""Whether a game has begun for good: every seat made its first move before a takeback.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa

from sosgame.web.migrations.columns import add_columns, drop_columns

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("games", sa.Column("begun", sa.Boolean, nullable=True))


def downgrade() -> None:
    drop_columns("games", "begun")
