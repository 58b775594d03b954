"""To whom each puzzle's solution was shown, and when: a puzzle is unrated for them for a
while after.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import times

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_reveals",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("viewer", sa.String(80), primary_key=True),
        *times("at_ms"),
    )
    op.create_index("puzzle_reveals_at", "puzzle_reveals", ["at_ms"])


def downgrade() -> None:
    op.drop_index("puzzle_reveals_at", "puzzle_reveals")
    op.drop_table("puzzle_reveals")
