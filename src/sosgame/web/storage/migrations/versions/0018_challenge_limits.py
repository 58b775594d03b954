"""Who may challenge an account, and to what games.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_limits",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("accept", sa.String(16), nullable=False),
        sa.Column("min_side", sa.Integer, nullable=True),
        sa.Column("max_side", sa.Integer, nullable=True),
        sa.Column("modes", sa.String(40), nullable=False),
        sa.Column("min_initial", sa.Integer, nullable=True),
        sa.Column("max_initial", sa.Integer, nullable=True),
        sa.Column("untimed", sa.Boolean, nullable=False),
        sa.Column("days", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("casual", sa.Boolean, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenge_limits")
