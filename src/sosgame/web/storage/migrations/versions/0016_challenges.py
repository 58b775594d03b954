"""Challenges: a seek for one named player (``seeks.target``, their account).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa

from sosgame.web.storage.migrations.columns import add_columns, drop_columns

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("seeks", sa.Column("target", sa.Integer, nullable=True))


def downgrade() -> None:
    drop_columns("seeks", "target")
