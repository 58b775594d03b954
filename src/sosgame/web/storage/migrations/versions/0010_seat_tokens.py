"""An index on the seats' token hashes, so "my games" finds a browser's games by the tokens
it holds without reading every seat.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("seats_token_hash", "seats", ["token_hash"])


def downgrade() -> None:
    op.drop_index("seats_token_hash", "seats")
