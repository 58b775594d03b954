"""Each game's standing offers (draw, takeback, rematch) and whether it was asked to be rated.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("offers", sa.Text, nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
        batch.drop_column("offers")
