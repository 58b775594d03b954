"""Games, their seats and their moves.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import board, game_key, times

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        *board(),
        sa.Column("start", sa.Text, nullable=True),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        *times("created_ms", "updated_ms"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "seats",
        game_key(),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("player", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        game_key(),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("action", sa.String(16), nullable=False),
        *times("created_ms"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_games_status", "games")
    op.drop_table("games")
