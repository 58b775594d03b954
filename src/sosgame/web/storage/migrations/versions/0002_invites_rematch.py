"""Invite secrets for free seats, public games and the link from a game to its rematch.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import drop_columns

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN: every database (SQLite too) does it without copying the table.
    op.add_column(
        "games", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("rematch", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("invite", sa.String(64), nullable=True))
    # Online games waiting for players were joinable by anyone before invites existed:
    # they stay so (as public games), rather than having seats nobody can ever take.
    op.execute(
        sa.text(
            "UPDATE games SET public = :yes WHERE kind = 'online' AND status = 'open'"
        ).bindparams(sa.bindparam("yes", True, type_=sa.Boolean))
    )


def downgrade() -> None:
    drop_columns("seats", "invite")
    drop_columns("games", "rematch", "public")
