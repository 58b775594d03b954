"""Players who claimed a name, their seats and OpenSkill ratings, the games already rated,
the shared session key and the login attempts the rate limit counts.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import game_key, player_key, times

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default=sa.text("0")),
        *times("created_ms"),
    )
    op.create_table(
        "player_seats",
        game_key(),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    )
    op.create_index("player_seats_player", "player_seats", ["player_id"])
    op.create_table(
        "rated_games",
        game_key(),
        sa.Column("rated", sa.Boolean, nullable=False),
        *times("rated_ms"),
    )
    op.create_table(
        "rating_history",
        player_key(),
        game_key(),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        *times("rated_ms"),
    )
    op.create_index("rating_history_time", "rating_history", ["rated_ms"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("address", sa.String(64), nullable=False),
        *times("at_ms"),
    )
    op.create_index("login_attempts_address", "login_attempts", ["address"])
    op.create_index("login_attempts_time", "login_attempts", ["at_ms"])


def downgrade() -> None:
    op.drop_index("login_attempts_time", "login_attempts")
    op.drop_index("login_attempts_address", "login_attempts")
    op.drop_table("login_attempts")
    op.drop_table("server_secrets")
    op.drop_index("rating_history_time", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("player_seats_player", "player_seats")
    op.drop_table("player_seats")
    op.drop_table("players")
