"""Sessions the server can end, each game's owner (for the per-client caps), and each
player's confusables skeleton (so look-alike names count as one).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("sessions_player", "sessions", ["player_id"])
    op.create_index("sessions_expires", "sessions", ["expires_ms"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("owner", sa.String(100), nullable=True))
        batch.add_column(sa.Column("owner_player", sa.Integer, nullable=True))
    op.create_index("games_owner", "games", ["owner"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("skeleton", sa.String(400), nullable=True))
    op.create_index("players_skeleton", "players", ["skeleton"])


def downgrade() -> None:
    op.drop_index("players_skeleton", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skeleton")
    op.drop_index("games_owner", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("owner_player")
        batch.drop_column("owner")
    op.drop_index("sessions_expires", "sessions")
    op.drop_index("sessions_player", "sessions")
    op.drop_table("sessions")
