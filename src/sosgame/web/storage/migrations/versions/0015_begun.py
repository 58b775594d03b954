"""Whether a game has begun for good: every seat made its first move before a takeback.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa

from sosgame.web.storage.migrations.columns import add_columns, drop_columns

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("games", sa.Column("begun", sa.Boolean, nullable=True))


def downgrade() -> None:
    drop_columns("games", "begun")
