"""Personal API tokens, bot accounts, and how a challenge was answered.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import add_columns, drop_columns, times

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        *times("created_ms"),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])
    add_columns("players", sa.Column("bot", sa.Boolean, nullable=True))
    add_columns("seeks", sa.Column("answer", sa.String(100), nullable=True))


def downgrade() -> None:
    drop_columns("seeks", "answer")
    drop_columns("players", "bot")
    op.drop_index("ix_api_tokens_player_id", "api_tokens")
    op.drop_table("api_tokens")
