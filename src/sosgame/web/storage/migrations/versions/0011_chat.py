"""The players' chat of each game, kept for the record its players download.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("chat_messages_game_id", "chat_messages", ["game_id"])


def downgrade() -> None:
    op.drop_index("chat_messages_game_id", "chat_messages")
    op.drop_table("chat_messages")
