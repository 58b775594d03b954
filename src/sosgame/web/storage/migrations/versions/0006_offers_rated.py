"""Each game's standing offers (draw, takeback, rematch) and whether it was asked to be rated.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa

from sosgame.web.storage.migrations.columns import add_columns, drop_columns

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns(
        "games",
        sa.Column("offers", sa.Text, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=True),
    )


def downgrade() -> None:
    drop_columns("games", "rated", "offers")
