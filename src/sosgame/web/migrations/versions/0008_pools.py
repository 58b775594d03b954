"""Quick pairing: the players waiting in the pools, shared by every server process.

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("player", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("entered_ms", sa.BigInteger, nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.Column("game", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("pool_entries_pool", "pool_entries", ["pool"])
    op.create_index("pool_entries_holder", "pool_entries", ["holder"])
    op.create_index("pool_entries_address", "pool_entries", ["address"])


def downgrade() -> None:
    op.drop_index("pool_entries_address", "pool_entries")
    op.drop_index("pool_entries_holder", "pool_entries")
    op.drop_index("pool_entries_pool", "pool_entries")
    op.drop_table("pool_entries")
