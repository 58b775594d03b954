"""Quick pairing and seeks: the players waiting in the pools, and the games offered in the
lobby with their members, shared by every server process.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import board, client, member, times

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("player", sa.String(64), nullable=False, unique=True),
        *member(),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        *client(),
        *times("entered_ms", "seen_ms"),
        sa.Column("game", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("pool_entries_pool", "pool_entries", ["pool"])
    op.create_index("pool_entries_holder", "pool_entries", ["holder"])
    op.create_index("pool_entries_address", "pool_entries", ["address"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("creator", sa.String(64), nullable=False),
        *client(),
        *board(),
        sa.Column("clock", sa.Text, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("min_rating", sa.Float, nullable=True),
        sa.Column("max_rating", sa.Float, nullable=True),
        *times("created_ms", "seen_ms"),
        sa.Column("game", sa.String(32), nullable=True),
    )
    for column in ("creator", "holder", "address"):
        op.create_index(f"seeks_{column}", "seeks", [column])
    op.create_table(
        "seek_members",
        sa.Column("seek_id", sa.String(32), sa.ForeignKey("seeks.id"), primary_key=True),
        sa.Column("member", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        *member(),
        sa.Column("token_hash", sa.String(64), nullable=False),
        *times("joined_ms"),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("seek_members_holder", "seek_members", ["holder"])


def downgrade() -> None:
    op.drop_index("seek_members_holder", "seek_members")
    op.drop_table("seek_members")
    for column in ("creator", "holder", "address"):
        op.drop_index(f"seeks_{column}", "seeks")
    op.drop_table("seeks")
    op.drop_index("pool_entries_address", "pool_entries")
    op.drop_index("pool_entries_holder", "pool_entries")
    op.drop_index("pool_entries_pool", "pool_entries")
    op.drop_table("pool_entries")
