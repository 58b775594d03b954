"""Sessions the server can end, each game's owner (for the per-client caps), and each
player's confusables skeleton (so look-alike names count as one).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import add_columns, drop_columns, times

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        *times("created_ms", "expires_ms"),
    )
    op.create_index("sessions_player", "sessions", ["player_id"])
    op.create_index("sessions_expires", "sessions", ["expires_ms"])
    add_columns(
        "games",
        sa.Column("owner", sa.String(100), nullable=True),
        sa.Column("owner_player", sa.Integer, nullable=True),
    )
    op.create_index("games_owner", "games", ["owner"])
    add_columns("players", sa.Column("skeleton", sa.String(400), nullable=True))
    op.create_index("players_skeleton", "players", ["skeleton"])


def downgrade() -> None:
    op.drop_index("players_skeleton", "players")
    drop_columns("players", "skeleton")
    op.drop_index("games_owner", "games")
    drop_columns("games", "owner_player", "owner")
    op.drop_index("sessions_expires", "sessions")
    op.drop_index("sessions_player", "sessions")
    op.drop_table("sessions")
