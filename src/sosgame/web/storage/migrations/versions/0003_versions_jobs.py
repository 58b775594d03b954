"""A version per game, so the database alone decides which move came first, and the queue
of computer moves that several server processes share.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import drop_columns, game_key, times

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
    op.create_table(
        "jobs",
        game_key(),
        sa.Column("version", sa.Integer, nullable=False),
        *times("ready_ms"),
        sa.Column("holder", sa.String(64), nullable=True),
        *times("lease_ms"),
        sa.Column("watched_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("jobs_lease", "jobs", ["lease_ms"])


def downgrade() -> None:
    op.drop_index("jobs_lease", "jobs")
    op.drop_table("jobs")
    drop_columns("games", "version")
