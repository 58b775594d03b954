"""A version per game, so the database alone decides which move came first, and the queue
of computer moves that several server processes share.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

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
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("ready_ms", sa.BigInteger, nullable=False),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lease_ms", sa.BigInteger, nullable=False),
        sa.Column("watched_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("jobs_lease", "jobs", ["lease_ms"])


def downgrade() -> None:
    op.drop_index("jobs_lease", "jobs")
    op.drop_table("jobs")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
