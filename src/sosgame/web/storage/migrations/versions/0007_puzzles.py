"""Puzzle ratings: each named player's Glicko-2 puzzle rating, each puzzle's, and every
player's first attempt at each puzzle.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import player_key, times

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _ratings(name: str, key: sa.Column[object]) -> None:
    op.create_table(
        name,
        key,
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
    )


def upgrade() -> None:
    _ratings("puzzle_players", player_key())
    _ratings("puzzle_ratings", sa.Column("puzzle_id", sa.String(16), primary_key=True))
    op.create_table(
        "puzzle_attempts",
        player_key(),
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        *times("at_ms"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_players")
